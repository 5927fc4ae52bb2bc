// Readings of where playback is: the manager's snapshot, and the status the session reports.

/// A moment-in-time reading of the playback manager, safe to take from any thread.
public struct PlaybackSnapshot: Sendable, Equatable {
  public var position: MediaTime
  public var framesDecoded: Int
  public var decodeErrors: Int
  /// How many times playback has reached the end of the media (looping counts each pass).
  public var loops: Int
  /// On the wall clock: the 99th percentile of how late frames were shown, in milliseconds, over the
  /// frames shown since the last seek; nil on other clocks or before any frame was paced.
  public var latenessP99: Double?

  public init(
    position: MediaTime, framesDecoded: Int, decodeErrors: Int, loops: Int = 0, latenessP99: Double? = nil
  ) {
    self.position = position
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
    self.loops = loops
    self.latenessP99 = latenessP99
  }
}

/// What `status` reports.
public struct PlaybackStatus: Sendable, Equatable {
  public var state: PlaybackState
  public var position: MediaTime
  public var duration: MediaTime?
  public var rate: Double
  public var framesDecoded: Int
  public var decodeErrors: Int
  public var loops: Int
  /// See `PlaybackSnapshot.latenessP99`.
  public var latenessP99: Double?

  public init(
    state: PlaybackState, position: MediaTime, duration: MediaTime?, rate: Double, framesDecoded: Int,
    decodeErrors: Int, loops: Int = 0, latenessP99: Double? = nil
  ) {
    self.state = state
    self.position = position
    self.duration = duration
    self.rate = rate
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
    self.loops = loops
    self.latenessP99 = latenessP99
  }
}

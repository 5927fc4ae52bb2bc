// Readings of where playback is: the manager's snapshot, and the status the session reports.

/// What the engine's decoded-frame cache holds, and how often it answered.
public struct FrameCacheReading: Sendable, Equatable {
  /// Frames held, and their bytes.
  public var frames: Int
  public var bytes: Int
  /// Seeks and steps it answered without decoding, and those that decoded.
  public var hits: Int
  public var misses: Int

  public init(frames: Int = 0, bytes: Int = 0, hits: Int = 0, misses: Int = 0) {
    self.frames = frames
    self.bytes = bytes
    self.hits = hits
    self.misses = misses
  }
}

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
  /// The engine's decoded-frame cache: what it holds, and how often seeks and steps found their frame there.
  public var frameCache: FrameCacheReading

  public init(
    position: MediaTime, framesDecoded: Int, decodeErrors: Int, loops: Int = 0, latenessP99: Double? = nil,
    frameCache: FrameCacheReading = FrameCacheReading()
  ) {
    self.position = position
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
    self.loops = loops
    self.latenessP99 = latenessP99
    self.frameCache = frameCache
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
  /// See `PlaybackSnapshot.frameCache`.
  public var frameCache: FrameCacheReading
  /// With no file loaded: whether the next file opens paused (nil: a file is loaded, or it was not told).
  package var opensPaused: Bool?
  /// Where the current entry stands in the queue, when the session plays a list (nil: it plays one file).
  package var entry: QueuePosition?

  package init(
    state: PlaybackState, position: MediaTime, duration: MediaTime?, rate: Double, framesDecoded: Int,
    decodeErrors: Int, loops: Int = 0, latenessP99: Double? = nil, frameCache: FrameCacheReading = FrameCacheReading()
  ) {
    self.frameCache = frameCache
    self.state = state
    self.position = position
    self.duration = duration
    self.rate = rate
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
    self.loops = loops
    self.latenessP99 = latenessP99
  }

  /// The session's state with the manager's counters from `snapshot`, at `position` (the snapshot's own unless a
  /// seek's target stands in for it).
  init(
    state: PlaybackState, duration: MediaTime?, rate: Double, snapshot: PlaybackSnapshot, position: MediaTime? = nil
  ) {
    self.init(
      state: state, position: position ?? snapshot.position, duration: duration, rate: rate,
      framesDecoded: snapshot.framesDecoded, decodeErrors: snapshot.decodeErrors, loops: snapshot.loops,
      latenessP99: snapshot.latenessP99, frameCache: snapshot.frameCache)
  }
}

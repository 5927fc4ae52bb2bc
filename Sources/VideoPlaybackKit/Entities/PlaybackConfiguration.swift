// How the engine is asked to pace and report.

/// How the engine should pace and report.
public struct PlaybackConfiguration: Sendable, Equatable {
  public var clock: ClockKind
  /// Media seconds between progress reports; nil for none.
  public var progressInterval: Double?
  /// At the end, go on from the start without a gap (reporting each end) instead of stopping.
  public var loops: Bool
  /// The session will play as soon as the file is ready: a hint that lets the engine prepare for playing (on the
  /// wall clock, a decoder that needs only real time) rather than for seeking.
  public var startsPlaying: Bool
  /// Bytes of decoded frames the engine may keep for seeks and backward steps (0: none).
  public var frameCacheBytes: Int
  /// The file is opened ahead of its turn, while another file plays (the next entry of a playlist): a hint that the
  /// opening should give way to the playing file's frames (on the wall clock, a lower scheduling priority) and that
  /// playing will follow on the wall clock's real-time decoder. Its events come as for any file; the session holds
  /// them until the file's turn.
  public var opensAhead: Bool

  /// The frame cache's size when none is given: see docs/frame-cache.md.
  public static let defaultFrameCacheBytes = 256 << 20

  public init(
    clock: ClockKind, progressInterval: Double?, loops: Bool = false, startsPlaying: Bool = false,
    frameCacheBytes: Int = PlaybackConfiguration.defaultFrameCacheBytes, opensAhead: Bool = false
  ) {
    self.opensAhead = opensAhead
    self.frameCacheBytes = frameCacheBytes
    self.clock = clock
    self.progressInterval = progressInterval
    self.loops = loops
    self.startsPlaying = startsPlaying
  }
}

// How a session plays: its state, and the choices made on the command line (clock, end action, seek mode).

/// Where playback is. `idle` before a file is opened, `loading` while it opens.
public enum PlaybackState: String, Sendable, CaseIterable {
  case idle, loading, playing, paused, ended
}

/// How a seek lands: `exact` shows the frame whose display interval contains the target;
/// `keyframe` lands on the nearest keyframe at or before it, which is faster; `nextKeyframe` (`next-keyframe`) on the
/// first keyframe at or after it (mpv's keyframe seek forward), or at the end when no keyframe follows.
public enum SeekMode: String, Sendable, CaseIterable {
  case exact, keyframe
  case nextKeyframe = "next-keyframe"
}

/// What to do when playback reaches the end of the media: leave, stay paused on the last frame, go on from the start,
/// or close the file and wait for the next (`idle`, as mpv's `--idle` does).
public enum EndAction: String, Sendable, CaseIterable {
  case exit, pause, loop, idle
}

/// Which clock paces playback. `wall`: real time scaled by the rate. `free`: no waiting at all.
/// `virtual`: time moves only when a `wait` moves it, so a session's output is the same every run.
public enum ClockKind: String, Sendable, CaseIterable {
  case wall, free, virtual
}

/// How the session was asked to play.
public struct PlaybackOptions: Sendable, Equatable {
  public var autoplay: Bool
  /// Where every file the session loads opens, unless the command that loads it gives a start of its own.
  public var start: TimeSpec? {
    get { if case .time(let time) = fileStart { time } else { nil } }
    set { fileStart = newValue.map(FileStart.time) }
  }
  /// `start`, or a time before each file's end (`--start -5`).
  package var fileStart: FileStart?
  public var clock: ClockKind
  /// Media seconds between `progress` events; nil for none.
  public var progressInterval: Double?
  public var endAction: EndAction
  public var seekMode: SeekMode
  /// Where the frame on screen is saved when an `expect frame.*` fails (`vpk test`); nil: it is not saved.
  package var failurePictures: FailurePictures?
  /// Bytes of decoded frames the engine may keep for seeks and backward steps (0: none).
  public var frameCacheBytes: Int
  /// The rate the session starts at (`--rate`), and a file opened beside a loaded one (`open`) opens at; not on the
  /// free clock.
  package var rate = 1.0
  /// The files to play one after another (several files, a folder or a list file on the command line); nil: the one
  /// file the session starts with, if any.
  package var playlist: PlayQueue?

  public init(
    autoplay: Bool = true, start: TimeSpec? = nil, clock: ClockKind = .wall, progressInterval: Double? = 1,
    endAction: EndAction = .exit, seekMode: SeekMode = .exact,
    frameCacheBytes: Int = PlaybackConfiguration.defaultFrameCacheBytes
  ) {
    self.frameCacheBytes = frameCacheBytes
    self.autoplay = autoplay
    self.fileStart = start.map(FileStart.time)
    self.clock = clock
    self.progressInterval = progressInterval
    self.endAction = endAction
    self.seekMode = seekMode
  }
}

/// Names the PNGs of the frames on screen when `expect frame.*` checks fail: `<folder>/<stem>.line<N>.png`, N the
/// script's line (or `.command<N>` for a command with no line).
package struct FailurePictures: Sendable, Equatable {
  package var folder: String
  package var stem: String

  package init(folder: String, stem: String) {
    self.folder = folder
    self.stem = stem
  }

  package func path(for source: SourceLine?, commandID: Int) -> String {
    let place = source.map { "line\($0.number)" } ?? "command\(commandID)"
    let name = "\(stem).\(place).png"
    guard !folder.isEmpty else { return name }
    return folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }
}

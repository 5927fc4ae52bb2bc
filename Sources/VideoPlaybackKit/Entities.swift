// Entities: the plain values the module's roles pass to each other.
// None of them knows about FFmpeg; the engine translates into and out of them.

/// vpk's version, as `--version` and the JSON `hello` report it.
public enum VideoPlaybackKitVersion {
  public static let current = "0.1.0"
}

/// A point or span on the media timeline, in seconds from the start of the media.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var seconds: Double

  public init(seconds: Double) { self.seconds = seconds }
  public static let zero = MediaTime(seconds: 0)

  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { lhs.seconds < rhs.seconds }
  public static func + (lhs: MediaTime, rhs: Double) -> MediaTime { MediaTime(seconds: lhs.seconds + rhs) }
  public static func - (lhs: MediaTime, rhs: MediaTime) -> Double { lhs.seconds - rhs.seconds }

  /// This time limited to `0...duration` (or to `0...` when the duration is unknown).
  public func clamped(to duration: MediaTime?) -> MediaTime {
    var value = max(0, seconds)
    if let duration { value = min(value, duration.seconds) }
    return MediaTime(seconds: value)
  }

  public var description: String { String(seconds) }
}

/// Where playback is. `idle` before a file is opened, `loading` while it opens.
public enum PlaybackState: String, Sendable, CaseIterable {
  case idle, loading, playing, paused, ended
}

/// How a seek lands: `exact` shows the frame whose display interval contains the target;
/// `keyframe` lands on the nearest keyframe at or before it, which is faster.
public enum SeekMode: String, Sendable, CaseIterable {
  case exact, keyframe
}

/// What to do when playback reaches the end of the media.
public enum EndAction: String, Sendable, CaseIterable {
  case exit, pause, loop
}

/// Which clock paces playback. `wall`: real time scaled by the rate. `free`: no waiting at all.
/// `virtual`: time moves only when a `wait` moves it, so a session's output is the same every run.
public enum ClockKind: String, Sendable, CaseIterable {
  case wall, free, virtual
}

/// One absolute seek, as the interactor hands it to the playback manager.
public struct SeekRequest: Sendable, Equatable {
  public var id: Int
  public var target: MediaTime
  public var mode: SeekMode

  public init(id: Int, target: MediaTime, mode: SeekMode) {
    self.id = id
    self.target = target
    self.mode = mode
  }
}

/// How a seek ended, as the playback manager reports it.
public struct SeekResult: Sendable, Equatable {
  public var id: Int
  public var target: MediaTime
  /// Where playback now is: the target for exact seeks, the keyframe's time for keyframe seeks.
  public var position: MediaTime
  public var mode: SeekMode
  /// Wall-clock time from the request to the landing, in milliseconds.
  public var milliseconds: Double

  public init(id: Int, target: MediaTime, position: MediaTime, mode: SeekMode, milliseconds: Double) {
    self.id = id
    self.target = target
    self.position = position
    self.mode = mode
    self.milliseconds = milliseconds
  }
}

public struct VideoStreamInfo: Sendable, Equatable {
  public var codec: String
  public var width: Int
  public var height: Int
  /// Frames per second, as the stream declares it; nil when unknown.
  public var frameRate: Double?
  public var pixelFormat: String
  public var bitRate: Int?

  public init(codec: String, width: Int, height: Int, frameRate: Double?, pixelFormat: String, bitRate: Int? = nil) {
    self.codec = codec
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.pixelFormat = pixelFormat
    self.bitRate = bitRate
  }
}

public struct AudioStreamInfo: Sendable, Equatable {
  public var codec: String
  public var sampleRate: Int
  public var channels: Int
  public var bitRate: Int?

  public init(codec: String, sampleRate: Int, channels: Int, bitRate: Int? = nil) {
    self.codec = codec
    self.sampleRate = sampleRate
    self.channels = channels
    self.bitRate = bitRate
  }
}

/// What a file holds, reported by `ready` and `info`.
public struct MediaInfo: Sendable, Equatable {
  public var path: String
  /// The container's short name(s), as FFmpeg names them (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
  public var container: String
  /// Nil when the container does not say (a raw stream, a file written to a pipe).
  public var duration: MediaTime?
  public var bitRate: Int?
  public var streamCount: Int
  public var video: VideoStreamInfo?
  public var audio: AudioStreamInfo?

  public init(
    path: String, container: String, duration: MediaTime?, bitRate: Int? = nil, streamCount: Int,
    video: VideoStreamInfo?, audio: AudioStreamInfo?
  ) {
    self.path = path
    self.container = container
    self.duration = duration
    self.bitRate = bitRate
    self.streamCount = streamCount
    self.video = video
    self.audio = audio
  }
}

/// The frame on screen: enough to identify it and check it against `ffmpeg -f framemd5`.
public struct FrameIdentity: Sendable, Equatable {
  /// Presentation timestamp in the stream's time base.
  public var pts: Int64
  /// The stream's time base as numerator/denominator.
  public var timeBase: (num: Int32, den: Int32)
  /// Presentation time in seconds from the start of the media.
  public var time: MediaTime
  public var isKeyframe: Bool
  public var width: Int
  public var height: Int
  public var pixelFormat: String
  /// MD5 of the frame's pixels packed with no padding, as `ffmpeg -f framemd5` computes it.
  public var md5: String

  public init(
    pts: Int64, timeBase: (num: Int32, den: Int32), time: MediaTime, isKeyframe: Bool, width: Int, height: Int,
    pixelFormat: String, md5: String
  ) {
    self.pts = pts
    self.timeBase = timeBase
    self.time = time
    self.isKeyframe = isKeyframe
    self.width = width
    self.height = height
    self.pixelFormat = pixelFormat
    self.md5 = md5
  }

  public static func == (lhs: FrameIdentity, rhs: FrameIdentity) -> Bool {
    lhs.pts == rhs.pts && lhs.timeBase == rhs.timeBase && lhs.time == rhs.time && lhs.isKeyframe == rhs.isKeyframe
      && lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixelFormat == rhs.pixelFormat
      && lhs.md5 == rhs.md5
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

/// One frame step, as the interactor hands it to the playback manager: pause and show the frame
/// `count` frames after (positive) or before (negative) the one on screen.
public struct StepRequest: Sendable, Equatable {
  public var id: Int
  public var count: Int

  public init(id: Int, count: Int) {
    self.id = id
    self.count = count
  }
}

/// How a step ended: how far it got (fewer frames than asked at either end of the media) and where.
public struct StepResult: Sendable, Equatable {
  public var id: Int
  public var requested: Int
  public var moved: Int
  /// The shown frame's start time, which is now the position.
  public var position: MediaTime

  public init(id: Int, requested: Int, moved: Int, position: MediaTime) {
    self.id = id
    self.requested = requested
    self.moved = moved
    self.position = position
  }
}

/// What a `wait` waits for, as the user wrote it.
public enum WaitCondition: Sendable, Equatable {
  /// `wait <seconds>`: that much clock time passes (media time on the virtual and free clocks).
  case duration(Double)
  /// `wait ended`: playback reaches the end of the media (each pass counts when looping).
  case ended
  /// `wait paused`: playback is not moving (paused, or stopped at the end).
  case paused
  /// `wait seeked`: every seek sent so far has landed.
  case seeked
  /// `wait position >= T`.
  case position(TimeSpec)

  /// The condition as the command language writes it (`ended`, `position >= 12.5`, `2.5`).
  public var description: String {
    switch self {
    case .duration(let seconds): "\(Self.number(seconds)) s"
    case .ended: "ended"
    case .paused: "paused"
    case .seeked: "seeked"
    case .position(.seconds(let seconds)): "position >= \(Self.number(seconds))"
    case .position(.percent(let percent)): "position >= \(Self.number(percent))%"
    }
  }

  /// `2`, `2.5`: whole numbers without a point.
  private static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}

/// A wait the playback manager carries out on its clock.
public struct PlaybackWait: Sendable, Equatable {
  public enum Until: Sendable, Equatable {
    /// This many seconds of clock time pass.
    case elapsed(Double)
    /// The position reaches this time.
    case position(MediaTime)
    /// The end of the media is reached.
    case ended
  }

  public var id: Int
  public var until: Until
  /// Seconds of clock time after which the wait gives up; nil for none.
  public var timeout: Double?

  public init(id: Int, until: Until, timeout: Double?) {
    self.id = id
    self.until = until
    self.timeout = timeout
  }
}

/// How a wait ended.
public enum WaitOutcome: Sendable, Equatable {
  case satisfied
  case timedOut
  /// Playback is not moving, so nothing can change while the wait holds up the commands after it.
  case notPlaying
  /// The end of the media came first (and playback does not loop).
  case endedFirst
  /// A whole pass of a looping file went by without it.
  case neverInLoop
}

public struct WaitResult: Sendable, Equatable {
  public var id: Int
  public var outcome: WaitOutcome
  public var position: MediaTime

  public init(id: Int, outcome: WaitOutcome, position: MediaTime) {
    self.id = id
    self.outcome = outcome
    self.position = position
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

/// How the session was asked to play.
public struct PlaybackOptions: Sendable, Equatable {
  public var autoplay: Bool
  public var start: TimeSpec?
  public var clock: ClockKind
  /// Media seconds between `progress` events; nil for none.
  public var progressInterval: Double?
  public var endAction: EndAction
  public var seekMode: SeekMode

  public init(
    autoplay: Bool = true, start: TimeSpec? = nil, clock: ClockKind = .wall, progressInterval: Double? = 1,
    endAction: EndAction = .exit, seekMode: SeekMode = .exact
  ) {
    self.autoplay = autoplay
    self.start = start
    self.clock = clock
    self.progressInterval = progressInterval
    self.endAction = endAction
    self.seekMode = seekMode
  }
}

/// A time as a user writes it: seconds from the start, or a percentage of the duration.
public enum TimeSpec: Sendable, Equatable {
  case seconds(Double)
  case percent(Double)

  /// The media time this names, for media of the given duration.
  public func resolved(duration: MediaTime?) -> MediaTime {
    switch self {
    case .seconds(let value): return MediaTime(seconds: value)
    case .percent(let value): return MediaTime(seconds: (duration?.seconds ?? 0) * value / 100)
    }
  }
}

/// One command of the command language (stdin and scripts).
public enum Command: Sendable, Equatable {
  case play
  case pause
  case toggle
  case scrub(TimeSpec, SeekMode?)
  case skip(Double, SeekMode?)
  case status
  case info
  case frame
  case help
  case quit
  /// Pause and show the frame this many frames after (or before, when negative) the one on screen.
  case step(Int)
  case rate(Double)
  /// Load another file (a path as written; relative paths resolve against the session's folder).
  case open(String)
  /// Unload the file and go idle.
  case close
  case wait(WaitCondition, timeout: Double?)
  case expect(Expectation)

  /// The verb as the user writes it.
  public var verb: String {
    switch self {
    case .play: "play"
    case .pause: "pause"
    case .toggle: "toggle"
    case .scrub: "scrub"
    case .skip: "skip"
    case .status: "status"
    case .info: "info"
    case .frame: "frame"
    case .help: "help"
    case .quit: "quit"
    case .step: "step"
    case .rate: "rate"
    case .open: "open"
    case .close: "close"
    case .wait: "wait"
    case .expect: "expect"
    }
  }

  /// Queries report and never change state.
  public var isQuery: Bool {
    switch self {
    case .status, .info, .frame, .expect: true
    default: false
    }
  }

  /// Scrubs and skips: the commands that may coalesce when several arrive before the first lands.
  public var isSeek: Bool {
    switch self {
    case .scrub, .skip: true
    default: false
    }
  }
}

/// Where a command came from: its line number in the input (1-based, counting every line) and its
/// text, so a failure can point at it.
public struct SourceLine: Sendable, Equatable {
  public var number: Int
  public var text: String

  public init(number: Int, text: String) {
    self.number = number
    self.text = text
  }
}

/// A command with the id it was given: its ordinal among the commands received (1, 2, 3 …).
public struct NumberedCommand: Sendable, Equatable {
  public var id: Int
  public var command: Command
  public var source: SourceLine?

  public init(id: Int, command: Command, source: SourceLine? = nil) {
    self.id = id
    self.command = command
    self.source = source
  }
}

/// Every failure vpk reports, with a stable code that scripts can match on.
public struct PlaybackError: Error, Sendable, Equatable {
  public enum Code: String, Sendable, CaseIterable {
    /// The verb is not one vpk knows.
    case unknownCommand = "unknown_command"
    /// An argument is missing, malformed or out of range.
    case badArgument = "bad_argument"
    /// The line is too long or not valid UTF-8.
    case badInput = "bad_input"
    /// The command needs media that is not loaded or has failed.
    case notReady = "not_ready"
    /// The command has no meaning in the current state (for example `frame` with no video).
    case unavailable = "unavailable"
    case fileNotFound = "file_not_found"
    case notAFile = "not_a_file"
    case permissionDenied = "permission_denied"
    /// The file exists but holds nothing FFmpeg can read as media.
    case notMedia = "not_media"
    /// The file has neither a video nor an audio stream.
    case noPlayableStream = "no_playable_stream"
    /// A stream's decoder is missing or could not be opened.
    case decoderUnavailable = "decoder_unavailable"
    /// Packets that could not be decoded; playback went on.
    case decodeError = "decode_error"
    /// Reading the file failed part-way; playback stops where it is.
    case readError = "read_error"
    /// A JSON command line that is not a JSON object of the documented shape.
    case badJSON = "bad_json"
    /// A JSON command's `id` that is not a string or a number.
    case badID = "bad_id"
    /// An `expect` names a field vpk does not know.
    case unknownField = "unknown_field"
    /// A `wait` ran out of time before its condition held.
    case waitTimeout = "wait_timeout"
    /// A `wait` whose condition cannot hold (paused, or the end comes first).
    case waitImpossible = "wait_impossible"
    /// An `expect` whose check did not hold.
    case expectFailed = "expect_failed"
    /// The path is a URL whose protocol vpk does not open (network ones need --allow-network).
    case refusedProtocol = "refused_protocol"
    /// The file is a playlist or stream description that would make vpk open other files or URLs
    /// (needs --allow-playlists or --allow-network).
    case refusedFormat = "refused_format"
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }
}

/// The `id` a client gave a JSON command; every event the command causes carries it back.
public enum ClientID: Sendable, Equatable {
  case string(String)
  case number(Double)
}

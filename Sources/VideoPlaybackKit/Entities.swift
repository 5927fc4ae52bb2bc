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
public enum ClockKind: String, Sendable, CaseIterable {
  case wall, free
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

  public init(position: MediaTime, framesDecoded: Int, decodeErrors: Int) {
    self.position = position
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
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

  public init(
    state: PlaybackState, position: MediaTime, duration: MediaTime?, rate: Double, framesDecoded: Int,
    decodeErrors: Int
  ) {
    self.state = state
    self.position = position
    self.duration = duration
    self.rate = rate
    self.framesDecoded = framesDecoded
    self.decodeErrors = decodeErrors
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
    }
  }

  /// Queries report and never change state; they wait for earlier seeks to land first.
  public var isQuery: Bool {
    switch self {
    case .status, .info, .frame: true
    default: false
    }
  }
}

/// A command with the id it was given: its ordinal among the commands received (1, 2, 3 …).
public struct NumberedCommand: Sendable, Equatable {
  public var id: Int
  public var command: Command

  public init(id: Int, command: Command) {
    self.id = id
    self.command = command
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
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }
}

// What a file holds, and the frame on screen. The engine fills these in from FFmpeg; nothing else knows FFmpeg.
// MediaInfo is the short form `ready` and `info` report; MediaDescription is the whole of it, for `vpk info`.

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
  /// The whole description as the playing file's headers give it (tags, streams, chapters, size); nil when the
  /// engine did not read it.
  /// Where the file stands in the session's queue, as `info` tells it when the session plays a list (nil: one file).
  package var entry: QueuePosition?
  package var details: MediaDescription?

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

/// A picture of the frame on screen, written as a PNG (`snapshot`).
public struct FramePicture: Sendable, Equatable {
  /// The file, as the session names it.
  public var path: String
  /// The frame it shows; its MD5 is that of the decoded frame, as `frame` reports it.
  public var frame: FrameIdentity
  /// The PNG's pixel format (`rgb24`, `rgba`, `rgb48be`, `gray` …): the one the ffmpeg tool picks for a PNG of it.
  public var pixelFormat: String

  public init(path: String, frame: FrameIdentity, pixelFormat: String) {
    self.path = path
    self.frame = frame
    self.pixelFormat = pixelFormat
  }
}

// MARK: - The whole description (`vpk info`)

/// An exact ratio as FFmpeg keeps it (frame rates, time bases, aspect ratios), not reduced: `30000/1001`, `24/1`.
package struct MediaRational: Sendable, Equatable, Hashable {
  package var num: Int
  package var den: Int

  package init(_ num: Int, _ den: Int) {
    self.num = num
    self.den = den
  }

  /// The ratio as a number; nil when the denominator is 0.
  package var value: Double? { den != 0 ? Double(num) / Double(den) : nil }
}

/// One metadata entry of a file, stream or chapter, as the file gives it (keys keep their case: `title`, `ENCODER`).
package struct MediaTag: Sendable, Equatable {
  package var key: String
  package var value: String

  package init(_ key: String, _ value: String) {
    self.key = key
    self.value = value
  }
}

extension [MediaTag] {
  /// The first value whose key is `key`, ignoring case (as FFmpeg's metadata lookups do).
  package func value(for key: String) -> String? {
    first { $0.key.lowercased() == key.lowercased() }?.value
  }
}

/// What a stream carries, by FFmpeg's media types.
package enum StreamKind: String, Sendable, Equatable, CaseIterable {
  case video, audio, subtitle, data, attachment, unknown
}

/// A video stream's picture and timing, as the headers (and FFmpeg's probing) give them. Names are FFmpeg's.
package struct VideoDescription: Sendable, Equatable {
  package var width: Int
  package var height: Int
  /// Sample (pixel) aspect ratio, from the stream or its codec; nil when neither says.
  package var sampleAspectRatio: MediaRational?
  /// Display aspect ratio: width × SAR over height, reduced.
  package var displayAspectRatio: MediaRational?
  /// Degrees of the display matrix's rotation (counter-clockwise, as FFmpeg and ffprobe give it); nil with no matrix.
  package var rotation: Double?
  /// The stream's base frame rate (FFmpeg's `r_frame_rate`): the lowest rate every timestamp fits.
  package var frameRate: MediaRational?
  /// The average frame rate (`avg_frame_rate`): frames over duration.
  package var averageFrameRate: MediaRational?
  package var pixelFormat: String?
  /// `tv` (limited) or `pc` (full); nil when unspecified.
  package var colorRange: String?
  /// Matrix coefficients (`bt709`, `bt470bg` …); nil when unspecified.
  package var colorSpace: String?
  package var colorTransfer: String?
  package var colorPrimaries: String?
  /// `progressive`, `tt`, `bb`, `tb`, `bt`; nil when unknown.
  package var fieldOrder: String?

  package init(
    width: Int, height: Int, sampleAspectRatio: MediaRational? = nil, displayAspectRatio: MediaRational? = nil,
    rotation: Double? = nil, frameRate: MediaRational? = nil, averageFrameRate: MediaRational? = nil,
    pixelFormat: String? = nil, colorRange: String? = nil, colorSpace: String? = nil, colorTransfer: String? = nil,
    colorPrimaries: String? = nil, fieldOrder: String? = nil
  ) {
    self.width = width
    self.height = height
    self.sampleAspectRatio = sampleAspectRatio
    self.displayAspectRatio = displayAspectRatio
    self.rotation = rotation
    self.frameRate = frameRate
    self.averageFrameRate = averageFrameRate
    self.pixelFormat = pixelFormat
    self.colorRange = colorRange
    self.colorSpace = colorSpace
    self.colorTransfer = colorTransfer
    self.colorPrimaries = colorPrimaries
    self.fieldOrder = fieldOrder
  }
}

/// An audio stream's samples, with FFmpeg's names.
package struct AudioDescription: Sendable, Equatable {
  package var sampleRate: Int
  package var channels: Int
  /// `mono`, `stereo`, `5.1(side)` …; nil when the file does not say which channels they are.
  package var channelLayout: String?
  /// `fltp`, `s16` …; nil when unknown.
  package var sampleFormat: String?

  package init(sampleRate: Int, channels: Int, channelLayout: String? = nil, sampleFormat: String? = nil) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.channelLayout = channelLayout
    self.sampleFormat = sampleFormat
  }
}

/// One stream of a file: what every kind has, and the video or audio details.
package struct StreamDescription: Sendable, Equatable {
  /// The stream's index in the file (ffprobe's `index`, FFmpeg's `0:N`).
  package var index: Int
  package var kind: StreamKind
  /// FFmpeg's codec name (`h264`, `aac`, `subrip`); nil when FFmpeg does not know the codec.
  package var codec: String?
  package var codecLongName: String?
  /// The decoder FFmpeg opens for it, as its name and long name (`mp3float (MP3 (MPEG audio layer 3))`); nil when
  /// FFmpeg has none.
  package var decoderDescription: String?
  /// The codec's profile by name (`High`, `LC`), or its number when FFmpeg has no name for it.
  package var profile: String?
  package var timeBase: MediaRational
  /// Seconds; nil when unknown.
  package var startTime: Double?
  package var duration: Double?
  package var bitRate: Int?
  /// Frames (or packets) the container counts; nil when it does not say.
  package var frameCount: Int?
  /// The disposition flags that are set, by FFmpeg's names (`default`, `forced`, `hearing_impaired` …).
  package var disposition: [String]
  package var tags: [MediaTag]
  package var video: VideoDescription?
  package var audio: AudioDescription?

  package init(
    index: Int, kind: StreamKind, codec: String?, codecLongName: String? = nil, profile: String? = nil,
    timeBase: MediaRational, startTime: Double? = nil, duration: Double? = nil, bitRate: Int? = nil,
    frameCount: Int? = nil, disposition: [String] = [], tags: [MediaTag] = [], video: VideoDescription? = nil,
    audio: AudioDescription? = nil
  ) {
    self.index = index
    self.kind = kind
    self.codec = codec
    self.codecLongName = codecLongName
    self.profile = profile
    self.timeBase = timeBase
    self.startTime = startTime
    self.duration = duration
    self.bitRate = bitRate
    self.frameCount = frameCount
    self.disposition = disposition
    self.tags = tags
    self.video = video
    self.audio = audio
  }

  /// The `language` tag (ISO 639-2, `eng`), if any.
  package var language: String? { tags.value(for: "language") }
  /// The `title` tag, if any.
  package var title: String? { tags.value(for: "title") }
}

/// One chapter: its span in its own time base and in seconds, and its tags.
package struct ChapterDescription: Sendable, Equatable {
  package var id: Int64
  package var timeBase: MediaRational
  package var start: Int64
  package var end: Int64
  package var tags: [MediaTag]

  package init(id: Int64, timeBase: MediaRational, start: Int64, end: Int64, tags: [MediaTag] = []) {
    self.id = id
    self.timeBase = timeBase
    self.start = start
    self.end = end
    self.tags = tags
  }

  package var startTime: Double { Double(start) * (timeBase.value ?? 0) }
  package var endTime: Double { Double(end) * (timeBase.value ?? 0) }
  package var title: String? { tags.value(for: "title") }
}

/// Everything `vpk info` says about a file: the container, every stream and every chapter, as FFmpeg reads them
/// (the same values `ffprobe -show_format -show_streams -show_chapters` prints).
package struct MediaDescription: Sendable, Equatable {
  package var path: String
  /// The demuxer's short name(s) (`mov,mp4,m4a,3gp,3g2,mj2`) and long name (`QuickTime / MOV`).
  package var formatName: String
  package var formatLongName: String?
  /// Seconds; nil when the container does not say.
  package var duration: Double?
  package var startTime: Double?
  package var bitRate: Int?
  /// Bytes; nil when the input's size is unknown.
  package var size: Int64?
  package var tags: [MediaTag]
  package var streams: [StreamDescription]
  package var chapters: [ChapterDescription]
  /// The indexes of the video and audio streams playback reads (as mpv chooses them: forced, then default, then the
  /// first, of those it can decode; cover art only for a file with no other video and no sound); nil for a kind it
  /// reads none of, and in `vpk info`'s description, which plays nothing.
  package var playedVideoIndex: Int?
  package var playedAudioIndex: Int?

  package init(
    path: String, formatName: String, formatLongName: String? = nil, duration: Double? = nil,
    startTime: Double? = nil, bitRate: Int? = nil, size: Int64? = nil, tags: [MediaTag] = [],
    streams: [StreamDescription] = [], chapters: [ChapterDescription] = []
  ) {
    self.path = path
    self.formatName = formatName
    self.formatLongName = formatLongName
    self.duration = duration
    self.startTime = startTime
    self.bitRate = bitRate
    self.size = size
    self.tags = tags
    self.streams = streams
    self.chapters = chapters
  }

  /// The container's `title` tag, if any.
  package var title: String? { tags.value(for: "title") }
}

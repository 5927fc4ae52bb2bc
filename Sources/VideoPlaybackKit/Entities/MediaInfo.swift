// What a file holds, and the frame on screen. The engine fills these in from FFmpeg; nothing else knows FFmpeg.

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

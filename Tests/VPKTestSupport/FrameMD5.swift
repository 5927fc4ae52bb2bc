// Reference answers from the FFmpeg tools: per-frame MD5s (`ffmpeg -f framemd5`) and stream facts (`ffprobe`).
import Foundation

/// One line of `ffmpeg -f framemd5` output: a decoded video frame in display order.
public struct FrameMD5Entry: Sendable, Hashable {
  /// Presentation timestamp in `timeBase` units, counted from the start of the media.
  public var pts: Int64
  /// The frame's duration in `timeBase` units.
  public var duration: Int64
  /// The output time base from the `#tb 0: num/den` header.
  public var timeBase: FrameMD5TimeBase
  /// Size of the frame's packed pixels in bytes.
  public var size: Int
  /// MD5 of the frame's packed pixels, lowercase hex: what `FrameIdentity.md5` must equal.
  public var hash: String

  /// Presentation time in seconds.
  public var time: Double { Double(pts) * timeBase.seconds }
  /// The frame's duration in seconds.
  public var durationSeconds: Double { Double(duration) * timeBase.seconds }

  public init(pts: Int64, duration: Int64, timeBase: FrameMD5TimeBase, size: Int, hash: String) {
    self.pts = pts
    self.duration = duration
    self.timeBase = timeBase
    self.size = size
    self.hash = hash
  }
}

/// A time base `num/den` seconds per tick.
public struct FrameMD5TimeBase: Sendable, Hashable, CustomStringConvertible {
  public var num: Int64
  public var den: Int64
  public init(num: Int64, den: Int64) {
    self.num = num
    self.den = den
  }
  public var seconds: Double { Double(num) / Double(den) }
  public var description: String { "\(num)/\(den)" }
}

public enum FrameMD5 {
  /// Every video frame of the file's first video stream, in display order, from
  /// `ffmpeg -hide_banner -loglevel error -i FILE -map 0:v:0 -map 0:a? -fps_mode passthrough -f framemd5 -`.
  ///
  /// By default ffmpeg writes pts in the encoder's time base, 1/frame rate for constant-rate clips (frame numbers).
  /// With `streamTimeBase: true` it adds `-enc_time_base -1`, so pts are in the stream's own time base (1/15360 for
  /// the MP4 clips) and compare directly with `FrameIdentity.pts`.
  public static func entries(of url: URL, streamTimeBase: Bool = false) throws -> [FrameMD5Entry] {
    // The audio streams are mapped too (and then ignored: video is output stream 0) so that ffmpeg measures time
    // from the container's start, as vpk does; with video alone it starts an MPEG-TS at the first video frame.
    var arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", url.path, "-map", "0:v:0", "-map", "0:a?"]
    arguments += ["-fps_mode", "passthrough"]
    if streamTimeBase { arguments += ["-enc_time_base", "-1"] }
    arguments += ["-f", "framemd5", "-"]
    let result = try Tool.run("ffmpeg", arguments)
    guard result.status == 0 else {
      throw TestSupportError("ffmpeg -f framemd5 failed (status \(result.status)) on \(url.path):\n\(result.stderr)")
    }
    return try parse(String(decoding: result.stdout, as: UTF8.self))
  }

  /// Parses `framemd5` output (stream 0 only), sorted by pts.
  public static func parse(_ text: String) throws -> [FrameMD5Entry] {
    var timeBase: FrameMD5TimeBase?
    var entries: [FrameMD5Entry] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
      if line.hasPrefix("#tb 0:") {
        let parts = line.dropFirst("#tb 0:".count).trimmingCharacters(in: .whitespaces).split(separator: "/")
        guard parts.count == 2, let num = Int64(parts[0]), let den = Int64(parts[1]), num > 0, den > 0 else {
          throw TestSupportError("framemd5: bad time base line: \(line)")
        }
        timeBase = FrameMD5TimeBase(num: num, den: den)
        continue
      }
      if line.hasPrefix("#") { continue }
      // stream#, dts, pts, duration, size, hash
      let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count == 6, let stream = Int(fields[0]), let pts = Int64(fields[2]),
        let duration = Int64(fields[3]), let size = Int(fields[4])
      else {
        throw TestSupportError("framemd5: cannot parse line: \(line)")
      }
      guard stream == 0 else { continue }
      guard let timeBase else { throw TestSupportError("framemd5: a frame line came before the #tb 0 header") }
      entries.append(FrameMD5Entry(pts: pts, duration: duration, timeBase: timeBase, size: size, hash: fields[5]))
    }
    guard !entries.isEmpty else { throw TestSupportError("framemd5: no video frames in the output") }
    return entries.sorted { $0.pts < $1.pts }
  }
}

extension Array where Element == FrameMD5Entry {
  /// The frame on screen at `seconds` in uninterrupted playback: the one whose display interval [pts, next pts)
  /// contains the time. Times before the first frame give the first frame; times at or after the last frame's pts
  /// give the last frame. A time within `tolerance` seconds below a frame's start counts as that frame, so targets
  /// computed in floating point (`k / 30.0`) land where they are meant to. Precondition: not empty, sorted by pts
  /// (as `FrameMD5.entries` returns them).
  public func entry(containing seconds: Double, tolerance: Double = 1e-9) -> FrameMD5Entry {
    precondition(!isEmpty, "entry(containing:) on an empty frame list")
    // The last entry whose time is <= seconds (binary search; entries are sorted).
    var low = 0
    var high = count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if self[middle].time <= seconds + tolerance { low = middle } else { high = middle - 1 }
    }
    return self[low]
  }
}

/// Facts about a media file from the `ffprobe` tool.
public enum FFprobe {
  /// One stream as ffprobe names it.
  public struct Stream: Sendable, Hashable {
    /// `video`, `audio`, `subtitle`, `data`, …
    public var codecType: String
    /// `h264`, `aac`, `vp9`, `opus`, `mpeg4`, `subrip`, …
    public var codecName: String
  }

  /// Decoded frames of the first video stream:
  /// `ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of csv=p=0`.
  public static func frameCount(_ url: URL) throws -> Int {
    let text = try probe(
      url, ["-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0"])
    // Files with programs (MPEG-TS) list each stream once per program too: the first count is the stream's.
    let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    guard let count = Int(first.trimmingCharacters(in: .whitespaces)) else {
      throw TestSupportError("ffprobe: no video frame count for \(url.path) (got \"\(text)\")")
    }
    return count
  }

  /// The container's duration in seconds: `ffprobe -v error -show_entries format=duration -of csv=p=0`.
  public static func duration(_ url: URL) throws -> Double {
    let text = try probe(url, ["-show_entries", "format=duration", "-of", "csv=p=0"])
    guard let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw TestSupportError("ffprobe: no duration for \(url.path) (got \"\(text)\")")
    }
    return seconds
  }

  /// Every stream of the file, in order. Throws when ffprobe cannot read the file at all.
  public static func streams(_ url: URL) throws -> [Stream] {
    let text = try probe(url, ["-show_entries", "stream=index,codec_type,codec_name", "-of", "csv=p=0"])
    var seen = Set<String>()
    return text.split(separator: "\n").compactMap { line in
      // csv prints the fields in ffprobe's own order: index, codec_name, codec_type. Files with programs
      // (MPEG-TS) list each stream again under its program: keep the first.
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 3, seen.insert(fields[0]).inserted else { return nil }
      return Stream(codecType: fields[2], codecName: fields[1])
    }
  }

  /// One `key=value` entry of a section, as `ffprobe -show_entries SECTION=KEY -of default=nw=1:nk=0` prints it,
  /// for the first stream selected (`selecting` is ffprobe's stream specifier, `v:0`, `a:0`), or the format.
  /// Nil when ffprobe gives no value (`N/A` or nothing).
  public static func entry(_ url: URL, _ section: String, _ key: String, selecting stream: String? = nil) throws
    -> String?
  {
    let selection = stream.map { ["-select_streams", $0] } ?? []
    let text = try probe(url, selection + ["-show_entries", "\(section)=\(key)", "-of", "default=nw=1:nk=1"])
    let value = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    return value.isEmpty || value == "N/A" ? nil : value
  }

  /// Video packets that follow a keyframe in decode order but are shown before it (an open GOP's leading frames),
  /// from `ffprobe -select_streams v:0 -show_entries packet=pts,flags`.
  public static func leadingFrameCount(_ url: URL) throws -> Int {
    let text = try probe(url, ["-select_streams", "v:0", "-show_entries", "packet=pts,flags", "-of", "csv=p=0"])
    var keyPTS: Int64?
    var count = 0
    for line in text.split(whereSeparator: \.isNewline) {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count >= 2, let pts = Int64(fields[0]) else { continue }
      if fields[1].hasPrefix("K") {
        keyPTS = pts
      } else if let keyPTS, pts < keyPTS {
        count += 1
      }
    }
    return count
  }

  /// The first video stream's keyframes as ffprobe decodes them, in seconds from the container's start (its
  /// `start_time`, as vpk counts time), ascending: the frames ffprobe flags `key_frame=1`
  /// (`ffprobe -select_streams v:0 -show_entries frame=key_frame`), timed as the ffmpeg tool decodes them
  /// (`-copyts -f framemd5`; see `ScrubReference`). The reference a keyframe scrub is judged by, rather than the key
  /// flag vpk reports for its own frame. (Not `-skip_frame nokey`: the VP9 decoder ignores it and gives every
  /// frame, and with MPEG-4 in AVI the keyframes it gives carry the timestamps of the frames decoded before them.)
  public static func keyframeTimes(_ url: URL) throws -> [Double] {
    let times = try ScrubReference(of: url).frames.filter(\.isKeyframe).map(\.time)
    guard !times.isEmpty else { throw TestSupportError("ffprobe: no keyframes in \(url.path)") }
    return times.sorted()
  }

  /// Everything `vpk info` describes, as ffprobe reads it:
  /// `ffprobe -v error -show_format -show_streams -show_chapters -of json`.
  public static func description(_ url: URL) throws -> JSONValue {
    try JSONValue.parse(probe(url, ["-show_format", "-show_streams", "-show_chapters", "-of", "json"]))
  }

  private static func probe(_ url: URL, _ arguments: [String]) throws -> String {
    let result = try Tool.run("ffprobe", ["-v", "error"] + arguments + [url.path])
    guard result.status == 0 else {
      throw TestSupportError(
        "ffprobe \(arguments.joined(separator: " ")) failed (status \(result.status)) on \(url.path):\n\(result.stderr)"
      )
    }
    return String(decoding: result.stdout, as: UTF8.self)
  }
}

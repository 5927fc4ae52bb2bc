// The exact-scrub sweep's media and reference answers: clips in the containers the corpus does not cover (MPEG-2
// program stream, Matroska, QuickTime, FLV), and each clip's frames as ffmpeg decodes them with their raw timestamps.
import Foundation

/// Clips the sweep plays besides the corpus of `TestClip`, each made on first use and cached in
/// `TestMedia.directory` by recipe.
public enum SweepClip: String, CaseIterable, Sendable {
  /// MPEG-2 (GOP 15, 2 B-frames) 720x480 at 29.97 fps, 8 s, no audio, in an MPEG program stream. The container
  /// starts at 0.533 s; the last keyframe's packet carries no pts, so the last frame out of the decoder has no
  /// timestamp at all; and the demuxer seeks by timestamp to any packet, not to a keyframe.
  case mpeg2PS
  /// MPEG-2 (GOP 12, 2 B-frames) 352x288 at 25 fps, 4 s, with MP2 audio, in an MPEG program stream (VOB flavour).
  case mpeg2VOB
  /// H.264 (GOP 30, 3 B-frames) 320x240 at 30 fps, 4 s, with AAC audio, in Matroska (millisecond timestamps).
  case h264MKV
  /// MPEG-4 part 2 (GOP 25, 2 B-frames) 320x240 at 25 fps, 4 s, with PCM audio, in QuickTime.
  case mpeg4MOV
  /// H.264 (GOP 30, 2 B-frames) 320x240 at 30 fps, 4 s, with AAC audio, in FLV (millisecond timestamps).
  case h264FLV
  /// H.264 (GOP 25, 2 B-frames) 320x240 at 25 fps, 2 s, no audio, in MP4, whose last two frames share one
  /// timestamp (a broken encoder's file, made with the `setts` bitstream filter): the first of them is shown for no
  /// time at all.
  case h264DuplicateEnd
  /// The same stream with its dts two frames earlier than usual: the dts a decoder's frame carries then lies two
  /// frames before its pts. Once a decoder has seen the duplicate timestamp (counted a pts out of order), FFmpeg's
  /// `best_effort_timestamp` is the dts, for every frame it decodes after, seeks included: timed so, a seek after
  /// playing to the end would show another frame than a seek straight from the start.
  case h264DuplicateEndEarlyDTS
  /// H.264 (GOP 25, 2 B-frames) 320x240 at 25 fps, 4 s, in MP4, whose frame at 1.2 s has the pts of the frame before
  /// it, and whose dts lie two frames early. The ffmpeg tool, decoding on from the start, times every frame after
  /// that one by its dts (two frames early), and a seek past the next keyframe times them by their pts: its frames
  /// are not ffmpeg's, so it is not swept against them.
  case h264DuplicateMiddleEarlyDTS

  public var fileExtension: String {
    switch self {
    case .mpeg2PS: "mpg"
    case .mpeg2VOB: "vob"
    case .h264MKV: "mkv"
    case .mpeg4MOV: "mov"
    case .h264FLV: "flv"
    case .h264DuplicateEnd, .h264DuplicateEndEarlyDTS, .h264DuplicateMiddleEarlyDTS: "mp4"
    }
  }

  private var arguments: [String] {
    let sine = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=4"]
    let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
    switch self {
    case .mpeg2PS:
      return [
        "-f", "lavfi", "-i", "testsrc=size=720x480:rate=30000/1001", "-t", "8", "-c:v", "mpeg2video", "-g", "15",
        "-bf", "2", "-q:v", "4", "-f", "mpeg",
      ]
    case .mpeg2VOB:
      return ["-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25:duration=4"] + sine + [
        "-map", "0:v", "-map", "1:a", "-c:v", "mpeg2video", "-g", "12", "-bf", "2", "-q:v", "4", "-c:a", "mp2",
        "-shortest", "-f", "vob",
      ]
    case .h264MKV:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4"] + sine + ["-map", "0:v", "-map", "1:a"]
        + x264 + ["-bf", "3", "-g", "30", "-c:a", "aac", "-shortest", "-f", "matroska"]
    case .mpeg4MOV:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4"] + sine + [
        "-map", "0:v", "-map", "1:a", "-c:v", "mpeg4", "-g", "25", "-bf", "2", "-q:v", "5", "-c:a", "pcm_s16le",
        "-shortest", "-f", "mov",
      ]
    case .h264FLV:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4"] + sine + ["-map", "0:v", "-map", "1:a"]
        + x264 + ["-bf", "2", "-g", "30", "-c:a", "aac", "-shortest", "-f", "flv"]
    case .h264DuplicateEnd:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"] + x264 + [
        "-bf", "2", "-g", "25", "-video_track_timescale", "25", "-bsf:v", "setts=pts='if(eq(PTS,49),48,PTS)'",
        "-f", "mp4",
      ]
    case .h264DuplicateEndEarlyDTS:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=2"] + x264 + [
        "-bf", "2", "-g", "25", "-video_track_timescale", "25", "-bsf:v",
        "setts=pts='if(eq(PTS,49),48,PTS)':dts='DTS-2'", "-f", "mp4",
      ]
    case .h264DuplicateMiddleEarlyDTS:
      return ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4"] + x264 + [
        "-bf", "2", "-g", "25", "-video_track_timescale", "25", "-bsf:v",
        "setts=pts='if(eq(PTS,30),29,PTS)':dts='DTS-2'", "-f", "mp4",
      ]
    }
  }

  /// The clip's file, made now if it is not in the cache yet.
  public func url() throws -> URL {
    try Self.lock.withLock {
      let directory = TestMedia.directory
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in arguments.joined(separator: " ").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
      let target = directory.appendingPathComponent("sweep-\(rawValue)-\(String(hash, radix: 16)).\(fileExtension)")
      if FileManager.default.fileExists(atPath: target.path) { return target }
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let temporary = directory.appendingPathComponent(".sweep-\(rawValue)-\(UUID().uuidString).\(fileExtension)")
      defer { try? FileManager.default.removeItem(at: temporary) }
      let result = try Tool.run(
        "ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments + [temporary.path])
      guard result.status == 0 else {
        throw TestSupportError(
          "ffmpeg failed (status \(result.status)) making sweep clip \(rawValue):\n\(result.stderr)")
      }
      guard rename(temporary.path, target.path) == 0 else {
        throw TestSupportError("cannot rename \(temporary.path) to \(target.path): errno \(errno)")
      }
      return target
    }
  }

  private static let lock = NSLock()
}

/// A clip's video frames as the ffmpeg tool decodes them, in display order, with the stream's raw timestamps
/// (`-copyts -fps_mode passthrough -enc_time_base -1 -f framemd5`), and where its keyframes are (ffprobe).
public struct ScrubReference: Sendable {
  public struct Frame: Sendable {
    /// The stream's own timestamp, in its time base: what vpk's `frame` reports as `pts`.
    public var pts: Int64
    /// Seconds from the container's start (its `start_time`): what vpk reports as `time`.
    public var time: Double
    public var duration: Double
    public var hash: String
    public var isKeyframe: Bool
  }

  public var frames: [Frame]
  /// The container's start time in seconds (0 when it has none, as for a raw stream).
  public var startTime: Double
  /// The container's duration, nil when it does not say.
  public var duration: Double?

  public init(of url: URL) throws {
    let copied = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-noautorotate", "-copyts", "-i", url.path, "-map", "0:v:0",
        "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "framemd5", "-",
      ])
    guard copied.status == 0 else {
      throw TestSupportError("ffmpeg -copyts -f framemd5 failed on \(url.path):\n\(copied.stderr)")
    }
    let entries = try FrameMD5.parse(String(decoding: copied.stdout, as: UTF8.self))
    let probed = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=key_frame:format=start_time,duration",
        "-of", "default=nw=1", url.path,
      ])
    guard probed.status == 0 else { throw TestSupportError("ffprobe failed on \(url.path):\n\(probed.stderr)") }
    var keys: [Bool] = []
    var values: [String: String] = [:]
    for line in String(decoding: probed.stdout, as: UTF8.self).split(whereSeparator: \.isNewline) {
      let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      if parts[0] == "key_frame" { keys.append(parts[1] == "1") } else { values[parts[0]] = parts[1] }
    }
    guard keys.count == entries.count else {
      throw TestSupportError("ffprobe saw \(keys.count) frames and ffmpeg \(entries.count) in \(url.path)")
    }
    startTime = values["start_time"].flatMap(Double.init) ?? 0
    duration = values["duration"].flatMap(Double.init)
    let start = startTime
    frames = zip(entries, keys).map { entry, key in
      Frame(
        pts: entry.pts, time: entry.time - start, duration: entry.durationSeconds, hash: entry.hash, isKeyframe: key)
    }
  }

  /// The middle of frame `index`, kept within the media (past its end, the interactor clamps a target before the
  /// engine sees it): a scrub target that lies inside the frame, whatever the rounding of its edges.
  public func middle(ofFrame index: Int) -> Double {
    min(frames[index].time + frames[index].duration / 2, duration ?? .infinity)
  }

  /// Display-order indexes of the frames of the first two and the last two GOPs (a GOP here runs from a keyframe
  /// to the frame before the next one, in display order), ascending. With `limit`, a GOP longer than that keeps
  /// only its first and last `limit / 2` frames.
  public func sweptFrameIndexes(limit: Int? = nil) -> [Int] {
    let keyIndexes = frames.indices.filter { frames[$0].isKeyframe }
    var gops: [Range<Int>] = []
    for (n, key) in keyIndexes.enumerated() {
      gops.append((n == 0 ? 0 : key)..<(n + 1 < keyIndexes.count ? keyIndexes[n + 1] : frames.count))
    }
    if gops.isEmpty { gops = [0..<frames.count] }
    var chosen = Set<Int>()
    for gop in gops.prefix(2) + gops.suffix(2) {
      if let limit, gop.count > limit {
        chosen.formUnion(gop.prefix(limit / 2))
        chosen.formUnion(gop.suffix(limit / 2))
      } else {
        chosen.formUnion(gop)
      }
    }
    return chosen.sorted()
  }

  /// The frame on screen at `seconds` in uninterrupted playback: the last one starting at or before it.
  public func frame(containing seconds: Double) -> Frame {
    frames.last { $0.time <= seconds + 1e-9 } ?? frames[0]
  }
}

// Test media made on demand with the `ffmpeg` tool from deterministic lavfi sources, cached by recipe.
import Foundation

/// The clips the test suites play. Each is made on first use and then cached, see `TestMedia`.
public enum TestClip: String, CaseIterable, Sendable {
  /// H.264 (libx264 veryfast, 3 B-frames, one GOP of 250 so only the first frame is a keyframe) 320x240, 30 fps,
  /// 10 s (300 frames), yuv420p, with a 440 Hz sine in AAC; MP4.
  case h264BFrames
  /// MPEG-4 part 2 (`mpeg4`, GOP 50, 2 B-frames) 640x360, 25 fps, 6 s (150 frames), no audio; MP4.
  case mpeg4
  /// VP9 (libvpx-vp9 realtime, GOP 60) 320x240, 30 fps, 6 s (180 frames), with a sine in Opus; WebM.
  case vp9
  /// H.264 (2 B-frames, GOP 120) 640x360 at 29.97 fps, 8 s, with AAC audio that starts before the video; MPEG-TS.
  /// The container's start time is not 0, and the demuxer has no index: seeks land on any packet.
  case mpegTS
  /// MPEG-4 part 2 with 2 B-frames, 25 fps, 6 s, in AVI: packets carry no pts and the last frame out of the
  /// decoder has no timestamp at all.
  case mpeg4AVI
  /// A raw H.264 elementary stream (25 fps, 6 s, 2 B-frames): no container, no timestamps, no duration, and a
  /// demuxer that cannot seek.
  case rawH264
  /// A 5 s 440 Hz sine in AAC, no video; M4A.
  case audioOnly
  /// A 5 s 440 Hz sine in Vorbis, no video; Ogg (whose demuxer seeks forward to a page before the target).
  case oggSong
  /// `h264BFrames` remuxed with its index (moov) at the front (`-movflags +faststart`), then cut to 60% of its bytes:
  /// it opens and reports 10 s, but its packets stop part-way.
  case truncatedMP4
  /// 0 bytes, named `.mp4`.
  case emptyFile
  /// 64 KiB from a seeded generator (the same bytes every time), named `.mp4`.
  case randomBytes
  /// A valid Matroska file whose only stream is a SubRip subtitle: neither video nor audio.
  case noStreams
  /// Plain text, named `.mp4`.
  case textFile
  /// H.264 with open GOPs (x264 `open-gop`, 3 B-frames, a keyframe every 30 frames) 320x240, 30 fps, 4 s, no audio;
  /// MP4. After each keyframe but the first come B-frames shown before it that refer to the GOP before.
  case h264OpenGOP
  /// For `vpk info`: H.264 320x240 24 fps 3 s (BT.709, limited range) turned 90° by its display matrix, stereo AAC
  /// 48 kHz, a mov_text subtitle (forced), the chapter track and a timecode track (two data streams); languages
  /// `eng`, `fra`, `deu`; a title, artist and comment; two chapters; MP4.
  case describedMP4
  /// For `vpk info`: interlaced (top field first) MPEG-4 part 2 352x288 25 fps 2 s shown at 16:9 (SAR 16:11), mono
  /// Opus with a language, a title and the `comment` disposition, a SubRip subtitle (forced, hearing impaired), a text
  /// attachment, stream titles, file tags and two chapters; Matroska.
  case describedMKV
  /// For pictures: H.264 High 4:4:4 in full range (decoded as yuvj444p), tagged BT.709, 320x240, 25 fps, 2 s, no
  /// audio; MP4.
  case h264FullRange444
  /// For pictures: H.264 High 10 (yuv420p10le, a PNG of it is 16 bits a channel), 320x240, 25 fps, 2 s, no audio; MP4.
  case h264TenBit
  /// HEVC (libx265, 3 B-frames, a keyframe every 30 frames, open GOPs as x265 makes them) 320x240, 30 fps, 4 s,
  /// no audio; MP4.
  case hevc
  /// H.264 (libx264 veryfast, 3 B-frames, a GOP of 250 frames, no scene cuts) 320x240, 30 fps, 30 s, no audio; MP4.
  /// Keyframes at 0, 8.333, 16.667 and 25 s: mpv's keyframe seeks land far from their targets.
  case h264LongGOP
  /// For choosing streams: two H.264 video streams, 160x120 marked default then 320x240 marked forced, and two AAC
  /// streams with no mark, mono 22.05 kHz at 32 kb/s then stereo 48 kHz at 128 kb/s; 25 fps, 2 s; Matroska.
  /// mpv plays the forced video stream and the first audio stream; FFmpeg's own "best" streams are the others.
  case multiStream
  /// A song with its cover art: a 440 Hz sine in MP3 (44.1 kHz, 64 kb/s), 3 s, and a 64x64 MJPEG picture marked as an
  /// attached picture; MP3 with ID3v2.3 tags.
  case coverArtSong

  /// The file name extension the clip is made with.
  public var fileExtension: String {
    switch self {
    case .h264BFrames, .mpeg4, .truncatedMP4, .emptyFile, .randomBytes, .textFile, .h264OpenGOP, .describedMP4,
      .h264FullRange444, .h264TenBit, .hevc, .h264LongGOP:
      "mp4"
    case .vp9: "webm"
    case .mpegTS: "ts"
    case .mpeg4AVI: "avi"
    case .rawH264: "h264"
    case .audioOnly: "m4a"
    case .oggSong: "ogg"
    case .noStreams, .describedMKV, .multiStream: "mkv"
    case .coverArtSong: "mp3"
    }
  }
}

/// A failure of the test support code, with a message that says what to do. Thrown, never skipped.
public struct TestSupportError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}

public enum TestMedia {
  /// The file for a clip, made now if it is not in the cache yet. Safe to call from parallel tests and processes.
  public static func url(for clip: TestClip) throws -> URL {
    try generationLock.withLock { try makeIfNeeded(clip) }
  }

  /// Where clips are cached: `$VPK_TEST_MEDIA_DIR` if set, else `<package root>/.build/test-media`.
  public static var directory: URL {
    if let dir = ProcessInfo.processInfo.environment["VPK_TEST_MEDIA_DIR"], !dir.isEmpty {
      return URL(fileURLWithPath: dir, isDirectory: true)
    }
    return packageRoot.appendingPathComponent(".build/test-media", isDirectory: true)
  }

  /// The package's root folder, found from this source file's path.
  public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // VPKTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  // MARK: - Recipes

  /// How a clip is made: the ffmpeg arguments between the input-less prefix and the output file, or bytes to write.
  private enum Recipe {
    case ffmpeg([String])
    /// A copy of another clip, remuxed with these arguments, then cut to this fraction of its bytes.
    case truncated(TestClip, remux: [String], fraction: Double)
    case bytes(Data)
    /// A subtitle file (SRT text) converted by ffmpeg with these arguments.
    case subtitle(srt: String, [String])
    /// ffmpeg with these arguments, where `@name` stands for a text file of `files` written beside the clip first;
    /// then, if `remux` is given, the result remuxed with those arguments (what only a stream copy writes, such as a
    /// display matrix from `rotate` metadata in FFmpeg 5.1).
    case withFiles([String: String], [String], remux: [String]?)
  }

  /// Text inputs of the described clips: tags and chapters as an ffmetadata file, subtitles, an attachment.
  private static let describedFiles = [
    "meta.txt": """
    ;FFMETADATA1
    title=Described clip
    artist=VPK tests
    comment=made at test time

    [CHAPTER]
    TIMEBASE=1/1000
    START=0
    END=1500
    title=Opening

    [CHAPTER]
    TIMEBASE=1/1000
    START=1500
    END=3000
    title=Ending

    """,
    "subs.srt": "1\n00:00:00,000 --> 00:00:01,000\nHello.\n\n2\n00:00:01,500 --> 00:00:02,500\nBye.\n",
    "notes.txt": "attached notes\n",
  ]

  private static func recipe(_ clip: TestClip) -> Recipe {
    switch clip {
    case .h264BFrames:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 30, seconds: 10) + lavfiSine(seconds: 10) + [
          "-map", "0:v", "-map", "1:a",
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "250", "-pix_fmt", "yuv420p",
          "-c:a", "aac", "-b:a", "64k", "-shortest", "-f", "mp4",
        ])
    case .mpeg4:
      return .ffmpeg(
        lavfiVideo(size: "640x360", rate: 25, seconds: 6) + [
          "-c:v", "mpeg4", "-g", "50", "-bf", "2", "-q:v", "5", "-f", "mp4",
        ])
    case .vp9:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 30, seconds: 6) + lavfiSine(seconds: 6) + [
          "-map", "0:v", "-map", "1:a",
          "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "60", "-b:v", "500k",
          "-c:a", "libopus", "-b:a", "64k", "-shortest", "-f", "webm",
        ])
    case .mpegTS:
      return .ffmpeg(
        lavfiVideo(size: "640x360", rate: "30000/1001", seconds: 8) + lavfiSine(seconds: 8) + [
          "-map", "0:v", "-map", "1:a",
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "120", "-pix_fmt", "yuv420p",
          "-c:a", "aac", "-b:a", "64k", "-shortest", "-f", "mpegts",
        ])
    case .mpeg4AVI:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 25, seconds: 6) + [
          "-c:v", "mpeg4", "-g", "50", "-bf", "2", "-q:v", "5", "-f", "avi",
        ])
    case .rawH264:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 25, seconds: 6) + [
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "50", "-pix_fmt", "yuv420p", "-f", "h264",
        ])
    case .audioOnly:
      return .ffmpeg(lavfiSine(seconds: 5) + ["-c:a", "aac", "-b:a", "64k", "-f", "ipod"])
    case .oggSong:
      return .ffmpeg(lavfiSine(seconds: 5) + ["-c:a", "libvorbis", "-f", "ogg"])
    case .truncatedMP4:
      return .truncated(
        .h264BFrames, remux: ["-map", "0", "-c", "copy", "-movflags", "+faststart", "-f", "mp4"], fraction: 0.6)
    case .emptyFile:
      return .bytes(Data())
    case .randomBytes:
      return .bytes(seededBytes(count: 64 * 1024, seed: 0x5650_4B5F_5445_5354))
    case .noStreams:
      return .subtitle(
        srt: "1\n00:00:00,000 --> 00:00:02,000\nNo video here.\n\n2\n00:00:03,000 --> 00:00:05,000\nNor audio.\n",
        ["-map", "0", "-c:s", "srt", "-f", "matroska"])
    case .textFile:
      return .bytes(Data(String(repeating: "This is a text file, not a video.\n", count: 32).utf8))
    case .hevc:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 30, seconds: 4) + [
          "-c:v", "libx265", "-preset", "ultrafast", "-x265-params",
          "bframes=3:keyint=30:min-keyint=30:scenecut=0:log-level=error", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
          "-f", "mp4",
        ])
    case .h264LongGOP:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 30, seconds: 30) + [
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "250", "-sc_threshold", "0", "-pix_fmt",
          "yuv420p", "-f", "mp4",
        ])
    case .h264OpenGOP:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 30, seconds: 4) + [
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-x264-params",
          "open-gop=1:keyint=30:min-keyint=30:scenecut=0", "-pix_fmt", "yuv420p", "-f", "mp4",
        ])
    case .describedMP4:
      return .withFiles(
        describedFiles,
        lavfiVideo(size: "320x240", rate: 24, seconds: 3) + lavfiSine(seconds: 3) + [
          "-i", "@subs.srt", "-i", "@meta.txt", "-map", "0:v", "-map", "1:a", "-map", "2:s", "-map_metadata", "3",
          "-map_chapters", "3", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-color_range", "tv",
          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-c:a", "aac", "-b:a", "48k",
          "-ac", "2", "-c:s", "mov_text", "-metadata:s:v:0", "language=eng", "-metadata:s:a:0", "language=fra",
          "-metadata:s:s:0", "language=deu", "-disposition:s:0", "forced", "-f", "mp4",
        ],
        remux: [
          "-map", "0:v", "-map", "0:a", "-map", "0:s", "-c", "copy", "-metadata:s:v:0", "rotate=90", "-timecode",
          "01:00:00:00", "-f", "mp4",
        ])
    case .describedMKV:
      return .withFiles(
        describedFiles,
        lavfiVideo(size: "352x288", rate: 25, seconds: 2) + lavfiSine(seconds: 2) + [
          "-i", "@subs.srt", "-i", "@meta.txt", "-map", "0:v", "-map", "1:a", "-map", "2:s", "-map_metadata", "3",
          "-map_chapters", "3", "-c:v", "mpeg4", "-q:v", "5", "-flags", "+ildct+ilme", "-top", "1", "-field_order",
          "tt", "-aspect", "16:9", "-c:a", "libopus", "-b:a", "32k", "-ac", "1", "-c:s", "srt",
          "-metadata:s:v:0", "title=Test pattern", "-metadata:s:a:0", "language=jpn", "-metadata:s:a:0",
          "title=Commentary", "-disposition:a:0", "comment", "-metadata:s:s:0", "language=eng", "-metadata:s:s:0",
          "title=Captions", "-disposition:s:0", "forced+hearing_impaired", "-attach", "@notes.txt",
          "-metadata:s:t:0", "mimetype=text/plain", "-metadata:s:t:0", "filename=notes.txt", "-f", "matroska",
        ],
        remux: nil)
    case .h264FullRange444:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 25, seconds: 2) + [
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "25", "-pix_fmt", "yuv444p", "-color_range", "pc",
          "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-f", "mp4",
        ])
    case .h264TenBit:
      return .ffmpeg(
        lavfiVideo(size: "320x240", rate: 25, seconds: 2) + [
          "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p10le", "-f", "mp4",
        ])
    case .multiStream:
      return .ffmpeg(
        lavfiVideo(size: "160x120", rate: 25, seconds: 2) + lavfiVideo(size: "320x240", rate: 25, seconds: 2) + [
          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=22050:duration=2", "-f", "lavfi", "-i",
          "sine=frequency=880:sample_rate=48000:duration=2", "-map", "0:v", "-map", "1:v", "-map", "2:a", "-map",
          "3:a", "-c:v", "libx264", "-preset", "veryfast", "-g", "25", "-pix_fmt", "yuv420p", "-c:a", "aac",
          "-b:a:0", "32k", "-ac:a:0", "1", "-b:a:1", "128k", "-ac:a:1", "2", "-disposition:v:0", "default",
          "-disposition:v:1", "forced", "-disposition:a:0", "0", "-disposition:a:1", "0", "-f", "matroska",
        ])
    case .coverArtSong:
      return .ffmpeg([
        "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=3", "-f", "lavfi", "-i",
        "testsrc2=size=64x64:rate=1:duration=1", "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "64k",
        "-c:v", "mjpeg", "-frames:v", "1", "-disposition:v:0", "attached_pic", "-id3v2_version", "3", "-f", "mp3",
      ])
    }
  }

  private static func lavfiVideo(size: String, rate: some CustomStringConvertible, seconds: Int) -> [String] {
    ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
  }

  private static func lavfiSine(seconds: Int) -> [String] {
    ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)"]
  }

  /// `count` bytes from SplitMix64 seeded with `seed`: the same bytes on every machine and run.
  private static func seededBytes(count: Int, seed: UInt64) -> Data {
    var state = seed
    var data = Data(capacity: count)
    while data.count < count {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      withUnsafeBytes(of: z.littleEndian) { data.append(contentsOf: $0.prefix(count - data.count)) }
    }
    return data
  }

  /// A short, stable text naming the recipe, so a changed recipe gets a new cache file.
  private static func recipeKey(_ clip: TestClip) -> String {
    switch recipe(clip) {
    case .ffmpeg(let arguments): return arguments.joined(separator: " ")
    case .truncated(let source, let remux, let fraction):
      return "\(fileName(source)) \(remux.joined(separator: " ")) \(fraction)"
    case .bytes(let data): return "bytes \(data.count) \(fnv1a(data))"
    case .subtitle(let srt, let arguments): return "srt \(fnv1a(Data(srt.utf8))) \(arguments.joined(separator: " "))"
    case .withFiles(let files, let arguments, let remux):
      let contents = files.keys.sorted().map { "\($0)=\(fnv1a(Data(files[$0]!.utf8)))" }.joined(separator: " ")
      return "files \(contents) \(arguments.joined(separator: " ")) remux \(remux?.joined(separator: " ") ?? "-")"
    }
  }

  private static func fileName(_ clip: TestClip) -> String {
    let key = fnv1a(Data("v1 \(recipeKey(clip))".utf8))
    return "\(clip.rawValue)-\(key).\(clip.fileExtension)"
  }

  private static func fnv1a(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return String(hash, radix: 16)
  }

  // MARK: - Making and caching

  /// One clip made at a time in this process; other processes are kept safe by the atomic rename.
  private static let generationLock = NSLock()

  private static func makeIfNeeded(_ clip: TestClip) throws -> URL {
    let directory = self.directory
    let target = directory.appendingPathComponent(fileName(clip))
    if FileManager.default.fileExists(atPath: target.path) { return target }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw TestSupportError("cannot create the test media folder \(directory.path): \(error)")
    }

    // Made under a temporary name in the same folder (same extension, so tools recognise it), then renamed.
    let temporary = directory.appendingPathComponent(
      ".\(clip.rawValue).tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).\(clip.fileExtension)")
    defer { try? FileManager.default.removeItem(at: temporary) }

    switch recipe(clip) {
    case .ffmpeg(let arguments):
      try runFFmpeg(arguments + [temporary.path], making: clip)
    case .truncated(let source, let remux, let fraction):
      let sourceURL = try makeIfNeeded(source)
      try runFFmpeg(["-i", sourceURL.path] + remux + [temporary.path], making: clip)
      let whole = try Data(contentsOf: temporary)
      try whole.prefix(Int(Double(whole.count) * fraction)).write(to: temporary)
    case .bytes(let data):
      try data.write(to: temporary)
    case .subtitle(let srt, let arguments):
      let srtURL = directory.appendingPathComponent(".\(clip.rawValue).tmp-\(UUID().uuidString).srt")
      defer { try? FileManager.default.removeItem(at: srtURL) }
      try Data(srt.utf8).write(to: srtURL)
      try runFFmpeg(["-i", srtURL.path] + arguments + [temporary.path], making: clip)
    case .withFiles(let files, let arguments, let remux):
      let folder = directory.appendingPathComponent(".\(clip.rawValue).tmp-\(UUID().uuidString)", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
      let resolved = arguments.map {
        $0.hasPrefix("@") ? folder.appendingPathComponent(String($0.dropFirst())).path : $0
      }
      if let remux {
        let first = folder.appendingPathComponent("first.\(clip.fileExtension)")
        try runFFmpeg(resolved + [first.path], making: clip)
        try runFFmpeg(["-i", first.path] + remux + [temporary.path], making: clip)
      } else {
        try runFFmpeg(resolved + [temporary.path], making: clip)
      }
    }

    // rename(2) replaces atomically: a parallel process that made the same clip just wins or loses the race.
    guard rename(temporary.path, target.path) == 0 else {
      throw TestSupportError("cannot rename \(temporary.path) to \(target.path): errno \(errno)")
    }
    return target
  }

  /// Makes a clip of a test's own at `path` with ffmpeg from `arguments` (inputs, codecs and options; the output is
  /// `path`): one a test needs once, outside the shared cache. A failure throws with ffmpeg's message.
  public static func makeClip(at path: String, ffmpeg arguments: [String]) throws {
    let result = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments + [path])
    guard result.status == 0 else {
      throw TestSupportError("ffmpeg could not make \(path) (status \(result.status)):\n\(result.stderr)")
    }
  }

  private static func runFFmpeg(_ arguments: [String], making clip: TestClip) throws {
    let result = try Tool.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    guard result.status == 0 else {
      throw TestSupportError(
        "ffmpeg failed (status \(result.status)) making test clip \(clip.rawValue):\n"
          + "ffmpeg \(arguments.joined(separator: " "))\n\(result.stderr)")
    }
  }
}

/// Runs the FFmpeg command-line tools, found on PATH.
enum Tool {
  struct Result {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  /// The tool's path on PATH; throws a loud error, never skips, when it is missing.
  static func locate(_ name: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: String(directory), isDirectory: true).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw TestSupportError("\(name) not found: run scripts/bootstrap")
  }

  /// Runs the tool to its end with no stdin, reading stdout and stderr concurrently.
  static func run(_ name: String, _ arguments: [String]) throws -> Result {
    let process = Process()
    process.executableURL = try locate(name)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    let output = PipeCollector()
    let errors = PipeCollector()
    process.standardOutput = output.pipe
    process.standardError = errors.pipe
    do {
      try process.run()
    } catch {
      throw TestSupportError("cannot run \(name): \(error)")
    }
    output.start()
    errors.start()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: output.waitForEnd(),
      stderr: String(decoding: errors.waitForEnd(), as: UTF8.self))
  }
}

/// Reads a pipe to its end on a thread of its own, so a full pipe never blocks the process that writes it.
final class PipeCollector: @unchecked Sendable {
  let pipe = Pipe()
  private let condition = NSCondition()
  private var data = Data()
  private var ended = false
  /// Called on the reading thread with each chunk as it arrives (after it is appended), and with an empty chunk once
  /// the pipe has ended.
  private let onChunk: (@Sendable (Data) -> Void)?

  init(onChunk: (@Sendable (Data) -> Void)? = nil) { self.onChunk = onChunk }

  /// Starts reading; call after the process has started (its write end is then closed here).
  func start() {
    try? pipe.fileHandleForWriting.close()
    let thread = Thread { [self] in
      let handle = pipe.fileHandleForReading
      // read(2) rather than FileHandle.read(upToCount:), which on Linux waits for the whole count or the end.
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        let chunk = Data(buffer[0..<count])
        condition.withLock { data.append(chunk) }
        onChunk?(chunk)
      }
      try? handle.close()
      condition.withLock {
        ended = true
        condition.broadcast()
      }
      onChunk?(Data())
    }
    thread.start()
  }

  /// Everything read so far.
  var current: Data { condition.withLock { data } }

  /// Waits until the pipe has ended (the writer and every inheritor closed it), up to `deadline` if one is given;
  /// returns what was read.
  func waitForEnd(until deadline: Date? = nil) -> Data {
    condition.withLock {
      // No `.distantFuture` deadline: NSCondition.wait(until:) traps on it on Linux.
      while !ended {
        if let deadline {
          if !condition.wait(until: deadline) { break }
        } else {
          condition.wait()
        }
      }
      return data
    }
  }

  var hasEnded: Bool { condition.withLock { ended } }
}

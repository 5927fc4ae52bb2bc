// Playback checks as an app's own test suite writes them: a clip made now with ffmpeg's lavfi test source, played and
// scrubbed by a Player in this process, each frame checked against what `ffmpeg -f framemd5` decodes.

import Foundation
import Testing
import VPKEngine
import VideoPlaybackKit

@MainActor
@Suite("Scrubbing a clip made with ffmpeg")
struct ScrubTests {
  @Test func anExactScrubShowsTheFrameFFmpegDecodesThere() async throws {
    // Given a 4 s clip at 25 fps, and the MD5 of each of its frames from ffmpeg
    let clip = try Clip.make()
    let player = await PlaybackBuilder.makePlayer()
    try await player.open(clip.path)
    // When the player scrubs exactly to times between frames
    for target in [0.0, 1.23, 2.5, 3.97] {
      let seek = try await player.scrub(to: MediaTime(seconds: target), mode: .exact)
      // Then it stands at the target and shows the frame shown at that time, with ffmpeg's pixels
      let frame = try await player.currentFrame()
      let expected = clip.frame(at: target)
      #expect(seek.position == MediaTime(seconds: target))
      #expect(abs(frame.time.seconds - expected.seconds) < 1e-6, "scrub to \(target)")
      #expect(frame.md5 == expected.md5, "scrub to \(target)")
    }
    try await player.close()
  }

  @Test func playingOnTheVirtualClockReachesTheFrameAtTheTimeWaitedFor() async throws {
    // Given a player on the virtual clock (time moves only when a wait moves it), with the clip open
    let clip = try Clip.make()
    var options = PlaybackBuilder.playerOptions
    options.clock = .virtual
    let player = await PlaybackBuilder.makePlayer(options: options)
    try await player.open(clip.path)
    // When it plays until 2 s, then pauses
    try await player.play()
    let reached = try await player.wait(.position(.seconds(2)))
    try await player.pause()
    // Then it shows ffmpeg's frame at the position it stopped at
    let frame = try await player.currentFrame()
    #expect(reached.seconds >= 2)
    #expect(frame.md5 == clip.frame(at: frame.time.seconds).md5)
  }

  @Test func aMissingFileThrowsItsStableCode() async throws {
    // Given a player
    let player = await PlaybackBuilder.makePlayer()
    // When it opens a file that is not there
    let error = await #expect(throws: PlaybackError.self) { try await player.open("/nonexistent/clip.mp4") }
    // Then the error's code says so, and the player goes on
    #expect(error?.code == .fileNotFound)
    #expect(try await player.status().state == .idle)
  }
}

/// A test clip made with ffmpeg, and its frames as `ffmpeg -f framemd5` decodes them.
struct Clip {
  let path: String
  /// Each frame's start time in seconds and the MD5 of its pixels, in display order.
  let frames: [(seconds: Double, md5: String)]

  /// The frame shown at `seconds`: the last that starts at or before it.
  func frame(at seconds: Double) -> (seconds: Double, md5: String) {
    frames.last { $0.seconds <= seconds + 1e-9 } ?? frames[0]
  }

  /// Makes a 4 s, 25 fps H.264 clip with B-frames in a folder of its own, and reads its frames' MD5s.
  static func make() throws -> Clip {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("clip.mp4").path
    _ = try ffmpeg([
      "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=4", "-c:v", "libx264", "-preset", "veryfast",
      "-bf", "2", "-g", "50", "-pix_fmt", "yuv420p", "-y", path,
    ])
    let lines = try ffmpeg(["-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
    var timeBase = 0.0
    var frames: [(seconds: Double, md5: String)] = []
    for line in lines.split(separator: "\n") {
      if line.hasPrefix("#tb 0:") {
        let parts = line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: "/")
        timeBase = Double(parts[0])! / Double(parts[1])!
      } else if !line.hasPrefix("#") {
        // stream, dts, pts, duration, size, hash
        let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        frames.append((Double(fields[2])! * timeBase, fields[5]))
      }
    }
    return Clip(path: path, frames: frames.sorted { $0.seconds < $1.seconds })
  }

  /// Runs ffmpeg and returns what it wrote; a missing ffmpeg or a failure throws, saying what to do.
  static func ffmpeg(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error"] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // /usr/bin/env exits 127 when it finds no ffmpeg on PATH.
    if process.terminationStatus == 127 {
      throw ClipError("ffmpeg is not on PATH: install it (Debian: apt-get install ffmpeg) to make the test clip")
    }
    guard process.terminationStatus == 0 else {
      throw ClipError("ffmpeg \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(problem)")
    }
    return text
  }
}

struct ClipError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

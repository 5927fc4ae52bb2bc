// End-to-end tests of the decoded-frame cache through the built `vpk`: `--frame-cache`, the `cache.*` fields of
// `expect`, and that a file opened after another never shows a frame of the first.

import Foundation
import Testing
import VPKTestSupport

@Suite struct FrameCacheEndToEndTests {
  @Test func afterOpeningAnotherFileStepsBackShowOnlyItsFrames() throws {
    // Given two clips and ffmpeg's frames of the second
    let folder = try ScriptFolder(clip: .h264BFrames)
    defer { folder.remove() }
    let other = try TestMedia.url(for: .vp9)
    try FileManager.default.copyItem(at: other, to: URL(fileURLWithPath: folder.path("other.webm")))
    let reference = try FrameMD5.entries(of: other, streamTimeBase: true)
    let index = try #require(reference.firstIndex { $0 == reference.entry(containing: 4.9) })
    // When a script steps back in the first (filling its cache), opens the second and steps back at the same time
    let script = try folder.write(
      "reopen.vpk",
      [
        "open clip.mp4", "pause", "scrub 4.9", "step -1", "step -1", "expect cache.hits >= 1",
        "expect cache.frames > 100", "open other.webm", "pause", "expect cache.hits == 0", "scrub 4.9", "step -1",
        "expect frame.md5 == \(reference[index - 1].hash)", "step -1",
        "expect frame.md5 == \(reference[index - 2].hash)",
        "expect cache.hits >= 1",
      ])
    let result = try VPKProcess.run(["test", script])
    // Then every expectation holds: the second file's frames, from its own cache
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test func anOffCacheStillStepsBackExactlyAndReportsNothingHeld() throws {
    let folder = try ScriptFolder(clip: .h264BFrames)
    defer { folder.remove() }
    let reference = try FrameMD5.entries(of: try TestMedia.url(for: .h264BFrames), streamTimeBase: true)
    let index = try #require(reference.firstIndex { $0 == reference.entry(containing: 2.0) })
    let script = try folder.write(
      "off.vpk",
      [
        "open clip.mp4", "pause", "scrub 2", "step -1", "step -1", "expect frame.md5 == \(reference[index - 2].hash)",
        "expect cache.frames == 0", "expect cache.bytes == 0", "expect cache.hits == 0",
      ])
    let result = try VPKProcess.run(["test", "--frame-cache", "0", script])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  /// The peak RSS (VmHWM, KiB) of a paused `vpk play` that scrubs to the end of `url` and steps back `steps` frames,
  /// with `--frame-cache size`; and the `cache_bytes` its status reports at the end.
  private func peakAfterSteppingBack(_ url: URL, steps: Int, size: String) throws -> (peakKiB: Int, cacheBytes: Int) {
    let session = try VPKSession(["play", url.path, "--paused", "--progress", "off", "--frame-cache", size])
    _ = try session.waitForLine(containing: "ready")
    #expect(session.send("scrub 5.9"))
    for _ in 0..<steps { #expect(session.send("step -1")) }
    #expect(session.send("status"))
    let status = try session.waitForLine(timeout: 120, where: { $0.hasPrefix("status #\(steps + 2)") })
    let procStatus = try String(contentsOfFile: "/proc/\(session.processIdentifier)/status", encoding: .utf8)
    let peak = procStatus.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
      .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    #expect(session.send("quit"))
    _ = try session.waitForExit()
    let cacheBytes = status.split(separator: " ").first { $0.hasPrefix("cache_bytes=") }
      .flatMap { Int($0.dropFirst("cache_bytes=".count)) }
    return (try #require(peak), try #require(cacheBytes))
  }

  @Test func aLongWalkBackStaysWithinTheBudgetPlusWhatTheSessionHoldsWithoutACache() throws {
    // Given a 640x360 clip (about 350 KB a frame) with 50-frame GOPs
    let url = try TestMedia.url(for: .mpeg4)
    // When a session with no cache and one with a 4 MiB cache (about 11 frames) each step back 120 frames
    let without = try peakAfterSteppingBack(url, steps: 120, size: "0")
    let with = try peakAfterSteppingBack(url, steps: 120, size: "4M")
    // Then the cache held at most its budget, and the peak RSS exceeds the session without it by at most the budget
    // and the allocator's slack (holding every frame passed would be 40 MB more)
    #expect(with.cacheBytes <= 4 << 20 && with.cacheBytes > 0)
    #expect(without.cacheBytes == 0)
    #expect(
      with.peakKiB <= without.peakKiB + 4 * 1024 + 12 * 1024, "peak \(with.peakKiB) KiB against \(without.peakKiB)")
  }

  @Test(arguments: ["-1", "12X", "lots", "2T", ""])
  func aBadSizeIsRefusedWithItsOwnMessage(size: String) throws {
    for command in [["test", "x.vpk"], ["play", "x.mp4"]] {
      let result = try VPKProcess.run(command + ["--frame-cache", size])
      #expect(result.status == 64, "\(command) \(size)")
      #expect(result.stderr.contains("--frame-cache"), "\(command) \(size): \(result.stderr)")
    }
  }
}

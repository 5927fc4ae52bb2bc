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

  @Test(arguments: ["-1", "12X", "lots", "2T", ""])
  func aBadSizeIsRefusedWithItsOwnMessage(size: String) throws {
    for command in [["test", "x.vpk"], ["play", "x.mp4"]] {
      let result = try VPKProcess.run(command + ["--frame-cache", size])
      #expect(result.status == 64, "\(command) \(size)")
      #expect(result.stderr.contains("--frame-cache"), "\(command) \(size): \(result.stderr)")
    }
  }
}

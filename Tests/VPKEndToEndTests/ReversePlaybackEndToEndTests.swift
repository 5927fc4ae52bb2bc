// End-to-end tests of playing backward through the built `vpk`: `rate -1`, waits on the virtual clock, `wait position
// <= T`, the `ended` event's direction and the policies at the end, refusals (audio-only media, the free clock), and
// the memory a long backward run takes with a small cache.

import Foundation
import Testing
import VPKTestSupport

@Suite struct ReversePlaybackEndToEndTests {
  /// Runs `vpk play FILE --paused --clock virtual --progress off` with these commands and options.
  private func virtualSession(_ url: URL, _ commands: [String], options: [String] = []) throws -> VPKResult {
    try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "virtual", "--progress", "off"] + options,
      input: .text(commands.map { $0 + "\n" }.joined()), timeout: 120)
  }

  @Test func aPauseOnTheWallClockStandsInTheFrameOnScreenWhenTheNextWasNotDecodedInTime() throws {
    // Given a 720p clip with one keyframe every 250 frames (at 0 and 8.333 s), played backward on the wall clock from
    // just after its second keyframe: the frame before it needs the whole first GOP decoded, which takes longer than a
    // frame's time, so the keyframe's frame stays on screen while the clock goes on
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-late-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appendingPathComponent("hd.mp4").path
    try TestMedia.makeClip(
      at: clip,
      ffmpeg: [
        "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=10", "-c:v", "libx264", "-preset",
        "ultrafast", "-bf", "3", "-g", "250", "-x264-params", "scenecut=0", "-pix_fmt", "yuv420p",
      ])
    for pauseAfter in [0.15, 0.2, 0.25] {
      let session = try VPKSession(["play", clip, "--paused", "--at-end", "pause", "--progress", "off"])
      _ = try session.waitForLine(containing: "ready")
      #expect(session.send("scrub 8.45") && session.send("rate -1"))
      _ = try session.waitForLine(containing: "rate #2")
      // When it plays backward across the keyframe and is paused while the frame before it is being decoded
      #expect(session.send("play"))
      Thread.sleep(forTimeInterval: pauseAfter)
      #expect(session.send("pause") && session.send("status") && session.send("frame") && session.send("quit"))
      let result = try session.waitForExit(timeout: 120)
      #expect(result.status == 0, "\(result.stderr)")
      // Then the paused position lies in the frame on screen, from its time to the next frame's
      let position = try #require(result.event("status", id: 5)?.number("position"), "\(result.stdout)")
      let time = try #require(result.event("frame", id: 6)?.number("time"), "\(result.stdout)")
      #expect(
        position >= time - 0.0005 && position < time + 1.0 / 30,
        "paused \(pauseAfter) s in: position \(position), frame \(time)")
    }
  }

  @Test func rateMinusOneWaitsAndTheStartOnTheVirtualClock() throws {
    // Given a clip and ffmpeg's frames
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    // When a session scrubs to 5 s, plays at rate -1, waits 2 s, then for the position to come down to 1.5 s, then
    // for the end
    let result = try virtualSession(
      url,
      [
        "scrub 5", "rate -1", "play", "wait 2", "status", "frame", "wait position <= 1.5", "status", "wait ended",
        "status",
      ], options: ["--at-end", "pause"])
    // Then the wait landed exactly 2 s earlier on ffmpeg's frame there
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.event("rate", id: 2)?.fields["rate"] == "-1")
    #expect(result.event("status", id: 5)?.fields["position"] == "3.000")
    #expect(result.event("status", id: 5)?.fields["rate"] == "-1")
    #expect(result.event("frame", id: 6)?.fields["md5"] == reference.entry(containing: 3).hash)
    // And the position wait came down to 1.5 s (within a frame)
    let atMost = try #require(result.event("status", id: 8)?.number("position"))
    #expect(atMost <= 1.5 && atMost > 1.5 - 0.034, "\(atMost)")
    // And the start is an end, backward, where the session stands paused
    let ended = try #require(result.events("ended").first)
    #expect(ended.fields["direction"] == "backward")
    #expect(ended.fields["position"] == "0.000")
    #expect(result.event("status", id: 10)?.fields["state"] == "ended")
    #expect(result.event("status", id: 10)?.fields["position"] == "0.000")
  }

  @Test func inJSONTheRateIsNegativeAndTheEndBackwardMatchesTheSchema() throws {
    // Given a JSON session on the virtual clock
    let checker = try ProtocolChecker()
    let url = try TestMedia.url(for: .h264OpenGOP)
    let commands = [
      "scrub 0.5", #"{"command":"rate","args":[-1],"id":"r"}"#, "play",
      #"{"command":"wait","args":["position","<=",0.25],"id":"w"}"#, "wait ended",
    ]
    let result = try VPKProcess.run(
      ["play", url.path, "--json", "--paused", "--clock", "virtual", "--progress", "off", "--at-end", "pause"],
      input: .text(commands.map { $0 + "\n" }.joined()), timeout: 120)
    // When it plays backward to the start
    let events = try checker.check(result.stdoutLines, "backward")
    try checker.validate()
    // Then the rate is -1, the position wait is answered, and the end says backward, all as the schema has them
    #expect(events.named("rate").first?["rate"] == .number(-1))
    #expect(events.named("waited").first?["id"] == .string("w"))
    #expect(events.named("ended").first?["direction"] == .string("backward"))
    #expect(events.named("ended").first?["position"] == .number(0))
  }

  @Test func atTheStartPlayStartsOverFromTheEndAndExitLeaves() throws {
    let url = try TestMedia.url(for: .h264OpenGOP)
    // With --at-end pause, play at the start goes on backward from the end
    let paused = try virtualSession(
      url, ["scrub 0.5", "rate -1", "play", "wait ended", "play", "wait 1", "status"], options: ["--at-end", "pause"])
    #expect(paused.status == 0, "\(paused.stdout)\(paused.stderr)")
    let duration = try #require(paused.event("status", id: 7)?.number("duration"))
    let position = try #require(paused.event("status", id: 7)?.number("position"))
    #expect(abs(position - (duration - 1)) < 0.0015, "at \(position) of \(duration)")
    // With --at-end exit, the session leaves at the start, saying it ended there
    let exited = try virtualSession(url, ["scrub 0.5", "rate -2", "play", "wait 5"], options: ["--at-end", "exit"])
    #expect(exited.status == 0, "\(exited.stdout)\(exited.stderr)")
    #expect(exited.events("ended").first?.fields["direction"] == "backward")
    #expect(exited.events("shutdown").first?.fields["reason"] == "ended")
  }

  @Test func loopingBackwardGoesOnFromTheEnd() throws {
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let last = try #require(reference.last)
    let end = last.time + last.durationSeconds
    let result = try virtualSession(
      url, ["scrub 0.5", "rate -1", "play", "wait 1", "status", "frame"], options: ["--at-end", "loop"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.events("ended").first?.fields["direction"] == "backward")
    #expect(result.event("status", id: 5)?.fields["loops"] == "1")
    let position = try #require(result.event("status", id: 5)?.number("position"))
    #expect(abs(position - (end - 0.5)) < 0.0015, "at \(position)")
    #expect(result.event("frame", id: 6)?.fields["md5"] == reference.entry(containing: end - 0.5).hash)
  }

  @Test func aNegativeRateIsUnavailableForAudioOnlyMediaAndOnTheFreeClock() throws {
    let audio = try virtualSession(try TestMedia.url(for: .audioOnly), ["rate -1", "rate 2"])
    #expect(audio.event("error", id: 1)?.fields["code"] == "unavailable", "\(audio.stdout)")
    #expect(audio.event("error", id: 1)?.fields["message"]?.contains("use a rate above 0") == true)
    #expect(audio.event("rate", id: 2)?.fields["rate"] == "2")
    let free = try session(try TestMedia.url(for: .h264BFrames), ["rate -1"])
    #expect(free.event("error", id: 1)?.fields["code"] == "unavailable", "\(free.stdout)")
  }

  /// The peak RSS (VmHWM, KiB) of a `vpk play` on the virtual clock that runs `commands`, then asks for status.
  private func peak(_ url: URL, _ commands: [String], cache: String) throws -> (peakKiB: Int, cacheBytes: Int) {
    // Under AddressSanitizer freed memory is held in a quarantine (256 MB by default), and playing backward frees
    // many decoded frames: that would read as the peak (361 MiB in the ASan run once).
    let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + " " } ?? ""
    let session = try VPKSession(
      ["play", url.path, "--paused", "--clock", "virtual", "--progress", "off", "--frame-cache", cache],
      environment: ["ASAN_OPTIONS": asan + "quarantine_size_mb=0"])
    _ = try session.waitForLine(containing: "ready")
    for command in commands { #expect(session.send(command)) }
    #expect(session.send("status"))
    let status = try session.waitForLine(timeout: 120, where: { $0.hasPrefix("status #\(commands.count + 1)") })
    let procStatus = try String(contentsOfFile: "/proc/\(session.processIdentifier)/status", encoding: .utf8)
    let peak = procStatus.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
      .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
    #expect(session.send("quit"))
    _ = try session.waitForExit()
    let cacheBytes = status.split(separator: " ").first { $0.hasPrefix("cache_bytes=") }
      .flatMap { Int($0.dropFirst("cache_bytes=".count)) }
    return (try #require(peak), try #require(cacheBytes))
  }

  @Test func aLongBackwardRunStaysWithinTheBudgetPlusWhatTheSessionHoldsWithoutACache() throws {
    // Given a 640x360 clip (345,600 bytes a 4:2:0 frame) with 50-frame GOPs (a GOP of frames is 16.5 MiB)
    let url = try TestMedia.url(for: .mpeg4)
    let frameKiB = 640 * 360 * 3 / 2 / 1024
    // When a session with no cache plays it forward 5.5 s, and one with a 4 MiB cache (about 11 frames) plays it
    // backward as long, across three GOPs
    let forward = try peak(url, ["scrub 0.2", "play", "wait 5.5"], cache: "0")
    let backward = try peak(url, ["scrub 5.9", "rate -1", "play", "wait 5.5"], cache: "4M")
    // Under the sanitizers a frame's bytes cost more RSS (ThreadSanitizer's shadow, AddressSanitizer's redzones): the
    // fresh-clone runs measured the budget and 27 frames (TSan) and 16 (ASan) where a plain build has 4. A GOP held
    // beyond the budget costs 50 frames, times the same factor.
    let environment = ProcessInfo.processInfo.environment
    let rssPerByte = environment["TSAN_OPTIONS"] != nil || environment["ASAN_OPTIONS"] != nil ? 2.5 : 1.0
    // Then the cache held at most its budget
    #expect(backward.cacheBytes <= 4 << 20 && backward.cacheBytes > 0)
    // And the peak RSS exceeds the session without a cache by at most the budget and a few frames more (docs
    // reverse-playback.md, Memory: the cache's frames and the few queued, as many as playing forward queues; the pass
    // under way keeps 2 frames of its own, and its decoder a frame thread's more). 12 frames, a quarter of a GOP,
    // covers those and the allocator's slack (measured: the budget and 4 frames); a GOP held beyond the budget
    // (50 frames) is far outside it.
    // Both in RSS as this build counts it (`rssPerByte`).
    let allowedKiB = Int(Double(4 * 1024 + 12 * frameKiB) * rssPerByte)
    #expect(
      backward.peakKiB - forward.peakKiB <= allowedKiB,
      "peak \(backward.peakKiB) KiB against \(forward.peakKiB), at most \(allowedKiB) KiB more (\(rssPerByte) RSS a byte)"
    )
  }
}

// Answers that say what happened: a clamped seek says what was asked for, `--start` outside the media is told on
// standard error, `play` at the end has one reply, and the first `progress` agrees with `state` on a clip whose first
// frame is not at 0.

import Foundation
import Testing
import VPKTestSupport

@Suite struct AnswersTests {
  @Test func aClampedSeekCarriesTheTimeAskedForInTextAndJSON() throws {
    // Given a 10 s clip
    let url = try TestMedia.url(for: .h264BFrames)
    let duration = try FFprobe.duration(url)
    // (each seek lands before the next starts: a status waits for it)
    let commands = ["scrub 1:05", "status", "skip -100", "status", "scrub 2", "status", "skip 1000", "quit"]
    // When scrubbing past the end, skipping before the start, scrubbing within the media, skipping past the end
    let text = try session(url, commands)
    let json = try session(url, commands, options: ["--json"])
    // Then the clamped seeks carry the time asked for and clamped=true; the one within the media carries neither
    #expect(text.status == 0, "\(text.stderr)")
    let seeked = text.events("seeked")
    #expect(seeked.map { $0.fields["requested"] } == ["65.000", "-90.000", nil, "1002.000"], "\(text.stdout)")
    #expect(seeked.map { $0.fields["clamped"] } == ["true", "true", nil, "true"])
    #expect(seeked.map { $0.number("target") } == [duration, 0, 2, duration].map { ($0 * 1000).rounded() / 1000 })
    let checker = try ProtocolChecker()
    let events = try checker.check(json.stdoutLines, "clamped seeks")
    try checker.validate()
    let objects = events.named("seeked")
    #expect(objects.map { $0["requested"]?.double } == [65, -90, nil, 1002])
    #expect(objects.map { $0["clamped"] } == [.bool(true), .bool(true), nil, .bool(true)])
  }

  @Test(arguments: [("999", "999.000 s is past the end")])
  func aStartOutsideTheMediaIsToldOnStandardError(start: String, words: String) throws {
    // Given a clip, When vpk starts it at a time outside it
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "free", "--progress", "off", "--start", start],
      input: .text("status\n"))
    // Then it still plays (from the nearest end) and exits 0, and says so on standard error
    #expect(result.status == 0)
    #expect(result.stderr.contains("vpk play: --start \(words) of the media; playback started at"), "\(result.stderr)")
  }

  @Test func aStartPastTheEndIsToldAsTheFileOpensNotAtExit() throws {
    // Given a session started past the end of a clip, paused, its input still open
    let url = try TestMedia.url(for: .h264BFrames)
    let session = try VPKSession(
      ["play", url.path, "--paused", "--clock", "free", "--progress", "off", "--start", "999"], input: .open)
    _ = try session.waitForLine(containing: "ready")
    // When the file is ready, Then standard error has said so already, while the session goes on
    let deadline = Date().addingTimeInterval(60)
    while !session.stderr.contains("--start 999.000 s is past the end") && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    #expect(session.stderr.contains("--start 999.000 s is past the end of the media"), "\(session.stderr)")
    _ = session.send("quit\n")
    let result = try session.waitForExit()
    #expect(result.status == 0)
    // and only once
    #expect(result.stderr.components(separatedBy: "past the end").count == 2, "\(result.stderr)")
  }

  @Test func aNegativeStartCountsBackFromTheEndAndRateSetsTheStartingSpeed() throws {
    // Given a clip
    let url = try TestMedia.url(for: .h264BFrames)
    let duration = try FFprobe.duration(url)
    // When vpk starts it 2 s before its end, at rate 1.5
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "virtual", "--progress", "off", "--start", "-2", "--rate", "1.5"],
      input: .text("status\n"))
    // Then it opens there, at that speed, and says nothing on standard error
    #expect(result.status == 0, "\(result.stderr)")
    let status = try #require(result.events("status").first, "\(result.stdout)")
    #expect(abs((status.number("position") ?? -1) - (duration - 2)) < 0.05, "\(result.stdout)")
    #expect(status.number("rate") == 1.5, "\(result.stdout)")
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test(arguments: [["--rate", "0"], ["--rate", "101"], ["--rate", "2", "--clock", "free"]])
  func aRateOutsideItsRangeOrOnTheFreeClockIsRefusedSayingWhatItTakes(options: [String]) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(["play", url.path] + options, input: .text("quit\n"))
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("--rate"), "\(result.stderr)")
  }

  @Test func aStartWithinTheMediaSaysNothing() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "free", "--progress", "off", "--start", "5"], input: .text("status\n"))
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func playAtTheEndHasOneReplyAndPlaysExactlyFromTheStart() throws {
    // Given a clip played to its end with --at-end pause, and ffmpeg's frames
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let result = try VPKProcess.run(
      ["play", url.path, "--clock", "virtual", "--at-end", "pause", "--progress", "off"],
      input: .text("wait ended\nplay\nwait 0.5\nframe\nstatus\n"))
    // Then `play` (#2) is answered by its state alone, and playback goes on from the start, frame for frame
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.events.filter { $0.id == 2 }.map(\.name) == ["state"], "\(result.stdout)")
    #expect(result.event("state", id: 2)?.fields["state"] == "playing")
    #expect(result.event("waited", id: 3)?.number("position") == 0.5)
    #expect(result.event("frame", id: 4)?.fields["md5"] == reference.entry(containing: 0.5).hash)
    #expect(result.event("status", id: 5)?.number("position") == 0.5)
  }

  @Test func theFirstProgressAgreesWithStateWhereTheFirstFrameIsNotAtZero() throws {
    // Given a WebM whose Opus audio starts before its video, so its first frame is not at 0
    let url = try TestMedia.url(for: .vp9)
    let videoStart = try #require(try FFprobe.entry(url, "stream", "start_time", selecting: "v:0").flatMap(Double.init))
    let fileStart = try #require(try FFprobe.entry(url, "format", "start_time").flatMap(Double.init))
    // Positions count from the file's start.
    let firstFrame = ((videoStart - fileStart) * 1000).rounded() / 1000
    #expect(firstFrame > 0)
    // When it plays on the virtual clock
    let result = try VPKProcess.run(
      ["play", url.path, "--clock", "virtual", "--progress", "1"], input: .text("status\nwait 1.5\n"))
    // Then the first progress, the state and status all say the same position, and it is not 0
    let state = try #require(result.events("state").first?.number("position"), "\(result.stdout)")
    let progress = result.events("progress").compactMap { $0.number("position") }
    #expect(state == firstFrame)
    #expect(progress.first == state, "\(result.stdout)")
    #expect(result.event("status", id: 1)?.number("position") == state)
    #expect(progress.count == 2)
  }
}

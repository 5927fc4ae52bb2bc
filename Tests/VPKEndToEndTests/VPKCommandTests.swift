// End-to-end tests: the built `vpk` driven through its stdin, read through its stdout, on media
// made at test time, checked against ffmpeg and ffprobe.

import Foundation
import Testing
import VPKTestSupport

/// One event line of vpk's text output: `name [#id] key=value key="quoted value" …`.
struct EventLine: CustomStringConvertible {
  var name: String
  var id: Int?
  var fields: [String: String]
  var description: String

  init(_ line: String) {
    description = line
    var scanner = Substring(line)
    func token() -> (String, String?)? {
      scanner = scanner.drop { $0 == " " }
      guard !scanner.isEmpty else { return nil }
      var key = ""
      while let c = scanner.first, c != " ", c != "=" {
        key.append(c)
        scanner.removeFirst()
      }
      guard scanner.first == "=" else { return (key, nil) }
      scanner.removeFirst()
      var value = ""
      if scanner.first == "\"" {
        scanner.removeFirst()
        while let c = scanner.first {
          scanner.removeFirst()
          if c == "\\", let next = scanner.first {
            scanner.removeFirst()
            value.append(next == "n" ? "\n" : next == "t" ? "\t" : next)
          } else if c == "\"" {
            break
          } else {
            value.append(c)
          }
        }
      } else {
        while let c = scanner.first, c != " " {
          value.append(c)
          scanner.removeFirst()
        }
      }
      return (key, value)
    }
    name = token()?.0 ?? ""
    fields = [:]
    while let (key, value) = token() {
      if let value { fields[key] = value } else if key.hasPrefix("#") { id = Int(key.dropFirst()) }
    }
  }

  func number(_ key: String) -> Double? { fields[key].flatMap(Double.init) }
}

extension VPKResult {
  var events: [EventLine] { stdoutLines.map(EventLine.init) }
  func events(_ name: String) -> [EventLine] { events.filter { $0.name == name } }
  func event(_ name: String, id: Int) -> EventLine? { events.first { $0.name == name && $0.id == id } }
}

/// Runs `vpk play FILE --paused --clock free` with these commands on stdin (then end of input).
func session(_ url: URL, _ commands: [String], options: [String] = [], timeout: Double = 120) throws -> VPKResult {
  try VPKProcess.run(
    ["play", url.path, "--paused", "--clock", "free", "--progress", "off"] + options,
    input: .text(commands.map { $0 + "\n" }.joined()), timeout: timeout)
}

@Suite struct PlayingTests {
  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func playsToTheEndDecodingEveryFrame(clip: TestClip) throws {
    // Given a clip and ffprobe's frame count
    let url = try TestMedia.url(for: clip)
    let frames = try FFprobe.frameCount(url)
    // When vpk plays it on the free clock with no input
    let result = try VPKProcess.run(["play", url.path, "--clock", "free"], input: .closed)
    // Then it reports ready, playing, progress, ended, and leaves with 0 having decoded each frame
    #expect(result.status == 0, "\(result.stderr)")
    let names = result.events.map(\.name)
    #expect(names.first == "ready")
    #expect(names.contains("progress"))
    #expect(names.suffix(2) == ["ended", "shutdown"])
    let shutdown = try #require(result.events("shutdown").last)
    #expect(shutdown.fields["reason"] == "ended")
    #expect(shutdown.number("frames_decoded") == Double(frames))
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  @Test func theInfoCommandDescribesTheMedia() throws {
    let result = try session(try TestMedia.url(for: .h264BFrames), ["info", "quit"])
    #expect(result.status == 0)
    let info = try #require(result.event("info", id: 1))
    #expect(info.fields["video"] == "h264")
    #expect(info.fields["width"] == "320")
    #expect(info.fields["height"] == "240")
    #expect(info.fields["fps"] == "30")
    #expect(info.fields["audio"] == "aac")
    #expect(info.number("duration").map { abs($0 - 10) < 0.05 } == true)
  }

  @Test func jsonLinesStartWithHelloAndCarryTypedFields() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try session(url, ["scrub 2.5", "status", "quit"], options: ["--json"])
    let objects = try result.stdoutLines.map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
    #expect(objects.first?["event"] as? String == "hello")
    let status = try #require(objects.first { $0["event"] as? String == "status" })
    #expect(status["id"] as? Int == 2)
    #expect(status["position"] as? Double == 2.5)
    #expect(status["state"] as? String == "paused")
  }
}

@Suite struct SeekingTests {
  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func scrubThenFrameMatchesFFmpegFrameMD5(clip: TestClip) throws {
    // Given ffmpeg's list of frames
    let url = try TestMedia.url(for: clip)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let duration = try FFprobe.duration(url)
    let targets = [0, 0.5, 1.2345, duration / 3, duration / 2 + 0.01, duration - 0.1, duration]
    // When each target is scrubbed to and the frame reported
    let result = try session(url, targets.flatMap { ["scrub \($0)", "frame"] } + ["quit"])
    // Then each seek lands at its target with the frame ffmpeg shows there
    #expect(result.status == 0)
    for (index, target) in targets.enumerated() {
      let seeked = try #require(result.event("seeked", id: 2 * index + 1), "\(result.stdout)")
      #expect(abs((seeked.number("position") ?? -1) - min(target, duration)) <= 0.000_501)
      let frame = try #require(result.event("frame", id: 2 * index + 2))
      let expected = reference.entry(containing: target)
      #expect(frame.fields["md5"] == expected.hash, "\(clip) at \(target)")
      #expect(abs((frame.number("time") ?? -1) - expected.time) <= 0.000_501)
    }
  }

  @Test func scrubAsTheVeryFirstLineWorks() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let result = try session(url, ["scrub 7.25", "frame"])
    #expect(result.event("frame", id: 2)?.fields["md5"] == reference.entry(containing: 7.25).hash)
  }

  @Test func frameAsTheVeryFirstLineShowsTheFirstFrame() throws {
    // Given a paused session, When the first command asks for the frame, Then it is the first one
    let url = try TestMedia.url(for: .vp9)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let result = try session(url, ["frame"])
    #expect(result.event("frame", id: 1)?.fields["md5"] == reference[0].hash)
  }

  @Test func timeFormsAndSkipsAreRelative() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try session(
      url, ["scrub 0:03.5", "skip +2", "skip -1.25", "status", "scrub 50%", "status", "skip -100", "status"])
    #expect(result.event("status", id: 4)?.number("position") == 4.25)
    #expect(result.event("status", id: 6)?.number("position") == 5)
    #expect(result.event("status", id: 8)?.number("position") == 0)
  }

  @Test func skipsSentTogetherAddUp() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try session(url, ["skip +1", "skip +1", "skip +1", "skip +1", "status"])
    #expect(result.event("status", id: 5)?.number("position") == 4)
    // every seek answered exactly once
    let answered = result.events.filter { $0.name == "seeked" || $0.name == "superseded" }.compactMap(\.id)
    #expect(answered.sorted() == [1, 2, 3, 4])
  }

  @Test func clampingAtBothEnds() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let duration = try FFprobe.duration(url)
    let result = try session(url, ["scrub -5", "status", "scrub 99999", "status", "scrub 1e2%"])
    #expect(result.event("status", id: 2)?.number("position") == 0)
    #expect(abs((result.event("status", id: 4)?.number("position") ?? 0) - duration) < 0.0005)
  }

  @Test func keyframeModeLandsOnAKeyframe() throws {
    // Given a clip with a keyframe every 2 s, and the keyframes ffprobe finds in it
    let url = try TestMedia.url(for: .mpeg4)
    let keyframes = try FFprobe.keyframeTimes(url)
    let expected = try #require(keyframes.last { $0 <= 3.3 + 1e-6 })
    // When it scrubs to 3.3 s in keyframe mode
    let result = try session(url, ["scrub 3.3 keyframe", "frame"])
    // Then the frame on screen is ffprobe's last keyframe at or before 3.3 s (not merely one vpk calls a keyframe)
    let frame = try #require(result.event("frame", id: 2), "\(result.stdout)")
    let time = try #require(frame.number("time"), "\(frame)")
    #expect(abs(time - expected) < 1e-3, "landed at \(time); ffprobe's keyframes: \(keyframes)")
    #expect(abs((result.event("seeked", id: 1)?.number("position") ?? -1) - expected) < 1e-3, "\(result.stdout)")
    #expect(frame.fields["key"] == "true")
  }

  @Test func playAfterTheEndWithAtEndPauseStartsOver() throws {
    // Given a session on the virtual clock that played to its end and stayed there (--at-end pause)
    let url = try TestMedia.url(for: .mpeg4)
    let duration = try FFprobe.duration(url)
    let session = try VPKSession(["play", url.path, "--clock", "virtual", "--at-end", "pause", "--progress", "off"])
    #expect(session.send("wait ended"))
    _ = try session.waitForLine(containing: "waited #1")
    #expect(session.send("status"))
    let atEnd = EventLine(try session.waitForLine(containing: "status #2"))
    // When `play` is sent there (README: `play` at the end starts over from the start), then the clock moves 1 s
    for line in ["play", "status", "wait 1", "status", "quit"] { #expect(session.send(line)) }
    let result = try session.waitForExit()
    // Then the session had been at the end, and `play` was answered by its one `state`, playing
    #expect(atEnd.fields["state"] == "ended", "\(atEnd)")
    #expect(abs((atEnd.number("position") ?? 0) - duration) < 0.1, "\(atEnd)")
    #expect(result.event("state", id: 3)?.fields["state"] == "playing", "\(result.stdout)")
    #expect(result.events.filter { $0.id == 3 }.count == 1, "\(result.stdout)")
    // And it started over: back at the start, playing
    let restarted = try #require(result.event("status", id: 4), "\(result.stdout)")
    #expect(restarted.fields["state"] == "playing", "\(restarted)")
    #expect(restarted.number("position") == 0, "\(restarted)")
    // And it plays on from there: a second of clock later it is a second in, still playing, not at the end again
    let later = try #require(result.event("status", id: 6), "\(result.stdout)")
    #expect(later.fields["state"] == "playing", "\(later)")
    #expect(abs((later.number("position") ?? 0) - 1) < 1e-3, "\(later)")
    #expect(result.events("ended").count == 1, "\(result.stdout)")
    #expect(result.status == 0)
  }
}

@Suite struct BadFileTests {
  @Test(arguments: [
    (TestClip.emptyFile, "not_media"), (.randomBytes, "not_media"), (.textFile, "not_media"),
    (.noStreams, "no_playable_stream"),
  ])
  func unreadableMediaExitsThreeWithACode(clip: TestClip, code: String) throws {
    let result = try VPKProcess.run(["play", try TestMedia.url(for: clip).path], input: .closed)
    #expect(result.status == 3)
    #expect(result.events("error").first?.fields["code"] == code)
    #expect(!result.terminatedBySignal)
  }

  @Test func missingFileAndDirectory() throws {
    let missing = try VPKProcess.run(["play", "/nonexistent/clip.mp4"], input: .closed)
    #expect(missing.status == 3)
    #expect(missing.events("error").first?.fields["code"] == "file_not_found")
    // A folder plays its media files: one with none is refused as vpk's command line is.
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: empty) }
    let directory = try VPKProcess.run(["play", empty.path], input: .closed)
    #expect(directory.status == 64)
    #expect(directory.stderr.contains("holds no media files"))
  }

  @Test func truncatedFilePlaysToWhereItStops() throws {
    let result = try VPKProcess.run(
      ["play", try TestMedia.url(for: .truncatedMP4).path, "--clock", "free"], input: .closed)
    #expect(result.status == 0)
    #expect(result.events("ended").count == 1)
  }

  @Test func audioOnlyPlaysAndFrameSaysThereIsNoVideo() throws {
    let result = try session(try TestMedia.url(for: .audioOnly), ["scrub 2", "status", "frame", "play"])
    #expect(result.event("status", id: 2)?.number("position") == 2)
    #expect(result.event("error", id: 3)?.fields["code"] == "unavailable")
    #expect(result.events("ended").count == 1)
    #expect(result.status == 0)
  }

  @Test func badCommandLineUsageExits64() throws {
    let result = try VPKProcess.run(["play", "x.mp4", "--clock", "sometimes"], input: .closed)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
  }

  @Test func vpkAloneShowsTheOverview() throws {
    // Given no arguments at all, When vpk runs, Then it shows the root command's help (its subcommands), not an error
    let result = try VPKProcess.run([], input: .closed)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("OVERVIEW: A headless, scriptable video-playback controller"), "\(result.stdout)")
    #expect(result.stdout.contains("SUBCOMMANDS:"))
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    // while a file alone still plays it (`vpk play` is the default)
    let url = try TestMedia.url(for: .h264BFrames)
    let played = try VPKProcess.run([url.path, "--paused", "--clock", "free"], input: .text("status\n"))
    #expect(played.status == 0, "\(played.stderr)")
    #expect(played.stdoutLines.contains { $0.hasPrefix("status #1 state=paused") })
  }

  @Test func atEndHelpSaysItsDefaultDependsOnATerminal() throws {
    let result = try VPKProcess.run(["play", "--help"], input: .closed)
    // (The help is wrapped to the width: its words are compared.)
    let words = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("Default: pause when standard input and output are a terminal"), "\(result.stdout)")
  }
}

@Suite struct BadInputTests {
  /// Each bad line gets an error with its id and a code; the session goes on and answers status.
  @Test func badCommandsGetErrorsAndTheSessionGoesOn() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let cases: [(String, String)] = [
      ("jump 10", "unknown_command"), ("scrub abc", "bad_argument"), ("skip", "bad_argument"),
      ("scrub 1:99", "bad_argument"), ("scrub nan", "bad_argument"), ("scrub inf", "bad_argument"),
      ("skip -inf", "bad_argument"), ("scrub 1e400", "bad_argument"), ("scrub 2 sideways", "bad_argument"),
      ("status now", "bad_argument"),
    ]
    let result = try session(url, ["scrub 3"] + cases.map(\.0) + ["status"])
    for (offset, (line, code)) in cases.enumerated() {
      let error = try #require(result.event("error", id: offset + 2), "no error for \(line)")
      #expect(error.fields["code"] == code, "\(line)")
      #expect((error.fields["message"] ?? "").count > 10)
    }
    let status = try #require(result.event("status", id: cases.count + 2))
    #expect(status.number("position") == 3)
    #expect(result.status == 0)
  }

  @Test func hugeAndNegativeValuesClamp() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try session(url, ["scrub 99999999999999", "skip -99999999999999", "status"])
    #expect(result.event("status", id: 3)?.number("position") == 0)
    #expect(result.events("error").isEmpty)
  }

  @Test func aMegabyteLineAndInvalidUTF8AreRejectedAndTheSessionGoesOn() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    var input = Data("scrub 1\n".utf8)
    input += Data(repeating: UInt8(ascii: "a"), count: 1 << 20) + Data("\n".utf8)
    input += Data([0x73, 0x63, 0xFF, 0xFE, 0x0A])
    input += Data("status\n".utf8)
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "free", "--progress", "off"], input: .data(input))
    #expect(result.event("error", id: 2)?.fields["code"] == "bad_input")
    #expect(result.event("error", id: 3)?.fields["code"] == "bad_input")
    #expect(result.event("status", id: 4)?.number("position") == 1)
    #expect(result.status == 0)
  }

  @Test func commandsAfterTheEndStillWork() throws {
    // Given a session that played to its end and stayed (--at-end pause)
    let url = try TestMedia.url(for: .mpeg4)
    let session = try VPKSession(["play", url.path, "--clock", "free", "--at-end", "pause", "--progress", "off"])
    _ = try session.waitForLine(containing: "ended")
    // When commands, good and bad, arrive after the end
    for line in ["jump", "scrub 1", "status", "quit"] { #expect(session.send(line)) }
    // Then each is answered and the session moved back to 1 s, paused
    let result = try session.waitForExit()
    #expect(result.event("error", id: 1)?.fields["code"] == "unknown_command")
    #expect(result.event("status", id: 3)?.number("position") == 1)
    #expect(result.event("status", id: 3)?.fields["state"] == "paused")
    #expect(result.status == 0)
  }
}

@Suite struct ProcessTests {
  @Test func stdoutClosedByTheReaderExitsQuietly() throws {
    // Given vpk writing many events to a pipe whose reader takes one byte and goes away
    let url = try TestMedia.url(for: .h264BFrames)
    let vpk = try VPKProcess.executableURL().path
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/bash")
    shell.arguments = [
      "-c",
      "'\(vpk)' play '\(url.path)' --clock free --progress 0.01 </dev/null | head -c 1 >/dev/null; "
        + "echo \"vpk=${PIPESTATUS[0]}\"",
    ]
    let output = Pipe()
    let errors = Pipe()
    shell.standardOutput = output
    shell.standardError = errors
    try shell.run()
    shell.waitUntilExit()
    // Then vpk itself exited 0 (not 141, killed by SIGPIPE) and wrote nothing to stderr
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "vpk=0")
    #expect(stderr.isEmpty, "\(stderr)")
  }

  @Test func quitRightAfterAScrubStillAnswersTheScrub() throws {
    let result = try session(try TestMedia.url(for: .h264BFrames), ["scrub 3", "quit"])
    #expect(result.event("seeked", id: 1)?.number("position") == 3)
    #expect(result.events("shutdown").last?.id == 2)
    #expect(result.status == 0)
  }

  @Test(arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
  func signalsReportTheFinalStateAndExitWithTheirStatus(signal: Int32, status: Int32, name: String) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(["play", url.path], signal: signal, afterLine: "state")
    #expect(result.status == status)
    #expect(!result.terminatedBySignal)
    let shutdown = try #require(result.events("shutdown").last)
    #expect(shutdown.fields["reason"] == name)
  }

  @Test func aSignalWhileTheFileStillOpensEndsPromptly() throws {
    // Given a FIFO no one writes to: opening it blocks in the kernel
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-fifo-\(getpid())").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    let session = try VPKSession(["play", fifo])
    // Once its handler is in place, and a moment more for the rest of its start (the open is under way then)
    try session.waitUntilHandling(signal: SIGINT)
    Thread.sleep(forTimeInterval: 0.5)
    // When SIGINT arrives, Then vpk reports and leaves, with 130 (the timeout is only a hang guard)
    session.send(signal: SIGINT)
    let result = try session.waitForExit(timeout: 30)
    #expect(result.status == 130)
    #expect(result.events("shutdown").last?.fields["state"] == "loading")
  }

  @Test func stdinAtEndWhilePausedLeaves() throws {
    let result = try VPKProcess.run(["play", try TestMedia.url(for: .mpeg4).path, "--paused"], input: .closed)
    #expect(result.status == 0)
    #expect(result.events("shutdown").last?.fields["reason"] == "input ended")
  }

  @Test func quitExitsZeroAndIgnoresTheRest() throws {
    let result = try session(try TestMedia.url(for: .mpeg4), ["quit", "status"])
    #expect(result.status == 0)
    #expect(result.events("status").isEmpty)
    #expect(result.events("shutdown").last?.id == 1)
  }
}

/// `quit` sent before the file is ready is answered after the open's outcome: a script that runs
/// `echo quit | vpk play "$f"` learns that a missing file did not play.
@Suite struct QuitWhileOpeningTests {
  @Test(arguments: ["/nonexistent/vpk-missing.mp4", "https://example.invalid/a.mp4"])
  func quitBeforeReadyReportsTheFailedOpenAndExitsThree(path: String) throws {
    let result = try VPKProcess.run(["play", path], input: .text("quit\n"))
    let error = try #require(result.events("error").first)
    #expect(error.fields["code"] != nil)
    #expect(result.events("shutdown").last?.fields["reason"] == "open failed")
    #expect(result.status == 3)
  }

  @Test(arguments: CraftedFile.allCases)
  func quitBeforeReadyOfARefusedFileExitsThree(file: CraftedFile) throws {
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    let result = try VPKProcess.run(["play", url.path], input: .text("quit\n"))
    #expect(result.events("error").first?.fields["code"] == "refused_format", "\(file)")
    #expect(result.status == 3, "\(file)")
  }

  @Test func quitWhileAFIFOWithNoWriterOpensInterruptsTheOpen() throws {
    // Given a FIFO no one writes to: opening it blocks in the kernel
    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-quit-fifo-\(getpid())").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { unlink(fifo) }
    // When quit arrives, Then after the grace time the open is interrupted and the shutdown says so
    let result = try VPKProcess.run(["play", fifo], input: .text("quit\n"), timeout: 30)
    let shutdown = try #require(result.events("shutdown").last)
    #expect(shutdown.fields["reason"] == "quit")
    #expect(shutdown.fields["open"] == "interrupted")
    #expect(shutdown.fields["state"] == "loading")
    #expect(result.status == 3)
  }
}

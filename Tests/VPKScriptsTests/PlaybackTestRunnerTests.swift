import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKScripts

/// A folder of scripts for one test, removed at the end.
private final class ScriptFolder {
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-runner-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// Writes a script and returns its path.
  @discardableResult func write(_ name: String, _ lines: [String]) throws -> String {
    let file = (path as NSString).appendingPathComponent(name)
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }
}

private let scriptOptions = PlaybackOptions(
  autoplay: false, clock: .virtual, progressInterval: nil, endAction: .pause)

@MainActor
private func runner(jobs: Int = 1, timeout: Double = 20, ignoresWaits: Bool = false) -> PlaybackTestRunner {
  PlaybackTestRunner(
    options: scriptOptions, format: .text, jobs: jobs, timeout: timeout,
    makeManager: {
      let manager = FakePlaybackManager(autoResponds: true)
      manager.autoIgnoresWaits = ignoresWaits
      return manager
    })
}

private func result(
  _ path: String, seconds: Double = 0.5, failures: [SessionReport.Failure] = [], errors: [SessionReport.Failure] = [],
  exitCode: Int32 = 0, unreadable: String? = nil, transcript: String = "", timedOut: Bool = false,
  peak: Int? = 1000, cacheHits: Int = 0, cacheMisses: Int = 0
) -> PlaybackScriptResult {
  var report = SessionReport()
  report.failedChecks = failures
  report.commandErrors = errors
  report.commandCount = 3
  report.expectCount = 1
  report.frameCacheHits = cacheHits
  report.frameCacheMisses = cacheMisses
  return PlaybackScriptResult(
    script: PlaybackScriptFile(path: path, lines: unreadable == nil ? [] : nil, unreadable: unreadable),
    report: report, exitCode: exitCode, transcript: transcript, seconds: seconds, timedOut: timedOut,
    peakResidentBytes: peak)
}

private let failedState = SessionReport.Failure(
  commandID: 2, source: SourceLine(number: 2, text: "  expect state == playing "), code: .expectFailed,
  expected: .string("playing"), actual: .string("paused"), message: "expect state == failed")

@MainActor
@Suite struct PlaybackTestRunnerTests {
  @Test func theSameScriptInTwoFoldersGivesTheSameTranscript() async throws {
    // Given one script, written in two folders, opening a file beside it
    let lines = ["open ../media/clip.mp4", "scrub 5", "open missing.mp4", "quit"]
    var transcripts: [String] = []
    for _ in 0..<2 {
      let folder = try ScriptFolder()
      let path = try folder.write("same.vpk", lines)
      // When it runs
      let result = try #require(await runner().run(scripts: [PlaybackScriptFile.load(path)]).first)
      #expect(!result.transcript.contains(folder.path), "\(result.transcript)")
      transcripts.append(result.transcript)
    }
    // Then the transcripts are the same: the file is named as the script wrote it
    #expect(transcripts[0] == transcripts[1])
    #expect(transcripts[0].contains("ready #1 path=../media/clip.mp4 "), "\(transcripts[0])")
  }

  @Test func aPassingScriptRunsAsASessionOfItsOwn() async throws {
    // Given a script that opens a file beside it, seeks, waits and checks
    let folder = try ScriptFolder()
    let path = try folder.write(
      "pass.vpk",
      [
        "# a comment", "open clip.mp4", "expect state == paused", "scrub 5", "expect position == 5", "wait 1",
        "expect position == 6", "step", "quit",
      ])
    // When it runs
    let results = await runner().run(scripts: [PlaybackScriptFile.load(path)])
    // Then it passes, the relative open resolved against the script's folder, with the transcript kept
    let result = try #require(results.first)
    #expect(result.passed, "\(result.transcript)")
    #expect(result.exitCode == 0)
    #expect(result.report.expectCount == 3)
    #expect(result.report.commandCount == 8)
    #expect(result.transcript.contains("ready #1 path=clip.mp4 "))
    #expect(result.transcript.contains("waited #5 condition=\"1 s\" position=6.000"))
    #expect(result.transcript.hasSuffix("\n"))
    #expect(PlaybackTestRunner.exitCode(of: results) == 0)
  }

  @Test func aScriptsResultHasTheProcessPeakAndTheCacheLookupsOfEveryMediaItOpened() async throws {
    // Given a script that opens two files, each engine's cache having answered 3 lookups and decoded for 1
    let folder = try ScriptFolder()
    let path = try folder.write("cache.vpk", ["open a.mp4", "scrub 1", "open b.mp4", "scrub 2", "quit"])
    let runner = PlaybackTestRunner(
      options: scriptOptions, format: .text, jobs: 1, timeout: 20,
      makeManager: {
        let manager = FakePlaybackManager(autoResponds: true)
        manager.frameCache = FrameCacheReading(frames: 5, bytes: 500, hits: 3, misses: 1)
        return manager
      })
    // When it runs
    let result = try #require(await runner.run(scripts: [PlaybackScriptFile.load(path)]).first)
    // Then its report sums both files' lookups, its hit rate is hits over lookups, and the process's peak was sampled
    #expect(result.passed, "\(result.transcript)")
    #expect(result.report.frameCacheHits == 6 && result.report.frameCacheMisses == 2)
    #expect(result.frameCacheHitRate == 0.75)
    #expect(try #require(result.peakResidentBytes) > 0)
  }

  @Test func aFailingCheckAndAnUnacknowledgedErrorFailTheScript() async throws {
    let folder = try ScriptFolder()
    let path = try folder.write("fail.vpk", ["open clip.mp4", "expect position == 3", "frobnicate", "quit"])
    let results = await runner().run(scripts: [PlaybackScriptFile.load(path)])
    let result = try #require(results.first)
    #expect(!result.passed)
    #expect(result.exitCode == 1)
    #expect(result.failures.map(\.source?.number) == [2, 3])
    #expect(
      PlaybackTestRunner.describe(result.failures[0], in: "fail.vpk")
        == "fail.vpk:2: expect position == 3: expected 3, actual 0")
    #expect(result.failures[1].code == .unknownCommand)
    #expect(PlaybackTestRunner.exitCode(of: results) == 1)
  }

  @Test func anAcknowledgedErrorPasses() async throws {
    let folder = try ScriptFolder()
    let path = try folder.write("ack.vpk", ["open missing.mp4", "expect error == file_not_found", "quit"])
    let results = await runner().run(scripts: [PlaybackScriptFile.load(path)])
    #expect(results.first?.passed == true, "\(results.first?.transcript ?? "")")
  }

  @Test func resultsComeBackInInputOrderWithSeveralJobs() async throws {
    // Given a long script first and short ones after, run two at a time
    let folder = try ScriptFolder()
    let long = try folder.write("long.vpk", ["open clip.mp4"] + Array(repeating: "wait 0.01", count: 60) + ["quit"])
    let shorts = try (1...3).map { try folder.write("short\($0).vpk", ["open clip.mp4", "expect loops == 0"]) }
    let paths = [long] + shorts
    let results = await runner(jobs: 2).run(scripts: paths.map(PlaybackScriptFile.load))
    // Then the results are in the order given, each with its own transcript
    #expect(results.map(\.script.path) == paths)
    #expect(results.allSatisfy { $0.passed })
    #expect(results[0].transcript.components(separatedBy: "waited").count == 61)
    #expect(!results[1].transcript.contains("waited"))
  }

  @Test func unreadableScriptsAreErrorsWithStatusTwo() async throws {
    // Given a missing file, a folder and a file that is not UTF-8
    let folder = try ScriptFolder()
    let binary = (folder.path as NSString).appendingPathComponent("binary.vpk")
    try Data([0x70, 0x6C, 0x61, 0x79, 0x0A, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
    let scripts = [
      PlaybackScriptFile.load(folder.path + "/missing.vpk"), PlaybackScriptFile.load(folder.path),
      PlaybackScriptFile.load(binary),
    ]
    #expect(
      scripts.map(\.unreadable) == [
        "no such file", "a folder, not a script", "line 2 is not UTF-8 text of at most 64 KiB",
      ])
    // When they run, Then each is an error, the summary says so, and the status is 2
    let results = await runner().run(scripts: scripts)
    #expect(results.map(\.exitCode) == [2, 2, 2])
    #expect(results.allSatisfy { !$0.passed })
    #expect(PlaybackTestRunner.exitCode(of: results) == 2)
    let summary = PlaybackTestRunner.summary(of: results)
    #expect(summary.hasPrefix("ERROR \(folder.path)/missing.vpk: cannot read the script: no such file\n"))
    #expect(summary.hasSuffix("0 passed, 3 failed\n"))
  }

  @Test func aScriptsLinesLoseTheirCRs() throws {
    let folder = try ScriptFolder()
    let path = (folder.path as NSString).appendingPathComponent("crlf.vpk")
    try "play\r\nquit\r\n".write(toFile: path, atomically: true, encoding: .utf8)
    #expect(PlaybackScriptFile.load(path).lines == ["play", "quit"])
  }

  @Test func theTimeoutStopsASession() async throws {
    // Given a script whose wait is never answered, and a short timeout
    let folder = try ScriptFolder()
    let path = try folder.write("hang.vpk", ["open clip.mp4", "play", "wait ended", "quit"])
    let results = await runner(timeout: 0.3, ignoresWaits: true).run(scripts: [PlaybackScriptFile.load(path)])
    // Then it is stopped (SIGTERM's status), fails, and the summary says why (no wall-clock bound is
    // asserted: a loaded sanitizer run can be slow, and the wait is never answered, so only the
    // timeout can have ended it)
    let result = try #require(results.first)
    #expect(result.timedOut)
    #expect(result.exitCode == 143)
    #expect(!result.passed)
    #expect(PlaybackTestRunner.summary(of: results).contains("  \(path): stopped after the --timeout\n"))
  }

  @Test func summaryFormat() {
    // Given a pass, a failure and an unreadable script
    let results = [
      result("a.vpk", seconds: 0.5),
      result("b.vpk", seconds: 1.256, failures: [failedState], exitCode: 1),
      result("c.vpk", unreadable: "no such file"),
    ]
    // When summarised, Then one block per script and a count
    #expect(
      PlaybackTestRunner.summary(of: results) == """
        PASS a.vpk (3 commands, 1 expect, 0.50 s)
        FAIL b.vpk (3 commands, 1 expect, 1.26 s)
          b.vpk:2: expect state == playing: expected playing, actual paused
        ERROR c.vpk: cannot read the script: no such file
        1 passed, 2 failed

        """)
  }

  @Test func oneCommandAndOneScriptAreSingularAndAShardSaysWhatItRan() throws {
    // Given a script that ran one command, as shard 2 of 3 of a one-script suite
    var one = result("a.vpk")
    one.report.commandCount = 1
    let sharding = PlaybackTestRunner.Sharding(shard: try TestShard(index: 1, count: 3), scriptCount: 1)
    // When summarised, Then the words agree with the numbers
    #expect(
      PlaybackTestRunner.summary(of: [one], sharding: sharding) == """
        PASS a.vpk (1 command, 1 expect, 0.50 s)
        1 passed, 0 failed; shard 2/3 ran 1 of 1 script

        """)
  }

  @Test func theJSONReportHasAnObjectPerScriptThenTheSummary() throws {
    // Given a pass, a failure and an unreadable script, as shard 1 of 2 of a suite of 6
    let results = [
      result("a.vpk", seconds: 0.5, peak: 123_456_789, cacheHits: 2, cacheMisses: 1),
      result("b.vpk", seconds: 1.256, failures: [failedState], exitCode: 1, peak: nil),
      result("c.vpk", unreadable: "no such file"),
    ]
    let sharding = PlaybackTestRunner.Sharding(shard: try TestShard(index: 0, count: 2), scriptCount: 6)
    // When reported as JSON
    let lines = PlaybackTestRunner.jsonReport(of: results, sharding: sharding).split(separator: "\n").map(String.init)
    // Then each line is one object, keys sorted, with what the text summary says
    #expect(
      lines == [
        #"{"cache_hit_rate":0.6667,"cache_hits":2,"cache_misses":1,"commands":3,"event":"script","expects":1,"failures":[],"path":"a.vpk","peak_rss_bytes":123456789,"result":"pass","seconds":0.5,"timed_out":false}"#,
        #"{"cache_hit_rate":null,"cache_hits":0,"cache_misses":0,"commands":3,"event":"script","expects":1,"failures":[{"code":"expect_failed","line":2,"message":"b.vpk:2: expect state == playing: expected playing, actual paused","source":"expect state == playing"}],"path":"b.vpk","peak_rss_bytes":null,"result":"fail","seconds":1.256,"timed_out":false}"#,
        #"{"event":"script","message":"cannot read the script: no such file","path":"c.vpk","result":"error"}"#,
        #"{"event":"summary","exit":2,"failed":2,"passed":1,"scripts":6,"shard":"1/2"}"#,
      ])
    // and they match the report's schema
    let schema = try VPKSchemas.testReport()
    #expect(try schema.errors(inLines: lines).allSatisfy(\.isEmpty))
  }

  @Test func failureDescriptions() {
    // Given failures with and without values and lines, When described, Then script:LINE: source: what
    #expect(
      PlaybackTestRunner.describe(failedState, in: "s.vpk")
        == "s.vpk:2: expect state == playing: expected playing, actual paused")
    let timeout = SessionReport.Failure(
      commandID: 4, source: SourceLine(number: 9, text: "wait ended timeout 5"), code: .waitTimeout,
      message: "wait ended timed out at position 5.000")
    #expect(
      PlaybackTestRunner.describe(timeout, in: "s.vpk")
        == "s.vpk:9: wait ended timeout 5: wait_timeout: wait ended timed out at position 5.000")
    let sourceless = SessionReport.Failure(commandID: nil, source: nil, code: .decodeError, message: "bad packet")
    #expect(PlaybackTestRunner.describe(sourceless, in: "s.vpk") == "s.vpk: decode_error: bad packet")
    let numbers = SessionReport.Failure(
      commandID: 1, source: SourceLine(number: 1, text: "expect position ~ 10"), code: .expectFailed,
      expected: .number(10), actual: .number(9.9666667), message: "")
    #expect(
      PlaybackTestRunner.describe(numbers, in: "s.vpk") == "s.vpk:1: expect position ~ 10: expected 10, actual 9.966667"
    )
    let nones = SessionReport.Failure(
      commandID: 1, source: SourceLine(number: 1, text: "expect frame.key == true"), code: .expectFailed,
      expected: .bool(true), actual: ExpectValue.none, message: "")
    #expect(
      PlaybackTestRunner.describe(nones, in: "s.vpk") == "s.vpk:1: expect frame.key == true: expected true, actual none"
    )
  }

  @Test func transcriptsAreWrittenUnderFlattenedNames() throws {
    // Given results for scripts in sub-folders (and one unreadable)
    let folder = try ScriptFolder()
    let out = folder.path + "/transcripts"
    let results = [
      result("./suite/a.vpk", transcript: "ready\n"), result("b.vpk", transcript: "bye\n"),
      result("gone.vpk", unreadable: "no such file"),
    ]
    // When transcripts are written, Then `/` becomes `__`, a leading ./ is dropped, and unreadable scripts have none
    try PlaybackTestRunner.writeTranscripts(results, to: out, json: false)
    #expect(try String(contentsOfFile: out + "/suite__a.vpk.txt", encoding: .utf8) == "ready\n")
    #expect(try String(contentsOfFile: out + "/b.vpk.txt", encoding: .utf8) == "bye\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).sorted() == ["b.vpk.txt", "suite__a.vpk.txt"])
    try PlaybackTestRunner.writeTranscripts(results, to: out, json: true)
    #expect(FileManager.default.fileExists(atPath: out + "/suite__a.vpk.jsonl"))
  }

  @Test func failurePicturesGoBesideTheTranscriptOrTheScript() {
    // Given scripts in folders, When pictures are named with a transcript folder, Then beside each transcript
    let besideTranscript = PlaybackTestRunner.failurePictures(for: "./suite/a.vpk", transcriptFolder: "out")
    #expect(besideTranscript.path(for: SourceLine(number: 7, text: ""), commandID: 9) == "out/suite__a.vpk.line7.png")
    // When there is none, Then beside the script, named for it
    let besideScript = PlaybackTestRunner.failurePictures(for: "suite/a.vpk", transcriptFolder: nil)
    #expect(besideScript.path(for: SourceLine(number: 7, text: ""), commandID: 9) == "suite/a.vpk.line7.png")
    let here = PlaybackTestRunner.failurePictures(for: "a.vpk", transcriptFolder: nil)
    #expect(here.path(for: SourceLine(number: 2, text: ""), commandID: 2) == "a.vpk.line2.png")
  }

  @Test @MainActor func aFailedFrameCheckInAScriptKeepsAPicture() async throws {
    // Given a script whose first frame check fails and second passes, run with transcripts in a folder
    let folder = try ScriptFolder()
    let script = try folder.write("f.vpk", ["open clip.mp4", "expect frame.md5 == 00", "expect frame.md5 == ab"])
    let out = folder.path + "/out"
    var made: [FakePlaybackManager] = []
    let runner = PlaybackTestRunner(
      options: scriptOptions, format: .text, jobs: 1, timeout: 20, transcriptFolder: out,
      makeManager: {
        let manager = FakePlaybackManager(autoResponds: true)
        manager.frame = FrameIdentity(
          pts: 0, timeBase: (1, 30), time: .zero, isKeyframe: true, width: 2, height: 2, pixelFormat: "gray",
          md5: "ab")
        made.append(manager)
        return manager
      })
    // When it runs
    let result = await runner.run(PlaybackScriptFile.load(script))
    // Then the transcript folder was made first, and the failed check's picture is named beside the transcript
    let stem = script.replacingOccurrences(of: "/", with: "__")
    #expect(FileManager.default.fileExists(atPath: out))
    #expect(result.failures.map(\.picture) == ["\(out)/\(stem).line2.png"])
    #expect(made.first?.picturesWritten == ["\(out)/\(stem).line2.png"])
    #expect(PlaybackTestRunner.summary(of: [result]).contains("frame on screen saved as \(out)/\(stem).line2.png"))
  }
}

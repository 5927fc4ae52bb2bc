// End-to-end tests of `vpk test` and of the session features scripts rely on, through the built
// `vpk`: exit statuses, the summary, JUnit and transcripts, parallel runs, the virtual clock's
// byte-identical transcripts, `--idle`, JSON commands with client ids, and SIGHUP.

import Foundation
import Testing
import VPKTestSupport

/// A folder of scripts next to a copy of a test clip, removed at the end.
struct ScriptFolder {
  let url: URL

  init(clip: TestClip = .h264BFrames) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-scripts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let media = try TestMedia.url(for: clip)
    try FileManager.default.copyItem(at: media, to: url.appendingPathComponent("clip." + media.pathExtension))
  }

  @discardableResult
  func write(_ name: String, _ lines: [String]) throws -> String {
    let file = url.appendingPathComponent(name)
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite struct VPKTestCommandTests {
  @Test func passingAndFailingScriptsAreReportedWithTheFailingLine() throws {
    // Given a passing script and one whose third line fails
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let good = try folder.write("good.vpk", ["open clip.mp4", "wait 1.5", "expect position == 1.5"])
    let bad = try folder.write("bad.vpk", ["open clip.mp4", "# a comment", "expect duration < 1", "wait 1"])
    // When vpk test runs both
    let result = try VPKProcess.run(["test", good, bad])
    // Then each gets its verdict, the failure names its line, expected and actual, and the exit is 1
    #expect(result.status == 1)
    #expect(result.stdoutLines.contains { $0.hasPrefix("PASS \(good)") })
    #expect(result.stdoutLines.contains { $0.hasPrefix("FAIL \(bad)") })
    #expect(result.stdout.contains("\(bad):3: expect duration < 1: expected 1, actual 10"))
    #expect(result.stdoutLines.last == "1 passed, 1 failed")
  }

  @Test func aScriptThatCannotBeReadExitsTwoAndTheOthersStillRun() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let good = try folder.write("good.vpk", ["open clip.mp4", "expect state == playing"])
    let result = try VPKProcess.run(["test", folder.path("missing.vpk"), good])
    #expect(result.status == 2)
    #expect(result.stdout.contains("ERROR \(folder.path("missing.vpk")): cannot read the script: no such file"))
    #expect(result.stdoutLines.contains { $0.hasPrefix("PASS \(good)") })
  }

  @Test func badInputInScriptsFailsWithTheLineNumberAndNothingHangs() throws {
    // Given scripts with each kind of bad input the issue names
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let scripts = [
      try folder.write("unknown.vpk", ["open clip.mp4", "frobnicate"]),
      try folder.write("missing-media.vpk", ["open nowhere.mp4"]),
      try folder.write("never.vpk", ["open clip.mp4", "pause", "wait ended"]),
      try folder.write("field.vpk", ["open clip.mp4", "expect colour == red"]),
      try folder.write("json.vpk", ["open clip.mp4", "{\"command\": \"status\""]),
      try folder.write("id.vpk", ["open clip.mp4", "{\"command\": \"status\", \"id\": true}"]),
    ]
    // When they run
    let result = try VPKProcess.run(["test"] + scripts, timeout: 60)
    // Then every one fails, naming its line and a stable code
    #expect(result.status == 1)
    #expect(result.stdout.contains("unknown.vpk:2: frobnicate: unknown_command"))
    #expect(result.stdout.contains("missing-media.vpk:1: open nowhere.mp4: file_not_found"), "\(result.stdout)")
    #expect(result.stdout.contains("never.vpk:3: wait ended: wait_impossible"))
    #expect(result.stdout.contains("field.vpk:2: expect colour == red: unknown_field"))
    #expect(result.stdout.contains("json.vpk:2: {\"command\": \"status\": bad_json"))
    #expect(result.stdout.contains("id.vpk:2: {\"command\": \"status\", \"id\": true}: bad_id"))
    #expect(result.stdoutLines.last == "0 passed, 6 failed")
  }

  @Test func tenThousandCommandsInABurstAreEachAnswered() throws {
    // Given a script of 10,000 commands of every kind, good and bad (on the virtual clock each
    // runs to completion before the next, so seeks are a small share of them)
    let folder = try ScriptFolder()
    defer { folder.remove() }
    var lines = ["open clip.mp4", "pause"]
    let kinds = [
      "status", "frobnicate", "scrub nowhere", "info", #"{"command": "status", "id": "j"}"#, "{oops", "frame",
      "expect state == paused", "wait seeked", "rate 1",
    ]
    for index in 0..<9_997 { lines.append(index % 50 == 0 ? "scrub \(index % 9).25" : kinds[index % kinds.count]) }
    lines.append("expect position == \(9_950 % 9).25")  // the last scrub
    let script = try folder.write("burst.vpk", lines)
    let transcript = folder.path("out")
    // When it runs
    let result = try VPKProcess.run(["test", script, "--transcript", transcript], timeout: 120)
    // Then it ends (failing, for the bad lines, each named by its line)
    #expect(result.status == 1)
    #expect(result.stdout.contains("burst.vpk:4: frobnicate: unknown_command"))
    let text = try String(
      contentsOfFile: transcript + "/" + script.replacingOccurrences(of: "/", with: "__") + ".txt", encoding: .utf8)
    let events = text.split(separator: "\n").map { EventLine(String($0)) }
    #expect(events.last { $0.name == "expect" }?.fields["result"] == "pass")
    // And every one of the 10,000 commands was answered exactly once: each command numbered by its line by one
    // reply with that number, and each JSON `status` (whose id is "j") by one `status #j`
    #expect(lines.count == 10_000)
    let isJSONStatus = { (line: String) in line.hasPrefix(#"{"command": "status""#) }
    let numbered = lines.indices.filter { !isJSONStatus(lines[$0]) }.map { $0 + 1 }
    let answered = events.compactMap(\.id)
    #expect(answered.count == numbered.count, "\(answered.count) numbered replies for \(numbered.count) commands")
    #expect(answered.sorted() == numbered, "a command answered twice or not at all")
    let jsonAnswers = events.filter { $0.description.hasPrefix("status #j ") }.count
    #expect(jsonAnswers == lines.filter(isJSONStatus).count)
    #expect(answered.count + jsonAnswers == 10_000)
  }

  @Test func transcriptsAreByteIdenticalAcrossRunsAndJobCounts() throws {
    // Given a script that plays, seeks, steps and waits on the virtual clock
    let folder = try ScriptFolder()
    defer { folder.remove() }
    var scripts: [String] = []
    for index in 0..<4 {
      scripts.append(
        try folder.write(
          "s\(index).vpk",
          [
            "open clip.mp4", "wait \(index).5", "scrub \(index + 2)", "step -3", "frame", "play", "skip +1.2",
            "wait position >= \(index + 5)", "status", "wait ended",
          ]))
    }
    // When it runs twice, with one job and with four, in text and JSON
    var outputs: [String: String] = [:]
    for (name, extra) in [
      ("a", ["--jobs", "1"]), ("b", ["--jobs", "4"]), ("c", ["--json"]), ("d", ["--json", "--jobs", "3"]),
    ] {
      let dir = folder.path(name)
      let result = try VPKProcess.run(["test"] + scripts + extra + ["--transcript", dir], timeout: 60)
      #expect(result.status == 0, "\(result.stdout)")
      for script in scripts {
        let file = script.replacingOccurrences(of: "/", with: "__") + (extra.contains("--json") ? ".jsonl" : ".txt")
        outputs[name + script] = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
      }
    }
    // Then each script's transcript is the same byte for byte, with no wall-clock figure in it
    for script in scripts {
      #expect(outputs["a" + script] == outputs["b" + script])
      #expect(outputs["c" + script] == outputs["d" + script])
      #expect(outputs["a" + script]?.contains(" ms=") == false)
      #expect(outputs["a" + script]?.contains("ended ") == true)
    }
  }

  @Test func junitReportIsWrittenWithEveryScript() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let good = try folder.write("good.vpk", ["open clip.mp4", "expect video.codec == h264"])
    let bad = try folder.write("bad.vpk", ["open clip.mp4", "expect video.codec == \"<vp9>\""])
    let report = folder.path("report.xml")
    let result = try VPKProcess.run(["test", good, bad, "--junit", report])
    #expect(result.status == 1)
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
    #expect(xml.contains("tests=\"2\" failures=\"1\" errors=\"0\""))
    #expect(xml.contains("name=\"\(bad)\""))
    #expect(xml.contains("&quot;&lt;vp9&gt;&quot;"))
    // and a standard XML parser accepts it (Python's, in its own process: libxml2 inside this test
    // process leaves a per-thread allocation LeakSanitizer would report)
    let parser = Process()
    parser.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    parser.arguments = [
      "python3", "-c", "import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().tag)", report,
    ]
    let pipe = Pipe()
    parser.standardOutput = pipe
    try parser.run()
    let root = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    parser.waitUntilExit()
    #expect(parser.terminationStatus == 0)
    #expect(root == "testsuites\n")
  }

  @Test func aScriptWaitsThroughAClipWithoutWaitingInRealTime() throws {
    // The performance promise itself (1.1x the free clock's decode) is measured by scripts/bench;
    // this checks that the virtual clock never waits in real time.
    let folder = try ScriptFolder(clip: .h264BFrames)
    defer { folder.remove() }
    let script = try folder.write("through.vpk", ["open clip.mp4", "wait ended", "expect state == ended"])
    let result = try VPKProcess.run(["test", script], timeout: 60)
    #expect(result.status == 0)
    #expect(result.seconds < 5)
  }
}

@Suite struct VPKSessionFeatureTests {
  @Test func idleSessionsOpenAndCloseMediaAndStayUsableAfterABadFile() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let input = [
      "status", "open /no/such/file.mp4", "status", "open \(url.path)", "pause", "scrub 2", "frame", "close", "status",
      "quit",
    ]
    let result = try VPKProcess.run(
      ["play", "--idle", "--clock", "free"], input: .text(input.joined(separator: "\n") + "\n"))
    #expect(result.status == 0)
    #expect(result.event("status", id: 1)?.fields["state"] == "idle")
    #expect(result.event("error", id: 2)?.fields["code"] == "file_not_found")
    #expect(result.event("status", id: 3)?.fields["state"] == "idle")
    #expect(result.event("ready", id: 4)?.fields["video"] == "h264")
    #expect(result.event("seeked", id: 6)?.number("position") == 2)
    #expect(result.event("frame", id: 7)?.number("time") == 2)
    #expect(result.event("closed", id: 8) != nil)
    #expect(result.event("status", id: 9)?.fields["state"] == "idle")
  }

  @Test func jsonCommandsEchoTheClientIDInEveryEventTheyCause() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let input = [
      #"{"command": "scrub", "args": [3.5], "id": "s-1"}"#, #"{"command": "frame", "id": 42}"#, "status",
      #"{"command": "bogus", "id": "b"}"#, #"{"command": "quit", "id": "q"}"#,
    ]
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "free", "--json"], input: .text(input.joined(separator: "\n") + "\n"))
    let objects = result.stdoutLines.compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    func event(_ name: String) -> [String: Any]? { objects.first { $0["event"] as? String == name } }
    #expect(event("seeked")?["id"] as? String == "s-1")
    #expect(event("seeked")?["seq"] as? Int == 1)
    #expect(event("frame")?["id"] as? Int == 42)
    #expect(event("status")?["id"] as? Int == 3)
    #expect(event("status")?["seq"] == nil)
    #expect(event("error")?["id"] as? String == "b")
    #expect(event("shutdown")?["id"] as? String == "q")
  }

  @Test func failedExpectationsMakeThePlaySessionExitOne() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(
      ["play", url.path, "--paused", "--clock", "virtual"],
      input: .text("expect position == 3\nexpect state == paused\n"))
    #expect(result.status == 1)
    #expect(result.event("expect", id: 1)?.fields["result"] == "fail")
    #expect(result.event("expect", id: 1)?.fields["line"] == "1")
    #expect(result.event("expect", id: 2)?.fields["result"] == "pass")
  }

  @Test func sighupEndsTheSessionWith129() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(["play", url.path], signal: SIGHUP, afterLine: "ready")
    #expect(result.status == 129)
    #expect(result.events("shutdown").last?.fields["reason"] == "SIGHUP")
  }

  @Test func wallClockWaitsTakeRealTime() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let result = try VPKProcess.run(
      ["play", url.path, "--progress", "off"], input: .text("wait 0.6\nstatus\nquit\n"))
    #expect(result.seconds >= 0.6)
    let position = try #require(result.event("status", id: 2)?.number("position"))
    #expect(position > 0.4 && position < 1.5)
  }
}

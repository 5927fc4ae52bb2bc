// The --json protocol against its published schema (schema/vpk-events.schema.json): the real vpk is driven
// through sessions that between them make every kind of event, and every line it writes is validated. The set of
// events seen must be exactly the set the schema defines, so a new event without a schema entry, or a schema entry
// nothing makes any more, fails here.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

/// Checks lines as they come from vpk and remembers which events it saw; `validate()` then validates them all against
/// the schema in one validator run (starting the validator costs about half a second, so not one run per session).
final class ProtocolChecker {
  let schema: JSONSchema
  private(set) var seen: Set<String> = []
  private(set) var validated = 0
  private var pending: [(line: String, place: String, sourceLocation: SourceLocation)] = []

  init() throws { schema = try VPKSchemas.events() }

  deinit {
    if !pending.isEmpty { Issue.record("ProtocolChecker: \(pending.count) lines checked but never validated") }
  }

  /// Every line of one `--json` output: a JSON object to JSONSerialization, the first a `hello`, and `seq` only
  /// beside an `id`. Keeps the lines for `validate()`. Returns the events, parsed.
  @discardableResult
  func check(_ lines: [String], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [JSONValue]
  {
    #expect(!lines.isEmpty, "\(label): no output", sourceLocation: sourceLocation)
    var events: [JSONValue] = []
    for (index, line) in lines.enumerated() {
      pending.append((line, "\(label) line \(index + 1)", sourceLocation))
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) is [String: Any],
        "\(label) line \(index + 1) is not a JSON object to JSONSerialization: \(line)", sourceLocation: sourceLocation)
      guard let event = try? JSONValue.parse(line) else { continue }
      if let name = event["event"]?.string { seen.insert(name) }
      if event["seq"] != nil {
        #expect(event["id"] != nil, "\(label): seq without id: \(line)", sourceLocation: sourceLocation)
      }
      events.append(event)
    }
    #expect(
      events.first?["event"]?.string == "hello", "\(label): the first line is not hello",
      sourceLocation: sourceLocation)
    return events
  }

  /// Validates every line `check` kept since the last call against the schema, in one run of scripts/validate-json;
  /// a line that is not valid fails the test where `check` was called.
  func validate() throws {
    let batch = pending
    pending = []
    for (entry, errors) in zip(batch, try schema.errors(inLines: batch.map(\.line))) where !errors.isEmpty {
      Issue.record(
        "\(entry.place): \(entry.line)\n\(errors.joined(separator: "\n"))", sourceLocation: entry.sourceLocation)
    }
    validated += batch.count
  }
}

extension [JSONValue] {
  func named(_ name: String) -> [JSONValue] { filter { $0["event"]?.string == name } }
  /// The events whose `id` is this value (a client's id, or an ordinal with no client id).
  func withID(_ id: JSONValue) -> [JSONValue] { filter { $0["id"] == id } }
}

/// An ordinal, or a client id that is a number, as JSON.
private func id(_ value: Int) -> JSONValue { .number(Double(value)) }

@Suite struct JSONProtocolTests {
  @Test func everyEventMatchesTheSchemaAndEverySchemaEventIsMade() async throws {
    let checker = try ProtocolChecker()
    let hello = await MainActor.run { (JSONLinesView.protocolVersion, JSONLinesView.capabilities) }
    try freeClockToTheEnd(checker, protocolVersion: hello.0, capabilities: hello.1)
    try virtualClockSession(checker)
    try burstOfSeeks(checker)
    try wallClock(checker)
    try signalAndMissingFile(checker)
    try infoOnOddMedia(checker)
    try testRunnerTranscripts(checker)
    try queueSession(checker)
    try listEntrySession(checker)
    try checker.validate()

    let defined = Set(eventNames(in: checker.schema))
    #expect(defined.count == 24)
    #expect(
      checker.seen == defined,
      "made but not in the schema: \(checker.seen.subtracting(defined).sorted()); in the schema but never made: \(defined.subtracting(checker.seen).sorted())"
    )
    print("JSONProtocolTests: validated \(checker.validated) lines against vpk-events.schema.json")
    #expect(checker.validated > 100)
  }

  /// Regression: a JSON command answered while it was being submitted (help at once, status or quit with nothing
  /// pending) came back with its ordinal as id instead of the client's id.
  @Test func commandsAnsweredAtOnceCarryTheClientID() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let session = try VPKSession(["play", url.path, "--json", "--clock", "free", "--paused", "--progress", "off"])
    session.send(#"{"command":"help","id":"h"}"#)
    // (help is answered at once, so it comes before or after the file is ready)
    try session.waitForLines(containingEach: [#""event":"ready""#, #""event":"help""#])
    session.send(#"{"command":"status","id":"now"}"#)
    try session.waitForLine(containing: #""event":"status""#)
    session.send(#"{"command":"quit","id":"bye"}"#)
    let result = try session.waitForExit()
    #expect(result.status == 0)
    let checker = try ProtocolChecker()
    let events = try checker.check(result.stdoutLines, "answered at once")
    try checker.validate()
    for (name, client, ordinal) in [("help", "h", 1), ("status", "now", 2), ("shutdown", "bye", 3)] {
      let event = events.named(name).first
      #expect(event?["id"] == .string(client) && event?["seq"]?.int == ordinal, "\(name): \(String(describing: event))")
    }
  }

  /// The schema's enums are the code's: states, seek modes, error codes, expect fields and operators.
  @Test func schemaEnumsMatchTheCode() throws {
    let schema = try VPKSchemas.events()
    func enumValues(_ definition: JSONValue?) -> [String] {
      guard case .array(let values)? = definition?["enum"] else { return [] }
      return values.compactMap(\.string)
    }
    let defs = schema.root["$defs"]
    #expect(enumValues(defs?["playbackState"]) == PlaybackState.allCases.map(\.rawValue))
    #expect(enumValues(defs?["seekMode"]) == SeekMode.allCases.map(\.rawValue))
    #expect(enumValues(defs?["errorCode"]) == PlaybackError.Code.allCases.map(\.rawValue))
    #expect(enumValues(defs?["expect"]?["properties"]?["field"]) == ExpectField.allCases.map(\.rawValue))
    #expect(enumValues(defs?["expect"]?["properties"]?["op"]) == ExpectOperator.allCases.map(\.rawValue))
    #expect(defs?["hello"]?["properties"]?["protocol"]?["type"]?.string == "integer")
  }

  /// The `event` constants of the schema's top-level oneOf, in order.
  private func eventNames(in schema: JSONSchema) -> [String] {
    guard case .array(let branches)? = schema.root["oneOf"] else { return [] }
    return branches.compactMap { branch in
      let name = branch["$ref"]?.string.map { String($0.dropFirst("#/$defs/".count)) } ?? ""
      return schema.root["$defs"]?[name]?["properties"]?["event"]?["const"]?.string
    }
  }

  // MARK: - Sessions

  /// hello, ready, state, progress (with percent), ended, shutdown.
  private func freeClockToTheEnd(_ checker: ProtocolChecker, protocolVersion: Int, capabilities: [String]) throws {
    let url = try TestMedia.url(for: .mpeg4)
    let result = try VPKProcess.run(
      ["play", url.path, "--json", "--clock", "free", "--progress", "0.5"], input: .closed)
    #expect(result.status == 0)
    let events = try checker.check(result.stdoutLines, "free clock to the end")
    let hello = try #require(events.first)
    #expect(hello["protocol"]?.int == protocolVersion)
    #expect(hello["version"]?.string == VideoPlaybackKitVersion.current)
    #expect(hello["capabilities"] == .array(capabilities.map(JSONValue.string)))
    #expect(events.named("progress").contains { $0["percent"] != nil })
    #expect(events.named("ended").count == 1)
    #expect(events.last?["event"]?.string == "shutdown" && events.last?["reason"]?.string == "ended")
    // Nothing the session did itself carries an id.
    for name in ["ready", "state", "progress", "ended", "shutdown"] {
      #expect(events.named(name).allSatisfy { $0["id"] == nil }, "\(name) carries an id")
    }
  }

  /// Text and JSON commands on the virtual clock: seeks, steps, rate, waits that hold, time out and cannot hold,
  /// expects that pass and fail, queries, bad lines, open (missing and real), close, quit. Client ids come back as
  /// `id` (with the ordinal as `seq`) on every event a JSON command causes.
  private func virtualClockSession(_ checker: ProtocolChecker) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let other = try TestMedia.url(for: .mpeg4)
    let picture = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-json-\(UUID().uuidString) 1.png")
    defer { try? FileManager.default.removeItem(at: picture) }
    // Each entry is one input line, so its ordinal is its index + 1; `client` is the id a JSON command gives.
    let lines: [(line: Data, client: JSONValue?, answers: [String])] = [
      (Data(#"{"command":"scrub","args":[1,"exact"],"id":"s1"}"#.utf8), .string("s1"), ["seeked"]),
      (Data(#"{"command":"step","args":[2],"id":7}"#.utf8), id(7), ["stepped"]),
      (Data("step -1".utf8), nil, ["stepped"]),
      (Data(#"{"command":"rate","args":[2],"id":2.5}"#.utf8), .number(2.5), ["rate"]),
      (Data(#"{"command":"play","id":"p"}"#.utf8), .string("p"), ["state"]),
      (Data("wait 0.5".utf8), nil, ["waited"]),
      (Data(#"{"command":"wait","args":["position",">=",2.5],"id":"w"}"#.utf8), .string("w"), ["waited"]),
      (Data("wait position >= 9.5 timeout 0.2".utf8), nil, ["error"]),
      (Data(#"{"command":"pause","id":"x"}"#.utf8), .string("x"), ["state"]),
      (Data("wait ended".utf8), nil, ["error"]),
      (Data(#"{"command":"expect","args":["state","==","paused"],"id":"e1"}"#.utf8), .string("e1"), ["expect"]),
      (Data("expect position == 99".utf8), nil, ["expect"]),
      (Data(#"{"command":"status","id":1}"#.utf8), id(1), ["status"]),
      (Data("info".utf8), nil, ["info"]),
      (Data(#"{"command":"frame","id":"f"}"#.utf8), .string("f"), ["frame"]),
      (Data("help".utf8), nil, ["help"]),
      (Data("bogus".utf8), nil, ["error"]),
      (Data(#"{"command":5,"id":"b"}"#.utf8), .string("b"), ["error"]),
      (Data(#"{"command":"play","id":true}"#.utf8), nil, ["error"]),
      (Data([0x70, 0x6C, 0xFF, 0xFE]), nil, ["error"]),
      (Data(String(repeating: "x", count: 70_000).utf8), nil, ["error"]),
      (Data(#"{"command":"open","args":["/nonexistent/missing.mp4"],"id":"o0"}"#.utf8), .string("o0"), ["error"]),
      (Data(#"{"command":"open","args":[\#(JSONValue.string(other.path))],"id":"o1"}"#.utf8), .string("o1"), ["ready"]),
      (Data(#"{"command":"skip","args":[1],"id":"k"}"#.utf8), .string("k"), ["seeked"]),
      (Data("play".utf8), nil, ["state"]),
      (Data("wait ended".utf8), nil, ["waited"]),
      (
        Data(#"{"command":"snapshot","args":[\#(JSONValue.string(picture.path))],"id":"p1"}"#.utf8), .string("p1"),
        ["snapshot"]
      ),
      (Data(#"{"command":"mark","id":"m"}"#.utf8), .string("m"), ["mark"]),
      (Data(#"{"command":"close","id":"c"}"#.utf8), .string("c"), ["closed"]),
      (Data(#"{"command":"quit","id":"q"}"#.utf8), .string("q"), ["shutdown"]),
    ]
    var input = Data()
    for entry in lines { input += entry.line + Data("\n".utf8) }
    let result = try VPKProcess.run(
      ["play", url.path, "--json", "--clock", "virtual", "--paused", "--progress", "0.5", "--at-end", "pause"],
      input: .data(input),
      timeout: 60)
    #expect(result.status == 1, "a failed expect makes the exit status 1")
    let events = try checker.check(result.stdoutLines, "virtual clock session")

    for (index, entry) in lines.enumerated() {
      let ordinal = index + 1
      let label = "line \(ordinal) (\(String(decoding: entry.line.prefix(60), as: UTF8.self)))"
      if let client = entry.client {
        let answered = events.withID(client).filter { $0["seq"]?.int == ordinal }
        #expect(answered.map { $0["event"]?.string ?? "" } == entry.answers, "\(label): \(answered)")
        // Nothing it caused goes by its ordinal alone.
        #expect(events.withID(id(ordinal)).filter { $0["seq"] == nil }.isEmpty, "\(label) answered by ordinal")
      } else {
        let answered = events.withID(id(ordinal)).filter { $0["seq"] == nil }
        #expect(answered.map { $0["event"]?.string ?? "" } == entry.answers, "\(label): \(answered)")
      }
    }
    // What the answers say.
    func answer(_ ordinal: Int) -> JSONValue? {
      events.first { $0["seq"]?.int == ordinal || ($0["seq"] == nil && $0["id"]?.int == ordinal) }
    }
    #expect(answer(1)?["ms"] == nil, "no wall-clock timing on the virtual clock")
    #expect(answer(2)?["moved"] == id(2) && answer(3)?["moved"] == .number(-1))
    #expect(answer(4)?["rate"]?.double == 2)
    #expect(answer(8)?["code"]?.string == "wait_timeout")
    #expect(answer(10)?["code"]?.string == "wait_impossible")
    #expect(answer(11)?["result"]?.string == "pass" && answer(11)?["line"] == nil)
    #expect(answer(12)?["result"]?.string == "fail" && answer(12)?["line"] == id(12))
    #expect(answer(12)?["source"]?.string == "expect position == 99")
    #expect(answer(13)?["late_p99_ms"] == nil)
    #expect(answer(17)?["code"]?.string == "unknown_command")
    #expect(answer(18)?["code"]?.string == "bad_json")
    #expect(answer(19)?["code"]?.string == "bad_id")
    #expect(answer(20)?["code"]?.string == "bad_input" && answer(21)?["code"]?.string == "bad_input")
    #expect(answer(22)?["code"]?.string == "file_not_found")
    #expect(answer(23)?["path"]?.string == other.path)
    #expect(answer(27)?["path"]?.string == picture.path && FileManager.default.fileExists(atPath: picture.path))
    #expect(answer(28)?["state"]?.string == "ended" && answer(28)?["md5"]?.string?.count == 32)
    #expect(answer(28)?["line"] == id(28))
    #expect(events.named("ended").count == 1)
    #expect(events.named("progress").contains { $0["rate"]?.double == 2 })
    #expect(events.last?["reason"]?.string == "quit")
  }

  /// Seeks sent together: the ones a newer seek replaced are `superseded`, `by` naming the newer one by its client
  /// id. Timing decides how many coalesce, so up to three bursts are tried.
  private func burstOfSeeks(_ checker: ProtocolChecker) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    for attempt in 1...3 {
      let commands = (1...16).map { n in
        #"{"command":"scrub","args":[\#(n % 2 == 0 ? 9.5 - Double(n) / 10 : Double(n) / 10)],"id":"b\#(n)"}"#
      }
      let result = try VPKProcess.run(
        ["play", url.path, "--json", "--clock", "free", "--paused", "--progress", "off"],
        input: .text((commands + ["quit"]).map { $0 + "\n" }.joined()), timeout: 60)
      #expect(result.status == 0)
      let events = try checker.check(result.stdoutLines, "burst of seeks, attempt \(attempt)")
      // Every seek answered once, by its client id and ordinal.
      for n in 1...16 {
        let answers = events.withID(.string("b\(n)"))
        #expect(answers.count == 1 && answers.first?["seq"]?.int == n, "b\(n): \(answers)")
      }
      let superseded = events.named("superseded")
      for event in superseded {
        #expect(event["by"]?.string?.hasPrefix("b") == true, "by names the newer seek's client id: \(event)")
      }
      if !superseded.isEmpty { return }
    }
    Issue.record("no seek was superseded in three bursts of 16")
  }

  /// The wall clock: seeks report their time (`ms`), status reports frame lateness (`late_p99_ms`).
  private func wallClock(_ checker: ProtocolChecker) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let session = try VPKSession(["play", url.path, "--json", "--clock", "wall", "--progress", "0.25"])
    session.send(#"{"command":"scrub","args":[0.5],"id":"ws"}"#)
    try session.waitForLine(containing: #""event":"seeked""#)
    _ = try session.waitForLine(timeout: 30) { line in
      guard line.contains(#""event":"progress""#), let event = try? JSONValue.parse(line) else { return false }
      return (event["position"]?.double ?? 0) >= 1.5
    }
    session.send(#"{"command":"status","id":"st"}"#)
    try session.waitForLine(containing: #""event":"status""#)
    session.send("quit")
    let result = try session.waitForExit()
    #expect(result.status == 0)
    let events = try checker.check(result.stdoutLines, "wall clock")
    #expect(events.withID(.string("ws")).first?["ms"]?.double != nil)
    #expect(events.withID(.string("st")).first?["late_p99_ms"]?.double != nil)
  }

  /// A signal ends a session with `shutdown` naming it; a missing file on the command line is an `error` with no id.
  private func signalAndMissingFile(_ checker: ProtocolChecker) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let signalled = try VPKProcess.run(
      ["play", url.path, "--json", "--clock", "wall"], signal: SIGTERM, afterLine: #""event":"state""#)
    #expect(signalled.status == 143)
    let events = try checker.check(signalled.stdoutLines, "SIGTERM")
    #expect(events.last?["reason"]?.string == "SIGTERM")

    let missing = try VPKProcess.run(["play", "/nonexistent/missing.mp4", "--json"], input: .closed)
    #expect(missing.status == 3)
    let failed = try checker.check(missing.stdoutLines, "missing file")
    #expect(failed.named("error").first?["code"]?.string == "file_not_found")
    #expect(failed.named("error").first?["id"] == nil)
    #expect(failed.last?["reason"]?.string == "open failed")

    // With nothing loaded, pause and play set how the next file opens
    let idle = try VPKProcess.run(["play", "--idle", "--json"], input: .text("pause\nplay\nquit\n"))
    #expect(idle.status == 0)
    let next = try checker.check(idle.stdoutLines, "idle pause and play").named("next")
    #expect(next.map { $0["paused"] } == [.bool(true), .bool(false)])
    #expect(next.map { $0["id"] } == [id(1), id(2)])
  }

  /// The `info` command: no video (null, and no width …), no audio, bit rates.
  private func infoOnOddMedia(_ checker: ProtocolChecker) throws {
    for clip in [TestClip.audioOnly, .rawH264, .h264BFrames] {
      let result = try session(try TestMedia.url(for: clip), ["info", "quit"], options: ["--json"])
      #expect(result.status == 0)
      let info = try #require(try checker.check(result.stdoutLines, "info \(clip)").named("info").first)
      switch clip {
      case .audioOnly: #expect(info["video"] == .null && info["width"] == nil && info["sample_rate"]?.int == 48_000)
      case .rawH264: #expect(info["audio"] == .null && info["width"]?.int == 320)
      default: #expect(info["bitrate"]?.int != nil && info["fps"]?.double == 30)
      }
    }
  }

  /// A list of two files: the entries' `entry` events and the answers to `queue` commands.
  private func queueSession(_ checker: ProtocolChecker) throws {
    let first = try TestMedia.url(for: .mpeg4).path
    let second = try TestMedia.url(for: .h264BFrames).path
    let result = try VPKProcess.run(
      ["play", first, second, "--json", "--clock", "virtual", "--progress", "off", "--at-end", "pause"],
      input: .text(
        #"{"command":"queue","args":["add","\#(first)"],"id":"q"}"# + "\nnext\nstatus\ninfo\nqueue clear\nquit\n"))
    #expect(result.status == 0)
    let events = try checker.check(result.stdoutLines, "queue")
    #expect(events.named("entry").map { $0["index"]?.int } == [1, 2])
    #expect(events.named("queue").first?["id"] == .string("q"))
    #expect(events.named("queue").first?["count"]?.int == 3)
    #expect(events.named("status").first?["entry"]?.int == 2)
    #expect(events.named("info").first?["entries"]?.int == 3)
  }

  /// A queue entry that is a list file, read at its turn: `expanded`, then the `entry` of the first file it names.
  private func listEntrySession(_ checker: ProtocolChecker) throws {
    let first = try TestMedia.url(for: .mpeg4).path
    let second = try TestMedia.url(for: .h264BFrames).path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-json-list-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("list.m3u").path
    try "#EXTM3U\n#EXTINF:10,Second\n\(second)\n\(first)\n".write(toFile: list, atomically: true, encoding: .utf8)
    let result = try VPKProcess.run(
      ["play", first, list, "--json", "--clock", "virtual", "--progress", "off", "--at-end", "pause"],
      input: .text("next\nstatus\nquit\n"))
    #expect(result.status == 0)
    let events = try checker.check(result.stdoutLines, "list entry")
    let expanded = try #require(events.named("expanded").first)
    #expect(expanded["entry_id"]?.int == 2 && expanded["path"]?.string == list)
    #expect(expanded["entries"]?.int == 2 && expanded["first_entry_id"]?.int == 3)
    #expect(events.named("entry").map { $0["entry_id"]?.int } == [1, 3])
    #expect(events.named("status").first?["entries"]?.int == 3)
  }

  /// `vpk test --json --transcript DIR`: each script's transcript is the same JSON-lines protocol.
  private func testRunnerTranscripts(_ checker: ProtocolChecker) throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("check.vpk")
    try """
    open \(url.path)
    rate 1.5
    wait 1
    expect position >= 1
    scrub 5
    step
    frame
    status
    expect state == paused
    expect frame.key == false
    close
    """.write(to: script, atomically: true, encoding: .utf8)
    let transcripts = folder.appendingPathComponent("out")
    let result = try VPKProcess.run(["test", "--json", "--transcript", transcripts.path, script.path], timeout: 60)
    #expect(result.status == 0, "\(result.stdout)")
    let files = try FileManager.default.contentsOfDirectory(atPath: transcripts.path)
    #expect(files.count == 1 && files.first?.hasSuffix(".jsonl") == true, "\(files)")
    for file in files {
      let text = try String(contentsOf: transcripts.appendingPathComponent(file), encoding: .utf8)
      let events = try checker.check(text.split(separator: "\n").map(String.init), "transcript \(file)")
      #expect(events.named("expect").count == 3)
    }
  }
}

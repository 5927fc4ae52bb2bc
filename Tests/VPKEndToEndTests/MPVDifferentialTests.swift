// The differential harness (Tests/MPVDiff/mpvdiff.py) in the suite: every scenario that is not pending is run against
// Debian's mpv and against the built vpk, and must agree step by step (replies, events, property values) but for the
// differences the runner's ALLOWED block lists. mpv, python3 and the client libraries are test dependencies
// (scripts/bootstrap installs them): a missing one fails the scenario, with the runner's message.

import Foundation
import Testing
import VPKTestSupport

/// The harness's folder, and its scenarios with what each says of itself.
private enum MPVDiff {
  static let folder = TestMedia.packageRoot.appendingPathComponent("Tests/MPVDiff")

  /// The scenarios' names (file names without `.json`), and the reason each pending one is held back.
  static func scenarios() throws -> [(name: String, pending: String?)] {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("scenarios").path)
    return try files.filter { $0.hasSuffix(".json") }.sorted().map { file in
      let data = try Data(contentsOf: folder.appendingPathComponent("scenarios/\(file)"))
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw TestSupportError("Tests/MPVDiff/scenarios/\(file) is not a JSON object")
      }
      return (String(file.dropLast(5)), object["pending"] as? String)
    }
  }

  static let active: [String] = ((try? scenarios()) ?? []).filter { $0.pending == nil }.map(\.name)
  /// The active scenarios dealt into two halves, each run one at a time beside the other (see `MPVDifferentialTests`).
  static let firstHalf = active.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
  static let secondHalf = active.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)

  /// Runs the runner on `names` on a thread of its own, so that the minutes the scenarios take together hold none of
  /// Swift's cooperative threads (two on this machine): a test that blocks one for that long leaves the suite's
  /// asynchronous tests one thread, and with another blocking test beside it none, and their waits time out.
  static func runOnAThreadOfItsOwn(_ names: [String]) async throws -> (status: Int32, output: String) {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try run(names) }) }.start()
    }
  }

  /// Runs the runner on `names`; returns its exit status and everything it printed.
  static func run(_ names: [String]) throws -> (status: Int32, output: String) {
    let python = try program("python3")
    let process = Process()
    process.executableURL = python
    process.arguments =
      [
        folder.appendingPathComponent("mpvdiff.py").path, "--vpk", try VPKProcess.executableURL().path,
        "--media", try TestMedia.url(for: .h264BFrames).path,
      ] + names
    process.currentDirectoryURL = TestMedia.packageRoot
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Runs scenario `name` and expects it to pass.
  static func expectAgreement(_ name: String) async throws {
    let result = try await runOnAThreadOfItsOwn([name])
    #expect(result.status == 0, "\(name):\n\(result.output)")
    #expect(result.output.contains("PASS \(name) "), "\(name):\n\(result.output)")
  }

  /// A program on PATH, or a failure that says how to install it.
  static func program(_ name: String) throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    throw TestSupportError("\(name) not found on PATH: the mpv differential tests need it (run scripts/bootstrap)")
  }
}

/// The scenarios in two halves, each half one scenario at a time and the halves beside each other: at most two pairs
/// of players share the machine's two cores (mpv's timing is part of what is compared), and the minutes the scenarios
/// take, mostly playing on the wall clock, are halved.
@Suite(.serialized) struct MPVDifferentialTests {
  /// Given a scenario that is not pending, when the runner runs it against mpv and vpk, then every step agrees.
  @Test(arguments: MPVDiff.firstHalf) func scenarioAgreesWithMPV(_ name: String) async throws {
    try await MPVDiff.expectAgreement(name)
  }

  /// Every scenario file is a JSON object (one that is not would drop out of the runs above unseen).
  @Test func everyScenarioIsReadable() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: MPVDiff.folder.appendingPathComponent("scenarios").path
    ).filter { $0.hasSuffix(".json") }
    let scenarios = try MPVDiff.scenarios()
    #expect(scenarios.count == files.count)
    #expect(MPVDiff.active.count + scenarios.filter { $0.pending != nil }.count == files.count)
  }

  /// A pending scenario is reported as pending, never as passed, even when it would pass.
  @Test func pendingScenariosAreNotCountedAsPassing() async throws {
    #expect(MPVDiff.active.count >= 8, "\(MPVDiff.active)")
    // Given a scenario that would pass, marked pending
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("mpvdiff-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let scenario = #"{"pending": "held back", "start": {"file": false}, "steps": [{"connect": "a"}]}"#
    try Data(scenario.utf8).write(to: file)
    // When the runner is asked for it
    let result = try await MPVDiff.runOnAThreadOfItsOwn([file.path])
    // Then it says it is pending, and counts no pass
    let name = file.deletingPathExtension().lastPathComponent
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("PENDING \(name): held back"), "\(result.output)")
    #expect(result.output.contains("0 passed, 0 failed, 1 pending"), "\(result.output)")
  }
}

/// The other half of the scenarios (see `MPVDifferentialTests`).
@Suite(.serialized) struct MPVDifferentialSecondHalfTests {
  /// Given a scenario that is not pending, when the runner runs it against mpv and vpk, then every step agrees.
  @Test(arguments: MPVDiff.secondHalf) func scenarioAgreesWithMPV(_ name: String) async throws {
    try await MPVDiff.expectAgreement(name)
  }

  /// The halves hold every active scenario once.
  @Test func theHalvesHoldEveryScenarioOnce() {
    #expect((MPVDiff.firstHalf + MPVDiff.secondHalf).sorted() == MPVDiff.active.sorted())
  }
}

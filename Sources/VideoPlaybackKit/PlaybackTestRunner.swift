// PlaybackTestRunner: `vpk test`. Runs playback test scripts, each as a whole session of its own
// built by the Builder (idle at first; the script opens its media), with its events captured as a
// transcript. Scripts run several at a time (`jobs`); results come back in the order given.
//
// A script passes when its session reports no failed expect or wait, and no command answered with
// an error that an `expect error == <code>` did not acknowledge.

import Foundation

/// A script as read from disk: its lines, or why it could not be read.
public struct PlaybackScriptFile: Sendable, Equatable {
  /// The path as the user gave it (shown in results).
  public var path: String
  public var lines: [String]?
  public var unreadable: String?

  public init(path: String, lines: [String]?, unreadable: String? = nil) {
    self.path = path
    self.lines = lines
    self.unreadable = unreadable
  }

  /// The largest script read, in bytes.
  public static let maxBytes = 16 << 20

  /// Reads `path` as UTF-8 text, split into lines (`\n`, with a `\r` before it dropped).
  public static func load(_ path: String) -> PlaybackScriptFile {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "no such file")
    }
    guard !isDirectory.boolValue else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "a folder, not a script")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "cannot be opened (permissions?)")
    }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: maxBytes + 1) ?? Data() else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "cannot be read")
    }
    guard data.count <= maxBytes else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "larger than \(maxBytes >> 20) MiB")
    }
    var splitter = LineSplitter()
    var lines: [String] = []
    for line in splitter.feed(data) + splitter.finish() {
      switch line {
      case .text(let text): lines.append(text)
      case .tooLong, .invalidUTF8:
        return PlaybackScriptFile(
          path: path, lines: nil, unreadable: "line \(lines.count + 1) is not UTF-8 text of at most 64 KiB")
      }
    }
    return PlaybackScriptFile(path: path, lines: lines)
  }

  /// The folder relative `open` paths resolve against.
  var folder: String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().path
  }
}

/// What one script did.
public struct PlaybackScriptResult: Sendable {
  public var script: PlaybackScriptFile
  public var report: SessionReport
  public var exitCode: Int32
  /// Every event of the session, as the chosen view wrote it.
  public var transcript: String
  public var seconds: Double
  public var timedOut: Bool

  public var passed: Bool {
    script.unreadable == nil && !timedOut && report.failedChecks.isEmpty && report.commandErrors.isEmpty
      && (exitCode == SessionExitCode.success || exitCode == SessionExitCode.checksFailed)
  }

  /// The failures in the order their lines come.
  public var failures: [SessionReport.Failure] {
    (report.failedChecks + report.commandErrors).sorted {
      ($0.source?.number ?? Int.max, $0.commandID ?? Int.max) < ($1.source?.number ?? Int.max, $1.commandID ?? Int.max)
    }
  }
}

/// The scripts still to run and the results so far, shared by the runner's workers.
@MainActor
private final class ScriptQueue {
  private let scripts: [PlaybackScriptFile]
  private var next = 0
  var results: [PlaybackScriptResult?]

  init(_ scripts: [PlaybackScriptFile]) {
    self.scripts = scripts
    results = Array(repeating: nil, count: scripts.count)
  }

  func take() -> (index: Int, script: PlaybackScriptFile)? {
    guard next < scripts.count else { return nil }
    defer { next += 1 }
    return (next, scripts[next])
  }
}

/// Collects a session's output in memory.
@MainActor
final class TranscriptOutput: TextOutput {
  private(set) var text = ""
  func write(_ text: String) -> Bool {
    self.text += text
    return true
  }
}

@MainActor
public final class PlaybackTestRunner {
  private let options: PlaybackOptions
  private let format: OutputFormat
  private let jobs: Int
  private let timeout: Double
  private let makeManager: @MainActor () -> any PlaybackManager

  /// - Parameters:
  ///   - jobs: how many scripts run at once.
  ///   - timeout: real seconds a script may run before it is stopped (and fails).
  public init(
    options: PlaybackOptions, format: OutputFormat, jobs: Int, timeout: Double,
    makeManager: @escaping @MainActor () -> any PlaybackManager
  ) {
    self.options = options
    self.format = format
    self.jobs = max(1, jobs)
    self.timeout = timeout
    self.makeManager = makeManager
  }

  /// Runs every script, at most `jobs` at a time; the results are in the order of `scripts`.
  public func run(scripts: [PlaybackScriptFile]) async -> [PlaybackScriptResult] {
    let queue = ScriptQueue(scripts)
    // `jobs` workers on the main actor, each taking the next script until none is left.
    let workers = (0..<min(jobs, max(1, scripts.count))).map { _ in
      Task { @MainActor in
        while let taken = queue.take() {
          queue.results[taken.index] = await self.run(taken.script)
        }
      }
    }
    for worker in workers { await worker.value }
    let results = queue.results
    return results.compactMap { $0 }
  }

  /// Runs one script as a session of its own.
  public func run(_ script: PlaybackScriptFile) async -> PlaybackScriptResult {
    guard let lines = script.lines else {
      return PlaybackScriptResult(
        script: script, report: SessionReport(), exitCode: 2, transcript: "", seconds: 0, timedOut: false)
    }
    let started = Date()
    let output = TranscriptOutput()
    var module: PlaybackModule?
    var timedOut = false
    let ending: SessionEnding = await withCheckedContinuation { continuation in
      let built = PlaybackBuilder.build(
        path: nil, options: options, format: format, input: .lines(lines), output: output, isTerminal: false,
        useColor: false, baseDirectory: script.folder, makeManager: makeManager,
        onClose: { code, report in continuation.resume(returning: SessionEnding(code: code, report: report)) })
      module = built
      let timeout = self.timeout
      Task { @MainActor [weak built] in
        try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
        guard let built else { return }
        timedOut = true
        built.eventHandler.onSignal(.terminate)
      }
      built.start()
    }
    withExtendedLifetime(module) {}
    return PlaybackScriptResult(
      script: script, report: ending.report, exitCode: ending.code, transcript: output.text,
      seconds: Date().timeIntervalSince(started), timedOut: timedOut && ending.code == SessionExitCode.terminated)
  }

  private struct SessionEnding: Sendable {
    var code: Int32
    var report: SessionReport
  }

  // MARK: - Reporting

  /// One block per script (`PASS`/`FAIL` and each failure at its line), then `N passed, M failed`.
  nonisolated public static func summary(of results: [PlaybackScriptResult]) -> String {
    var text = ""
    for result in results {
      let name = result.script.path
      if let unreadable = result.script.unreadable {
        text += "ERROR \(name): cannot read the script: \(unreadable)\n"
        continue
      }
      let checks = "\(result.report.expectCount) expect\(result.report.expectCount == 1 ? "" : "s")"
      let time = PlaybackPresenter.fixed(result.seconds, decimals: 2)
      text +=
        "\(result.passed ? "PASS" : "FAIL") \(name) (\(result.report.commandCount) commands, \(checks), \(time) s)\n"
      if result.timedOut { text += "  \(name): stopped after the --timeout\n" }
      for failure in result.failures { text += "  " + describe(failure, in: name) + "\n" }
    }
    let passed = results.filter(\.passed).count
    text += "\(passed) passed, \(results.count - passed) failed\n"
    return text
  }

  /// `script.vpk:7: expect position ~ 10: expected 10, actual 9.967`.
  nonisolated public static func describe(_ failure: SessionReport.Failure, in name: String) -> String {
    let place = failure.source.map { "\(name):\($0.number)" } ?? name
    let line = failure.source.map { $0.text.trimmingCharacters(in: .whitespaces) } ?? ""
    if failure.code == .expectFailed, let expected = failure.expected, let actual = failure.actual {
      return "\(place): \(line): expected \(text(of: expected)), actual \(text(of: actual))"
    }
    let quoted = line.isEmpty ? "" : "\(line): "
    return "\(place): \(quoted)\(failure.code.rawValue): \(failure.message)"
  }

  nonisolated static func text(of value: ExpectValue) -> String {
    switch value {
    case .number(let number): PlaybackPresenter.trimmed(number, decimals: 6)
    case .string(let string): PlaybackPresenter.quoted(string)
    case .bool(let bool): bool ? "true" : "false"
    case .none: "none"
    }
  }

  /// 0 when every script passed, 2 when one could not be read, else 1.
  nonisolated public static func exitCode(of results: [PlaybackScriptResult]) -> Int32 {
    if results.contains(where: { $0.script.unreadable != nil }) { return 2 }
    return results.allSatisfy(\.passed) ? 0 : 1
  }

  /// Writes each script's transcript to `folder/<script path with / as __>.txt` (or `.jsonl`).
  nonisolated public static func writeTranscripts(_ results: [PlaybackScriptResult], to folder: String, json: Bool)
    throws
  {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for result in results where result.script.unreadable == nil {
      var name = result.script.path
      while name.hasPrefix("./") { name.removeFirst(2) }
      name = name.replacingOccurrences(of: "/", with: "__")
      let url = URL(fileURLWithPath: folder).appendingPathComponent(name + (json ? ".jsonl" : ".txt"))
      try result.transcript.write(to: url, atomically: true, encoding: .utf8)
    }
  }
}

// PlaybackTestRunner: `vpk test`. Runs playback test scripts, each as a whole session of its own
// built by the Builder (idle at first; the script opens its media), with its events captured as a
// transcript. Scripts run several at a time (`jobs`); results come back in the order given.
//
// A script passes when its session reports no failed expect or wait, and no command answered with
// an error that an `expect error == <code>` did not acknowledge.

import Foundation
import VideoPlaybackKit

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
}

// PlaybackTestRunner: `vpk test`. Runs playback test scripts, each as a whole session of its own
// built by the Builder (idle at first; the script opens its media), with its events captured as a
// transcript. Scripts run several at a time (`jobs`); results come back in the order given.
//
// A script passes when its session reports no failed expect or wait, and no command answered with
// an error that an `expect error == <code>` did not acknowledge. A failed `expect frame.*` leaves a PNG of the frame
// that was on screen (see `failurePictures`).

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
  /// Sampled at each event written.
  let peak = ResidentPeak()
  func write(_ text: String) -> Bool {
    self.text += text
    peak.sample()
    return true
  }
}

@MainActor
package final class PlaybackTestRunner {
  private let options: PlaybackOptions
  private let format: OutputFormat
  private let jobs: Int
  private let timeout: Double
  private let makeManager: @MainActor () -> any PlaybackManager
  private let transcriptFolder: String?

  /// - Parameters:
  ///   - options: how each script's session plays; its `frameCacheBytes` is the run's budget, shared equally by the
  ///     jobs that run at once (`FrameCacheBudget.share`).
  ///   - jobs: how many scripts run at once.
  ///   - timeout: real seconds a script may run before it is stopped (and fails).
  ///   - transcriptFolder: where the transcripts go (`--transcript`); a failed `expect frame.*` saves the frame on
  ///     screen there, beside its script's transcript, or (nil) beside the script.
  package init(
    options: PlaybackOptions, format: OutputFormat, jobs: Int, timeout: Double, transcriptFolder: String? = nil,
    makeManager: @escaping @MainActor () -> any PlaybackManager
  ) {
    self.options = options
    self.format = format
    self.jobs = max(1, jobs)
    self.timeout = timeout
    self.transcriptFolder = transcriptFolder
    self.makeManager = makeManager
  }

  /// Where a script's failed `expect frame.*` saves the frame on screen: `<transcript folder>/<transcript name>.lineN.png`
  /// beside its transcript, or `<script>.lineN.png` beside the script.
  nonisolated package static func failurePictures(for scriptPath: String, transcriptFolder: String?)
    -> FailurePictures
  {
    if let transcriptFolder { return FailurePictures(folder: transcriptFolder, stem: transcriptStem(of: scriptPath)) }
    let url = URL(fileURLWithPath: scriptPath)
    let folder = (scriptPath as NSString).deletingLastPathComponent
    return FailurePictures(folder: folder, stem: url.lastPathComponent)
  }

  /// Runs every script, at most `jobs` at a time; the results are in the order of `scripts`.
  package func run(scripts: [PlaybackScriptFile]) async -> [PlaybackScriptResult] {
    let queue = ScriptQueue(scripts)
    let workerCount = min(jobs, max(1, scripts.count))
    let cacheShare = FrameCacheBudget.share(of: options.frameCacheBytes, jobs: workerCount)
    // `jobs` workers on the main actor, each taking the next script until none is left.
    let workers = (0..<workerCount).map { _ in
      Task { @MainActor in
        while let taken = queue.take() {
          queue.results[taken.index] = await self.run(taken.script, frameCacheBytes: cacheShare)
        }
      }
    }
    for worker in workers { await worker.value }
    let results = queue.results
    return results.compactMap { $0 }
  }

  /// Runs one script as a session of its own, its frame cache `frameCacheBytes` (nil: the whole budget).
  package func run(_ script: PlaybackScriptFile, frameCacheBytes: Int? = nil) async -> PlaybackScriptResult {
    guard let lines = script.lines else {
      return PlaybackScriptResult(
        script: script, report: SessionReport(), exitCode: 2, transcript: "", seconds: 0, timedOut: false)
    }
    if let transcriptFolder {
      // Made now, so a picture of a failure can be saved in it while the script runs.
      try? FileManager.default.createDirectory(atPath: transcriptFolder, withIntermediateDirectories: true)
    }
    let started = Date()
    let output = TranscriptOutput()
    output.peak.sample()
    var module: PlaybackModule?
    var timedOut = false
    let ending: SessionEnding = await withCheckedContinuation { continuation in
      var options = self.options
      if let frameCacheBytes { options.frameCacheBytes = frameCacheBytes }
      options.failurePictures = Self.failurePictures(for: script.path, transcriptFolder: transcriptFolder)
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
    output.peak.sample()
    return PlaybackScriptResult(
      script: script, report: ending.report, exitCode: ending.code, transcript: output.text,
      seconds: Date().timeIntervalSince(started), timedOut: timedOut && ending.code == SessionExitCode.terminated,
      peakResidentBytes: output.peak.bytes)
  }

  private struct SessionEnding: Sendable {
    var code: Int32
    var report: SessionReport
  }
}

// `vpk test`: runs playback test scripts (VPKScripts) and writes their summary, transcripts and JUnit report.

import ArgumentParser
import Foundation
import VPKEngine
import VPKScripts
import VideoPlaybackKit

struct TestCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Run playback test scripts and report which passed.",
    discussion: """
      A script is a file of commands, one per line: it opens its media with
      open <path> (relative to the script's folder), then plays, seeks, waits
      and checks with expect. Scripts run on the virtual clock unless --clock
      says otherwise, so they are fast and give the same transcript every run.
      A script fails on a failed expect or wait, or on a command answered with
      an error that no `expect error == <code>` right after it acknowledges.

      With --json, the report is JSON lines: one object per script, then a
      summary object; transcripts are JSON lines too.

      When an expect on a frame.* field fails, the frame on screen is saved as
      a PNG beside the script's transcript (DIR/<transcript name>.lineN.png
      with --transcript DIR), or else beside the script (<script>.lineN.png);
      the failure names it, and the JUnit report attaches it.

      A suite spreads over machines with --shard K/N (shard K of N, from 1),
      or with TEST_TOTAL_SHARDS and TEST_SHARD_INDEX (from 0) as Bazel and
      other runners set them: the scripts sorted by path are dealt round-robin,
      so the shards cover every script exactly once. TEST_SHARD_STATUS_FILE is
      touched; XML_OUTPUT_FILE receives the JUnit report unless --junit names
      a file.

      Memory: the run has one frame cache budget (--frame-cache; by default
      1/16 of the machine's physical memory, at most 256M), divided equally
      among the jobs that run at once: with --jobs 4 each script's session
      keeps at most a quarter of it. Each script's report (--json, and the
      JUnit <properties>) gives the process's peak resident memory while the
      script ran (peak_rss_bytes: VmRSS sampled at its start, at each of its
      events and at its end; the jobs share the process, so it counts the
      scripts running beside it) and its frame cache's hits, misses and hit
      rate (hits / (hits + misses)).

      Exit status: 0 all passed; 1 some failed; 2 a script could not be read.

      Examples:
        vpk test checks/*.vpk
        vpk test checks/*.vpk --jobs 2 --junit report.xml --transcript out/
        vpk test checks/*.vpk --shard 2/4

      \(expectReference)
      """)

  /// The fields and operators `expect` takes, from the command language's own tables.
  static var expectReference: String {
    let fields = ExpectField.allCases.map(\.rawValue).joined(separator: " ")
    let operators = ExpectOperator.allCases.map(\.rawValue).joined(separator: " ")
    return """
      expect <field> <op> <value> [±tolerance]
        fields: \(wrapped(fields, width: 70, indent: "          "))
        operators: \(operators)  (~ is within ±tolerance, default ±0.001)
        values: times as 1:30 or 50%, numbers, text, true/false, or none
      """
  }

  /// `text` with line breaks between words so no line is longer than `width`; lines after the first indented.
  private static func wrapped(_ text: String, width: Int, indent: String) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width - indent.count {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n" + indent)
  }

  @Argument(help: "The scripts to run.", completion: .file(extensions: ["vpk"]))
  var scripts: [String]

  @Option(name: .long, help: "The clock scripts run on: virtual (default), free or wall.")
  var clock: ClockKind = .virtual

  @Option(
    name: .customLong("at-end"), help: "What playback does at the end of the media: pause (default), exit or loop.")
  var atEnd: EndAction = .pause

  @Option(name: .long, help: "Default seek mode for scrub and skip: exact, keyframe or next-keyframe.")
  var seek: SeekMode = .exact

  // Unconditional: `--progress -1` is a value to refuse with the option's own message, not a missing one.
  @Option(
    name: .long, parsing: .unconditional, help: "Media seconds between progress events in transcripts, or 'off'.")
  var progress: String = "1"

  @Option(name: .long, help: "How many scripts run at once (default: the number of cores).")
  var jobs: Int?

  @Option(name: .long, help: "Real seconds a script may run before it is stopped and fails.")
  var timeout: Double = 300

  @Option(name: .long, help: "Write a JUnit XML report to this file.")
  var junit: String?

  @Option(name: .long, help: "Write each script's event transcript into this folder.")
  var transcript: String?

  @Option(name: .long, parsing: .unconditional, help: "Run only shard K of N (K from 1, such as 2/4) of the scripts.")
  var shard: String?

  // Not the shared OutputOptions: here --json is about the report, not a session's events.
  @Flag(
    name: .long, help: "Write the report as JSON lines (one object per script, then a summary), and transcripts too.")
  var json = false

  @Flag(name: .long, help: "Write debug diagnostics, and FFmpeg's own warnings, to standard error.")
  var verbose = false

  @OptionGroup var access: AccessOptions

  // Unconditional, as --progress: `--frame-cache -1` is a value to refuse with the option's own message.
  @Option(
    name: .customLong("frame-cache"), parsing: .unconditional,
    help: ArgumentHelp(
      "The run's bytes of decoded frames, divided equally among the jobs, with K, M or G (1024s): 1G, 64M; 0: off. "
        + "Default: 1/16 of physical memory, at most 256M (\(TestCommand.defaultCacheText) here).",
      valueName: "size"))
  var frameCache: String?

  /// This machine's default budget, as --help shows it.
  static var defaultCacheText: String { "\(FrameCacheBudget.machineDefault >> 20)M" }

  /// The run's frame cache budget: `--frame-cache`, else the machine's default.
  private var cacheBudget: Int {
    get throws { try frameCache.map(FrameCacheOptions.bytes(of:)) ?? FrameCacheBudget.machineDefault }
  }

  func validate() throws {
    guard !scripts.isEmpty else { throw ValidationError("name at least one script") }
    if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes a number from 1 to 256") }
    guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout takes a number of seconds above 0") }
    _ = try ProgressOption.interval(progress)
    _ = try cacheBudget
    _ = try selectedShard()
  }

  /// `--shard`, else the test runner's TEST_TOTAL_SHARDS and TEST_SHARD_INDEX; nil: every script runs.
  private func selectedShard() throws -> TestShard? {
    do {
      if let shard { return try TestShard.parse(shard) }
      return try TestShard.fromEnvironment(ProcessInfo.processInfo.environment)
    } catch let problem as TestShard.Problem {
      throw ValidationError(problem.description)
    }
  }

  func run() async throws {
    throw ExitCode(try await runScripts())
  }

  @MainActor
  private func runScripts() async throws -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let options = PlaybackOptions(
      autoplay: true, clock: clock, progressInterval: try ProgressOption.interval(progress),
      endAction: atEnd, seekMode: seek, frameCacheBytes: try cacheBudget)
    let verbose = self.verbose
    let mediaAccess = access.mediaAccess
    let runner = PlaybackTestRunner(
      options: options, format: json ? .json : .text,
      jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, timeout: timeout, transcriptFolder: transcript,
      makeManager: { FFmpegPlaybackManager(showsFFmpegWarnings: verbose, access: mediaAccess) })
    let environment = ProcessInfo.processInfo.environment
    let shard = try selectedShard()
    if let status = environment["TEST_SHARD_STATUS_FILE"], !status.isEmpty {
      // Touched (made, or its time updated): tells the test runner that this test honours sharding.
      let files = FileManager.default
      if files.fileExists(atPath: status) {
        try? files.setAttributes([.modificationDate: Date()], ofItemAtPath: status)
      } else if !files.createFile(atPath: status, contents: nil) {
        FileHandle.standardError.write(Data("vpk test: cannot touch TEST_SHARD_STATUS_FILE \(status)\n".utf8))
        throw ExitCode(2)
      }
    }
    let chosen = shard.map { $0.selection(of: scripts).map { scripts[$0] } } ?? scripts
    let results = await runner.run(scripts: chosen.map(PlaybackScriptFile.load))
    let sharding = shard.map { PlaybackTestRunner.Sharding(shard: $0, scriptCount: scripts.count) }
    let stdout = FileDescriptorOutput.standardOutput()
    _ = stdout.write(
      json
        ? PlaybackTestRunner.jsonReport(of: results, sharding: sharding)
        : PlaybackTestRunner.summary(of: results, sharding: sharding))
    if let transcript {
      do {
        try PlaybackTestRunner.writeTranscripts(results, to: transcript, json: json)
      } catch {
        FileHandle.standardError.write(Data("vpk test: cannot write transcripts to \(transcript): \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    if let junit = junit ?? environment["XML_OUTPUT_FILE"].flatMap({ $0.isEmpty ? nil : $0 }) {
      do {
        try ReportFile.write(JUnitReport(results: results).xml, toFile: junit)
      } catch {
        FileHandle.standardError.write(Data("vpk test: cannot write the JUnit report \(junit): \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    return PlaybackTestRunner.exitCode(of: results)
  }
}

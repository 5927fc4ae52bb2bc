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

      Exit status: 0 all passed; 1 some failed; 2 a script could not be read.

      Examples:
        vpk test checks/*.vpk
        vpk test checks/*.vpk --jobs 2 --junit report.xml --transcript out/
      """)

  @Argument(help: "The scripts to run.", completion: .file(extensions: ["vpk"]))
  var scripts: [String]

  @Option(name: .long, help: "The clock scripts run on: virtual (default), free or wall.")
  var clock: ClockKind = .virtual

  @Option(
    name: .customLong("at-end"), help: "What playback does at the end of the media: pause (default), exit or loop.")
  var atEnd: EndAction = .pause

  @Option(name: .long, help: "Default seek mode for scrub and skip: exact or keyframe.")
  var seek: SeekMode = .exact

  @Option(name: .long, help: "Media seconds between progress events in transcripts, or 'off'.")
  var progress: String = "1"

  @Option(name: .long, help: "How many scripts run at once (default: the number of cores).")
  var jobs: Int?

  @Option(name: .long, help: "Real seconds a script may run before it is stopped and fails.")
  var timeout: Double = 300

  @Option(name: .long, help: "Write a JUnit XML report to this file.")
  var junit: String?

  @Option(name: .long, help: "Write each script's event transcript into this folder.")
  var transcript: String?

  @OptionGroup var output: OutputOptions
  @OptionGroup var access: AccessOptions

  func validate() throws {
    guard !scripts.isEmpty else { throw ValidationError("Name at least one script.") }
    if let jobs, !(1...256).contains(jobs) { throw ValidationError("--jobs takes a number from 1 to 256.") }
    guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout takes a number of seconds above 0.") }
    _ = try ProgressOption.interval(progress)
  }

  func run() async throws {
    throw ExitCode(try await runScripts())
  }

  @MainActor
  private func runScripts() async throws -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let options = PlaybackOptions(
      autoplay: true, clock: clock, progressInterval: try ProgressOption.interval(progress),
      endAction: atEnd, seekMode: seek)
    let verbose = output.verbose
    let mediaAccess = access.mediaAccess
    let runner = PlaybackTestRunner(
      options: options, format: output.json ? .json : .text,
      jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount, timeout: timeout,
      makeManager: { FFmpegPlaybackManager(showsFFmpegWarnings: verbose, access: mediaAccess) })
    let results = await runner.run(scripts: scripts.map(PlaybackScriptFile.load))
    let stdout = FileDescriptorOutput.standardOutput()
    _ = stdout.write(PlaybackTestRunner.summary(of: results))
    if let transcript {
      do {
        try PlaybackTestRunner.writeTranscripts(results, to: transcript, json: output.json)
      } catch {
        FileHandle.standardError.write(Data("vpk test: cannot write transcripts to \(transcript): \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    if let junit {
      do {
        try JUnitReport(results: results).xml.write(toFile: junit, atomically: true, encoding: .utf8)
      } catch {
        FileHandle.standardError.write(Data("vpk test: cannot write the JUnit report \(junit): \(error)\n".utf8))
        throw ExitCode(2)
      }
    }
    return PlaybackTestRunner.exitCode(of: results)
  }
}

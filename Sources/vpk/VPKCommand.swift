// The `vpk` command: parses the command line, then hands everything to the Builder.

import ArgumentParser
import Foundation
import Logging
import VPKEngine
import VideoPlaybackKit

@main
struct VPKCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "vpk",
    abstract: "A headless, scriptable video-playback controller built on FFmpeg.",
    discussion: """
      vpk plays a media file by its clock and takes commands on standard input,
      one per line (or as JSON objects):
        play, pause, toggle               start, stop, flip playback
        scrub <time> [exact|keyframe]     absolute seek: 83.5, 1:23.5, 50%
        skip <±seconds> [exact|keyframe]  relative seek: +10, -5
        step [±N], rate <x>               frame step, playback speed
        status, info, frame               report state, media, frame on screen
        open <path>, close                load another file, unload
        wait <s> | ended | paused | seeked | position >= <t>  [timeout <s>]
        expect <field> <op> <value> [±tol]
        help, quit
      Events go to standard output: text for people (one line per event when
      not on a terminal), or JSON lines with --json. Diagnostics go to stderr.

      Exit status: 0 done (quit, end of media, or input ended while paused);
      1 an expect or wait failed; 3 the media could not be opened; 64 bad
      usage; 129 SIGHUP; 130 SIGINT; 143 SIGTERM.

      Examples:
        vpk play movie.mp4
        vpk play movie.mp4 --paused --start 1:30
        printf 'scrub 30\\nframe\\nquit\\n' | vpk play movie.mp4 --paused
        vpk test checks/*.vpk --junit report.xml
        vpk info movie.mp4
      """,
    version: VideoPlaybackKitVersion.current,
    subcommands: [Play.self, Info.self, Test.self],
    defaultSubcommand: Play.self
  )
}

/// Options that decide how output looks, shared by every subcommand.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Write events as JSON lines instead of text.")
  var json = false

  @Flag(name: .long, help: "Write debug diagnostics, and FFmpeg's own warnings, to standard error.")
  var verbose = false
}

/// What a media file may make vpk open besides itself. By default only the local file named is read.
struct AccessOptions: ParsableArguments {
  @Flag(
    name: .customLong("allow-network"),
    help: "Allow network URLs (http, https, rtmp, rtp …) and stream descriptions (sdp, rtsp).")
  var allowNetwork = false

  @Flag(
    name: .customLong("allow-playlists"),
    help: "Allow playlists that open the other files and URLs they name (HLS, DASH, ffconcat, IMF).")
  var allowPlaylists = false

  var mediaAccess: MediaAccess { MediaAccess(allowsNetwork: allowNetwork, allowsPlaylists: allowPlaylists) }
}

struct Play: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a media file, steered by commands on standard input.",
    discussion: """
      Commands run in order, each with an id (its ordinal: 1, 2, 3 …) that
      the events it causes carry. A command sent before the file is ready
      waits for it. A query (status, info, frame) waits for earlier seeks to
      land. When standard input ends, playback goes on to the end (or stops at
      once if paused) and vpk exits.

      Examples:
        vpk play movie.mp4 --start 50%
        printf 'scrub 1:30\\nframe\\n' | vpk play movie.mp4 --paused --clock free
        vpk play movie.mp4 --json --progress 0.5
      """)

  @Argument(help: "The media file to play (omit it with --idle).", completion: .file())
  var file: String?

  @Flag(name: .long, help: "Start with nothing loaded; load media with the open command.")
  var idle = false

  @Flag(name: .long, help: "Start paused on the first frame instead of playing.")
  var paused = false

  @Option(name: .long, help: "Where to start: seconds (83.5), m:ss (1:23.5), h:mm:ss, or a percentage (50%).")
  var start: String?

  @Option(
    name: .long,
    help:
      "The clock that paces playback: wall (real time), free (as fast as decoding allows) or virtual (moved only by wait)."
  )
  var clock: ClockKind = .wall

  @Option(name: .long, help: "Media seconds between progress events, or 'off'.")
  var progress: String = "1"

  @Option(name: .customLong("at-end"), help: "What to do at the end of the media: exit, pause or loop.")
  var atEnd: EndAction = .exit

  @Option(name: .long, help: "Default seek mode for scrub and skip: exact or keyframe.")
  var seek: SeekMode = .exact

  @OptionGroup var output: OutputOptions
  @OptionGroup var access: AccessOptions

  func validate() throws {
    _ = try startTime()
    _ = try progressInterval()
    if file == nil && !idle { throw ValidationError("Give a media file to play, or --idle to start with none.") }
    if file != nil && idle { throw ValidationError("--idle starts with nothing loaded; leave out the file or --idle.") }
  }

  private func startTime() throws -> TimeSpec? {
    guard let start else { return nil }
    switch CommandParser.parseTime(start, for: "--start") {
    case .success(let time): return time
    case .failure(let error): throw ValidationError(error.message)
    }
  }

  private func progressInterval() throws -> Double? {
    if progress.lowercased() == "off" { return nil }
    guard let seconds = Double(progress), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
      throw ValidationError("--progress takes a number of seconds above 0 (such as 1 or 0.5), or 'off'.")
    }
    return seconds
  }

  func run() async throws {
    let options = PlaybackOptions(
      autoplay: !paused, start: try startTime(), clock: clock, progressInterval: try progressInterval(),
      endAction: atEnd, seekMode: seek)
    let code = await runSession(
      file: file, options: options, output: output, access: access.mediaAccess, scriptedInput: nil)
    throw ExitCode(code)
  }
}

struct Test: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
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
    if progress.lowercased() != "off" {
      guard let seconds = Double(progress), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
        throw ValidationError("--progress takes a number of seconds above 0 (such as 1 or 0.5), or 'off'.")
      }
    }
  }

  func run() async throws {
    throw ExitCode(try await runScripts())
  }

  @MainActor
  private func runScripts() async throws -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let options = PlaybackOptions(
      autoplay: true, clock: clock, progressInterval: progress.lowercased() == "off" ? nil : Double(progress),
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

struct Info: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Report what a media file holds (container, duration, streams) and exit.")

  @Argument(help: "The media file to describe.", completion: .file())
  var file: String

  @OptionGroup var output: OutputOptions
  @OptionGroup var access: AccessOptions

  func run() async throws {
    let options = PlaybackOptions(autoplay: false, clock: .free, progressInterval: nil)
    let code = await runSession(
      file: file, options: options, output: output, access: access.mediaAccess, scriptedInput: ["info", "quit"])
    throw ExitCode(code)
  }
}

extension ClockKind: ExpressibleByArgument {}
extension EndAction: ExpressibleByArgument {}
extension SeekMode: ExpressibleByArgument {}

/// Builds the module for one file and runs it until it closes; returns the exit status.
/// With `scriptedInput`, those lines are the session's input and standard input is not read.
@MainActor
func runSession(
  file: String?, options: PlaybackOptions, output: OutputOptions, access: MediaAccess, scriptedInput: [String]?
) async -> Int32 {
  // A reader that goes away must not kill the process: writes report EPIPE instead.
  signal(SIGPIPE, SIG_IGN)
  var logger = Logger(label: "vpk") { StreamLogHandler.standardError(label: $0) }
  logger.logLevel = output.verbose ? .debug : .warning

  // The module and the signal forwarder live until the session closes.
  var module: PlaybackModule?
  var signals: SignalForwarder?
  let code = await withCheckedContinuation { continuation in
    let built = PlaybackBuilder.build(
      path: file, options: options, format: output.json ? .json : .text,
      input: scriptedInput.map { .lines($0) } ?? .standardInput,
      environment: ProcessInfo.processInfo.environment,
      makeManager: { FFmpegPlaybackManager(showsFFmpegWarnings: output.verbose, access: access) },
      onClose: { code, _ in
        logger.debug("session closed", metadata: ["exit": "\(code)"])
        continuation.resume(returning: code)
      })
    module = built
    signals = SignalForwarder(handler: built.eventHandler)
    logger.debug("session starting", metadata: ["file": "\(file ?? "(idle)")"])
    built.start()
  }
  withExtendedLifetime((module, signals)) {}
  return code
}

/// Turns SIGINT, SIGTERM and SIGHUP into view events on the main actor, so the session can report its
/// final state, leave the terminal clean and exit with the documented status (128 + the signal's number).
///
/// The report needs the main actor, which can be stuck writing to a reader that stopped reading (a full pipe). So a
/// watchdog on a queue of its own waits `grace` seconds after the signal; if the process is still there, it restores
/// the terminal and exits with the same status, without the report. A signal always ends vpk within that bound.
@MainActor
final class SignalForwarder {
  private var sources: [any DispatchSourceSignal] = []
  private let watchdog = DispatchQueue(label: "vpk.signal-watchdog")

  init(handler: any PlaybackViewEventHandler, grace: Double = 2) {
    let terminal = SavedTerminal()
    for (number, signal) in [(SIGINT, TerminationSignal.interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp)] {
      Foundation.signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { [weak handler] in
        MainActor.assumeIsolated { handler?.onSignal(signal) }
      }
      source.resume()
      sources.append(source)
      let backstop = DispatchSource.makeSignalSource(signal: number, queue: watchdog)
      backstop.setEventHandler { [watchdog] in
        watchdog.asyncAfter(deadline: .now() + grace) {
          terminal.restore()
          _exit(128 + number)
        }
      }
      backstop.resume()
      sources.append(backstop)
    }
  }
}

/// Standard input's terminal settings as they were before vpk changed them (nothing when it is not a terminal).
struct SavedTerminal: Sendable {
  private let settings: termios?

  init() {
    var current = termios()
    settings = isatty(STDIN_FILENO) == 1 && tcgetattr(STDIN_FILENO, &current) == 0 ? current : nil
  }

  func restore() {
    guard var settings else { return }
    _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
  }
}

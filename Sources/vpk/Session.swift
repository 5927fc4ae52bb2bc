// Running one session: the module the Builder makes over the FFmpeg engine, until it closes, with
// the process's signals turned into view events, and (with --socket) the control socket's clients as views of it.

import CVPKProcessSetup
import Foundation
import Logging
import NIOConcurrencyHelpers
import VPKEngine
import VPKMPV
import VPKScripts
import VPKSocket
import VideoPlaybackKit

/// The exit status when the --socket path (or the --record file) cannot be used (EX_CANTCREAT).
let socketUnusableExitCode: Int32 = 73

/// Builds the module for one file and runs it until it closes; returns the exit status.
/// With `scriptedInput`, those lines are the session's input and standard input is not read. With `sockets`, the
/// session also listens on each (--socket, --input-ipc-server), and their clients are views of it. With `notifier`
/// (NOTIFY_SOCKET), systemd is told READY=1 once the session listens and STOPPING=1 when it closes. With `record`, the
/// session is written there as a playback test script as it goes. `hrSeek` is how precise the seeks of mpv clients
/// are that name no precision (`vpk mpv --hr-seek`).
@MainActor
func runSession(
  file: String?, options: PlaybackOptions, output: OutputOptions, access: MediaAccess, scriptedInput: [String]?,
  sockets: [ControlSocketServer.Options] = [], notifier: SystemdNotifier? = nil, record: String? = nil,
  hrSeek: MPVHRSeek = .default, signalExitStatus: @escaping @Sendable (Int32) -> Int32 = { 128 + $0 }
) async -> Int32 {
  // A reader that goes away must not kill the process: writes report EPIPE instead.
  signal(SIGPIPE, SIG_IGN)
  var logger = Logger(label: "vpk") { StreamLogHandler.standardError(label: $0) }
  logger.logLevel = output.verbose ? .debug : .warning

  // The module and the signal forwarder live until the session closes.
  var module: PlaybackModule?
  var signals: SignalForwarder?
  // Whatever way this returns, the caller exits next: the signal watchdog must not exit as well.
  defer { signals?.standDown() }
  // When the command line's file cannot be opened, the `error` event says so on standard output; when that is not a
  // terminal (a pipe, a file), a person reading the terminal is told on stderr as well, from the session's report.
  let toldOnStderr = file != nil && isatty(STDOUT_FILENO) == 0
  var terminalSignals: TerminalSignals?
  var stopRecording: (@MainActor () -> Void)?
  let servers = sockets.map { socket in
    ControlSocketServer(options: socket, log: { StandardStreams.writeError("vpk: \($0)") })
  }
  let (closed, closedContinuation) = AsyncStream<Int32>.makeStream()
  do {
    let built = PlaybackBuilder.build(
      path: file, options: options, format: output.json ? .json : .text,
      input: scriptedInput.map { .lines($0) } ?? .standardInput,
      environment: ProcessInfo.processInfo.environment, hasClients: !servers.isEmpty,
      makeManager: { FFmpegPlaybackManager(showsFFmpegWarnings: output.verbose, access: access) },
      onStartClamped: { clamp in
        // Told as the file opens, on a row of its own: on a terminal, in place of the status line (redrawn below).
        let clearsRow = isatty(STDERR_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 ? "\r\u{1B}[K" : ""
        StandardStreams.writeErrorAsIs(clearsRow + TextQuoting.escapingControls(startClampedMessage(clamp)) + "\n")
      },
      onClose: { code, report in
        if toldOnStderr, let failure = report.openFailure {
          StandardStreams.writeError("vpk: \(failure.message) (\(failure.code.rawValue))")
        }
        logger.debug("session closed", metadata: ["exit": "\(code)"])
        closedContinuation.yield(code)
        closedContinuation.finish()
      })
    module = built
    // Signals are the session's from here on, before a socket listens or anything is announced: a SIGTERM that comes
    // as the socket starts closes the session (which then does not start) and the socket file goes with it.
    // The watchdog's way out removes the socket files made so far.
    let restoreTerminal = built.restoreTerminal
    // (A pthread lock, which ThreadSanitizer sees, as Synchronization's Mutex on Linux is not when contended.)
    let socketFileRemovers = NIOLockedValueBox<[@Sendable () -> Void]>([])
    signals = SignalForwarder(
      handler: built.eventHandler,
      restoreTerminal: {
        restoreTerminal()
        for remove in socketFileRemovers.withLockedValue({ $0 }) { remove() }
      }, exitStatus: signalExitStatus)
    if let record {
      switch startRecording(built, to: record, options: options, joining: false) {
      case .success(let stop): stopRecording = stop
      case .failure(let error):
        built.restoreTerminal()
        StandardStreams.writeError("vpk play: --record: \(error.message)")
        return socketUnusableExitCode
      }
    }
    // The session's mpv clients share its stored options (`volume` …).
    let mpvClients = MPVClients()
    for server in servers {
      // Listening before the session starts: a path that cannot be used stops vpk before anything plays.
      do {
        try await server.start(
          attach: { [weak built] format, output in
            guard let built else { preconditionFailure("a client connected after the session ended") }
            return PlaybackBuilder.attachClient(to: built, format: format, output: output)
          },
          dialect: MPVSocketDialect { [weak built] output in
            guard let built else { preconditionFailure("a client connected after the session ended") }
            return PlaybackBuilder.attachMPVClient(to: built, sharing: mpvClients, output: output, hrSeek: hrSeek)
          },
          record: { [weak built] path in
            guard let built else { return .failure(PlaybackError(.badInput, "the session has ended")) }
            return startRecording(built, to: path, options: options, joining: true)
          })
      } catch {
        built.restoreTerminal()
        for started in servers { await started.stop() }
        StandardStreams.writeError(
          "vpk play: \(server.options.dialectOnly ? "--input-ipc-server" : "--socket"): \(error)")
        return socketUnusableExitCode
      }
      socketFileRemovers.withLockedValue { $0.append(server.socketFileRemover) }
      // Whoever started the daemon is told where to attach.
      StandardStreams.writeError("vpk: listening on \(server.options.path)")
    }
    notify(notifier, "READY=1")
    terminalSignals = TerminalSignals(module: built)
    logger.debug("session starting", metadata: ["file": "\(file ?? "(idle)")"])
    built.start()
  }
  var ends = closed.makeAsyncIterator()
  let code = await ends.next() ?? SessionExitCode.success
  notify(notifier, "STOPPING=1")
  // Every client gets the session's last events; the socket file goes.
  for server in servers { await server.stop() }
  stopRecording?()
  withExtendedLifetime((module, signals, terminalSignals)) {}
  return code
}

/// Records `module`'s session to the file at `path` as a playback test script (`--record`, or a control-socket
/// client's `record`; `joining` a session that runs). Returns what stops the recording and closes the file.
@MainActor
private func startRecording(
  _ module: PlaybackModule, to path: String, options: PlaybackOptions, joining: Bool
) -> Result<@MainActor () -> Void, PlaybackError> {
  guard !module.isRecorded else {
    return .failure(PlaybackError(.badInput, "the session is being recorded already; one recording at a time"))
  }
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard descriptor >= 0 else {
    let reason = String(cString: strerror(errno))
    return .failure(
      PlaybackError(.cannotWrite, "cannot write \(path): \(reason); name a file in a folder you can write to"))
  }
  let output = FileDescriptorOutput(fileDescriptor: descriptor)
  let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
  guard
    let stop = PlaybackBuilder.attachRecorder(
      to: module, output: output, scriptDirectory: folder, options: options, joining: joining,
      unrecordedClientIDs: [AttachClient.endMarkerID])
  else {
    close(descriptor)
    return .failure(PlaybackError(.badInput, "the session is being recorded already; one recording at a time"))
  }
  return .success({
    stop()
    close(output.fileDescriptor)
  })
}

/// Tells systemd `state`; a failure is logged and the session goes on (as sd_notify's callers do).
private func notify(_ notifier: SystemdNotifier?, _ state: String) {
  do {
    try notifier?.notify(state)
  } catch {
    StandardStreams.writeError("vpk: \(error)")
  }
}

/// What `--start` outside the media is told on standard error: the time asked for and where playback started.
func startClampedMessage(_ clamp: SessionReport.Clamp) -> String {
  let place = clamp.requested.seconds < 0 ? "before the start" : "past the end"
  return "vpk play: --start \(NumberText.seconds(clamp.requested.seconds)) s is \(place) of the media; "
    + "playback started at \(NumberText.seconds(clamp.target.seconds)) s"
}

/// Turns SIGINT, SIGTERM and SIGHUP into view events on the main actor, so the session can report its
/// final state, leave the terminal clean and exit with the documented status (128 + the signal's number).
///
/// The report needs the main actor, which can be stuck writing to a reader that stopped reading (a full pipe). So a
/// watchdog on a queue of its own waits `grace` seconds after the signal; if the process is still there, it restores
/// the terminal and exits with the same status, without the report. A signal always ends vpk within that bound.
///
/// The process ends one way: once the session has closed and its caller is about to exit with the session's status,
/// `standDown()` turns the watchdog off, so that its _exit(2) cannot race exit(3) running the process's exit handlers.
@MainActor
final class SignalForwarder {
  private var sources: [any DispatchSourceSignal] = []
  private let watchdog = DispatchQueue(label: "vpk.signal-watchdog")
  /// True once the session's own way out has begun; held by the watchdog from its check to its exit.
  private let exitGate = NIOLockedValueBox(false)

  /// - Parameters:
  ///   - restoreTerminal: puts standard input's terminal back as it was before vpk changed it (and removes the
  ///     control socket's file), before the watchdog exits.
  ///   - exitStatus: the watchdog's status for a signal's number: the one the session would have ended with.
  init(
    handler: any PlaybackViewEventHandler, restoreTerminal: @escaping @Sendable () -> Void,
    exitStatus: @escaping @Sendable (Int32) -> Int32, grace: Double = 2
  ) {
    let signals = [(SIGINT, TerminationSignal.interrupt), (SIGTERM, .terminate), (SIGHUP, .hangUp)]
    for (number, signal) in signals {
      SignalHandover.hold(number)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { [weak handler] in
        MainActor.assumeIsolated { handler?.onSignal(signal) }
      }
      source.resume()
      sources.append(source)
      let backstop = DispatchSource.makeSignalSource(signal: number, queue: watchdog)
      backstop.setEventHandler { [watchdog, exitGate] in
        watchdog.asyncAfter(deadline: .now() + grace) {
          exitGate.withLockedValue { stoodDown in
            guard !stoodDown else { return }
            restoreTerminal()
            _exit(exitStatus(number))
          }
        }
      }
      backstop.resume()
      sources.append(backstop)
    }
    SignalHandover.resendWhenTakenOver(signals.map(\.0))
  }

  /// Turns the watchdog off: the session has closed and the process is about to exit by its own way. Should the
  /// watchdog be exiting already, this waits (for ever: the process is ending) rather than exit a second way.
  func standDown() {
    exitGate.withLockedValue { $0 = true }
  }
}

/// Hands signals over to libdispatch's signal sources without losing one that comes meanwhile. Before a source is
/// made the signal's default action must be replaced (it would end the process), and libdispatch installs its own
/// handler later, on its manager thread: a signal that came in between, when the disposition was SIG_IGN, was lost.
/// Held instead (CVPKProcessSetup's signal_hold.c), it is noted, and sent again once libdispatch's handler is in.
enum SignalHandover {
  /// Before making `number`'s dispatch sources.
  static func hold(_ number: Int32) {
    vpk_signal_hold(number)
  }

  /// After making the sources: waits (off the main actor) until libdispatch has taken each signal over, then sends
  /// again any that came meanwhile. Should it not take one over within 5 s, that signal gets its default action back.
  static func resendWhenTakenOver(_ numbers: [Int32]) {
    DispatchQueue.global(qos: .userInitiated).async {
      let deadline = DispatchTime.now() + .seconds(5)
      for number in numbers {
        while vpk_signal_is_held(number) != 0 && DispatchTime.now() < deadline { usleep(1000) }
        if vpk_signal_is_held(number) != 0 { Foundation.signal(number, SIG_DFL) }
        if vpk_signal_take_noted(number) != 0 { kill(getpid(), number) }
      }
    }
  }
}

/// Writing to the process's standard streams with write(2), which Swift 6 allows from any context.
enum StandardStreams {
  /// Writes `text` whole to standard output; false when it could not (the reader went away).
  @discardableResult static func writeOutput(_ text: String) -> Bool {
    write(text, to: STDOUT_FILENO)
  }

  /// Writes `line` to standard error as one line: control characters in it are escaped.
  static func writeError(_ line: String) {
    write(TextQuoting.escapingControls(line) + "\n", to: STDERR_FILENO)
  }

  /// Writes `text` to standard error as it is (escape codes included).
  static func writeErrorAsIs(_ text: String) {
    write(text, to: STDERR_FILENO)
  }

  @discardableResult private static func write(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      bytes = bytes.dropFirst(written)
    }
    return true
  }
}

/// The terminal's own signals: SIGWINCH (the window changed size: the status line is fitted again),
/// SIGTSTP (^Z: the line is cleared and the terminal's settings put back before the process stops)
/// and SIGCONT (`fg`: vpk's settings come back and the line is drawn again).
///
/// ^Z cannot be left to the default action, which would stop the process with the terminal still in
/// vpk's mode (no echo, no line editing) and playback's clock running. So SIGTSTP is caught, and once
/// the clock is paused and the terminal clean, SIGTSTP is raised again with its default action, which stops the
/// process as ^Z does; `fg` (SIGCONT) sets vpk's mode again and playback goes on as it was.
@MainActor
final class TerminalSignals {
  private var sources: [any DispatchSourceSignal] = []

  init(module: PlaybackModule) {
    let actions: [(Int32, @MainActor (PlaybackModule) -> Void)] = [
      (SIGWINCH, { $0.terminalResized() }),
      (
        SIGTSTP,
        {
          $0.terminalWillStop()
          vpk_stop_by_default(SIGTSTP)
        }
      ),
      (SIGCONT, { $0.terminalDidContinue() }),
    ]
    for (number, action) in actions {
      SignalHandover.hold(number)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { [weak module] in
        MainActor.assumeIsolated {
          if let module { action(module) }
        }
      }
      source.resume()
      sources.append(source)
    }
    SignalHandover.resendWhenTakenOver(actions.map(\.0))
  }
}

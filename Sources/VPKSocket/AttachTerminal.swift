// AttachTerminal: `vpk attach` on a terminal, built and run: the same text view and line editor as `vpk play` there
// (status line fitted to the width, typed line with its history), with AttachPresenter between the daemon's display
// lines and the view. Lines typed go to the daemon as they are submitted; Ctrl-D ends the input (then attach leaves
// once everything it sent is answered). The terminal's own signals are handled as `vpk play` handles them: a resize
// refits the line, ^Z puts the terminal back before stopping and `fg` redraws; SIGINT, SIGTERM, SIGHUP leave attach
// (only attach: the daemon goes on) with the terminal put back.

import Dispatch
import NIOCore
import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

@MainActor
package enum AttachTerminal {
  package struct Options: Sendable {
    package var useColor: Bool
    /// Where typed lines are kept between sessions (the same file as `vpk play`'s).
    package var history: CommandHistory?
    package init(useColor: Bool, history: CommandHistory?) {
      self.useColor = useColor
      self.history = history
    }
  }

  /// How attach on a terminal ended.
  enum Ending {
    /// The input ended and everything sent was answered.
    case answered
    /// The daemon closed the connection, after its `shutdown` (with its reason) or without.
    case daemonClosed(reason: String?)
    case signal(Int32)
  }

  /// Shows the display lines (the connection asked for them) until attach ends, and leaves the terminal as it found it.
  /// `firstLines`: lines sent after the format's (a `record` line).
  static func run(
    options: Options, inputDescriptor: Int32, gate: AttachChannelGate, directory: String,
    events: AsyncStream<AttachEvent>.Continuation, received: inout AsyncStream<AttachEvent>.Iterator,
    firstLines: String = ""
  ) async -> Ending {
    let view = TextStatusView(
      output: FileDescriptorOutput.standardOutput(), isTerminal: true, useColor: options.useColor,
      columns: { TerminalSize.columns(fileDescriptor: STDOUT_FILENO) }, onClosed: {})
    let presenter = AttachPresenter()
    presenter.view = view
    let reader = CommandReader(fileDescriptor: inputDescriptor, editsTerminal: true, history: options.history)
    defer { reader.restoreTerminal() }
    let send: @Sendable (String) -> Void = { gate.send(ByteBuffer(string: $0)) }
    // The daemon draws the status line as it takes the display format AttachClient asked for: nothing is sent for it,
    // so the first command typed here is this client's #1.
    if !firstLines.isEmpty { send(firstLines) }
    if reader.editsTerminalInput { view.displayFirstPrompt() }
    let input = Task { @MainActor [weak view] in
      let lines = reader.lines { typed in
        // The main queue keeps keystrokes in order; the view lives on the main actor.
        DispatchQueue.main.async { MainActor.assumeIsolated { view?.displayTypedInput(typed) } }
      }
      for await line in lines {
        // A line the editor refused (too long) is not sent; the editor keeps lines within the daemon's limit.
        guard case .text(let text) = line else { continue }
        view?.displayTypedInput(.submitted(text))
        send(AttachPaths.resolvingRelativePaths(in: text, from: directory) + "\n")
      }
      send(#"{"command":"status","id":"\#(AttachClient.endMarkerID)"}"# + "\n")
    }
    defer { input.cancel() }
    let signals = TerminalSignalSources(view: view, reader: reader, events: events)
    defer { signals.cancel() }

    while let event = await received.next(isolation: #isolation) {
      switch event {
      case .line(let line, let handled):
        defer { handled() }
        guard case .text(let text) = line else { continue }
        if !presenter.receive(text) {
          presenter.leave()
          gate.shut()
          return .answered
        }
      case .signal(let number):
        presenter.leave()
        gate.shut()
        return .signal(number)
      case .greetingOverdue:
        continue
      }
    }
    presenter.leave()
    return .daemonClosed(reason: presenter.shutdownReason)
  }
}

/// The signals attach on a terminal handles, on the main queue: SIGWINCH, SIGTSTP, SIGCONT act on the view and the
/// terminal's mode; SIGINT, SIGTERM, SIGHUP are handed to the run loop, which leaves.
@MainActor
private final class TerminalSignalSources {
  private var sources: [any DispatchSourceSignal] = []

  init(view: TextStatusView, reader: CommandReader, events: AsyncStream<AttachEvent>.Continuation) {
    let actions: [(Int32, @MainActor () -> Void)] = [
      (SIGWINCH, { [weak view] in view?.displayResize() }),
      (
        SIGTSTP,
        { [weak view] in
          view?.displaySuspend()
          reader.restoreTerminal()
          kill(getpid(), SIGSTOP)
        }
      ),
      (
        SIGCONT,
        { [weak view] in
          reader.reapplyTerminal()
          view?.displayContinue()
        }
      ),
      (SIGINT, { events.yield(.signal(SIGINT)) }),
      (SIGTERM, { events.yield(.signal(SIGTERM)) }),
      (SIGHUP, { events.yield(.signal(SIGHUP)) }),
    ]
    for (number, action) in actions {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { MainActor.assumeIsolated { action() } }
      source.resume()
      sources.append(source)
    }
  }

  /// Stops handling them (what the signals do goes back to ignoring them: attach is leaving).
  func cancel() {
    for source in sources { source.cancel() }
    sources = []
  }
}

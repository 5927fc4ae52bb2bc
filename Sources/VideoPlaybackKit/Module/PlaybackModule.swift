// PlaybackModule: what the Builder hands back. It holds the session's parts for as long as the
// session runs, and starts it: loading the media and reading commands.

@MainActor
package final class PlaybackModule {
  /// Where view events enter the module (the command reader, signals).
  package var eventHandler: any PlaybackViewEventHandler { presenter }

  /// Puts standard input's terminal back as it was before vpk changed it; safe to call from any
  /// thread (a signal watchdog does), and a no-op when vpk did not change it.
  package nonisolated let restoreTerminal: @Sendable () -> Void

  private let view: any PlaybackView
  /// The text view when it draws on a terminal (resizes, ^Z and `fg` concern it only).
  private let terminalView: TextStatusView?
  private let presenter: PlaybackPresenter
  /// The session's one output, which routes events to the presenters of its views (this one's and the clients').
  package let fanOut: PlaybackFanOut
  /// Whether a recorder writes the session as a playback test script (`--record`, a client's `record`).
  package var isRecorded: Bool { fanOut.submissionObserver != nil }
  /// The interactor's status, readable from any thread (for the clients' presenters).
  package let statusBoard: PlaybackStatusBoard
  /// Whether the session plays each file it loads (its options' `autoplay`).
  package let startsPlaying: Bool
  /// Whether the session's queue started looping (`--loop-playlist`).
  package var loopsPlaylist = false
  private let reader: CommandReader?
  private let echo: (@MainActor (InputLine) -> Void)?
  private let showTyped: (@Sendable (TypedInput) -> Void)?
  private let scriptedInput: [String]?
  private var input: Task<Void, Never>?

  init(
    view: any PlaybackView, terminalView: TextStatusView?, presenter: PlaybackPresenter, fanOut: PlaybackFanOut,
    statusBoard: PlaybackStatusBoard, startsPlaying: Bool, reader: CommandReader?,
    echo: (@MainActor (InputLine) -> Void)?, showTyped: (@Sendable (TypedInput) -> Void)?, scriptedInput: [String]?
  ) {
    self.echo = echo
    self.showTyped = showTyped
    self.view = view
    self.terminalView = terminalView
    self.presenter = presenter
    self.fanOut = fanOut
    self.statusBoard = statusBoard
    self.startsPlaying = startsPlaying
    self.reader = reader
    self.scriptedInput = scriptedInput
    self.restoreTerminal = { [reader] in reader?.restoreTerminal() }
  }

  /// The terminal's window changed size (SIGWINCH): the status line is fitted to it again.
  package func terminalResized() {
    terminalView?.displayResize()
  }

  /// The process is about to stop (SIGTSTP): playback's clock stops, the last line is cleared and the terminal's
  /// settings are put back, so the shell gets the terminal as it gave it.
  package func terminalWillStop() {
    presenter.onStop()
    terminalView?.displaySuspend()
    reader?.restoreTerminal()
  }

  /// The process continued (SIGCONT, after `fg`): vpk's terminal settings come back (the shell put its
  /// own) and the last line is drawn again.
  package func terminalDidContinue() {
    reader?.reapplyTerminal()
    terminalView?.displayContinue()
    presenter.onContinue()
  }

  /// Starts loading the media and reading commands.
  package func start() {
    presenter.onStart()
    // The prompt comes with the start, after whatever vpk said on its way there (`vpk: listening on …`).
    if reader?.editsTerminalInput == true { terminalView?.displayFirstPrompt() }
    if let scriptedInput {
      for line in scriptedInput { presenter.onInputLine(.text(line)) }
      presenter.onInputEnded()
    } else if let reader {
      input = Task { [presenter, echo, showTyped] in
        await reader.run(forwardingTo: presenter, echo: echo, onTyped: showTyped)
      }
    }
  }
}

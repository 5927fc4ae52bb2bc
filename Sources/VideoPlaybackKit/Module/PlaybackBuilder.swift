// PlaybackBuilder: the one composition root of the playback module. It makes the router, the
// interactor, the presenter, the view and the command reader, passes each its dependencies through
// `init`, and sets the three back-references, each one weak property:
//
//   PlaybackModule ─► fanOut ─► interactor ─► router ─► makeManager (the app's factory)
//   fanOut ─► presenter (one per view) ─► fanOut's port for that view
//   PlaybackModule ─► view, reader           (─► strong, held for the session)
//   presenter.view ┄► view                   the module (a client: its PlaybackClient) owns the view
//   port ┄► fanOut                           the fan-out owns the presenters, which own their ports
//   interactor.presenter ┄► fanOut           the fan-out owns the interactor
//   router.managerEvents ┄► interactor       the interactor owns the router; every manager the router
//                                            makes reports to the interactor
//
// A client of the control socket is one view more: `attachClient` makes its view and presenter and adds them to
// the session's fan-out; `attachMPVClient` (in VPKMPV) does the same for a client speaking mpv's JSON IPC (its own
// presenter and view, on the same fan-out).
//
// Playback managers come from outside through `makeManager` (the app passes one that makes the
// FFmpeg engine, tests a fake), so this module never depends on FFmpeg; the router is the only
// caller of it, for the first file and for every `open`.

import Foundation

/// How the status view writes events.
package enum OutputFormat: String, Sendable {
  /// Text for people: in place on a terminal, one line per event elsewhere.
  case text
  /// JSON lines for programs.
  case json
  /// What a terminal shows, as display lines (see `DisplayLine`) for a view in another process: `vpk attach` on a
  /// terminal asks its socket for these.
  case display
}

/// Where a session's commands come from.
package enum InputSource: Sendable {
  /// Standard input, line by line; on a terminal (with a terminal view) vpk edits the line itself.
  case standardInput
  /// These lines, then the end of input; standard input is left alone.
  case lines([String])
}

@MainActor
public enum PlaybackBuilder {
  /// Media seconds between status-line redraws on a terminal.
  static let terminalRefreshInterval = 0.1

  /// Builds a playback module for `path` (nil: start idle) whose view writes to standard output.
  /// - Parameters:
  ///   - environment: the process environment (NO_COLOR, TERM decide colour and redraw).
  ///   - makeManager: makes a playback manager, for the first file and for every `open`.
  ///   - baseDirectory: the folder relative `open` paths resolve against (nil: the working directory).
  ///   - hasClients: the session serves clients of a control socket besides standard input and output (see
  ///     `attachClient`): it ends only on `quit` or a signal.
  ///   - onClose: called once with the exit status and the session's report when it is over.
  package static func build(
    path: String?, options: PlaybackOptions, format: OutputFormat, input: InputSource,
    environment: [String: String], baseDirectory: String? = nil, hasClients: Bool = false,
    makeManager: @escaping @MainActor () -> any PlaybackManager,
    onStartClamped: @escaping @MainActor (SessionReport.Clamp) -> Void = { _ in },
    onClose: @escaping @MainActor (Int32, SessionReport) -> Void
  ) -> PlaybackModule {
    let traits = TextStatusView.terminalTraits(isTTY: isatty(STDOUT_FILENO) == 1, environment: environment)
    return build(
      path: path, options: options, format: format, input: input, output: FileDescriptorOutput.standardOutput(),
      isTerminal: traits.isTerminal, useColor: traits.useColor,
      columns: { TerminalSize.columns(fileDescriptor: STDOUT_FILENO) },
      history: CommandHistory.path(environment: environment).map { CommandHistory(path: $0) },
      baseDirectory: baseDirectory, hasClients: hasClients, makeManager: makeManager,
      onStartClamped: onStartClamped, onClose: onClose)
  }

  /// Builds a playback module whose view writes to `output` (tests and `vpk test` capture it).
  /// - Parameters:
  ///   - columns: the terminal's width (nil: unknown); the text view reads it again on a resize.
  ///   - history: where lines typed at a terminal are kept between sessions (nil: nowhere).
  package static func build(
    path: String?, options: PlaybackOptions, format: OutputFormat, input: InputSource, output: any TextOutput,
    isTerminal: Bool, useColor: Bool, columns: @escaping @MainActor () -> Int? = { nil },
    history: CommandHistory? = nil, baseDirectory: String? = nil, hasClients: Bool = false,
    makeManager: @escaping @MainActor () -> any PlaybackManager,
    onStartClamped: @escaping @MainActor (SessionReport.Clamp) -> Void = { _ in },
    onClose: @escaping @MainActor (Int32, SessionReport) -> Void
  ) -> PlaybackModule {
    var options = options
    if format == .text && isTerminal {
      // A terminal shows progress in place on its status line (never as lines): keep it moving smoothly.
      options.progressInterval = terminalRefreshInterval
    }
    let reader = makeReader(format: format, input: input, isTerminal: isTerminal, history: history)
    let router = PlaybackRouter(makeManager: makeManager, onStartClamped: onStartClamped) { [reader] code, report in
      reader?.restoreTerminal()
      onClose(code, report)
    }
    let interactor = PlaybackInteractor(path: path, options: options, baseDirectory: baseDirectory, router: router)
    let fanOut = PlaybackFanOut(interactor: interactor, outlivesPrimaryView: hasClients)
    let presenter = PlaybackPresenter(
      interactor: fanOut.port(for: fanOut.primaryViewID), viewID: fanOut.primaryViewID, sharesSession: hasClients,
      wordsForAPerson: format == .text && isTerminal)
    let outputClosed: @MainActor () -> Void = { [weak presenter] in presenter?.onOutputClosed() }
    let view: any PlaybackView
    var terminalView: TextStatusView?
    var echo: (@MainActor (InputLine) -> Void)?
    var showTyped: (@Sendable (TypedInput) -> Void)?
    switch format {
    case .text:
      let textView = TextStatusView(
        output: output, isTerminal: isTerminal, useColor: useColor, columns: columns, onClosed: outputClosed)
      view = textView
      if isTerminal { terminalView = textView }
      if reader?.editsTerminalInput == true {
        // vpk edits the typed line itself, so redraws never wipe it: the view shows it after the status line.
        showTyped = { [weak textView] typed in
          // The main queue keeps keystrokes in order; the view lives on the main actor.
          DispatchQueue.main.async { MainActor.assumeIsolated { textView?.displayTypedInput(typed) } }
        }
        echo = { [weak textView] line in
          if case .text(let text) = line { textView?.displayTypedInput(.submitted(text)) }
        }
      }
    case .json:
      view = JSONLinesView(output: output, onClosed: outputClosed)
      presenter.showsStatusLineText = false
    case .display:
      view = DisplayLinesView(output: output, onClosed: outputClosed)
    }
    // The back-references (see the picture at the top of this file).
    presenter.view = view
    fanOut.attach(presenter, as: fanOut.primaryViewID)
    interactor.presenter = fanOut
    router.managerEvents = { [weak interactor] event, manager in interactor?.handle(event, from: manager) }
    let scripted: [String]? = if case .lines(let lines) = input { lines } else { nil }
    let module = PlaybackModule(
      view: view, terminalView: terminalView, presenter: presenter, fanOut: fanOut,
      statusBoard: interactor.statusBoard, startsPlaying: options.autoplay, reader: reader, echo: echo,
      showTyped: showTyped, scriptedInput: scripted)
    module.loopsPlaylist = options.playlist?.loops ?? false
    return module
  }

  /// Adds a client of the control socket to `module`'s session: a view writing to `output` in `format`, after the JSON
  /// `hello` it is greeted with, and a presenter of its own for it. Its input goes to the handle's
  /// `eventHandler`; `detach()` (or a write to `output` failing) removes it.
  package static func attachClient(
    to module: PlaybackModule, format: OutputFormat, output: any TextOutput
  ) -> PlaybackClient {
    let fanOut = module.fanOut
    let viewID = fanOut.makeViewID()
    let presenter = PlaybackPresenter(interactor: fanOut.port(for: viewID), viewID: viewID, sharesSession: true)
    let outputClosed: @MainActor () -> Void = { [weak presenter] in presenter?.onOutputClosed() }
    // Every client of vpk's dialect is greeted with the JSON `hello` first, whatever format it chose (`vpk attach`
    // checks it).
    let jsonView = JSONLinesView(output: output, onClosed: outputClosed)
    jsonView.displayGreeting()
    let view: any PlaybackView
    switch format {
    case .json:
      view = jsonView
      presenter.showsStatusLineText = false
    case .text: view = TextStatusView(output: output, isTerminal: false, useColor: false, onClosed: outputClosed)
    case .display: view = DisplayLinesView(output: output, onClosed: outputClosed)
    }
    presenter.view = view
    fanOut.attach(presenter, as: viewID)
    // A display client (`vpk attach` on a terminal) shows the session's status line from the start.
    if format == .display { presenter.showJoinedSession() }
    return PlaybackClient(viewID: viewID, view: view, presenter: presenter, fanOut: fanOut)
  }

  /// The command reader for standard input (none for scripted lines). On a terminal, with the text
  /// view, it edits the typed line itself.
  private static func makeReader(
    format: OutputFormat, input: InputSource, isTerminal: Bool, history: CommandHistory?
  ) -> CommandReader? {
    guard case .standardInput = input else { return nil }
    return CommandReader(fileDescriptor: STDIN_FILENO, editsTerminal: format == .text && isTerminal, history: history)
  }
}

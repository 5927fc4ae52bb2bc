// PlaybackBuilder: the one composition root of the playback module. It makes the view, the
// presenter, the interactor and the router, and wires them with weak back-references:
//   PlaybackModule ─► view, presenter, router, reader
//   presenter ─► interactor ─► manager;   interactor ┄► presenter, router;   presenter ┄► view;
//   manager ┄► interactor (delegate);   router ─► makeManager    (─► strong, ┄► weak)
// Playback managers come from outside through `makeManager` (the app passes one that makes the
// FFmpeg engine, tests a fake), so this module never depends on FFmpeg. The router calls it again
// for every `open`.

import Foundation

/// How the status view writes events.
public enum OutputFormat: String, Sendable {
  /// Text for people: in place on a terminal, one line per event elsewhere.
  case text
  /// JSON lines for programs.
  case json
}

/// Where a session's commands come from.
public enum InputSource: Sendable {
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
  ///   - onClose: called once with the exit status and the session's report when it is over.
  public static func build(
    path: String?, options: PlaybackOptions, format: OutputFormat, input: InputSource,
    environment: [String: String], baseDirectory: String? = nil,
    makeManager: @escaping @MainActor () -> any PlaybackManager,
    onClose: @escaping @MainActor (Int32, SessionReport) -> Void
  ) -> PlaybackModule {
    let traits = TextStatusView.terminalTraits(isTTY: isatty(STDOUT_FILENO) == 1, environment: environment)
    return build(
      path: path, options: options, format: format, input: input, output: FileDescriptorOutput.standardOutput(),
      isTerminal: traits.isTerminal, useColor: traits.useColor, baseDirectory: baseDirectory,
      makeManager: makeManager, onClose: onClose)
  }

  /// Builds a playback module whose view writes to `output` (tests and `vpk test` capture it).
  public static func build(
    path: String?, options: PlaybackOptions, format: OutputFormat, input: InputSource, output: any TextOutput,
    isTerminal: Bool, useColor: Bool, baseDirectory: String? = nil,
    makeManager: @escaping @MainActor () -> any PlaybackManager,
    onClose: @escaping @MainActor (Int32, SessionReport) -> Void
  ) -> PlaybackModule {
    var options = options
    if format == .text && isTerminal {
      // A terminal shows progress in place on its status line (never as lines): keep it moving smoothly.
      options.progressInterval = terminalRefreshInterval
    }
    let presenter = PlaybackPresenter()
    let manager = path == nil ? nil : makeManager()
    let interactor = PlaybackInteractor(
      manager: manager, path: path, options: options, baseDirectory: baseDirectory)
    let outputClosed: @MainActor () -> Void = { [weak presenter] in presenter?.onOutputClosed() }
    let view: any PlaybackView
    var reader: CommandReader?
    var echo: (@MainActor (InputLine) -> Void)?
    switch format {
    case .text:
      let textView = TextStatusView(
        output: output, isTerminal: isTerminal, useColor: useColor, onClosed: outputClosed)
      view = textView
      if case .standardInput = input {
        // On a terminal, vpk edits the typed line itself, so redraws never wipe it.
        var showTyped: (@Sendable (TypedInput) -> Void)?
        if isTerminal {
          showTyped = { [weak textView] typed in
            // The main queue keeps keystrokes in order; the view lives on the main actor.
            DispatchQueue.main.async { MainActor.assumeIsolated { textView?.displayTypedInput(typed) } }
          }
        }
        reader = CommandReader(fileDescriptor: STDIN_FILENO, onTyped: showTyped)
        if reader?.editsTerminalInput == true {
          textView.displayTypedInput(.editing(""))
          echo = { [weak textView] line in
            if case .text(let text) = line { textView?.displayTypedInput(.submitted(text)) }
          }
        }
      }
    case .json:
      view = JSONLinesView(output: output, onClosed: outputClosed)
      if case .standardInput = input { reader = CommandReader(fileDescriptor: STDIN_FILENO) }
    }
    let router = PlaybackRouter(makeManager: makeManager) { [reader] code, report in
      reader?.restoreTerminal()
      onClose(code, report)
    }
    presenter.view = view
    presenter.interactor = interactor
    interactor.presenter = presenter
    interactor.router = router
    router.managerDelegate = interactor
    manager?.delegate = interactor
    let scripted: [String]? = if case .lines(let lines) = input { lines } else { nil }
    return PlaybackModule(
      view: view, presenter: presenter, router: router, reader: reader, echo: echo, scriptedInput: scripted)
  }
}

/// A built playback module: holds its parts for as long as the session runs.
@MainActor
public final class PlaybackModule {
  /// Where view events enter the module (the command reader, signals).
  public var eventHandler: any PlaybackViewEventHandler { presenter }

  private let view: any PlaybackView
  private let presenter: PlaybackPresenter
  private let router: PlaybackRouter
  private let reader: CommandReader?
  private let echo: (@MainActor (InputLine) -> Void)?
  private let scriptedInput: [String]?
  private var input: Task<Void, Never>?

  init(
    view: any PlaybackView, presenter: PlaybackPresenter, router: PlaybackRouter, reader: CommandReader?,
    echo: (@MainActor (InputLine) -> Void)?, scriptedInput: [String]?
  ) {
    self.echo = echo
    self.view = view
    self.presenter = presenter
    self.router = router
    self.reader = reader
    self.scriptedInput = scriptedInput
  }

  /// Starts loading the media and reading commands.
  public func start() {
    presenter.onStart()
    if let scriptedInput {
      for line in scriptedInput { presenter.onInputLine(.text(line)) }
      presenter.onInputEnded()
    } else if let reader {
      input = Task { [presenter, echo] in await reader.run(forwardingTo: presenter, echo: echo) }
    }
  }
}

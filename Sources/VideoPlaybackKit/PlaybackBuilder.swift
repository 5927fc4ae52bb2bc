// PlaybackBuilder: the one composition root of the playback module. It makes the view, the
// presenter, the interactor and the router, and wires them with weak back-references:
//   PlaybackModule ─► view, presenter, router, reader
//   presenter ─► interactor ─► manager;   interactor ┄► presenter, router;   presenter ┄► view;
//   manager ┄► interactor (delegate)          (─► strong, ┄► weak)
// The playback manager comes from outside (the app passes the FFmpeg engine, tests a fake), so
// this module never depends on FFmpeg.

import Foundation

/// How the status view writes events.
public enum OutputFormat: String, Sendable {
  /// Text for people: in place on a terminal, one line per event elsewhere.
  case text
  /// JSON lines for programs.
  case json
}

@MainActor
public enum PlaybackBuilder {
  /// Builds a playback module for `path` whose view writes to standard output.
  /// - Parameters:
  ///   - environment: the process environment (NO_COLOR, TERM decide colour and redraw).
  ///   - onClose: called once with the exit status when the session is over.
  public static func build(
    path: String, options: PlaybackOptions, format: OutputFormat, environment: [String: String],
    manager: any PlaybackManager, onClose: @escaping @MainActor (Int32) -> Void
  ) -> PlaybackModule {
    let traits = TextStatusView.terminalTraits(isTTY: isatty(STDOUT_FILENO) == 1, environment: environment)
    return build(
      path: path, options: options, format: format, output: FileDescriptorOutput.standardOutput(),
      isTerminal: traits.isTerminal, useColor: traits.useColor, manager: manager, onClose: onClose)
  }

  /// Builds a playback module whose view writes to `output` (tests capture it).
  public static func build(
    path: String, options: PlaybackOptions, format: OutputFormat, output: any TextOutput, isTerminal: Bool,
    useColor: Bool, manager: any PlaybackManager, onClose: @escaping @MainActor (Int32) -> Void
  ) -> PlaybackModule {
    let presenter = PlaybackPresenter()
    let interactor = PlaybackInteractor(manager: manager, path: path, options: options)
    let router = PlaybackRouter(onClose: onClose)
    let outputClosed: @MainActor () -> Void = { [weak presenter] in presenter?.onOutputClosed() }
    let view: any PlaybackView =
      switch format {
      case .text: TextStatusView(output: output, isTerminal: isTerminal, useColor: useColor, onClosed: outputClosed)
      case .json: JSONLinesView(output: output, onClosed: outputClosed)
      }
    presenter.view = view
    presenter.interactor = interactor
    interactor.presenter = presenter
    interactor.router = router
    manager.delegate = interactor
    return PlaybackModule(view: view, presenter: presenter, router: router)
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
  private var input: Task<Void, Never>?

  init(view: any PlaybackView, presenter: PlaybackPresenter, router: PlaybackRouter) {
    self.view = view
    self.presenter = presenter
    self.router = router
  }

  /// Starts loading the media and reading commands: `scriptedInput` if given (standard input is
  /// then left alone), else standard input, line by line.
  public func start(scriptedInput: [String]? = nil) {
    presenter.onStart()
    if let scriptedInput {
      for line in scriptedInput { presenter.onInputLine(.text(line)) }
      presenter.onInputEnded()
      return
    }
    let reader = CommandReader(fileDescriptor: STDIN_FILENO)
    input = Task { [presenter] in await reader.run(forwardingTo: presenter) }
  }
}

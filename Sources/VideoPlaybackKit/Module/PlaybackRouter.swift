// PlaybackRouter: where the session goes next. On `open` and `close` it tears the playback manager
// down and asks the Builder (through `makeManager`) for a fresh one, wired to the interactor; when
// the session is over it hands the exit status and the report to the app that owns the module.

@MainActor
package final class PlaybackRouter: PlaybackRouting {
  /// Receives the reports of every manager this router makes (the interactor).
  package weak var managerDelegate: (any PlaybackManagerDelegate)?

  private let makeManager: @MainActor () -> any PlaybackManager
  private let onClose: @MainActor (Int32, SessionReport) -> Void
  private let onStartClamped: @MainActor (SessionReport.Clamp) -> Void
  private var closed = false

  package init(
    makeManager: @escaping @MainActor () -> any PlaybackManager,
    onStartClamped: @escaping @MainActor (SessionReport.Clamp) -> Void = { _ in },
    onClose: @escaping @MainActor (Int32, SessionReport) -> Void
  ) {
    self.makeManager = makeManager
    self.onStartClamped = onStartClamped
    self.onClose = onClose
  }

  package func noteStartClamped(_ clamp: SessionReport.Clamp) {
    guard !closed else { return }
    onStartClamped(clamp)
  }

  package func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)? {
    if let current {
      // Nothing the old manager still has to say may reach the session.
      current.delegate = nil
      current.shutdown()
    }
    guard wantsNew, !closed else { return nil }
    let manager = makeManager()
    manager.delegate = managerDelegate
    return manager
  }

  package func closeSession(exitCode: Int32, report: SessionReport) {
    guard !closed else { return }
    closed = true
    onClose(exitCode, report)
  }
}

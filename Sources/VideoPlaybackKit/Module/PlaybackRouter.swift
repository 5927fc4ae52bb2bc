// PlaybackRouter: where the session goes next. On `open` and `close` it tears the playback manager
// down and asks the Builder (through `makeManager`) for a fresh one, wired to the interactor; when
// the session is over it hands the exit status and the report to the app that owns the module.

@MainActor
package final class PlaybackRouter: PlaybackRouting {
  /// Receives the events of every manager this router makes, with the manager that told each (the interactor's
  /// `handle`, set by the Builder).
  package var managerEvents: (@MainActor (PlaybackManagerEvent, any PlaybackManager) -> Void)?

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
      current.onEvent = nil
      current.shutdown()
    }
    guard wantsNew, !closed else { return nil }
    let manager = makeManager()
    let managerEvents = managerEvents
    manager.onEvent = { [weak manager] event in
      if let manager { managerEvents?(event, manager) }
    }
    return manager
  }

  package func readList(_ path: String) -> [PlaylistText.Entry]? {
    PlaylistText.entriesOfListEntry(path)
  }

  package func closeSession(exitCode: Int32, report: SessionReport) {
    guard !closed else { return }
    closed = true
    onClose(exitCode, report)
  }
}

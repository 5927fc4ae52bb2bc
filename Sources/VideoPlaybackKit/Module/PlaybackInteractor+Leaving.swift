// Leaving: the session ends when its input has ended and nothing more can happen, on `quit`, on a signal, or when the
// file it started with cannot be opened; `close` tells the views why and hands the exit status to the router.

extension PlaybackInteractor {
  /// With input ended, a session that cannot move again leaves: paused, stopped at the end, idle,
  /// or on the virtual clock (where only a `wait` moves time).
  func closeIfNothingCanHappen() {
    guard leaving.inputHasEnded, queue.isEmpty, outstanding.isEmpty else { return }
    switch phase {
    case .ready where state == .paused || state == .ended || isVirtual:
      close(reason: .inputEnded, exitCode: SessionExitCode.success, commandID: nil)
    case .idle:
      close(reason: .inputEnded, exitCode: SessionExitCode.success, commandID: nil)
    default:
      break
    }
  }

  /// The file that was opening opened or failed: a quit's grace for it is over.
  func openEnded() {
    leaving.openGraceTimer?.cancel()
    leaving.openGraceTimer = nil
  }

  func close(reason: ShutdownReason, exitCode: Int32, commandID: Int?) {
    guard phase != .closed else { return }
    leaving.openGraceTimer?.cancel()
    let openInterrupted = phase == .loading
    // Closing abruptly (a signal) answers the seeks still running: none of them landed.
    for seek in outstandingSeeks where seek.id != Self.internalSeekID {
      emit(.superseded(newer: nil), answering: seek.id)
    }
    outstanding.removeAll()
    commands.requestedBeforeClamp.removeAll()
    let status = currentStatus()
    closed = true
    tallyFrameCache()
    if let kept { tallyFrameCache(of: kept.file.manager) }
    manager?.shutdown()
    kept?.file.manager.shutdown()
    dropPrepared()
    dropPlayed()
    emit(
      .shutdown(SessionShutdown(reason: reason, status: status, openInterrupted: openInterrupted)),
      answering: commandID)
    let code =
      exitCode == SessionExitCode.success && !report.failedChecks.isEmpty ? SessionExitCode.checksFailed : exitCode
    router.closeSession(exitCode: code, report: report)
  }
}

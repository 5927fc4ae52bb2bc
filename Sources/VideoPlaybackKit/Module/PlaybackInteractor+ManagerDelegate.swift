// What the playback manager reports, and what the session makes of it: ready or failed, progress, seeks, steps and
// waits finished, the end, and damage that playback survives.

extension PlaybackInteractor: PlaybackManagerDelegate {
  /// Reports from a manager that has since been replaced (by `open` or `close`) are dropped.
  func isCurrent(_ reporter: any PlaybackManager) -> Bool {
    manager.map { $0 === reporter } ?? false
  }

  package func playbackManager(_ manager: any PlaybackManager, didBecomeReady info: MediaInfo) {
    guard isCurrent(manager), phase == .loading else { return }
    var info = info
    // The session names its file as written (relative to the script's folder), not as the manager opened it.
    if let path { info.path = path }
    self.info = info
    phase = .ready
    state = .paused
    emit(.ready(info, position: manager.snapshot().position), answering: openCommandID)
    if openCommandID == nil, let start = options.start {
      let requested = start.resolved(duration: info.duration)
      let target = requested.clamped(to: info.duration)
      // Whoever ran vpk is told that the start they asked for is not where playback starts.
      if target != requested { report.startClamped = SessionReport.Clamp(requested: requested, target: target) }
      startSeek(SeekRequest(id: Self.internalSeekID, target: target, mode: options.seekMode))
    }
    if options.autoplay {
      state = .playing
      manager.play()
      presentState(commandID: nil)
    }
    drain()
  }

  package func playbackManager(_ manager: any PlaybackManager, didFailToOpen error: PlaybackError) {
    guard isCurrent(manager), phase == .loading else { return }
    let commandID = openCommandID
    let error = namingFileAsWritten(error)
    phase = .idle
    state = .idle
    info = nil
    path = nil
    openedPath = nil
    tallyFrameCache()
    self.manager = router.gotoMedia(replacing: manager, wantsNew: false)
    self.manager = nil
    if let commandID {
      // An `open` that failed leaves the session idle and usable.
      reportError(error, commandID: commandID, source: openSource)
      drain()
    } else {
      report.openFailure = error
      reportError(error, commandID: nil, source: nil)
      close(reason: .openFailed, exitCode: SessionExitCode.mediaUnreadable, commandID: nil)
    }
  }

  package func playbackManager(_ manager: any PlaybackManager, didReachProgress position: MediaTime) {
    // While a seek is pending, positions are about to be replaced: never show a pre-seek one.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    emit(
      .progress(ProgressMark(position: position, duration: info?.duration, state: state, rate: rate)), answering: nil)
  }

  package func playbackManager(_ manager: any PlaybackManager, didFinishSeek result: SeekResult) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == result.id } else { false } }
    let requested = requestedBeforeClamp.removeValue(forKey: result.id)
    if result.id != Self.internalSeekID {
      emit(
        .seeked(
          SeekOutcome(result: result, requested: requested, duration: info?.duration, showsTiming: !isVirtual)),
        answering: result.id)
    }
    drain()
  }

  package func playbackManager(_ manager: any PlaybackManager, didSupersedeSeek id: Int, by newerID: Int) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == id } else { false } }
    requestedBeforeClamp[id] = nil
    if id != Self.internalSeekID {
      emit(.superseded(newer: origin(of: newerID)), answering: id)
    }
    drain()
  }

  package func playbackManager(_ manager: any PlaybackManager, didFinishStep result: StepResult) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .step(result.id) = $0 { true } else { false } }
    emit(.stepped(result, duration: info?.duration), answering: result.id)
    drain()
  }

  package func playbackManager(_ manager: any PlaybackManager, didFinishWait result: WaitResult) {
    guard isCurrent(manager), phase == .ready else { return }
    guard
      let index = outstanding.firstIndex(where: { if case .wait(result.id, _) = $0 { true } else { false } }),
      case .wait(_, let condition) = outstanding[index]
    else { return }  // already answered by the end
    outstanding.remove(at: index)
    let source = sources.removeValue(forKey: result.id)
    switch result.outcome {
    case .satisfied:
      emit(.waited(condition, position: result.position), answering: result.id)
    case .timedOut:
      failWait(
        PlaybackError(.waitTimedOut(condition, at: result.position)), commandID: result.id, source: source)
    case .notPlaying:
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: .notMoving)), commandID: result.id, source: source)
    case .endedFirst:
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: .endedFirst(at: result.position))),
        commandID: result.id, source: source)
    case .neverInLoop:
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: .wholeLoopWithout)), commandID: result.id,
        source: source)
    }
    drain()
  }

  package func playbackManager(_ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int) {
    playbackManager(manager, didReachEnd: position, loops: loops, direction: .forward)
  }

  /// Playing backward, the end is the start; the policies at the end apply there as well (looping goes on from the
  /// end, backward).
  package func playbackManager(
    _ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int, direction: PlaybackDirection
  ) {
    // An end reached before a pending seek landed is stale: the seek moves playback away from it.
    // The engine keeps wanting to play (it stands still at the end); what follows is decided here.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    emit(
      .ended(EndReached(position: position, duration: info?.duration, loops: loops, direction: direction)),
      answering: nil)
    switch options.endAction {
    case .exit:
      state = .ended
      manager.pause()
      answerWaitsSatisfiedByEnd(position: position)
      runQueued()
      close(reason: .ended, exitCode: SessionExitCode.success, commandID: nil)
    case .pause:
      state = .ended
      manager.pause()
      answerWaitsSatisfiedByEnd(position: position)
      drain()
    case .loop:
      // The engine goes on from the start by itself, without a gap.
      answerWaitsSatisfiedByEnd(position: position)
      drain()
    }
  }

  package func playbackManager(_ manager: any PlaybackManager, didEncounter error: PlaybackError) {
    // Damage can show in the very first frame, before `ready`: report it then too.
    guard isCurrent(manager), phase == .ready || phase == .loading else { return }
    reportError(namingFileAsWritten(error), commandID: nil, source: nil)
  }
}

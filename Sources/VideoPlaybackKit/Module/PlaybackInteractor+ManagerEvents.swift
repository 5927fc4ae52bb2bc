// What the playback manager reports, and what the session makes of it: ready or failed, progress, seeks, steps and
// waits finished, the end, and damage that playback survives.

extension PlaybackInteractor {
  /// Reports from a manager that has since been replaced (by `open` or `close`) are dropped.
  func isCurrent(_ reporter: any PlaybackManager) -> Bool {
    manager.map { $0 === reporter } ?? false
  }

  /// One event of `manager`'s, on the main actor, in the order the manager told them (the router hands them here).
  package func handle(_ event: PlaybackManagerEvent, from manager: any PlaybackManager) {
    // The next entry's manager, opening ahead of its turn: held until then (`+Prefetch`).
    if hold(event, from: manager) { return }
    switch event {
    case .ready(let info): on(manager, didBecomeReady: info)
    case .failedToOpen(let error): on(manager, didFailToOpen: error)
    case .progress(let position): on(manager, didReachProgress: position)
    case .seekFinished(let result): on(manager, didFinishSeek: result)
    case .seekSuperseded(let id, let newerID): on(manager, didSupersedeSeek: id, by: newerID)
    case .stepFinished(let result): on(manager, didFinishStep: result)
    case .waitFinished(let result): on(manager, didFinishWait: result)
    case .ended(let position, let loops, let direction):
      on(manager, didReachEnd: position, loops: loops, direction: direction)
    case .problem(let error): on(manager, didEncounter: error)
    }
  }

  private func on(_ manager: any PlaybackManager, didBecomeReady info: MediaInfo) {
    guard isCurrent(manager), phase == .loading, let opening = file?.opening else { return }
    openEnded()
    dropKept()
    var info = info
    // The session names its file as written (relative to the script's folder), not as the manager opened it.
    if let path { info.path = path }
    file?.info = info
    file?.opening = nil
    if let entryID = file?.entryID {
      playlist.learnTitle(fromTags: info.details?.tags.value(for: "title"), ofID: entryID)
    }
    state = .paused
    // A start given with the command that loads the file comes first; then the session's own, for every file. Whoever
    // ran vpk is told at once that the start they asked for is not where playback starts.
    let start = (opening.start ?? options.fileStart)?.resolved(duration: info.duration)
    if opening.start == nil, let requested = start, requested.clamped(to: info.duration) != requested {
      let clamp = SessionReport.Clamp(requested: requested, target: requested.clamped(to: info.duration))
      report.startClamped = clamp
      router.noteStartClamped(clamp)
    }
    // The starting rate is told before `ready`, so a view that answers reads on its own thread has it by then. A file
    // that keeps the session's rate and has no video to play backward plays it forward.
    if opening.keepsSettings {
      let turned = rate < 0 && info.video == nil
      if turned { rate = -rate }
      if options.clock != .free {
        if rate != 1 { manager.setRate(rate) }
        if (rate != 1 && !opening.rateToldAtLoading) || turned { emit(.rate(rate), answering: nil) }
      }
    } else if options.rate != 1 && options.clock != .free {
      rate = options.rate
      manager.setRate(rate)
      emit(.rate(rate), answering: nil)
    }
    // The seek to the start is under way before `ready` goes out: a view that reads the position on its own thread
    // right after `ready` is told to wait for it, not shown the file's first frame.
    if let requested = start {
      startSeek(
        SeekRequest(id: Self.internalSeekID, target: requested.clamped(to: info.duration), mode: options.seekMode))
    }
    let startsPlaying = opening.keepsSettings ? !opensPaused : options.autoplay
    // A file that plays once it is ready is still paused as `ready` goes out: a view that reads the state on its own
    // thread right after `ready` (a client that read `playback-restart`) waits for the play instead of being told
    // paused.
    statusHeld = startsPlaying
    emit(
      .ready(info, position: manager.snapshot().position, start: start?.clamped(to: info.duration)),
      answering: opening.commandID)
    if startsPlaying {
      state = .playing
      startPlaying(manager)
    }
    statusHeld = false
    if startsPlaying { presentState(commandID: nil) }
    resumeEntryWaits(position: manager.snapshot().position)
    drain()
    prepareNextEntry()
  }

  private func on(_ manager: any PlaybackManager, didFailToOpen error: PlaybackError) {
    guard isCurrent(manager), phase == .loading, let opening = file?.opening else { return }
    openEnded()
    // A file with a pause of its own that fails to open leaves the pause it replaced, as it does when it goes; told
    // after the failure, as the pause the next file opens with.
    let replaced = file?.replaced ?? SessionSettings.Replaced()
    _ = settings.giveBackRate(replaced)
    let commandID = opening.commandID
    let error = explainingComment(
      in: opening.source, pointingListsToTheQueue(namingFileAsWritten(error), path: file?.path, entryID: file?.entryID))
    let entryID = file?.entryID
    tallyFrameCache()
    _ = router.gotoMedia(replacing: manager, wantsNew: false)
    // An `open` that failed leaves the session usable, with the file it had (or idle), as it was.
    restoreKept()
    if let entryID, playlist.isList {
      // An entry of a list is reported and skipped; its own pause and rate go with it.
      reportError(error, commandID: commandID, source: opening.source)
      giveBack(replaced, opening)
      return skipFailedEntry(entryID, failedSince: opening.failedSince)
    }
    if let commandID {
      reportError(error, commandID: commandID, source: opening.source)
      // The state the session went back to, for the views that showed the file loading.
      presentState(commandID: nil)
      giveBack(replaced, opening)
      drain()
    } else {
      report.openFailure = error
      reportError(error, commandID: nil, source: nil)
      close(reason: .openFailed, exitCode: SessionExitCode.mediaUnreadable, commandID: nil)
    }
  }

  /// The pause a file's own replaced is the session's again (with nothing else loaded), and the rate the session went
  /// back to (the one a file's own replaced, or the kept file's) is told when `loading` told another.
  private func giveBack(_ replaced: SessionSettings.Replaced, _ opening: LoadedFile.Opening) {
    if let pauseBefore = replaced.opensPaused, manager == nil {
      opensPaused = pauseBefore
      emit(.next(paused: opensPaused), answering: nil)
    }
    if rate != opening.rateAtLoading { emit(.rate(rate), answering: nil) }
  }

  /// A file not found whose line went on after a ` #`: that `#` began a comment, and the path was cut there.
  func explainingComment(in source: SourceLine?, _ error: PlaybackError) -> PlaybackError {
    guard error.code == .fileNotFound, case .message(let message) = error.detail, let text = source?.text,
      let hash = text.range(of: " #") ?? text.range(of: "\t#")
    else { return error }
    var words = text[..<hash.lowerBound].drop { $0 == " " || $0 == "\t" }
    words = words.drop { $0 != " " && $0 != "\t" }  // the verb
    let written = String(words + text[hash.lowerBound...]).trimmingSeparators()
    guard !written.hasPrefix("\"") else { return error }
    return PlaybackError(
      error.code,
      message + "; the `#` after it began a comment: put the path in double quotes, open \"\(written)\"")
  }

  private func on(_ manager: any PlaybackManager, didReachProgress position: MediaTime) {
    // While a seek is pending, positions are about to be replaced: never show a pre-seek one.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    emit(
      .progress(ProgressMark(position: position, duration: info?.duration, state: state, rate: rate)), answering: nil)
  }

  private func on(_ manager: any PlaybackManager, didFinishSeek result: SeekResult) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == result.id } else { false } }
    let requested = commands.requestedBeforeClamp.removeValue(forKey: result.id)
    if result.id != Self.internalSeekID {
      emit(
        .seeked(
          SeekOutcome(result: result, requested: requested, duration: info?.duration, showsTiming: !isVirtual)),
        answering: result.id)
    }
    drain()
  }

  private func on(_ manager: any PlaybackManager, didSupersedeSeek id: Int, by newerID: Int) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == id } else { false } }
    commands.requestedBeforeClamp[id] = nil
    if id != Self.internalSeekID {
      emit(.superseded(newer: origin(of: newerID)), answering: id)
    }
    drain()
  }

  private func on(_ manager: any PlaybackManager, didFinishStep result: StepResult) {
    guard isCurrent(manager), phase == .ready else { return }
    // A step from the end that found a frame after all (the end was not the last frame's) leaves the session paused;
    // one that found none leaves it at its end, which is told after the step (views show a step as paused).
    var stillAtEnd = false
    if let index = outstanding.firstIndex(where: { if case .step(result.id, _) = $0 { true } else { false } }),
      case .step(_, let fromEnd) = outstanding.remove(at: index), fromEnd
    {
      if result.moved != 0 { state = .paused } else { stillAtEnd = true }
    }
    emit(.stepped(result, duration: info?.duration), answering: result.id)
    if stillAtEnd { presentState(commandID: nil) }
    if let end = endAfterStep, !outstanding.contains(where: \.isStep) {
      endAfterStep = nil
      if result.moved == 0 { return reachedEnd(end, manager: manager) }
    }
    drain()
  }

  private func on(_ manager: any PlaybackManager, didFinishWait result: WaitResult) {
    guard isCurrent(manager), phase == .ready else { return }
    guard
      let index = outstanding.firstIndex(where: { if case .wait(result.id, _) = $0 { true } else { false } }),
      case .wait(_, let condition) = outstanding[index]
    else { return }  // already answered by the end
    if case .entry = condition {
      // The end of the entry playing moves the queue on (`nextEntryAfterEnd`); only a timeout ends the wait here.
      guard case .timedOut = result.outcome else { return }
    }
    outstanding.remove(at: index)
    let source = commands.waitSources.removeValue(forKey: result.id)
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

  /// Playing backward, the end is the start; the policies at the end apply there as well (looping goes on from the
  /// end, backward).
  private func on(
    _ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int, direction: PlaybackDirection
  ) {
    // An end reached before a pending seek landed is stale: the seek moves playback away from it.
    // The engine keeps wanting to play (it stands still at the end); what follows is decided here.
    // The end is also reached by a seek to the next keyframe that finds none after its target, paused or not (mpv's
    // keyframe seek forward past the last keyframe ends the file): a file that ends so while paused leaves the next
    // one paused.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    let end = EndReport(position: position, loops: loops, direction: direction)
    // A step sent behind the seek that met the end runs first: the end follows it when it found no frame (a step
    // forward there), and is void when it moved playback off the end (a step back).
    guard !outstanding.contains(where: \.isStep) else {
      endAfterStep = end
      return
    }
    reachedEnd(end, manager: manager)
  }

  /// What playback reaching the end does, as `--at-end` says.
  private func reachedEnd(_ end: EndReport, manager: any PlaybackManager) {
    let (position, loops, direction) = (end.position, end.loops, end.direction)
    let whilePaused = state != .playing
    emit(
      .ended(
        EndReached(
          position: position, duration: info?.duration, loops: loops, direction: direction,
          action: options.endAction)),
      answering: nil)
    // An entry of a list that ends gives way to the next; `--at-end` applies at the end of the list.
    if nextEntryAfterEnd(at: position) { return }
    failEntryWaits()
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
    case .idle:
      state = .ended
      manager.pause()
      answerWaitsSatisfiedByEnd(position: position)
      // The file goes: the waits its end does not satisfy never will be.
      failWaitsEndedFirst(at: position)
      unload(commandID: nil, playedToEnd: !whilePaused)
      drain()
    }
  }

  private func on(_ manager: any PlaybackManager, didEncounter error: PlaybackError) {
    // Damage can show in the very first frame, before `ready`: report it then too.
    guard isCurrent(manager), phase == .ready || phase == .loading else { return }
    reportError(namingFileAsWritten(error), commandID: nil, source: nil)
  }
}

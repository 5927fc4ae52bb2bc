// Opening and closing files: `open` keeps the file loaded while the new one opens, `close` (or `--at-end idle`) goes
// idle, and a file that goes leaves the session's settings as the rules below say. The file loaded and the one kept
// are `LoadedFile` values; the settings are `SessionSettings`.

extension PlaybackInteractor {
  func resolved(_ path: String) -> String {
    guard !path.hasPrefix("/"), let baseDirectory = setup.baseDirectory else { return path }
    return (baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/") + path
  }

  /// Opens `path`. The router asks the Builder's factory for a new manager while the current file (if any) is kept,
  /// paused; the new file's `ready` (or `error`) answers `commandID`, and decides which of the two stays.
  /// The manager opens the path resolved against the script's folder; the session names it as written.
  /// `keepingCurrent` false (`replace`): the current file is dropped first, and a failure leaves the session idle.
  /// `paused` and `fileSpeed`: the file's own settings, which the session's are given back in place of as it goes.
  /// `entryID`: the queue's entry the file plays; `failedSince`: see `LoadedFile.Opening`. `byItself`: the queue moved
  /// on with no command (an entry ended or failed to open): a prepared file is handed over at once (`handOver`).
  func load(
    _ path: String, commandID: Int?, source: SourceLine? = nil, keepingCurrent: Bool = true, start: FileStart? = nil,
    paused: Bool? = nil, rate fileSpeed: Double? = nil, entryID: Int? = nil, failedSince: Int? = nil,
    byItself: Bool = false
  ) {
    let keepsSettings = !keepingCurrent || file == nil
    var rateChanged = false
    // The queue's next entry, opened ahead of its turn, is this file's manager; any other file makes the one prepared
    // go (the user went elsewhere).
    let prepared = takePrepared(entryID: entryID, path: path)
    // The entry played before, going back to it: its manager plays it again from its start.
    let replayed = prepared == nil ? takePlayed(entryID: entryID, path: path) : nil
    // The file this one replaces, when it leaves only once the prepared one has taken over: the frame to show next
    // does not wait for the old engine to release its file.
    var replaced: LeavingFile?
    if let current = file {
      if keepingCurrent {
        if state == .playing { current.manager.pause() }
        kept = KeptFile(file: current, state: state, rate: rate)
      } else {
        rateChanged = keepSettings()
        let leaving = leavingFile(current, for: entryID)
        if prepared != nil {
          replaced = leaving
        } else {
          leave(leaving)
        }
      }
      file = nil
    }
    guard let manager = prepared?.manager ?? replayed?.manager ?? router.gotoMedia(replacing: nil, wantsNew: true)
    else {
      restoreKept()
      reportError(PlaybackError(.cannotOpenMedia), commandID: commandID, source: nil)
      if rateChanged { emit(.rate(rate), answering: nil) }
      return
    }
    var loading = LoadedFile(manager: manager, path: path, openedPath: resolved(path))
    loading.entryID = entryID
    state = .loading
    if !keepsSettings { rate = 1 }
    if rate < 0 {
      // Playing backward belongs to the file it was set for: the next one plays forward, at the same speed.
      rate = -rate
      rateChanged = true
    }
    // The file's own pause and rate, for this file only: what they replace is given back as it goes (`keepSettings`).
    loading.replaced.opensPaused = settings.setPause(ofFile: paused)
    if let fileSpeed, keepsSettings, options.clock != .free {
      let before = settings.setSpeed(ofFile: fileSpeed)
      loading.replaced.rate = before
      rateChanged = rateChanged || rate != before
    }
    let opensPlaying = keepsSettings ? !opensPaused : options.autoplay
    loading.opening = LoadedFile.Opening(
      commandID: commandID, source: source, start: start, keepsSettings: keepsSettings, rateAtLoading: rate,
      rateToldAtLoading: rateChanged, failedSince: failedSince)
    file = loading
    // It names the `open` (not answering it: its `ready` or `error` does), so a view knows which file of its own is
    // loading.
    emit(.loading(path: path, paused: !opensPlaying), answering: commandID)
    if rateChanged { emit(.rate(rate), answering: nil) }
    guard let prepared else {
      if replayed != nil, let entry = manager as? any ListEntryPlayback { return entry.reopen() }
      return manager.prepare(path: loading.openedPath, configuration: configuration(startsPlaying: opensPlaying))
    }
    handOver(prepared, replacing: replaced, now: byItself)
  }

  /// How a file of the session is to be opened: `startsPlaying`, whether it plays once ready; `opensAhead`, whether
  /// it opens ahead of its turn (the queue's next entry).
  func configuration(startsPlaying: Bool, opensAhead: Bool = false) -> PlaybackConfiguration {
    PlaybackConfiguration(
      clock: options.clock, progressInterval: options.progressInterval,
      loops: options.endAction == .loop && !playlist.isList, startsPlaying: startsPlaying,
      frameCacheBytes: options.frameCacheBytes, opensAhead: opensAhead)
  }

  /// The pause and rate the file loaded leaves to the next as it goes: paused unless it was playing, so a file kept
  /// open at its end leaves it paused; `atEnd`, a file that played to its end into idle, playing (one that reached
  /// its end paused, by a seek, is not `atEnd` here); the rate as it is.
  /// A file opened with a pause or a rate of its own leaves the one it replaced. True when that changed the rate.
  @discardableResult
  func keepSettings(leavingAtEnd atEnd: Bool = false) -> Bool {
    let replaced = file?.replaced ?? SessionSettings.Replaced()
    file?.replaced = SessionSettings.Replaced()
    return settings.fileWent(replaced: replaced, pausedAfter: !atEnd && state != .playing)
  }

  /// Goes back to the file kept when an `open` began, as it was (playing again if it played); idle when there was none.
  func restoreKept() {
    guard let kept else {
      file = nil
      state = .idle
      return
    }
    self.kept = nil
    file = kept.file
    state = kept.state
    rate = kept.rate
    if state == .playing { kept.file.manager.play() }
  }

  /// The file kept while the new one opened is done with: the router shuts its manager down.
  func dropKept() {
    guard let kept else { return }
    self.kept = nil
    tallyFrameCache(of: kept.file.manager)
    _ = router.gotoMedia(replacing: kept.file.manager, wantsNew: false)
  }

  /// Closes the file: for `close` (`commandID`), at its end with `--at-end idle` (nil, `playedToEnd` unless it
  /// reached its end paused), or when `queue remove` takes the entry playing and none follows it (nil).
  func unload(commandID: Int?, playedToEnd: Bool = false) {
    endAfterStep = nil
    // With nothing loaded (a file that failed to open, a `close` sent twice) no file leaves its settings: the next
    // file's pause and rate stay as they are.
    let rateChanged = phase == .idle ? false : keepSettings(leavingAtEnd: playedToEnd)
    tallyFrameCache()
    _ = router.gotoMedia(replacing: manager, wantsNew: false)
    dropPrepared()
    dropPlayed()
    file = nil
    state = .idle
    emit(.closed(nextPaused: opensPaused), answering: commandID)
    // The rate a file with a rate of its own replaced, after the file has gone.
    if rateChanged { emit(.rate(rate), answering: nil) }
  }
}

// The queue's next entry, opened ahead of its turn. While an entry plays, the entry that comes after it (in the
// queue's order, going round when the list loops) is opened by a manager of its own, which decodes its first frame and
// waits, paused. Its events are held (`PreparedFile.events`) and told when the entry's turn comes (on `next`, `goto`,
// `prev`, `queue remove` of the entry playing, or the end of the entry playing) on the main actor's next turn, as if
// the file had opened then: the session's events are the same as without it, and on the wall clock the entry's
// `ready` comes without an open's wait. A file that failed to open
// ahead is reported when its turn comes and skipped, as any entry that fails. An edit of the queue, or a file loaded
// that is not the prepared one, makes another entry the next: the prepared one goes and that one is opened.
//
// The manager opens it with `PlaybackConfiguration.opensAhead`, at a lower priority than the file on screen. Its
// memory (a decoder and a few frames) is spent to save an open, and only by a session that keeps a frame cache: with
// `--frame-cache 0`, nothing is opened ahead.
//
// At the end of the entry playing, the next one's clock starts from when that end was due (`ListEntryPlayback`), so
// the time taken to tell the change costs its frames nothing. And on the wall clock the entry whose turn ended stays
// open, paused (`EntryQueue.played`): going back to it, or its turn coming again, has its manager `reopen()` it at its
// start instead of opening it.

extension PlaybackInteractor {
  /// The entry to open ahead now: the one after the entry playing, once that one is ready, when the session plays a
  /// list, keeps a frame cache and has no `open` running beside it; nil otherwise (or when the next entry is the one
  /// playing, a list of one that loops).
  var entryToPrepare: PlayQueue.Entry? {
    guard playlist.isList, options.frameCacheBytes > 0, phase == .ready, kept == nil, let file,
      let next = entryIndex(after: nil)
    else { return nil }
    let entry = playlist.entries[next]
    // A list file is read at its turn, not opened ahead as a file.
    guard !entry.isListToRead else { return nil }
    return entry.id == file.entryID ? nil : entry
  }

  /// Opens the entry that comes next ahead of its turn, dropping the one prepared if another comes next now.
  func prepareNextEntry() {
    // While a prepared entry's events are told, the one after it waits until they are out (`handOver`).
    guard !entries.tellingHandOver else { return }
    let wanted = entryToPrepare
    if let prepared = entries.prepared, prepared.entryID != wanted?.id || prepared.path != wanted?.path {
      dropPrepared()
    }
    guard entries.prepared == nil, let wanted else { return }
    // The entry played before comes next again: its manager plays it again from its start, held as any prepared one.
    if let played = entries.played, played.entryID == wanted.id, played.path == wanted.path,
      let entry = played.manager as? any ListEntryPlayback
    {
      entries.played = nil
      entries.prepared = played  // `hasPlayed`: its counts are tallied if it is dropped
      return entry.reopen()
    }
    guard let manager = router.gotoMedia(replacing: nil, wantsNew: true) else { return }
    let prepared = PreparedFile(
      manager: manager, entryID: wanted.id, path: wanted.path, openedPath: resolved(wanted.path))
    entries.prepared = prepared
    manager.prepare(
      path: prepared.openedPath, configuration: configuration(startsPlaying: !opensPaused, opensAhead: true))
  }

  /// The prepared file, when it is the one `load` is loading (the entry `entryID`, at `path`), taken for it; any
  /// other file loading makes the prepared one go.
  func takePrepared(entryID: Int?, path: String) -> PreparedFile? {
    guard let prepared = entries.prepared else { return nil }
    guard prepared.entryID == entryID, prepared.path == path else {
      dropPrepared()
      return nil
    }
    entries.prepared = nil
    return prepared
  }

  /// Plays `manager`, the file loaded: from where the entry before it ended when its turn came at that end
  /// (`handOver`), else from now.
  func startPlaying(_ manager: any PlaybackManager) {
    if let time = entries.continuingFrom, let continuous = manager as? any ListEntryPlayback {
      entries.continuingFrom = nil
      continuous.play(continuingFrom: time)
    } else {
      manager.play()
    }
  }

  /// The file playing, as it leaves for the entry `entryID`: kept for going back to it when the session plays a list
  /// on the wall clock and keeps a frame cache, the file was ready and is an entry still in the queue other than the
  /// one coming, and its manager can play it again (`ListEntryPlayback`); else shut down, its frame cache's counts
  /// tallied. On the virtual and free clocks an open costs playback no time, and what a file kept would find in its
  /// cache would depend on where its engine thread had got to: their counts stay the same on every run.
  func leavingFile(_ file: LoadedFile, for entryID: Int?) -> LeavingFile {
    guard playlist.isList, options.clock == .wall, options.frameCacheBytes > 0, let playedID = file.entryID,
      playedID != entryID, playlist.entries.contains(where: { $0.id == playedID }),
      file.info != nil, file.opening == nil, file.manager is any ListEntryPlayback
    else {
      tallyFrameCache(of: file.manager)
      return LeavingFile(manager: file.manager, kept: nil)
    }
    var kept = PreparedFile(manager: file.manager, entryID: playedID, path: file.path, openedPath: file.openedPath)
    kept.hasPlayed = true
    return LeavingFile(manager: file.manager, kept: kept)
  }

  /// A file's turn is over: it is kept, paused, as the entry played (the one kept before goes), or shut down.
  func leave(_ leaving: LeavingFile) {
    guard let kept = leaving.kept, !closed else {
      // A file not kept was tallied as it left (`leavingFile`).
      if leaving.kept != nil { tallyFrameCache(of: leaving.manager) }
      _ = router.gotoMedia(replacing: leaving.manager, wantsNew: false)
      return
    }
    dropPlayed()
    leaving.manager.pause()
    entries.played = kept
  }

  /// The entry played before, when it is the one `load` is loading (the entry `entryID`, at `path`), taken for it.
  func takePlayed(entryID: Int?, path: String) -> PreparedFile? {
    guard let played = entries.played, played.entryID == entryID, played.path == path else { return nil }
    entries.played = nil
    return played
  }

  /// The entry played before goes: its frame cache's counts are tallied and the router shuts its manager down.
  func dropPlayed() {
    guard let played = entries.played else { return }
    entries.played = nil
    tallyFrameCache(of: played.manager)
    _ = router.gotoMedia(replacing: played.manager, wantsNew: false)
  }

  /// The prepared file goes: the router shuts its manager down, and nothing it told is ever told.
  func dropPrepared() {
    guard let prepared = entries.prepared else { return }
    entries.prepared = nil
    if prepared.hasPlayed { tallyFrameCache(of: prepared.manager) }
    _ = router.gotoMedia(replacing: prepared.manager, wantsNew: false)
  }

  /// Holds `event` when the prepared file's manager told it (true), for its turn, or when its turn has come and what
  /// it told before is yet to be told.
  func hold(_ event: PlaybackManagerEvent, from manager: any PlaybackManager) -> Bool {
    if entries.prepared?.manager === manager {
      entries.prepared?.events.append(event)
      return true
    }
    if entries.handingOver?.manager === manager {
      entries.handingOver?.events.append(event)
      return true
    }
    return false
  }

  /// The prepared file's turn has come (`load` made its manager the file's): what the manager told is told where a
  /// manager that opened the file now would tell it. When a command loaded it (`next`, `goto`, a `queue remove` of the
  /// entry playing), that is the main actor's next turn, so the events around it (the reply to the command, the
  /// commands after it) come in the same order as without it; when the entry playing ended (`now`), at once, so the
  /// next entry's first frame follows the end without a turn of the main actor between them. Then the file it replaced
  /// (`replaced`), kept until the new one has taken over, leaves (`leave`: kept as the entry played, or shut down), and
  /// the entry after it is opened ahead. At the end of the entry playing, the prepared file's clock starts from when that end was due, not
  /// from when the session got to it (`ListEntryPlayback`).
  /// A manager that has told nothing yet is still opening: what it tells comes as from any manager opening its file.
  func handOver(_ prepared: PreparedFile, replacing replaced: LeavingFile?, now: Bool) {
    guard !prepared.events.isEmpty else {
      if let replaced { leave(replaced) }
      return
    }
    var prepared = prepared
    if now { prepared.continuesFrom = (replaced?.manager as? any ListEntryPlayback)?.endDueTime }
    entries.handingOver = prepared
    guard !now else { return tellHandedOver(prepared.manager, replacing: replaced) }
    let manager = prepared.manager
    Task { @MainActor [weak self, router] in
      guard let self else {
        if let replaced { _ = router.gotoMedia(replacing: replaced.manager, wantsNew: false) }
        return
      }
      self.tellHandedOver(manager, replacing: replaced)
    }
  }

  /// Tells what the prepared file's `manager` told (unless another file's turn came meanwhile), lets the file it
  /// replaced leave and opens the entry after it ahead.
  private func tellHandedOver(_ manager: any PlaybackManager, replacing replaced: LeavingFile?) {
    if let handed = entries.handingOver, handed.manager === manager {
      entries.handingOver = nil
      entries.tellingHandOver = true
      entries.continuingFrom = handed.continuesFrom
      for event in handed.events { handle(event, from: manager) }
      entries.continuingFrom = nil
      entries.tellingHandOver = false
    }
    if let replaced { leave(replaced) }
    // The entry after it is opened once its first frame is told and the file it replaced is gone: neither waits for
    // the other's work.
    prepareNextEntry()
  }
}

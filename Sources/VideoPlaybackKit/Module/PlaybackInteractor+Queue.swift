// The queue's rules: which entry plays when one starts, ends or fails to open, and the commands that move through the
// list and edit it (`next`, `prev`, `goto N`, `queue …`). The list itself is a `PlayQueue` value; indexes are 1-based
// in commands and events, 0-based in the value.

extension PlaybackInteractor {
  /// Where the current entry stands in the list, for `status`, `info` and the status line: nil unless the session
  /// plays a list.
  var entryPosition: QueuePosition? {
    guard playlist.isList else { return nil }
    return QueuePosition(index: playlist.currentIndex.map { $0 + 1 }, count: playlist.count)
  }

  /// Makes the entry at `index` current and loads it, dropping the file loaded: `commandID`, the `next`, `prev` or
  /// `goto` it answers (its `ready` or `error` does, as `open`'s does), nil when the queue moves on by itself.
  /// `causedBy`: a command that made the entry start without being answered by its `ready` (`queue remove` of the
  /// entry playing), which the `entry` event names.
  func loadEntry(
    at index: Int, commandID: Int?, causedBy: Int? = nil, source: SourceLine? = nil, failedSince: Int? = nil
  ) {
    guard (try? playlist.select(index)) != nil, let entry = playlist.current else { return }
    // An entry that names a list file is read at its turn: the files it names take its place, and the first of them
    // starts. A list such a list names is not read in turn (it opens, and fails, as a file); nor is one that cannot be
    // read or names nothing (it fails as it opens, and is skipped as any entry that fails).
    if entry.isListToRead, let files = router.readList(resolved(entry.path)),
      !files.isEmpty
    {
      let list = EntryStarted(index: index + 1, count: playlist.count, id: entry.id, path: entry.path)
      let added = playlist.expand(at: index, into: files.map { ($0.path, $0.title) })
      playlist.isList = true
      emit(.expanded(list: list, firstID: added[0].id, count: added.count), answering: commandID ?? causedBy)
      return loadEntry(
        at: index, commandID: commandID, causedBy: causedBy, source: source,
        failedSince: failedSince == entry.id ? added[0].id : failedSince)
    }
    if playlist.isList {
      emit(
        .entry(EntryStarted(index: index + 1, count: playlist.count, id: entry.id, path: entry.path)),
        answering: commandID ?? causedBy)
    }
    // The entry's own options hold for its file only (see `load`).
    load(
      entry.path, commandID: commandID, source: source, keepingCurrent: false, start: entry.options.start,
      paused: entry.options.paused, rate: entry.options.rate, entryID: entry.id, failedSince: failedSince,
      byItself: commandID == nil && causedBy == nil)
  }

  /// A file named as a list (`.m3u`, `.m3u8`, `.pls`) that failed to open as media outside the queue (`open`): its
  /// error says how to play the files it names, as a queue entry, which is read as a list at its turn.
  func pointingListsToTheQueue(_ error: PlaybackError, path: String?, entryID: Int?) -> PlaybackError {
    guard entryID == nil, error.code == .notMedia, let path, PlaylistText.namesList(path),
      case .message(let text) = error.detail
    else { return error }
    return PlaybackError(error.code, text + "; to play the files a list names, add it to the queue: queue add \(path)")
  }

  /// The index of the entry after `index` (after the current one when nil), the list going round when it loops
  /// (`--loop-playlist`, or `--at-end loop`, which applies at the end of the list).
  func entryIndex(after index: Int?) -> Int? {
    var list = playlist
    list.loops = list.loops || options.endAction == .loop
    return try? list.index(after: index)
  }

  /// The entry playing ended: the next one loads, or (true) there is none and `--at-end` decides what follows.
  func nextEntryAfterEnd(at position: MediaTime) -> Bool {
    guard playlist.isList, file?.entryID != nil || playlist.currentIndex != nil,
      let next = entryIndex(after: nil)
    else { return false }
    answerWaitsSatisfiedByEnd(position: position)
    // The file goes: the waits its end does not satisfy never will be.
    failWaitsEndedFirst(at: position, keepingEntryWaits: true)
    loadEntry(at: next, commandID: nil)
    drain()
    return true
  }

  /// An entry of a list failed to open (its error is told): the next one loads, unless the list has come round to
  /// where the failures began, or has no next; then the session is idle, and ends with `--at-end exit`.
  func skipFailedEntry(_ entryID: Int, failedSince: Int?) {
    let since = failedSince ?? entryID
    if let next = entryIndex(after: playlist.index(ofID: entryID) ?? playlist.currentIndex),
      playlist.entries[next].id != since
    {
      loadEntry(at: next, commandID: nil, failedSince: since)
      return drain()
    }
    presentState(commandID: nil)
    failEntryWaits()
    if options.endAction == .exit {
      close(reason: .ended, exitCode: SessionExitCode.success, commandID: nil)
    } else {
      drain()
    }
  }

  // MARK: - Commands

  func runQueueCommand(_ numbered: NumberedCommand) {
    let id = numbered.id
    do throws(PlayQueue.Refusal) {
      switch numbered.command {
      case .next:
        loadEntry(at: try next(), commandID: id, source: numbered.source)
      case .previous:
        loadEntry(at: try playlist.indexBefore(), commandID: id, source: numbered.source)
      case .goto(let number):
        var list = playlist
        try list.select(number - 1)
        loadEntry(at: number - 1, commandID: id, source: numbered.source)
      case .queue(let edit):
        try self.edit(edit, commandID: id, source: numbered.source)
      default:
        break
      }
    } catch {
      reportError(refusalError(error, numbered.command), commandID: id, source: numbered.source)
    }
  }

  /// `next`: the entry after the current one; at the end of a list that does not loop, none.
  private func next() throws(PlayQueue.Refusal) -> Int {
    var list = playlist
    list.loops = list.loops || options.endAction == .loop
    return try list.index(after: nil)
  }

  private func edit(_ edit: QueueEdit, commandID: Int, source: SourceLine?) throws(PlayQueue.Refusal) {
    switch edit {
    case .list:
      break
    case .add(let path):
      playlist.append(path)
    case .addNext(let path):
      playlist.insertNext(path)
    case .insert(let path, let slot, let options):
      try playlist.insert(path, at: slot, options: options)
    case .remove(let number):
      let index = number - 1
      let playing = index == playlist.currentIndex && file != nil && file?.entryID == playlist.current?.id
      let following = playing ? entryIndex(after: index) : nil
      try playlist.remove(at: index)
      if playing { playOn(after: index, following: following, causedBy: commandID) }
    case .move(let from, let to):
      try playlist.move(from: from - 1, to: to - 1)
    case .clear:
      playlist.clear()
    case .shuffle:
      playlist.shuffle()
    case .unshuffle:
      playlist.unshuffle()
    case .loop(let loops):
      playlist.loops = loops
    }
    // An edit makes the session's queue a list: from now on its events name the entries.
    if edit != .list { playlist.isList = true }
    emit(.queue(queueListing), answering: commandID)
    // Another entry may come next now: the one prepared goes, and that one is opened ahead. The entry played before
    // goes once it has left the queue.
    if edit != .list {
      if let played = entries.played, !playlist.entries.contains(where: { $0.id == played.entryID }) { dropPlayed() }
      prepareNextEntry()
    }
  }

  /// The entry playing, at `index`, was removed: the one that followed it (`following`, its index before the removal)
  /// plays, as `next` would have gone; with none (the last of a list that does not loop, or the only one) the file
  /// closes and the session is idle, with the rest of the list and no current entry.
  private func playOn(after index: Int, following: Int?, causedBy commandID: Int) {
    playlist.isList = true
    guard let following, following != index else { return unload(commandID: nil) }
    loadEntry(at: following > index ? following - 1 : following, commandID: nil, causedBy: commandID)
  }

  /// The queue as `queue` lists it.
  var queueListing: QueueListing {
    QueueListing(
      entries: playlist.entries.map {
        QueueListing.Entry(id: $0.id, path: $0.path, title: $0.title, listTitle: $0.listTitle)
      },
      current: playlist.currentIndex.map { $0 + 1 })
  }

  /// A refusal as the command that met it tells it.
  private func refusalError(_ refusal: PlayQueue.Refusal, _ command: Command) -> PlaybackError {
    switch refusal {
    case .empty:
      PlaybackError(.queueEmpty, "the queue is empty; add files with queue add PATH")
    case .noSuchEntry(let index, let count):
      PlaybackError(
        .noSuchEntry,
        "\(command.verb) \(index + 1): the queue has \(count) \(count == 1 ? "entry" : "entries"), "
          + "numbered 1 to \(count)")
    case .noEntry(let after):
      PlaybackError(
        .queueEnd,
        after
          ? "there is no entry after the last; goto 1, or play with --loop-playlist"
          : "there is no entry before the first; goto N, or play with --loop-playlist")
    }
  }
}

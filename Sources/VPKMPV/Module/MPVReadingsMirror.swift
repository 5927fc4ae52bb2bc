// MPVReadingsMirror: an mpv client's mirror of the player: its MPVReadings, kept from the session's events, and the
// seeks under way (mpv's `seeking`). As an event changes the readings, it sends mpv's events for it (`start-file`,
// `file-loaded`, `seek`, `playback-restart`, `end-file`, `idle`) and has the observers told, in mpv's order.

import VideoPlaybackKit

@MainActor
final class MPVReadingsMirror {
  let replies: MPVReplyQueue
  private let observers: MPVObserverNotifier
  let commands: MPVPendingCommands
  private let publisher: MPVQuickReadsPublisher
  /// The stored properties (`volume`, `mute` …) the session's mpv clients share (this client's own when it was given
  /// none).
  private let sharedOptions: MPVSharedOptions
  /// The interactor's status, readable at once: the session's rate as a file starts loading and as it goes.
  private let statusBoard: PlaybackStatusBoard?

  /// View state: what the session's events and statuses said last, for reads, observers and the file's own
  /// properties.
  var readings = MPVReadings() { didSet { publisher.publish() } }
  /// The seeks under way: `seeking` is true while any is.
  var seeks = MPVSeeksUnderWay() { didSet { readings.seeking = seeks.any } }

  init(
    replies: MPVReplyQueue, observers: MPVObserverNotifier, commands: MPVPendingCommands,
    publisher: MPVQuickReadsPublisher, sharedOptions: MPVSharedOptions, statusBoard: PlaybackStatusBoard?,
    startsPlaying: Bool
  ) {
    self.replies = replies
    self.observers = observers
    self.commands = commands
    self.publisher = publisher
    self.sharedOptions = sharedOptions
    self.statusBoard = statusBoard
    readings.pauseOption = !startsPlaying
    readings.stored = sharedOptions.values
    // A client that connects later numbers the files as the others do, and sees the playlist's kept entry.
    readings.entryID = sharedOptions.entriesStarted
    readings.keptEntry = sharedOptions.keptEntry
  }

  /// The id of the entry that starts loading next, as the queue's `entry` said (nil: none said; the file is numbered
  /// after the last).
  private var startingEntryID: Int?
  /// The highest entry id known (listed, started or given to a `loadfile`): the queue numbers the entries it adds
  /// after it, in order.
  private var lastEntryID = 0
  /// Entries this client added that the queue has not listed yet.
  private(set) var entriesAddedUntold = 0
  /// The file playing reached its end and the queue goes on to the next entry: its `end-file` says `eof`.
  private var endedIntoNext = false

  /// mpv numbers the files it loads (`playlist_entry_id`).
  var fileNumber: Int {
    get { readings.entryID }
    set { readings.entryID = newValue }
  }

  /// Whether a file is loaded or loading.
  var hasFile: Bool { readings.info != nil || readings.loadingPath != nil }

  /// Tells each observer whose property changed (of `property`'s, when given) its new value.
  func publishChanges(of property: MPVProperty? = nil) {
    observers.publishChanges(readings, of: property)
  }

  // MARK: - The session's queue

  /// The ids the queue gives the next `count` entries added.
  func reserveEntryIDs(_ count: Int) -> [Int] {
    lastEntryID = max(lastEntryID, fileNumber)
    defer { lastEntryID += count }
    return (0..<count).map { lastEntryID + 1 + $0 }
  }

  /// This client submitted an entry's `queue insert`.
  func entryAdded() {
    entriesAddedUntold += 1
  }

  /// The queue as a `queue` command of this client's (or, through the shared options, another mpv client's) left it;
  /// `added`: the command added an entry of this client's. Observers of the playlist are told.
  func queueChanged(_ listing: QueueListing, added: Bool) {
    if added { entriesAddedUntold = max(0, entriesAddedUntold - 1) }
    lastEntryID = max(lastEntryID, listing.entries.map(\.id).max() ?? 0)
    readings.queue = listing
    // An entry this client added is about to start: its observers hear of the playlist after its `start-file`, as
    // mpv tells them.
    guard startingEntryID == nil else { return }
    publishChanges()
  }

  /// This client's `goto` is about to start the entry with `id` (which the queue's `entry` says again as it starts).
  func entryWillStart(_ id: Int) {
    startingEntryID = id
  }

  /// An entry of the queue starts loading: its file is numbered with its id. False when the queue's listing does not
  /// hold it where it is said to be (another client edited the queue): the listing is to be read again.
  func entryStarted(_ entry: EntryStarted) -> Bool {
    startingEntryID = entry.id
    lastEntryID = max(lastEntryID, entry.id)
    guard var queue = readings.queue, queue.entries.count == entry.count,
      queue.entries.indices.contains(entry.index - 1), queue.entries[entry.index - 1].id == entry.id
    else { return false }
    queue.current = entry.index
    readings.queue = queue
    return true
  }

  // MARK: - The session's events

  /// Another client's `stop` (or this one's) cleared the playlist's kept entry: its observers are not told, as mpv's
  /// are not (see `MPVObserverNotifier.keptEntryClearedUntold`).
  func keptEntryCleared() {
    guard readings.keptEntry != nil else { return }
    readings.keptEntry = nil
    observers.keptEntryClearedUntold()
    publisher.publish()
  }

  /// The stored properties changed (this client or another set one): observers are told.
  func storedOptionsChanged(_ values: MPVStoredOptions) {
    readings.stored = values
    publishChanges()
  }

  /// `paused`: whether the file opens paused, as the interactor decided; `pause` reads it while the file loads.
  /// The session's rate (from the status board) and the stored values of `origin` (the command that opens it): a
  /// file's own values, or those its own replaced, told after `start-file` in one round, as mpv sets and restores a
  /// file's options.
  func loading(_ path: String, paused: Bool, origin: CommandOrigin?) {
    readings.pauseOption = paused
    if let rate = statusBoard?.rateNow() { readings.rate = rate }
    endFileGoingToNext()
    seeks.forgetOthers()
    readings.info = nil
    readings.duration = nil
    readings.loadingPath = path
    readings.keptEntry = nil
    observers.fileAdded()
    readings.state = .loading
    fileNumber = startingEntryID ?? listedEntryStarting(path) ?? max(fileNumber, lastEntryID) + 1
    lastEntryID = max(lastEntryID, fileNumber)
    startingEntryID = nil
    replies.event("start-file", [MPVMember("playlist_entry_id", .integer(fileNumber))])
    sharedOptions.fileStarting(origin)
    readings.stored = sharedOptions.values
    publishChanges()
  }

  /// The file loaded goes as the next one comes: its `end-file` (`eof` when it played to its end).
  private func endFileGoingToNext() {
    if readings.info != nil {
      let reason = endedIntoNext ? "eof" : "stop"
      replies.event(
        "end-file", [MPVMember("reason", .string(reason)), MPVMember("playlist_entry_id", .integer(fileNumber))])
      readings.info = nil
    }
    endedIntoNext = false
  }

  /// An entry that names a list was read at its turn: mpv tells it as a file that starts and gives way to the list's
  /// entries (`end-file` with `reason: redirect`, the first new entry's id and how many there are), after the file
  /// that played before it ends; the first of them then starts as any entry does.
  func listRead(_ list: EntryStarted, firstID: Int, count: Int) {
    endFileGoingToNext()
    lastEntryID = max(lastEntryID, firstID + count - 1)
    replies.event("start-file", [MPVMember("playlist_entry_id", .integer(list.id))])
    replies.event(
      "end-file",
      [
        MPVMember("reason", .string("redirect")), MPVMember("playlist_entry_id", .integer(list.id)),
        MPVMember("playlist_insert_id", .integer(firstID)), MPVMember("playlist_insert_num_entries", .integer(count)),
      ])
  }

  /// The queue's entry for `path` when it is the session's first file, starting with no `entry` said (a session of one
  /// file), and this client read the queue before it started (it connected as the session began): numbered as the
  /// queue numbered it, not after it.
  private func listedEntryStarting(_ path: String) -> Int? {
    guard fileNumber == 0, let queue = readings.queue, queue.current == nil else { return nil }
    return queue.entries.first { $0.path == path }?.id
  }

  /// mpv's order: `file-loaded`; `seek` when the file opens at a start position (`--start`, `seeks`); `seeking` true
  /// with the file's values (position, duration …); `playback-restart`; `seeking` false.
  func ready(_ info: MediaInfo, position: MediaTime, seeks: Bool, _ commandID: Int?) {
    commands.take(commandID)
    readings.info = info
    readings.loadingPath = nil
    readings.duration = info.duration
    readings.position = position
    // A file that opens playing starts right after `ready`: `pause` does not flip on the way.
    readings.state = readings.pauseOption ? .paused : .playing
    replies.event("file-loaded")
    if seeks { replies.event("seek") }
    let seeking = readings.seeking
    readings.seeking = true
    publishChanges()
    readings.seeking = seeking
    replies.event("playback-restart")
    publishChanges()
  }

  func changed(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, _ commandID: Int?) {
    if state == .idle, readings.loadingPath != nil {
      // Another client's file failed to open (this client's own failure is told with its error, before): mpv tells
      // every client `end-file` (error) and `idle`. The error goes to the client that loaded it; when that was an mpv
      // client, it left its `file_error` with the shared options, else mpv's usual reason stands for any.
      readings.keptEntry = readings.loadingPath
      readings.loadingPath = nil
      readings.info = nil
      readings.state = .idle
      replies.event(
        "end-file",
        [
          MPVMember("reason", .string("error")), MPVMember("playlist_entry_id", .integer(fileNumber)),
          MPVMember("file_error", .string(sharedOptions.failedFileError ?? "loading failed")),
        ])
      replies.event("idle")
      readValuesAfterFile()
    }
    readings.state = state
    if state == .playing || state == .paused { readings.pauseOption = state == .paused }
    readings.position = position
    if let duration { readings.duration = duration }
    commands.settle(commandID)
    publishChanges()
  }

  func progress(_ mark: ProgressMark) {
    // This comes at every mark, to every client: the quick reads take position, state and rate from the status, so
    // they are told only of a new duration.
    let durationChanged = mark.duration != nil && mark.duration != readings.duration
    publisher.holding {
      readings.position = mark.position
      if let duration = mark.duration { readings.duration = duration }
      readings.state = mark.state
      readings.rate = mark.rate
    }
    if durationChanged { publisher.publish() }
    publishChanges()
  }

  /// The session's rate changed (`commandID`: this client's command that changed it).
  func rateChanged(_ rate: Double, _ commandID: Int?) {
    readings.rate = rate
    commands.settle(commandID)
    publishChanges()
  }

  /// Whether the next file opens paused changed.
  func nextChanged(paused: Bool, _ commandID: Int?) {
    readings.pauseOption = paused
    commands.settle(commandID)
    publishChanges()
  }

  /// The file reached its end: kept there paused (`pauses`, mpv's `--keep-open`), or looped or closed next.
  func ended(_ end: EndReached) {
    // An entry that ends gives way to the next: mpv tells its `end-file` (`eof`) as the next starts loading.
    if readings.hasNextEntry {
      endedIntoNext = true
      return
    }
    readings.position = end.position
    if let duration = end.duration { readings.duration = duration }
    // Only a file kept at its end stands there paused (mpv's `--keep-open`): one that loops plays on, and one that
    // is closed next (mpv's `--idle`) or ends the session goes without a `pause` or `eof-reached` change.
    if end.action == .pause {
      readings.state = .ended
      // mpv tells where it stopped first (`eof-reached`, the position's properties, `core-idle`), each observer in
      // the order it was added, and `pause` (the rows that change on `pauseAtEnd`) after them, as its loop pauses once
      // the end has been told.
      observers.publishChanges(readings, notOn: .pauseAtEnd)
    }
    publishChanges()
  }

  /// This client's file (`loadfile`, mpv's number `entry`, command `commandID`) failed to open: `end-file` with mpv's
  /// `fileError`, and `idle` when no file is left.
  func loadFailed(fileError: String, entry: Int, _ commandID: Int) {
    sharedOptions.forget(commands.sender(commandID))
    sharedOptions.failedFileError = fileError
    // The playlist keeps the entry of a file that failed to open, as mpv's does until a `stop`.
    if readings.info == nil { readings.keptEntry = readings.loadingPath }
    readings.loadingPath = nil
    readings.state = readings.info == nil ? .idle : readings.state
    replies.event(
      "end-file",
      [
        MPVMember("reason", .string("error")), MPVMember("playlist_entry_id", .integer(entry)),
        MPVMember("file_error", .string(fileError)),
      ])
    if readings.info == nil { replies.event("idle") }
    // The other clients tell the values back after their own `idle`, as the session goes idle.
    readValuesAfterFile()
    publishChanges()
  }

  /// The session's file, asked for by this client's first command (`learn`).
  func learned(_ info: MediaInfo, _ commandID: Int?) {
    guard case .learn = commands.take(commandID) else { return }
    readings.info = info
    readings.duration = info.duration
    if readings.state == .idle { readings.state = .paused }
    // The session's file is numbered as its queue's entry (the first when the queue was not listed).
    if fileNumber == 0 {
      let queue = readings.queue
      fileNumber =
        queue?.current.flatMap { queue?.entries.indices.contains($0 - 1) == true ? queue?.entries[$0 - 1].id : nil }
        ?? 1
    }
    sharedOptions.noteEntryNumbered(fileNumber)
  }

  /// `keepsEntry`: the playlist keeps the file's entry (it played to its end, or `stop keep-playlist` closed it).
  /// `nextPaused`: whether the next file opens paused, as the interactor decided; `pause` reads it with no file.
  func closed(_ commandID: Int?, atEnd: Bool, keepsEntry: Bool, nextPaused: Bool) {
    guard hasFile else {
      // Nothing was loaded (a `stop` that waited behind a file that then failed to open, which told its `end-file`
      // and `idle`, or one that clears the entry kept): mpv stops nothing and says nothing more, not even to the
      // playlist's observers, who hear of the playlist again when the next file is added.
      if !keepsEntry, readings.keptEntry != nil {
        readings.keptEntry = nil
        observers.keptEntryClearedUntold()
      }
      commands.settle(commandID)
      return
    }
    seeks.forgetOthers()
    let path = readings.currentPath
    readings = MPVReadings(
      rate: readings.rate, seeking: readings.seeking, stored: readings.stored, entryID: readings.entryID,
      pauseOption: nextPaused, queue: readings.queue)
    if keepsEntry { readings.keptEntry = path }
    commands.settle(commandID)
    // A file that played to its end loses its position's properties before `end-file`, as mpv's do: the position and
    // the picture's size go, and `core-idle` turns true (the rows that change on `endOfFile`). The file's own
    // (`duration`, `path` …) go after `idle`.
    if atEnd { observers.publishChanges(readings, on: .endOfFile) }
    replies.event(
      "end-file",
      [MPVMember("reason", .string(atEnd ? "eof" : "stop")), MPVMember("playlist_entry_id", .integer(fileNumber))])
    replies.event("idle")
    readValuesAfterFile()
    publishChanges()
  }

  /// After a file's `idle`: the values a file's own replaced are back (the shared options give them back once,
  /// whoever asks first), and so is the rate (the status board's), told in one round as mpv restores a file's options.
  private func readValuesAfterFile() {
    sharedOptions.restoreBeforeThisFile()
    readings.stored = sharedOptions.values
    if let rate = statusBoard?.rateNow() { readings.rate = rate }
  }

  func shutDown(_ reason: ShutdownReason, _ commandID: Int?) {
    commands.settle(commandID)
    // A file loaded, or still opening (a quit that interrupted its open), ends with the session.
    if hasFile {
      let why = reason == .ended ? "eof" : "quit"
      if reason == .ended {
        // A file that played to its end loses its position's properties before `end-file`, as when it goes idle.
        readings = MPVReadings(
          rate: readings.rate, seeking: readings.seeking, stored: readings.stored, entryID: readings.entryID,
          pauseOption: readings.pauseOption, queue: readings.queue)
        observers.publishChanges(readings, on: .endOfFile)
      }
      replies.event(
        "end-file", [MPVMember("reason", .string(why)), MPVMember("playlist_entry_id", .integer(fileNumber))])
    }
    // mpv tells its clients no `shutdown`: the connection closes after the last event.
    // Nothing is answered any more: what was held goes out before the end.
    replies.releaseAll()
    replies.view?.displayFinish()
  }
}

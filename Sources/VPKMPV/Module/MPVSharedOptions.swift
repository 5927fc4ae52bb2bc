// MPVSharedOptions: the stored mpv properties (MPVStoredOptions) of one session, shared by all its mpv clients'
// presenters. A value one client sets is handed to every presenter, which tells its observers. It also holds what
// the session's mpv clients tell alike: their `client_name`s, a failed file's `file_error`, and which `stop` keeps
// the playlist's entry.
//
// It also keeps the values a `loadfile` gives for its file only (`volume=50`): set as that file starts loading, and
// the values they replaced set back as it goes (the next file starts loading, or the session goes idle), as mpv
// backs up and restores a file's options. It hears the session's events itself (the Builder attaches it to the
// fan-out ahead of the mpv clients' presenters), so a file's values come back even when the client that gave them
// has left; the presenters, which may see an event first in their tests, ask for the same changes, made once. Each
// presenter tells its observers after its own `start-file` or `idle`.

import VideoPlaybackKit

@MainActor
package final class MPVSharedOptions: PlaybackInteractorOutput {
  private(set) var values = MPVStoredOptions()
  private struct Listener {
    weak var presenter: MPVPresenter?
  }
  private var listeners: [Listener] = []
  /// A file's own values, from the `loadfile` (its sender) that gave them until its file starts loading.
  private var waitingFiles: [(sender: CommandSender, values: [MPVProperty: MPVValue])] = []
  /// What the values of the file loading (or loaded) replaced, by property.
  private var beforeThisFile: [MPVProperty: MPVValue] = [:]
  /// The command whose file started loading last.
  private var loadingCommand: Int?
  /// How many mpv clients the session has had: the next one's `client_name` is `ipc_` and this, as mpv counts them.
  private var clientCount = 0
  /// mpv's `file_error` for the last file that failed to open, as the mpv client that loaded it was told (it hears
  /// the failure first); nil once another file starts loading, or when the loader was not an mpv client. The other
  /// clients tell the same, as mpv tells every client one `end-file`.
  var failedFileError: String?
  /// The last `stop keep-playlist` submitted: the file it closes leaves its entry in every client's playlist.
  var keepPlaylistStop: CommandSender?
  /// The entry the session's playlist keeps after its file went (`MPVReadings.keptEntry`), as the session's events
  /// have left it since the first mpv client came: what a client that connects later starts from. Each presenter
  /// keeps its own copy as the events reach it.
  private(set) var keptEntry: String?
  /// How many files the session has started loading, as its mpv clients number them (`playlist_entry_id`): the
  /// number a client that connects later starts from.
  private(set) var entriesStarted = 0
  /// The file loading, and the one loaded (which a failed `open` of vpk's dialect leaves in place).
  private var loadingPath: String?
  private var loadedPath: String?

  package init() {}

  /// The `client_name` of the session's next mpv client: `ipc_0`, `ipc_1` …
  func nextClientName() -> String {
    defer { clientCount += 1 }
    return "ipc_\(clientCount)"
  }

  /// `presenter` is handed every change from now on.
  func add(_ presenter: MPVPresenter) {
    listeners.removeAll { $0.presenter == nil }
    listeners.append(Listener(presenter: presenter))
  }

  /// Stores `value` as `property`'s and hands the values to every presenter.
  func store(_ value: MPVValue, as property: MPVProperty) {
    values.store(value, as: property)
    tellEveryone()
  }

  /// Hands the values to every presenter.
  func tellEveryone() {
    for listener in listeners { listener.presenter?.storedOptionsChanged(values) }
  }

  // MARK: - A file's own values

  /// `values` hold for the file `sender`'s command opens, from when it starts loading.
  func register(_ values: [MPVProperty: MPVValue], for sender: CommandSender) {
    guard !values.isEmpty else { return }
    waitingFiles.append((sender, values))
  }

  /// `sender`'s command opens no file (it failed before its file started loading).
  func forget(_ sender: CommandSender) {
    waitingFiles.removeAll { $0.sender == sender }
  }

  /// The file `origin` opens starts loading: the values the last file's own replaced come back, and this file's own
  /// are set. Once per file, whichever presenter asks first; silent (each presenter reads `values` after its
  /// `start-file`).
  func fileStarting(_ origin: CommandOrigin?) {
    failedFileError = nil
    guard let origin else {
      restoreBeforeThisFile()
      return
    }
    guard origin.id != loadingCommand else { return }
    loadingCommand = origin.id
    restoreBeforeThisFile()
    guard let sender = origin.sender, let index = waitingFiles.firstIndex(where: { $0.sender == sender }) else {
      return
    }
    for (property, value) in waitingFiles.remove(at: index).values {
      if beforeThisFile[property] == nil { beforeThisFile[property] = values.value(of: property) }
      values.store(value, as: property)
    }
  }

  /// The file has gone (or failed to open): the values its own replaced come back. Silent, and a no-op once done;
  /// true when it changed them.
  @discardableResult
  func restoreBeforeThisFile() -> Bool {
    guard !beforeThisFile.isEmpty else { return false }
    for (property, value) in beforeThisFile { values.store(value, as: property) }
    beforeThisFile = [:]
    return true
  }

  // MARK: - The session's events (PlaybackInteractorOutput)

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    switch event {
    case .loading(let path, _):
      fileStarting(origin)
      keptEntry = nil
      loadingPath = path
      entriesStarted += 1
    case .ready(let info, _, _):
      loadedPath = loadingPath ?? info.path
      loadingPath = nil
    // The file has gone, or failed to open (the session is idle again): each presenter tells the values after its
    // `idle`.
    case .closed:
      restoreBeforeThisFile()
      let keeps = keepsEntry(closedBy: origin)
      if let path = loadedPath ?? loadingPath {
        keptEntry = keeps ? path : nil
      } else if !keeps {
        keptEntry = nil
      }
      (loadingPath, loadedPath) = (nil, nil)
    case .state(let state, _, _) where loadingPath != nil:
      if state == .idle {
        restoreBeforeThisFile()
        // A file that failed to open, which left nothing: the playlist keeps its entry.
        keptEntry = loadingPath
        loadedPath = nil
      }
      if state != .loading { loadingPath = nil }
    case .state(.idle, _, _): restoreBeforeThisFile()
    default: break
    }
  }

  /// Whether the session's `closed` (by `origin`) leaves the file's entry in the playlist: the file played to its end
  /// (no command), or a `stop keep-playlist` closed it.
  func keepsEntry(closedBy origin: CommandOrigin?) -> Bool {
    guard let origin else { return true }
    return origin.sender != nil && origin.sender == keepPlaylistStop
  }

  /// A `stop` with nothing loaded clears the entry the playlist kept, for every client, silently (see
  /// `MPVPresenter.keptEntryCleared`).
  func clearKeptEntry() {
    keptEntry = nil
    for listener in listeners { listener.presenter?.keptEntryCleared() }
  }

  /// An mpv client's `queue` command left the queue so: the session's other mpv clients' readings take it (a queue
  /// command's listing answers only the client that sent it).
  func queueChanged(_ listing: QueueListing, by presenter: MPVPresenter) {
    for listener in listeners where listener.presenter !== presenter {
      listener.presenter?.othersQueueChanged(listing)
    }
  }

  /// A presenter numbered a file the session had opened before this one heard of it (the file the session started
  /// with): later clients start from that number.
  func noteEntryNumbered(_ number: Int) {
    entriesStarted = max(entriesStarted, number)
  }
}

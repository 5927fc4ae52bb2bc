// LoadedFile: one file of the session as a value, from the command that loads it until it goes. The interactor holds
// the file loaded (or loading) and, while an `open` runs beside it, the one it kept; keeping, restoring and dropping a
// file are swaps of these values. A `PreparedFile` is the queue's next entry opened ahead of its turn, which becomes
// the `LoadedFile` when its turn comes.

/// What a file brings to the session and what it takes away as it goes.
struct LoadedFile {
  /// Plays this file; made by the router for it, and shut down by the router as the file goes.
  let manager: any PlaybackManager
  /// The file as the session names it: as the command line or the `open` wrote it. Events show this, so a script's
  /// transcript is the same in every checkout.
  let path: String
  /// The file as the manager opens it: `path` resolved against the script's folder.
  let openedPath: String
  /// What the file holds, once it is ready (nil while it opens).
  var info: MediaInfo?
  /// How the file is being opened, until it is ready (nil after).
  var opening: Opening?
  /// The session's settings this file's own replaced, given back as it goes.
  var replaced = SessionSettings.Replaced()
  /// The id of the queue's entry this file plays (nil: a file `open` loaded beside the queue).
  var entryID: Int?

  /// The command that loads a file, and how it opens.
  struct Opening {
    /// The `open` whose `ready` or `error` answers it; nil for the command line's file.
    var commandID: Int?
    var source: SourceLine?
    /// Where the file opens, given with the command that loads it (instead of the session's start position).
    var start: FileStart?
    /// The file opens with the session's settings (it was opened with nothing loaded, or replacing the one loaded)
    /// rather than the start options'.
    var keepsSettings: Bool
    /// The rate as the file began to load: a failure to open tells the rate the session goes back to.
    var rateAtLoading: Double
    /// The rate changed as the file began to load, and was told right after its `loading`.
    var rateToldAtLoading: Bool
    /// The entry whose failure to open began the run of failures this entry is skipped to after (nil: the entry
    /// before it opened, or it was asked for): the queue stops skipping when it comes round to it again.
    var failedSince: Int? = nil
  }
}

/// The file that was loaded when an `open` began, as it was: kept (paused) until the new file is ready, then dropped,
/// or, should the new one fail to open, loaded again as it was (playing again if it played).
struct KeptFile {
  var file: LoadedFile
  let state: PlaybackState
  let rate: Double
}

/// The queue's entry after the one playing, opened ahead of its turn (`+Prefetch`): its manager opens the file while
/// the current one plays, and what the manager tells is held here until the entry's turn, when the session tells it
/// as if it had just happened. Dropped (its manager shut down by the router) when the queue or the file playing
/// changes so that another entry comes next.
struct PreparedFile {
  /// Opens the file; made by the router, shut down by the router when the prepared file is dropped.
  let manager: any PlaybackManager
  /// The queue's entry it plays.
  let entryID: Int
  /// The file as the session names it, and as the manager opens it (see `LoadedFile`).
  let path: String
  let openedPath: String
  /// What the manager has told so far (its `ready` or `failedToOpen` first), in order, held until the entry's turn.
  var events: [PlaybackManagerEvent] = []
  /// When its turn came at the end of the entry before it: when that end was due on the wall clock
  /// (`ListEntryPlayback`), for its clock to start from.
  var continuesFrom: Double?
  /// It played before (the entry played, `EntryQueue.played`, prepared again): its frame cache has counts to tally if
  /// it is dropped. The entry played itself always has.
  var hasPlayed = false
}

/// A file whose turn is over as another entry's comes: shut down, or kept as the entry played (`EntryQueue.played`).
struct LeavingFile {
  let manager: any PlaybackManager
  /// The file as kept for going back to it; nil: it is shut down.
  let kept: PreparedFile?
}

/// The files the session plays one after another, the next one, opened ahead, and the one played before.
struct EntryQueue {
  var list: PlayQueue
  var prepared: PreparedFile?
  /// The entry whose turn ended last, its manager kept, paused, with its file open and what its frame cache holds:
  /// going back to it (`prev`, `goto`, or its turn coming again) plays it from its start without opening it again.
  var played: PreparedFile?
  /// The prepared file whose turn has come, its held events told on the main actor's next turn (`handOver`).
  var handingOver: PreparedFile?
  /// The events of the prepared file whose turn has come are being told (`handOver`).
  var tellingHandOver = false
  /// While they are told: where the clock of the prepared file starts from when its `ready` makes it play (its
  /// `continuesFrom`).
  var continuingFrom: Double?
}

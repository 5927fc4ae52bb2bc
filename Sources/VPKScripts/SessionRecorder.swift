// SessionRecorder: writes what a person does in a session as a playback test script (`vpk play --record FILE`), so
// `vpk test` can replay it on the virtual clock.
//
// It is one more view of the session: attached to the fan-out as a presenter, it sees every typed event; as the
// fan-out's submission observer, it sees every command any view sends, with its line. Around each command it submits
// a `mark` of its own (invisible to the other views): the one before says where playback was when the command came,
// the one after what the command put on screen. From these it writes, in order:
//
// - `open <path>` for each file that opened (relative to the script's folder when they share a folder); a session
//   that started with a list (`vpk play A B C`, a folder, `--playlist`) queues the same files (`queue add`, `goto`),
//   and the replay moves through them as the session did: `next`, `prev`, `goto` and `queue` edits as typed (a
//   shuffle as the moves that give its order), an entry that followed another's end as `wait entry N`;
// - before each command, while playing, a `wait` for the media time that passed since the last line, rounded so the
//   replay lands on the frame that was on screen (the wall clock may have shown it late);
// - each command as it was written;
// - after each command that shows a new frame (scrub, skip, step, pause, the end) and each `mark`, the `expect` lines
//   that pin it: the position the replay will be at and the MD5 of the frame the person saw.
//
// It keeps the replay's position as the script will produce it (`here`), so the waits and the expected positions are
// the replay's own, exact on the virtual clock.

import VideoPlaybackKit

@MainActor
package final class SessionRecorder: PlaybackInteractorOutput, PlaybackSubmissionObserver {
  /// The recorder's own view: its `mark`s are sent as it, and answered only to it.
  package let viewID: ViewID
  /// Where the recorder submits its `mark`s (the fan-out's port for its view), set once by the Builder.
  package var interactor: (any PlaybackInteractorInput)?

  let output: any TextOutput
  /// The path a script in the recording's folder opens for a path as the session names it.
  let scriptPath: (String) -> String
  /// The size of the file the session names `path`, in bytes (nil: unknown).
  let fileSize: (String) -> Int?
  /// The session's rate now (its status board's).
  let rateNow: () -> Double
  /// Whether the session starts each file playing (a replay does; a recording that starts paused writes `pause`).
  let startsPlaying: Bool
  /// The session's seek mode for a `scrub` or `skip` that names none (a replay's is `exact`).
  let seekMode: SeekMode
  let version: String
  /// Client ids of commands a client sends for itself, not for the person (`vpk attach`'s markers): not recorded.
  let unrecordedClientIDs: Set<String>
  /// The files of the list the session started with, in its order: the replay queues them. Nil when the session
  /// started with one file or none, or was joined running: its entries are then recorded as the files they opened.
  let startingList: [String]?
  /// Whether that list loops (`--loop-playlist`): the replay's queue is set to loop too.
  let startingListLoops: Bool

  /// A command (or the end of the media) whose lines are written once what they need has come.
  final class Entry {
    enum Kind {
      case command(text: String, Command)
      case invalid(text: String, PlaybackError)
      /// The file the session opened by itself (the command line's).
      case initialOpen
      /// The session as the recorder found it, joining it while it ran (`vpk attach --record`).
      case joined
      case ended(EndReached)
      /// An entry of the list the replay queues started by itself: the first, the next after an end, or the one after
      /// an entry `queue remove` took away while it played.
      case entryStarted(EntryStarted, afterCommand: Bool)
    }
    let kind: Kind
    let sender: CommandSender?
    /// Every mark it asked for has been requested (the command was sent).
    var submitted = false
    var marksAwaited = 0
    var before: SessionMark?
    var after: SessionMark?
    var loadingPath: String?
    /// Whether the file opens paused, as `loading` said (a replaced file's pause, or one of its own).
    var opensPaused: Bool?
    /// The session's rate as the file was ready (its own, one the session kept, or 1).
    var opensAtRate: Double?
    /// `start`: where the session seeks the file to as it opens (its `--start`, or a start given with the open).
    var ready: (info: MediaInfo, position: MediaTime, start: MediaTime?)?
    var seeked: SeekOutcome?
    var stepped: StepResult?
    /// The error the command was answered with.
    var error: PlaybackError?
    /// The entry of the list it started (`next`, `prev`, `goto`).
    var started: EntryStarted?
    /// The list before and after it (`queue shuffle`, whose order the replay makes by moves).
    var listings: (before: QueueListing?, after: QueueListing?)
    /// An end of an entry, followed by the next entry as the list went on by itself.
    var followedByEntry = false

    init(_ kind: Kind, sender: CommandSender? = nil) {
      self.kind = kind
      self.sender = sender
    }

    var isOpen: Bool {
      switch kind {
      case .command(_, .open), .command(_, .next), .command(_, .previous), .command(_, .goto), .initialOpen,
        .entryStarted:
        true
      default: false
      }
    }

    var isComplete: Bool { submitted && marksAwaited == 0 }

    /// A file the session opened by no command's asking (the command line's, or an entry the list started).
    var opensBySelf: Bool {
      switch kind {
      case .initialOpen, .entryStarted: true
      default: false
      }
    }
  }

  var entries: [Entry] = []
  /// The recorder's own marks not yet answered: which entry asked, and whether before its command.
  var awaited: [Int: (entry: Entry, before: Bool)] = [:]
  /// The recorder's own `info` not yet answered, and the entry that asked.
  var awaitedInfo: (number: Int, entry: Entry)?
  /// The recorder's own `queue` listings not yet answered: which entry asked, and whether before its command.
  var awaitedListings: [Int: (entry: Entry, before: Bool)] = [:]
  var ownCount = 0
  var closed = false
  var wroteHeader = false

  // The replay, as the script written so far leaves it.
  /// Its position.
  var here = 0.0
  /// It stopped at an end of the media.
  var atEnd = false
  /// It is paused (a pause, a step, a file opened paused): playback cannot reach an end until a `play`.
  var paused = false
  /// The script has set a rate: from then on every open says the rate its file opened at (a replay's `open` starts a
  /// file at 1 beside another, and keeps the rate there was with none).
  var setsRate = false
  var duration: MediaTime?
  /// One frame's duration (from the frame rate), to land a wait inside the frame that was on screen.
  var frameDuration: Double?

  package init(
    viewID: ViewID, output: any TextOutput, version: String, startsPlaying: Bool,
    seekMode: SeekMode = .exact, unrecordedClientIDs: Set<String> = [], startingList: [String]? = nil,
    startingListLoops: Bool = false,
    scriptPath: @escaping (String) -> String,
    fileSize: @escaping (String) -> Int?, rateNow: @escaping () -> Double = { 1 }
  ) {
    self.rateNow = rateNow
    self.viewID = viewID
    self.output = output
    self.version = version
    self.startsPlaying = startsPlaying
    self.seekMode = seekMode
    self.unrecordedClientIDs = unrecordedClientIDs
    self.startingList = startingList
    self.startingListLoops = startingListLoops
    self.scriptPath = scriptPath
    self.fileSize = fileSize
  }

  /// Starts recording a session that is running: asks where it is (`info`, and a mark), and writes the `open`,
  /// `rate` and `scrub` that bring a replay there. Call once, after the recorder is attached.
  package func join() {
    let entry = Entry(.joined)
    entries.append(entry)
    ownCount += 1
    entry.marksAwaited += 1
    awaitedInfo = (ownCount, entry)
    interactor?.submit(.info, source: nil, from: CommandSender(view: viewID, number: ownCount))
    requestMark(for: entry, before: false)
    entry.submitted = true
    flush()
  }

  /// Writes what it has and records no more (the session ended, or the recording was stopped).
  package func finish() {
    guard !closed else { return }
    closed = true
    for entry in entries {
      entry.submitted = true
      entry.marksAwaited = 0
    }
    flush()
    if !wroteHeader { write(RecordedScriptText.header(version: version, path: nil, bytes: nil, duration: nil)) }
  }

  // MARK: - PlaybackSubmissionObserver

  package func observe(_ submission: CommandSubmission, send: () -> Int) -> Int {
    guard submission.view != viewID, !closed else { return send() }
    if case .string(let id)? = submission.sender?.clientID, unrecordedClientIDs.contains(id) { return send() }
    let text =
      submission.source?.text.trimmingSpaces ?? submission.command.map(RecordedScriptText.line(for:)) ?? ""
    guard let command = submission.command else {
      let entry = Entry(
        .invalid(text: text, submission.error ?? PlaybackError(.badInput, text)), sender: submission.sender)
      entry.submitted = true
      entries.append(entry)
      let id = send()
      flush()
      return id
    }
    // A command came after an entry's end: the list did not go on by itself.
    settleEnds()
    // `quit` ends the script where it is; a typed `wait` is replayed by the waits before the next command.
    if command == .quit { return send() }
    let entry = Entry(.command(text: namingSeekMode(text, command), command), sender: submission.sender)
    entries.append(entry)
    if case .wait = command {
      entry.submitted = true
      return send()
    }
    requestMark(for: entry, before: true)
    let shuffles = startingList != nil && command == .queue(.shuffle)
    if shuffles { requestListing(for: entry, before: true) }
    let id = send()
    if shuffles { requestListing(for: entry, before: false) }
    if Self.showsNewFrame(command) || command.isOpen { requestMark(for: entry, before: false) }
    entry.submitted = true
    flush()
    return id
  }

  /// `text` with the session's seek mode named when it is not the replay's (`--seek keyframe`) and the seek names none.
  func namingSeekMode(_ text: String, _ command: Command) -> String {
    guard seekMode != .exact, !text.hasPrefix("{") else { return text }
    switch command {
    case .scrub(_, nil), .skip(_, nil): return text + " " + seekMode.rawValue
    default: return text
    }
  }

  /// Commands after which the recorder pins the frame on screen.
  static func showsNewFrame(_ command: Command) -> Bool {
    switch command {
    case .scrub, .skip, .step, .pause, .toggle: true
    default: false
    }
  }

  /// `reserved`: the entry already counts this mark as awaited.
  func requestMark(for entry: Entry, before: Bool, reserved: Bool = false) {
    guard !closed else { return }
    ownCount += 1
    if !reserved { entry.marksAwaited += 1 }
    awaited[ownCount] = (entry, before)
    interactor?.submit(.mark, source: nil, from: CommandSender(view: viewID, number: ownCount))
  }

  /// Asks for the list as it stands (a `queue` of the recorder's own), for `entry`'s lines.
  func requestListing(for entry: Entry, before: Bool) {
    guard !closed else { return }
    ownCount += 1
    entry.marksAwaited += 1
    awaitedListings[ownCount] = (entry, before)
    interactor?.submit(.queue(.list), source: nil, from: CommandSender(view: viewID, number: ownCount))
  }

  /// The ends of entries waiting to know whether the list went on after them are written as ends.
  func settleEnds() {
    for entry in entries where !entry.submitted {
      if case .ended = entry.kind { entry.submitted = true }
    }
  }

  package func observe(reply: SessionEvent, origin: CommandOrigin?) {
    guard !closed, case .error(let error) = reply, let entry = entry(answering: origin) else { return }
    entry.error = error
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    guard !closed else { return }
    switch event {
    case .mark(let mark):
      guard let sender = origin?.sender, sender.view == viewID,
        let (entry, before) = awaited.removeValue(forKey: sender.number)
      else { break }
      if before { entry.before = mark } else { entry.after = mark }
      entry.marksAwaited -= 1
    case .info(let info) where origin?.sender?.view == viewID:
      guard let (number, entry) = awaitedInfo, origin?.sender?.number == number else { break }
      awaitedInfo = nil
      duration = info.duration
      frameDuration = info.video?.frameRate.flatMap { $0 > 0 ? 1 / $0 : nil }
      entry.loadingPath = info.path
      entry.ready = (info, .zero, nil)
      entry.marksAwaited -= 1
    case .error where origin?.sender?.view == viewID:
      // Nothing loaded: the recorder's `info` is refused.
      guard let (number, entry) = awaitedInfo, origin?.sender?.number == number else { break }
      awaitedInfo = nil
      entry.marksAwaited -= 1
    case .loading(let path, let paused):
      let entry =
        entries.first(where: { $0.isOpen && $0.loadingPath == nil && $0.ready == nil })
        ?? {
          let entry = Entry(.initialOpen)
          entries.append(entry)
          return entry
        }()
      entry.loadingPath = path
      entry.opensPaused = paused
    case .ready(let info, let position, let start):
      duration = info.duration
      frameDuration = info.video?.frameRate.flatMap { $0 > 0 ? 1 / $0 : nil }
      if let entry = entries.first(where: { $0.isOpen && $0.loadingPath != nil && $0.ready == nil }) {
        entry.ready = (info, position, start)
        entry.opensAtRate = rateNow()
        if entry.opensBySelf {
          if start != nil {
            // Where the session's own seek to `--start` (the start `ready` names) landed: the mark is sent once that
            // seek is under way (it starts after `ready`), so it is answered when it lands.
            entry.marksAwaited += 1
            Task { @MainActor [weak self] in self?.requestMark(for: entry, before: false, reserved: true) }
          }
          entry.submitted = true
        }
      }
    case .seeked(let outcome):
      entry(answering: origin)?.seeked = outcome
    case .stepped(let result, _):
      entry(answering: origin)?.stepped = result
    case .ended(let end):
      let entry = Entry(.ended(end))
      entries.append(entry)
      requestMark(for: entry, before: false)
      // In a list the replay queues, what follows an end is known from what comes next: the next entry (the list went
      // on), or anything else.
      entry.submitted = startingList == nil
    case .shutdown:
      finish()
      return
    case .entry(let started):
      entryStarted(started, origin: origin)
    case .queue(let listing) where origin?.sender?.view == viewID:
      guard let number = origin?.sender?.number, let (entry, before) = awaitedListings.removeValue(forKey: number)
      else { break }
      if before { entry.listings.before = listing } else { entry.listings.after = listing }
      entry.marksAwaited -= 1
    case .closed:
      settleEnds()
    default:
      break
    }
    flush()
  }

  /// An entry of the list started. In a list the replay queues: one a `next`, `prev` or `goto` loaded is that
  /// command's; one the list went on to by itself ends the wait for what followed an end; one that followed a
  /// `queue remove` of the entry playing is the replay's too. (In any other session its file is recorded as opened,
  /// from its `loading` and `ready`.)
  func entryStarted(_ started: EntryStarted, origin: CommandOrigin?) {
    guard startingList != nil else { return }
    if let command = entry(answering: origin), command.isOpen {
      command.started = started
      return
    }
    // The file the entry before it left: it did not open (the list skips it).
    for entry in entries where !entry.submitted {
      if case .entryStarted = entry.kind, entry.ready == nil { entry.submitted = true }
    }
    if origin == nil, let end = entries.last(where: { if case .ended = $0.kind { !$0.submitted } else { false } }) {
      end.followedByEntry = true
      end.submitted = true
    }
    entries.append(Entry(.entryStarted(started, afterCommand: origin != nil)))
  }

  func entry(answering origin: CommandOrigin?) -> Entry? {
    guard let sender = origin?.sender else { return nil }
    return entries.first { $0.sender == sender }
  }
}

extension Command {
  var isOpen: Bool {
    switch self {
    // `next`, `prev` and `goto` load an entry of the queue: they are recorded as the `open` of the file they loaded.
    case .open, .next, .previous, .goto: true
    default: false
    }
  }

  var isWait: Bool {
    if case .wait = self { true } else { false }
  }

  /// Its outcome depends on the position it starts from.
  var isRelative: Bool {
    if case .skip = self { true } else { false }
  }
}

extension String {
  var trimmingSpaces: String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return String(text)
  }
}

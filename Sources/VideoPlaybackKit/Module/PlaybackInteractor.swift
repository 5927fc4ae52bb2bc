// PlaybackInteractor: the session's business rules.
//
// - Every command gets an id (its ordinal among the commands received) and runs in order.
// - Commands that need media wait until the file is ready; `scrub 30` as the first line works.
// - Seeks are transactions: each ends in one `seeked` or `superseded` from the manager.
// - Only seeks overlap: every other command waits until the operations before it (seeks, steps,
//   waits) have finished, so it sees their outcome. Seeks that arrive together coalesce.
// - On the virtual clock nothing overlaps at all: each command finishes before the next starts, so
//   a session's transcript is the same on every run.
// - `skip` is relative to where playback will be once the pending seeks land, so skips add up.
// - Targets clamp to the media, and the answer says so: a clamped seek's `seeked` carries the time asked for. The
//   end is explicit and `--at-end` decides what follows.
// - One command, one reply: `play` at the end starts over with a seek of its own, answered by its `state` alone.
// - `wait` and `expect` make a session a test: failed checks are reported and make the exit status 1. A failed
//   `expect frame.*` keeps a PNG of the frame on screen when the options name where (`vpk test`).
// - `snapshot` names its file as written (resolved like `open`'s paths), or `<media name>-<position>.png`.
// - `open` asks the router for a fresh playback manager while the current file stays (paused while the new one opens):
//   the new file's `ready` replaces it; a failed open keeps it, its position and its state. `close` goes idle.
// - Pause and rate outlive the file, as mpv's options do: with no file loaded, `play`, `pause`, `toggle` and `rate`
//   set what the next file opens with; a file closed (or replaced) leaves them as it had them. A file opened with
//   nothing loaded, or replacing the one loaded, opens with them; `open` beside a loaded file follows the start options.
// - Every file opens at the session's start (`--start`) unless the command that loads it gives its own.
//   `loading` says whether the file opens paused and `closed` whether the next will: views show it, and decide nothing.
// - The session plays a queue of files (`+Queue`): when an entry ends the next one loads, and `--at-end` applies only
//   at the end of the list (`loop`, or `--loop-playlist`, goes back to the first entry). An entry that fails to open
//   is reported and the next one loads. `open` plays a file beside the queue, which goes on after it. While an entry
//   plays, the next one is opened ahead (`+Prefetch`), so its turn starts without an open's wait; what its manager
//   tells is held until then, so the session's events are the same as if it opened then.
//
// The session's state is values: the file loaded (`LoadedFile`, with the one kept while an `open` runs), the settings
// in their two layers (`SessionSettings`), one `PlaybackState` (the phase derives from it), and the commands queued and
// under way. This file holds that state, the commands' order and running; `+Playback` the commands that need a file,
// `+Files` open and close, `+Checks` `wait` and `expect`, `+Pictures` `snapshot` and the pictures of failed frame
// checks, `+ManagerEvents` what the engine reports, `+Leaving` how the session ends, `+Queue` the list of files played
// one after another and its commands, `+Prefetch` the next entry opened ahead of its turn.

@MainActor
package final class PlaybackInteractor: PlaybackInteractorInput {
  /// The presenter: a back-reference, held weakly (the presenter owns the interactor), set once by the Builder.
  package weak var presenter: (any PlaybackInteractorOutput)?
  /// Where the session goes next, and the one place that makes playback managers.
  let router: any PlaybackRouting

  /// What a `status` now would say, for views that read it from another thread; kept current by `publishStatus()`.
  package let statusBoard = PlaybackStatusBoard()
  let options: PlaybackOptions
  /// How the session was started, besides its options.
  let setup: Setup

  struct Setup {
    /// Relative `open` paths resolve against this folder (a script's folder); nil: the working directory.
    let baseDirectory: String?
    /// Real seconds `quit` waits for a file that is still opening before interrupting it.
    let openGrace: Double
  }

  enum Phase { case idle, loading, ready, closed }
  enum Pending {
    case command(NumberedCommand)
    case invalid(id: Int, PlaybackError, SourceLine?)

    var id: Int {
      switch self {
      case .command(let numbered): numbered.id
      case .invalid(let id, _, _): id
      }
    }
  }
  /// Work handed to the manager that has not finished yet.
  enum Operation {
    case seek(SeekRequest)
    /// `fromEnd`: a step forward from the end of a file kept open, which has no frame to go to.
    case step(id: Int, fromEnd: Bool)
    case wait(id: Int, WaitCondition)
    /// A wait with no media, timed here (wall clock only).
    case idleWait(id: Int)

    var isSeek: Bool { if case .seek = self { true } else { false } }
    var isStep: Bool { if case .step = self { true } else { false } }
  }

  /// An end the manager reported, as it reported it.
  struct EndReport {
    var position: MediaTime
    var loops: Int
    var direction: PlaybackDirection
  }

  /// Seeks the interactor starts on its own (the `--start` position) carry this id.
  static let internalSeekID = 0

  // The state a `status` reports, and what decides whether it would run at once, is published to `statusBoard` on
  // every change.
  /// The file loaded, or loading (nil: none).
  var file: LoadedFile? { didSet { publishStatus() } }
  /// The file that was loaded when an `open` began, kept until the new file is ready or fails to open.
  var kept: KeptFile?
  /// The state of playback: idle with no file, loading while the file opens, then paused, playing or ended.
  var state: PlaybackState = .idle { didSet { publishStatus() } }
  /// The session has ended: nothing runs any more.
  var closed = false { didSet { publishStatus() } }
  var settings: SessionSettings { didSet { publishStatus() } }
  /// What the status board shows is about to change (a file that plays once its `ready` is out): a `status` now waits
  /// its turn.
  var statusHeld = false { didSet { publishStatus() } }
  var queue: [Pending] = [] { didSet { publishStatus() } }
  var outstanding: [Operation] = [] { didSet { publishStatus() } }
  /// What the session keeps of each command until its reply.
  var commands = CommandLedger()
  /// An end reported while a step was outstanding (sent behind the seek that met the end): carried out once the
  /// steps are answered, if the last found no frame; dropped by a seek or a new file.
  var endAfterStep: EndReport?
  var leaving = Leaving()
  /// The last error reported, for `expect error`: its code and whether a command caused it.
  var lastError: (code: PlaybackError.Code, commandID: Int?)?
  var report = SessionReport()
  /// The process was stopped (^Z) while playing: the clock was paused, and plays again when it continues.
  var suspendedWhilePlaying = false
  /// The files the session plays one after another (`+Queue`), and the next one opened ahead of its turn
  /// (`+Prefetch`).
  var entries: EntryQueue

  /// The session's phase, from its state: idle, a file loading, a file ready (paused, playing or ended), or closed.
  var phase: Phase {
    if closed { return .closed }
    switch state {
    case .idle: return .idle
    case .loading: return .loading
    case .playing, .paused, .ended: return .ready
    }
  }
  /// The list of files; the command line's one file is a list of one.
  var playlist: PlayQueue {
    get { entries.list }
    set { entries.list = newValue }
  }
  var manager: (any PlaybackManager)? { file?.manager }
  var info: MediaInfo? { file?.info }
  var path: String? { file?.path }
  var rate: Double {
    get { settings.rate }
    set { settings.rate = newValue }
  }
  var opensPaused: Bool {
    get { settings.opensPaused }
    set { settings.opensPaused = newValue }
  }

  /// What the session keeps of each command until its reply.
  struct CommandLedger {
    /// The id the last command was given (ids count from 1; 0 is the session's own seeks').
    var lastID = 0
    /// Who sent each command still running, by id (forgotten at the command's one reply).
    var senders: [Int: CommandSender] = [:]
    /// The lines of the waits still running, to name them in a failure.
    var waitSources: [Int: SourceLine] = [:]
    /// The times asked for by seeks that clamped them to the media, by seek id, until each seek is answered.
    var requestedBeforeClamp: [Int: MediaTime] = [:]
  }

  /// What decides when the session leaves.
  struct Leaving {
    var inputHasEnded = false
    /// Whether a control-socket client ever submitted a `quit` (then `runQueued` looks for one while a file opens).
    var clientQuitQueued = false
    /// Running while a `quit` waits for the file that is opening.
    var openGraceTimer: Task<Void, Never>?
  }

  /// - Parameters:
  ///   - path: the file to open at start, nil to start idle (`vpk play --idle`, scripts).
  ///   - router: makes the playback manager for every file, and closes the session.
  ///   - openGrace: real seconds `quit` waits for a file that is still opening before interrupting it.
  package init(
    path: String?, options: PlaybackOptions, baseDirectory: String? = nil, router: any PlaybackRouting,
    openGrace: Double = 2
  ) {
    self.router = router
    self.setup = Setup(baseDirectory: baseDirectory, openGrace: openGrace)
    self.options = options
    entries = EntryQueue(list: options.playlist ?? PlayQueue(paths: path.map { [$0] } ?? []))
    settings = SessionSettings(
      opensPaused: !options.autoplay, rate: options.clock != .free ? options.rate : 1)
    publishStatus()
  }

  var isVirtual: Bool { options.clock == .virtual }

  // MARK: - PlaybackInteractorInput

  package func start() {
    guard phase == .idle, state == .idle else { return }
    if !playlist.isEmpty {
      loadEntry(at: playlist.currentIndex ?? 0, commandID: nil)
    } else {
      drain()
    }
  }

  @discardableResult package func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int {
    commands.lastID += 1
    guard phase != .closed else { return commands.lastID }
    commands.senders[commands.lastID] = sender
    if command == .quit, let view = sender?.view, view != .primary { leaving.clientQuitQueued = true }
    queue.append(.command(NumberedCommand(id: commands.lastID, command: command, source: source)))
    drain()
    return commands.lastID
  }

  @discardableResult package func submitInvalid(
    _ error: PlaybackError, source: SourceLine?, from sender: CommandSender?
  ) -> Int {
    commands.lastID += 1
    guard phase != .closed else { return commands.lastID }
    commands.senders[commands.lastID] = sender
    queue.append(.invalid(id: commands.lastID, error, source))
    drain()
    return commands.lastID
  }

  package func withdraw(_ id: Int) {
    let cancelled = PlaybackError(.cancelled, "the command was withdrawn by its sender before it was answered")
    if let index = queue.firstIndex(where: { $0.id == id }) {
      // It has not run: it never will.
      queue.remove(at: index)
      emit(.error(cancelled), answering: id)
      drain()
      return
    }
    guard
      let index = outstanding.firstIndex(where: {
        switch $0 {
        case .wait(id, _), .idleWait(id): true
        default: false
        }
      })
    else { return }
    // A wait that is running stops (on the virtual clock, time stops with it).
    outstanding.remove(at: index)
    commands.waitSources[id] = nil
    manager?.cancelWait(id: id)
    emit(.error(cancelled), answering: id)
    drain()
  }

  package func inputEnded() {
    leaving.inputHasEnded = true
    closeIfNothingCanHappen()
  }

  package func terminate(_ signal: TerminationSignal) {
    let code: Int32
    switch signal {
    case .interrupt: code = SessionExitCode.interrupted
    case .terminate: code = SessionExitCode.terminated
    case .hangUp: code = SessionExitCode.hungUp
    }
    close(reason: .signal(signal), exitCode: code, commandID: nil)
  }

  package func suspend() {
    // A wait running stays as it is: a pause would end it (playback not moving).
    guard phase == .ready, state == .playing, outstanding.isEmpty, let manager else { return }
    manager.pause()
    suspendedWhilePlaying = true
  }

  package func resumeAfterSuspend() {
    guard suspendedWhilePlaying else { return }
    suspendedWhilePlaying = false
    guard phase == .ready, state == .playing else { return }
    manager?.play()
  }

  package func outputClosed() {
    // Nobody is listening any more: stop quietly. Nothing can be shown, so nothing is presented.
    guard phase != .closed else { return }
    closed = true
    tallyFrameCache()
    if let kept { tallyFrameCache(of: kept.file.manager) }
    manager?.shutdown()
    kept?.file.manager.shutdown()
    dropPrepared()
    dropPlayed()
    router.closeSession(exitCode: SessionExitCode.success, report: report)
  }

  // MARK: - Running commands in order

  /// Runs what can run, then leaves if nothing more can happen.
  func drain() {
    runQueued()
    closeIfNothingCanHappen()
  }

  /// Runs queued commands from the front until one must wait (for the file, or for earlier work).
  func runQueued() {
    while let head = queue.first, phase != .closed, canRun(head) {
      queue.removeFirst()
      run(head)
    }
    guard phase == .loading, leaving.openGraceTimer == nil else { return }
    if case .command(let head)? = queue.first, head.command == .quit {
      waitForOpenThenQuit(head)
    } else if leaving.clientQuitQueued, let quit = queue.lazy.compactMap(clientQuit).first {
      // (searched only once a client sent a quit: a script's thousands of lines queued behind its first open are
      // not searched at every command)
      waitForOpenThenQuit(quit)
    }
  }

  /// The command of `pending` when it is a `quit` a control-socket client sent (not the session's own input: a
  /// script's or standard input's quit waits its turn, so that every command before it gets its outcome).
  private func clientQuit(_ pending: Pending) -> NumberedCommand? {
    guard case .command(let numbered) = pending, numbered.command == .quit,
      let view = commands.senders[numbered.id]?.view, view != .primary
    else { return nil }
    return numbered
  }

  /// `quit` while a file is opening, at the head of the queue or, a client's, anywhere in it: the open gets
  /// `openGrace` real seconds to finish (then its `ready` or `error` comes first, as for any command sent before
  /// `ready`); after that it is interrupted and the session ends, the shutdown saying the open was interrupted. The
  /// commands queued before a client's quit (which waited for the file) are answered `not_ready` first: a stalled
  /// source cannot keep the session. The grace is that open's: it ends with it (`openEnded`).
  func waitForOpenThenQuit(_ quit: NumberedCommand) {
    guard leaving.openGraceTimer == nil else { return }
    let grace = setup.openGrace
    leaving.openGraceTimer = Task { @MainActor [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(grace * 1e9))
      guard let self, !Task.isCancelled else { return }
      self.leaving.openGraceTimer = nil
      guard self.phase == .loading, let index = self.queue.firstIndex(where: { $0.id == quit.id }) else {
        return
      }
      for skipped in self.queue[..<index] {
        self.report.commandCount += 1
        switch skipped {
        case .command(let numbered):
          self.reportError(
            PlaybackError(.notReady, "the file was still opening when quit came; the command did not run"),
            commandID: numbered.id, source: numbered.source)
        case .invalid(let id, let error, let source):
          self.reportError(error, commandID: id, source: source)
        }
      }
      self.queue.removeFirst(index + 1)
      self.report.commandCount += 1
      // The command line's file never opened: a script must not be told it played.
      let code = self.file?.opening?.commandID == nil ? SessionExitCode.mediaUnreadable : SessionExitCode.success
      self.close(reason: .quit, exitCode: code, commandID: quit.id)
    }
  }

  func canRun(_ pending: Pending) -> Bool {
    // On the virtual clock every command waits for everything before it: same order, every run.
    if isVirtual && (!outstanding.isEmpty || phase == .loading) { return false }
    guard case .command(let numbered) = pending else { return true }
    switch numbered.command {
    // Listing the queue reads it: it runs while a file opens.
    case .help, .queue(.list): return true
    // Quit waits for the work before it, so each gets its answer, and for the file that is opening, so
    // its outcome is told (`waitForOpenThenQuit` interrupts an open that takes too long).
    case .quit: return phase != .loading && outstanding.isEmpty
    case .scrub, .skip: return phase != .loading && outstanding.allSatisfy(\.isSeek)
    default: return phase != .loading && outstanding.isEmpty
    }
  }

  func run(_ pending: Pending) {
    report.commandCount += 1
    switch pending {
    case .invalid(let id, let error, let source):
      reportError(error, commandID: id, source: source)
    case .command(let numbered):
      run(numbered)
    }
  }

  func run(_ numbered: NumberedCommand) {
    let id = numbered.id
    switch numbered.command {
    case .help: emit(.help, answering: id)
    case .quit: close(reason: .quit, exitCode: SessionExitCode.success, commandID: id)
    case .open(let path): load(path, commandID: id, source: numbered.source)
    case .close: unload(commandID: id)
    case .status: emit(.status(currentStatus()), answering: id)
    case .mark: emit(.mark(currentMark(source: numbered.source)), answering: id)
    case .wait(let condition, let timeout): wait(for: condition, timeout: timeout, numbered)
    case .expect(let expectation): check(expectation, numbered)
    case .next, .previous, .goto, .queue: runQueueCommand(numbered)
    default: runPlaybackCommand(numbered)
    }
  }

  /// Publishes to `statusBoard` what a `status` submitted now would report, and whether it would run at once: not on
  /// the virtual clock (where every command waits its turn), nothing queued or under way, no file opening, and a
  /// manager (if any) whose position can be read from another thread.
  func publishStatus() {
    let concurrentSnapshot = manager?.concurrentSnapshot()
    let runsAtOnce =
      !isVirtual && !statusHeld && phase != .loading && phase != .closed && queue.isEmpty && outstanding.isEmpty
    statusBoard.publish(
      PlaybackStatusBoard.Published(
        answersAtOnce: runsAtOnce && (manager == nil || concurrentSnapshot != nil), state: state,
        duration: info?.duration, rate: rate, opensPaused: phase == .idle ? opensPaused : nil,
        snapshot: concurrentSnapshot))
  }

  package func currentStatus() -> PlaybackStatus {
    let snapshot = manager?.snapshot() ?? PlaybackSnapshot(position: .zero, framesDecoded: 0, decodeErrors: 0)
    var status = PlaybackStatus(
      state: state, duration: info?.duration, rate: rate, snapshot: snapshot, position: outstandingSeeks.last?.target)
    status.opensPaused = phase == .idle ? opensPaused : nil
    status.entry = entryPosition
    return status
  }

  /// What `mark` reports: the status and the frame on screen, read together (no frame without video or media).
  func currentMark(source: SourceLine?) -> SessionMark {
    let status = currentStatus()
    let frame = phase == .ready && info?.video != nil ? manager?.currentFrame() : nil
    return SessionMark(state: status.state, position: status.position, rate: rate, frame: frame, source: source)
  }

  /// Adds the frame cache's lookups of a manager's media (the one loaded now, by default) to the report, before the
  /// manager goes.
  func tallyFrameCache(of media: (any PlaybackManager)? = nil) {
    guard let cache = (media ?? manager)?.snapshot().frameCache else { return }
    report.frameCacheHits += cache.hits
    report.frameCacheMisses += cache.misses
  }

  func presentState(commandID: Int?) {
    emit(.state(state, position: expectedPosition(), duration: info?.duration), answering: commandID)
  }

  func reportFrame(id: Int, info: MediaInfo, source: SourceLine?) {
    guard info.video != nil else {
      reportError(PlaybackError(.noVideoForFrame), commandID: id, source: source)
      return
    }
    guard let frame = manager?.currentFrame() else {
      reportError(PlaybackError(.noFrameYet), commandID: id, source: source)
      return
    }
    emit(.frame(frame), answering: id)
  }

  func reportError(_ error: PlaybackError, commandID: Int?, source: SourceLine?) {
    lastError = (error.code, commandID)
    if let commandID, commandID != Self.internalSeekID {
      report.commandErrors.append(
        SessionReport.Failure(commandID: commandID, source: source, error: error))
    }
    emit(.error(error), answering: commandID)
  }

  /// `error` as the session tells it: the file named as written where the manager's words name the file it opened.
  func namingFileAsWritten(_ error: PlaybackError) -> PlaybackError {
    guard let file, file.path != file.openedPath, case .message(let text) = error.detail else { return error }
    return PlaybackError(error.code, text.replacingOccurrences(of: file.openedPath, with: file.path))
  }

  /// Tells the presenter `event`, with the origin of the command it answers (`id`; nil when no command caused it). A
  /// command's sender is forgotten once its one reply is told.
  func emit(_ event: SessionEvent, answering id: Int?) {
    let origin = id.map { CommandOrigin(id: $0, sender: commands.senders[$0]) }
    if event.isReply, let id { commands.senders[id] = nil }
    presenter?.present(event, origin: origin)
  }

  /// The origin of a command still running (a newer seek that replaced an older one).
  func origin(of id: Int) -> CommandOrigin {
    CommandOrigin(id: id, sender: commands.senders[id])
  }
}

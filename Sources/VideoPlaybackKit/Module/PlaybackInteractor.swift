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
//   `unpause` (mpv's dialect) at the end stays there, as mpv's `--keep-open` does: its `state` says `ended`.
// - `wait` and `expect` make a session a test: failed checks are reported and make the exit status 1. A failed
//   `expect frame.*` keeps a PNG of the frame on screen when the options name where (`vpk test`).
// - `snapshot` names its file as written (resolved like `open`'s paths), or `<media name>-<position>.png`.
// - `open` asks the router for a fresh playback manager while the current file stays (paused while the new one opens):
//   the new file's `ready` replaces it; a failed open keeps it, its position and its state. `close` goes idle.
// - Pause and rate outlive the file, as mpv's options do: with no file loaded, `play`, `pause`, `toggle` and `rate`
//   set what the next file opens with; a file closed (or replaced) leaves them as it had them. A file opened with
//   nothing loaded, or replacing the one loaded, opens with them; `open` beside a loaded file follows the start options.
//   `loading` says whether the file opens paused and `closed` whether the next will: views show it, and decide nothing.
//
// This file holds the session's state, the commands' order and running, open/close and leaving; `+Checks` holds
// `wait` and `expect`, `+Pictures` `snapshot` and the pictures of failed frame checks, `+ManagerEvents` what the
// engine reports. It stays one piece past 400 lines because the queue, the outstanding operations and the phase are
// read by every command's rule: split further, each part would need all of them.

@MainActor
package final class PlaybackInteractor: PlaybackInteractorInput {
  /// The presenter: a back-reference, held weakly (the presenter owns the interactor), set once by the Builder.
  package weak var presenter: (any PlaybackInteractorOutput)?
  /// Where the session goes next, and the one place that makes playback managers.
  let router: any PlaybackRouting

  var manager: (any PlaybackManager)? { didSet { publishStatus() } }
  /// What a `status` now would say, for views that read it from another thread; kept current by `publishStatus()`.
  package let statusBoard = PlaybackStatusBoard()
  /// The file given when the session started (nil: start idle).
  let initialPath: String?
  let options: PlaybackOptions
  /// Relative `open` paths resolve against this folder (a script's folder); nil: the working directory.
  let baseDirectory: String?

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
  var phase: Phase = .idle { didSet { publishStatus() } }
  var info: MediaInfo? { didSet { publishStatus() } }
  /// The file as the session names it: as the command line or the `open` wrote it. Events show this, so a script's
  /// transcript is the same in every checkout.
  var path: String?
  /// The file as the manager opens it: `path` resolved against `baseDirectory`.
  var openedPath: String?
  var state: PlaybackState = .idle { didSet { publishStatus() } }
  var rate = 1.0 { didSet { publishStatus() } }
  /// Whether a file opened with nothing loaded (or replacing the one loaded) opens paused.
  var opensPaused: Bool { didSet { publishStatus() } }
  /// Whether the file loading opens with the session's pause and rate (`opensPaused`, `rate`) rather than the start
  /// options'.
  var loadKeepsSettings = false
  /// The `open` whose file is loading (its `ready` or `error` carries this id); nil for the command line's file.
  var openCommandID: Int?
  var openSource: SourceLine?
  /// Where the file loading opens, given with the command that loads it (instead of the session's start position).
  var openStart: FileStart?
  /// The pause a file opened with a pause of its own replaced (`replace … paused:`): the next file's again once it
  /// goes, whatever was done with its own.
  var pauseBeforeThisFile: Bool?
  /// The same for a rate of its own (`replace … rate:`).
  var rateBeforeThisFile: Double?
  /// The rate changed as the file loading began (its own, or the one a file with a rate of its own replaced), and
  /// was told right after its `loading`.
  var rateToldAtLoading = false
  /// What the status board shows is about to change (a file that plays once its `ready` is out): a `status` now waits
  /// its turn.
  var statusHeld = false { didSet { publishStatus() } }
  /// The rate as the file loading began: a failure to open tells the rate the session goes back to.
  var rateAtLoading = 1.0
  var lastCommandID = 0
  /// Who sent each command still running, by id (forgotten at the command's one reply).
  var senders: [Int: CommandSender] = [:]
  var queue: [Pending] = [] { didSet { publishStatus() } }
  var outstanding: [Operation] = [] { didSet { publishStatus() } }
  /// An end reported while a step was outstanding (sent behind the seek that met the end): carried out once the
  /// steps are answered, if the last found no frame; dropped by a seek or a new file.
  var endAfterStep: EndReport?
  var inputHasEnded = false
  /// The times asked for by seeks that clamped them to the media, by seek id, until each seek is answered.
  var requestedBeforeClamp: [Int: MediaTime] = [:]
  /// The last error reported, for `expect error`: its code and whether a command caused it.
  var lastError: (code: PlaybackError.Code, commandID: Int?)?
  var report = SessionReport()
  let openGrace: Double
  /// Running while a `quit` waits for the file that is opening.
  var openGraceTimer: Task<Void, Never>?
  /// Whether a control-socket client ever submitted a `quit` (then `runQueued` looks for one while a file opens).
  var clientQuitQueued = false
  /// The file that was open when an `open` began, kept until the new file is ready (then shut down) or fails to open
  /// (then the session goes on with it as it was).
  var kept: KeptMedia?
  /// The process was stopped (^Z) while playing: the clock was paused, and plays again when it continues.
  var suspendedWhilePlaying = false

  /// What the session had open, and how, when an `open` began.
  struct KeptMedia {
    let manager: any PlaybackManager
    let phase: Phase
    let state: PlaybackState
    let info: MediaInfo?
    let path: String?
    let openedPath: String?
    let rate: Double
    /// Its file's own pause and rate replaced these (`pauseBeforeThisFile`, `rateBeforeThisFile`).
    let pauseBeforeThisFile: Bool?
    let rateBeforeThisFile: Double?
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
    self.openGrace = openGrace
    self.initialPath = path
    self.options = options
    self.baseDirectory = baseDirectory
    opensPaused = !options.autoplay
    if options.clock != .free { rate = options.startRate }
    publishStatus()
  }

  var isVirtual: Bool { options.clock == .virtual }

  // MARK: - PlaybackInteractorInput

  package func start() {
    guard phase == .idle, state == .idle else { return }
    if let initialPath {
      load(initialPath, commandID: nil)
    } else {
      drain()
    }
  }

  @discardableResult package func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int {
    lastCommandID += 1
    guard phase != .closed else { return lastCommandID }
    senders[lastCommandID] = sender
    if command == .quit, let view = sender?.view, view != .primary { clientQuitQueued = true }
    queue.append(.command(NumberedCommand(id: lastCommandID, command: command, source: source)))
    drain()
    return lastCommandID
  }

  @discardableResult package func submitInvalid(
    _ error: PlaybackError, source: SourceLine?, from sender: CommandSender?
  ) -> Int {
    lastCommandID += 1
    guard phase != .closed else { return lastCommandID }
    senders[lastCommandID] = sender
    queue.append(.invalid(id: lastCommandID, error, source))
    drain()
    return lastCommandID
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
    sources[id] = nil
    manager?.cancelWait(id: id)
    emit(.error(cancelled), answering: id)
    drain()
  }

  package func inputEnded() {
    inputHasEnded = true
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
    phase = .closed
    tallyFrameCache()
    if let kept { tallyFrameCache(of: kept.manager) }
    manager?.shutdown()
    kept?.manager.shutdown()
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
    guard phase == .loading, openGraceTimer == nil else { return }
    if case .command(let head)? = queue.first, head.command == .quit {
      waitForOpenThenQuit(head)
    } else if clientQuitQueued, let quit = queue.lazy.compactMap(clientQuit).first {
      // (searched only once a client sent a quit: a script's thousands of lines queued behind its first open are
      // not searched at every command)
      waitForOpenThenQuit(quit)
    }
  }

  /// The command of `pending` when it is a `quit` a control-socket client sent (not the session's own input: a
  /// script's or standard input's quit waits its turn, so that every command before it gets its outcome).
  private func clientQuit(_ pending: Pending) -> NumberedCommand? {
    guard case .command(let numbered) = pending, numbered.command == .quit,
      let view = senders[numbered.id]?.view, view != .primary
    else { return nil }
    return numbered
  }

  /// `quit` while a file is opening, at the head of the queue or, a client's, anywhere in it: the open gets
  /// `openGrace` real seconds to finish (then its `ready` or `error` comes first, as for any command sent before
  /// `ready`); after that it is interrupted and the session ends, the shutdown saying the open was interrupted. The
  /// commands queued before a client's quit (which waited for the file) are answered `not_ready` first: a stalled
  /// source cannot keep the session. The grace is that open's: it ends with it (`openEnded`).
  func waitForOpenThenQuit(_ quit: NumberedCommand) {
    guard openGraceTimer == nil else { return }
    let grace = openGrace
    openGraceTimer = Task { @MainActor [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(grace * 1e9))
      guard let self, !Task.isCancelled else { return }
      self.openGraceTimer = nil
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
      let code = self.openCommandID == nil ? SessionExitCode.mediaUnreadable : SessionExitCode.success
      self.close(reason: .quit, exitCode: code, commandID: quit.id)
    }
  }

  func canRun(_ pending: Pending) -> Bool {
    // On the virtual clock every command waits for everything before it: same order, every run.
    if isVirtual && (!outstanding.isEmpty || phase == .loading) { return false }
    guard case .command(let numbered) = pending else { return true }
    switch numbered.command {
    case .help: return true
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
    case .replace(let path, let start, let paused, let rate):
      load(
        path, commandID: id, source: numbered.source, keepingCurrent: false, start: start, paused: paused,
        rate: rate)
    case .close: unload(commandID: id)
    case .status: emit(.status(currentStatus()), answering: id)
    case .mark: emit(.mark(currentMark(source: numbered.source)), answering: id)
    case .wait(let condition, let timeout): wait(for: condition, timeout: timeout, numbered)
    case .expect(let expectation): check(expectation, numbered)
    default: runPlaybackCommand(numbered)
    }
  }

  /// The commands that need media that opened.
  func runPlaybackCommand(_ numbered: NumberedCommand) {
    let id = numbered.id
    let command = numbered.command
    guard phase == .ready, let info, let manager else {
      if phase == .idle, setForNextFile(numbered) { return }
      reportError(
        PlaybackError(.noMedia(verb: command.verb, idle: phase == .idle)), commandID: id, source: numbered.source)
      return
    }
    switch command {
    case .play: play(id: id)
    case .unpause where state == .ended:
      // mpv's unpause at the end of a file kept open: it stays there, paused, and nothing moves.
      presentState(commandID: id)
    case .unpause: play(id: id)
    case .pause: pause(id: id)
    case .toggle: state == .playing ? pause(id: id) : play(id: id)
    case .scrub(.percent, _) where info.duration == nil:
      reportError(PlaybackError(.percentOfUnknownDuration), commandID: id, source: numbered.source)
    case .scrub(let time, let mode):
      seek(to: time.resolved(duration: info.duration), mode: mode ?? options.seekMode, id: id)
    case .skip(let delta, let mode):
      seek(to: expectedPosition() + delta, mode: mode ?? options.seekMode, id: id)
    case .step(let count):
      guard info.video != nil else {
        reportError(PlaybackError(.noVideoToStep), commandID: id, source: numbered.source)
        return
      }
      if state == .playing { manager.pause() }
      // A step forward from the end has nowhere to go: the session stays at its end (as mpv's frame-step there does
      // nothing); any other step leaves it paused.
      let fromEnd = state == .ended && count > 0
      if !fromEnd { state = .paused }
      outstanding.append(.step(id: id, fromEnd: fromEnd))
      // Told before the manager starts it: a step that lands at once is reported after.
      emit(.seekStarted(.frames(count)), answering: id)
      manager.step(StepRequest(id: id, count: count))
    case .scaleRate(let factor):
      runPlaybackCommand(NumberedCommand(id: id, command: .rate(scaledRate(by: factor)), source: numbered.source))
    case .rate(let newRate):
      guard options.clock != .free else {
        reportError(PlaybackError(.rateOnFreeClock), commandID: id, source: numbered.source)
        return
      }
      guard newRate > 0 || info.video != nil else {
        reportError(PlaybackError(.noVideoToReverse), commandID: id, source: numbered.source)
        return
      }
      rate = newRate
      manager.setRate(newRate)
      emit(.rate(newRate), answering: id)
    case .info:
      emit(.info(info), answering: id)
    case .frame:
      reportFrame(id: id, info: info, source: numbered.source)
    case .snapshot(let path):
      writeSnapshot(to: path, id: id, info: info, source: numbered.source)
    case .help, .quit, .open, .replace, .close, .status, .mark, .wait, .expect:
      break
    }
  }

  /// The rate there is scaled by `factor`: within what `rate` accepts (as mpv's speed is), in the direction there is.
  func scaledRate(by factor: Double) -> Double {
    let range = PlaybackLimits.rate
    // Rounded to a millionth, so `]` then `[` comes back to the speed there was.
    let speed = min(max((abs(rate) * factor * 1e6).rounded() / 1e6, range.lowerBound), range.upperBound)
    return rate < 0 ? -speed : speed
  }

  /// `play`, `pause`, `toggle` and `rate` with no file loaded: they set what the next file opens with (false: the
  /// command needs a file). The rate is a speed forward: whether a file can play backward is known once it opens.
  func setForNextFile(_ numbered: NumberedCommand) -> Bool {
    let id = numbered.id
    switch numbered.command {
    case .play, .unpause: opensPaused = false
    case .pause: opensPaused = true
    case .toggle: opensPaused.toggle()
    case .rate where options.clock == .free:
      reportError(PlaybackError(.rateOnFreeClock), commandID: id, source: numbered.source)
      return true
    case .rate(let newRate) where newRate > 0:
      rate = newRate
      emit(.rate(newRate), answering: id)
      return true
    case .scaleRate(let factor) where rate > 0:
      runPlaybackCommand(NumberedCommand(id: id, command: .rate(scaledRate(by: factor)), source: numbered.source))
      return true
    default: return false
    }
    emit(.next(paused: opensPaused), answering: id)
    return true
  }

  /// The pause and rate the file loaded leaves to the next as it goes: paused unless it was playing, so a file kept
  /// open at its end leaves it paused; `atEnd`, a file that played to its end into idle, playing (one that reached
  /// its end paused, by a seek, is not `atEnd` here); the rate as it is.
  /// A file opened with a pause or a rate of its own leaves the one it replaced. True when that changed the rate.
  @discardableResult
  func keepSettings(leavingAtEnd atEnd: Bool = false) -> Bool {
    opensPaused = pauseBeforeThisFile ?? (!atEnd && state != .playing)
    pauseBeforeThisFile = nil
    return restoreRateBeforeThisFile()
  }

  /// The rate a file with a rate of its own replaced is the session's again; true when that changed it.
  func restoreRateBeforeThisFile() -> Bool {
    guard let before = rateBeforeThisFile else { return false }
    rateBeforeThisFile = nil
    guard before != rate else { return false }
    rate = before
    return true
  }

  func play(id: Int) {
    if state == .ended {
      // Play at the end starts over, as a player's play button does. The seek is the interactor's own: the
      // `state` below is the play's one reply, and the commands after it wait for the seek to land. Playing
      // backward, it starts over from the last frame.
      if rate < 0, let end = info?.duration {
        startSeek(SeekRequest(id: Self.internalSeekID, target: end, mode: .exact))
      } else {
        startSeek(SeekRequest(id: Self.internalSeekID, target: .zero, mode: .keyframe))
      }
    }
    state = .playing
    manager?.play()
    presentState(commandID: id)
  }

  func pause(id: Int) {
    if state == .playing {
      state = .paused
      manager?.pause()
    }
    presentState(commandID: id)
  }

  func seek(to target: MediaTime, mode: SeekMode, id: Int) {
    let duration = info?.duration
    guard target.seconds.isFinite else {
      reportError(PlaybackError(.targetNotFinite), commandID: id, source: nil)
      return
    }
    if state == .ended { state = .paused }
    let clamped = target.clamped(to: duration)
    if clamped != target { requestedBeforeClamp[id] = target }
    startSeek(SeekRequest(id: id, target: clamped, mode: mode), announcing: target)
  }

  /// `announcing`: a command's seek, which every view hears of as it starts (`seekStarted`, with the target as it was
  /// asked for, which may lie outside the media), before the manager starts it, so a seek that lands at once is
  /// reported after.
  func startSeek(_ request: SeekRequest, announcing asked: MediaTime? = nil) {
    endAfterStep = nil
    outstanding.append(.seek(request))
    if let asked { emit(.seekStarted(.time(asked)), answering: request.id) }
    manager?.seek(request)
  }

  var outstandingSeeks: [SeekRequest] {
    outstanding.compactMap { if case .seek(let request) = $0 { request } else { nil } }
  }

  /// Where playback will be once the seeks already sent have landed.
  func expectedPosition() -> MediaTime {
    outstandingSeeks.last?.target ?? manager?.snapshot().position ?? .zero
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
    guard let path, let openedPath, path != openedPath, case .message(let text) = error.detail else { return error }
    return PlaybackError(error.code, text.replacingOccurrences(of: openedPath, with: path))
  }

  /// Tells the presenter `event`, with the origin of the command it answers (`id`; nil when no command caused it). A
  /// command's sender is forgotten once its one reply is told.
  func emit(_ event: SessionEvent, answering id: Int?) {
    let origin = id.map { CommandOrigin(id: $0, sender: senders[$0]) }
    if event.isReply, let id { senders[id] = nil }
    presenter?.present(event, origin: origin)
  }

  /// The origin of a command still running (a newer seek that replaced an older one).
  func origin(of id: Int) -> CommandOrigin {
    CommandOrigin(id: id, sender: senders[id])
  }

  /// The lines of the waits still running, to name them in a failure.
  var sources: [Int: SourceLine] = [:]

  // MARK: - Media: open and close

  func resolved(_ path: String) -> String {
    guard !path.hasPrefix("/"), let baseDirectory else { return path }
    return (baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/") + path
  }

  /// Opens `path`. The router asks the Builder's factory for a new manager while the current one (if any) is kept,
  /// paused; the new file's `ready` (or `error`) answers `commandID`, and decides which of the two stays.
  /// The manager opens the path resolved against the script's folder; the session names it as written.
  /// `keepingCurrent` false (`replace`): the current file is dropped first, and a failure leaves the session idle.
  func load(
    _ path: String, commandID: Int?, source: SourceLine? = nil, keepingCurrent: Bool = true, start: FileStart? = nil,
    paused: Bool? = nil, rate fileSpeed: Double? = nil
  ) {
    loadKeepsSettings = !keepingCurrent || manager == nil
    var rateChanged = false
    if !keepingCurrent, let current = manager {
      rateChanged = keepSettings()
      tallyFrameCache()
      manager = nil
      _ = router.gotoMedia(replacing: current, wantsNew: false)
    } else if let current = manager {
      if state == .playing { current.pause() }
      kept = KeptMedia(
        manager: current, phase: phase, state: state, info: info, path: self.path, openedPath: openedPath, rate: rate,
        pauseBeforeThisFile: pauseBeforeThisFile, rateBeforeThisFile: rateBeforeThisFile)
      pauseBeforeThisFile = nil
      rateBeforeThisFile = nil
    }
    manager = router.gotoMedia(replacing: nil, wantsNew: true)
    guard let manager else {
      restoreKept()
      reportError(PlaybackError(.cannotOpenMedia), commandID: commandID, source: nil)
      if rateChanged { emit(.rate(rate), answering: nil) }
      return
    }
    info = nil
    self.path = path
    openedPath = resolved(path)
    phase = .loading
    state = .loading
    if !loadKeepsSettings { rate = 1 }
    if rate < 0 {
      // Playing backward belongs to the file it was set for: the next one plays forward, at the same speed.
      rate = -rate
      rateChanged = true
    }
    openCommandID = commandID
    openSource = source
    openStart = start
    if let paused {
      // For this file only: the pause it replaces is the next file's again as it goes (`keepSettings`).
      pauseBeforeThisFile = opensPaused
      opensPaused = paused
    }
    if let fileSpeed, loadKeepsSettings, options.clock != .free {
      // The same for the rate: set as the file opens, before its `ready`, in the direction there is.
      rateBeforeThisFile = rate
      let fileRate = rate < 0 ? -fileSpeed : fileSpeed
      rateChanged = rateChanged || fileRate != rate
      rate = fileRate
    }
    let opensPlaying = loadKeepsSettings ? !opensPaused : options.autoplay
    // It names the `open` (not answering it: its `ready` or `error` does), so a view knows which file of its own is
    // loading.
    emit(.loading(path: path, paused: !opensPlaying), answering: commandID)
    rateAtLoading = rate
    rateToldAtLoading = rateChanged
    if rateChanged { emit(.rate(rate), answering: nil) }
    manager.prepare(
      path: resolved(path),
      configuration: PlaybackConfiguration(
        clock: options.clock, progressInterval: options.progressInterval, loops: options.endAction == .loop,
        startsPlaying: opensPlaying, frameCacheBytes: options.frameCacheBytes))
  }

  /// Goes back to the file kept when an `open` began, as it was (playing again if it played); idle when there was none.
  func restoreKept() {
    guard let kept else {
      manager = nil
      info = nil
      path = nil
      openedPath = nil
      phase = .idle
      state = .idle
      return
    }
    self.kept = nil
    manager = kept.manager
    info = kept.info
    path = kept.path
    openedPath = kept.openedPath
    phase = kept.phase
    state = kept.state
    rate = kept.rate
    pauseBeforeThisFile = kept.pauseBeforeThisFile
    rateBeforeThisFile = kept.rateBeforeThisFile
    if state == .playing { kept.manager.play() }
  }

  /// The file kept while the new one opened is done with: the router shuts its manager down.
  func dropKept() {
    guard let kept else { return }
    self.kept = nil
    tallyFrameCache(of: kept.manager)
    _ = router.gotoMedia(replacing: kept.manager, wantsNew: false)
  }

  /// Closes the file: for `close` (`commandID`), or at its end with `--at-end idle` (nil).
  /// `commandID` nil: the file played to its end (paused there when `pausedAtEnd`).
  func unload(commandID: Int?, pausedAtEnd: Bool = false) {
    endAfterStep = nil
    // With nothing loaded (a file that failed to open, a `close` sent twice) no file leaves its settings: the next
    // file's pause and rate stay as they are.
    let rateChanged =
      phase == .idle ? false : keepSettings(leavingAtEnd: commandID == nil && !pausedAtEnd)
    tallyFrameCache()
    manager = router.gotoMedia(replacing: manager, wantsNew: false)
    manager = nil
    info = nil
    path = nil
    openedPath = nil
    phase = .idle
    state = .idle
    emit(.closed(nextPaused: opensPaused), answering: commandID)
    // The rate a file with a rate of its own replaced, after the file has gone.
    if rateChanged { emit(.rate(rate), answering: nil) }
  }

  // MARK: - Leaving

  /// With input ended, a session that cannot move again leaves: paused, stopped at the end, idle,
  /// or on the virtual clock (where only a `wait` moves time).
  func closeIfNothingCanHappen() {
    guard inputHasEnded, queue.isEmpty, outstanding.isEmpty else { return }
    switch phase {
    case .ready where state == .paused || state == .ended || isVirtual:
      close(reason: .inputEnded, exitCode: SessionExitCode.success, commandID: nil)
    case .idle:
      close(reason: .inputEnded, exitCode: SessionExitCode.success, commandID: nil)
    default:
      break
    }
  }

  /// The file that was opening opened or failed: a quit's grace for it is over.
  func openEnded() {
    openGraceTimer?.cancel()
    openGraceTimer = nil
  }

  func close(reason: ShutdownReason, exitCode: Int32, commandID: Int?) {
    guard phase != .closed else { return }
    openGraceTimer?.cancel()
    let openInterrupted = phase == .loading
    // Closing abruptly (a signal) answers the seeks still running: none of them landed.
    for seek in outstandingSeeks where seek.id != Self.internalSeekID {
      emit(.superseded(newer: nil), answering: seek.id)
    }
    outstanding.removeAll()
    requestedBeforeClamp.removeAll()
    let status = currentStatus()
    phase = .closed
    tallyFrameCache()
    if let kept { tallyFrameCache(of: kept.manager) }
    manager?.shutdown()
    kept?.manager.shutdown()
    emit(
      .shutdown(SessionShutdown(reason: reason, status: status, openInterrupted: openInterrupted)),
      answering: commandID)
    let code =
      exitCode == SessionExitCode.success && !report.failedChecks.isEmpty ? SessionExitCode.checksFailed : exitCode
    router.closeSession(exitCode: code, report: report)
  }
}

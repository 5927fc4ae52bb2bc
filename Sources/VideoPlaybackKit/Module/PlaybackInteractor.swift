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
// - Targets clamp to the media; the end is explicit and `--at-end` decides what follows.
// - `wait` and `expect` make a session a test: failed checks are reported and make the exit status 1.
// - `open` and `close` ask the router for a fresh playback manager (or none): the session goes on.

@MainActor
public final class PlaybackInteractor: PlaybackInteractorInput, PlaybackManagerDelegate {
  /// The presenter: a back-reference, held weakly (the presenter owns the interactor), set once by the Builder.
  public weak var presenter: (any PlaybackInteractorOutput)?
  /// Where the session goes next, and the one place that makes playback managers.
  private let router: any PlaybackRouting

  private var manager: (any PlaybackManager)?
  /// The file given when the session started (nil: start idle).
  private let initialPath: String?
  private let options: PlaybackOptions
  /// Relative `open` paths resolve against this folder (a script's folder); nil: the working directory.
  private let baseDirectory: String?

  private enum Phase { case idle, loading, ready, closed }
  private enum Pending {
    case command(NumberedCommand)
    case invalid(id: Int, PlaybackError, SourceLine?)
  }
  /// Work handed to the manager that has not finished yet.
  private enum Operation {
    case seek(SeekRequest)
    case step(id: Int)
    case wait(id: Int, WaitCondition)
    /// A wait with no media, timed here (wall clock only).
    case idleWait(id: Int)

    var isSeek: Bool { if case .seek = self { true } else { false } }
  }

  /// Seeks the interactor starts on its own (the `--start` position) carry this id.
  private static let internalSeekID = 0

  private var phase: Phase = .idle
  private var info: MediaInfo?
  private var path: String?
  private var state: PlaybackState = .idle
  private var rate = 1.0
  /// The `open` whose file is loading (its `ready` or `error` carries this id); nil for the command line's file.
  private var openCommandID: Int?
  private var openSource: SourceLine?
  private var lastCommandID = 0
  private var queue: [Pending] = []
  private var outstanding: [Operation] = []
  private var inputHasEnded = false
  /// The last error reported, for `expect error`: its code and whether a command caused it.
  private var lastError: (code: PlaybackError.Code, commandID: Int?)?
  private var report = SessionReport()
  private let openGrace: Double
  /// Running while a `quit` waits for the file that is opening.
  private var openGraceTimer: Task<Void, Never>?

  /// - Parameters:
  ///   - path: the file to open at start, nil to start idle (`vpk play --idle`, scripts).
  ///   - router: makes the playback manager for every file, and closes the session.
  ///   - openGrace: real seconds `quit` waits for a file that is still opening before interrupting it.
  public init(
    path: String?, options: PlaybackOptions, baseDirectory: String? = nil, router: any PlaybackRouting,
    openGrace: Double = 2
  ) {
    self.router = router
    self.openGrace = openGrace
    self.initialPath = path
    self.options = options
    self.baseDirectory = baseDirectory
  }

  private var isVirtual: Bool { options.clock == .virtual }

  // MARK: - PlaybackInteractorInput

  public func start() {
    guard phase == .idle, state == .idle else { return }
    if let initialPath {
      load(initialPath, commandID: nil)
    } else {
      drain()
    }
  }

  @discardableResult public func submit(_ command: Command, source: SourceLine?) -> Int {
    lastCommandID += 1
    guard phase != .closed else { return lastCommandID }
    queue.append(.command(NumberedCommand(id: lastCommandID, command: command, source: source)))
    drain()
    return lastCommandID
  }

  @discardableResult public func submitInvalid(_ error: PlaybackError, source: SourceLine?) -> Int {
    lastCommandID += 1
    guard phase != .closed else { return lastCommandID }
    queue.append(.invalid(id: lastCommandID, error, source))
    drain()
    return lastCommandID
  }

  public func inputEnded() {
    inputHasEnded = true
    closeIfNothingCanHappen()
  }

  public func terminate(_ signal: TerminationSignal) {
    let code: Int32
    switch signal {
    case .interrupt: code = SessionExitCode.interrupted
    case .terminate: code = SessionExitCode.terminated
    case .hangUp: code = SessionExitCode.hungUp
    }
    close(reason: .signal(signal), exitCode: code, commandID: nil)
  }

  public func outputClosed() {
    // Nobody is listening any more: stop quietly. Nothing can be shown, so nothing is presented.
    guard phase != .closed else { return }
    phase = .closed
    manager?.shutdown()
    router.closeSession(exitCode: SessionExitCode.success, report: report)
  }

  // MARK: - Running commands in order

  /// Runs what can run, then leaves if nothing more can happen.
  private func drain() {
    runQueued()
    closeIfNothingCanHappen()
  }

  /// Runs queued commands from the front until one must wait (for the file, or for earlier work).
  private func runQueued() {
    while let head = queue.first, phase != .closed, canRun(head) {
      queue.removeFirst()
      run(head)
    }
    if phase == .loading, case .command(let numbered)? = queue.first, numbered.command == .quit {
      waitForOpenThenQuit(numbered)
    }
  }

  /// `quit` while the file is opening: the open gets `openGrace` real seconds to finish (then its
  /// `ready` or `error` comes first, as for any command sent before `ready`); after that it is
  /// interrupted and the session ends, the shutdown saying the open was interrupted.
  private func waitForOpenThenQuit(_ quit: NumberedCommand) {
    guard openGraceTimer == nil else { return }
    let grace = openGrace
    openGraceTimer = Task { @MainActor [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(grace * 1e9))
      guard let self, self.phase == .loading, case .command(let head)? = self.queue.first, head.id == quit.id else {
        return
      }
      self.queue.removeFirst()
      self.report.commandCount += 1
      // The command line's file never opened: a script must not be told it played.
      let code = self.openCommandID == nil ? SessionExitCode.mediaUnreadable : SessionExitCode.success
      self.close(reason: .quit, exitCode: code, commandID: quit.id)
    }
  }

  private func canRun(_ pending: Pending) -> Bool {
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

  private func run(_ pending: Pending) {
    report.commandCount += 1
    switch pending {
    case .invalid(let id, let error, let source):
      reportError(error, commandID: id, source: source)
    case .command(let numbered):
      run(numbered)
    }
  }

  private func run(_ numbered: NumberedCommand) {
    let id = numbered.id
    switch numbered.command {
    case .help: presenter?.presentHelp(commandID: id)
    case .quit: close(reason: .quit, exitCode: SessionExitCode.success, commandID: id)
    case .open(let path): load(resolved(path), commandID: id, source: numbered.source)
    case .close: unload(commandID: id)
    case .status: presenter?.presentStatus(currentStatus(), commandID: id)
    case .wait(let condition, let timeout): wait(for: condition, timeout: timeout, numbered)
    case .expect(let expectation): check(expectation, numbered)
    default: runPlaybackCommand(numbered)
    }
  }

  /// The commands that need media that opened.
  private func runPlaybackCommand(_ numbered: NumberedCommand) {
    let id = numbered.id
    let command = numbered.command
    guard phase == .ready, let info, let manager else {
      reportError(
        PlaybackError(.noMedia(verb: command.verb, idle: phase == .idle)), commandID: id, source: numbered.source)
      return
    }
    switch command {
    case .play: play(id: id)
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
      state = .paused
      outstanding.append(.step(id: id))
      manager.step(StepRequest(id: id, count: count))
    case .rate(let newRate):
      guard options.clock != .free else {
        reportError(PlaybackError(.rateOnFreeClock), commandID: id, source: numbered.source)
        return
      }
      rate = newRate
      manager.setRate(newRate)
      presenter?.presentRate(newRate, commandID: id)
    case .info:
      presenter?.presentInfo(info, commandID: id)
    case .frame:
      reportFrame(id: id, info: info, source: numbered.source)
    case .help, .quit, .open, .close, .status, .wait, .expect:
      break
    }
  }

  private func play(id: Int) {
    if state == .ended {
      // Play at the end starts over, as a player's play button does.
      startSeek(SeekRequest(id: id, target: .zero, mode: .keyframe))
    }
    state = .playing
    manager?.play()
    presentState(commandID: id)
  }

  private func pause(id: Int) {
    if state == .playing {
      state = .paused
      manager?.pause()
    }
    presentState(commandID: id)
  }

  private func seek(to target: MediaTime, mode: SeekMode, id: Int) {
    let duration = info?.duration
    guard target.seconds.isFinite else {
      reportError(PlaybackError(.targetNotFinite), commandID: id, source: nil)
      return
    }
    if state == .ended { state = .paused }
    startSeek(SeekRequest(id: id, target: target.clamped(to: duration), mode: mode))
  }

  private func startSeek(_ request: SeekRequest) {
    outstanding.append(.seek(request))
    manager?.seek(request)
  }

  private var outstandingSeeks: [SeekRequest] {
    outstanding.compactMap { if case .seek(let request) = $0 { request } else { nil } }
  }

  /// Where playback will be once the seeks already sent have landed.
  private func expectedPosition() -> MediaTime {
    outstandingSeeks.last?.target ?? manager?.snapshot().position ?? .zero
  }

  private func currentStatus() -> PlaybackStatus {
    let snapshot = manager?.snapshot() ?? PlaybackSnapshot(position: .zero, framesDecoded: 0, decodeErrors: 0)
    let position = outstandingSeeks.last?.target ?? snapshot.position
    return PlaybackStatus(
      state: state, position: position, duration: info?.duration, rate: rate,
      framesDecoded: snapshot.framesDecoded, decodeErrors: snapshot.decodeErrors, loops: snapshot.loops,
      latenessP99: snapshot.latenessP99)
  }

  private func presentState(commandID: Int?) {
    presenter?.presentState(state, position: expectedPosition(), duration: info?.duration, commandID: commandID)
  }

  private func reportFrame(id: Int, info: MediaInfo, source: SourceLine?) {
    guard info.video != nil else {
      reportError(PlaybackError(.noVideoForFrame), commandID: id, source: source)
      return
    }
    guard let frame = manager?.currentFrame() else {
      reportError(PlaybackError(.noFrameYet), commandID: id, source: source)
      return
    }
    presenter?.presentFrame(frame, commandID: id)
  }

  private func reportError(_ error: PlaybackError, commandID: Int?, source: SourceLine?) {
    lastError = (error.code, commandID)
    if let commandID, commandID != Self.internalSeekID {
      report.commandErrors.append(
        SessionReport.Failure(commandID: commandID, source: source, error: error))
    }
    presenter?.presentError(error, commandID: commandID)
  }

  /// The lines of the waits still running, to name them in a failure.
  private var sources: [Int: SourceLine] = [:]

  // MARK: - Media: open and close

  private func resolved(_ path: String) -> String {
    guard !path.hasPrefix("/"), let baseDirectory else { return path }
    return (baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/") + path
  }

  /// Opens `path`, replacing what is loaded. The router tears the old manager down and asks the
  /// Builder's factory for the new one; the new file's `ready` (or `error`) answers `commandID`.
  private func load(_ path: String, commandID: Int?, source: SourceLine? = nil) {
    manager = router.gotoMedia(replacing: manager, wantsNew: true)
    guard let manager else {
      reportError(PlaybackError(.cannotOpenMedia), commandID: commandID, source: nil)
      return
    }
    info = nil
    self.path = path
    phase = .loading
    state = .loading
    rate = 1
    openCommandID = commandID
    openSource = source
    presenter?.presentLoading(path: path)
    manager.prepare(
      path: path,
      configuration: PlaybackConfiguration(
        clock: options.clock, progressInterval: options.progressInterval, loops: options.endAction == .loop,
        startsPlaying: options.autoplay))
  }

  private func unload(commandID: Int) {
    manager = router.gotoMedia(replacing: manager, wantsNew: false)
    manager = nil
    info = nil
    path = nil
    phase = .idle
    state = .idle
    rate = 1
    presenter?.presentClosed(commandID: commandID)
  }

  // MARK: - wait

  private func wait(for condition: WaitCondition, timeout: Double?, _ numbered: NumberedCommand) {
    let id = numbered.id
    let position = expectedPosition()
    func satisfied() { presenter?.presentWaited(condition, position: position, commandID: id) }
    func impossible(_ obstacle: WaitObstacle) {
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: obstacle)), commandID: id, source: numbered.source)
    }
    guard phase == .ready, let manager else {
      if case .duration(let seconds) = condition {
        waitWithoutMedia(seconds: seconds, id: id, condition: condition)
      } else if case .seeked = condition {
        satisfied()
      } else {
        impossible(.noMedia)
      }
      return
    }
    let until: PlaybackWait.Until
    switch condition {
    case .seeked:
      satisfied()  // it ran after every earlier seek had landed
      return
    case .duration(let seconds):
      until = .elapsed(seconds)
    case .ended:
      if state == .ended { return satisfied() }
      guard state == .playing else { return impossible(.paused) }
      until = .ended
    case .paused:
      guard state == .playing else { return satisfied() }
      guard options.endAction != .loop else {
        return impossible(.loops)
      }
      until = .ended
    case .position(let spec):
      if case .percent = spec, info?.duration == nil {
        return impossible(.unknownDuration)
      }
      let target = spec.resolved(duration: info?.duration)
      if position.seconds >= target.seconds - Expectation.equalityTolerance { return satisfied() }
      guard state == .playing else { return impossible(.pausedAt(position)) }
      until = .position(target)
    }
    sources[id] = numbered.source
    outstanding.append(.wait(id: id, condition))
    manager.wait(PlaybackWait(id: id, until: until, timeout: timeout))
  }

  /// `wait <seconds>` with nothing loaded: on the wall clock real time passes; otherwise no time can.
  private func waitWithoutMedia(seconds: Double, id: Int, condition: WaitCondition) {
    guard options.clock == .wall, seconds > 0 else {
      presenter?.presentWaited(condition, position: .zero, commandID: id)
      return
    }
    outstanding.append(.idleWait(id: id))
    Task { @MainActor [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
      guard let self, self.phase != .closed else { return }
      self.outstanding.removeAll { if case .idleWait(id) = $0 { true } else { false } }
      self.presenter?.presentWaited(condition, position: .zero, commandID: id)
      self.drain()
    }
  }

  private func failWait(_ error: PlaybackError, commandID: Int, source: SourceLine?) {
    lastError = (error.code, commandID)
    report.failedChecks.append(
      SessionReport.Failure(commandID: commandID, source: source, error: error))
    presenter?.presentError(error, commandID: commandID)
  }

  /// Answers an outstanding `wait ended` / `wait paused` that the end satisfies.
  private func answerWaitsSatisfiedByEnd(position: MediaTime) {
    for operation in outstanding {
      guard case .wait(let id, let condition) = operation else { continue }
      let satisfied =
        switch condition {
        case .ended: true
        case .paused: options.endAction != .loop
        default: false
        }
      guard satisfied else { continue }
      outstanding.removeAll { if case .wait(id, _) = $0 { true } else { false } }
      sources[id] = nil
      presenter?.presentWaited(condition, position: position, commandID: id)
    }
  }

  // MARK: - expect

  private func check(_ expectation: Expectation, _ numbered: NumberedCommand) {
    report.expectCount += 1
    let actual = actualValue(of: expectation.field)
    let expected = expectation.expected.resolved(duration: info?.duration)
    let held = expectation.holds(actual: actual, expected: expected)
    if expectation.field == .error, held, let lastError, let erroredID = lastError.commandID {
      // `expect error == <code>` that holds acknowledges that error (a rejected command, a wait that
      // timed out): it was the point of the test.
      report.commandErrors.removeAll { $0.commandID == erroredID }
      report.failedChecks.removeAll { $0.commandID == erroredID && $0.code == lastError.code }
    }
    if !held {
      report.failedChecks.append(
        SessionReport.Failure(
          commandID: numbered.id, source: numbered.source,
          error: PlaybackError(.expectFailed(expectation.field, expectation.op)), expected: expected, actual: actual))
    }
    presenter?.presentExpectation(
      expectation, expected: expected, actual: actual, held: held, source: numbered.source, commandID: numbered.id)
  }

  /// What the session holds for `field` now (`none` when the media has no such thing).
  private func actualValue(of field: ExpectField) -> ExpectValue {
    func number(_ value: Double?) -> ExpectValue { value.map(ExpectValue.number) ?? .none }
    func number(_ value: Int?) -> ExpectValue { value.map { .number(Double($0)) } ?? .none }
    func string(_ value: String?) -> ExpectValue { value.map(ExpectValue.string) ?? .none }
    let status = currentStatus()
    switch field {
    case .state: return .string(status.state.rawValue)
    case .position: return .number(status.position.seconds)
    case .duration: return number(info?.duration?.seconds)
    case .rate: return .number(rate)
    case .loops: return number(status.loops)
    case .error: return string(lastError?.code.rawValue)
    case .container: return string(info?.container)
    case .path: return string(path)
    case .framesDecoded: return number(status.framesDecoded)
    case .decodeErrors: return number(status.decodeErrors)
    case .videoCodec: return string(info?.video?.codec)
    case .videoWidth: return number(info?.video?.width)
    case .videoHeight: return number(info?.video?.height)
    case .videoFPS: return number(info?.video?.frameRate)
    case .videoPixelFormat: return string(info?.video?.pixelFormat)
    case .audioCodec: return string(info?.audio?.codec)
    case .audioSampleRate: return number(info?.audio?.sampleRate)
    case .audioChannels: return number(info?.audio?.channels)
    case .framePTS, .frameTime, .frameMD5, .frameKey, .frameWidth, .frameHeight, .framePixelFormat:
      guard info?.video != nil, let frame = manager?.currentFrame() else { return .none }
      switch field {
      case .framePTS: return .number(Double(frame.pts))
      case .frameTime: return .number(frame.time.seconds)
      case .frameMD5: return .string(frame.md5)
      case .frameKey: return .bool(frame.isKeyframe)
      case .frameWidth: return .number(Double(frame.width))
      case .frameHeight: return .number(Double(frame.height))
      default: return .string(frame.pixelFormat)
      }
    }
  }

  // MARK: - Leaving

  /// With input ended, a session that cannot move again leaves: paused, stopped at the end, idle,
  /// or on the virtual clock (where only a `wait` moves time).
  private func closeIfNothingCanHappen() {
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

  private func close(reason: ShutdownReason, exitCode: Int32, commandID: Int?) {
    guard phase != .closed else { return }
    openGraceTimer?.cancel()
    let openInterrupted = phase == .loading
    // Closing abruptly (a signal) answers the seeks still running: none of them landed.
    for seek in outstandingSeeks where seek.id != Self.internalSeekID {
      presenter?.presentSuperseded(id: seek.id, by: nil)
    }
    outstanding.removeAll()
    let status = currentStatus()
    phase = .closed
    manager?.shutdown()
    presenter?.presentShutdown(reason: reason, status: status, openInterrupted: openInterrupted, commandID: commandID)
    let code =
      exitCode == SessionExitCode.success && !report.failedChecks.isEmpty ? SessionExitCode.checksFailed : exitCode
    router.closeSession(exitCode: code, report: report)
  }

  // MARK: - PlaybackManagerDelegate

  /// Reports from a manager that has since been replaced (by `open` or `close`) are dropped.
  private func isCurrent(_ reporter: any PlaybackManager) -> Bool {
    manager.map { $0 === reporter } ?? false
  }

  public func playbackManager(_ manager: any PlaybackManager, didBecomeReady info: MediaInfo) {
    guard isCurrent(manager), phase == .loading else { return }
    self.info = info
    phase = .ready
    state = .paused
    presenter?.presentReady(info, commandID: openCommandID)
    if openCommandID == nil, let start = options.start {
      startSeek(
        SeekRequest(
          id: Self.internalSeekID, target: start.resolved(duration: info.duration).clamped(to: info.duration),
          mode: options.seekMode))
    }
    if options.autoplay {
      state = .playing
      manager.play()
      presentState(commandID: nil)
    }
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didFailToOpen error: PlaybackError) {
    guard isCurrent(manager), phase == .loading else { return }
    let commandID = openCommandID
    phase = .idle
    state = .idle
    info = nil
    path = nil
    self.manager = router.gotoMedia(replacing: manager, wantsNew: false)
    self.manager = nil
    if let commandID {
      // An `open` that failed leaves the session idle and usable.
      reportError(error, commandID: commandID, source: openSource)
      drain()
    } else {
      reportError(error, commandID: nil, source: nil)
      close(reason: .openFailed, exitCode: SessionExitCode.mediaUnreadable, commandID: nil)
    }
  }

  public func playbackManager(_ manager: any PlaybackManager, didReachProgress position: MediaTime) {
    // While a seek is pending, positions are about to be replaced: never show a pre-seek one.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    presenter?.presentProgress(position: position, duration: info?.duration, state: state, rate: rate)
  }

  public func playbackManager(_ manager: any PlaybackManager, didFinishSeek result: SeekResult) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == result.id } else { false } }
    if result.id != Self.internalSeekID {
      presenter?.presentSeeked(result, duration: info?.duration, showsTiming: !isVirtual)
    }
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didSupersedeSeek id: Int, by newerID: Int) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .seek(let request) = $0 { request.id == id } else { false } }
    if id != Self.internalSeekID {
      presenter?.presentSuperseded(id: id, by: newerID)
    }
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didFinishStep result: StepResult) {
    guard isCurrent(manager), phase == .ready else { return }
    outstanding.removeAll { if case .step(result.id) = $0 { true } else { false } }
    presenter?.presentStepped(result, duration: info?.duration)
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didFinishWait result: WaitResult) {
    guard isCurrent(manager), phase == .ready else { return }
    guard
      let index = outstanding.firstIndex(where: { if case .wait(result.id, _) = $0 { true } else { false } }),
      case .wait(_, let condition) = outstanding[index]
    else { return }  // already answered by the end
    outstanding.remove(at: index)
    let source = sources.removeValue(forKey: result.id)
    switch result.outcome {
    case .satisfied:
      presenter?.presentWaited(condition, position: result.position, commandID: result.id)
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

  public func playbackManager(_ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int) {
    // An end reached before a pending seek landed is stale: the seek moves playback away from it.
    // The engine keeps wanting to play (it stands still at the end); what follows is decided here.
    guard isCurrent(manager), phase == .ready, outstandingSeeks.isEmpty else { return }
    presenter?.presentEnded(position: position, duration: info?.duration, loops: loops)
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
    }
  }

  public func playbackManager(_ manager: any PlaybackManager, didEncounter error: PlaybackError) {
    // Damage can show in the very first frame, before `ready`: report it then too.
    guard isCurrent(manager), phase == .ready || phase == .loading else { return }
    reportError(error, commandID: nil, source: nil)
  }
}

// PlaybackInteractor: the session's business rules.
//
// - Every command gets an id (its ordinal among the commands received) and runs in order.
// - Commands that need media wait until the file is ready; `scrub 30` as the first line works.
// - Seeks are transactions: each ends in one `seeked` or `superseded` from the manager.
// - Queries (`status`, `info`, `frame`) are barriers: they wait until every earlier seek has landed.
// - `skip` is relative to where playback will be once the pending seeks land, so skips add up.
// - Targets clamp to the media; the end is explicit and `--at-end` decides what follows.

/// Exit statuses of a playback session (documented in README.md).
public enum SessionExitCode {
  /// `quit`, the end of the media, or input ended with nothing left to play.
  public static let success: Int32 = 0
  /// The media could not be opened (missing, not media, no playable stream …).
  public static let mediaUnreadable: Int32 = 3
  /// Interrupted by SIGINT (128 + 2).
  public static let interrupted: Int32 = 130
  /// Terminated by SIGTERM (128 + 15).
  public static let terminated: Int32 = 143
}

@MainActor
public final class PlaybackInteractor: PlaybackInteractorInput, PlaybackManagerDelegate {
  /// The presenter, held weakly: the presenter owns the interactor.
  public weak var presenter: (any PlaybackInteractorOutput)?
  public weak var router: (any PlaybackRouting)?

  private let manager: any PlaybackManager
  private let path: String
  private let options: PlaybackOptions

  private enum Phase { case idle, loading, ready, failed, closed }
  private enum Pending {
    case command(NumberedCommand)
    case invalid(id: Int, PlaybackError)
  }

  /// Seeks the interactor starts on its own (the `--start` position, looping) carry this id.
  private static let internalSeekID = 0

  private var phase: Phase = .idle
  private var info: MediaInfo?
  private var state: PlaybackState = .idle
  private var lastCommandID = 0
  private var queue: [Pending] = []
  /// Seeks sent to the manager that have not yet landed or been superseded, oldest first.
  private var outstandingSeeks: [SeekRequest] = []
  private var inputHasEnded = false

  public init(manager: any PlaybackManager, path: String, options: PlaybackOptions) {
    self.manager = manager
    self.path = path
    self.options = options
  }

  // MARK: - PlaybackInteractorInput

  public func start() {
    guard phase == .idle else { return }
    phase = .loading
    state = .loading
    presenter?.presentLoading(path: path)
    manager.prepare(
      path: path,
      configuration: PlaybackConfiguration(clock: options.clock, progressInterval: options.progressInterval))
  }

  public func submit(_ command: Command) {
    guard phase != .closed else { return }
    lastCommandID += 1
    queue.append(.command(NumberedCommand(id: lastCommandID, command: command)))
    drain()
  }

  public func submitInvalid(_ error: PlaybackError) {
    guard phase != .closed else { return }
    lastCommandID += 1
    queue.append(.invalid(id: lastCommandID, error))
    drain()
  }

  public func inputEnded() {
    inputHasEnded = true
    closeIfNothingCanHappen()
  }

  public func terminate(_ signal: TerminationSignal) {
    let code = signal == .interrupt ? SessionExitCode.interrupted : SessionExitCode.terminated
    close(reason: signal.rawValue, exitCode: code, commandID: nil)
  }

  public func outputClosed() {
    // Nobody is listening any more: stop quietly. Nothing can be shown, so nothing is presented.
    guard phase != .closed else { return }
    phase = .closed
    manager.shutdown()
    router?.closeSession(exitCode: SessionExitCode.success)
  }

  // MARK: - Running commands in order

  /// Runs what can run, then leaves if nothing more can happen.
  private func drain() {
    runQueued()
    closeIfNothingCanHappen()
  }

  /// Runs queued commands from the front until one must wait (for the file, or for a seek to land).
  private func runQueued() {
    while let head = queue.first, phase != .closed, canRun(head) {
      queue.removeFirst()
      run(head)
    }
  }

  private func canRun(_ pending: Pending) -> Bool {
    guard case .command(let numbered) = pending else { return true }
    switch numbered.command {
    case .help: return true
    // Quit waits for the seeks before it, so each still gets its answer; it need not wait for the file.
    case .quit: return outstandingSeeks.isEmpty
    default: break
    }
    if phase == .idle || phase == .loading { return false }
    if numbered.command.isQuery { return outstandingSeeks.isEmpty }
    return true
  }

  private func run(_ pending: Pending) {
    switch pending {
    case .invalid(let id, let error):
      presenter?.presentError(error, commandID: id)
    case .command(let numbered):
      run(numbered.command, id: numbered.id)
    }
  }

  private func run(_ command: Command, id: Int) {
    switch command {
    case .help:
      presenter?.presentHelp(commandID: id)
      return
    case .quit:
      close(reason: "quit", exitCode: SessionExitCode.success, commandID: id)
      return
    default:
      break
    }
    guard phase == .ready, let info else {
      presenter?.presentError(
        PlaybackError(.notReady, "no media is loaded; \(command.verb) needs a file that opened"), commandID: id)
      return
    }
    switch command {
    case .play: play(id: id)
    case .pause: pause(id: id)
    case .toggle: state == .playing ? pause(id: id) : play(id: id)
    case .scrub(.percent, _) where info.duration == nil:
      presenter?.presentError(
        PlaybackError(.unavailable, "this media does not say how long it is; scrub to a time in seconds instead of %"),
        commandID: id)
    case .scrub(let time, let mode):
      seek(to: time.resolved(duration: info.duration), mode: mode ?? options.seekMode, id: id)
    case .skip(let delta, let mode):
      seek(to: expectedPosition() + delta, mode: mode ?? options.seekMode, id: id)
    case .status:
      presenter?.presentStatus(currentStatus(), commandID: id)
    case .info:
      presenter?.presentInfo(info, commandID: id)
    case .frame:
      reportFrame(id: id, info: info)
    case .help, .quit:
      break
    }
  }

  private func play(id: Int) {
    if state == .ended {
      // Play at the end starts over, as a player's play button does.
      startSeek(SeekRequest(id: id, target: .zero, mode: .keyframe))
    }
    state = .playing
    manager.play()
    presentState(commandID: id)
  }

  private func pause(id: Int) {
    if state == .playing {
      state = .paused
      manager.pause()
    }
    presentState(commandID: id)
  }

  private func seek(to target: MediaTime, mode: SeekMode, id: Int) {
    let duration = info?.duration
    guard target.seconds.isFinite else {
      presenter?.presentError(PlaybackError(.badArgument, "that target is not a finite time"), commandID: id)
      return
    }
    if state == .ended { state = .paused }
    startSeek(SeekRequest(id: id, target: target.clamped(to: duration), mode: mode))
  }

  private func startSeek(_ request: SeekRequest) {
    outstandingSeeks.append(request)
    manager.seek(request)
  }

  /// Where playback will be once the seeks already sent have landed.
  private func expectedPosition() -> MediaTime {
    outstandingSeeks.last?.target ?? manager.snapshot().position
  }

  private func currentStatus() -> PlaybackStatus {
    let snapshot = manager.snapshot()
    let position = outstandingSeeks.last?.target ?? snapshot.position
    return PlaybackStatus(
      state: state, position: position, duration: info?.duration, rate: 1,
      framesDecoded: snapshot.framesDecoded, decodeErrors: snapshot.decodeErrors)
  }

  private func presentState(commandID: Int?) {
    presenter?.presentState(
      state, position: expectedPosition(), duration: info?.duration, commandID: commandID)
  }

  private func reportFrame(id: Int, info: MediaInfo) {
    guard info.video != nil else {
      presenter?.presentError(
        PlaybackError(.unavailable, "this media has no video stream; frame reports video frames only"),
        commandID: id)
      return
    }
    guard let frame = manager.currentFrame() else {
      presenter?.presentError(
        PlaybackError(.unavailable, "no frame has been decoded yet; play or scrub first"), commandID: id)
      return
    }
    presenter?.presentFrame(frame, commandID: id)
  }

  // MARK: - Leaving

  /// With input ended, a session that is paused (or stopped at the end) can never move again: leave.
  private func closeIfNothingCanHappen() {
    guard inputHasEnded, queue.isEmpty, outstandingSeeks.isEmpty else { return }
    switch phase {
    case .ready where state == .paused || state == .ended:
      close(reason: "input ended", exitCode: SessionExitCode.success, commandID: nil)
    case .idle:
      close(reason: "input ended", exitCode: SessionExitCode.success, commandID: nil)
    default:
      break
    }
  }

  private func close(reason: String, exitCode: Int32, commandID: Int?) {
    guard phase != .closed else { return }
    // Closing abruptly (a signal) answers the seeks still running: none of them landed.
    for seek in outstandingSeeks where seek.id != Self.internalSeekID {
      presenter?.presentSuperseded(id: seek.id, by: nil)
    }
    outstandingSeeks.removeAll()
    let status = currentStatus()
    phase = .closed
    manager.shutdown()
    presenter?.presentShutdown(reason: reason, status: status, commandID: commandID)
    router?.closeSession(exitCode: exitCode)
  }

  // MARK: - PlaybackManagerDelegate

  public func playbackManager(_ manager: any PlaybackManager, didBecomeReady info: MediaInfo) {
    guard phase == .loading else { return }
    self.info = info
    phase = .ready
    state = .paused
    presenter?.presentReady(info)
    if let start = options.start {
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
    guard phase == .loading else { return }
    phase = .failed
    presenter?.presentError(error, commandID: nil)
    close(reason: "open failed", exitCode: SessionExitCode.mediaUnreadable, commandID: nil)
  }

  public func playbackManager(_ manager: any PlaybackManager, didReachProgress position: MediaTime) {
    // While a seek is pending, positions are about to be replaced: never show a pre-seek one.
    guard phase == .ready, outstandingSeeks.isEmpty else { return }
    presenter?.presentProgress(position: position, duration: info?.duration, state: state)
  }

  public func playbackManager(_ manager: any PlaybackManager, didFinishSeek result: SeekResult) {
    guard phase == .ready else { return }
    outstandingSeeks.removeAll { $0.id == result.id }
    if result.id != Self.internalSeekID {
      presenter?.presentSeeked(result, duration: info?.duration)
    }
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didSupersedeSeek id: Int, by newerID: Int) {
    guard phase == .ready else { return }
    outstandingSeeks.removeAll { $0.id == id }
    if id != Self.internalSeekID {
      presenter?.presentSuperseded(id: id, by: newerID)
    }
    drain()
  }

  public func playbackManager(_ manager: any PlaybackManager, didReachEnd position: MediaTime) {
    // An end reached before a pending seek landed is stale: the seek moves playback away from it.
    // The engine keeps wanting to play (it stands still at the end); what follows is decided here.
    guard phase == .ready, outstandingSeeks.isEmpty else { return }
    presenter?.presentEnded(position: position, duration: info?.duration)
    switch options.endAction {
    case .exit:
      state = .ended
      manager.pause()
      runQueued()
      close(reason: "ended", exitCode: SessionExitCode.success, commandID: nil)
    case .pause:
      state = .ended
      manager.pause()
      drain()
    case .loop:
      startSeek(SeekRequest(id: Self.internalSeekID, target: .zero, mode: .keyframe))
      drain()
    }
  }

  public func playbackManager(_ manager: any PlaybackManager, didEncounter error: PlaybackError) {
    // Damage can show in the very first frame, before `ready`: report it then too.
    guard phase == .ready || phase == .loading else { return }
    presenter?.presentError(error, commandID: nil)
  }
}

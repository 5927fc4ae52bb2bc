// Player: the view a Swift program drives in-process. It is one more view of the session, wired by the Builder as the
// text and JSON views are (`PlaybackBuilder.makePlayer`): it submits commands as values through its fan-out port,
// naming itself their sender, and is its own presenter: it receives the session's typed events and hands each call
// the payload of the event that answers its command. Every rule about playback stays in the interactor.

/// A seek that did not land: a newer seek replaced it, or the session closed first.
public struct SeekSuperseded: Error, Sendable, Equatable {
  /// Why: `newer` when a newer seek replaced it, `shutdown` when the session closed first, `other_client` when the
  /// newer seek came from another view of the session.
  public var reason: String
}

/// The player's session is over (its engine is released); nothing more can be asked of it.
public struct PlayerClosed: Error, Sendable, Equatable {}

/// One event of a player's session: the typed event, the player's number for the call it answers, and its line of
/// text as `vpk play` prints it.
public struct PlayerEvent: Sendable, Equatable {
  public var event: SessionEvent
  /// The number of the player's call this event answers or was caused by (nil: no call of this player's).
  public var callNumber: Int?
  /// The event as one line of text (`seeked #3 target=2.000 position=2.000 mode=exact ms=4.1`).
  public var text: String
}

/// Plays media in-process: a view of a playback session that a Swift program drives with `async` calls.
///
/// Make one with `PlaybackBuilder.makePlayer` (the `VPKEngine` module's overload plays with FFmpeg). Each call sends
/// one command and returns when the event that answers it arrives; a failure throws the `PlaybackError` of the
/// `error` event, with its stable `code`. The player lives on the main actor, as the session does: the main actor's
/// executor must run (it does in Swift Testing, in an `async` main and in apps with a run loop).
///
/// Dropping the player ends its session and releases its engine; `close()` only unloads the media.
@MainActor
public final class Player: PlaybackInteractorOutput {
  /// Every event of the session (`ready`, `state`, `progress`, `seeked`, …; a file's `loading` shows only on a
  /// terminal's status line), for one reader. Unread events beyond `eventBufferSize` are dropped, oldest first. It
  /// finishes when the session ends.
  public nonisolated let events: AsyncStream<PlayerEvent>
  /// How many unread events `events` keeps.
  public nonisolated static let eventBufferSize = 4096

  /// The session, held for the player's life: the fan-out holds the interactor and every view's presenter.
  let fanOut: PlaybackFanOut
  /// Where this view's commands go in, named as their sender.
  private let port: PlaybackFanOut.Port
  private let eventSink: AsyncStream<PlayerEvent>.Continuation
  /// How the events' lines name the calls: this player's by their number, other views' with none.
  private let naming: EventFormatter.Naming

  /// The calls awaiting their answer, by their number (the number their command was sent under).
  private var waiting: [Int: CheckedContinuation<SessionEvent, any Error>] = [:]
  /// The session's id for each call still waiting, by the call's number: what a cancelled call withdraws.
  private var commandIDs: [Int: Int] = [:]
  private var lastCallNumber = 0
  private var isOver = false

  init(fanOut: PlaybackFanOut, port: PlaybackFanOut.Port) {
    self.fanOut = fanOut
    self.port = port
    naming = .of(port.viewID, sharesSession: true)
    (events, eventSink) = AsyncStream.makeStream(
      of: PlayerEvent.self, bufferingPolicy: .bufferingNewest(Self.eventBufferSize))
  }

  isolated deinit {
    // Nobody can ask anything more: the session ends and its engine stops.
    eventSink.finish()
    if !isOver { port.outputClosed() }
  }

  // MARK: - Commands

  /// Opens a file (a path, relative to the Builder's base directory when relative), replacing what is loaded. Returns
  /// once it is ready, paused on its first frame unless the options autoplay.
  @discardableResult
  public func open(_ path: String) async throws -> MediaInfo {
    guard case .ready(let info, _, _) = try await call(.open(path)) else { throw PlayerClosed() }
    return info
  }

  /// Unloads the media and releases its engine; the player stays usable for another `open`.
  public func close() async throws {
    _ = try await call(.close)
  }

  /// Starts playing (from the start again when it stood at the end). Returns the position it plays from. With nothing
  /// loaded, the next file opens playing.
  @discardableResult
  public func play() async throws -> MediaTime {
    try await changeState(.play)
  }

  /// Pauses. Returns the position it paused at. With nothing loaded, the next file opens paused.
  @discardableResult
  public func pause() async throws -> MediaTime {
    try await changeState(.pause)
  }

  /// Seeks to `time` (seconds from the start; clamped to the media). Returns where it landed; throws
  /// `SeekSuperseded` when a newer seek replaced it first. `mode` nil: the session's seek mode.
  @discardableResult
  public func scrub(to time: MediaTime, mode: SeekMode? = nil) async throws -> SeekResult {
    try await seek(.scrub(.seconds(time.seconds), mode))
  }

  /// Seeks to a percentage of the duration.
  @discardableResult
  public func scrub(toPercent percent: Double, mode: SeekMode? = nil) async throws -> SeekResult {
    try await seek(.scrub(.percent(percent), mode))
  }

  /// Seeks by `seconds` from where playback will be once the seeks already sent have landed.
  @discardableResult
  public func skip(by seconds: Double, mode: SeekMode? = nil) async throws -> SeekResult {
    try await seek(.skip(seconds, mode))
  }

  /// Pauses and shows the frame `count` frames away (backward when negative).
  @discardableResult
  public func step(_ count: Int = 1) async throws -> StepResult {
    guard case .stepped(let result, _) = try await call(.step(count)) else { throw PlayerClosed() }
    return result
  }

  /// Sets the playback speed (1 is normal; the wall and virtual clocks only). With nothing loaded, the next file opens
  /// at it (forward).
  public func setRate(_ rate: Double) async throws {
    _ = try await call(.rate(rate))
  }

  /// Returns when `condition` holds (on the virtual clock, a wait is what moves time), with the position then;
  /// throws `wait_timeout` after `timeout` seconds, `wait_impossible` when it cannot hold.
  @discardableResult
  public func wait(_ condition: WaitCondition, timeout: Double? = nil) async throws -> MediaTime {
    guard case .waited(_, let position) = try await call(.wait(condition, timeout: timeout)) else {
      throw PlayerClosed()
    }
    return position
  }

  /// The session's state, position and counters.
  public func status() async throws -> PlaybackStatus {
    guard case .status(let status) = try await call(.status) else { throw PlayerClosed() }
    return status
  }

  /// What the loaded media holds, with the bit rates that are known.
  public func info() async throws -> MediaInfo {
    guard case .info(let info) = try await call(.info) else { throw PlayerClosed() }
    return info
  }

  /// The frame on screen, with the MD5 of its pixels as `ffmpeg -f framemd5` computes it.
  public func currentFrame() async throws -> FrameIdentity {
    guard case .frame(let frame) = try await call(.frame) else { throw PlayerClosed() }
    return frame
  }

  /// Writes the frame on screen to `path` as a PNG (a path ending in `/` names a folder; nil: a default name in the
  /// base directory). Returns the picture, named by the path written, with the frame `currentFrame()` returns.
  @discardableResult
  public func snapshot(to path: String? = nil) async throws -> FramePicture {
    guard case .snapshot(let picture) = try await call(.snapshot(path)) else { throw PlayerClosed() }
    return picture
  }

  /// With nothing loaded, `play` and `pause` set whether the next file opens playing, and return zero.
  private func changeState(_ command: Command) async throws -> MediaTime {
    switch try await call(command) {
    case .state(_, let position, _): return position
    case .next: return .zero
    default: throw PlayerClosed()
    }
  }

  private func seek(_ command: Command) async throws -> SeekResult {
    guard case .seeked(let outcome) = try await call(command) else { throw PlayerClosed() }
    return outcome.result
  }

  /// Sends `command` and waits for its one reply; an `error` reply is thrown, as is a `superseded` seek. Cancelling
  /// the calling task throws `CancellationError` at once and withdraws the command, as libmpv's
  /// `mpv_abort_async_command` does: one that has not run is dropped, a wait that is running stops (so the calls
  /// after it are answered at once); a seek or step already running goes on.
  func call(_ command: Command) async throws -> SessionEvent {
    guard !isOver else { throw PlayerClosed() }
    lastCallNumber += 1
    let number = lastCallNumber
    let answer: SessionEvent = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SessionEvent, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        waiting[number] = continuation
        let id = port.submit(command, source: nil, from: CommandSender(view: port.viewID, number: number))
        // The reply may have come inside `submit` already.
        if waiting[number] != nil { commandIDs[number] = id }
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.stopWaiting(for: number) }
    }
    switch answer {
    case .error(let error): throw error
    case .superseded(let newer):
      let reason =
        if let newer { newer.sender?.view == port.viewID ? "newer" : "other_client" } else { "shutdown" }
      throw SeekSuperseded(reason: reason)
    default: return answer
    }
  }

  private func stopWaiting(for number: Int) {
    guard let continuation = waiting.removeValue(forKey: number) else { return }
    continuation.resume(throwing: CancellationError())
    if let id = commandIDs.removeValue(forKey: number) { port.withdraw(id) }
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    let own = origin?.sender.flatMap { $0.view == port.viewID ? $0.number : nil }
    if let model = EventFormatter.model(event, origin: origin, naming: naming) {
      eventSink.yield(PlayerEvent(event: event, callNumber: own, text: model.text))
    }
    if event.isReply, let own, let continuation = waiting.removeValue(forKey: own) {
      commandIDs[own] = nil
      continuation.resume(returning: event)
    }
    if case .shutdown = event { end() }
  }

  /// The session is over: every call still waiting fails, and so does every call after.
  private func end() {
    guard !isOver else { return }
    isOver = true
    let calls = waiting.values
    waiting.removeAll()
    commandIDs.removeAll()
    for call in calls { call.resume(throwing: PlayerClosed()) }
    eventSink.finish()
  }
}

/// The player as the fan-out holds it: weakly, since the player holds the session for its life (dropping the player
/// ends the session).
@MainActor
final class PlayerOutput: PlaybackInteractorOutput {
  weak var player: Player?
  init(_ player: Player) { self.player = player }
  func present(_ event: SessionEvent, origin: CommandOrigin?) { player?.present(event, origin: origin) }
}

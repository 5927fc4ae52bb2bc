// Player: the view a Swift program drives in-process. It is one more view of the session, wired by the Builder as the
// text and JSON views are (`PlaybackBuilder.makePlayer`): its input side sends commands as values through its
// presenter, and its display side receives the presenter's view models. Each call awaits the event that answers its
// command (matched by the id the call gave the command) and reads the answer's fields back into Swift values; every
// rule about playback stays in the interactor.

import Foundation

/// A seek that did not land: a newer seek replaced it, or the session closed first.
public struct SeekSuperseded: Error, Sendable, Equatable {
  /// Why: `newer` when a newer seek replaced it, `shutdown` when the session closed first, `other_client` when the
  /// newer seek came from another view of the session.
  public var reason: String
}

/// The player's session is over (its engine is released); nothing more can be asked of it.
public struct PlayerClosed: Error, Sendable, Equatable {}

/// Plays media in-process: a view of a playback session that a Swift program drives with `async` calls.
///
/// Make one with `PlaybackBuilder.makePlayer` (the `VPKEngine` module's overload plays with FFmpeg). Each call sends
/// one command and returns when the event that answers it arrives; a failure throws the `PlaybackError` of the
/// `error` event, with its stable `code`. The player lives on the main actor, as the session does: the main actor's
/// executor must run (it does in Swift Testing, in an `async` main and in apps with a run loop).
///
/// Dropping the player ends its session and releases its engine; `close()` only unloads the media.
@MainActor
public final class Player: PlaybackView {
  /// Every event of the session as this view's presenter formats it (`ready`, `state`, `progress`, `seeked`, …), for
  /// one reader. Unread events beyond `eventBufferSize` are dropped, oldest first. It finishes when the session ends.
  public nonisolated let events: AsyncStream<EventViewModel>
  /// How many unread events `events` keeps.
  public nonisolated static let eventBufferSize = 4096

  /// The session, held for the player's life: the fan-out holds the interactor and every view's presenter.
  let fanOut: PlaybackFanOut
  private let send: @MainActor (Command, ClientID) -> Void
  private let leave: @MainActor () -> Void
  private let eventSink: AsyncStream<EventViewModel>.Continuation

  /// The calls awaiting their answer, by the id their command was given.
  private var waiting: [Int: CheckedContinuation<EventViewModel, any Error>] = [:]
  private var lastCallID = 0
  private var isOver = false

  /// - Parameters:
  ///   - send: submits a command through this view's presenter, under the client id its events will carry.
  ///   - leave: tells the presenter this view went away (the session ends).
  init(
    fanOut: PlaybackFanOut, send: @escaping @MainActor (Command, ClientID) -> Void,
    leave: @escaping @MainActor () -> Void
  ) {
    self.fanOut = fanOut
    self.send = send
    self.leave = leave
    (events, eventSink) = AsyncStream.makeStream(
      of: EventViewModel.self, bufferingPolicy: .bufferingNewest(Self.eventBufferSize))
  }

  isolated deinit {
    // Nobody can ask anything more: the session ends and its engine stops.
    eventSink.finish()
    if !isOver { leave() }
  }

  // MARK: - Commands

  /// Opens a file (a path, relative to the Builder's base directory when relative), replacing what is loaded. Returns
  /// once it is ready, paused on its first frame unless the options autoplay.
  @discardableResult
  public func open(_ path: String) async throws -> MediaInfo {
    Self.mediaInfo(try await call(.open(path), answeredBy: "ready"))
  }

  /// Unloads the media and releases its engine; the player stays usable for another `open`.
  public func close() async throws {
    _ = try await call(.close, answeredBy: "closed")
  }

  /// Starts playing (from the start again when it stood at the end). Returns the position it plays from.
  @discardableResult
  public func play() async throws -> MediaTime {
    Self.time(try await call(.play, answeredBy: "state"), "position")
  }

  /// Pauses. Returns the position it paused at.
  @discardableResult
  public func pause() async throws -> MediaTime {
    Self.time(try await call(.pause, answeredBy: "state"), "position")
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
    let answer = try await call(.step(count), answeredBy: "stepped")
    return StepResult(
      id: answer.commandID ?? 0, requested: Self.integer(answer, "requested"), moved: Self.integer(answer, "moved"),
      position: Self.time(answer, "position"))
  }

  /// Sets the playback speed (1 is normal; the wall and virtual clocks only).
  public func setRate(_ rate: Double) async throws {
    _ = try await call(.rate(rate), answeredBy: "rate")
  }

  /// Returns when `condition` holds (on the virtual clock, a wait is what moves time), with the position then;
  /// throws `wait_timeout` after `timeout` seconds, `wait_impossible` when it cannot hold.
  @discardableResult
  public func wait(_ condition: WaitCondition, timeout: Double? = nil) async throws -> MediaTime {
    Self.time(try await call(.wait(condition, timeout: timeout), answeredBy: "waited"), "position")
  }

  /// The session's state, position and counters.
  public func status() async throws -> PlaybackStatus {
    let answer = try await call(.status, answeredBy: "status")
    return PlaybackStatus(
      state: PlaybackState(rawValue: Self.string(answer, "state")) ?? .idle,
      position: Self.time(answer, "position"), duration: Self.optionalTime(answer, "duration"),
      rate: Self.number(answer, "rate") ?? 1, framesDecoded: Self.integer(answer, "frames_decoded"),
      decodeErrors: Self.integer(answer, "decode_errors"), loops: Self.integer(answer, "loops"),
      latenessP99: Self.number(answer, "late_p99_ms"),
      frameCache: FrameCacheReading(
        frames: Self.integer(answer, "cache_frames"), bytes: Self.integer(answer, "cache_bytes"),
        hits: Self.integer(answer, "cache_hits"), misses: Self.integer(answer, "cache_misses")))
  }

  /// What the loaded media holds, with the bit rates that are known.
  public func info() async throws -> MediaInfo {
    Self.mediaInfo(try await call(.info, answeredBy: "info"))
  }

  /// The frame on screen, with the MD5 of its pixels as `ffmpeg -f framemd5` computes it.
  public func currentFrame() async throws -> FrameIdentity {
    Self.frame(try await call(.frame, answeredBy: "frame"), picture: false)
  }

  /// Writes the frame on screen to `path` as a PNG (a path ending in `/` names a folder; nil: a default name in the
  /// base directory). Returns the picture, named by the path written.
  @discardableResult
  public func snapshot(to path: String?) async throws -> FramePicture {
    let answer = try await call(.snapshot(path), answeredBy: "snapshot")
    return FramePicture(
      path: Self.string(answer, "path"), frame: Self.frame(answer, picture: true),
      pixelFormat: Self.string(answer, "format"))
  }

  private func seek(_ command: Command) async throws -> SeekResult {
    let answer = try await call(command, answeredBy: "seeked")
    return SeekResult(
      id: answer.commandID ?? 0, target: Self.time(answer, "target"), position: Self.time(answer, "position"),
      mode: SeekMode(rawValue: Self.string(answer, "mode")) ?? .exact, milliseconds: Self.number(answer, "ms") ?? 0)
  }

  /// Sends `command` and waits for its answer: the event named `name`, or an `error` (thrown) or a `superseded`
  /// (thrown) carrying the command's id. Cancelling the calling task stops the waiting, not the command.
  private func call(_ command: Command, answeredBy name: String) async throws -> EventViewModel {
    guard !isOver else { throw PlayerClosed() }
    lastCallID += 1
    let id = lastCallID
    let answer: EventViewModel = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<EventViewModel, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        waiting[id] = continuation
        send(command, .number(Double(id)))
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.stopWaiting(for: id) }
    }
    switch answer.event {
    case name: return answer
    case "error":
      let code = PlaybackError.Code(rawValue: Self.string(answer, "code")) ?? .unavailable
      throw PlaybackError(code, Self.string(answer, "message"))
    case "superseded":
      throw SeekSuperseded(reason: answer.fields.contains { $0.key == "by" } ? "newer" : Self.string(answer, "reason"))
    default:
      throw PlayerClosed()
    }
  }

  private func stopWaiting(for id: Int) {
    waiting.removeValue(forKey: id)?.resume(throwing: CancellationError())
  }

  // MARK: - PlaybackView

  public func displayEvent(_ event: EventViewModel) {
    eventSink.yield(event)
    if case .integer(let id)? = event.clientID, Self.answers(event.event), let continuation = waiting[id] {
      waiting[id] = nil
      continuation.resume(returning: event)
    }
    if event.event == "shutdown" { end() }
  }

  /// The status line is for terminals; `status()` and `events` say the same.
  public func displayStatusLine(_ status: StatusLineViewModel) {}

  public func displayFinish() { end() }

  /// The events that end a call: every command's answer, or its error. (`state` answers play and pause; a `state`
  /// another command causes carries no id of this view's.)
  private static func answers(_ event: String) -> Bool {
    [
      "ready", "closed", "state", "seeked", "superseded", "stepped", "rate", "waited", "status", "info", "frame",
      "snapshot", "error", "shutdown",
    ].contains(event)
  }

  /// The session is over: every call still waiting fails, and so does every call after.
  private func end() {
    guard !isOver else { return }
    isOver = true
    let calls = waiting.values
    waiting.removeAll()
    for call in calls { call.resume(throwing: PlayerClosed()) }
    eventSink.finish()
  }

  // MARK: - Reading answers

  private static func value(_ event: EventViewModel, _ key: String) -> EventViewModel.Value? {
    event.fields.first { $0.key == key }?.value
  }

  private static func number(_ event: EventViewModel, _ key: String) -> Double? {
    switch value(event, key) {
    case .number(let number): number
    case .integer(let integer): Double(integer)
    default: nil
    }
  }

  private static func integer(_ event: EventViewModel, _ key: String) -> Int {
    number(event, key).map { Int($0) } ?? 0
  }

  private static func string(_ event: EventViewModel, _ key: String) -> String {
    if case .string(let string)? = value(event, key) { return string }
    return ""
  }

  private static func bool(_ event: EventViewModel, _ key: String) -> Bool {
    if case .bool(let bool)? = value(event, key) { return bool }
    return false
  }

  private static func optionalTime(_ event: EventViewModel, _ key: String) -> MediaTime? {
    number(event, key).map(MediaTime.init(seconds:))
  }

  private static func time(_ event: EventViewModel, _ key: String) -> MediaTime {
    optionalTime(event, key) ?? .zero
  }

  private static func mediaInfo(_ event: EventViewModel) -> MediaInfo {
    let video: VideoStreamInfo? =
      if case .string(let codec)? = value(event, "video") {
        VideoStreamInfo(
          codec: codec, width: integer(event, "width"), height: integer(event, "height"),
          frameRate: number(event, "fps"), pixelFormat: string(event, "pix_fmt"),
          bitRate: number(event, "video_bitrate").map { Int($0) })
      } else { nil }
    let audio: AudioStreamInfo? =
      if case .string(let codec)? = value(event, "audio") {
        AudioStreamInfo(
          codec: codec, sampleRate: integer(event, "sample_rate"), channels: integer(event, "channels"),
          bitRate: number(event, "audio_bitrate").map { Int($0) })
      } else { nil }
    return MediaInfo(
      path: string(event, "path"), container: string(event, "container"), duration: optionalTime(event, "duration"),
      bitRate: number(event, "bitrate").map { Int($0) }, streamCount: integer(event, "streams"), video: video,
      audio: audio)
  }

  /// `frame` names the time base and the pixel format; `snapshot` (whose `format` is the PNG's) does not.
  private static func frame(_ event: EventViewModel, picture: Bool) -> FrameIdentity {
    let base = string(event, "time_base").split(separator: "/").compactMap { Int32($0) }
    return FrameIdentity(
      pts: Int64(integer(event, "pts")), timeBase: base.count == 2 ? (base[0], base[1]) : (0, 1),
      time: time(event, "time"), isKeyframe: bool(event, "key"), width: integer(event, "width"),
      height: integer(event, "height"), pixelFormat: picture ? "" : string(event, "pix_fmt"),
      md5: string(event, "md5"))
  }
}

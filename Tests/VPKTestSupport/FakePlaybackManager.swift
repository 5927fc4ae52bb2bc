// FakePlaybackManager: a playback manager for the module's tests. It records what it was asked and
// reports only what a test tells it to, or (with `autoResponds`) answers by itself as the engine would.

import Foundation
import VideoPlaybackKit

/// A playback manager that records what it was asked and reports only what a test tells it to.
/// With `autoResponds`, it answers by itself on a later turn of the main actor, as the engine
/// would: it becomes ready, lands seeks, finishes steps and satisfies waits.
@MainActor
public final class FakePlaybackManager: ListEntryPlayback {
  public var onEvent: (@MainActor (PlaybackManagerEvent) -> Void)?
  public var calls: [String] = []
  public var seeks: [SeekRequest] = []
  public var steps: [StepRequest] = []
  public var waits: [PlaybackWait] = []
  public var rates: [Double] = []
  public var position = MediaTime.zero { didSet { concurrentPosition.set(position) } }
  /// Whether `concurrentSnapshot()` offers a reading from any thread (of `position`); off by default, as a manager
  /// that cannot offer one.
  public var offersConcurrentSnapshot = false
  private nonisolated let concurrentPosition = LockedPosition()
  public var frame: FrameIdentity?
  /// The paths `writePicture` was asked to write (it writes nothing).
  public var picturesWritten: [String] = []
  /// Thrown by `writePicture` instead of writing.
  public var pictureError: PlaybackError?
  public var framesDecoded = 0
  public var decodeErrors = 0
  public var loops = 0
  public var latenessP99: Double?
  /// What `snapshot()` says of the frame cache.
  public var frameCache = FrameCacheReading()
  public var configuration: PlaybackConfiguration?
  public var preparedPath: String?
  public var isShutDown = false
  /// What `endDueTime` says (a test sets it, as the engine's end on the wall clock would).
  public var endDueTime: Double?

  /// Answer every request by itself (for whole sessions: the Builder and `vpk test`).
  public var autoResponds = false
  /// With `autoResponds`: the duration of the media it pretends to open.
  public var autoDuration = 10.0
  /// With `autoResponds`: never answer waits (to test timeouts).
  public var autoIgnoresWaits = false

  public init(autoResponds: Bool = false) { self.autoResponds = autoResponds }

  public func prepare(path: String, configuration: PlaybackConfiguration) {
    calls.append("prepare \(path)")
    preparedPath = path
    self.configuration = configuration
    if autoResponds {
      later { manager in
        if path.hasSuffix("missing.mp4") {
          manager.onEvent?(.failedToOpen(PlaybackError(.fileNotFound, "no such file")))
        } else {
          manager.becomeReady(duration: manager.autoDuration, path: path)
        }
      }
    }
  }
  public func play() { calls.append("play") }
  public func play(continuingFrom time: Double) { calls.append("play continuing from \(time)") }
  public func reopen() {
    calls.append("reopen")
    position = .zero  // back at the start, as the engine goes
    if autoResponds, let path = preparedPath { later { $0.becomeReady(duration: $0.autoDuration, path: path) } }
  }
  public func pause() { calls.append("pause") }
  public func seek(_ request: SeekRequest) {
    calls.append("seek \(request.id) \(request.target.seconds) \(request.mode)")
    seeks.append(request)
    if autoResponds { later { $0.land(request) } }
  }
  public func step(_ request: StepRequest) {
    calls.append("step \(request.id) \(request.count)")
    steps.append(request)
    if autoResponds {
      later { $0.finishStep(request, moved: request.count, at: $0.position.seconds + Double(request.count) / 30) }
    }
  }
  public func setRate(_ rate: Double) {
    calls.append("rate \(rate)")
    rates.append(rate)
  }
  /// The waits withdrawn, by id.
  public var cancelledWaits: [Int] = []
  public func cancelWait(id: Int) {
    calls.append("cancelWait \(id)")
    cancelledWaits.append(id)
  }
  public func wait(_ request: PlaybackWait) {
    calls.append("wait \(request.id) \(request.until) timeout \(request.timeout.map { String($0) } ?? "none")")
    waits.append(request)
    if autoResponds && !autoIgnoresWaits {
      later { manager in
        let at: Double
        switch request.until {
        case .elapsed(let seconds): at = min(manager.position.seconds + seconds, manager.autoDuration)
        case .position(let target), .positionAtMost(let target): at = target.seconds
        case .ended: at = manager.autoDuration
        }
        manager.finishWait(request, .satisfied, at: at)
      }
    }
  }
  public func snapshot() -> PlaybackSnapshot {
    PlaybackSnapshot(
      position: position, framesDecoded: framesDecoded, decodeErrors: decodeErrors, loops: loops,
      latenessP99: latenessP99, frameCache: frameCache)
  }
  public func concurrentSnapshot() -> (@Sendable () -> PlaybackSnapshot)? {
    guard offersConcurrentSnapshot else { return nil }
    return { [concurrentPosition] in
      PlaybackSnapshot(position: concurrentPosition.get(), framesDecoded: 0, decodeErrors: 0)
    }
  }
  public func currentFrame() -> FrameIdentity? { frame }
  public func writePicture(to path: String) throws(PlaybackError) -> FramePicture? {
    calls.append("picture \(path)")
    if let pictureError { throw pictureError }
    guard let frame else { return nil }
    picturesWritten.append(path)
    return FramePicture(path: path, frame: frame, pixelFormat: "rgb24")
  }
  public func shutdown() {
    calls.append("shutdown")
    isShutDown = true
  }

  private func later(_ work: @escaping @MainActor (FakePlaybackManager) -> Void) {
    Task { @MainActor [weak self] in
      guard let self, !self.isShutDown else { return }
      work(self)
    }
  }

  // What the real engine would report.
  public static func info(duration: Double? = 60, video: Bool = true, path: String = "clip.mp4") -> MediaInfo {
    MediaInfo(
      path: path, container: "mov,mp4,m4a,3gp,3g2,mj2", duration: duration.map(MediaTime.init), streamCount: 1,
      video: video
        ? VideoStreamInfo(codec: "h264", width: 320, height: 240, frameRate: 30, pixelFormat: "yuv420p") : nil,
      audio: video ? nil : AudioStreamInfo(codec: "aac", sampleRate: 48000, channels: 2))
  }
  public func becomeReady(duration: Double? = 60, video: Bool = true, path: String = "clip.mp4") {
    onEvent?(.ready(Self.info(duration: duration, video: video, path: path)))
  }
  public func failToOpen(_ code: PlaybackError.Code = .fileNotFound) {
    onEvent?(.failedToOpen(PlaybackError(code, "cannot open")))
  }
  public func land(_ request: SeekRequest, at position: Double? = nil) {
    self.position = MediaTime(seconds: position ?? request.target.seconds)
    onEvent?(
      .seekFinished(
        SeekResult(
          id: request.id, target: request.target, position: self.position, mode: request.mode, milliseconds: 1)))
  }
  public func supersede(_ request: SeekRequest, by newer: SeekRequest) {
    onEvent?(.seekSuperseded(id: request.id, by: newer.id))
  }
  public func finishStep(_ request: StepRequest, moved: Int, at position: Double) {
    self.position = MediaTime(seconds: position)
    onEvent?(
      .stepFinished(StepResult(id: request.id, requested: request.count, moved: moved, position: self.position)))
  }
  public func finishWait(_ request: PlaybackWait, _ outcome: WaitOutcome, at position: Double) {
    self.position = MediaTime(seconds: position)
    onEvent?(.waitFinished(WaitResult(id: request.id, outcome: outcome, position: self.position)))
  }
  public func reachEnd(at position: Double, loops: Int = 1) {
    self.position = MediaTime(seconds: position)
    self.loops = loops
    onEvent?(.ended(position: self.position, loops: loops, direction: .forward))
  }
}

/// The fake's position, readable from any thread.
private final class LockedPosition: @unchecked Sendable {
  private let lock = NSLock()
  private var position = MediaTime.zero
  func set(_ value: MediaTime) { lock.withLock { position = value } }
  func get() -> MediaTime { lock.withLock { position } }
}

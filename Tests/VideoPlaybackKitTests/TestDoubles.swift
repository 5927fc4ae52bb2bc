// Test doubles shared by the role tests: a playback manager that reports only what a test tells it
// to (or, for whole sessions, answers by itself), and spies for the interactor's output and router.

import Foundation

@testable import VideoPlaybackKit

/// A playback manager that records what it was asked and reports only what a test tells it to.
/// With `autoResponds`, it answers by itself on a later turn of the main actor, as the engine
/// would: it becomes ready, lands seeks, finishes steps and satisfies waits.
@MainActor
final class FakePlaybackManager: PlaybackManager {
  weak var delegate: (any PlaybackManagerDelegate)?
  var calls: [String] = []
  var seeks: [SeekRequest] = []
  var steps: [StepRequest] = []
  var waits: [PlaybackWait] = []
  var rates: [Double] = []
  var position = MediaTime.zero
  var frame: FrameIdentity?
  var framesDecoded = 0
  var decodeErrors = 0
  var loops = 0
  var latenessP99: Double?
  var configuration: PlaybackConfiguration?
  var preparedPath: String?
  var isShutDown = false

  /// Answer every request by itself (for whole sessions: the Builder and `vpk test`).
  var autoResponds = false
  /// With `autoResponds`: the duration of the media it pretends to open.
  var autoDuration = 10.0
  /// With `autoResponds`: never answer waits (to test timeouts).
  var autoIgnoresWaits = false

  init(autoResponds: Bool = false) { self.autoResponds = autoResponds }

  func prepare(path: String, configuration: PlaybackConfiguration) {
    calls.append("prepare \(path)")
    preparedPath = path
    self.configuration = configuration
    if autoResponds {
      later { manager in
        if path.hasSuffix("missing.mp4") {
          manager.delegate?.playbackManager(manager, didFailToOpen: PlaybackError(.fileNotFound, "no such file"))
        } else {
          manager.becomeReady(duration: manager.autoDuration, path: path)
        }
      }
    }
  }
  func play() { calls.append("play") }
  func pause() { calls.append("pause") }
  func seek(_ request: SeekRequest) {
    calls.append("seek \(request.id) \(request.target.seconds) \(request.mode)")
    seeks.append(request)
    if autoResponds { later { $0.land(request) } }
  }
  func step(_ request: StepRequest) {
    calls.append("step \(request.id) \(request.count)")
    steps.append(request)
    if autoResponds {
      later { $0.finishStep(request, moved: request.count, at: $0.position.seconds + Double(request.count) / 30) }
    }
  }
  func setRate(_ rate: Double) {
    calls.append("rate \(rate)")
    rates.append(rate)
  }
  func wait(_ request: PlaybackWait) {
    calls.append("wait \(request.id) \(request.until) timeout \(request.timeout.map { String($0) } ?? "none")")
    waits.append(request)
    if autoResponds && !autoIgnoresWaits {
      later { manager in
        let at: Double
        switch request.until {
        case .elapsed(let seconds): at = min(manager.position.seconds + seconds, manager.autoDuration)
        case .position(let target): at = target.seconds
        case .ended: at = manager.autoDuration
        }
        manager.finishWait(request, .satisfied, at: at)
      }
    }
  }
  func snapshot() -> PlaybackSnapshot {
    PlaybackSnapshot(
      position: position, framesDecoded: framesDecoded, decodeErrors: decodeErrors, loops: loops,
      latenessP99: latenessP99)
  }
  func currentFrame() -> FrameIdentity? { frame }
  func shutdown() {
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
  static func info(duration: Double? = 60, video: Bool = true, path: String = "clip.mp4") -> MediaInfo {
    MediaInfo(
      path: path, container: "mov,mp4,m4a,3gp,3g2,mj2", duration: duration.map(MediaTime.init), streamCount: 1,
      video: video
        ? VideoStreamInfo(codec: "h264", width: 320, height: 240, frameRate: 30, pixelFormat: "yuv420p") : nil,
      audio: video ? nil : AudioStreamInfo(codec: "aac", sampleRate: 48000, channels: 2))
  }
  func becomeReady(duration: Double? = 60, video: Bool = true, path: String = "clip.mp4") {
    delegate?.playbackManager(self, didBecomeReady: Self.info(duration: duration, video: video, path: path))
  }
  func failToOpen(_ code: PlaybackError.Code = .fileNotFound) {
    delegate?.playbackManager(self, didFailToOpen: PlaybackError(code, "cannot open"))
  }
  func land(_ request: SeekRequest, at position: Double? = nil) {
    self.position = MediaTime(seconds: position ?? request.target.seconds)
    delegate?.playbackManager(
      self,
      didFinishSeek: SeekResult(
        id: request.id, target: request.target, position: self.position, mode: request.mode, milliseconds: 1))
  }
  func supersede(_ request: SeekRequest, by newer: SeekRequest) {
    delegate?.playbackManager(self, didSupersedeSeek: request.id, by: newer.id)
  }
  func finishStep(_ request: StepRequest, moved: Int, at position: Double) {
    self.position = MediaTime(seconds: position)
    delegate?.playbackManager(
      self, didFinishStep: StepResult(id: request.id, requested: request.count, moved: moved, position: self.position))
  }
  func finishWait(_ request: PlaybackWait, _ outcome: WaitOutcome, at position: Double) {
    self.position = MediaTime(seconds: position)
    delegate?.playbackManager(
      self, didFinishWait: WaitResult(id: request.id, outcome: outcome, position: self.position))
  }
  func reachEnd(at position: Double, loops: Int = 1) {
    self.position = MediaTime(seconds: position)
    self.loops = loops
    delegate?.playbackManager(self, didReachEnd: self.position, loops: loops)
  }
}

/// Records every `present…` call as a short line, so tests read like transcripts.
@MainActor
final class InteractorOutputSpy: PlaybackInteractorOutput {
  var lines: [String] = []
  var shutdownStatus: PlaybackStatus?
  var lastStatus: PlaybackStatus?
  var expectations: [(expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?)] = []

  func presentLoading(path: String) { lines.append("loading \(path)") }
  func presentReady(_ info: MediaInfo, commandID: Int?) { lines.append("ready #\(commandID ?? 0) \(info.path)") }
  func presentState(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, commandID: Int?) {
    lines.append("state #\(commandID ?? 0) \(state) \(position.seconds)")
  }
  func presentProgress(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double) {
    lines.append("progress \(position.seconds)")
  }
  func presentSeeked(_ result: SeekResult, duration: MediaTime?, showsTiming: Bool) {
    lines.append(
      "seeked #\(result.id) \(result.target.seconds) \(result.position.seconds) \(result.mode)"
        + (showsTiming ? "" : " untimed"))
  }
  func presentSuperseded(id: Int, by newerID: Int?) {
    lines.append("superseded #\(id) by \(newerID.map(String.init) ?? "shutdown")")
  }
  func presentStepped(_ result: StepResult, duration: MediaTime?) {
    lines.append("stepped #\(result.id) \(result.moved)/\(result.requested) \(result.position.seconds)")
  }
  func presentRate(_ rate: Double, commandID: Int) { lines.append("rate #\(commandID) \(rate)") }
  func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int) {
    lines.append("ended \(position.seconds) loops \(loops)")
  }
  func presentError(_ error: PlaybackError, commandID: Int?) {
    lines.append("error #\(commandID ?? 0) \(error.code.rawValue)")
  }
  func presentStatus(_ status: PlaybackStatus, commandID: Int) {
    lastStatus = status
    lines.append("status #\(commandID) \(status.state) \(status.position.seconds)")
  }
  func presentInfo(_ info: MediaInfo, commandID: Int) { lines.append("info #\(commandID)") }
  func presentFrame(_ frame: FrameIdentity, commandID: Int) { lines.append("frame #\(commandID) \(frame.pts)") }
  func presentHelp(commandID: Int) { lines.append("help #\(commandID)") }
  func presentWaited(_ condition: WaitCondition, position: MediaTime, commandID: Int) {
    lines.append("waited #\(commandID) \(condition.description) at \(position.seconds)")
  }
  func presentExpectation(
    _ expectation: Expectation, expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?,
    commandID: Int
  ) {
    expectations.append((expected, actual, held, source))
    lines.append("expect #\(commandID) \(held ? "pass" : "fail") \(expectation.field.rawValue)")
  }
  func presentClosed(commandID: Int) { lines.append("closed #\(commandID)") }
  func presentShutdown(reason: String, status: PlaybackStatus, commandID: Int?) {
    shutdownStatus = status
    lines.append("shutdown #\(commandID ?? 0) \(reason)")
  }
}

/// Records where the interactor sends the session, and makes fake managers for `open`.
@MainActor
final class RouterSpy: PlaybackRouting {
  var exitCodes: [Int32] = []
  var reports: [SessionReport] = []
  /// `new` or `none`, one per `gotoMedia`.
  var gotos: [String] = []
  /// The managers made for `open`, in order.
  var made: [FakePlaybackManager] = []
  /// The managers handed in to be replaced (shut down here, their delegate left as it was so a
  /// test can make a stale report reach the interactor).
  var replaced: [FakePlaybackManager] = []
  weak var managerDelegate: (any PlaybackManagerDelegate)?

  func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)? {
    gotos.append(wantsNew ? "new" : "none")
    if let current = current as? FakePlaybackManager {
      current.shutdown()
      replaced.append(current)
    }
    guard wantsNew else { return nil }
    let manager = FakePlaybackManager()
    manager.delegate = managerDelegate
    made.append(manager)
    return manager
  }

  func closeSession(exitCode: Int32, report: SessionReport) {
    exitCodes.append(exitCode)
    reports.append(report)
  }
}

/// An interactor wired to a fake manager and spies.
@MainActor
struct InteractorHarness {
  let manager = FakePlaybackManager()
  let output = InteractorOutputSpy()
  let router = RouterSpy()
  let interactor: PlaybackInteractor

  init(
    options: PlaybackOptions = PlaybackOptions(autoplay: false), path: String? = "clip.mp4",
    baseDirectory: String? = nil
  ) {
    interactor = PlaybackInteractor(
      manager: path == nil ? nil : manager, path: path, options: options, baseDirectory: baseDirectory)
    interactor.presenter = output
    interactor.router = router
    router.managerDelegate = interactor
    manager.delegate = interactor
  }

  /// Started and ready: the output so far is cleared.
  static func ready(
    options: PlaybackOptions = PlaybackOptions(autoplay: false), duration: Double? = 60, video: Bool = true
  ) -> Self {
    let harness = Self(options: options)
    harness.interactor.start()
    harness.manager.becomeReady(duration: duration, video: video)
    harness.output.lines.removeAll()
    return harness
  }

  /// The report the session closed with (the last one).
  var report: SessionReport? { router.reports.last }
}

extension PlaybackInteractor {
  /// A command with no source line, as most tests submit them.
  @discardableResult func submit(_ command: Command) -> Int { submit(command, source: nil) }
  @discardableResult func submitInvalid(_ error: PlaybackError) -> Int { submitInvalid(error, source: nil) }
}

// Test doubles shared by the role tests: spies for the interactor's output and router, and a harness
// that wires an interactor to them and to a FakePlaybackManager (in VPKTestSupport, which the script
// runner's tests share).

import Foundation
import VPKTestSupport

@testable import VideoPlaybackKit

/// Records every `present…` call as a short line, so tests read like transcripts.
@MainActor
final class InteractorOutputSpy: PlaybackInteractorOutput {
  var lines: [String] = []
  var shutdownStatus: PlaybackStatus?
  var lastStatus: PlaybackStatus?
  var expectations: [(expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?)] = []

  func presentLoading(path: String) { lines.append("loading \(path)") }
  var readyPositions: [MediaTime] = []
  func presentReady(_ info: MediaInfo, position: MediaTime, commandID: Int?) {
    readyPositions.append(position)
    lines.append("ready #\(commandID ?? 0) \(info.path)")
  }
  func presentState(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, commandID: Int?) {
    lines.append("state #\(commandID ?? 0) \(state) \(position.seconds)")
  }
  func presentProgress(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double) {
    lines.append("progress \(position.seconds)")
  }
  func presentSeeked(_ result: SeekResult, requested: MediaTime?, duration: MediaTime?, showsTiming: Bool) {
    lines.append(
      "seeked #\(result.id) \(result.target.seconds) \(result.position.seconds) \(result.mode)"
        + (requested.map { " requested \($0.seconds)" } ?? "") + (showsTiming ? "" : " untimed"))
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
  func presentSnapshot(_ picture: FramePicture, commandID: Int) {
    lines.append("snapshot #\(commandID) \(picture.path) \(picture.frame.pts)")
  }
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
  func presentShutdown(reason: ShutdownReason, status: PlaybackStatus, openInterrupted: Bool, commandID: Int?) {
    shutdownStatus = status
    lines.append("shutdown #\(commandID ?? 0) \(reason.text)" + (openInterrupted ? " open interrupted" : ""))
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
  /// The manager for the file the session starts with (the harness's own).
  var nextManager: FakePlaybackManager?
  /// The managers handed in to be replaced (shut down here, their delegate left as it was so a
  /// test can make a stale report reach the interactor).
  var replaced: [FakePlaybackManager] = []
  weak var managerDelegate: (any PlaybackManagerDelegate)?

  func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)? {
    if wantsNew, current == nil, let first = nextManager {
      // The harness's own manager, for the file the session starts with: not counted as made for `open`.
      nextManager = nil
      first.delegate = managerDelegate
      return first
    }
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
    baseDirectory: String? = nil, openGrace: Double = 2
  ) {
    interactor = PlaybackInteractor(
      path: path, options: options, baseDirectory: baseDirectory, router: router, openGrace: openGrace)
    interactor.presenter = output
    router.managerDelegate = interactor
    // The first file's manager is the harness's own, so tests can drive it.
    if path != nil { router.nextManager = manager }
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

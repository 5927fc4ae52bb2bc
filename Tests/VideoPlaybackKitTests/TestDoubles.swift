// Test doubles shared by the role tests: spies for the interactor's output and router, and a harness
// that wires an interactor to them and to a FakePlaybackManager (in VPKTestSupport, which the script
// runner's tests share).

import Foundation
import VPKTestSupport

@testable import VideoPlaybackKit

/// Records every event presented as a short line, so tests read like transcripts.
@MainActor
final class InteractorOutputSpy: PlaybackInteractorOutput {
  var lines: [String] = []
  /// Every event with its origin, in order.
  var events: [(event: SessionEvent, origin: CommandOrigin?)] = []
  var shutdownStatus: PlaybackStatus?
  var lastStatus: PlaybackStatus?
  var expectations: [(expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?)] = []
  var readyPositions: [MediaTime] = []
  /// Called with each event as it is presented, before it is recorded.
  var onPresent: ((SessionEvent) -> Void)?

  func present(_ event: SessionEvent, origin: CommandOrigin?) {
    onPresent?(event)
    events.append((event, origin))
    let id = origin?.id ?? 0
    switch event {
    case .loading(let path, _): lines.append("loading \(path)")
    case .ready(let info, let position, _):
      readyPositions.append(position)
      lines.append("ready #\(id) \(info.path)")
    case .state(let state, let position, _): lines.append("state #\(id) \(state) \(position.seconds)")
    case .progress(let mark): lines.append("progress \(mark.position.seconds)")
    // Kept in `events` only: `lines` is what vpk's own dialects show, and they show no line for it.
    case .seekStarted: break
    case .seeked(let outcome):
      let result = outcome.result
      lines.append(
        "seeked #\(result.id) \(result.target.seconds) \(result.position.seconds) \(result.mode)"
          + (outcome.requested.map { " requested \($0.seconds)" } ?? "") + (outcome.showsTiming ? "" : " untimed"))
    case .superseded(let newer):
      lines.append("superseded #\(id) by \(newer.map { String($0.id) } ?? "shutdown")")
    case .stepped(let result, _):
      lines.append("stepped #\(result.id) \(result.moved)/\(result.requested) \(result.position.seconds)")
    case .rate(let rate): lines.append("rate #\(id) \(rate)")
    case .next(let paused): lines.append("next #\(id) \(paused ? "paused" : "playing")")
    case .ended(let end): lines.append("ended \(end.position.seconds) loops \(end.loops)")
    case .error(let error): lines.append("error #\(id) \(error.code.rawValue)")
    case .status(let status):
      lastStatus = status
      lines.append("status #\(id) \(status.state) \(status.position.seconds)")
    case .info: lines.append("info #\(id)")
    case .frame(let frame): lines.append("frame #\(id) \(frame.pts)")
    case .mark(let mark):
      lines.append("mark #\(id) \(mark.state) \(mark.position.seconds) \(mark.frame?.md5 ?? "none")")
    case .snapshot(let picture): lines.append("snapshot #\(id) \(picture.path) \(picture.frame.pts)")
    case .help: lines.append("help #\(id)")
    case .waited(let condition, let position):
      lines.append("waited #\(id) \(condition.description) at \(position.seconds)")
    case .expectation(let outcome):
      expectations.append((outcome.expected, outcome.actual, outcome.held, outcome.source))
      lines.append("expect #\(id) \(outcome.held ? "pass" : "fail") \(outcome.expectation.field.rawValue)")
    case .closed: lines.append("closed #\(id)")
    case .shutdown(let shutdown):
      shutdownStatus = shutdown.status
      lines.append(
        "shutdown #\(id) \(shutdown.reason.text)" + (shutdown.openInterrupted ? " open interrupted" : ""))
    case .entry(let entry): lines.append("entry #\(id) \(entry.index)/\(entry.count) id \(entry.id) \(entry.path)")
    case .expanded(let list, let firstID, let count):
      lines.append("expanded #\(id) \(list.index)/\(list.count) id \(list.id) \(list.path) into \(firstID)+\(count)")
    case .queue(let listing):
      lines.append(
        "queue #\(id) \(listing.entries.map(\.path).joined(separator: " ")) current \(listing.current ?? 0)")
    }
  }
}

extension PlaybackInteractorInput {
  /// Submits `command` as a test that is no view: its events carry no sender.
  @discardableResult func submit(_ command: Command, source: SourceLine?) -> Int {
    submit(command, source: source, from: nil)
  }
  @discardableResult func submitInvalid(_ error: PlaybackError, source: SourceLine?) -> Int {
    submitInvalid(error, source: source, from: nil)
  }
}

extension CommandOrigin {
  /// The origin of command `id` sent without a view (a test that submits to the interactor directly).
  static func id(_ id: Int) -> CommandOrigin { CommandOrigin(id: id, sender: nil) }
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
  /// The managers handed in to be replaced (shut down here, their events still wired so a
  /// test can make a stale report reach the interactor).
  var replaced: [FakePlaybackManager] = []
  /// Where the managers it hands out tell their events (the interactor, as the Builder wires it).
  weak var interactor: PlaybackInteractor?
  /// The list files there are, by path, and the files each names; the paths read, in order.
  var lists: [String: [PlaylistText.Entry]] = [:]
  var listsRead: [String] = []

  func readList(_ path: String) -> [PlaylistText.Entry]? {
    listsRead.append(path)
    return lists[path]
  }

  private func wire(_ manager: FakePlaybackManager) {
    manager.onEvent = { [weak interactor, weak manager] event in
      if let manager { interactor?.handle(event, from: manager) }
    }
  }

  func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)? {
    if wantsNew, current == nil, let first = nextManager {
      // The harness's own manager, for the file the session starts with: not counted as made for `open`.
      nextManager = nil
      wire(first)
      return first
    }
    gotos.append(wantsNew ? "new" : "none")
    if let current = current as? FakePlaybackManager {
      current.shutdown()
      replaced.append(current)
    }
    guard wantsNew else { return nil }
    let manager = FakePlaybackManager()
    wire(manager)
    made.append(manager)
    return manager
  }

  /// The starts outside the media the app was told of, as the file opened.
  var startClamps: [SessionReport.Clamp] = []
  func noteStartClamped(_ clamp: SessionReport.Clamp) { startClamps.append(clamp) }

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
    router.interactor = interactor
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

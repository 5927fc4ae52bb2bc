// PlaylistPrefetchTests: the queue's next entry opened ahead, through the real engine on real media: the interactor
// and the router as the Builder wires them, every manager an FFmpegPlaybackManager behind a recording wrapper. The
// session plays on the virtual clock, so what it tells is the same on every run; the test checks the order of what
// the managers were asked and told against the session's events.

import Foundation
import Testing
import VPKEngine
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite("Playlist: the next entry opened ahead, on the FFmpeg engine")
struct PlaylistPrefetchTests {
  /// What the managers were asked and told, and what the session told, in one order.
  final class Log {
    var lines: [String] = []
  }

  /// An FFmpegPlaybackManager that writes what it is asked and what it tells to the log, numbered in the order the
  /// router made them.
  final class RecordingManager: PlaybackManager {
    var onEvent: (@MainActor (PlaybackManagerEvent) -> Void)?
    let inner = FFmpegPlaybackManager()
    let number: Int
    let log: Log

    init(number: Int, log: Log) {
      self.number = number
      self.log = log
      inner.onEvent = { [weak self] event in
        guard let self else { return }
        switch event {
        case .ready: self.log.lines.append("m\(number) told ready")
        case .failedToOpen(let error): self.log.lines.append("m\(number) told failed \(error.code.rawValue)")
        case .ended: self.log.lines.append("m\(number) told ended")
        default: break
        }
        self.onEvent?(event)
      }
    }

    func prepare(path: String, configuration: PlaybackConfiguration) {
      let name = (path as NSString).lastPathComponent
      log.lines.append("m\(number) prepare \(name)\(configuration.opensAhead ? " ahead" : "")")
      inner.prepare(path: path, configuration: configuration)
    }
    func play() {
      log.lines.append("m\(number) play")
      inner.play()
    }
    func pause() { inner.pause() }
    func seek(_ request: SeekRequest) { inner.seek(request) }
    func step(_ request: StepRequest) { inner.step(request) }
    func setRate(_ rate: Double) { inner.setRate(rate) }
    func wait(_ request: PlaybackWait) { inner.wait(request) }
    func cancelWait(id: Int) { inner.cancelWait(id: id) }
    func snapshot() -> PlaybackSnapshot { inner.snapshot() }
    func currentFrame() -> FrameIdentity? { inner.currentFrame() }
    func writePicture(to path: String) throws(PlaybackError) -> FramePicture? { try inner.writePicture(to: path) }
    func shutdown() {
      log.lines.append("m\(number) shutdown")
      inner.shutdown()
    }
  }

  /// The session's events, as lines in the log.
  final class Output: PlaybackInteractorOutput {
    let log: Log
    init(log: Log) { self.log = log }

    func present(_ event: SessionEvent, origin: CommandOrigin?) {
      let id = origin.map { " #\($0.id)" } ?? ""
      switch event {
      case .ready(let info, _, _): log.lines.append("ready\(id) \((info.path as NSString).lastPathComponent)")
      case .error(let error): log.lines.append("error\(id) \(error.code.rawValue)")
      case .ended: log.lines.append("ended")
      case .shutdown: log.lines.append("shutdown")
      case .entry(let entry): log.lines.append("entry \(entry.index)")
      default: break
      }
    }
  }

  /// Waits (on the main actor, letting events in) until `condition` holds; a session that never gets there fails the
  /// test after a minute instead of hanging it.
  func eventually(_ what: String, _ condition: () -> Bool) async throws {
    for _ in 0..<12_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    try #require(condition(), "never: \(what)")
  }

  @Test func theNextEntryIsPreparedBeforeTheEndAndAFailingOneIsSkippedAtItsTurn() async throws {
    // Given a session on the virtual clock playing a list of four: two clips, a file that does not exist, a clip
    let h264 = try TestMedia.url(for: .h264BFrames).path
    let mpeg4 = try TestMedia.url(for: .mpeg4).path
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-no-such-\(getpid()).mp4").path
    let log = Log()
    var made = 0
    let router = PlaybackRouter(
      makeManager: {
        made += 1
        return RecordingManager(number: made, log: log)
      }, onClose: { _, _ in log.lines.append("closed") })
    var options = PlaybackOptions(autoplay: true, clock: .virtual, progressInterval: nil, endAction: .exit)
    options.playlist = PlayQueue(paths: [h264, mpeg4, missing, h264], isList: true)
    let interactor = PlaybackInteractor(path: nil, options: options, router: router)
    let output = Output(log: log)
    interactor.presenter = output
    router.managerEvents = { [weak interactor] event, manager in interactor?.handle(event, from: manager) }

    // When the first entry is ready
    interactor.start()
    try await eventually("the second entry ready ahead") { log.lines.contains("m2 told ready") }
    // Then the second was opened ahead as soon as the first was ready, and told the session nothing
    #expect(
      log.lines == [
        "entry 1", "m1 prepare \(name(h264))", "m1 told ready", "ready \(name(h264))", "m1 play",
        "m2 prepare \(name(mpeg4)) ahead", "m2 told ready",
      ])

    // When the first plays to its end
    interactor.submit(.wait(.ended, timeout: nil), source: nil, from: nil)
    try await eventually("the third entry failed ahead") { log.lines.contains("m3 told failed file_not_found") }
    // Then the second's ready (told by its manager before the end) is told after the first's end, and it plays; no
    // manager is made for it, the first is shut down once the second has taken over, and then the third is opened
    // ahead
    let afterEnd = Array(log.lines.drop { $0 != "m1 told ended" })
    #expect(
      afterEnd == [
        "m1 told ended", "ended", "entry 2", "ready \(name(mpeg4))", "m2 play", "m1 shutdown",
        "m3 prepare \(name(missing)) ahead", "m3 told failed file_not_found",
      ])

    // When `next` is sent: the third failed ahead
    let next = interactor.submit(.next, source: nil, from: nil)
    try await eventually("the fourth entry ready") { log.lines.contains("ready \(name(h264))", after: "entry 4") }
    // Then its failure answers the `next`, and the fourth is opened at once, as any file is, and plays (the second is
    // shut down once the third's turn, which began as the second's replacement, is over)
    let afterNext = Array(log.lines.drop { $0 != "entry 3" })
    #expect(
      afterNext == [
        "entry 3", "m3 shutdown", "error #\(next) file_not_found", "entry 4", "m4 prepare \(name(h264))",
        "m2 shutdown", "m4 told ready", "ready \(name(h264))", "m4 play",
      ])
    #expect(made == 4)

    // When the last entry ends, the session ends with it (--at-end exit), with nothing left opened ahead
    interactor.submit(.wait(.ended, timeout: nil), source: nil, from: nil)
    try await eventually("the session closed") { log.lines.contains("closed") }
    #expect(log.lines.suffix(3) == ["m4 shutdown", "shutdown", "closed"])
  }

  private func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}

extension Array where Element == String {
  /// Whether `line` comes somewhere after `earlier`.
  fileprivate func contains(_ line: String, after earlier: String) -> Bool {
    guard let start = firstIndex(of: earlier) else { return false }
    return self[start...].contains(line)
  }
}

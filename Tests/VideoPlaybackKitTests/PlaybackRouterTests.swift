import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite struct PlaybackRouterTests {
  private final class Made {
    var managers: [FakePlaybackManager] = []
    var closes: [(Int32, SessionReport)] = []
  }

  private func router(_ made: Made) -> PlaybackRouter {
    PlaybackRouter(
      makeManager: {
        let manager = FakePlaybackManager()
        made.managers.append(manager)
        return manager
      },
      onClose: { made.closes.append(($0, $1)) })
  }

  @Test func gotoMediaShutsTheOldManagerDownAndMakesANewOneWired() {
    // Given a router that hands every manager's events on, and a current manager telling its events
    let made = Made()
    let router = router(made)
    var told: [(event: PlaybackManagerEvent, from: ObjectIdentifier)] = []
    router.managerEvents = { event, manager in told.append((event, ObjectIdentifier(manager))) }
    let old = FakePlaybackManager()
    old.onEvent = { _ in }
    // When media changes
    let new = router.gotoMedia(replacing: old, wantsNew: true)
    // Then the old one is shut down and cut off, and the new one comes from the factory, wired: its events are handed
    // on with it
    #expect(old.isShutDown)
    #expect(old.onEvent == nil)
    #expect(made.managers.count == 1)
    #expect(new === made.managers[0])
    new?.onEvent?(.progress(MediaTime(seconds: 2)))
    #expect(told.count == 1)
    #expect(told.first?.event == .progress(MediaTime(seconds: 2)))
    #expect(told.first?.from == new.map { ObjectIdentifier($0) })
  }

  @Test func gotoMediaWithoutANewOneOnlyTearsDown() {
    let made = Made()
    let router = router(made)
    let old = FakePlaybackManager()
    #expect(router.gotoMedia(replacing: old, wantsNew: false) == nil)
    #expect(old.isShutDown)
    #expect(made.managers.isEmpty)
    // and with nothing to replace, a new one is just made
    #expect(router.gotoMedia(replacing: nil, wantsNew: true) != nil)
    #expect(made.managers.count == 1)
  }

  @Test func noNewManagerAfterTheSessionClosedAndCloseReportsOnce() {
    // Given a closed session
    let made = Made()
    let router = router(made)
    var report = SessionReport()
    report.expectCount = 2
    router.closeSession(exitCode: 1, report: report)
    router.closeSession(exitCode: 0, report: SessionReport())
    // Then the app heard once, with the first status and report
    #expect(made.closes.count == 1)
    #expect(made.closes.first?.0 == 1)
    #expect(made.closes.first?.1 == report)
    // When media is asked for, Then none is made, though the old one is still shut down
    let old = FakePlaybackManager()
    #expect(router.gotoMedia(replacing: old, wantsNew: true) == nil)
    #expect(made.managers.isEmpty)
    #expect(old.isShutDown)
  }

  @Test func aStartOutsideTheMediaIsHandedToTheAppAtOnceButNotAfterTheEnd() {
    // Given a router whose app listens for starts outside the media
    var told: [SessionReport.Clamp] = []
    let router = PlaybackRouter(
      makeManager: { FakePlaybackManager() }, onStartClamped: { told.append($0) }, onClose: { _, _ in })
    let clamp = SessionReport.Clamp(requested: MediaTime(seconds: 999), target: MediaTime(seconds: 10))
    // When the interactor notes one, Then the app hears it then
    router.noteStartClamped(clamp)
    #expect(told == [clamp])
    // and after the session closed, nothing more
    router.closeSession(exitCode: 0, report: SessionReport())
    router.noteStartClamped(clamp)
    #expect(told == [clamp])
  }
}

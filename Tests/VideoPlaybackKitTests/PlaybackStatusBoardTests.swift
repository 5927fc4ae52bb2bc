import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

/// The interactor's status board: what a `status` sent now would report, read without the main actor.
@MainActor
@Suite struct PlaybackStatusBoardTests {
  /// A ready, paused session whose manager can be read from any thread.
  private func readySession(options: PlaybackOptions = PlaybackOptions(autoplay: false)) -> InteractorHarness {
    let h = InteractorHarness(options: options)
    h.manager.offersConcurrentSnapshot = true
    h.interactor.start()
    h.manager.becomeReady(duration: 60)
    h.output.lines.removeAll()
    return h
  }

  @Test func withNothingUnderWayItSaysWhatStatusSays() {
    // Given a ready session at 12.5 s
    let h = readySession()
    h.manager.position = MediaTime(seconds: 12.5)
    // When the board is read, and `status` is asked
    let board = h.interactor.statusBoard.statusNow()
    h.interactor.submit(.status)
    // Then both say the same, and the board reads the manager's position when asked
    #expect(board == h.interactor.currentStatus())
    #expect(board?.position == MediaTime(seconds: 12.5))
    #expect(board?.state == .paused)
    #expect(board?.duration == MediaTime(seconds: 60))
    h.manager.position = MediaTime(seconds: 13)
    #expect(h.interactor.statusBoard.statusNow()?.position == MediaTime(seconds: 13))
  }

  @Test func itFollowsTheStateAndRate() {
    let h = readySession()
    h.interactor.submit(.play)
    h.interactor.submit(.rate(2))
    #expect(h.interactor.statusBoard.statusNow()?.state == .playing)
    #expect(h.interactor.statusBoard.statusNow()?.rate == 2)
  }

  @Test func whileASeekIsUnderWayItSaysNothingAsStatusWouldWait() {
    // Given a scrub that has not landed
    let h = readySession()
    h.interactor.submit(.scrub(.seconds(30), nil))
    // Then the board has no answer: a `status` now waits for the seek
    #expect(h.interactor.statusBoard.statusNow() == nil)
    // When it lands, the board answers again, at the seek's position
    h.manager.land(h.manager.seeks[0])
    #expect(h.interactor.statusBoard.statusNow()?.position == MediaTime(seconds: 30))
  }

  @Test func whileTheFileOpensItSaysNothing() {
    let h = InteractorHarness()
    h.manager.offersConcurrentSnapshot = true
    h.interactor.start()
    #expect(h.interactor.statusBoard.statusNow() == nil)
    h.manager.becomeReady()
    #expect(h.interactor.statusBoard.statusNow() != nil)
  }

  @Test func onTheVirtualClockItNeverAnswers() {
    // Every command there waits its turn, so a read must too
    let h = readySession(options: PlaybackOptions(autoplay: false, clock: .virtual))
    #expect(h.interactor.statusBoard.statusNow() == nil)
  }

  @Test func aManagerThatCannotBeReadOffTheMainActorGivesNoAnswer() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.play)
    #expect(h.interactor.statusBoard.statusNow() == nil)
  }

  @Test func idleWithNoFileItSaysIdleAtZero() {
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    let board = h.interactor.statusBoard.statusNow()
    #expect(board?.state == .idle)
    #expect(board?.position == .zero)
  }

  @Test func afterTheSessionClosedItSaysNothing() {
    let h = readySession()
    h.interactor.submit(.quit)
    #expect(h.interactor.statusBoard.statusNow() == nil)
  }
}

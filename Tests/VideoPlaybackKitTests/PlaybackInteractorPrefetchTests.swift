// PlaybackInteractorPrefetchTests: the next entry opened ahead of its turn (`+Prefetch`), with fake managers: which
// entry is opened and when, what its manager tells is held until its turn and told then as if it opened then (the
// same lines as without it), a failure ahead reported at its turn and skipped, and the prepared entry dropped when the
// queue is edited, the user goes elsewhere or the session ends.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite struct PlaybackInteractorPrefetchTests {
  /// A session playing the list `paths`, its first entry ready (the first entry's manager is the harness's own).
  static func list(
    _ paths: [String] = ["a.mp4", "b.mp4", "c.mp4"], loops: Bool = false,
    frameCacheBytes: Int = PlaybackConfiguration.defaultFrameCacheBytes
  ) -> InteractorHarness {
    var options = PlaybackOptions(autoplay: true, endAction: .exit)
    options.playlist = PlayQueue(paths: paths, loops: loops, isList: true)
    options.frameCacheBytes = frameCacheBytes
    let harness = InteractorHarness(options: options, path: paths.first)
    harness.interactor.start()
    harness.manager.becomeReady(path: paths[0])
    return harness
  }

  /// Lets the main actor run what is due: a prepared entry whose turn has come tells what it held on the main
  /// actor's next turn.
  static func nextTurn() async {
    for _ in 0..<10 { await Task.yield() }
  }

  @Test func whileAnEntryPlaysTheNextIsOpenedAheadAndTellsNothing() throws {
    // Given a list of three
    // When its first entry is ready
    let h = Self.list()
    // Then the second is opened ahead, at a lower priority, as the session would open it
    let ahead = try #require(h.router.made.first)
    #expect(h.router.made.count == 1)
    #expect(ahead.preparedPath == "b.mp4")
    #expect(ahead.configuration?.opensAhead == true)
    #expect(ahead.configuration?.startsPlaying == true)
    // When it becomes ready, ahead of its turn
    let before = h.output.lines
    ahead.becomeReady(path: "b.mp4")
    // Then nothing is told, and it does not play
    #expect(h.output.lines == before)
    #expect(!ahead.calls.contains("play"))
    #expect(h.interactor.path == "a.mp4")
  }

  @Test func theEndOfAnEntryUsesThePreparedOneAndTellsItsReadyAtOnce() throws {
    // Given a list of three whose second entry is ready ahead
    let h = Self.list()
    let second = try #require(h.router.made.first)
    second.becomeReady(path: "b.mp4")
    // When the first ends
    h.manager.reachEnd(at: 60)
    // Then the second loads and its ready is told at once, with no turn of the main actor between the end and it (no
    // command waits for an answer), and it plays with no manager made for it
    #expect(
      Array(h.output.lines.suffix(5)) == [
        "ended 60.0 loops 1", "entry #0 2/3 id 2 b.mp4", "loading b.mp4", "ready #0 b.mp4", "state #0 playing 0.0",
      ])
    #expect(second.calls == ["prepare b.mp4", "play"])
    #expect(h.interactor.state == .playing)
    // And the first is kept, paused, for going back to it, once the second has taken over
    #expect(!h.manager.isShutDown)
    #expect(h.manager.calls.last == "pause")
    #expect(!h.router.replaced.contains { $0 === h.manager })
    // And the third is opened ahead in its turn
    #expect(h.router.made.count == 2)
    #expect(h.router.made.last?.preparedPath == "c.mp4")
  }

  @Test func theEntryAfterAnEndPlaysFromWhenThatEndWasDueAndOneAMoveLoadsPlaysFromNow() async throws {
    // Given a list of three whose second and third entries are ready ahead in their turn, the first's end due on the
    // wall clock at host time 120.5
    let h = Self.list()
    let second = try #require(h.router.made.first)
    second.becomeReady(path: "b.mp4")
    h.manager.endDueTime = 120.5
    // When the first ends
    h.manager.reachEnd(at: 60)
    // Then the second plays with its clock started from that end, as the first's frames would have gone on
    #expect(second.calls == ["prepare b.mp4", "play continuing from 120.5"])
    // When `next` moves on to the third (no end: the second does not stand at one)
    let third = try #require(h.router.made.last)
    third.becomeReady(path: "c.mp4")
    h.interactor.submit(.next)
    await Self.nextTurn()
    // Then the third plays from now
    #expect(third.calls == ["prepare c.mp4", "play"])
  }

  @Test func goingBackPlaysTheEntryPlayedWithItsManagerAndTellsTheSameAsOpeningIt() async throws {
    // Given the same list played with nothing kept (no frame cache) and with the entry played kept
    let plain = Self.list(frameCacheBytes: 0)
    let kept = Self.list()
    let second = try #require(kept.router.made.last)
    second.becomeReady(path: "b.mp4")
    // When each plays its first entry to the end and its second starts
    plain.manager.reachEnd(at: 60)
    kept.manager.reachEnd(at: 60)
    await Self.nextTurn()
    try #require(plain.router.made.last).becomeReady(path: "b.mp4")
    let made = kept.router.made.count
    // And each goes back
    plain.interactor.submit(.previous)
    kept.interactor.submit(.previous)
    await Self.nextTurn()
    // Then the kept session plays the first entry again with the manager that played it, from its start, opening
    // nothing, and the plain one opens it
    #expect(kept.manager.calls.suffix(2) == ["pause", "reopen"])
    #expect(kept.router.made.count == made)
    #expect(plain.router.made.last?.preparedPath == "a.mp4")
    // When the first entry is ready again in both
    try #require(plain.router.made.last).becomeReady(path: "a.mp4")
    kept.manager.becomeReady(path: "a.mp4")
    // Then both told the same lines, and play it
    #expect(kept.output.lines == plain.output.lines)
    #expect(kept.manager.calls.last == "play")
    // And the second, left for it, is kept in turn and comes next: its manager prepares it again, from its start
    #expect(second.calls.suffix(2) == ["pause", "reopen"])
    #expect(!second.isShutDown)
    #expect(kept.router.made.count == made)
  }

  @Test func theEntryPlayedGoesWhenItLeavesTheQueueOrTheSessionEndsAndIsNotKeptOffTheWallClock() async throws {
    // Given a list whose first entry ended, its manager kept
    let h = Self.list()
    try #require(h.router.made.first).becomeReady(path: "b.mp4")
    h.manager.reachEnd(at: 60)
    #expect(!h.manager.isShutDown)
    // When the first entry is removed from the queue
    h.interactor.submit(.queue(.remove(1)))
    // Then its manager is shut down
    #expect(h.manager.isShutDown)
    // Given another list whose first entry ended, its manager kept
    let quitting = Self.list()
    try #require(quitting.router.made.first).becomeReady(path: "b.mp4")
    quitting.manager.reachEnd(at: 60)
    // When the session quits
    quitting.interactor.submit(.quit)
    // Then it is shut down
    #expect(quitting.manager.isShutDown)
    // Given the same list on the virtual clock
    var options = PlaybackOptions(autoplay: true, endAction: .exit)
    options.clock = .virtual
    options.playlist = PlayQueue(paths: ["a.mp4", "b.mp4", "c.mp4"], isList: true)
    let virtual = InteractorHarness(options: options, path: "a.mp4")
    virtual.interactor.start()
    virtual.manager.becomeReady(path: "a.mp4")
    try #require(virtual.router.made.first).becomeReady(path: "b.mp4")
    // When its first entry ends
    virtual.manager.reachEnd(at: 60)
    // Then nothing is kept: an open costs that clock no time
    #expect(virtual.manager.isShutDown)
  }

  @Test func theSessionTellsTheSameWithAndWithoutOpeningAhead() async throws {
    // Given the same list played with nothing opened ahead (no frame cache) and with the next entry opened ahead
    let plain = Self.list(frameCacheBytes: 0)
    let ahead = Self.list()
    #expect(plain.router.made.isEmpty)
    // When each plays its three entries, the entries opened ahead becoming ready before their turn
    try #require(ahead.router.made.last).becomeReady(path: "b.mp4")
    plain.manager.reachEnd(at: 60)
    ahead.manager.reachEnd(at: 60)
    await Self.nextTurn()
    try #require(plain.router.made.last).becomeReady(path: "b.mp4")
    try #require(ahead.router.made.last).becomeReady(path: "c.mp4")
    try #require(plain.router.made.last).reachEnd(at: 60)
    try #require(ahead.router.made.dropLast().last).reachEnd(at: 60)
    await Self.nextTurn()
    try #require(plain.router.made.last).becomeReady(path: "c.mp4")
    try #require(plain.router.made.last).reachEnd(at: 60)
    try #require(ahead.router.made.last).reachEnd(at: 60)
    // Then both tell the same lines, and end alike
    #expect(ahead.output.lines == plain.output.lines)
    #expect(ahead.router.exitCodes == [SessionExitCode.success])
    #expect(plain.router.exitCodes == [SessionExitCode.success])
  }

  @Test func aNextEntryThatFailsAheadIsReportedAtItsTurnAndSkipped() async throws {
    // Given a list whose second file fails to open ahead
    let h = Self.list()
    let second = try #require(h.router.made.first)
    let before = h.output.lines
    second.failToOpen(.fileNotFound)
    // Then nothing is told yet
    #expect(h.output.lines == before)
    // When the first ends
    h.manager.reachEnd(at: 60)
    await Self.nextTurn()
    // Then the failure is told at its turn and the third loads, with no wait for the second
    #expect(
      Array(h.output.lines.suffix(5)) == [
        "entry #0 2/3 id 2 b.mp4", "loading b.mp4", "error #0 file_not_found", "entry #0 3/3 id 3 c.mp4",
        "loading c.mp4",
      ])
    #expect(h.router.made.last?.preparedPath == "c.mp4")
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func nextAndGotoUseThePreparedEntryAndItsReadyAnswersThem() async throws {
    // Given a list of three whose second entry is ready ahead
    let h = Self.list()
    let second = try #require(h.router.made.first)
    second.becomeReady(path: "b.mp4")
    // When `next` is sent
    let next = h.interactor.submit(.next)
    await Self.nextTurn()
    // Then the prepared entry answers it, and no manager is made for it
    #expect(h.output.lines.contains("ready #\(next) b.mp4"))
    #expect(h.interactor.path == "b.mp4")
    #expect(h.router.made.count == 2)  // the second, and the third opened ahead once the second is current
    // When `goto 3` is sent, the third being ready ahead
    let third = try #require(h.router.made.last)
    third.becomeReady(path: "c.mp4")
    let goto = h.interactor.submit(.goto(3))
    await Self.nextTurn()
    // Then it is used as well
    #expect(h.output.lines.contains("ready #\(goto) c.mp4"))
    #expect(third.calls.contains("play"))
    #expect(h.router.made.count == 2)
  }

  @Test func removingTheEntryPlayingUsesThePreparedOneAndAnswersInTheSameOrder() async throws {
    // Given the same list played with nothing opened ahead and with the next entry opened ahead and ready
    let plain = Self.list(frameCacheBytes: 0)
    let ahead = Self.list()
    try #require(ahead.router.made.last).becomeReady(path: "b.mp4")
    // When the entry playing is removed, and a status sent after it
    for h in [plain, ahead] {
      h.interactor.submit(.queue(.remove(1)))
      h.interactor.submit(.status)
    }
    await Self.nextTurn()
    try #require(plain.router.made.last).becomeReady(path: "b.mp4")
    // Then the prepared one plays, and both tell the same lines in the same order: the removal's answer before the
    // next entry's ready, the status after it
    #expect(ahead.router.made.first?.calls.contains("play") == true)
    #expect(ahead.output.lines == plain.output.lines)
    #expect(ahead.output.lines.last?.hasPrefix("status") == true)
  }

  @Test func goingElsewhereDropsThePreparedEntry() throws {
    // Given a list of four whose second entry is opened ahead
    let h = Self.list(["a.mp4", "b.mp4", "c.mp4", "d.mp4"])
    let second = try #require(h.router.made.first)
    // When the user goes to the fourth
    h.interactor.submit(.goto(4))
    // Then the second is shut down, and the fourth opens as any file does
    #expect(second.isShutDown)
    let fourth = try #require(h.router.made.last)
    #expect(fourth.preparedPath == "d.mp4")
    #expect(fourth.configuration?.opensAhead == false)
    // When it is ready, the list does not loop: nothing comes next, nothing is opened ahead
    fourth.becomeReady(path: "d.mp4")
    #expect(h.router.made.count == 2)
  }

  @Test func editingTheQueueDropsThePreparedEntryForTheNewNext() throws {
    // Given a list of three whose second entry is opened ahead
    let h = Self.list()
    let second = try #require(h.router.made.first)
    // When a file is added after the current one
    h.interactor.submit(.queue(.addNext("x.mp4")))
    // Then the second goes, and the new next entry is opened ahead
    #expect(second.isShutDown)
    #expect(h.router.made.last?.preparedPath == "x.mp4")
    // When an edit leaves the next entry as it was (the last entry moved)
    let prepared = try #require(h.router.made.last)
    h.interactor.submit(.queue(.move(4, 3)))
    // Then the prepared one stays
    #expect(!prepared.isShutDown)
    #expect(h.router.made.count == 2)
    // When the queue is cleared
    h.interactor.submit(.queue(.clear))
    // Then nothing comes next and the prepared one goes
    #expect(prepared.isShutDown)
  }

  @Test func aLoopingListOpensTheFirstAheadAtItsLastButNotAListOfOne() throws {
    // Given a looping list of two, playing its second
    let h = Self.list(["a.mp4", "b.mp4"], loops: true)
    h.manager.reachEnd(at: 60)
    try #require(h.router.made.first).becomeReady(path: "b.mp4")
    // Then the first, played before, is prepared again by the manager that played it, from its start
    #expect(h.manager.calls.last == "reopen")
    #expect(h.router.made.count == 1)
    // Given a looping list of one
    let one = Self.list(["a.mp4"], loops: true)
    // Then nothing is opened ahead: the entry playing comes next
    #expect(one.router.made.isEmpty)
  }

  @Test func closingAndQuittingShutThePreparedEntryDown() throws {
    // Given a list whose second entry is opened ahead
    let h = Self.list()
    let second = try #require(h.router.made.first)
    // When the file is closed
    h.interactor.submit(.close)
    // Then the prepared one goes with it
    #expect(second.isShutDown)
    // Given another, when the session quits
    let q = Self.list()
    let prepared = try #require(q.router.made.first)
    q.interactor.submit(.quit)
    #expect(prepared.isShutDown)
    #expect(q.router.exitCodes == [SessionExitCode.success])
  }
}

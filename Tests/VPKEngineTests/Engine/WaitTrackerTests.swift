// WaitTracker on its own: when a `wait` is done and how, given the engine's clock time and playback state.

import Testing
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct WaitTrackerTests {
  private func playback(at position: Double, playing: Bool = true, atEnd: Bool = false, loops: Bool = false)
    -> WaitTracker.Playback
  {
    WaitTracker.Playback(position: position, playing: playing, atEnd: atEnd, loopsAtEnd: loops)
  }

  private func tracker(_ until: PlaybackWait.Until, timeout: Double? = nil, clock: ClockKind = .wall, now: Double = 10)
    -> WaitTracker
  {
    var waits = WaitTracker()
    waits.begin(PlaybackWait(id: 7, until: until, timeout: timeout), now: now, loops: 0, clock: clock, position: 2)
    return waits
  }

  @Test func aPositionWaitIsSatisfiedAtItsPositionAndNotBefore() {
    // Given a wait for 3 s, playing
    var waits = tracker(.position(MediaTime(seconds: 3)))
    // When playback is at 2.5 s, then at 3 s
    let early = waits.finish(now: 11, playback: playback(at: 2.5), loops: 0)
    let reached = waits.finish(now: 11, playback: playback(at: 3), loops: 0)
    // Then it runs on at first and is satisfied at 3 s, and no wait runs after
    #expect(early == nil)
    #expect(reached?.request.id == 7)
    #expect(reached?.outcome == .satisfied)
    #expect(!waits.isRunning)
  }

  @Test func aPositionAtMostWaitIsSatisfiedComingDownToItAndEndsAtTheStartOrPaused() {
    // Given waits for the position to come down to 3 s, playing backward
    var waits = tracker(.positionAtMost(MediaTime(seconds: 3)))
    var atStart = tracker(.positionAtMost(MediaTime(seconds: 3)))
    var paused = tracker(.positionAtMost(MediaTime(seconds: 3)))
    // When playback is at 3.5 s, then at 3 s; at the start of a file that starts at 4 s; paused at 5 s
    let early = waits.finish(now: 11, playback: playback(at: 3.5), loops: 0)
    let reached = waits.finish(now: 11, playback: playback(at: 3), loops: 0)
    let first = atStart.finish(now: 11, playback: playback(at: 4, atEnd: true), loops: 1)
    let stopped = paused.finish(now: 11, playback: playback(at: 5, playing: false), loops: 0)
    // Then it runs on above, is satisfied at 3 s, and ends at the start or paused
    #expect(early == nil)
    #expect(reached?.outcome == .satisfied)
    #expect(first?.outcome == .endedFirst)
    #expect(stopped?.outcome == .notPlaying)
    #expect(waits.targetPositionAtMost == nil)
    #expect(tracker(.positionAtMost(MediaTime(seconds: 3))).targetPositionAtMost == 3)
  }

  @Test func aPositionWaitEndsWhenPlaybackCannotGetThere() {
    // Given waits for 3 s
    var paused = tracker(.position(MediaTime(seconds: 3)))
    var ended = tracker(.position(MediaTime(seconds: 3)))
    // When playback is paused at 1 s, or stopped at the end of a 2 s file
    let whilePaused = paused.finish(now: 11, playback: playback(at: 1, playing: false), loops: 0)
    let atTheEnd = ended.finish(now: 11, playback: playback(at: 2, atEnd: true), loops: 0)
    // Then they say why
    #expect(whilePaused?.outcome == .notPlaying)
    #expect(atTheEnd?.outcome == .endedFirst)
  }

  @Test func anEndedWaitCountsLoopsFromItsStart() {
    // Given a wait for the end, begun after no loops
    var waits = tracker(.ended)
    // When no loop has completed, then one has
    let before = waits.finish(now: 11, playback: playback(at: 1), loops: 0)
    let after = waits.finish(now: 11, playback: playback(at: 0), loops: 1)
    // Then it is satisfied by the loop
    #expect(before == nil)
    #expect(after?.outcome == .satisfied)
  }

  @Test func anElapsedWaitEndsOnTheClockOrOnTheFreeClocksPosition() {
    // Given a 1 s wait begun at clock time 10 on the wall clock, and one begun at position 2 on the free clock
    var wall = tracker(.elapsed(1), now: 10)
    var free = tracker(.elapsed(1), clock: .free)
    // Then the wall clock's ends at clock time 11 and the free clock's at position 3
    #expect(wall.wakeTime(before: .infinity) == 11)
    #expect(wall.finish(now: 10.5, playback: playback(at: 0), loops: 0) == nil)
    #expect(wall.finish(now: 11, playback: playback(at: 0), loops: 0)?.outcome == .satisfied)
    #expect(free.finish(now: 99, playback: playback(at: 2.5), loops: 0) == nil)
    #expect(free.finish(now: 99, playback: playback(at: 3), loops: 0)?.outcome == .satisfied)
  }

  @Test func aTimeoutEndsAWaitThatIsNotDone() {
    // Given a wait for 3 s with a 2 s timeout, begun at clock time 10
    var waits = tracker(.position(MediaTime(seconds: 3)), timeout: 2, now: 10)
    // When the clock reaches 12 with playback at 1 s
    let outcome = waits.finish(now: 12, playback: playback(at: 1), loops: 0)
    // Then it timed out, and the timeout was its wake time
    #expect(outcome?.outcome == .timedOut)
    #expect(tracker(.position(MediaTime(seconds: 3)), timeout: 2, now: 10).wakeTime(before: 50) == 12)
  }

  @Test func aPositionPastALoopPassCanNeverBeReached() {
    // Given a wait for 5 s
    var waits = tracker(.position(MediaTime(seconds: 5)))
    // When a loop pass of 6 s goes by, then one of 4 s
    let longPass = waits.failIfBeyond(passLength: 6)
    let shortPass = waits.failIfBeyond(passLength: 4)
    // Then only the short pass ends it
    #expect(longPass == nil)
    #expect(shortPass?.id == 7)
    #expect(!waits.isRunning)
  }
}

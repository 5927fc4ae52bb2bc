import Testing

@testable import VideoPlaybackKit

@Suite("Resize hold")
struct ResizeHoldTests {
  @Test func aHoldStartsOnceAndEachStartBeginsANewWait() {
    // Given no hold
    var hold = ResizeHold()
    // When the width changes twice
    let first = hold.start(from: 120, now: 40)
    let second = hold.start(from: 40, now: 60)
    // Then the first started the hold, the second only a new wait, and only the latest wait ends the hold
    #expect(first.startedHold == hold.number)
    #expect(second.startedHold == nil)
    #expect(!hold.ends(hold.number, wait: first.wait))
    #expect(hold.ends(hold.number, wait: second.wait))
    // and the hold's longest ends it whatever the wait
    #expect(hold.ends(hold.number, wait: nil))
  }

  @Test func theWidestWidthCountsTheLastDrawsAndEveryWidthRead() {
    var hold = ResizeHold()
    _ = hold.start(from: 80, now: 30)
    _ = hold.start(from: 30, now: 100)
    _ = hold.start(from: 100, now: 50)
    #expect(hold.widest == 100)
  }

  @Test func endingGivesWhatWasHeldOnceAndAnOldHoldsTimersDoNothing() {
    // Given a hold with text held
    var hold = ResizeHold()
    _ = hold.start(from: 80, now: 30)
    let old = hold.number
    hold.held += "rate #5 rate=1.5\n"
    // When it ends
    let held = hold.end()
    // Then the text is given once, and no timer of it ends a later hold
    #expect(held == "rate #5 rate=1.5\n")
    #expect(hold.end().isEmpty)
    #expect(!hold.ends(old, wait: nil))
    _ = hold.start(from: 30, now: 40)
    #expect(!hold.ends(old, wait: nil))
  }
}

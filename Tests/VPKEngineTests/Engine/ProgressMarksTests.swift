// ProgressMarks on its own: where the next `progress` mark falls, and when a frame reaches it.

import Testing

@testable import VPKEngine

@Suite struct ProgressMarksTests {
  @Test func withoutAnIntervalThereAreNoMarks() {
    // Given marks with no interval
    var marks = ProgressMarks(interval: nil)
    // When playback starts
    marks.moveNext(atOrAfter: 0)
    // Then no mark is due, at any time
    #expect(marks.next == nil)
    #expect(!marks.isReached(at: 1_000))
  }

  @Test func theStartIsAMarkAndEachReportMovesToTheNextMultiple() {
    // Given marks every 0.5 s
    var marks = ProgressMarks(interval: 0.5)
    // When playback starts, then reports the start, then a frame at 1.2 s is reported
    marks.moveNext(atOrAfter: 0)
    let atStart = marks.next
    marks.moveNext(after: 0)
    let afterStart = marks.next
    marks.moveNext(after: 1.2)
    // Then the marks are 0, 0.5 and 1.5
    #expect(atStart == 0)
    #expect(afterStart == 0.5)
    #expect(marks.next == 1.5)
  }

  @Test func playingBackwardTheMarksComeDown() {
    // Given marks every 0.5 s, turned backward at 1.2 s
    var marks = ProgressMarks(interval: 0.5)
    marks.turn(backward: true, at: 1.2)
    // Then the next mark is 1.0, reached by a frame that starts at or before it, not after
    #expect(marks.next == 1.0)
    #expect(!marks.isReached(at: 1.1))
    #expect(marks.isReached(at: 0.96))
    // And after a report at 0.96 s comes 0.5, then 0, then none below the start
    marks.moveNext(past: 0.96)
    #expect(marks.next == 0.5)
    marks.moveNext(past: 0.5)
    #expect(marks.next == 0)
    marks.moveNext(past: 0)
    #expect(marks.next == nil)
    // And a loop pass from its end at 2 s starts at the mark there; turning forward at 1.2 s again goes up
    marks.moveNext(atOrBefore: 2)
    #expect(marks.next == 2)
    marks.turn(backward: false, at: 1.2)
    #expect(marks.next == 1.5)
    #expect(marks.isReached(at: 1.5) && !marks.isReached(at: 1.4))
  }

  @Test func aTimeJustBelowAMultipleInBinaryCountsAsThatMultiple() {
    // Given marks every 0.1 s, where 0.3 / 0.1 is 2.9999… in binary
    var marks = ProgressMarks(interval: 0.1)
    // When a frame at 0.3 s was reported
    marks.moveNext(after: 0.3)
    // Then the next mark is 0.4, not 0.3 again
    #expect(abs(marks.next! - 0.4) < 1e-12)
    // And at or after 0.3 is 0.3 itself
    #expect(abs(marks.mark(after: 0.3, inclusive: true)! - 0.3) < 1e-12)
  }

  @Test func aFrameReachesTheMarkWithinTheTolerance() {
    // Given the next mark at 1 s
    var marks = ProgressMarks(interval: 1)
    marks.moveNext(after: 0.5)
    // Then a frame a hair before it reaches it, one a millisecond before does not
    #expect(marks.isReached(at: 1 - 1e-10))
    #expect(!marks.isReached(at: 0.999))
  }
}

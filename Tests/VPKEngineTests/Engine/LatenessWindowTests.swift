// LatenessWindow on its own: the p99 of the newest samples, as `status` reports it.

import Testing

@testable import VPKEngine

@Suite struct LatenessWindowTests {
  @Test func withNoSamplesThereIsNoPercentile() {
    // Given an empty window
    let window = LatenessWindow()
    // Then there is no p99
    #expect(window.isEmpty)
    #expect(window.p99Milliseconds == nil)
  }

  @Test func theP99IsTheNearestRankInMilliseconds() {
    // Given frames 1 to 100 ms late, in any order
    var window = LatenessWindow()
    for late in (1...100).reversed() { window.record(Double(late) / 1000) }
    // Then the p99 is the 99th of them
    #expect(abs(window.p99Milliseconds! - 99) < 1e-9)
  }

  @Test func aFullWindowOverwritesItsSamplesInTurn() {
    // Given a window of three samples, filled
    var window = LatenessWindow(capacity: 3)
    for late in [0.001, 0.002, 0.003] { window.record(late) }
    // When two more come, one very late and then one on time
    window.record(0.5)
    window.record(0)
    // Then the first two were overwritten: the samples are 0.5, 0 and 3 ms, and the p99 is the highest
    #expect(window.p99Milliseconds == 500)
  }

  @Test func removingTheSamplesStartsAfresh() {
    // Given a window with a very late frame
    var window = LatenessWindow()
    window.record(2)
    // When its samples are removed (a seek) and a frame comes on time
    window.removeAll()
    #expect(window.p99Milliseconds == nil)
    window.record(0)
    // Then the p99 is that frame's
    #expect(window.p99Milliseconds == 0)
  }

  @Test func afterRemovingTheSamplesAFullWindowOverwritesTheOldestFirst() {
    // Given a window of three that was filled and overwritten once (its next slot is no longer the first), then cleared
    var window = LatenessWindow(capacity: 3)
    for late in [0.001, 0.002, 0.003, 0.004] { window.record(late) }
    window.removeAll()
    // When it fills again with a very late frame first, and then one more comes on time
    for late in [0.9, 0.001, 0.001] { window.record(late) }
    window.record(0)
    // Then the very late frame, the oldest, is the one overwritten
    #expect(window.p99Milliseconds == 1)
  }

  @Test func overALongRunThePercentileIsTheSortedWindows() {
    // Given a window of 64 samples, and 1,000 lateness values in a scrambled order, with repeats
    var window = LatenessWindow(capacity: 64)
    var values: [Double] = []
    var seed: UInt64 = 12_345
    for _ in 0..<1000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      values.append(Double(seed >> 54) / 1000)
    }
    // When each is recorded, the p99 read after each
    for (count, late) in values.enumerated() {
      window.record(late)
      // Then it is the nearest-rank p99 of the newest 64 (or fewer), as sorting them says
      let newest = values[max(0, count + 1 - 64)...count].sorted()
      let expected = newest[min(newest.count - 1, Int((Double(newest.count) * 0.99).rounded(.up)) - 1)] * 1000
      #expect(window.p99Milliseconds == expected, "after \(count + 1) samples")
    }
  }
}

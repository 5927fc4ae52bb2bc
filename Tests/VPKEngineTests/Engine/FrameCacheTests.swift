// FrameCache on its own, with fake frames: what a lookup finds, what goes first when the budget is full, and that a
// new decoder generation empties it.

import Testing

@testable import VPKEngine

private final class FakeFrame: CacheableFrame {
  let pts: Int64
  let time: Double
  let follows: Int64?
  let byteCount: Int

  init(_ index: Int, follows: Bool = true, bytes: Int = 100) {
    pts = Int64(index)
    time = Double(index) / 10
    self.follows = follows && index > 0 ? Int64(index - 1) : nil
    byteCount = bytes
  }
}

@Suite struct FrameCacheTests {
  /// A cache fed frames `range` as one decoder pass gives them (each follows the one before), with focus `focus`.
  private func filled(
    _ range: ClosedRange<Int>, budget: Int = 10_000, focus: Double? = nil, generation: Int = 1
  ) -> (FrameCache<FakeFrame>, [FakeFrame]) {
    var cache = FrameCache<FakeFrame>(budget: budget)
    let frames = range.map { FakeFrame($0, follows: $0 != range.lowerBound) }
    for frame in frames { cache.insert(frame, generation: generation, focus: focus ?? frame.time) }
    return (cache, frames)
  }

  @Test func aSeekFindsTheFrameWhoseIntervalContainsItsTargetOnlyWhenTheNextFrameIsKnown() {
    // Given frames 0...9 of one pass
    let (cache, _) = filled(0...9)
    // Then a time within frame 3 finds it, and a time just below frame 4's start too (within the tolerance)
    #expect(cache.frame(containing: 0.35, tolerance: 1e-6)?.pts == 3)
    #expect(cache.frame(containing: 0.4 - 1e-7, tolerance: 1e-6)?.pts == 4)
    // And the last frame, whose next frame was never given, is not known to contain anything after its start
    #expect(cache.frame(containing: 0.95, tolerance: 1e-6) == nil)
    // And nothing before the first frame
    #expect(cache.frame(containing: -0.05, tolerance: 1e-6) == nil)
  }

  @Test func stepsWalkBackOnlyAcrossFramesTheDecoderGaveInARow() {
    // Given frames 0...4, then frames 6...8 of another pass (the first of which follows nothing)
    var cache = FrameCache<FakeFrame>(budget: 10_000)
    let first = (0...4).map { FakeFrame($0, follows: $0 != 0) }
    let second = (6...8).map { FakeFrame($0, follows: $0 != 6) }
    for frame in first + second { cache.insert(frame, generation: 1, focus: 0.5) }
    // Then 4 walks back to 3, 8 to 7 to 6, and 6 no further: frame 5 was never given between them
    #expect(cache.frame(before: first[4])?.pts == 3)
    #expect(cache.frame(before: second[2])?.pts == 7)
    #expect(cache.frame(before: second[0]) == nil)
    #expect(cache.frame(after: first[3])?.pts == 4)
    #expect(cache.frame(after: first[4]) == nil)
    #expect(cache.frame(containing: 0.45, tolerance: 1e-6) == nil)
  }

  @Test func aFrameGivenAgainLinksItsNeighboursWithoutCountingTwice() {
    // Given frames 5...7 of one pass, then a pass from 2 that gives 2...5 again
    var cache = FrameCache<FakeFrame>(budget: 10_000)
    for frame in (5...7).map({ FakeFrame($0, follows: $0 != 5) }) { cache.insert(frame, generation: 1, focus: 0.5) }
    let again = (2...5).map { FakeFrame($0, follows: $0 != 2) }
    for frame in again { cache.insert(frame, generation: 1, focus: 0.5) }
    // Then 6 frames are held once each, and the walk back from 7 reaches 2
    #expect(cache.count == 6 && cache.bytes == 600)
    var walked: [Int64] = []
    var frame: FakeFrame? = FakeFrame(7)
    while let current = frame, let before = cache.frame(before: current) {
      walked.append(before.pts)
      frame = before
    }
    #expect(walked == [6, 5, 4, 3, 2])
    #expect(cache.frame(containing: 0.45, tolerance: 1e-6)?.pts == 4)
  }

  @Test func whenFullTheFrameFarthestFromTheFocusGoesFirstCountingFramesAfterItTwice() {
    // Given a budget of 5 frames and a focus at frame 10 (1.0 s)
    var cache = FrameCache<FakeFrame>(budget: 500)
    // When frames 0...14 come in order (a pass from the keyframe, on past the focus)
    for index in 0...14 { cache.insert(FakeFrame(index), generation: 1, focus: 1.0) }
    // Then the frames nearest the focus stay: 7 to 11 (12 is 0.2 s after, counted 0.4: farther than 7, 0.3 before)
    #expect(cache.count == 5 && cache.bytes == 500)
    #expect((0...14).filter { cache.frame(before: FakeFrame($0 + 1)) != nil } == [7, 8, 9, 10, 11])
    #expect(cache.frame(after: FakeFrame(11)) == nil)
    // And 11 is known to end where 12 starts, though 12 is not held
    #expect(cache.frame(containing: 1.15, tolerance: 1e-6)?.pts == 11)
  }

  @Test func aPassBackFromTheFocusKeepsTheLastFramesBeforeIt() {
    // Given a budget of 4 frames, and a pass from the keyframe (0) to the focus (frame 20) as a backward step makes
    var cache = FrameCache<FakeFrame>(budget: 400)
    for index in 0...20 { cache.insert(FakeFrame(index, follows: index != 0), generation: 1, focus: 2.0) }
    // Then the last frames of the pass stay, in a row
    #expect(cache.count == 4)
    #expect(cache.frame(before: FakeFrame(20))?.pts == 19)
    #expect(cache.frame(before: FakeFrame(18))?.pts == 17)
    #expect(cache.frame(before: FakeFrame(17)) == nil)
  }

  @Test func aFrameLargerThanTheBudgetOrAnOffCacheHoldsNothing() {
    var cache = FrameCache<FakeFrame>(budget: 50)
    cache.insert(FakeFrame(0), generation: 1, focus: 0)
    #expect(cache.count == 0 && cache.bytes == 0)
    var off = FrameCache<FakeFrame>(budget: 0)
    off.insert(FakeFrame(0, bytes: 1), generation: 1, focus: 0)
    #expect(!off.isEnabled && off.count == 0)
  }

  @Test func anotherDecoderGenerationEmptiesTheCache() {
    // Given frames of generation 1
    var (cache, _) = filled(0...5)
    // When a lookup is admitted for generation 2 (a new decoder, or a decode error)
    cache.admit(generation: 2)
    // Then nothing of generation 1 is found
    #expect(cache.count == 0 && cache.bytes == 0)
    #expect(cache.frame(containing: 0.25, tolerance: 1e-6) == nil)
    // And a frame of generation 3 coming in empties what generation 2 held
    cache.insert(FakeFrame(7, follows: false), generation: 2, focus: 0)
    cache.insert(FakeFrame(8), generation: 3, focus: 0)
    #expect(cache.count == 1 && cache.frame(before: FakeFrame(8, follows: true)) == nil)
  }
}

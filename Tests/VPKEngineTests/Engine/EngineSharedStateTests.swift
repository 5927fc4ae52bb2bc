// Unit tests of what EngineSharedState reports from its published fields, on the virtual clock: the position stays
// within the media, the start being where playing backward ends.

import Testing
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct EngineSharedStateTests {
  /// A state whose first frame comes at `start`, its clock at `position` and running at `rate`.
  private func state(start: Double, position: Double, rate: Double) -> EngineSharedState {
    let shared = EngineSharedState(clock: .virtual)
    shared.update { state in
      state.duration = 8
      state.start = start
      state.clock.setRate(rate, at: 0)
      state.clock.jump(to: position, at: 0)
      state.clock.start(at: 0)
    }
    return shared
  }

  @Test func whileTheClockRunsBackwardPastTheStartThePositionStaysAtTheStart() {
    // Given a file whose first frame comes at 0.021333 s, the clock at it running backward at rate -2
    let shared = state(start: 0.021333, position: 0.021333, rate: -2)
    // When 0.01 s pass before the engine thread stops the clock there
    shared.update { $0.virtualNow = 0.01 }
    // Then the position is the start, not the clock's 0.001333 below it
    #expect(shared.snapshot().position.seconds == 0.021333)
  }

  @Test func pausedOrPlayingForwardAPositionBeforeTheFirstFrameIsKept() {
    // Given the same file, at 0 (an exact seek to it), playing forward
    let shared = state(start: 0.021333, position: 0, rate: 1)
    // When no time passes
    // Then the position is 0: only playing backward ends at the first frame
    #expect(shared.snapshot().position.seconds == 0)
  }
}

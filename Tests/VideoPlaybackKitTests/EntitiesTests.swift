import Testing

@testable import VideoPlaybackKit

@Suite struct MediaTimeTests {
  @Test func clampsBelowStartAndPastEnd() {
    // Given a 10 s duration, When times outside it are clamped, Then they land on the ends.
    #expect(MediaTime(seconds: -3).clamped(to: MediaTime(seconds: 10)) == .zero)
    #expect(MediaTime(seconds: 12).clamped(to: MediaTime(seconds: 10)) == MediaTime(seconds: 10))
    #expect(MediaTime(seconds: 4).clamped(to: nil) == MediaTime(seconds: 4))
  }

  @Test func percentResolvesAgainstDuration() {
    #expect(TimeSpec.percent(50).resolved(duration: MediaTime(seconds: 8)) == MediaTime(seconds: 4))
  }
}

@Suite struct ProblemTextTests {
  @Test func timesInMessagesHaveThreeDecimalsLikeEveryOtherTime() {
    // Given a wait that cannot hold because playback is paused at a time with many decimals
    let error = PlaybackError(.waitNeverSatisfied(.duration(2), because: .pausedAt(MediaTime(seconds: 256.0 / 15))))
    // Then the message shows the time with three decimals
    #expect(error.message == "wait 2 s can never be satisfied: playback is paused at 17.067 s; play first")
  }
}

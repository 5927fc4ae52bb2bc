import Testing

@testable import VideoPlaybackKit

/// The bounds every command language checks, and the words they are written in.
@Suite("playback limits")
struct PlaybackLimitsTests {
  @Test("the rate's bounds are written as the parser's message has always written them")
  func rateMessage() {
    #expect(PlaybackLimits.text(PlaybackLimits.rate.lowerBound) == "0.01")
    #expect(PlaybackLimits.text(PlaybackLimits.rate.upperBound) == "100")
    #expect(
      CommandParser.rateUsage
        == "rate takes one speed between 0.01 and 100, or between -0.01 and -100 to play backward, e.g. rate 2, "
        + "rate 0.5 or rate -1")
  }

  @Test("the parser takes exactly the rates within the limits, either way")
  func parserFollowsTheLimits() {
    let parser = CommandParser()
    #expect(parser.parse("rate 0.01") == .command(.rate(0.01)))
    #expect(parser.parse("rate -100") == .command(.rate(-100)))
    if case .invalid = parser.parse("rate 0.009") {} else { Issue.record("rate 0.009 was taken") }
    if case .invalid = parser.parse("rate 100.5") {} else { Issue.record("rate 100.5 was taken") }
  }
}

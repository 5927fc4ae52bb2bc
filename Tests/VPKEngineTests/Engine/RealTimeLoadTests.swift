// RealTimeLoad on its own: one decoder thread's CPU time per second of media, times the rate, against the limit.

import Testing

@testable import VPKEngine

@Suite struct RealTimeLoadTests {
  @Test func nothingIsDecidedBeforeASecondOfMedia() {
    // Given a limit of half of real time
    var load = RealTimeLoad(limit: 0.5)
    var rateRead = false
    // When half a second of media took 0.9 s of CPU
    load.record(
      cpu: 0.9, media: 0.5,
      rate: {
        rateRead = true; return 1
      }())
    // Then it is not judged yet, and the rate was not even read
    #expect(!load.isTooSlow)
    #expect(!rateRead)
  }

  @Test func aSecondOfMediaOverTheLimitIsTooSlow() {
    // Given a limit of half of real time
    var load = RealTimeLoad(limit: 0.5)
    // When two halves of a second took 0.3 s of CPU each
    load.record(cpu: 0.3, media: 0.5, rate: 1)
    load.record(cpu: 0.3, media: 0.5, rate: 1)
    // Then 0.6 of real time is too slow
    #expect(load.isTooSlow)
  }

  @Test func theRateMultipliesTheShare() {
    // Given two measurements of 0.3 s of CPU for a second of media
    var atNormalSpeed = RealTimeLoad(limit: 0.5)
    var atDoubleSpeed = RealTimeLoad(limit: 0.5)
    // When one plays at rate 1 and the other at rate 2
    atNormalSpeed.record(cpu: 0.3, media: 1, rate: 1)
    atDoubleSpeed.record(cpu: 0.3, media: 1, rate: 2)
    // Then only double speed needs more than half of real time
    #expect(!atNormalSpeed.isTooSlow)
    #expect(atDoubleSpeed.isTooSlow)
  }

  @Test func eachSecondIsJudgedOnItsOwn() {
    // Given a second of media judged fast enough (0.4)
    var load = RealTimeLoad(limit: 0.5)
    load.record(cpu: 0.4, media: 1, rate: 1)
    // When the next 0.9 s of media took 0.6 s of CPU
    load.record(cpu: 0.6, media: 0.9, rate: 1)
    // Then nothing is judged yet: the first second is not counted again
    #expect(!load.isTooSlow)
  }

  @Test func resettingMeasuresAgain() {
    // Given a load found too slow
    var load = RealTimeLoad(limit: 0.5)
    load.record(cpu: 1, media: 1, rate: 1)
    // When it is reset (a new rate)
    load.reset()
    // Then it is not too slow until measured again
    #expect(!load.isTooSlow)
  }
}

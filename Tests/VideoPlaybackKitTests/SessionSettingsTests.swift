// SessionSettingsTests: the session's pause and rate in their two layers: a file's own settings, and the session's
// given back as the file goes.

import Testing

@testable import VideoPlaybackKit

@Suite struct SessionSettingsTests {
  @Test func aFilesOwnPauseAndSpeedAreGivenBackAsItGoes() {
    // Given a session that opens files playing at rate 1.5
    var settings = SessionSettings(opensPaused: false, rate: 1.5)
    // When a file opens with a pause and a speed of its own
    let replaced = SessionSettings.Replaced(
      opensPaused: settings.setPause(ofFile: true), rate: settings.setSpeed(ofFile: 3))
    // Then the file plays with them
    #expect(settings == SessionSettings(opensPaused: true, rate: 3))
    // When it goes, whatever it did
    let rateChanged = settings.fileWent(replaced: replaced, pausedAfter: true)
    // Then the session's are back, and the rate is said to have changed
    #expect(settings == SessionSettings(opensPaused: false, rate: 1.5))
    #expect(rateChanged)
  }

  @Test func aFileWithNoneOfItsOwnLeavesWhatItDid() {
    // Given a file that opened with the session's settings, its rate changed while it played
    var settings = SessionSettings(opensPaused: true, rate: 1)
    let replacedPause = settings.setPause(ofFile: nil)
    #expect(replacedPause == nil)
    settings.rate = 2
    // When it goes, paused
    let rateChanged = settings.fileWent(replaced: SessionSettings.Replaced(), pausedAfter: true)
    // Then the next file opens paused at the rate it left
    #expect(settings == SessionSettings(opensPaused: true, rate: 2))
    #expect(!rateChanged)
  }

  @Test func aFilesOwnSpeedKeepsTheDirectionThereIs() {
    // Given a session playing backward at rate -2
    var settings = SessionSettings(opensPaused: false, rate: -2)
    // When a file sets a speed of its own
    let before = settings.setSpeed(ofFile: 0.5)
    // Then it plays backward at that speed, and the rate it replaced comes back unchanged
    #expect(settings.rate == -0.5)
    #expect(before == -2)
    let changed = settings.giveBackRate(SessionSettings.Replaced(rate: before))
    let changedAgain = settings.giveBackRate(SessionSettings.Replaced(rate: -2))
    #expect(changed && !changedAgain)
    #expect(settings.rate == -2)
  }
}

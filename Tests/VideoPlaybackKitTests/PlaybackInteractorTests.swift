import Testing

@testable import VideoPlaybackKit

@MainActor
@Suite struct PlaybackInteractorTests {
  @Test func commandsBeforeReadyWaitAndThenRunInOrder() {
    // Given a session whose file is still opening
    let h = InteractorHarness()
    h.interactor.start()
    // When a scrub and a status arrive before the file is ready
    h.interactor.submit(.scrub(.seconds(30), nil))
    h.interactor.submit(.status)
    // Then nothing reaches the manager yet
    #expect(h.manager.seeks.isEmpty)
    // When the file becomes ready
    h.manager.becomeReady()
    // Then the scrub runs with id 1, and status waits for it to land
    #expect(h.manager.seeks == [SeekRequest(id: 1, target: MediaTime(seconds: 30), mode: .exact)])
    #expect(!h.output.lines.contains { $0.hasPrefix("status") })
    h.manager.land(h.manager.seeks[0])
    #expect(h.output.lines.suffix(2) == ["seeked #1 30.0 30.0 exact", "status #2 paused 30.0"])
  }

  @Test func skipIsRelativeToTheCurrentPosition() {
    // Given playback at 12 s
    let h = InteractorHarness.ready()
    h.manager.position = MediaTime(seconds: 12)
    // When skipping +10
    h.interactor.submit(.skip(10, nil))
    // Then the seek goes to 22 s, not to 10 s
    #expect(h.manager.seeks.last?.target == MediaTime(seconds: 22))
  }

  @Test func skipsAddUpWhileASeekIsRunning() {
    // Given a scrub to 30 that has not landed
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(30), nil))
    // When two skips follow before it lands
    h.interactor.submit(.skip(10, nil))
    h.interactor.submit(.skip(-5, .keyframe))
    // Then each builds on the one before: 40, then 35
    #expect(h.manager.seeks.map(\.target.seconds) == [30, 40, 35])
    #expect(h.manager.seeks.last?.mode == .keyframe)
  }

  @Test func targetsClampToTheMedia() {
    let h = InteractorHarness.ready(duration: 60)
    h.interactor.submit(.scrub(.seconds(-5), nil))
    h.interactor.submit(.scrub(.seconds(500), nil))
    h.interactor.submit(.scrub(.percent(150), nil))
    h.interactor.submit(.skip(-1e300, nil))
    h.interactor.submit(.scrub(.percent(50), nil))
    #expect(h.manager.seeks.map(\.target.seconds) == [0, 60, 60, 0, 30])
  }

  @Test func withNoKnownDurationTimesClampOnlyAtTheStartAndPercentIsAClearError() {
    // Given media that does not say how long it is
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false))
    h.interactor.start()
    h.manager.becomeReady(duration: nil)
    // When scrubbing to times and to a percentage
    h.interactor.submit(.scrub(.seconds(500), nil))
    h.interactor.submit(.scrub(.seconds(-5), nil))
    h.interactor.submit(.scrub(.percent(50), nil))
    // Then times pass through (clamped at 0 only) and the percentage is refused with a reason
    #expect(h.manager.seeks.map(\.target.seconds) == [500, 0])
    #expect(h.output.lines.last == "error #3 unavailable")
  }

  @Test func supersededSeeksReleaseTheBarrier() {
    // Given two scrubs and a status behind them
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(10), nil))
    h.interactor.submit(.scrub(.seconds(20), nil))
    h.interactor.submit(.status)
    // When the engine supersedes the first and lands the second
    h.manager.supersede(h.manager.seeks[0], by: h.manager.seeks[1])
    #expect(!h.output.lines.contains { $0.hasPrefix("status") })
    h.manager.land(h.manager.seeks[1])
    // Then status reports after both, at the second target
    #expect(h.output.lines == ["superseded #1 by 2", "seeked #2 20.0 20.0 exact", "status #3 paused 20.0"])
  }

  @Test func queriesNeverChangeState() {
    let h = InteractorHarness.ready()
    h.manager.frame = FrameIdentity(
      pts: 7, timeBase: (1, 30), time: .zero, isKeyframe: true, width: 1, height: 1, pixelFormat: "gray", md5: "x")
    h.interactor.submit(.status)
    h.interactor.submit(.info)
    h.interactor.submit(.frame)
    #expect(h.output.lines == ["status #1 paused 0.0", "info #2", "frame #3 7"])
    #expect(h.manager.calls.filter { $0 == "play" || $0 == "pause" || $0.hasPrefix("seek") }.isEmpty)
  }

  @Test func invalidLinesTakeAnIdAndKeepTheSessionGoing() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.play)
    h.interactor.submitInvalid(PlaybackError(.unknownCommand, "unknown"))
    h.interactor.submit(.status)
    #expect(h.output.lines == ["state #1 playing 0.0", "error #2 unknown_command", "status #3 playing 0.0"])
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func toggleFlipsPlayback() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.toggle)
    h.interactor.submit(.toggle)
    #expect(h.manager.calls.suffix(2) == ["play", "pause"])
    #expect(h.output.lines == ["state #1 playing 0.0", "state #2 paused 0.0"])
  }

  @Test func frameWithoutVideoIsAClearError() {
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false))
    h.interactor.start()
    h.manager.becomeReady(video: false)
    h.interactor.submit(.frame)
    #expect(h.output.lines.last == "error #1 unavailable")
  }

  @Test func autoplayAndStartPosition() {
    // Given --start 30 and autoplay
    let h = InteractorHarness(options: PlaybackOptions(autoplay: true, start: .seconds(30)))
    h.interactor.start()
    h.manager.becomeReady()
    // Then the start seek goes out before playback, and reports no seeked event of its own
    #expect(h.manager.calls.suffix(2) == ["seek 0 30.0 exact", "play"])
    h.manager.land(h.manager.seeks[0])
    #expect(!h.output.lines.contains { $0.hasPrefix("seeked") })
  }

  @Test func endExitsWithSuccessByDefault() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.manager.reachEnd(at: 60)
    #expect(h.output.lines == ["ended 60.0 loops 1", "shutdown #0 ended"])
    #expect(h.router.exitCodes == [0])
    #expect(h.manager.calls.last == "shutdown")
  }

  @Test func endWithPauseKeepsTheSessionAndPlayStartsOver() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .pause))
    h.manager.reachEnd(at: 60)
    h.interactor.submit(.status)
    h.interactor.submit(.play)
    #expect(h.output.lines.prefix(2) == ["ended 60.0 loops 1", "status #1 ended 60.0"])
    #expect(h.manager.seeks.last == SeekRequest(id: 2, target: .zero, mode: .keyframe))
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func endWithLoopLetsTheEngineGoOnWithoutASeek() {
    // Given looping playback (the engine loops by itself, without a gap)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .loop))
    #expect(h.manager.configuration?.loops == true)
    // When the end is reached twice
    h.manager.reachEnd(at: 60, loops: 1)
    h.manager.reachEnd(at: 60, loops: 2)
    // Then each end is reported with its count, and the interactor neither seeks nor pauses nor leaves
    #expect(h.output.lines == ["ended 60.0 loops 1", "ended 60.0 loops 2"])
    #expect(h.manager.seeks.isEmpty)
    #expect(!h.manager.calls.contains("pause"))
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func acceptingTheEndPausesTheManager() {
    // Given --at-end pause, When the end is reached, Then the manager is paused, so a later scrub stays paused
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .pause))
    h.manager.reachEnd(at: 60)
    #expect(h.manager.calls.last == "pause")
    h.interactor.submit(.scrub(.seconds(5), nil))
    h.manager.land(h.manager.seeks[0])
    h.interactor.submit(.status)
    #expect(h.output.lines.last == "status #2 paused 5.0")
  }

  @Test func anEndReportedBeforeAPendingSeekLandsIsIgnoredAndPlaybackGoesOn() {
    // Given playback with a scrub on its way, When the engine reports the end it reached first
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.scrub(.seconds(10), nil))
    h.manager.reachEnd(at: 60)
    // Then the end is stale: nothing is reported, the manager is not paused, the session goes on playing
    #expect(h.router.exitCodes.isEmpty)
    #expect(!h.output.lines.contains { $0.hasPrefix("ended") })
    #expect(!h.manager.calls.contains("pause"))
    h.manager.land(h.manager.seeks[0])
    h.interactor.submit(.status)
    #expect(h.output.lines.last == "status #2 playing 10.0")
  }

  @Test func inputEndedWhilePlayingWaitsForTheEnd() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.inputEnded()
    #expect(h.router.exitCodes.isEmpty)
    h.manager.reachEnd(at: 60)
    #expect(h.router.exitCodes == [0])
  }

  @Test func inputEndedWhilePausedLeavesOnceQueuedCommandsRan() {
    // Given a paused session with a scrub and a frame query still pending
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(5), nil))
    h.interactor.submit(.status)
    // When input ends
    h.interactor.inputEnded()
    #expect(h.router.exitCodes.isEmpty)
    // Then the session leaves once the seek has landed and status answered
    h.manager.land(h.manager.seeks[0])
    #expect(h.output.lines.suffix(2) == ["status #2 paused 5.0", "shutdown #0 input ended"])
    #expect(h.router.exitCodes == [0])
  }

  @Test func quitWaitsForEarlierSeeksSoEachIsAnswered() {
    // Given a scrub that has not landed, When quit follows it
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(3), nil))
    h.interactor.submit(.quit)
    #expect(h.router.exitCodes.isEmpty)
    // Then the session leaves once the seek has landed, at the position it landed on
    h.manager.land(h.manager.seeks[0])
    #expect(h.output.lines == ["seeked #1 3.0 3.0 exact", "shutdown #2 quit"])
    #expect(h.router.exitCodes == [0])
  }

  @Test func aSignalAnswersTheSeeksStillRunningAndReportsTheRealPosition() {
    // Given a scrub on its way from 12 s
    let h = InteractorHarness.ready()
    h.manager.position = MediaTime(seconds: 12)
    h.interactor.submit(.scrub(.seconds(40), nil))
    // When SIGTERM arrives
    h.interactor.terminate(.terminate)
    // Then the scrub is answered as cut short and the shutdown reports where playback really is
    #expect(h.output.lines == ["superseded #1 by shutdown", "shutdown #0 SIGTERM"])
    #expect(h.output.shutdownStatus?.position == MediaTime(seconds: 12))
    #expect(h.router.exitCodes == [143])
  }

  @Test func quitReportsAndExitsZero() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.quit)
    h.interactor.submit(.status)
    #expect(h.output.lines == ["shutdown #1 quit"])
    #expect(h.router.exitCodes == [0])
  }

  @Test func signalsExitWithTheirStatus() {
    let h = InteractorHarness.ready()
    h.interactor.terminate(.interrupt)
    h.interactor.terminate(.terminate)
    #expect(h.output.lines == ["shutdown #0 SIGINT"])
    #expect(h.router.exitCodes == [130])
  }

  @Test func aFileThatCannotOpenExitsWithItsStatus() {
    let h = InteractorHarness()
    h.interactor.start()
    h.interactor.submit(.status)
    h.manager.delegate?.playbackManager(h.manager, didFailToOpen: PlaybackError(.fileNotFound, "no such file"))
    #expect(h.output.lines == ["loading clip.mp4", "error #0 file_not_found", "shutdown #0 open failed"])
    #expect(h.manager.isShutDown)
    #expect(h.router.exitCodes == [3])
  }

  @Test func progressIsHeldBackWhileASeekIsPending() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.scrub(.seconds(40), nil))
    h.manager.delegate?.playbackManager(h.manager, didReachProgress: MediaTime(seconds: 3))
    h.manager.land(h.manager.seeks[0])
    h.manager.delegate?.playbackManager(h.manager, didReachProgress: MediaTime(seconds: 41))
    #expect(h.output.lines == ["seeked #1 40.0 40.0 exact", "progress 41.0"])
  }

  @Test func outputClosedStopsQuietly() {
    let h = InteractorHarness.ready()
    h.interactor.outputClosed()
    #expect(h.output.lines.isEmpty)
    #expect(h.router.exitCodes == [0])
    #expect(h.manager.calls.last == "shutdown")
  }
}

extension PlaybackInteractorTests {
  @Test func endAfterInputEndedReportsTheEndAsTheReason() {
    // Given playback with input already ended
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.inputEnded()
    // When the end is reached
    h.manager.reachEnd(at: 60)
    // Then the session leaves because it ended, once
    #expect(h.output.lines == ["ended 60.0 loops 1", "shutdown #0 ended"])
    #expect(h.router.exitCodes == [0])
  }
}

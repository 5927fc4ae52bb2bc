import Testing
import VPKTestSupport

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

  @Test func aClampedSeekSaysWhatWasAskedForAndOneWithinTheMediaDoesNot() {
    // Given 60 s of media
    let h = InteractorHarness.ready(duration: 60)
    // When scrubbing past the end, skipping before the start, and scrubbing within the media
    h.interactor.submit(.scrub(.seconds(65), nil))
    h.manager.land(h.manager.seeks[0])
    h.interactor.submit(.skip(-100, nil))
    h.manager.land(h.manager.seeks[1])
    h.interactor.submit(.scrub(.seconds(30), nil))
    h.manager.land(h.manager.seeks[2])
    // Then the clamped seeks carry the time asked for, and the other carries none
    #expect(
      h.output.lines == [
        "seeked #1 60.0 60.0 exact requested 65.0", "seeked #2 0.0 0.0 exact requested -40.0",
        "seeked #3 30.0 30.0 exact",
      ])
  }

  @Test func aSupersededClampedSeekLeavesNothingForTheNextSeekWithItsId() {
    // Given a clamped scrub that a newer one supersedes
    let h = InteractorHarness.ready(duration: 60)
    h.interactor.submit(.scrub(.seconds(99), nil))
    h.interactor.submit(.scrub(.seconds(10), nil))
    h.manager.supersede(h.manager.seeks[0], by: h.manager.seeks[1])
    h.manager.land(h.manager.seeks[1])
    // Then the superseded one says so, and the one that landed was not clamped
    #expect(h.output.lines == ["superseded #1 by 2", "seeked #2 10.0 10.0 exact"])
    #expect(h.interactor.commands.requestedBeforeClamp.isEmpty)
  }

  @Test(arguments: [(TimeSpec.seconds(999), 999.0, 60.0), (.percent(150), 90, 60), (.seconds(-3), -3, 0)])
  func aStartOutsideTheMediaIsReportedToWhoeverRanTheSession(start: TimeSpec, requested: Double, target: Double) {
    // Given --start outside the media
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false, start: start))
    h.interactor.start()
    h.manager.becomeReady(duration: 60)
    // Then the app is told as the file opens, before the session ends
    #expect(
      h.router.startClamps
        == [SessionReport.Clamp(requested: MediaTime(seconds: requested), target: MediaTime(seconds: target))])
    #expect(h.router.exitCodes.isEmpty)
    h.manager.land(h.manager.seeks[0])
    // When the session ends
    h.interactor.inputEnded()
    // Then its report names the start asked for and where playback started
    #expect(h.manager.seeks[0].target.seconds == target)
    #expect(
      h.router.reports.first?.startClamped
        == SessionReport.Clamp(requested: MediaTime(seconds: requested), target: MediaTime(seconds: target)))
  }

  @Test func aFileOpenedAtItsStartPositionNamesItInReady() {
    // Given --start 30 s, and a session without one
    let started = InteractorHarness(options: PlaybackOptions(autoplay: false, start: .seconds(30)))
    let plain = InteractorHarness(options: PlaybackOptions(autoplay: false))
    // When each opens its file
    for h in [started, plain] {
      h.interactor.start()
      h.manager.becomeReady(duration: 60)
    }
    // Then ready names the start position the file opens at, by a seek, or none
    let starts = { (h: InteractorHarness) in
      h.output.events.compactMap { if case .ready(_, _, let start) = $0.0 { Optional(start) } else { nil } }
    }
    #expect(starts(started) == [MediaTime(seconds: 30)])
    #expect(starts(plain) == [nil])
  }

  @Test func aStartWithinTheMediaIsNotReportedAsClamped() {
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false, start: .seconds(30)))
    h.interactor.start()
    h.manager.becomeReady(duration: 60)
    h.manager.land(h.manager.seeks[0])
    h.interactor.inputEnded()
    #expect(h.router.reports.first?.startClamped == nil)
  }

  @Test func playAtTheEndHasOneReplyAndStartsOverFromTheStart() {
    // Given playback stopped at the end (--at-end pause)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .pause))
    h.manager.reachEnd(at: 60)
    // When `play` arrives, and a status after it
    h.interactor.submit(.play)
    h.interactor.submit(.status)
    // Then the manager seeks to the start on the interactor's own id, and plays
    #expect(h.manager.seeks.last == SeekRequest(id: 0, target: .zero, mode: .keyframe))
    #expect(h.manager.calls.last == "play")
    // and the status waits for that seek
    #expect(!h.output.lines.contains { $0.hasPrefix("status") })
    h.manager.land(h.manager.seeks.last!)
    // and the play's one reply is its state: no seeked event
    #expect(h.output.lines == ["ended 60.0 loops 1", "state #1 playing 0.0", "status #2 playing 0.0"])
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

  /// The events presented, by name, with the ids of the commands they answer.
  private static func names(_ h: InteractorHarness) -> [String] {
    h.output.events.map { "\($0.event.name) #\($0.origin?.id ?? 0)" }
  }

  @Test func everySeekAndStepACommandStartsIsToldToEveryoneOnceBeforeItLands() {
    // Given a ready file
    let h = InteractorHarness.ready()
    h.output.events.removeAll()
    // When a scrub, a skip and a step are sent, the first superseded by the second, and each lands
    h.interactor.submit(.scrub(.seconds(10), nil))
    h.interactor.submit(.skip(5, nil))
    h.manager.supersede(h.manager.seeks[0], by: h.manager.seeks[1])
    h.manager.land(h.manager.seeks[1])
    h.interactor.submit(.step(-1))
    h.manager.finishStep(h.manager.steps[0], moved: -1, at: 14.96)
    // Then each is told as it starts, once, where it goes (a step: how many frames), before its answer
    #expect(
      Self.names(h) == [
        "seek-started #1", "seek-started #2", "superseded #1", "seeked #2", "seek-started #3", "stepped #3",
      ])
    let starts = h.output.events.filter { if case .seekStarted = $0.event { true } else { false } }
    #expect(
      starts.map(\.event) == [
        .seekStarted(.time(MediaTime(seconds: 10))), .seekStarted(.time(MediaTime(seconds: 15))),
        .seekStarted(.frames(-1)),
      ])
    // And to every view, as no reply
    #expect(starts.allSatisfy { $0.event.audience == .everyone && !$0.event.isReply })
  }

  @Test func theSessionsOwnSeeksAndRefusedSeeksAreNotToldAsStarted() {
    // Given a file opened with a start position, which plays to its end (--at-end pause)
    let h = InteractorHarness(
      options: PlaybackOptions(autoplay: true, start: .seconds(5), endAction: .pause))
    h.interactor.start()
    h.manager.becomeReady()
    h.manager.land(h.manager.seeks[0])
    h.manager.reachEnd(at: 60)
    // When play starts it over, and a percentage is asked of a seek the session refuses
    h.interactor.submit(.play)
    h.manager.land(h.manager.seeks.last!)
    h.interactor.submit(.scrub(.seconds(.infinity), nil))
    // Then neither the seek to the start, the seek back to the start nor the refused seek is told as started
    #expect(!h.output.events.contains { if case .seekStarted = $0.event { true } else { false } })
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

  @Test func markReportsStatePositionAndFrameTogetherWithoutChangingPlayback() {
    // Given a paused session at 4.5 s showing a frame, and one that is idle
    let h = InteractorHarness.ready()
    h.manager.position = MediaTime(seconds: 4.5)
    h.manager.frame = FrameIdentity(
      pts: 135, timeBase: (1, 30), time: MediaTime(seconds: 4.5), isKeyframe: false, width: 1, height: 1,
      pixelFormat: "gray", md5: "m")
    // When it is marked, from a line of a script
    h.interactor.submit(.mark, source: SourceLine(number: 7, text: "mark"))
    h.interactor.submit(.close)
    h.interactor.submit(.mark)
    // Then the mark carries them with its line, nothing moves, and with nothing loaded there is no frame
    #expect(h.output.lines == ["mark #1 paused 4.5 m", "closed #2", "mark #3 idle 0.0 none"])
    let sources = h.output.events.compactMap { if case .mark(let mark) = $0.event { mark.source } else { nil } }
    #expect(sources.map(\.number) == [7])
    #expect(h.manager.calls.filter { $0 == "play" || $0 == "pause" || $0.hasPrefix("seek") }.isEmpty)
  }

  @Test func frameWithoutVideoIsAClearError() {
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false))
    h.interactor.start()
    h.manager.becomeReady(video: false)
    h.interactor.submit(.frame)
    #expect(h.output.lines.last == "error #1 unavailable")
  }

  @Test func readyIsPresentedWithThePositionOfTheFirstFrame() {
    // Given media whose first frame is at 0.014 s
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false))
    h.interactor.start()
    h.manager.position = MediaTime(seconds: 0.014)
    // When it is ready
    h.manager.becomeReady()
    // Then ready carries that position, as status does
    #expect(h.output.readyPositions == [MediaTime(seconds: 0.014)])
    h.interactor.submit(.status)
    #expect(h.output.lines.last == "status #1 paused 0.014")
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

  @Test(arguments: [true, false])
  func theManagerIsToldWhetherPlayingStartsOnReady(autoplay: Bool) {
    // Given a session that plays on ready, or one started with --paused
    let h = InteractorHarness(options: PlaybackOptions(autoplay: autoplay))
    // When it opens its file
    h.interactor.start()
    // Then the configuration carries the hint the engine prepares its decoder by
    #expect(h.manager.configuration?.startsPlaying == autoplay)
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
    #expect(h.manager.seeks.last == SeekRequest(id: PlaybackInteractor.internalSeekID, target: .zero, mode: .keyframe))
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func theStartReachedBackwardWithPauseKeepsTheSessionAndPlayStartsOverFromTheEnd() {
    // Given playback backward with --at-end pause
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .pause))
    h.interactor.submit(.rate(-1))
    // When the engine reaches the start, then status and play
    h.interactor.handle(.ended(position: .zero, loops: 1, direction: .backward), from: h.manager)
    h.interactor.submit(.status)
    h.interactor.submit(.play)
    // Then the session stands at the start, ended and paused, and play starts over from the end, exactly
    #expect(h.output.lines.prefix(3) == ["rate #1 -1.0", "ended 0.0 loops 1", "status #2 ended 0.0"])
    #expect(h.manager.calls.contains("pause"))
    #expect(
      h.manager.seeks.last
        == SeekRequest(id: PlaybackInteractor.internalSeekID, target: MediaTime(seconds: 60), mode: .exact))
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

  @Test func endWithIdleClosesTheFileAndTheSessionWaitsForTheNext() {
    // Given playback with --at-end idle (mpv's --idle)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .idle))
    // When the end is reached, and status and an open follow
    h.manager.reachEnd(at: 60)
    h.interactor.submit(.status)
    h.interactor.submit(.open("next.mp4"))
    // Then the end is reported, the file closed by no command, the session idle, and the next file opens
    #expect(h.output.lines.prefix(3) == ["ended 60.0 loops 1", "closed #0", "status #1 idle 0.0"])
    #expect(h.output.lines.contains { $0.hasPrefix("loading") })
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test(arguments: [EndAction.idle, .pause, .exit])
  func anEndReachedWhilePausedDoesWhatAtEndSays(action: EndAction) {
    // Given a paused file, with an --at-end policy
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, endAction: action), duration: 60)
    // When a skip to the next keyframe finds none after its target: it lands at the end, and the end is reached
    h.interactor.submit(.skip(100, .nextKeyframe))
    h.interactor.submit(.status)
    h.manager.land(h.manager.seeks[0], at: 60)
    h.manager.reachEnd(at: 60)
    // Then the seek is told, the command behind it is answered with the file still there, and then the end does what
    // --at-end says (mpv's keyframe seek past the last one)
    let ends = h.output.events.compactMap { if case .ended(let end) = $0.event { end } else { nil } }
    #expect(ends.map(\.action) == [action])
    let seeked = h.output.lines.firstIndex { $0.hasPrefix("seeked") }
    let status = h.output.lines.firstIndex { $0.hasPrefix("status") }
    let ended = h.output.lines.firstIndex { $0.hasPrefix("ended") }
    #expect(seeked != nil && status != nil && ended != nil && seeked! < status! && status! < ended!)
    switch action {
    case .idle:
      // And the file closes, leaving the next file paused, as this one was
      #expect(h.output.events.contains { $0.event == .closed(nextPaused: true) })
    case .exit: #expect(h.router.exitCodes == [SessionExitCode.success])
    default: #expect(h.router.exitCodes.isEmpty && !h.output.lines.contains("closed #0"))
    }
  }

  @Test func aStepSentBehindASeekThatMeetsTheEndRunsFirst() {
    // Given a paused file that goes idle at its end, and a skip past the last keyframe with a step behind it
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, endAction: .idle), duration: 60)
    h.interactor.submit(.skip(100, .nextKeyframe))
    h.interactor.submit(.step(1))
    // When the seek lands at the end and the end is reported before the step is answered
    h.manager.land(h.manager.seeks[0], at: 60)
    h.manager.reachEnd(at: 60)
    #expect(!h.output.lines.contains { $0.hasPrefix("ended") })
    // Then the step, which finds no frame, is answered first, and the end follows (the file goes idle)
    h.manager.finishStep(h.manager.steps[0], moved: 0, at: 60)
    let stepped = h.output.lines.firstIndex { $0.hasPrefix("stepped") }
    let ended = h.output.lines.firstIndex { $0.hasPrefix("ended") }
    #expect(stepped != nil && ended != nil && stepped! < ended!)
    #expect(h.output.events.contains { $0.event == .closed(nextPaused: true) })
    // And the session goes on: a status is answered
    h.output.lines.removeAll()
    h.interactor.submit(.status)
    #expect(h.output.lines.first?.hasPrefix("status") == true)
  }

  @Test func aStepBackBehindASeekThatMeetsTheEndTakesPlaybackOffIt() {
    // Given a paused file kept open at its end, and a skip past the last keyframe with a step back behind it
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, endAction: .pause), duration: 60)
    h.interactor.submit(.skip(100, .nextKeyframe))
    h.interactor.submit(.step(-1))
    // When the end is reported before the step back lands on the frame before
    h.manager.land(h.manager.seeks[0], at: 60)
    h.manager.reachEnd(at: 60)
    h.manager.finishStep(h.manager.steps[0], moved: -1, at: 59.96)
    // Then no end is told and the session is paused there, free to play on
    #expect(!h.output.lines.contains { $0.hasPrefix("ended") })
    h.interactor.submit(.status)
    #expect(h.output.lines.last?.hasPrefix("status #3 paused") == true, "\(h.output.lines)")
  }

  @Test func aWaitTheEndDoesNotSatisfyFailsWhenTheFileGoesIdle() {
    // Given playback that goes idle at its end, with a wait for a time still running
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .idle), duration: 60)
    h.interactor.submit(.wait(.duration(5), timeout: nil))
    // When the end is reached and the file goes
    h.manager.reachEnd(at: 60)
    // Then the wait is answered with its failure, and the session goes on
    #expect(h.output.lines.contains { $0.hasPrefix("error") && $0.contains("wait") })
    h.output.lines.removeAll()
    h.interactor.submit(.status)
    #expect(h.output.lines.first?.hasPrefix("status") == true)
  }

  @Test(arguments: EndAction.allCases)
  func theEndSaysWhatFollowsIt(action: EndAction) {
    // Given playback with an --at-end policy
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: action))
    // When the end is reached
    h.manager.reachEnd(at: 60)
    // Then the ended event names what the session does next, for presenters that show it before it happens
    let ends = h.output.events.compactMap { if case .ended(let end) = $0.event { end } else { nil } }
    #expect(ends.map(\.action) == [action])
  }

  @Test func theStartRateAndStartHoldForFilesOpenedLater() {
    // Given a session started at rate 2 and at the middle of every file (--rate 2 --start 50%)
    var options = PlaybackOptions(autoplay: false, start: .percent(50))
    options.rate = 2
    let h = InteractorHarness.ready(options: options)
    // (the first file's start seek lands)
    h.manager.land(h.manager.seeks[0])
    // When another file is opened
    h.interactor.submit(.open("b.mp4"))
    let made = h.router.made[0]
    made.becomeReady(duration: 60)
    // Then each file started at rate 2, the rate told by no command, and the later one at its half too
    #expect(h.manager.rates == [2])
    #expect(made.rates == [2])
    #expect(h.output.lines.contains("rate #0 2.0"))
    #expect(made.seeks.first?.target == MediaTime(seconds: 30))
  }

  @Test func aStartGivenWithTheFileComesBeforeTheSessionsAndHoldsForThatFileOnly() {
    // Given a session that starts every file at its middle (--start 50%), the first file's start seek landed
    let options = PlaybackOptions(autoplay: false, start: .percent(50))
    let h = InteractorHarness.ready(options: options)
    h.manager.land(h.manager.seeks[0])
    // When a file replaces it with a start of its own 2 s before its end (`loadfile b.mp4 replace start=-2`)
    h.replaceQueue("b.mp4", EntryOptions(start: .beforeEnd(2)))
    h.router.made[0].becomeReady(duration: 60)
    // Then it opens there, told in `ready`, and whoever ran vpk is told of no clamp
    #expect(h.router.made[0].seeks.first?.target == MediaTime(seconds: 58))
    let starts = h.output.events.compactMap { if case .ready(_, _, let start) = $0.event { start } else { nil } }
    #expect(starts.last == MediaTime(seconds: 58))
    // When the next file replaces it without one, and one after that with a start past its end
    h.router.made[0].land(h.router.made[0].seeks[0])
    h.replaceQueue("c.mp4")
    h.router.made[1].becomeReady(duration: 60)
    h.router.made[1].land(h.router.made[1].seeks[0])
    h.replaceQueue("d.mp4", EntryOptions(start: .time(.seconds(999))))
    h.router.made[2].becomeReady(duration: 60)
    // Then the next opens at the session's start again, and the last at its end, not reported as the session's start
    #expect(h.router.made[1].seeks.first?.target == MediaTime(seconds: 30))
    #expect(h.router.made[2].seeks.first?.target == MediaTime(seconds: 60))
    #expect(h.router.startClamps.isEmpty)
  }

  @Test func aPauseGivenWithTheFileHoldsForThatFileOnlyAndThePauseItReplacedComesBack() {
    // Given a session that plays what it opens, its file playing (no frame cache: each file's manager is made as it
    // loads, so the configuration it is given is the one decided then)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, frameCacheBytes: 0))
    // When a file replaces it, opened paused by a pause of its own (`loadfile b.mp4 replace pause=yes`)
    h.replaceQueue("b.mp4", EntryOptions(paused: true))
    h.router.made[0].becomeReady()
    // Then it opens paused
    #expect(h.router.made[0].configuration?.startsPlaying == false)
    // When it is played and paused again, then replaced by a file with no pause of its own
    h.interactor.submit(.play)
    h.interactor.submit(.pause)
    h.replaceQueue("c.mp4")
    h.router.made[1].becomeReady()
    // Then that one opens playing, as the file before b.mp4 left it, whatever was done with b.mp4
    #expect(h.router.made[1].configuration?.startsPlaying == true)
    // When a file opened playing by its own pause (`pause=no`) is closed after the session was paused
    h.interactor.submit(.pause)
    h.replaceQueue("d.mp4", EntryOptions(paused: false))
    h.router.made[2].becomeReady()
    h.interactor.submit(.close)
    // Then the session is paused again for the next file, and says so as it closes
    let closes = h.output.events.compactMap {
      if case .closed(let nextPaused) = $0.event { nextPaused } else { nil }
    }
    #expect(closes == [true])
  }

  @Test func aFileWithAPauseOfItsOwnThatFailsToOpenLeavesThePauseItReplacedAndSaysSo() {
    // Given a session that plays what it opens, its file playing, idle when its queue ends
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .idle))
    // When a file with a pause of its own replaces it and cannot be opened
    h.replaceQueue("none.mp4", EntryOptions(paused: true))
    h.router.made[0].failToOpen()
    // Then the session is idle, and the next file opens playing again, as the file replaced left it, said after the
    // failure
    let said: [String] = h.output.events.compactMap {
      switch $0.event {
      case .loading(_, let paused): "loading \(paused ? "paused" : "playing")"
      case .error: "error"
      case .next(let paused): "next \(paused ? "paused" : "playing")"
      default: nil
      }
    }
    #expect(said.suffix(3) == ["loading paused", "error", "next playing"])
    h.replaceQueue("b.mp4")
    h.router.made[1].becomeReady()
    #expect(h.router.made[1].configuration?.startsPlaying == true)
  }

  @Test func aCloseWithNothingLoadedLeavesTheNextFilesPauseAsItWas() {
    // Given a session that plays what it opens, its file playing, idle when its queue ends
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .idle))
    // When a file replaces it and cannot be opened, and a close that waited behind it runs (mpv's `loadfile` and
    // `stop` sent together), then another close
    h.replaceQueue("none.mp4")
    h.interactor.submit(.close)
    h.router.made[0].failToOpen()
    h.interactor.submit(.close)
    // Then each close is answered, saying the next file opens playing, and it does
    let closes = h.output.events.compactMap {
      if case .closed(let nextPaused) = $0.event { nextPaused } else { nil }
    }
    #expect(closes == [false, false])
    h.replaceQueue("b.mp4")
    h.router.made[1].becomeReady()
    #expect(h.router.made[1].configuration?.startsPlaying == true)
  }

  @Test func playingBackwardEndsWithItsFileAndTheNextPlaysForwardAtTheSameSpeed() {
    // Given a session playing its file backward at twice the speed
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.rate(-2))
    // When the file is closed and another opened
    h.interactor.submit(.close)
    h.interactor.submit(.open("b.mp4"))
    // Then the new file starts forward at the same speed, and the session says so as it loads
    let told = h.output.events.compactMap { if case .rate(let rate) = $0.event { rate } else { nil } }
    #expect(told == [-2, 2])
    #expect(h.interactor.statusBoard.rateNow() == 2)
    h.router.made[0].becomeReady()
    #expect(h.router.made[0].rates.last == 2)
  }

  @Test func aRateGivenWithTheFileHoldsForThatFileOnlyAndTheRateItReplacedComesBack() {
    // Given a session at rate 1.5 (`set speed 1.5`)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.rate(1.5))
    // When a file replaces its file with a rate of its own (`loadfile b.mp4 replace speed=2`)
    h.replaceQueue("b.mp4", EntryOptions(rate: 2))
    // Then the rate is the session's as the file starts loading, told right after `loading`, before it opens at it
    let told = { h.output.events.compactMap { if case .rate(let rate) = $0.event { rate } else { nil } } }
    let lastTwo = {
      h.output.events.suffix(2).map { if case .loading = $0.event { "loading" } else { "\($0.event)" } }
    }
    #expect(lastTwo() == ["loading", "\(SessionEvent.rate(2))"])
    #expect(h.interactor.statusBoard.rateNow() == 2)
    h.router.made[0].becomeReady()
    #expect(h.router.made[0].rates == [2])
    // When the rate is changed for it, and then a file with no rate of its own replaces it
    h.interactor.submit(.rate(3))
    h.replaceQueue("c.mp4")
    // Then that one starts at the rate the file before b.mp4 left, whatever was done with b.mp4's
    #expect(lastTwo() == ["loading", "\(SessionEvent.rate(1.5))"])
    #expect(told().suffix(2) == [3, 1.5])
    h.router.made[1].becomeReady()
    #expect(h.router.made[1].rates == [1.5])
    // When a file with a rate of its own is closed, then the rate it replaced comes back, told after `closed`
    h.replaceQueue("d.mp4", EntryOptions(rate: 0.5))
    h.router.made[2].becomeReady()
    h.interactor.submit(.close)
    let closing = h.output.events.suffix(2).map(\.event)
    #expect(closing.first.map { if case .closed = $0 { true } else { false } } == true)
    #expect(closing.last == .rate(1.5))
  }

  @Test func aFileWithARateOfItsOwnThatFailsToOpenLeavesTheRateItReplacedAndSaysSo() {
    // Given a session at rate 1.5 with no file (`vpk mpv --idle`, then `set speed 1.5`)
    let h = InteractorHarness(options: PlaybackOptions(autoplay: true, endAction: .idle), path: nil)
    h.interactor.start()
    h.interactor.submit(.rate(1.5))
    // When a file with a rate of its own cannot be opened
    h.replaceQueue("none.mp4", EntryOptions(rate: 4))
    h.router.made[0].failToOpen()
    // Then its rate was told as it started loading, and the one it replaced after the failure
    let said: [String] = h.output.events.compactMap {
      switch $0.event {
      case .loading: "loading"
      case .rate(let rate): "rate \(rate)"
      case .error: "error"
      default: nil
      }
    }
    #expect(said == ["rate 1.5", "loading", "rate 4.0", "error", "rate 1.5"])
    // And the next file opens at it
    h.replaceQueue("b.mp4")
    h.router.made[1].becomeReady()
    #expect(h.router.made[1].rates == [1.5])
  }

  @Test func aRateGivenWithTheFileIsIgnoredOnTheFreeClock() {
    // Given a session on the free clock, where no rate applies
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, clock: .free))
    // When a file with a rate of its own replaces its file
    h.replaceQueue("b.mp4", EntryOptions(rate: 2))
    h.router.made[0].becomeReady()
    // Then it opens at no other rate, and no rate is told
    #expect(h.router.made[0].rates.isEmpty)
    #expect(!h.output.events.contains { if case .rate = $0.event { true } else { false } })
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

  @Test func aFileThatPlaysOnceReadyIsNotReadAsPausedFromAnotherThreadAsItsReadyGoesOut() {
    // Given a session that plays what it opens, and a view that reads the status board as `ready` is presented (as a
    // control-socket client's thread may, once it has read `playback-restart`)
    let h = InteractorHarness(options: PlaybackOptions(autoplay: true))
    h.manager.offersConcurrentSnapshot = true
    var readAtReady: PlaybackStatus??
    // (The board, not the harness, is captured: the spy holds this closure, and the harness holds the spy.)
    let board = h.interactor.statusBoard
    h.output.onPresent = { event in
      if case .ready = event { readAtReady = .some(board.statusNow()) }
    }
    // When the file opens
    h.interactor.start()
    h.manager.becomeReady()
    // Then no status is answered at once then (a read waits its turn), and the board says playing after
    #expect(readAtReady == .some(nil))
    #expect(h.interactor.statusBoard.statusNow()?.state == .playing)
  }

  @Test func aStepForwardFromTheEndThatFindsNoFrameLeavesTheSessionAtItsEnd() {
    // Given a file kept at its end (--at-end pause)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .pause))
    h.manager.reachEnd(at: 60)
    // When a step forward finds no frame after it
    h.interactor.submit(.step(1))
    h.manager.finishStep(h.manager.steps[0], moved: 0, at: 60)
    // Then the session is still at its end, as mpv's frame-step there does nothing, and says so after the step (which
    // views show as paused)
    #expect(
      h.output.events.last?.event == .state(.ended, position: MediaTime(seconds: 60), duration: MediaTime(seconds: 60)))
    h.interactor.submit(.status)
    #expect(h.output.lines.last == "status #2 ended 60.0")
    // When a step back goes to the frame before, Then it is paused there
    h.interactor.submit(.step(-1))
    h.manager.finishStep(h.manager.steps[1], moved: -1, at: 59.96)
    h.interactor.submit(.status)
    #expect(h.output.lines.last == "status #4 paused 59.96")
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
    h.manager.onEvent?(.failedToOpen(PlaybackError(.fileNotFound, "no such file")))
    #expect(h.output.lines == ["loading clip.mp4", "error #0 file_not_found", "shutdown #0 open failed"])
    #expect(h.manager.isShutDown)
    #expect(h.router.exitCodes == [3])
    // and the session's report carries why, for whoever ran it to tell (vpk says it on stderr when piped)
    #expect(h.report?.openFailure == PlaybackError(.fileNotFound, "no such file"))
  }

  @Test func progressIsHeldBackWhileASeekIsPending() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.scrub(.seconds(40), nil))
    h.manager.onEvent?(.progress(MediaTime(seconds: 3)))
    h.manager.land(h.manager.seeks[0])
    h.manager.onEvent?(.progress(MediaTime(seconds: 41)))
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

private func frame(md5: String = "0123abcd", key: Bool = true) -> FrameIdentity {
  FrameIdentity(
    pts: 512, timeBase: (1, 15360), time: MediaTime(seconds: 1.0 / 30), isKeyframe: key, width: 320, height: 240,
    pixelFormat: "yuv420p", md5: md5)
}

private func expectation(
  _ field: ExpectField, _ op: ExpectOperator, _ value: ExpectOperand, tolerance: Double? = nil
) -> Command {
  .expect(VideoPlaybackKit.Expectation(field: field, op: op, expected: value, tolerance: tolerance))
}

// MARK: - Ordering

@MainActor
@Suite struct PlaybackInteractorOrderingTests {
  @Test func submitReturnsIncreasingIDsForCommandsAndInvalidLines() {
    // Given a ready session, When commands and invalid lines arrive (and after it closed), Then ids go 1, 2, 3 …
    let h = InteractorHarness.ready()
    let ids = [
      h.interactor.submit(.status), h.interactor.submitInvalid(PlaybackError(.badArgument, "x")),
      h.interactor.submit(.quit), h.interactor.submit(.status),
    ]
    #expect(ids == [1, 2, 3, 4])
  }

  @Test func playWaitsForAnOutstandingSeek() {
    // Given a scrub that has not landed (behaviour since issue 3: only seeks overlap)
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(10), nil))
    // When play follows, Then it is not sent until the seek lands, and its state shows the landed position
    h.interactor.submit(.play)
    #expect(!h.manager.calls.contains("play"))
    h.manager.land(h.manager.seeks[0])
    #expect(h.manager.calls.last == "play")
    #expect(h.output.lines == ["seeked #1 10.0 10.0 exact", "state #2 playing 10.0"])
  }

  @Test func onTheWallClockSeeksOverlapButOnTheVirtualClockEachWaits() {
    // Given two scrubs on the wall clock, Then both go to the manager at once (to coalesce there)
    let wall = InteractorHarness.ready()
    wall.interactor.submit(.scrub(.seconds(10), nil))
    wall.interactor.submit(.scrub(.seconds(20), nil))
    #expect(wall.manager.seeks.map(\.target.seconds) == [10, 20])
    // Given the same on the virtual clock, Then the second waits for the first to land: nothing coalesces
    let virtual = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, clock: .virtual))
    virtual.interactor.submit(.scrub(.seconds(10), nil))
    virtual.interactor.submit(.scrub(.seconds(20), nil))
    #expect(virtual.manager.seeks.map(\.target.seconds) == [10])
    virtual.manager.land(virtual.manager.seeks[0])
    #expect(virtual.manager.seeks.map(\.target.seconds) == [10, 20])
    virtual.manager.land(virtual.manager.seeks[1])
    // and seeked events carry no wall-clock timing there
    #expect(virtual.output.lines == ["seeked #1 10.0 10.0 exact untimed", "seeked #2 20.0 20.0 exact untimed"])
  }

  @Test func onTheVirtualClockInvalidLinesWaitTheirTurnToo() {
    // Given a scrub that has not landed on the virtual clock
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, clock: .virtual))
    h.interactor.submit(.scrub(.seconds(10), nil))
    // When an invalid line follows, Then its error waits for the seek, so the transcript order is fixed
    h.interactor.submitInvalid(PlaybackError(.unknownCommand, "x"))
    #expect(h.output.lines.isEmpty)
    h.manager.land(h.manager.seeks[0])
    #expect(h.output.lines == ["seeked #1 10.0 10.0 exact untimed", "error #2 unknown_command"])
  }

  @Test func onTheVirtualClockEvenInvalidLinesWaitForTheFile() {
    // Given a virtual-clock session still opening its file
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false, clock: .virtual))
    h.interactor.start()
    // When an invalid line and help arrive, Then nothing answers until the file is ready
    h.interactor.submitInvalid(PlaybackError(.unknownCommand, "x"))
    h.interactor.submit(.help)
    #expect(h.output.lines == ["loading clip.mp4"])
    h.manager.becomeReady()
    #expect(h.output.lines == ["loading clip.mp4", "ready #0 clip.mp4", "error #1 unknown_command", "help #2"])
  }

  @Test func hangUpLeavesWith129() {
    // Given a ready session, When SIGHUP arrives, Then it shuts down with status 129
    let h = InteractorHarness.ready()
    h.interactor.terminate(.hangUp)
    #expect(h.output.lines == ["shutdown #0 SIGHUP"])
    #expect(h.router.exitCodes == [129])
  }
}

// MARK: - wait

@MainActor
@Suite struct PlaybackInteractorWaitTests {
  @Test func waitSeekedIsAnsweredOnceEarlierSeeksLanded() {
    // Given a scrub on its way, When `wait seeked` follows, Then it answers as soon as the seek lands
    let h = InteractorHarness.ready()
    h.interactor.submit(.scrub(.seconds(5), nil))
    h.interactor.submit(.wait(.seeked, timeout: nil))
    #expect(h.output.lines.isEmpty)
    h.manager.land(h.manager.seeks[0])
    #expect(h.output.lines == ["seeked #1 5.0 5.0 exact", "waited #2 seeked at 5.0"])
    #expect(h.manager.waits.isEmpty)
  }

  @Test func waitSecondsGoesToTheManagerAndHoldsLaterCommands() {
    // Given a ready session
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    // When `wait 2` and status arrive
    h.interactor.submit(.wait(.duration(2), timeout: nil))
    h.interactor.submit(.status)
    // Then the manager carries out the wait, and status waits for its answer
    #expect(h.manager.waits == [PlaybackWait(id: 1, until: .elapsed(2), timeout: nil)])
    #expect(h.output.lines.isEmpty)
    h.manager.finishWait(h.manager.waits[0], .satisfied, at: 2)
    #expect(h.output.lines == ["waited #1 2 s at 2.0", "status #2 playing 2.0"])
  }

  @Test(arguments: [(WaitCondition.paused, true), (.seeked, true), (.ended, false), (.position(.seconds(10)), false)])
  func waitsWhilePaused(condition: WaitCondition, satisfied: Bool) {
    // Given paused playback at 0 s, When a wait arrives, Then paused/seeked hold at once and the others never can
    let h = InteractorHarness.ready()
    h.interactor.submit(.wait(condition, timeout: nil))
    #expect(h.manager.waits.isEmpty)
    #expect(h.output.lines == [satisfied ? "waited #1 \(condition.description) at 0.0" : "error #1 wait_impossible"])
  }

  @Test func waitPositionAlreadyReachedIsSatisfiedAtOnce() {
    // Given paused playback at 30 of 60 s, When waiting for 50% (and for 29 s), Then both hold at once
    let h = InteractorHarness.ready()
    h.manager.position = MediaTime(seconds: 30)
    h.interactor.submit(.wait(.position(.percent(50)), timeout: nil))
    h.interactor.submit(.wait(.position(.seconds(29)), timeout: nil))
    #expect(h.output.lines == ["waited #1 position >= 50% at 30.0", "waited #2 position >= 29 at 30.0"])
  }

  @Test func waitPositionWhilePlayingGoesToTheManagerWithItsTimeout() {
    // Given playback, When waiting for 50% of 60 s with a timeout, Then the manager waits for 30 s, with it
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.wait(.position(.percent(50)), timeout: 5))
    #expect(h.manager.waits == [PlaybackWait(id: 1, until: .position(MediaTime(seconds: 30)), timeout: 5)])
  }

  @Test(arguments: [EndAction.exit, .loop])
  func waitForAPositionPastTheEndIsImpossibleAtOnce(endAction: EndAction) {
    // Given 60 s of media playing, When waiting for 99 s (with a timeout), Then no position gets there: it fails at
    // once, without asking the manager
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: endAction))
    h.interactor.submit(.wait(.position(.seconds(99)), timeout: 2))
    #expect(h.manager.waits.isEmpty)
    #expect(h.output.lines == ["error #1 wait_impossible"])
    #expect(h.interactor.report.failedChecks.first?.error.message.hasSuffix("the media ends at 60.000 s") == true)
  }

  @Test func waitPercentWithNoDurationIsImpossible() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true), duration: nil)
    h.interactor.submit(.wait(.position(.percent(50)), timeout: nil))
    #expect(h.output.lines == ["error #1 wait_impossible"])
  }

  @Test func waitPausedWhileLoopingIsImpossible() {
    // Given looping playback, When waiting for it to pause, Then it never can
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .loop))
    h.interactor.submit(.wait(.paused, timeout: nil))
    #expect(h.manager.waits.isEmpty)
    #expect(h.output.lines == ["error #1 wait_impossible"])
  }

  @Test(arguments: [
    (WaitOutcome.timedOut, "wait_timeout"), (.notPlaying, "wait_impossible"), (.endedFirst, "wait_impossible"),
    (.neverInLoop, "wait_impossible"),
  ])
  func managerOutcomesThatFailAreFailedChecks(outcome: WaitOutcome, code: String) {
    // Given a wait the manager carries out, from line 4 of a script
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    let source = SourceLine(number: 4, text: "wait position >= 50 timeout 1")
    h.interactor.submit(.wait(.position(.seconds(50)), timeout: 1), source: source)
    // When the manager reports that it could not be satisfied
    h.manager.finishWait(h.manager.waits[0], outcome, at: 12)
    // Then an error with the outcome's code, a failed check at that line, and exit status 1 at the end
    #expect(h.output.lines == ["error #1 \(code)"])
    h.interactor.submit(.quit)
    #expect(h.router.exitCodes == [1])
    #expect(h.report?.failedChecks.map(\.code.rawValue) == [code])
    #expect(h.report?.failedChecks.first?.source == source)
    #expect(h.report?.commandErrors.isEmpty == true)
  }

  @Test(arguments: [EndAction.pause, .exit])
  func waitEndedIsAnsweredByTheEnd(action: EndAction) {
    // Given playback and a `wait ended` the manager holds
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: action))
    h.interactor.submit(.wait(.ended, timeout: nil))
    #expect(h.manager.waits.map(\.until) == [.ended])
    // When the end is reached (and the manager's own answer comes after)
    h.manager.reachEnd(at: 60)
    h.manager.finishWait(h.manager.waits[0], .satisfied, at: 60)
    // Then the wait is answered once, by the end; --at-end exit then leaves with 0
    let expected = ["ended 60.0 loops 1", "waited #1 ended at 60.0"] + (action == .exit ? ["shutdown #0 ended"] : [])
    #expect(h.output.lines == expected)
    #expect(h.router.exitCodes == (action == .exit ? [0] : []))
  }

  @Test func waitPausedIsAnsweredByTheEndAndALoopAnswersWaitEnded() {
    // Given looping playback and `wait ended`
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .loop))
    h.interactor.submit(.wait(.ended, timeout: nil))
    // When the first pass ends, Then the wait is answered and playback goes on
    h.manager.reachEnd(at: 60, loops: 1)
    #expect(h.output.lines == ["ended 60.0 loops 1", "waited #1 ended at 60.0"])
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func waitWithNoMedia() {
    // Given an idle session on the free clock
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false, clock: .free), path: nil)
    h.interactor.start()
    // When waits arrive, Then time and seeks hold at once and a wait for the media's end never can
    h.interactor.submit(.wait(.duration(3), timeout: nil))
    h.interactor.submit(.wait(.seeked, timeout: nil))
    h.interactor.submit(.wait(.ended, timeout: nil))
    #expect(h.output.lines == ["waited #1 3 s at 0.0", "waited #2 seeked at 0.0", "error #3 wait_impossible"])
  }
}

// MARK: - expect

@MainActor
@Suite struct PlaybackInteractorExpectTests {
  @Test func passingAndFailingChecksAndTheExitStatus() {
    // Given paused playback at 10.05 s of 60
    let h = InteractorHarness.ready()
    h.manager.position = MediaTime(seconds: 10.05)
    let failing = SourceLine(number: 3, text: "expect position ~ 10")
    // When checks that hold and one that does not run, then quit
    h.interactor.submit(expectation(.state, .equal, .value(.string("paused"))))
    h.interactor.submit(expectation(.position, .approximately, .time(.seconds(10)), tolerance: 0.1))
    h.interactor.submit(expectation(.position, .approximately, .time(.seconds(10))), source: failing)
    h.interactor.submit(expectation(.duration, .equal, .time(.seconds(60))))
    h.interactor.submit(expectation(.videoCodec, .equal, .value(.string("h264"))))
    h.interactor.submit(.quit)
    // Then each reports pass or fail, the failure is recorded with its values and line, and the status is 1
    #expect(
      h.output.lines == [
        "expect #1 pass state", "expect #2 pass position", "expect #3 fail position", "expect #4 pass duration",
        "expect #5 pass video.codec", "shutdown #6 quit",
      ])
    #expect(h.router.exitCodes == [1])
    let failure = h.report?.failedChecks.first
    #expect(h.report?.failedChecks.count == 1)
    #expect(failure?.code == .expectFailed)
    #expect(failure?.source == failing)
    #expect(failure?.expected == .number(10))
    #expect(failure?.actual == .number(10.05))
    #expect(h.report?.expectCount == 5)
    #expect(h.report?.commandCount == 6)
  }

  @Test func percentTimesResolveAgainstTheDuration() {
    let h = InteractorHarness.ready(duration: 60)
    h.manager.position = MediaTime(seconds: 30)
    h.interactor.submit(expectation(.position, .equal, .time(.percent(50))))
    #expect(h.output.expectations.first?.expected == .number(30))
    #expect(h.output.expectations.first?.held == true)
  }

  @Test func frameFieldsWithAndWithoutAFrame() {
    // Given no decoded frame yet, When frame fields are checked, Then they are none
    let h = InteractorHarness.ready()
    h.interactor.submit(expectation(.frameMD5, .equal, .value(.none)))
    h.interactor.submit(expectation(.framePTS, .notEqual, .value(.number(512))))
    // Given a frame, Then its fields are its identity
    h.manager.frame = frame(md5: "abc123", key: true)
    h.interactor.submit(expectation(.frameMD5, .equal, .value(.string("abc123"))))
    h.interactor.submit(expectation(.framePTS, .equal, .value(.number(512))))
    h.interactor.submit(expectation(.frameKey, .equal, .value(.bool(true))))
    h.interactor.submit(expectation(.frameTime, .approximately, .time(.seconds(0.033)), tolerance: 0.001))
    h.interactor.submit(expectation(.frameWidth, .equal, .value(.number(320))))
    h.interactor.submit(expectation(.framePixelFormat, .equal, .value(.string("yuv420p"))))
    h.interactor.submit(expectation(.frameMD5, .equal, .value(.none)))
    #expect(h.output.expectations.map(\.held) == [true, true, true, true, true, true, true, true, false])
    #expect(h.output.expectations.last?.actual == .string("abc123"))
  }

  @Test func fieldsTheMediaLacksAreNone() {
    // Given audio-only media with no known duration
    let h = InteractorHarness.ready(duration: nil, video: false)
    h.manager.frame = frame()
    // When video, frame and duration fields are checked against none, Then they are none
    for field in [ExpectField.videoCodec, .videoWidth, .frameMD5, .duration] {
      h.interactor.submit(expectation(field, .equal, .value(.none)))
    }
    h.interactor.submit(expectation(.audioChannels, .equal, .value(.number(2))))
    #expect(h.output.expectations.map(\.held) == [true, true, true, true, true])
    #expect(h.output.expectations.map(\.actual) == [.none, .none, .none, .none, .number(2)])
  }

  @Test func expectErrorAcknowledgesTheCommandError() {
    // Given a command that fails on purpose
    let h = InteractorHarness.ready()
    h.interactor.submitInvalid(PlaybackError(.badArgument, "bad"))
    // When `expect error == bad_argument` follows, then quit
    h.interactor.submit(expectation(.error, .equal, .value(.string("bad_argument"))))
    h.interactor.submit(.quit)
    // Then the error was the point of the test: the report has no error left and the status is 0
    #expect(h.output.lines == ["error #1 bad_argument", "expect #2 pass error", "shutdown #3 quit"])
    #expect(h.report?.commandErrors.isEmpty == true)
    #expect(h.report?.failedChecks.isEmpty == true)
    #expect(h.router.exitCodes == [0])
  }

  @Test func expectErrorWithAnotherCodeAcknowledgesNothing() {
    // Given a command error, When an expect names another code
    let h = InteractorHarness.ready()
    h.interactor.submit(.frame)  // no frame yet: unavailable
    h.interactor.submit(expectation(.error, .equal, .value(.string("bad_argument"))))
    h.interactor.submit(.quit)
    // Then the check fails and the error stays in the report
    #expect(h.report?.commandErrors.map(\.code) == [.unavailable])
    #expect(h.report?.failedChecks.map(\.code) == [.expectFailed])
    #expect(h.output.expectations.first?.actual == .string("unavailable"))
    #expect(h.router.exitCodes == [1])
  }

  @Test func expectErrorBeforeAnyErrorSeesNone() {
    let h = InteractorHarness.ready()
    h.interactor.submit(expectation(.error, .equal, .value(.none)))
    #expect(h.output.expectations.first?.held == true)
  }
}

// MARK: - step and rate

@MainActor
@Suite struct PlaybackInteractorStepRateTests {
  @Test func stepPausesAndIsAnsweredByTheManager() {
    // Given playback
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.manager.calls.removeAll()
    // When stepping 3 frames and asking for status
    h.interactor.submit(.step(3))
    h.interactor.submit(.status)
    // Then playback pauses, the step goes out, and status waits for it
    #expect(h.manager.calls == ["pause", "step 1 3"])
    #expect(h.output.lines.isEmpty)
    h.manager.finishStep(h.manager.steps[0], moved: 3, at: 0.1)
    #expect(h.output.lines == ["stepped #1 3/3 0.1", "status #2 paused 0.1"])
  }

  @Test func stepBackAtTheStartMovesFewer() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.step(-5))
    h.manager.finishStep(h.manager.steps[0], moved: 0, at: 0)
    #expect(h.manager.calls.last == "step 1 -5")
    #expect(!h.manager.calls.contains("pause"))
    #expect(h.output.lines == ["stepped #1 0/-5 0.0"])
  }

  @Test func stepWithoutVideoIsUnavailable() {
    let h = InteractorHarness.ready(video: false)
    h.interactor.submit(.step(1))
    #expect(h.manager.steps.isEmpty)
    #expect(h.output.lines == ["error #1 unavailable"])
  }

  @Test func rateOnTheWallClockReachesTheManagerAndStatus() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.rate(2))
    h.interactor.submit(.status)
    #expect(h.manager.rates == [2])
    #expect(h.output.lines == ["rate #1 2.0", "status #2 paused 0.0"])
    #expect(h.output.lastStatus?.rate == 2)
  }

  @Test func aRateFactorScalesTheRateThereIsKeepingItsDirectionAndRange() {
    // Given a session at rate 1
    let h = InteractorHarness.ready()
    // When the rate is scaled by 1.1, then by 1/1.1, then set to -2 and scaled by 1.1, then by 100
    h.interactor.submit(.scaleRate(1.1))
    h.interactor.submit(.scaleRate(1 / 1.1))
    h.interactor.submit(.rate(-2))
    h.interactor.submit(.scaleRate(1.1))
    h.interactor.submit(.scaleRate(100))
    // Then each is the rate there was times the factor, rounded to a millionth (so 1.1 then 1/1.1 is 1 again),
    // backward stays backward, and the speed stops at 100
    #expect(h.manager.rates == [1.1, 1, -2, -2.2, -100])
  }

  @Test func aNegativeRateReachesTheManagerWithVideoAndIsUnavailableWithout() {
    let h = InteractorHarness.ready()
    h.interactor.submit(.rate(-1))
    #expect(h.manager.rates == [-1])
    #expect(h.output.lines == ["rate #1 -1.0"])
    let audio = InteractorHarness.ready(video: false)
    audio.interactor.submit(.rate(-1))
    audio.interactor.submit(.rate(2))
    #expect(audio.manager.rates == [2])
    #expect(audio.output.lines == ["error #1 unavailable", "rate #2 2.0"])
  }

  @Test func aWaitForAPositionAtMostIsSatisfiedAtOnceBelowItAndElseGoesToTheManager() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.wait(.positionAtMost(.seconds(10)), timeout: nil))
    #expect(h.manager.waits.isEmpty)
    #expect(h.output.lines.last?.hasPrefix("waited #1") == true)
    h.manager.position = MediaTime(seconds: 30)
    h.interactor.submit(.wait(.positionAtMost(.seconds(20)), timeout: nil))
    #expect(h.manager.waits.last?.until == .positionAtMost(MediaTime(seconds: 20)))
  }

  @Test func rateOnTheFreeClockIsUnavailable() {
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, clock: .free))
    h.interactor.submit(.rate(2))
    #expect(h.manager.rates.isEmpty)
    #expect(h.output.lines == ["error #1 unavailable"])
  }

  @Test func playbackCommandsWithNoMediaAreNotReady() {
    // Given an idle session
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    // When commands that need a file come (a backward rate needs one: it depends on the video)
    h.interactor.submit(.step(1))
    h.interactor.submit(.rate(-2))
    h.interactor.submit(.scrub(.seconds(1), nil))
    // Then each is refused
    #expect(h.output.lines == ["error #1 not_ready", "error #2 not_ready", "error #3 not_ready"])
  }
}

// MARK: - pause and rate with no file

@MainActor
@Suite struct PlaybackInteractorNextFileTests {
  @Test func pausePlayToggleAndRateWithNoFileSetWhatTheNextFileOpensWith() {
    // Given an idle session that plays what it opens
    let h = InteractorHarness(options: PlaybackOptions(autoplay: true), path: nil)
    h.interactor.start()
    // When it is paused, toggled twice and given a rate with nothing loaded
    h.interactor.submit(.pause)
    h.interactor.submit(.toggle)
    h.interactor.submit(.toggle)
    h.interactor.submit(.rate(2))
    h.interactor.submit(.status)
    // Then each is answered with what the next file opens with, and the status has the rate
    #expect(
      h.output.lines == [
        "next #1 paused", "next #2 playing", "next #3 paused", "rate #4 2.0", "status #5 idle 0.0",
      ])
    #expect(h.output.lastStatus?.rate == 2)
    // When a file opens
    h.interactor.submit(.open("b.mp4"))
    let opened = h.router.made[0]
    #expect(opened.configuration?.startsPlaying == false)
    opened.becomeReady()
    // Then it opens paused at that rate: the rate is told before `ready`, and nothing plays
    #expect(opened.rates == [2])
    #expect(!opened.calls.contains("play"))
    #expect(h.output.lines.suffix(3) == ["loading b.mp4", "rate #0 2.0", "ready #6 b.mp4"])
  }

  @Test func playWithNoFileOpensTheNextFilePlayingThoughTheSessionStartedPaused() {
    // Given an idle session started paused
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false), path: nil)
    h.interactor.start()
    // When `play` comes with nothing loaded, then a file opens
    h.interactor.submit(.play)
    h.interactor.submit(.open("b.mp4"))
    h.router.made[0].becomeReady()
    // Then the file plays once it is ready
    #expect(h.output.lines.first == "next #1 playing")
    #expect(h.router.made[0].calls.last == "play")
    #expect(h.output.lines.last == "state #0 playing 0.0")
  }

  @Test func aFileClosedLeavesItsPauseAndRateToTheNext() {
    // Given a file playing at rate 2 in a session that starts files paused
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false))
    h.interactor.submit(.play)
    h.interactor.submit(.rate(2))
    // When it is closed and another file opens
    h.interactor.submit(.close)
    h.interactor.submit(.status)
    h.interactor.submit(.open("b.mp4"))
    h.router.made[0].becomeReady()
    // Then the session keeps the rate while idle, and the next file plays at it
    #expect(h.output.lastStatus?.rate == 2)
    #expect(h.router.made[0].configuration?.startsPlaying == true)
    #expect(h.router.made[0].rates == [2])
    #expect(h.output.lines.last == "state #0 playing 0.0")
  }

  @Test func aFileClosedWhilePausedLeavesTheNextPaused() {
    // Given a session that plays what it opens, its file paused
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.pause)
    // When it is closed and another file opens
    h.interactor.submit(.close)
    h.interactor.submit(.open("b.mp4"))
    h.router.made[0].becomeReady()
    // Then the next file opens paused
    #expect(h.router.made[0].configuration?.startsPlaying == false)
    #expect(!h.router.made[0].calls.contains("play"))
    #expect(h.output.lines.last == "ready #3 b.mp4")
  }

  @Test func aFileThatPlayedToItsEndIntoIdleLeavesTheNextPlaying() {
    // Given a session started paused that goes idle at the end, its file playing
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, endAction: .idle))
    h.interactor.submit(.play)
    // When the file ends and another opens
    h.manager.onEvent?(.ended(position: MediaTime(seconds: 60), loops: 1, direction: .forward))
    h.interactor.submit(.open("b.mp4"))
    h.router.made[0].becomeReady()
    // Then the next file plays
    #expect(h.router.made[0].calls.last == "play")
  }

  @Test func aReplacedFileLeavesItsPauseToTheNextAndOpenBesideAFileFollowsTheStartOptions() {
    // Given a session that plays what it opens, its file paused at rate 3 (no frame cache: nothing opened ahead)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, frameCacheBytes: 0))
    h.interactor.submit(.pause)
    h.interactor.submit(.rate(3))
    // When the file is replaced
    h.replaceQueue("b.mp4")
    h.router.made[0].becomeReady()
    // Then the new file opens paused at rate 3
    #expect(h.router.made[0].configuration?.startsPlaying == false)
    #expect(h.router.made[0].rates == [3])
    // When another file is opened beside it
    h.interactor.submit(.open("c.mp4"))
    h.router.made[1].becomeReady()
    // Then that one follows the start options: it plays at rate 1
    #expect(h.router.made[1].configuration?.startsPlaying == true)
    #expect(h.router.made[1].rates.isEmpty)
    #expect(h.output.lines.last == "state #0 playing 0.0")
  }

  @Test(arguments: [true, false])
  func loadingAndClosedSayWhetherTheFileOpensPausedAsTheSessionDecided(autoplay: Bool) {
    // Given a loaded file whose state is not what the start options give (paused when they play, playing when not),
    // with no frame cache (nothing opened ahead)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: autoplay, frameCacheBytes: 0))
    h.interactor.submit(autoplay ? .pause : .play)
    // When another file is opened beside it, put in that state too, then replaced, and the new one closed
    h.interactor.submit(.open("b.mp4"))
    h.router.made[0].becomeReady()
    h.interactor.submit(autoplay ? .pause : .play)
    h.replaceQueue("c.mp4")
    h.router.made[1].becomeReady()
    h.interactor.submit(.close)
    // Then `loading` says the command line's file and the file beside open as the start options say, the replacing one as the file replaced was,
    // and `closed` that the next file opens as the file closed was
    let said: [String] = h.output.events.compactMap {
      switch $0.0 {
      case .loading(let path, let paused): "\(path) \(paused ? "paused" : "playing")"
      case .closed(let nextPaused): "next \(nextPaused ? "paused" : "playing")"
      default: nil
      }
    }
    let (start, other) = autoplay ? ("playing", "paused") : ("paused", "playing")
    #expect(said == ["clip.mp4 \(start)", "b.mp4 \(start)", "c.mp4 \(other)", "next \(other)"])
    #expect(h.router.made.map { $0.configuration?.startsPlaying } == [autoplay, !autoplay])
  }

  @Test func aFileClosedAtItsEndIntoIdleSaysTheNextOpensPlaying() {
    // Given a session started paused that goes idle at the end, its file playing
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false, endAction: .idle))
    h.interactor.submit(.play)
    // When the file ends
    h.manager.onEvent?(.ended(position: MediaTime(seconds: 60), loops: 1, direction: .forward))
    // Then its `closed` says the next file opens playing
    #expect(h.output.events.last?.0 == .closed(nextPaused: false))
  }

  @Test func aKeptBackwardRateOpensAFileWithoutVideoForward() {
    // Given a file playing backward, closed
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: false))
    h.interactor.submit(.rate(-2))
    h.interactor.submit(.close)
    // When a file without video opens
    h.interactor.submit(.open("tone.m4a"))
    h.router.made[0].becomeReady(video: false)
    // Then it plays forward at the same speed
    #expect(h.router.made[0].rates == [2])
    #expect(h.output.lines.contains("rate #0 2.0"))
  }

  @Test func rateWithNoFileOnTheFreeClockIsUnavailable() {
    // Given an idle session on the free clock
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false, clock: .free), path: nil)
    h.interactor.start()
    // When a rate comes
    h.interactor.submit(.rate(2))
    // Then it is refused as with a file
    #expect(h.output.lines == ["error #1 unavailable"])
  }
}

// MARK: - open and close

@MainActor
@Suite struct PlaybackInteractorOpenCloseTests {
  @Test func openAsksTheRouterForAManagerAndResolvesRelativePaths() {
    // Given an idle session whose script is in /scripts
    let h = InteractorHarness(path: nil, baseDirectory: "/scripts")
    h.interactor.start()
    // When a relative file is opened
    h.interactor.submit(.open("media/b.mp4"))
    // Then the router makes a manager, which prepares the file resolved against the folder
    #expect(h.router.gotos == ["new"])
    let made = h.router.made[0]
    #expect(made.preparedPath == "/scripts/media/b.mp4")
    #expect(made.onEvent != nil)
    // and its ready answers the open, naming the file as the script wrote it (the same in every checkout)
    made.becomeReady(path: "/scripts/media/b.mp4")
    #expect(h.output.lines == ["loading media/b.mp4", "ready #1 media/b.mp4"])
    // An absolute path is used as it is
    h.interactor.submit(.open("/abs/c.mp4"))
    #expect(h.router.made[1].preparedPath == "/abs/c.mp4")
  }

  @Test func aFileThatCannotOpenIsNamedAsWrittenInItsError() {
    // Given an idle session whose script is in /scripts
    let h = InteractorHarness(path: nil, baseDirectory: "/scripts")
    h.interactor.start()
    // When a relative file that is missing is opened, and the manager's words name the file it tried
    h.interactor.submit(.open("../media/none.mp4"))
    h.router.made[0].onEvent?(
      .failedToOpen(PlaybackError(.fileNotFound, "no such file: /scripts/../media/none.mp4; check the path")))
    // Then the error names the file as written
    #expect(h.output.lines.suffix(2) == ["error #1 file_not_found", "state #0 idle 0.0"])
    #expect(h.interactor.lastError?.code == .fileNotFound)
    #expect(
      h.router.reports.isEmpty
        && h.interactor.report.commandErrors.first?.error.message == "no such file: ../media/none.mp4; check the path")
  }

  @Test func openReplacesTheManagerOnceTheNewFileIsReadyAndIgnoresTheOldOnesReports() {
    // Given a session playing clip.mp4
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    // When another file is opened
    h.interactor.submit(.open("b.mp4"))
    // Then the old manager is kept, paused, while the new one opens
    #expect(h.router.replaced.isEmpty)
    #expect(!h.manager.isShutDown && h.manager.calls.last == "pause")
    // and what it still reports is ignored (its end, its progress, a late ready)
    h.interactor.handle(.ended(position: MediaTime(seconds: 60), loops: 1, direction: .forward), from: h.manager)
    h.interactor.handle(.progress(MediaTime(seconds: 3)), from: h.manager)
    h.interactor.handle(.ready(FakePlaybackManager.info()), from: h.manager)
    #expect(h.output.lines == ["loading b.mp4"])
    #expect(h.router.exitCodes.isEmpty)
    // while the new one's ready hands the old one to the router to be shut down, and autoplay starts the new one
    h.router.made[0].becomeReady(path: "b.mp4")
    #expect(h.router.replaced.first === h.manager)
    #expect(h.manager.isShutDown)
    #expect(h.output.lines == ["loading b.mp4", "ready #1 b.mp4", "state #0 playing 0.0"])
  }

  @Test func aFailedOpenKeepsTheFileThatWasPlayingWhereItWas() {
    // Given a session playing clip.mp4 at 11 s
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.manager.position = MediaTime(seconds: 11)
    // When a file that is not there is opened
    h.interactor.submit(.open("nothere.mp4"))
    h.router.made[0].failToOpen(.fileNotFound)
    h.interactor.submit(.status)
    // Then the new manager is dropped, the old one plays on from where it was, and the views are told its state
    #expect(h.router.made[0].isShutDown)
    #expect(!h.manager.isShutDown)
    #expect(h.manager.calls.suffix(2) == ["pause", "play"])
    #expect(
      h.output.lines == [
        "loading nothere.mp4", "error #1 file_not_found", "state #0 playing 11.0", "status #2 playing 11.0",
      ])
    // and its reports count again
    h.manager.reachEnd(at: 60)
    #expect(h.output.lines.contains { $0.hasPrefix("ended") })
  }

  @Test func aFailedReplaceLeavesTheSessionIdleAsMPVsLoadfileDoes() {
    // Given a session playing clip.mp4 at 11 s, idle at the end of its queue (mpv's --idle)
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, endAction: .idle))
    h.manager.position = MediaTime(seconds: 11)
    // When a file that is not there replaces it (mpv's loadfile)
    h.replaceQueue("nothere.mp4")
    // Then the old file is dropped at once
    #expect(h.manager.isShutDown)
    h.router.made[0].failToOpen(.fileNotFound)
    h.interactor.submit(.status)
    // And the failure leaves the session idle
    #expect(
      h.output.lines.drop { !$0.hasPrefix("loading") } == [
        "loading nothere.mp4", "error #3 file_not_found", "state #0 idle 0.0", "status #4 idle 0.0",
      ])
  }

  @Test func aFailedOpenOfAPathCutByACommentSaysHowToQuoteIt() {
    // Given an idle session
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    // When `open my clip #1.mp4` (unquoted) cannot find `my clip`
    h.interactor.submit(.open("my clip"), source: SourceLine(number: 1, text: "open my clip #1.mp4"))
    h.router.made[0].onEvent?(.failedToOpen(PlaybackError(.fileNotFound, "no such file: my clip; check the path")))
    // Then the error says that `#` began a comment and how to quote the path
    #expect(
      h.interactor.report.commandErrors.first?.error.message
        == "no such file: my clip; check the path; the `#` after it began a comment: put the path in double quotes, "
        + "open \"my clip #1.mp4\"")
  }

  @Test func closeGoesIdleAndTheSessionGoesOn() {
    // Given a ready session
    let h = InteractorHarness.ready()
    // When the file is closed and status asked
    h.interactor.submit(.close)
    h.interactor.submit(.status)
    h.interactor.submit(.step(1))
    // Then the router is asked for no manager, the session is idle, and playback commands need a file
    #expect(h.router.gotos == ["none"])
    #expect(h.manager.isShutDown)
    #expect(h.output.lines == ["closed #1", "status #2 idle 0.0", "error #3 not_ready"])
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func aFailedOpenLeavesTheSessionIdleAndUsable() {
    // Given an idle session, When an open fails
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    h.interactor.submit(.open("missing.mp4"))
    h.interactor.submit(.status)
    h.router.made[0].failToOpen(.fileNotFound)
    // Then the error answers the open, the session stays, idle, and can open another file
    #expect(
      h.output.lines == [
        "loading missing.mp4", "error #1 file_not_found", "state #0 idle 0.0", "status #2 idle 0.0",
      ])
    #expect(h.router.exitCodes.isEmpty)
    #expect(h.router.gotos == ["new", "none"])
    h.interactor.submit(.open("b.mp4"))
    h.router.made[1].becomeReady(path: "b.mp4")
    #expect(h.output.lines.last == "ready #3 b.mp4")
    // and at the end, the unacknowledged error is in the report (the status stays 0)
    h.interactor.submit(.quit)
    #expect(h.report?.commandErrors.map(\.code) == [.fileNotFound])
    #expect(h.report?.openFailure == nil)
    #expect(h.router.exitCodes == [0])
  }

  @Test func inputEndedWhileIdleLeaves() {
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    h.interactor.inputEnded()
    #expect(h.output.lines == ["shutdown #0 input ended"])
    #expect(h.router.exitCodes == [0])
  }

  @Test func inputEndedOnTheVirtualClockLeavesEvenWhilePlaying() {
    // Given virtual-clock playback (time moves only in waits), When input ends, Then the session leaves
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true, clock: .virtual))
    h.interactor.inputEnded()
    #expect(h.router.exitCodes == [0])
  }
}

@MainActor
@Suite struct PlaybackInteractorAcknowledgementTests {
  @Test func expectErrorAcknowledgesAWaitThatTimedOut() {
    // Given a wait that times out on purpose
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.wait(.ended, timeout: 1))
    h.manager.finishWait(h.manager.waits[0], .timedOut, at: 1)
    // When `expect error == wait_timeout` follows, then quit
    h.interactor.submit(expectation(.error, .equal, .value(.string("wait_timeout"))))
    h.interactor.submit(.quit)
    // Then the failed wait is acknowledged: nothing failed, status 0
    #expect(h.report?.failedChecks.isEmpty == true)
    #expect(h.router.exitCodes == [0])
  }

  @Test func aFailedOpenNamesItsLine() {
    let h = InteractorHarness(path: nil)
    h.interactor.start()
    let source = SourceLine(number: 3, text: "open missing.mp4")
    h.interactor.submit(.open("missing.mp4"), source: source)
    h.router.made[0].failToOpen()
    h.interactor.submit(.quit)
    #expect(h.report?.commandErrors.first?.source == source)
  }
}

/// `quit` sent before the file is ready: the open's outcome comes first, and an open that hangs is
/// interrupted after the grace time, the shutdown saying so.
@MainActor
@Suite struct PlaybackInteractorQuitWhileOpeningTests {
  @Test func quitBeforeAFailedOpenReportsTheErrorAndExitsThree() {
    // Given a session whose file is still opening
    let h = InteractorHarness()
    h.interactor.start()
    // When quit arrives, and then the open fails
    h.interactor.submit(.quit)
    #expect(h.router.exitCodes.isEmpty)
    h.manager.failToOpen(.fileNotFound)
    // Then the error is told before the shutdown, and the exit status says the media could not be opened
    #expect(h.output.lines.suffix(2) == ["error #0 file_not_found", "shutdown #0 open failed"])
    #expect(h.router.exitCodes == [SessionExitCode.mediaUnreadable])
  }

  @Test func quitBeforeASuccessfulOpenWaitsForReady() {
    let h = InteractorHarness()
    h.interactor.start()
    h.interactor.submit(.quit)
    h.manager.becomeReady()
    #expect(h.output.lines.suffix(2) == ["ready #0 clip.mp4", "shutdown #1 quit"])
    #expect(h.router.exitCodes == [0])
  }

  @Test func quitInterruptsAnOpenThatHangsAndSaysSo() async throws {
    // Given an open that never finishes (a FIFO with no writer) and a short grace time
    let h = InteractorHarness(openGrace: 0.01)
    h.interactor.start()
    // When quit arrives and the grace time passes
    h.interactor.submit(.quit)
    while h.router.exitCodes.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
    // Then the session ends on the quit, the open interrupted, the manager shut down, and exit 3
    #expect(h.output.lines.last == "shutdown #1 quit open interrupted")
    #expect(h.output.shutdownStatus?.state == .loading)
    #expect(h.manager.isShutDown)
    #expect(h.router.exitCodes == [SessionExitCode.mediaUnreadable])
  }

  @Test func quitAfterAnOpenCommandThatHangsExitsZero() async throws {
    // Given an idle session whose `open` hangs
    let h = InteractorHarness(path: nil, openGrace: 0.01)
    h.interactor.start()
    h.interactor.submit(.open("fifo"))
    h.interactor.submit(.quit)
    while h.router.exitCodes.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
    // Then the shutdown says the open was interrupted; the session's own media never failed
    #expect(h.output.lines.last == "shutdown #2 quit open interrupted")
    #expect(h.router.exitCodes == [0])
  }

  @Test func aClientsQuitBehindCommandsThatWaitForAHangingOpenStillEndsTheSession() async throws {
    // Given an idle session whose `open` hangs, and commands that wait for it queued before a control-socket client's
    // quit
    let h = InteractorHarness(path: nil, openGrace: 0.01)
    h.interactor.start()
    h.interactor.submit(.open("fifo"))
    h.interactor.submit(.status)
    h.interactor.submit(.pause)
    h.interactor.submit(.quit, source: nil, from: CommandSender(view: ViewID(value: 7), number: 1))
    while h.router.exitCodes.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
    // Then the commands before the quit are answered as not run, and the quit ends the session
    let errors = h.output.events.compactMap { if case .error(let error) = $0.event { error.code } else { nil } }
    #expect(errors == [.notReady, .notReady])
    #expect(h.output.lines.last == "shutdown #4 quit open interrupted")
    #expect(h.router.exitCodes == [0])
  }

  @Test func aScriptsQuitWaitsItsTurnBehindASlowOpenAndEachGraceIsItsOpens() async throws {
    // Given a script (the session's own input) that opens a slow file, checks it, and quits, with a short grace
    let h = InteractorHarness(path: nil, openGrace: 0.01)
    h.interactor.start()
    h.interactor.submit(.open("slow.mp4"))
    h.interactor.submit(.status)
    h.interactor.submit(.open("fifo"))
    h.interactor.submit(.quit)
    // When the first open takes longer than the grace, then opens
    try await Task.sleep(nanoseconds: 50_000_000)
    #expect(h.router.exitCodes.isEmpty)
    h.router.made[0].becomeReady()
    // Then the status after it is answered, and nothing was cut short
    #expect(h.output.lines.contains { $0.hasPrefix("status #2") })
    // When the second open hangs, the quit now at the head of the queue
    while h.router.exitCodes.isEmpty { try await Task.sleep(nanoseconds: 5_000_000) }
    // Then the quit interrupts that open after its own grace
    #expect(h.output.lines.last == "shutdown #4 quit open interrupted")
    let errors = h.output.events.compactMap { if case .error(let error) = $0.event { error.code } else { nil } }
    #expect(errors.isEmpty)
  }

  @Test func aSignalWhileOpeningSaysTheOpenWasInterrupted() {
    let h = InteractorHarness()
    h.interactor.start()
    h.interactor.terminate(.interrupt)
    #expect(h.output.lines.last == "shutdown #0 SIGINT open interrupted")
    #expect(h.router.exitCodes == [SessionExitCode.interrupted])
  }
}

@MainActor
@Suite struct PlaybackInteractorSnapshotTests {
  @Test func snapshotWritesWhereThePathSaysAndNamesItAsWritten() {
    // Given a script's session (relative paths resolve against its folder) showing a frame
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false), baseDirectory: "/checks")
    h.interactor.start()
    h.manager.becomeReady()
    h.manager.frame = frame()
    // When a snapshot is asked for at a relative and an absolute path
    h.interactor.submit(.snapshot("shots/a.png"))
    h.interactor.submit(.snapshot("/tmp/b.png"))
    // Then the manager writes the resolved paths, and the events name them as written
    #expect(h.manager.picturesWritten == ["/checks/shots/a.png", "/tmp/b.png"])
    #expect(h.output.lines.suffix(2) == ["snapshot #1 shots/a.png 512", "snapshot #2 /tmp/b.png 512"])
  }

  @Test func snapshotWithoutAPathIsNamedForTheFileAndPosition() {
    // Given media `clip.mp4` paused at 12.5 s
    let h = InteractorHarness.ready()
    h.manager.frame = frame()
    h.manager.position = MediaTime(seconds: 12.5)
    // When snapshots are asked for with no path and with a folder
    h.interactor.submit(.snapshot(nil))
    h.interactor.submit(.snapshot("shots/"))
    // Then the default name is the file's name and the position, alone or in the folder
    #expect(h.manager.picturesWritten == ["clip-12.500.png", "shots/clip-12.500.png"])
  }

  @Test func defaultNameKeepsOnlyPlainCharacters() {
    // Given media whose name holds spaces and other characters awkward in file names
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false), path: "/media/my clip (1)*.final.mp4")
    h.interactor.start()
    h.manager.becomeReady()
    h.manager.frame = frame()
    // When a snapshot takes the default name
    h.interactor.submit(.snapshot(nil))
    // Then they become underscores, and only the last extension goes
    #expect(h.manager.picturesWritten == ["my_clip__1__.final-0.000.png"])
  }

  @Test func snapshotErrorsKeepTheSessionGoing() {
    // Given audio-only media
    let audio = InteractorHarness.ready(video: false)
    audio.interactor.submit(.snapshot("a.png"))
    // Then snapshot is unavailable, and nothing is written
    #expect(audio.output.lines == ["error #1 unavailable"])
    #expect(audio.manager.picturesWritten.isEmpty)

    // Given video with no frame decoded yet, Then unavailable too
    let early = InteractorHarness.ready()
    early.interactor.submit(.snapshot("a.png"))
    #expect(early.output.lines == ["error #1 unavailable"])

    // Given a path that cannot be written, Then the manager's cannot_write, and the next command runs
    let h = InteractorHarness.ready()
    h.manager.frame = frame()
    h.manager.pictureError = PlaybackError(.cannotWrite, "cannot write /x/a.png: no such file or directory")
    h.interactor.submit(.snapshot("/x/a.png"))
    h.interactor.submit(.status)
    #expect(h.output.lines == ["error #1 cannot_write", "status #2 paused 0.0"])
    #expect(h.report == nil)
  }

  @Test func snapshotWithNothingLoadedIsNotReady() {
    let h = InteractorHarness(options: PlaybackOptions(autoplay: false), path: nil)
    h.interactor.start()
    h.interactor.submit(.snapshot(nil))
    #expect(h.output.lines.last == "error #1 not_ready")
  }

  @Test func failedFrameCheckKeepsAPictureWhenTheSessionAsksForThem() {
    // Given a test session that keeps pictures of failed frame checks, showing a frame
    var options = PlaybackOptions(autoplay: false)
    options.failurePictures = FailurePictures(folder: "out", stem: "checks__seek.vpk")
    let h = InteractorHarness.ready(options: options)
    h.manager.frame = frame(md5: "abc")
    // When a frame check fails, one passes, and a check of another field fails
    h.interactor.submit(
      expectation(.frameMD5, .equal, .value(.string("def"))), source: SourceLine(number: 7, text: "expect …"))
    h.interactor.submit(expectation(.frameMD5, .equal, .value(.string("abc"))))
    h.interactor.submit(expectation(.state, .equal, .value(.string("playing"))))
    h.interactor.submit(.quit)
    // Then only the failed frame check wrote a picture, named for its line, and its failure names it
    #expect(h.manager.picturesWritten == ["out/checks__seek.vpk.line7.png"])
    let failures = h.report?.failedChecks ?? []
    #expect(failures.map(\.picture) == ["out/checks__seek.vpk.line7.png", nil])
  }

  @Test func failedFrameCheckKeepsNoPictureByDefault() {
    // Given a session that does not keep pictures (vpk play)
    let h = InteractorHarness.ready()
    h.manager.frame = frame(md5: "abc")
    // When a frame check fails
    h.interactor.submit(expectation(.frameMD5, .equal, .value(.string("def"))))
    h.interactor.submit(.quit)
    // Then nothing is written, and the failure is reported as ever
    #expect(h.manager.picturesWritten.isEmpty)
    #expect(h.report?.failedChecks.map(\.picture) == [nil])
    #expect(h.router.exitCodes == [SessionExitCode.checksFailed])
  }

  @Test func pictureNamesWithoutALineUseTheCommandNumber() {
    let naming = FailurePictures(folder: "", stem: "s.vpk")
    #expect(naming.path(for: nil, commandID: 4) == "s.vpk.command4.png")
    #expect(FailurePictures(folder: "out/", stem: "s.vpk").path(for: nil, commandID: 4) == "out/s.vpk.command4.png")
  }
}

/// ^Z and `fg`: the clock stops while the process is stopped, and playback goes on as it was.
@MainActor
@Suite struct PlaybackInteractorSuspendTests {
  @Test func aStopWhilePlayingPausesTheManagerAndTheContinuePlaysAgainWithoutEvents() {
    // Given a session playing
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.manager.calls.removeAll()
    // When the process stops, then continues
    h.interactor.suspend()
    #expect(h.manager.calls == ["pause"])
    h.interactor.resumeAfterSuspend()
    // Then the manager was paused and played again, and no event was told (the session's state never changed)
    #expect(h.manager.calls == ["pause", "play"])
    #expect(h.output.lines.isEmpty)
    h.interactor.submit(.status)
    #expect(h.output.lines == ["status #1 playing 0.0"])
  }

  @Test func aStopWhilePausedLeavesItPaused() {
    // Given a paused session
    let h = InteractorHarness.ready()
    h.manager.calls.removeAll()
    // When the process stops and continues
    h.interactor.suspend()
    h.interactor.resumeAfterSuspend()
    // Then nothing is asked of the manager
    #expect(h.manager.calls.isEmpty)
  }

  @Test func aStopDuringAWaitLeavesTheWaitRunning() {
    // Given a session playing with a wait running
    let h = InteractorHarness.ready(options: PlaybackOptions(autoplay: true))
    h.interactor.submit(.wait(.ended, timeout: nil))
    h.manager.calls.removeAll()
    // When the process stops and continues
    h.interactor.suspend()
    h.interactor.resumeAfterSuspend()
    // Then the manager is not paused (that would end the wait as not moving)
    #expect(h.manager.calls.isEmpty)
  }
}

extension InteractorHarness {
  /// mpv's `loadfile PATH replace` as its dialect submits it: the queue becomes PATH alone, with its own options, and
  /// it plays, dropping the file loaded.
  func replaceQueue(_ path: String, _ options: EntryOptions = EntryOptions()) {
    interactor.submit(.queue(.clear))
    interactor.submit(.queue(.insert(path, .end, options)))
    interactor.submit(.goto(1))
  }
}

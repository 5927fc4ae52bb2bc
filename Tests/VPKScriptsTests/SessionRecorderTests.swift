// The session recorder over the real interactor, fan-out and presenter, with a fake manager standing in for the
// engine: what it writes for commands typed while playing and paused, and how it rounds waits to the frame shown.

import Foundation
import Testing
import VPKTestSupport

@testable import VPKScripts
@testable import VideoPlaybackKit

@MainActor
@Suite("Session recorder: a session as a playback test script")
struct SessionRecorderTests {
  /// A playing session on a fake manager (30 fps, 10 s), recorded into `script`.
  @MainActor
  final class Harness {
    let manager = FakePlaybackManager()
    let script = CapturedTextOutput()
    let module: PlaybackModule
    let options: PlaybackOptions

    /// - Parameter recordsFromStart: false: nothing records the session until `join()`.
    init(
      autoplay: Bool = true, start: TimeSpec? = nil, seekMode: SeekMode = .exact, endAction: EndAction = .exit,
      recordsFromStart: Bool = true
    ) {
      let manager = manager
      // No frame cache: nothing is opened ahead, so the one fake manager tells each file's events as it opens.
      let options = PlaybackOptions(
        autoplay: autoplay, start: start, endAction: endAction, seekMode: seekMode, frameCacheBytes: 0)
      self.options = options
      module = PlaybackBuilder.build(
        path: "clip.mp4", options: options, format: .text, input: .lines([]),
        output: CapturedTextOutput(), isTerminal: false, useColor: false, makeManager: { manager },
        onClose: { _, _ in })
      if recordsFromStart {
        PlaybackBuilder.attachRecorder(
          to: module, output: script, scriptDirectory: FileManager.default.currentDirectoryPath, options: options)
      }
      // Started without ending the input (a paused session would close when it ends).
      module.eventHandler.onStart()
      manager.becomeReady(duration: 10)
    }

    /// Starts recording the running session (as a control-socket client's `record` does); returns what stops it.
    func join() -> (@MainActor () -> Void)? {
      PlaybackBuilder.attachRecorder(
        to: module, output: script, scriptDirectory: FileManager.default.currentDirectoryPath, options: options,
        joining: true, unrecordedClientIDs: ["marker"])
    }

    /// Playback is at `position`, showing the frame that starts at `frameTime`.
    func at(_ position: Double, frame frameTime: Double, md5: String) {
      manager.position = MediaTime(seconds: position)
      manager.frame = FrameIdentity(
        pts: Int64((frameTime * 15360).rounded()), timeBase: (1, 15360), time: MediaTime(seconds: frameTime),
        isKeyframe: false, width: 320, height: 240, pixelFormat: "yuv420p", md5: md5)
    }

    func type(_ line: String) {
      module.eventHandler.onInputLine(.text(line))
    }

    /// The script's lines after its header comments.
    var lines: [String] {
      script.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }
  }

  @Test func playingThenPausingIsAWaitForTheMediaTimeThenThePauseAndItsFrame() {
    // Given a session that plays from 0 and, at 3.01 s, shows the frame at 3.0
    let harness = Harness()
    harness.at(3.01, frame: 3.0, md5: "aaa")
    // When the person pauses there
    harness.type("pause")
    // Then the script opens the file, waits the 3.01 s, pauses, and pins the position and the frame
    #expect(
      harness.lines == [
        "open clip.mp4", "wait 3.010", "pause", "expect position == 3.010", "expect frame.md5 == aaa",
      ])
    #expect(harness.script.text.hasPrefix("# Recorded by vpk \(VideoPlaybackKitVersion.current)"))
  }

  @Test func aWaitIsRoundedIntoTheFrameTheWallClockShowedLate() {
    // Given a session at 3.1 s still showing the frame at 3.0 (one frame lasts 1/30 s: it was shown late)
    let harness = Harness()
    harness.at(3.1, frame: 3.0, md5: "late")
    // When the person pauses
    harness.type("pause")
    // Then the replay waits into the middle of the frame at 3.0, not to 3.1
    let wait = harness.lines[1]
    let seconds = Double(wait.dropFirst("wait ".count)) ?? 0
    #expect(seconds > 3.0 && seconds < 3.0 + 1.0 / 30)
    #expect(harness.lines.contains("expect frame.md5 == late"))
  }

  @Test func pausedCommandsHaveNoWaitsAndSeeksArePinned() {
    // Given a paused session
    let harness = Harness(autoplay: false)
    // When the person scrubs and the seek lands on the frame at 5.0
    harness.at(0, frame: 0, md5: "first")
    harness.type("scrub 5")
    harness.at(5, frame: 5, md5: "five")
    harness.manager.land(harness.manager.seeks[0])
    // And marks it, then types a line that is not a command
    harness.type("mark")
    harness.type("seek 3")
    // Then no time passes in the script, and each frame shown is pinned
    #expect(
      harness.lines == [
        "open clip.mp4", "pause", "scrub 5", "expect position == 5.000", "expect frame.md5 == five", "mark",
        "expect state == paused", "expect position == 5.000", "expect frame.md5 == five", "seek 3",
        "expect error == unknown_command",
      ])
  }

  @Test func aCommandRefusedAtRunTimeIsAcknowledgedSoTheReplayPasses() {
    // Given a session whose file was closed
    let harness = Harness(autoplay: false)
    harness.type("close")
    // When the person steps with nothing loaded (refused: not_ready)
    harness.type("step")
    // Then the script says the error was meant
    #expect(harness.lines.suffix(3) == ["close", "step", "expect error == not_ready"])
  }

  @Test func theRateScalesTheWaitAndBackwardPlayWaitsForMediaTimeGoingDown() {
    // Given playback at rate 2 from 0: at 4.01 s of media, 2.005 s of the clock have passed
    let harness = Harness()
    harness.at(0, frame: 0, md5: "first")
    harness.type("rate 2")
    harness.at(4.01, frame: 4.0, md5: "four")
    harness.type("rate -1")
    // When it plays backward down to 3.01
    harness.at(3.01, frame: 3.0, md5: "three")
    harness.type("pause")
    // Then each wait is the clock's time at its rate
    #expect(
      harness.lines == [
        "open clip.mp4", "rate 2", "wait 2.005", "rate -1", "wait 1.000", "pause", "expect position == 3.010",
        "expect frame.md5 == three",
      ])
  }

  @Test func theSessionsStartAndSeekModeAreWrittenAsTheReplayNeedsThem() async {
    // Given a session started at 50% with keyframe seeks by default, whose start lands on the keyframe at 4.0
    let harness = Harness(autoplay: false, start: .percent(50), seekMode: .keyframe)
    await Task.yield()
    harness.at(4, frame: 4, md5: "key")
    harness.manager.land(harness.manager.seeks[0], at: 4)
    // When the person scrubs with no mode, and the seek lands
    harness.type("scrub 2")
    harness.manager.land(harness.manager.seeks[1])
    // Then the script starts where the session did, and the scrub names the session's mode
    #expect(
      harness.lines.prefix(6) == [
        "open clip.mp4", "pause", "scrub 5.000 keyframe", "expect position == 4.000", "expect frame.md5 == key",
        "scrub 2 keyframe",
      ])
  }

  @Test func aFileOpenedWithAStartOfItsOwnIsFollowedByTheScrubThatBringsTheReplayThere() async {
    // Given a paused session recorded from its start
    let harness = Harness(autoplay: false)
    // When a client replaces its file with one that starts at 5 s (mpv's `loadfile b.mp4 replace start=5`), and the
    // start's seek lands on the frame at 5.0
    let fanOut = harness.module.fanOut
    replaceQueue(fanOut.port(for: fanOut.makeViewID()), "b.mp4", EntryOptions(start: .time(.seconds(5))))
    harness.manager.becomeReady(duration: 10)
    harness.at(5, frame: 5, md5: "five")
    harness.manager.land(harness.manager.seeks[0])
    await Task.yield()
    // Then the script opens it and scrubs to its start, where the replay lands on the same frame
    #expect(
      harness.lines == [
        "open clip.mp4", "pause", "open b.mp4", "pause", "scrub 5.000", "expect position == 5.000",
        "expect frame.md5 == five",
      ])
  }

  @Test func aFileThatOpensPausedInAPlayingSessionIsPausedAfterItsOpen() async {
    // Given a session that plays what it opens
    let harness = Harness(autoplay: true)
    // When a client replaces its file with one opened paused (mpv's `loadfile b.mp4 replace pause=yes`)
    let fanOut = harness.module.fanOut
    replaceQueue(fanOut.port(for: fanOut.makeViewID()), "b.mp4", EntryOptions(paused: true))
    harness.manager.becomeReady(duration: 10)
    await Task.yield()
    // Then the script pauses the replay after that open, not after the first
    #expect(harness.lines == ["open clip.mp4", "open b.mp4", "pause"])
  }

  @Test func aFileThatOpensAtARateOfItsOwnGetsItAfterItsOpenAndTheNextFileTheRateItReplaced() async {
    // Given a paused session recorded from its start
    let harness = Harness(autoplay: false)
    // When a client replaces its file with one at a rate of its own (mpv's `loadfile b.mp4 replace speed=2`)
    let fanOut = harness.module.fanOut
    let client = fanOut.port(for: fanOut.makeViewID())
    replaceQueue(client, "b.mp4", EntryOptions(rate: 2))
    harness.manager.becomeReady(duration: 10)
    await Task.yield()
    // And then with a file of no rate of its own, which opens at the rate b.mp4 replaced
    replaceQueue(client, "c.mp4")
    harness.manager.becomeReady(duration: 10)
    await Task.yield()
    // Then the script sets the rate after each open, as the replay's `open` would not
    #expect(
      harness.lines == ["open clip.mp4", "pause", "open b.mp4", "pause", "rate 2", "open c.mp4", "pause", "rate 1"])
  }

  @Test func aStepAtTheEndOfAFileKeptThereLeavesItAtTheEndSoAPlayAfterStartsOver() {
    // Given a session kept at the end of its file (--at-end pause), showing its last frame
    let harness = Harness(endAction: .pause)
    harness.at(10, frame: 9.96, md5: "last")
    harness.manager.reachEnd(at: 10)
    // When the person steps forward (there is no frame after it), then plays, and pauses at 2.01 s
    harness.type("step")
    harness.manager.finishStep(harness.manager.steps[0], moved: 0, at: 10)
    harness.type("play")
    harness.at(0, frame: 0, md5: "first")
    if let startOver = harness.manager.seeks.last { harness.manager.land(startOver) }
    harness.at(2.01, frame: 2.0, md5: "two")
    harness.type("pause")
    // Then the replay plays from the start too: it waits the 2.01 s and pauses there
    let afterPlay = Array(harness.lines.drop { $0 != "play" })
    #expect(afterPlay.prefix(4) == ["play", "wait 2.010", "pause", "expect position == 2.010"], "\(harness.lines)")
  }

  @Test func aStepWhilePlayingThatCannotMoveExpectsWhereTheReplayStands() {
    // Given a session playing the last frame (9.9667 s to 10 s), at 9.9726 s
    let harness = Harness(endAction: .pause)
    harness.at(9.9726, frame: 29.9 / 3, md5: "last")
    // When the person steps: there is no frame after it, so playback pauses where it was
    harness.type("step")
    harness.manager.finishStep(harness.manager.steps[0], moved: 0, at: 9.9726)
    // Then the replay waits into the middle of that frame and expects the position where it stands then, as a step
    // that cannot move does not move the replay either
    let lines = harness.lines
    let wait = lines.first { $0.hasPrefix("wait ") }.flatMap { Double($0.dropFirst("wait ".count)) } ?? 0
    #expect(
      lines.suffix(3) == ["step", "expect position == \(RecordedScriptText.time(wait))", "expect frame.md5 == last"])
    #expect(wait > 29.9 / 3 && wait < 10)
  }

  @Test func aSkipPastTheStartWhilePlayingBackwardIsCheckedAtTheEndItReaches() {
    // Given a session playing backward at 0.2 s
    let harness = Harness(endAction: .pause)
    harness.at(0, frame: 0, md5: "first")
    harness.type("rate -1")
    harness.at(0.2, frame: 0.2, md5: "early")
    // When the person skips 1 s back: the skip lands on the start, and the file ends there at once
    harness.type("skip -1")
    harness.at(0, frame: 0, md5: "first")
    harness.manager.land(harness.manager.seeks[0], at: 0)
    harness.manager.reachEnd(at: 0.02)
    // Then the landing has no expect of its own (the replay may meet the end before it): the end's has
    let afterSkip = Array(harness.lines.drop { $0 != "skip -1" })
    #expect(afterSkip == ["skip -1", "wait ended", "expect position == 0.020", "expect frame.md5 == first"])
  }

  @Test func aSkipWhilePlayingCountsFromWhereTheSessionCountedItNotFromTheMarkBeforeIt() {
    // Given a session playing at rate 2 whose mark before a skip saw 7.95 s, while the session counted the skip from
    // 7.93 s (the wall clock moved between the two)
    let harness = Harness()
    harness.at(0, frame: 0, md5: "first")
    harness.type("rate 2")
    harness.at(7.95, frame: 7.9333, md5: "before")
    // When the person skips back 2.109 s and the seek lands on its target, 5.821
    harness.type("skip -2.109")
    harness.at(5.821, frame: 5.8, md5: "landed")
    harness.manager.land(SeekRequest(id: harness.manager.seeks[0].id, target: MediaTime(seconds: 5.821), mode: .exact))
    // Then the replay waits to 7.93 (3.965 s at rate 2) and expects the landing at 5.821
    let afterRate = Array(harness.lines.drop { $0 != "rate 2" })
    #expect(
      afterRate == ["rate 2", "wait 3.965", "skip -2.109", "expect position == 5.821", "expect frame.md5 == landed"],
      "\(harness.lines)")
  }

  @Test func anEndToldJustAfterAPauseIsReachedByPlayingOnInTheReplay() {
    // Given a session playing near its end (--at-end pause)
    let harness = Harness(endAction: .pause)
    harness.at(9.98, frame: 29.9 / 3, md5: "last")
    // When the person pauses, and the engine tells of the end it reached just before the pause
    harness.type("pause")
    harness.manager.reachEnd(at: 10)
    // Then the replay, paused, plays on to the end (saying why), and checks it there
    let afterPause = harness.script.text.split(separator: "\n").map(String.init).drop { $0 != "pause" }.dropFirst(3)
    let comment: String = afterPause.first ?? ""
    #expect(comment.starts(with: "# the end came just after the pause"), "\(harness.script.text)")
    #expect(
      Array(afterPause.dropFirst()) == ["play", "wait ended", "expect position == 10.000", "expect frame.md5 == last"])
  }

  @Test func joiningARunningSessionStartsTheScriptWhereItIsAndStopsWhenAsked() throws {
    // Given a session playing backward, at 6.01 s showing the frame at 6.0, that nothing records
    let harness = Harness(recordsFromStart: false)
    harness.type("rate -1")
    harness.at(6.01, frame: 6.0, md5: "six")
    // When a recording joins it, the person pauses at 5.01, a client sends a query of its own, and the recording stops
    let stop = try #require(harness.join())
    #expect(harness.join() == nil, "one recording at a time")
    harness.at(5.01, frame: 5.0, md5: "five")
    harness.type("pause")
    harness.module.eventHandler.onInputLine(.text(#"{"command":"status","id":"marker"}"#))
    stop()
    harness.type("play")
    // Then the script opens the file and brings the replay to the rate and position it found, then what followed
    #expect(
      harness.lines == [
        "open clip.mp4", "rate -1", "scrub 6.010", "wait 1.000", "pause", "expect position == 5.010",
        "expect frame.md5 == five",
      ])
  }

  @Test func aQueueEntryWithATitleIsWrittenAsTheParserReadsItBack() {
    // Given entries added with titles (mpv's `loadlist` of a list with titles), one with quotes, a backslash and #
    let commands: [Command] = [
      .queue(.insert("ep 1.mp4", .end, EntryOptions(title: "Pilot"))),
      .queue(.insert("/m/ep2.mp4", .number(2), EntryOptions(paused: true, title: #"Part #2: "the \ end""#))),
    ]
    for command in commands {
      // When each is written as a script line
      let line = RecordedScriptText.line(for: command)
      // Then the line reads back as the same command
      #expect(CommandParser().parse(line) == .command(command), "\(line)")
    }
    #expect(RecordedScriptText.line(for: commands[0]) == #"queue add title="Pilot" ep 1.mp4"#)
  }

  @Test func mediaPathsAreRelativeToTheScriptsFolderWhenBelowIt() {
    #expect(
      RecordedScriptText.mediaPath("media/clip.mp4", workingDirectory: "/w", scriptDirectory: "/w") == "media/clip.mp4")
    #expect(RecordedScriptText.mediaPath("../m/c.mp4", workingDirectory: "/w/x", scriptDirectory: "/w") == "m/c.mp4")
    #expect(
      RecordedScriptText.mediaPath("media/c.mp4", workingDirectory: "/w", scriptDirectory: "checks") == "../media/c.mp4"
    )
    #expect(
      RecordedScriptText.mediaPath("/m/c.mp4", workingDirectory: "/w", scriptDirectory: "/w/checks") == "/m/c.mp4")
    #expect(RecordedScriptText.time(2.5) == "2.500")
    #expect(RecordedScriptText.line(for: .skip(-0.25, .keyframe)) == "skip -0.250 keyframe")
    #expect(RecordedScriptText.line(for: .scrub(.percent(12.5), nil)) == "scrub 12.5%")
    #expect(RecordedScriptText.line(for: .rate(-1)) == "rate -1")
    #expect(RecordedScriptText.line(for: .step(-3)) == "step -3")
    #expect(RecordedScriptText.time(1.9666667) == "1.966667")
  }
}

/// mpv's `loadfile PATH replace` as its dialect submits it through `port`: the queue becomes PATH alone, with its own
/// options, and it plays.
@MainActor
private func replaceQueue(_ port: any PlaybackInteractorInput, _ path: String, _ options: EntryOptions = EntryOptions())
{
  port.submit(.queue(.clear), source: nil, from: nil)
  port.submit(.queue(.insert(path, .end, options)), source: nil, from: nil)
  port.submit(.goto(1), source: nil, from: nil)
}

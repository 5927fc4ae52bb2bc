// Integration tests of the engine's clocks, waits, steps, rate and loop on real media, checked
// against ffmpeg's framemd5 list of the same file.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@MainActor
@Suite struct PlaybackEngineClockTests {
  @Test func theVirtualClockMovesOnlyInWaitsAndLandsExactly() async throws {
    // Given a clip on the virtual clock, playing
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url, clock: .virtual, progress: 0.5)
    opened.manager.play()
    try await Task.sleep(for: .milliseconds(200))
    // Then no time passes by itself
    #expect(opened.manager.snapshot().position.seconds == 0)
    // When 2.25 s are waited
    let result = try await opened.wait(.elapsed(2.25))
    // Then the position is exactly there, the frame on screen is ffmpeg's at that time, and every
    // progress mark up to it was reported, in order
    #expect(result.outcome == .satisfied)
    #expect(result.position.seconds == 2.25)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 2.25).hash)
    let marks = opened.spy.events.filter { $0.hasPrefix("progress") }
    #expect(marks == ["progress 0.0", "progress 0.5", "progress 1.0", "progress 1.5", "progress 2.0"])
    opened.manager.shutdown()
  }

  @Test func aClockCarriesOnFromAnotherFilesEndOnlyOnTheWallClockAndWithinTheFrameOnScreen() {
    // (1/32 s, which a Double holds exactly, so "a frame ago" is exact)
    let frame = 1.0 / 32
    // Given an end due 10 ms before now, and a frame on screen of 1/32 s
    // Then the clock starts from that end on the wall clock
    #expect(PlaybackEngine.clockStart(continuing: 99.99, now: 100, frameOnScreen: frame, wall: true) == 99.99)
    // And from now on the other clocks, with no end to carry on from, or none known of the frame on screen
    #expect(PlaybackEngine.clockStart(continuing: 99.99, now: 100, frameOnScreen: frame, wall: false) == 100)
    #expect(PlaybackEngine.clockStart(continuing: nil, now: 100, frameOnScreen: frame, wall: true) == 100)
    #expect(PlaybackEngine.clockStart(continuing: 99.99, now: 100, frameOnScreen: nil, wall: true) == 100)
    #expect(PlaybackEngine.clockStart(continuing: 99.99, now: 100, frameOnScreen: 0, wall: true) == 100)
    // And from now when the end was a frame or more ago (the frame on screen would be cut short), or is still to come
    #expect(PlaybackEngine.clockStart(continuing: 100 - frame, now: 100, frameOnScreen: frame, wall: true) == 100)
    #expect(PlaybackEngine.clockStart(continuing: 90, now: 100, frameOnScreen: frame, wall: true) == 100)
    #expect(PlaybackEngine.clockStart(continuing: 100.5, now: 100, frameOnScreen: frame, wall: true) == 100)
  }

  @Test func anEndOnTheWallClockSaysWhenItWasDueAndAnOldOneIsNotCarriedOnFrom() async throws {
    // Given a clip on the wall clock, near its end
    let url = try TestMedia.url(for: .h264BFrames)
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    _ = try await opened.seek(to: 9.5)
    #expect(opened.manager.endDueTime == nil)
    // When it plays to the end
    let played = hostSeconds()
    try await opened.playToEnd()
    let told = hostSeconds()
    // Then the end was due after playing began and before it was told
    let due = try #require(opened.manager.endDueTime)
    #expect(due >= played && due <= told)
    // And a seek moves playback off it (paused first: playing stays the intent at the end, and would go on from there)
    opened.manager.pause()
    _ = try await opened.seek(to: 1)
    #expect(opened.manager.endDueTime == nil)
    // When it is asked to play on from an end long gone, and to pause at once (the engine takes both together, or the
    // pause a moment after)
    opened.manager.play(continuingFrom: played - 100)
    opened.manager.pause()
    // Then its clock started when it was asked to play, not then: started 100 s back, it would stand at the end
    #expect(opened.manager.snapshot().position.seconds < 2)
    opened.manager.shutdown()
  }

  @Test func anEndOnTheOtherClocksSaysNoTime() async throws {
    for clock in [ClockKind.free, .virtual] {
      // Given a clip near its end on the free or virtual clock
      var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: clock, progress: nil)
      _ = try await opened.seek(to: 9.5)
      // When it plays to the end (the virtual clock moved by a wait)
      if clock == .virtual {
        opened.manager.play()
        _ = try await opened.wait(.ended)
      } else {
        try await opened.playToEnd()
      }
      // Then no time on the wall clock is given for it
      #expect(opened.spy.endedAt != nil)
      #expect(opened.manager.endDueTime == nil)
      opened.manager.shutdown()
    }
  }

  @Test func virtualRunsReportTheSameEventsAndCounters() async throws {
    let url = try TestMedia.url(for: .h264BFrames)
    var transcripts: [[String]] = []
    var decoded: [Int] = []
    for _ in 0..<2 {
      var opened = try await OpenedManager(url, clock: .virtual, progress: 1)
      opened.manager.play()
      _ = try await opened.wait(.elapsed(1.5))
      _ = try await opened.seek(to: 4.2)
      _ = try await opened.wait(.position(MediaTime(seconds: 6)))
      decoded.append(opened.manager.snapshot().framesDecoded)
      transcripts.append(opened.spy.events)
      opened.manager.shutdown()
    }
    #expect(transcripts[0] == transcripts[1])
    #expect(decoded[0] == decoded[1])
  }

  @Test func rateScalesTheVirtualClock() async throws {
    var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: .virtual, progress: nil)
    opened.manager.setRate(2)
    opened.manager.play()
    let result = try await opened.wait(.elapsed(1.5))
    #expect(result.position.seconds == 3)
    opened.manager.shutdown()
  }

  @Test func waitOutcomes() async throws {
    var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: .virtual, progress: nil)
    let duration = try #require(opened.spy.info?.duration).seconds
    // Paused, a wait for a position can never be satisfied
    #expect(try await opened.wait(.position(MediaTime(seconds: 3))).outcome == .notPlaying)
    // Playing, a timeout ends a wait at exactly the timeout
    opened.manager.play()
    let timedOut = try await opened.wait(.position(MediaTime(seconds: 5)), timeout: 1)
    #expect(timedOut.outcome == .timedOut)
    #expect(timedOut.position.seconds == 1)
    // A position past the end: the end comes first
    let past = try await opened.wait(.position(MediaTime(seconds: duration + 5)))
    #expect(past.outcome == .endedFirst)
    #expect(abs(past.position.seconds - duration) < 0.05)
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264BFrames, .vp9, .mpegTS])
  func stepsShowTheNextAndPreviousFramesExactly(clip: TestClip) async throws {
    // Given a clip, ffmpeg's frames, and a scrub to just after a keyframe (steps back cross the GOP)
    let url = try TestMedia.url(for: clip)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    let start = try await opened.seek(to: 2.0).position.seconds
    let startIndex = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    // When stepping forward 1, 3, then back 2, 5, 1
    var index = startIndex
    for count in [1, 3, -2, -5, -1, 2] {
      let result = try await opened.step(count)
      index += count
      // Then each lands on ffmpeg's frame that many frames away, paused at its start
      let expected = reference[index]
      #expect(result.moved == count, "\(clip) step \(count)")
      #expect(opened.manager.currentFrame()?.md5 == expected.hash, "\(clip) step \(count) to #\(index)")
      #expect(abs(result.position.seconds - max(0, expected.time)) < 1e-6, "\(clip) step \(count)")
    }
    opened.manager.shutdown()
  }

  @Test func aLongStepBackLandsOnTheFrameItCounted() async throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    let start = try await opened.seek(to: 7.0).position.seconds
    let startIndex = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    let result = try await opened.step(-40)
    #expect(result.moved == -40)
    #expect(opened.manager.currentFrame()?.md5 == reference[startIndex - 40].hash)
    opened.manager.shutdown()
  }

  @Test func stepsStopAtEitherEnd() async throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    // At the first frame, a step back moves nothing and leaves it on screen
    let back = try await opened.step(-3)
    #expect(back.moved == 0)
    #expect(opened.manager.currentFrame()?.md5 == reference[0].hash)
    // Near the end, a long step forward stops on the last frame
    let duration = try #require(opened.spy.info?.duration).seconds
    _ = try await opened.seek(to: duration - 0.1)
    let forward = try await opened.step(50)
    #expect(forward.moved < 50 && forward.moved > 0)
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash)
  }

  @Test func loopingGoesOnFromTheStartAndCountsEachEnd() async throws {
    // Given a clip that loops on the free clock
    let url = try TestMedia.url(for: .h264BFrames)
    let frames = try FFprobe.frameCount(url)
    var opened = try await OpenedManager(url, clock: .free, progress: nil, loops: true)
    let duration = try #require(opened.spy.info?.duration).seconds
    // When it plays through two ends
    opened.manager.play()
    try await opened.spy.wait("two ends", seconds: 60) { [spy = opened.spy] in spy.ends.count >= 2 }
    opened.manager.pause()
    // Then each end was reported with its count at the duration, and every pass decoded every frame
    #expect(opened.spy.ends.map(\.loops).prefix(2) == [1, 2])
    for end in opened.spy.ends.prefix(2) { #expect(abs(end.position.seconds - duration) < 0.05) }
    #expect(opened.manager.snapshot().framesDecoded >= 2 * frames)
    #expect(opened.manager.snapshot().loops >= 2)
    _ = try await opened.seek(to: 1)
    #expect(opened.manager.snapshot().position.seconds == 1)
    opened.manager.shutdown()
  }

  @Test func aLoopOnTheVirtualClockHasNoGap() async throws {
    // Given a looping clip on the virtual clock
    var opened = try await OpenedManager(
      try TestMedia.url(for: .h264BFrames), clock: .virtual, progress: nil, loops: true)
    let duration = try #require(opened.spy.info?.duration).seconds
    opened.manager.play()
    // When exactly one duration and 1.5 s pass
    let result = try await opened.wait(.elapsed(duration + 1.5))
    // Then playback is 1.5 s into the second pass: the loop cost no time
    #expect(abs(result.position.seconds - 1.5) < 1e-6)
    #expect(opened.spy.ends.map(\.loops) == [1])
    opened.manager.shutdown()
  }

  @Test func theWallClockShowsEachFrameOnTimeWithoutWakingForEach() async throws {
    // Given a clip playing on the wall clock with no progress events
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    let opened = try await OpenedManager(url, clock: .wall, progress: nil)
    let wakeupsBefore = opened.manager.engineWakeups
    opened.manager.play()
    // When the frame on screen is read again and again, for 1.5 s of media and at least ten times (a slow
    // sanitizer build reads less often)
    var samples = 0
    var previous = -1
    while samples < 10 || opened.manager.snapshot().position.seconds < 1.5 {
      let frame = try #require(opened.manager.currentFrame())
      let after = opened.manager.snapshot().position.seconds
      // Then it is always one of ffmpeg's frames, never one due after the position read just after it, and never
      // one before the last frame seen, although the engine thread sleeps through most frames. (How close behind
      // the position it is depends on whether decoding keeps up, which a loaded machine decides: scripts/bench's
      // lateness figure, not a test.)
      let last = try #require(reference.firstIndex { $0 == reference.entry(containing: after) })
      let index = try #require(reference[...last].lastIndex { $0.hash == frame.md5 }, "at \(after)")
      #expect(index >= previous, "frame \(index) after frame \(previous)")
      previous = index
      samples += 1
      try await Task.sleep(for: .milliseconds(13))
    }
    opened.manager.pause()
    let shown = reference.filter { $0.time <= opened.manager.snapshot().position.seconds }.count
    let wakeups = opened.manager.engineWakeups - wakeupsBefore
    #expect(shown >= 40)
    // And the engine thread woke for refills only: not once a frame
    #expect(wakeups * 3 < shown, "\(wakeups) wake-ups for \(shown) frames")
    opened.manager.shutdown()
  }

  @Test func aPauseOnTheWallClockKeepsTheFrameOnScreenAndStepsOnFromIt() async throws {
    // Given a clip playing on the wall clock, its frames shown without the engine thread
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    // When it pauses mid-clip. A test task can wait far longer than it asked to sleep on a loaded machine (two cores,
    // the sanitizers, tests in parallel): if playback reached the last frame meanwhile, there is no frame to step to,
    // so it plays again from the start, a few times at most.
    var position = 0.0
    for attempt in 1...5 {
      opened.manager.play()
      try await Task.sleep(for: .milliseconds(700))
      opened.manager.pause()
      position = opened.manager.snapshot().position.seconds
      while true {
        try await Task.sleep(for: .milliseconds(50))
        let now = opened.manager.snapshot().position.seconds
        if now == position { break }
        position = now
      }
      if reference.entry(containing: position) != reference.last { break }
      try #require(attempt < 5, "five plays of 700 ms each reached the clip's last frame")
      _ = try await opened.seek(to: 0)
    }
    // Then the frame on screen is ffmpeg's, at or before the paused position (at it when decoding kept up with the
    // clock; a loaded machine can leave it behind, which is scripts/bench's lateness figure, not a test)
    let last = try #require(reference.firstIndex { $0 == reference.entry(containing: position) })
    let index = try #require(reference[...last].lastIndex { $0.hash == opened.manager.currentFrame()?.md5 })
    // And a step shows the frame right after it
    let result = try await opened.step(1)
    #expect(result.moved == 1)
    #expect(opened.manager.currentFrame()?.md5 == reference[index + 1].hash)
    opened.manager.shutdown()
  }

  @Test func theWallClockPacesAndReportsLateness() async throws {
    var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: .wall, progress: nil)
    opened.manager.play()
    let started = Date()
    let result = try await opened.wait(.elapsed(0.5))
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.outcome == .satisfied)
    // Half a second of real time passed, and playback moved without running ahead of it; how far behind it may
    // fall depends on the machine's load, so that is scripts/bench's lateness figure, not a test.
    #expect(elapsed >= 0.5 - 0.01)
    #expect(result.position.seconds > 0 && result.position.seconds <= elapsed + 0.01)
    #expect(opened.manager.snapshot().latenessP99 != nil)
    opened.manager.shutdown()
  }
}

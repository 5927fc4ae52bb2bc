// Integration tests of playing backward (a negative rate) on real media, on the virtual clock: every frame shown is
// ffmpeg's frame at that position, walking back across GOPs; waits land where the clock says; the start is an end
// with the direction; looping goes on from the last frame; seeks, steps and turning the rate behave; on the wall clock
// the first pass holds the clock.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@MainActor
@Suite struct PlaybackEngineReverseTests {
  nonisolated static let reverseClips: [SweptClip] = [
    .corpus(.h264BFrames), .corpus(.h264OpenGOP), .corpus(.vp9), .corpus(.mpeg4), .corpus(.mpeg4AVI),
    .corpus(.hevc), .sweep(.mpeg2VOB),
  ]

  /// From the middle of the last frame, plays backward at rate -1 and waits to the middle of each frame before it,
  /// `limit` times (or to the first frame), checking each frame on screen against ffmpeg's; returns how many frames
  /// it walked, the cache's figures at the end, and whether the start was reached.
  private func walkBackward(
    _ clip: SweptClip, limit: Int, budget: Int = PlaybackConfiguration.defaultFrameCacheBytes
  ) async throws -> (frames: Int, reading: FrameCacheReading, opened: OpenedManager) {
    let url = try clip.url()
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil, frameCacheBytes: budget)
    let last = try #require(reference.last)
    var position = try await opened.seek(to: last.time + last.durationSeconds / 2).position.seconds
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: position) })
    opened.manager.setRate(-1)
    opened.manager.play()
    var frames = 0
    while frames < limit && index > 0 && reference[index - 1].time >= 0 {
      index -= 1
      let target = reference[index].time + reference[index].durationSeconds / 2
      let result = try await opened.wait(.elapsed(position - target))
      position = result.position.seconds
      frames += 1
      #expect(result.outcome == .satisfied, "\(clip) frame \(frames)")
      #expect(abs(position - target) < 1e-6, "\(clip) frame \(frames): at \(position), not \(target)")
      let frame = try #require(opened.manager.currentFrame())
      #expect(frame.md5 == reference[index].hash, "\(clip) frame \(frames) (#\(index)): showed pts \(frame.pts)")
      #expect(opened.manager.snapshot().frameCache.bytes <= budget, "\(clip) frame \(frames)")
    }
    return (frames, opened.manager.snapshot().frameCache, opened)
  }

  @Test(arguments: reverseClips)
  func playingBackwardShowsFFmpegsFramesAcrossGOPs(clip: SweptClip) async throws {
    // Given a clip with B-frames (open GOPs, reordered pts for some), at its last frame, with the default cache
    // When playing backward at rate -1 across several GOPs (to the start, or 100 frames of the one long GOP)
    let walked = try await walkBackward(clip, limit: 100)
    defer { walked.opened.manager.shutdown() }
    // Then every frame shown was ffmpeg's at that position (checked on the way), and most came from the cache
    #expect(walked.frames >= 90, "\(clip)")
    #expect(walked.reading.hits > 4 * walked.reading.misses, "\(clip): \(walked.reading)")
  }

  @Test(arguments: [SweptClip.corpus(.h264OpenGOP), .sweep(.mpeg2VOB), .corpus(.h264BFrames)])
  func aBudgetSmallerThanAGOPPlaysBackwardExactlyWithinIt(clip: SweptClip) async throws {
    // Given a cache that holds 8 frames, less than a GOP
    let url = try clip.url()
    let probe = try await OpenedManager(url, clock: .virtual, progress: nil)
    let reading = probe.manager.snapshot().frameCache
    probe.manager.shutdown()
    let budget = reading.bytes / max(reading.frames, 1) * 8
    // When playing backward across GOPs
    let walked = try await walkBackward(clip, limit: 70, budget: budget)
    defer { walked.opened.manager.shutdown() }
    // Then every frame was ffmpeg's and the cache stayed within its budget (both checked on the way)
    #expect(walked.frames == 70)
  }

  @Test func withTheCacheOffPlayingBackwardStaysExact() async throws {
    let walked = try await walkBackward(.corpus(.h264OpenGOP), limit: 40, budget: 0)
    defer { walked.opened.manager.shutdown() }
    #expect(walked.frames == 40)
    #expect(walked.reading.frames == 0)
  }

  @Test func rateMinusOneThenAWaitOfTwoSecondsLandsExactlyTwoSecondsEarlier() async throws {
    // Given a clip paused at 5 s on the virtual clock
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 5)
    // When playing at rate -1 and waiting 2 s
    opened.manager.setRate(-1)
    opened.manager.play()
    let waited = try await opened.wait(.elapsed(2))
    // Then the position is 3 s exactly, with ffmpeg's frame there on screen
    #expect(waited.position.seconds == 3)
    #expect(opened.manager.snapshot().position.seconds == 3)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 3).hash)
    // And at rate -0.5, a wait of 2 s more moves 1 s
    opened.manager.setRate(-0.5)
    let slower = try await opened.wait(.elapsed(2))
    #expect(slower.position.seconds == 2)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 2).hash)
  }

  @Test func aWaitForAPositionAtMostComesDownToIt() async throws {
    // Given a clip playing backward from 5 s
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 5)
    opened.manager.setRate(-1)
    opened.manager.play()
    // When waiting for the position to come down to 3.5 s
    let waited = try await opened.wait(.positionAtMost(MediaTime(seconds: 3.5)))
    // Then it is satisfied within a frame of it, showing the frame that ends there
    #expect(waited.outcome == .satisfied)
    #expect(waited.position.seconds <= 3.5 && waited.position.seconds > 3.5 - 1.0 / 30)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: waited.position.seconds).hash)
    // And a wait for a position above the one on screen ends with the start
    let above = try await opened.wait(.position(MediaTime(seconds: 4)))
    #expect(above.outcome == .endedFirst)
    #expect(above.position.seconds == 0)
  }

  @Test func reachingTheStartIsAnEndBackwardAndLoopingGoesOnFromTheLastFrame() async throws {
    // Given a looping clip playing backward from 0.5 s, with progress every 0.1 s
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    let last = try #require(reference.last)
    var opened = try await OpenedManager(url, clock: .virtual, progress: 0.1, loops: true)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 0.5)
    opened.spy.events.removeAll()
    opened.manager.setRate(-1)
    opened.manager.play()
    // When 0.6 s pass
    let waited = try await opened.wait(.elapsed(0.6))
    // Then the start was an end, backward, with the marks coming down to it on the way
    #expect(opened.spy.endDirections == [.backward])
    #expect(opened.spy.ends.last?.position.seconds == 0)
    let endIndex = try #require(opened.spy.events.firstIndex { $0.hasPrefix("ended") })
    let marks = opened.spy.events[..<endIndex].filter { $0.hasPrefix("progress") }.compactMap {
      Double($0.dropFirst("progress ".count))
    }
    #expect(marks.count == 5, "\(marks)")
    for (mark, expected) in zip(marks, [0.4, 0.3, 0.2, 0.1, 0.0]) {
      #expect(mark <= expected + 1e-9 && mark > expected - 1.0 / 30, "\(marks)")
    }
    // And playing went on from the end: 0.1 s before it, on ffmpeg's frame there
    let end = last.time + last.durationSeconds
    #expect(abs(waited.position.seconds - (end - 0.1)) < 1e-6, "at \(waited.position.seconds)")
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: end - 0.1).hash)
    #expect(opened.manager.snapshot().loops == 1)
  }

  @Test func withoutLoopingPlayingBackwardStopsAtTheStart() async throws {
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 1.2)
    opened.manager.setRate(-2)
    opened.manager.play()
    let waited = try await opened.wait(.ended)
    #expect(waited.outcome == .satisfied)
    #expect(opened.spy.endDirections == [.backward])
    #expect(waited.position.seconds == 0)
    #expect(opened.manager.currentFrame()?.md5 == reference[0].hash)
  }

  @Test func onTheWallClockPlayingBackwardReachesTheStartComesDownToAPositionAndPausesOnFFmpegsFrame() async throws {
    // Given a clip at 2 s on the wall clock, playing backward at rate -2
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 2)
    opened.manager.setRate(-2)
    opened.manager.play()
    // When waiting for the end (the engine takes the wait before it can reach the start)
    let ended = try await opened.wait(.ended)
    // Then the start is an end backward, on the first frame, and lateness was measured
    #expect(ended.outcome == .satisfied)
    #expect(opened.spy.endDirections == [.backward])
    #expect(opened.manager.currentFrame()?.md5 == reference[0].hash)
    #expect(opened.manager.snapshot().latenessP99 != nil)
    // And after a seek playing backward goes on, and comes down to 1 s (or further, on a busy machine)
    _ = try await opened.seek(to: 3)
    let waited = try await opened.wait(.positionAtMost(MediaTime(seconds: 1)))
    #expect(waited.outcome == .satisfied)
    #expect(waited.position.seconds <= 1)
    // And pausing shows ffmpeg's frame wherever it stopped
    opened.manager.pause()
    _ = try await opened.wait(.elapsed(0))
    let paused = opened.manager.snapshot().position.seconds
    #expect(paused <= 1 && paused >= 0)
    // (the frame is checked at its own time: when the frames due fall behind, as under ThreadSanitizer, the clock
    // stops where it is while the frame on screen is still a later one)
    let frame = try #require(opened.manager.currentFrame())
    #expect(
      frame.md5 == reference.entry(containing: frame.time.seconds).hash, "at \(frame.time.seconds), paused \(paused)")
  }

  @Test func onTheWallClockTheFirstPassHoldsTheClockAndPlayingGoesOnFromWhereItStarted() async throws {
    // Given a clip on the wall clock at 8 s, 240 frames after the keyframe before it, with nothing held before the
    // frame on screen (a seek forward keeps no frames it skips)
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    defer { opened.manager.shutdown() }
    let start = try await opened.seek(to: 8).position.seconds
    opened.manager.setRate(-1)
    // When it plays backward until the first pass is done, then pauses
    let before = hostSeconds()
    opened.manager.play()
    while opened.manager.firstPassHolds.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
    opened.manager.pause()
    _ = try await opened.wait(.elapsed(0))
    let elapsed = hostSeconds() - before
    // Then the clock stood still while the pass decoded from the keyframe: it came down by no more than the time that
    // passed besides (however long the pass took on this machine)
    let holds = opened.manager.firstPassHolds
    #expect(holds.count == 1)
    #expect(holds.seconds > 0)
    let position = opened.manager.snapshot().position.seconds
    #expect(position <= start)
    #expect(start - position <= elapsed - holds.seconds + 1e-6, "moved \(start - position) s in \(elapsed) s")
    // And the frame on screen is ffmpeg's frame for its time, at or before the start. (Not necessarily the one at the
    // clock's position: on a machine slow enough that the frames due fall behind, as under ThreadSanitizer, `pause`
    // stops the clock where it is while the frame on screen is still a later one.)
    let frame = try #require(opened.manager.currentFrame())
    #expect(frame.time.seconds <= start + 1e-6)
    #expect(frame.md5 == reference.entry(containing: frame.time.seconds).hash, "at \(frame.time.seconds)")
  }

  @Test func onTheVirtualClockPlayingBackwardNeverHoldsTheClock() async throws {
    // Given the same clip at 8 s on the virtual clock, where a wait's time is exact
    var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 8)
    // When it plays backward for 1 s
    opened.manager.setRate(-1)
    opened.manager.play()
    let waited = try await opened.wait(.elapsed(1))
    // Then it is 1 s earlier, and nothing was held: the virtual clock waits for decoding by itself
    #expect(waited.position.seconds == 7)
    #expect(opened.manager.firstPassHolds.count == 0)
  }

  @Test func seekStepAndTurningTheRateWhilePlayingBackwardShowFFmpegsFrames() async throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 8)
    opened.manager.setRate(-1)
    opened.manager.play()
    _ = try await opened.wait(.elapsed(0.5))
    // A seek while playing backward lands, and playing backward goes on from there
    _ = try await opened.seek(to: 4)
    let afterSeek = try await opened.wait(.elapsed(0.25))
    #expect(afterSeek.position.seconds == 3.75)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 3.75).hash)
    // Turning the rate forward plays forward from the frame on screen
    opened.manager.setRate(1)
    let forward = try await opened.wait(.elapsed(0.5))
    #expect(forward.position.seconds == 4.25)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 4.25).hash)
    // And backward again
    opened.manager.setRate(-1)
    let backward = try await opened.wait(.elapsed(1))
    #expect(backward.position.seconds == 3.25)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 3.25).hash)
    // A step pauses, and steps from the frame on screen
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: 3.25) })
    let back = try await opened.step(-1)
    index -= 1
    #expect(back.moved == -1)
    #expect(opened.manager.currentFrame()?.md5 == reference[index].hash)
    let ahead = try await opened.step(2)
    index += 2
    #expect(ahead.moved == 2)
    #expect(opened.manager.currentFrame()?.md5 == reference[index].hash)
  }

  @Test func aSeekBeforeTheFirstFrameWhilePlayingBackwardLandsOnTheStartWherePlayingBackwardEnds() async throws {
    // Given an MPEG-TS clip whose first frame comes at 0.021333 s, playing backward at rate -2 from 1 s
    let url = try TestMedia.url(for: .mpegTS)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    let first = try #require(reference.first)
    #expect(first.time > 0.02)
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 1)
    opened.manager.setRate(-2)
    opened.manager.play()
    // When a keyframe seek is clamped to 0
    let landed = try await opened.seek(to: 0, mode: .keyframe)
    // Then it lands on the start, the first frame's time, where playing backward ends, not below it
    #expect(abs(landed.position.seconds - first.time) < 1e-6, "landed at \(landed.position.seconds)")
    #expect(opened.manager.currentFrame()?.md5 == first.hash)
    let ended = try await opened.wait(.ended)
    #expect(abs(ended.position.seconds - first.time) < 1e-6, "ended at \(ended.position.seconds)")
    #expect(opened.spy.endDirections == [.backward])
  }
}

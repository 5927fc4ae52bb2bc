// Integration tests of the decoded-frame cache on real media: backward steps walking across GOPs show ffmpeg's frames
// and decode once per GOP (or per segment when the budget is small), seeks to frames passed on the way decode
// nothing, and a new decoder empties the cache.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@MainActor
@Suite struct PlaybackEngineCacheTests {
  /// Bytes one decoded frame of `url` takes in the cache, as the engine counts them.
  private func frameBytes(of url: URL) async throws -> Int {
    let opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    let reading = opened.manager.snapshot().frameCache
    try #require(reading.frames > 0)
    return reading.bytes / reading.frames
  }

  /// From the last frame, steps back one frame at a time `limit` times (or to the first frame), checking each frame
  /// against ffmpeg's; returns how many steps moved and the cache's misses on the way.
  private func walkBack(
    _ clip: SweptClip, limit: Int, budget: Int = PlaybackConfiguration.defaultFrameCacheBytes
  ) async throws -> (steps: Int, misses: Int) {
    let url = try clip.url()
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil, frameCacheBytes: budget)
    defer { opened.manager.shutdown() }
    let last = try #require(reference.last)
    let start = try await opened.seek(to: last.time + last.durationSeconds / 2).position.seconds
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    let missesBefore = opened.manager.snapshot().frameCache.misses
    var steps = 0
    while steps < limit {
      let result = try await opened.step(-1)
      let frame = try #require(opened.manager.currentFrame())
      if index == 0 {
        #expect(result.moved == 0, "\(clip) at the first frame")
        #expect(frame.md5 == reference[0].hash, "\(clip) at the first frame")
        break
      }
      index -= 1
      steps += 1
      #expect(result.moved == -1, "\(clip) step \(steps)")
      #expect(frame.md5 == reference[index].hash, "\(clip) step \(steps) to #\(index): showed pts \(frame.pts)")
      #expect(abs(result.position.seconds - max(0, reference[index].time)) < 1e-6, "\(clip) step \(steps)")
      #expect(opened.manager.snapshot().frameCache.bytes <= budget, "\(clip) step \(steps)")
    }
    return (steps, opened.manager.snapshot().frameCache.misses - missesBefore)
  }

  nonisolated static let backStepClips: [SweptClip] = [
    .corpus(.h264BFrames), .corpus(.h264OpenGOP), .corpus(.vp9), .corpus(.mpeg4), .sweep(.mpeg2VOB),
  ]

  @Test(arguments: backStepClips)
  func backStepsAcrossGOPsShowFFmpegsFramesAndDecodeOncePerGOP(clip: SweptClip) async throws {
    // Given a clip with B-frames (open GOPs for some), on the last frame, and the default cache
    // When stepping back one frame at a time across several GOPs (to the start, or 80 frames for the one long GOP)
    let walked = try await walkBack(clip, limit: 200)
    // Then every frame was ffmpeg's (checked on the way), and only the first step into each GOP decoded
    #expect(walked.steps >= 80, "\(clip)")
    #expect(walked.misses * 6 <= walked.steps, "\(clip): \(walked.misses) misses in \(walked.steps) steps")
  }

  @Test(arguments: [SweptClip.corpus(.h264OpenGOP), .sweep(.mpeg2VOB)])
  func aBudgetSmallerThanAGOPKeepsSegmentsAndStaysExact(clip: SweptClip) async throws {
    // Given a cache that holds 8 frames, less than a GOP
    let budget = try await frameBytes(of: try clip.url()) * 8
    // When stepping back across GOPs
    let walked = try await walkBack(clip, limit: 60, budget: budget)
    // Then every frame was ffmpeg's, the cache stayed within its budget (both checked on the way), and each pass
    // from a keyframe served several steps
    #expect(walked.steps == 60)
    #expect(walked.misses * 3 <= walked.steps, "\(clip): \(walked.misses) misses in \(walked.steps) steps")
  }

  @Test func stepsBackAfterTheFirstInAGOPDecodeNothing() async throws {
    // Given the one 250-frame GOP of a clip, paused at 7 s (frame 210)
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    let start = try await opened.seek(to: 7.0).position.seconds
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    // When stepping back until a step decodes from the keyframe (the scrub's own run holds the frames just before
    // its target), then 19 times more
    let missesBefore = opened.manager.snapshot().frameCache.misses
    for _ in 0..<4 where opened.manager.snapshot().frameCache.misses == missesBefore {
      _ = try await opened.step(-1)
      index -= 1
    }
    let afterFirst = opened.manager.snapshot()
    #expect(afterFirst.frameCache.misses == missesBefore + 1)
    for step in 2...20 {
      _ = try await opened.step(-1)
      index -= 1
      #expect(opened.manager.currentFrame()?.md5 == reference[index].hash, "step \(step)")
    }
    // Then steps 2 to 20 decoded nothing and came from the cache
    let afterAll = opened.manager.snapshot()
    #expect(afterAll.framesDecoded == afterFirst.framesDecoded)
    #expect(afterAll.frameCache.hits - afterFirst.frameCache.hits == 19)
    #expect(afterAll.frameCache.misses == afterFirst.frameCache.misses)
    // And a step forward and an exact scrub to a frame passed on the way decode nothing either
    _ = try await opened.step(1)
    index += 1
    #expect(opened.manager.currentFrame()?.md5 == reference[index].hash)
    let target = reference[index + 5].time + 0.01
    _ = try await opened.seek(to: target)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: target).hash)
    #expect(opened.manager.snapshot().framesDecoded == afterFirst.framesDecoded)
  }

  @Test func aSliderDraggedLeftDecodesOnceThenShowsFFmpegsFramesFromTheCache() async throws {
    // Given the one 250-frame GOP of a clip, landed at 8 s
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 8.0)
    // When scrubbing exactly to targets 0.2 s apart moving left
    _ = try await opened.seek(to: 7.8)
    let afterFirst = opened.manager.snapshot()
    let targets = (0..<14).map { 7.6 - 0.2 * Double($0) }
    for target in targets {
      let result = try await opened.seek(to: target)
      // Then each lands on ffmpeg's frame there
      #expect(result.position.seconds == target)
      #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: target).hash, "at \(target)")
    }
    // And only the first one decoded: it decoded every frame from the keyframe, and the cache held them
    let afterAll = opened.manager.snapshot()
    #expect(afterAll.framesDecoded == afterFirst.framesDecoded)
    #expect(afterAll.frameCache.hits - afterFirst.frameCache.hits == targets.count)
  }

  @Test func playingOnFromAFrameOfTheCacheMovesTheDecoderBackAndShowsFFmpegsFrames() async throws {
    // Given a clip stepped back into its GOP, then scrubbed to a frame held in the cache
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    _ = try await opened.seek(to: 3.0)
    _ = try await opened.step(-20)
    _ = try await opened.seek(to: 2.41)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 2.41).hash)
    // When playing on for 1.2 s, past the frames the cache holds
    opened.manager.play()
    let result = try await opened.wait(.elapsed(1.2))
    // Then the position and the frame are ffmpeg's there
    #expect(abs(result.position.seconds - 3.61) < 1e-6)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 3.61).hash)
    // And stepping forward from there follows on
    opened.manager.pause()
    let index = try #require(reference.firstIndex { $0 == reference.entry(containing: 3.61) })
    _ = try await opened.step(2)
    #expect(opened.manager.currentFrame()?.md5 == reference[index + 2].hash)
  }

  @Test func aNewDecoderEmptiesTheCacheAndStepsStayExact() async throws {
    // Given a clip stepped back into its GOP: the cache holds the frames from the keyframe
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil)
    defer { opened.manager.shutdown() }
    // (the scrub decodes on from the start, on the first decoder; the steps' pass seeks, on the seeking decoder)
    _ = try await opened.seek(to: 5.0)
    _ = try await opened.step(-3)
    let filled = opened.manager.snapshot().frameCache.frames
    #expect(filled > 100)
    // When a keyframe scrub changes the decoder (FFmpeg's own threads, not the seeking decoder's)
    _ = try await opened.seek(to: 4.0, mode: .keyframe)
    // Then the frames of the old decoder are gone: only what the new one decoded is held
    let after = opened.manager.snapshot().frameCache.frames
    #expect(after < 20, "\(after) frames held after the decoder changed, \(filled) before")
    // And an exact scrub and steps back from there show ffmpeg's frames
    let start = try await opened.seek(to: 4.5).position.seconds
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    for _ in 0..<3 {
      _ = try await opened.step(-1)
      index -= 1
      #expect(opened.manager.currentFrame()?.md5 == reference[index].hash)
    }
  }

  @Test func anOffCacheHoldsNothingAndStepsStillLandExactly() async throws {
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .virtual, progress: nil, frameCacheBytes: 0)
    defer { opened.manager.shutdown() }
    let start = try await opened.seek(to: 2.0).position.seconds
    var index = try #require(reference.firstIndex { $0 == reference.entry(containing: start) })
    for _ in 0..<3 {
      _ = try await opened.step(-1)
      index -= 1
      #expect(opened.manager.currentFrame()?.md5 == reference[index].hash)
    }
    #expect(opened.manager.snapshot().frameCache == FrameCacheReading())
  }
}

// The exact-scrub sweep: on every clip of the corpus and in every container the tests make, exact scrubs to the
// middle of every frame of the first and last two GOPs, and into the last frame, each checked against the ffmpeg
// tool's own frames (their pixels, their raw timestamps, and their time from the container's start). The same
// targets answer alike whatever came before: cold, from the frame cache, by steps, and after the decoder has decoded
// the clip's last frames (a duplicated last timestamp must not change how it times frames after a seek).
//
// The short form (in `swift test`, about 25 s on 2 cores) bounds each GOP longer than 20 frames to its first and last
// 10, where a GOP's bugs are (the keyframe, leading frames, the frames before the next keyframe, the end);
// `VPK_LONG_SWEEP=1` (scripts/sweep) sweeps every frame of those GOPs, about 2 minutes.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

/// A clip of the sweep: one of the corpus or one made for the sweep alone.
enum SweptClip: Sendable, CustomStringConvertible {
  case corpus(TestClip)
  case sweep(SweepClip)

  func url() throws -> URL {
    switch self {
    case .corpus(let clip): try TestMedia.url(for: clip)
    case .sweep(let clip): try clip.url()
    }
  }

  var description: String {
    switch self {
    case .corpus(let clip): "\(clip.rawValue).\(clip.fileExtension)"
    case .sweep(let clip): "\(clip.rawValue).\(clip.fileExtension)"
    }
  }

  static let all: [SweptClip] =
    [
      TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI, .rawH264, .truncatedMP4, .h264OpenGOP,
    ].map(SweptClip.corpus) + SweepClip.allCases.filter { $0 != .h264DuplicateMiddleEarlyDTS }.map(SweptClip.sweep)
}

@MainActor
@Suite struct ExactScrubSweepTests {
  private static let longSweep = ProcessInfo.processInfo.environment["VPK_LONG_SWEEP"] == "1"

  /// Checks one exact scrub: the position is the target, and the frame on screen is ffmpeg's frame whose display
  /// interval contains it, with its own pts and its time from the container's start, inside the media.
  private func check(
    _ opened: inout OpenedManager, _ target: Double, _ reference: ScrubReference, _ clip: SweptClip
  ) async throws {
    let result = try await opened.seek(to: target)
    let frame = try #require(opened.manager.currentFrame(), "\(clip) at \(target)")
    let expected = reference.frame(containing: target)
    let end = reference.duration ?? .infinity
    #expect(result.position.seconds == target, "\(clip) at \(target)")
    let shown =
      "showed pts \(frame.pts) time \(frame.time.seconds), ffmpeg's is pts \(expected.pts) time \(expected.time)"
    #expect(frame.md5 == expected.hash, "\(clip) at \(target): \(shown)")
    #expect(frame.pts == expected.pts, "\(clip) at \(target)")
    #expect(abs(frame.time.seconds - expected.time) < 1e-6, "\(clip) at \(target): time \(frame.time.seconds)")
    // Inside the media, to the microsecond (the resolution of the container's start time and of the events), and
    // at most at its end: AVI's frames come out of FFmpeg one frame late, as the ffmpeg tool lists them too, so the
    // last one starts where the container ends, and is on screen only there.
    let inside = frame.time.seconds >= -1e-6 && frame.time.seconds <= end + 1e-6
    #expect(inside, "\(clip) at \(target): time \(frame.time.seconds) outside the media")
  }

  @Test(arguments: SweptClip.all)
  func exactScrubsToEveryFrameOfTheFirstAndLastTwoGOPsLandOnFFmpegsFrame(clip: SweptClip) async throws {
    // Given a clip and ffmpeg's frames of it, with raw timestamps and keyframes
    let url = try clip.url()
    let reference = try await Task.detached { try ScrubReference(of: url) }.value
    let frames = reference.frames
    let indexes = reference.sweptFrameIndexes(limit: Self.longSweep ? nil : 20)
    let last = try #require(frames.last)
    // (within the media: past its end, the interactor clamps the target before the engine sees it)
    let end = reference.duration ?? .infinity
    let middles = indexes.map(reference.middle(ofFrame:))
    let intoLast = [last.time + last.duration * 0.9, last.time + 1e-6].map { min($0, end) }
    var opened = try await OpenedManager(url)
    defer { opened.manager.shutdown() }
    // When scrubbing into the last frame, then backwards through the frames (each a seek of its own), then
    // forwards (each decoding on from the frame before, within a GOP)
    for target in intoLast + middles.reversed() + middles {
      // Then each lands on ffmpeg's frame, at its own time
      try await check(&opened, target, reference, clip)
    }
  }

  @Test(arguments: SweptClip.all)
  func anAnswerDoesNotDependOnHistoryColdFromTheCacheOrByStepping(clip: SweptClip) async throws {
    // Given a clip, the middles of the frames of its first and last GOPs (the last two frames of one clip share a
    // timestamp), and what a fresh engine with no frame cache shows at each
    let url = try clip.url()
    let reference = try await Task.detached { try ScrubReference(of: url) }.value
    let frames = reference.frames
    let middle = reference.middle(ofFrame:)
    let targets = reference.sweptFrameIndexes(limit: 10).map(middle)
    let tail = frames.indices.suffix(6).map(middle)
    var cold = try await OpenedManager(url, frameCacheBytes: 0)
    defer { cold.manager.shutdown() }
    var coldAnswers: [Double: String] = [:]
    for target in targets + tail {
      _ = try await cold.seek(to: target)
      coldAnswers[target] = try #require(cold.manager.currentFrame()).md5
    }
    // When an engine with a frame cache scrubs forward over them, then back (the cache answers what it holds)
    var cached = try await OpenedManager(url)
    defer { cached.manager.shutdown() }
    for target in targets + targets.reversed() {
      _ = try await cached.seek(to: target)
      // Then every answer is the cold one
      #expect(try #require(cached.manager.currentFrame()).md5 == coldAnswers[target], "\(clip) at \(target), cached")
    }
    // When it steps forward from the sixth frame before the end to the end, then back to it
    _ = try await cached.seek(to: tail[0])
    var shown = [try #require(cached.manager.currentFrame()).md5]
    for _ in 1..<tail.count {
      _ = try await cached.step(1)
      shown.append(try #require(cached.manager.currentFrame()).md5)
    }
    var back: [String] = []
    for _ in 1..<tail.count {
      _ = try await cached.step(-1)
      back.append(try #require(cached.manager.currentFrame()).md5)
    }
    // Then each frame a step shows is one a scrub shows, in order, each once, and the steps back retrace them
    let scrubbed = tail.compactMap { coldAnswers[$0] }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
    #expect(Array(shown.prefix(scrubbed.count)) == scrubbed, "\(clip): steps \(shown), scrubs \(scrubbed)")
    #expect(Array(back.prefix(scrubbed.count - 1)) == Array(scrubbed.dropLast().reversed()), "\(clip) stepping back")
  }

  @Test(arguments: SweptClip.all)
  func afterDecodingToTheEndEveryExactAndKeyframeScrubIsStillFFmpegsFrame(clip: SweptClip) async throws {
    // Given a clip, ffmpeg's frames of it, the middles of the frames of its first and last GOPs and its keyframes
    let url = try clip.url()
    let reference = try await Task.detached { try ScrubReference(of: url) }.value
    let frames = reference.frames
    let middle = reference.middle(ofFrame:)
    let targets = reference.sweptFrameIndexes(limit: 10).map(middle)
    let keyframes = frames.filter(\.isKeyframe).prefix(2) + frames.filter(\.isKeyframe).suffix(2)
    // (a keyframe scrub to just after a keyframe: the container's index, not ffmpeg's list, says which are seekable)
    let end = reference.duration ?? .infinity
    let keyframeTargets = keyframes.map { min($0.time + $0.duration / 2, end) }
    var cold = try await OpenedManager(url, frameCacheBytes: 0)
    defer { cold.manager.shutdown() }
    var coldKeyframes: [Double: FrameIdentity] = [:]
    for target in keyframeTargets {
      _ = try await cold.seek(to: target, mode: .keyframe)
      let frame = try #require(cold.manager.currentFrame())
      coldKeyframes[target] = frame
    }
    // When an engine steps from the start of the last GOP to the end, so its decoder has decoded the last frames
    var opened = try await OpenedManager(url)
    defer { opened.manager.shutdown() }
    let lastKey = frames.lastIndex { $0.isKeyframe } ?? 0
    _ = try await opened.seek(to: middle(lastKey))
    var stepped = [try #require(opened.manager.currentFrame())]
    while try await opened.step(1).moved == 1 { stepped.append(try #require(opened.manager.currentFrame())) }
    // Then each step showed ffmpeg's next frame
    // (of two frames with one timestamp, the second is shown: the first lasts no time)
    let expected = frames.indices.dropFirst(lastKey).filter {
      $0 + 1 == frames.count || frames[$0 + 1].pts != frames[$0].pts
    }
    .map { frames[$0] }
    #expect(stepped.map(\.md5) == expected.map(\.hash), "\(clip): steps to the end")
    #expect(stepped.map(\.pts) == expected.map(\.pts), "\(clip): steps to the end")
    // And then every exact scrub, backward then forward, lands on ffmpeg's frame (from the cache or decoded anew)
    for target in targets.reversed() + targets {
      _ = try await opened.seek(to: target)
      let frame = try #require(opened.manager.currentFrame())
      let want = reference.frame(containing: target)
      #expect(frame.md5 == want.hash, "\(clip) at \(target): pts \(frame.pts), ffmpeg's \(want.pts)")
      #expect(frame.pts == want.pts, "\(clip) at \(target)")
    }
    // And every keyframe scrub lands on the keyframe a fresh engine lands on
    for target in keyframeTargets {
      _ = try await opened.seek(to: target, mode: .keyframe)
      let frame = try #require(opened.manager.currentFrame())
      #expect(frame.md5 == coldKeyframes[target]?.md5, "\(clip) keyframe scrub to \(target), pts \(frame.pts)")
      #expect(frame.pts == coldKeyframes[target]?.pts, "\(clip) keyframe scrub to \(target)")
    }
  }

  @Test func framesPlayedPastADuplicatedPtsAndTheNextKeyframeAreTheFramesASeekShows() async throws {
    // Given a clip whose frame at 1.2 s has the pts of the one before and whose dts lie two frames early, with a
    // keyframe every second, and a fresh engine that answers seeks
    let url = try SweepClip.h264DuplicateMiddleEarlyDTS.url()
    var cold = try await OpenedManager(url, frameCacheBytes: 0)
    defer { cold.manager.shutdown() }
    var played = try await OpenedManager(url, clock: .virtual)
    defer { played.manager.shutdown() }
    // When another plays from 1.1 s, over the duplicated pts and on past the next keyframes, stopping now and then
    _ = try await played.seek(to: 1.1)
    played.manager.play()
    for _ in 0..<4 {
      _ = try await played.wait(.elapsed(0.37))
      let shown = try #require(played.manager.currentFrame())
      // Then the frame on screen is the one a seek to its time shows
      _ = try await cold.seek(to: shown.time.seconds + 0.02)
      let sought = try #require(cold.manager.currentFrame())
      #expect(shown.md5 == sought.md5, "played to pts \(shown.pts), a seek there shows pts \(sought.pts)")
      #expect(shown.pts == sought.pts, "at \(shown.time.seconds)")
    }
  }

  @Test(arguments: [7.9, 7.5575, 7.95])
  func anExactScrubIntoTheLastGOPOfAnMPEG2ProgramStreamLandsThere(target: Double) async throws {
    // Given MPEG-2 in a program stream that starts at 0.533 s, whose last frame has no timestamp
    let url = try SweepClip.mpeg2PS.url()
    let reference = try await Task.detached { try ScrubReference(of: url) }.value
    // When scrubbing exactly into its last GOP, straight from the start
    var opened = try await OpenedManager(url)
    defer { opened.manager.shutdown() }
    // Then the position is the target, and the frame is ffmpeg's there, with its own pts
    try await check(&opened, target, reference, .sweep(.mpeg2PS))
  }
}

// Integration tests of the real FFmpeg engine on clips made at test time, checked against
// ffmpeg's own framemd5 output and ffprobe.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

/// Records what the engine reports and lets a test wait for a condition on it.
@MainActor
final class ManagerEventSpy {
  var events: [String] = []
  var info: MediaInfo?
  var openError: PlaybackError?
  var seeks: [SeekResult] = []
  var superseded: [(id: Int, by: Int)] = []
  var endedAt: MediaTime?
  var ends: [(position: MediaTime, loops: Int)] = []
  var steps: [StepResult] = []
  var waits: [WaitResult] = []
  var errors: [PlaybackError] = []
  private var waiter: (id: Int, condition: () -> Bool, continuation: CheckedContinuation<Void, Never>)?
  private var waitCount = 0

  /// Waits until `condition` holds, failing the test after `seconds`: a hang guard, not a speed check. It is generous
  /// because under ThreadSanitizer, with the suite running in parallel on two cores, an exact scrub through a GOP and
  /// the main actor's delivery of its event have taken over 20 s.
  func wait(_ what: String, seconds: Double = 120, until condition: @escaping () -> Bool) async throws {
    if condition() { return }
    waitCount += 1
    let id = waitCount
    let timeout = Task { @MainActor [weak self] in
      guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
      guard let self, let waiter = self.waiter, waiter.id == id else { return }
      self.waiter = nil
      waiter.continuation.resume()
    }
    await withCheckedContinuation { waiter = (id, condition, $0) }
    timeout.cancel()
    try #require(condition(), "timed out waiting for \(what); events: \(events.suffix(10))")
  }

  private func record(_ event: String) {
    events.append(event)
    if let waiter, waiter.condition() {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  /// The direction of each end reached.
  var endDirections: [PlaybackDirection] = []

  /// Listens to `manager`'s events (without holding the spy back).
  func listen(to manager: any PlaybackManager) {
    manager.onEvent = { [weak self] in self?.receive($0) }
  }

  func receive(_ event: PlaybackManagerEvent) {
    switch event {
    case .ready(let info):
      self.info = info
      record("ready")
    case .failedToOpen(let error):
      openError = error
      record("failed \(error.code.rawValue)")
    case .progress(let position):
      record("progress \(position.seconds)")
    case .seekFinished(let result):
      seeks.append(result)
      record("seeked \(result.id)")
    case .seekSuperseded(let id, let newerID):
      superseded.append((id, newerID))
      record("superseded \(id) by \(newerID)")
    case .ended(let position, let loops, let direction):
      endedAt = position
      ends.append((position, loops))
      endDirections.append(direction)
      record("ended \(position.seconds) loops \(loops)")
    case .stepFinished(let result):
      steps.append(result)
      record("stepped \(result.id) moved \(result.moved) to \(result.position.seconds)")
    case .waitFinished(let result):
      waits.append(result)
      record("waited \(result.id) \(result.outcome) at \(result.position.seconds)")
    case .problem(let error):
      errors.append(error)
      record("error \(error.code.rawValue)")
    }
  }
}

/// A manager opened on a file, with its spy.
@MainActor
struct OpenedManager {
  let manager = FFmpegPlaybackManager()
  let spy = ManagerEventSpy()
  private var nextID = 1

  init(
    _ url: URL, clock: ClockKind = .free, progress: Double? = 1, loops: Bool = false, startsPlaying: Bool = false,
    realtimeLoadLimit: Double? = nil, frameCacheBytes: Int = PlaybackConfiguration.defaultFrameCacheBytes
  ) async throws {
    spy.listen(to: manager)
    if let realtimeLoadLimit { manager.realtimeLoadLimit = realtimeLoadLimit }
    manager.prepare(
      path: url.path,
      configuration: PlaybackConfiguration(
        clock: clock, progressInterval: progress, loops: loops, startsPlaying: startsPlaying,
        frameCacheBytes: frameCacheBytes))
    try await spy.wait("ready or failure") { [spy] in spy.info != nil || spy.openError != nil }
  }

  /// Seeks and waits for it to land; returns the result.
  mutating func seek(to seconds: Double, mode: SeekMode = .exact) async throws -> SeekResult {
    let id = nextID
    nextID += 1
    manager.seek(SeekRequest(id: id, target: MediaTime(seconds: seconds), mode: mode))
    try await spy.wait("seek \(id) to \(seconds)") { [spy] in spy.seeks.contains { $0.id == id } }
    return spy.seeks.first { $0.id == id }!
  }

  /// Steps and waits for the answer.
  mutating func step(_ count: Int) async throws -> StepResult {
    let id = nextID
    nextID += 1
    manager.step(StepRequest(id: id, count: count))
    try await spy.wait("step \(id) by \(count)") { [spy] in spy.steps.contains { $0.id == id } }
    return spy.steps.first { $0.id == id }!
  }

  /// Waits on the engine's clock and returns how the wait ended.
  mutating func wait(_ until: PlaybackWait.Until, timeout: Double? = nil) async throws -> WaitResult {
    let id = nextID
    nextID += 1
    manager.wait(PlaybackWait(id: id, until: until, timeout: timeout))
    try await spy.wait("wait \(id)", seconds: 60) { [spy] in spy.waits.contains { $0.id == id } }
    return spy.waits.first { $0.id == id }!
  }

  func playToEnd() async throws {
    manager.play()
    // The helper's usual hang guard: a CI run once saw 60 s pass here with the parallel suite loading both cores.
    try await spy.wait("the end") { [spy] in spy.endedAt != nil }
  }
}

/// Deterministic targets: fixed ones that matter (start, frame boundaries, the end) and seeded ones.
func seekTargets(duration: Double, frameDuration: Double, seed: UInt64) -> [Double] {
  var fixed = [
    0, 0.001, frameDuration, frameDuration * 1.5, 1.0, duration / 2, duration * 0.37 + 0.003,
    duration - frameDuration / 2, duration,
  ]
  var random = SplitMix64(seed: seed)
  for _ in 0..<16 {
    fixed.append(Double(random.next() >> 11) / Double(1 << 53) * duration)
  }
  return fixed
}

@MainActor
@Suite struct FFmpegPlaybackManagerTests {
  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func exactScrubShowsTheFrameFFmpegShowsAtThatTime(clip: TestClip) async throws {
    // Given a clip and ffmpeg's own list of its frames
    let url = try TestMedia.url(for: clip)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url)
    let info = try #require(opened.spy.info)
    let frameDuration = 1 / (info.video?.frameRate ?? 30)
    for target in seekTargets(duration: try #require(info.duration).seconds, frameDuration: frameDuration, seed: 42) {
      // When scrubbing exactly to the target
      let result = try await opened.seek(to: target)
      // Then the position is the target and the frame is the one whose interval contains it
      let frame = try #require(opened.manager.currentFrame())
      let expected = reference.entry(containing: target)
      #expect(result.position.seconds == target)
      #expect(frame.md5 == expected.hash, "\(clip) at \(target): showed \(frame.time.seconds), ffmpeg \(expected.time)")
      // (pts is the stream's own value, as ffprobe shows it; ffmpeg shifts by the start time)
      #expect(abs(frame.time.seconds - expected.time) < 1e-6, "\(clip) at \(target)")
    }
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func forwardScrubsDecodeOnFromWhereTheDecoderIsAndLandExactly(clip: TestClip) async throws {
    // Given a clip and ffmpeg's list of its frames
    let url = try TestMedia.url(for: clip)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url)
    // When scrubbing forward in small steps (within the frame on screen, within a GOP, across GOP boundaries),
    // then back and forward again
    for target in [0.5, 0.52, 0.9, 1.45, 1.98, 2.3, 3.1, 4.7, 1.2, 1.3, 2.05] {
      let result = try await opened.seek(to: target)
      // Then each lands on the frame whose interval contains the target, as a seek from the keyframe would
      let frame = try #require(opened.manager.currentFrame())
      let expected = reference.entry(containing: target)
      #expect(result.position.seconds == target)
      #expect(frame.md5 == expected.hash, "\(clip) at \(target): showed \(frame.time.seconds), ffmpeg \(expected.time)")
    }
    opened.manager.shutdown()
  }

  @Test func aScrubAfterASupersededOneLandsOnTheRightFrame() async throws {
    // Given one 10 s GOP, landed at 1.0 s, and ffmpeg's frames
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url)
    for pause in 0..<12 {
      _ = try await opened.seek(to: 1.0)
      // When a far scrub is overtaken, after it has started decoding, by a near one ahead of the screen
      opened.manager.seek(SeekRequest(id: 1000 + pause, target: MediaTime(seconds: 9.5), mode: .exact))
      try await Task.sleep(for: .milliseconds(pause))
      let near = try await opened.seek(to: 1.5)
      // Then the near one shows its own frame, whatever the overtaken seek left in the decoder
      #expect(near.position.seconds == 1.5)
      #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 1.5).hash, "after \(pause) ms")
    }
    opened.manager.shutdown()
  }

  @Test func aForwardScrubWithinAGOPDecodesOnlyTheFramesInBetween() async throws {
    // Given H.264 with one 250-frame GOP over its 10 s, landed at 5.0 s
    var opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames))
    _ = try await opened.seek(to: 5.0)
    let before = opened.manager.snapshot().framesDecoded
    // When scrubbing on to 5.5 s
    _ = try await opened.seek(to: 5.5)
    // Then only the frames after those decoded ahead are decoded (15 frames, plus a few ahead), not the 80-odd
    // reference frames a seek back to the keyframe at 0 would decode
    let decoded = opened.manager.snapshot().framesDecoded - before
    #expect(decoded <= 30, "decoded \(decoded) frames")
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func keyframeScrubLandsOnAKeyframeAtOrBeforeTheTarget(clip: TestClip) async throws {
    // Given a clip and the keyframes ffprobe finds in it (the reference, not the key flag of vpk's own frame)
    let url = try TestMedia.url(for: clip)
    let keyframes = try await Task.detached { try FFprobe.keyframeTimes(url) }.value
    var opened = try await OpenedManager(url)
    let duration = try #require(opened.spy.info?.duration).seconds
    for target in [duration * 0.25, duration * 0.6, duration * 0.9] {
      // When it scrubs in keyframe mode
      let result = try await opened.seek(to: target, mode: .keyframe)
      // Then the frame on screen is ffprobe's last keyframe at or before the target, and the position is its time
      let frame = try #require(opened.manager.currentFrame())
      let expected = try #require(keyframes.last { $0 <= target + 1e-6 }, "\(clip): no keyframe before \(target)")
      #expect(
        abs(frame.time.seconds - expected) < 1e-3,
        "\(clip) at \(target): landed at \(frame.time.seconds); ffprobe's keyframes \(keyframes)")
      #expect(frame.isKeyframe, "\(clip) at \(target)")
      #expect(abs(result.position.seconds - max(0, frame.time.seconds)) < 1e-6)
    }
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264LongGOP, .mpeg4, .vp9, .h264OpenGOP])
  func nextKeyframeScrubLandsOnTheFirstKeyframeAtOrAfterTheTarget(clip: TestClip) async throws {
    // Given a clip, the keyframes ffprobe finds in it, and playback landed on its middle
    let url = try TestMedia.url(for: clip)
    let keyframes = try await Task.detached { try FFprobe.keyframeTimes(url) }.value
    try #require(keyframes.count >= 3, "\(clip): \(keyframes)")
    var opened = try await OpenedManager(url)
    let duration = try #require(opened.spy.info?.duration).seconds
    _ = try await opened.seek(to: duration / 2)
    // Targets a third of the way into each GOP but the last, backward and forward of where playback is (the demuxer's
    // index has decode times: a target just before a keyframe could fall between its decode and display times)
    let targets = zip(keyframes, keyframes.dropFirst()).map { $0 + ($1 - $0) / 3 }.reversed() + [0.001]
    for target in targets {
      // When it scrubs to the next keyframe
      let result = try await opened.seek(to: target, mode: .nextKeyframe)
      // Then the frame on screen is ffprobe's first keyframe at or after the target, and the position is its time
      let frame = try #require(opened.manager.currentFrame())
      let expected = try #require(keyframes.first { $0 >= target }, "\(clip): no keyframe after \(target)")
      #expect(
        abs(frame.time.seconds - expected) < 1e-3,
        "\(clip) at \(target): landed at \(frame.time.seconds); ffprobe's keyframes \(keyframes)")
      #expect(frame.isKeyframe, "\(clip) at \(target)")
      #expect(abs(result.position.seconds - frame.time.seconds) < 1e-6, "\(clip) at \(target)")
      #expect(result.mode == .nextKeyframe)
    }
    // When the target is past the last keyframe, Then it lands at the end, on the last frame, as an exact seek there,
    // and the end is reached there, paused as playback is
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    let last = try #require(keyframes.last)
    #expect(opened.spy.endedAt == nil)
    let result = try await opened.seek(to: last + (duration - last) / 2, mode: .nextKeyframe)
    #expect(abs(result.position.seconds - duration) < 0.05, "\(clip): landed at \(result.position.seconds)")
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash, "\(clip)")
    try await opened.spy.wait("the end") { [spy = opened.spy] in spy.endedAt != nil }
    #expect(abs(try #require(opened.spy.endedAt).seconds - result.position.seconds) < 0.05, "\(clip)")
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.oggSong, .audioOnly])
  func aNextKeyframeSeekInASongEndsOnlyAtItsEnd(clip: TestClip) async throws {
    // Given a song (every packet a keyframe; Ogg's demuxer seeks forward to a page before the target), paused
    var opened = try await OpenedManager(try TestMedia.url(for: clip))
    let duration = try #require(opened.spy.info?.duration).seconds
    // When it scrubs to the next keyframe half a second before its end
    let near = try await opened.seek(to: duration - 0.5, mode: .nextKeyframe)
    // Then it lands there, and the end is not reached
    #expect(abs(near.position.seconds - (duration - 0.5)) < 0.05, "\(clip): \(near.position.seconds)")
    #expect(opened.spy.endedAt == nil, "\(clip)")
    // When it scrubs to the next keyframe at its end, Then the end is reached there
    _ = try await opened.seek(to: duration, mode: .nextKeyframe)
    try await opened.spy.wait("the end") { [spy = opened.spy] in spy.endedAt != nil }
    #expect(abs(try #require(opened.spy.endedAt).seconds - duration) < 0.05, "\(clip)")
    opened.manager.shutdown()
  }

  @Test func loopingANextKeyframeSeekPastTheLastKeyframeGoesOnFromTheStart() async throws {
    // Given a looping clip, paused in its middle
    let url = try TestMedia.url(for: .h264LongGOP)
    let keyframes = try await Task.detached { try FFprobe.keyframeTimes(url) }.value
    var opened = try await OpenedManager(url, loops: true)
    let duration = try #require(opened.spy.info?.duration).seconds
    _ = try await opened.seek(to: duration / 2)
    // When it scrubs to the next keyframe past the last one
    let last = try #require(keyframes.last)
    let result = try await opened.seek(to: last + (duration - last) / 2, mode: .nextKeyframe)
    // Then it lands on the first frame, as the next pass starts (mpv's loop), with no end told
    #expect(result.position.seconds == 0)
    #expect(opened.manager.currentFrame()?.time.seconds ?? -1 < 1e-3)
    #expect(opened.spy.endedAt == nil)
    opened.manager.shutdown()
  }

  @Test func loopingAnExactSeekToTheEndWhilePlayingGoesOnToTheNextPass() async throws {
    // Given a looping clip, paused
    var opened = try await OpenedManager(try TestMedia.url(for: .mpeg4), loops: true)
    let duration = try #require(opened.spy.info?.duration).seconds
    // When an exact seek lands at its very end, and it plays from there
    _ = try await opened.seek(to: duration)
    opened.manager.play()
    // Then the next pass follows: the end is told with a loop, and progress goes on from the start
    try await opened.spy.wait("the loop") { [spy = opened.spy] in spy.events.contains { $0.hasPrefix("ended") } }
    try await opened.spy.wait("progress in the next pass") { [spy = opened.spy] in
      spy.events.drop { !$0.hasPrefix("ended") }.contains { $0 == "progress 1.0" }
    }
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264BFrames, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func playingToTheEndDecodesEveryFrameOnce(clip: TestClip) async throws {
    // Given a clip ffprobe counts the frames of
    let url = try TestMedia.url(for: clip)
    let frames = try FFprobe.frameCount(url)
    let opened = try await OpenedManager(url)
    // When it plays to the end on the free clock
    try await opened.playToEnd()
    // Then every frame was decoded once and the end is at the duration
    let snapshot = opened.manager.snapshot()
    #expect(snapshot.framesDecoded == frames)
    #expect(snapshot.decodeErrors == 0)
    let duration = try #require(opened.spy.info?.duration).seconds
    #expect(abs(try #require(opened.spy.endedAt).seconds - duration) < 0.05)
    // and progress marks came at each whole second, in order
    let marks = opened.spy.events.filter { $0.hasPrefix("progress") }
    #expect(marks.count >= Int(duration) - 1)
    opened.manager.shutdown()
  }

  @Test func reportsTheMediaAsFFprobeSeesIt() async throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let opened = try await OpenedManager(url)
    let info = try #require(opened.spy.info)
    #expect(info.container.contains("mp4"))
    #expect(
      info.video
        == VideoStreamInfo(
          codec: "h264", width: 320, height: 240, frameRate: 30, pixelFormat: "yuv420p", bitRate: info.video?.bitRate))
    #expect(info.audio?.codec == "aac")
    #expect(abs(try #require(info.duration).seconds - (try FFprobe.duration(url))) < 0.001)
    opened.manager.shutdown()
  }

  /// MP4 files whose headers describe every stream are opened without probing frames (the fast path): what vpk
  /// reports must still be what ffprobe finds by probing, for those and for the files that are probed.
  @Test(arguments: [TestClip.h264BFrames, .audioOnly, .mpeg4, .vp9, .mpegTS, .mpeg4AVI])
  func reportsWhatFFprobeFindsWithOrWithoutProbing(clip: TestClip) async throws {
    // Given a file and what ffprobe and ffmpeg find in it (off the main actor: the wall-clock tests time events
    // that arrive there)
    let url = try TestMedia.url(for: clip)
    let probed = try await Task.detached { () throws -> [String: String] in
      var values: [String: String] = [:]
      values["duration"] = String(try FFprobe.duration(url))
      values["bit_rate"] = try FFprobe.entry(url, "format", "bit_rate")
      for key in ["width", "height", "pix_fmt"] {
        values[key] = try FFprobe.entry(url, "stream", key, selecting: "v:0")
      }
      for key in ["sample_rate", "channels"] { values[key] = try FFprobe.entry(url, "stream", key, selecting: "a:0") }
      values["first_md5"] =
        values["width"] == nil ? nil : try FrameMD5.entries(of: url, streamTimeBase: true).first?.hash
      return values
    }.value
    // When vpk opens it
    let opened = try await OpenedManager(url)
    defer { opened.manager.shutdown() }
    let info = try #require(opened.spy.info)
    // Then the container's duration and bit rate are ffprobe's
    #expect(abs(try #require(info.duration).seconds - (try #require(probed["duration"].flatMap(Double.init)))) < 0.001)
    #expect(info.bitRate == probed["bit_rate"].flatMap { Int($0) }, "\(clip): bit rate")
    // and so are the video's size and pixel format and the audio's rate and channels
    if let video = info.video {
      #expect(String(video.width) == probed["width"])
      #expect(String(video.height) == probed["height"])
      #expect(video.pixelFormat == probed["pix_fmt"])
      // and the first frame shown is the first frame ffmpeg decodes
      #expect(opened.manager.currentFrame()?.md5 == probed["first_md5"], "\(clip): first frame")
    }
    if let audio = info.audio {
      #expect(String(audio.sampleRate) == probed["sample_rate"])
      #expect(String(audio.channels) == probed["channels"])
    }
  }

  @Test func aRawStreamWithNoDurationAndNoSeekingStillSeeksExactly() async throws {
    // Given a raw H.264 stream: no container, no duration, a demuxer that cannot seek
    let url = try TestMedia.url(for: .rawH264)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    var opened = try await OpenedManager(url)
    #expect(opened.spy.info?.duration == nil)
    // When scrubbing forwards and back, Then each lands on the frame ffmpeg lists there
    for target in [5.0, 2.5, 0.3, 5.9] {
      let result = try await opened.seek(to: target)
      #expect(result.position.seconds == target)
      #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: target).hash, "at \(target)")
    }
    opened.manager.shutdown()
  }

  @Test func audioOnlyPlaysOnTheAudioTimestamps() async throws {
    var opened = try await OpenedManager(try TestMedia.url(for: .audioOnly))
    let info = try #require(opened.spy.info)
    #expect(info.video == nil)
    #expect(info.audio?.codec == "aac")
    let result = try await opened.seek(to: 2.5)
    #expect(result.position.seconds == 2.5)
    #expect(opened.manager.currentFrame() == nil)
    try await opened.playToEnd()
    let duration = try #require(info.duration).seconds
    #expect(abs(try #require(opened.spy.endedAt).seconds - duration) < 0.05)
    opened.manager.shutdown()
  }

  @Test func aTruncatedFilePlaysWhatItHasAndEnds() async throws {
    let opened = try await OpenedManager(try TestMedia.url(for: .truncatedMP4))
    let duration = try #require(opened.spy.info?.duration).seconds
    try await opened.playToEnd()
    // The index promises the full duration; the data stops short of it.
    let end = try #require(opened.spy.endedAt).seconds
    #expect(end > 1 && end < duration)
    opened.manager.shutdown()
  }

  @Test func damagedPacketsAreCountedAndPlaybackGoesOn() async throws {
    // Given the H.264 clip with bytes flipped in its media data
    var bytes = [UInt8](try Data(contentsOf: try TestMedia.url(for: .h264BFrames)))
    var state: UInt64 = 7
    for _ in 0..<300 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let index = bytes.count / 10 + Int(state >> 33) % (bytes.count * 7 / 10)
      bytes[index] ^= 0xFF
    }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-damaged-\(getpid()).mp4")
    try Data(bytes).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    // When it plays to the end
    let opened = try await OpenedManager(url)
    if opened.spy.info != nil {
      try await opened.playToEnd()
      // Then the damage is counted and reported, and playback reached the end anyway
      #expect(opened.manager.snapshot().decodeErrors > 0)
      #expect(opened.spy.errors.contains { $0.code == .decodeError })
    } else {
      #expect(opened.spy.openError != nil)
    }
    opened.manager.shutdown()
  }

  @Test(arguments: [
    (TestClip.emptyFile, PlaybackError.Code.notMedia), (.randomBytes, .notMedia), (.textFile, .notMedia),
    (.noStreams, .noPlayableStream),
  ])
  func unreadableFilesFailWithAClearCode(clip: TestClip, code: PlaybackError.Code) async throws {
    let opened = try await OpenedManager(try TestMedia.url(for: clip))
    #expect(opened.spy.openError?.code == code)
    #expect(opened.spy.info == nil)
    opened.manager.shutdown()
  }

  @Test func missingFilesAndDirectoriesFailWithAClearCode() async throws {
    let missing = try await OpenedManager(URL(fileURLWithPath: "/nonexistent/vpk/clip.mp4"))
    #expect(missing.spy.openError?.code == .fileNotFound)
    let directory = try await OpenedManager(FileManager.default.temporaryDirectory)
    #expect(directory.spy.openError?.code == .notAFile)
  }

  @Test func aBurstOfScrubsAnswersEveryIdOnceAndLandsOnTheLast() async throws {
    // Given an opened clip
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let opened = try await OpenedManager(url)
    // When 20 scrubs are sent at once
    for id in 1...20 {
      opened.manager.seek(SeekRequest(id: id, target: MediaTime(seconds: Double(id) * 0.45), mode: .exact))
    }
    try await opened.spy.wait("seek 20") { [spy = opened.spy] in spy.seeks.contains { $0.id == 20 } }
    // Then every id is answered exactly once, the last one lands, and few seeks really ran
    let answered = opened.spy.seeks.map(\.id) + opened.spy.superseded.map(\.id)
    #expect(answered.sorted() == Array(1...20))
    #expect(opened.spy.superseded.allSatisfy { $0.by > $0.id })
    #expect(opened.spy.seeks.count <= 3)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 9).hash)
    opened.manager.shutdown()
  }

  @Test func aSeekAfterTheEndMovesPlaybackAwayAndItGoesOn() async throws {
    // Given playback that reached the end (the engine stands still there, still meaning to play)
    var opened = try await OpenedManager(try TestMedia.url(for: .mpeg4), progress: 1)
    try await opened.playToEnd()
    let ends = opened.spy.events.filter { $0.hasPrefix("ended") }.count
    // When a seek that was on its way lands
    _ = try await opened.seek(to: 2)
    // Then playback runs on from there to the end again
    try await opened.spy.wait("a second end") { [spy = opened.spy] in
      spy.events.filter { $0.hasPrefix("ended") }.count == ends + 1
    }
    #expect(opened.spy.events.contains("progress 3.0"))
    opened.manager.shutdown()
  }

  @Test(arguments: [TestClip.h264BFrames, .vp9, .mpegTS])
  func afterTheEndTheFrameStaysAndScrubsStillLandExactly(clip: TestClip) async throws {
    // Given a clip played to the end, where the engine gives the decoder's memory back
    let url = try TestMedia.url(for: clip)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, progress: nil)
    try await opened.playToEnd()
    // Then the last frame is still on screen, intact
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash, "\(clip)")
    // And, paused, scrubs back (exact and keyframe), a step and playing on decode as before
    opened.manager.pause()
    for target in [2.0, 0.5, 3.7] {
      let result = try await opened.seek(to: target)
      #expect(result.position.seconds == target)
      #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: target).hash, "\(clip) at \(target)")
    }
    let index = try #require(reference.firstIndex { $0 == reference.entry(containing: 3.7) })
    _ = try await opened.step(1)
    #expect(opened.manager.currentFrame()?.md5 == reference[index + 1].hash, "\(clip) step")
    let keyframe = try await opened.seek(to: 4.0, mode: .keyframe)
    let keyframes = try await Task.detached { try FFprobe.keyframeTimes(url) }.value
    let expected = try #require(keyframes.last { $0 <= 4.0 + 1e-6 })
    #expect(abs(keyframe.position.seconds - max(0, expected)) < 1e-3, "\(clip): ffprobe's keyframes \(keyframes)")
    opened.spy.endedAt = nil
    try await opened.playToEnd()
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash, "\(clip) second end")
    opened.manager.shutdown()
  }

  @Test func onTheWallClockTheDecoderIsReplacedWhileTheEndStands() async throws {
    // Given a clip played to its end on the wall clock, fast (the decoder is replaced a moment after the end, so that
    // a list's next entry does not start beside that work)
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil, realtimeLoadLimit: .infinity)
    opened.manager.setRate(8)
    try await opened.playToEnd()
    // Then, standing at the end, the decoder is replaced: the frames it left in the cache go, and the last frame stays
    // on screen
    for _ in 0..<12_000 where opened.manager.snapshot().frameCache.frames > 0 {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(opened.manager.snapshot().frameCache.frames == 0)
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash)
    // And a scrub after it lands exactly, on the fresh decoder
    opened.manager.pause()
    let result = try await opened.seek(to: 2.0)
    #expect(result.position.seconds == 2.0)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 2.0).hash)
    opened.manager.shutdown()
  }

  @Test func progressMarksComeOnceEachInOrder() async throws {
    // Given a fractional interval (0.3 / 0.1 is 2.9999… in binary)
    let opened = try await OpenedManager(try TestMedia.url(for: .mpeg4), progress: 0.1)
    try await opened.playToEnd()
    // Then every mark comes once, in increasing order
    let marks = opened.spy.events.compactMap { $0.hasPrefix("progress ") ? Double($0.dropFirst(9)) : nil }
    #expect(marks == marks.sorted())
    #expect(Set(marks.map { ($0 * 10).rounded(.down) }).count == marks.count)
    #expect(marks.count == 60)
    opened.manager.shutdown()
  }

  @Test func playingOnTheWallClockDecodesOnOneThreadAndSeekingOnFFmpegs() async throws {
    // Given a session that plays on the wall clock as soon as it is ready (a keyframe every second). One thread is
    // never judged too slow here: that judgement measures CPU time, which a sanitizer or a busy machine inflates
    // (the test below covers the change it makes).
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(
      url, clock: .wall, progress: nil, startsPlaying: true, realtimeLoadLimit: .infinity)
    // Then it opens on the one-thread decoder
    #expect(opened.manager.decoderThreads == 1)
    // When, paused, it scrubs into another GOP (a scrub forward in the same GOP decodes on without seeking)
    _ = try await opened.seek(to: 2.5)
    // Then the scrub decoded on the seeking decoder's frame threads, and lands exactly
    #expect(opened.manager.decoderThreads == min(ProcessInfo.processInfo.activeProcessorCount + 2, 16))
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 2.5).hash)
    // When it plays on past the next keyframe (at 3 s), fast
    opened.manager.setRate(4)
    opened.manager.play()
    _ = try await opened.wait(.position(MediaTime(seconds: 3.5)))
    // Then playing went back to one thread, and the frames are still ffmpeg's
    #expect(opened.manager.decoderThreads == 1)
    opened.manager.pause()
    let frame = try #require(opened.manager.currentFrame())
    #expect(frame.md5 == reference.entry(containing: frame.time.seconds).hash)
    try await opened.playToEnd()
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash)
    opened.manager.shutdown()
  }

  @Test func aFreeClockSessionDecodesOnFrameThreadsThroughout() async throws {
    // Given a session on the free clock that plays at once
    let url = try TestMedia.url(for: .h264OpenGOP)
    var opened = try await OpenedManager(url, clock: .free, progress: nil, startsPlaying: true)
    // Then its decoder has FFmpeg's threads, for throughput
    let cores = ProcessInfo.processInfo.activeProcessorCount
    #expect(opened.manager.decoderThreads == min(cores + 1, 16))
    // And after a scrub, playing flat out keeps the seeking decoder (as fast) instead of changing at a keyframe
    _ = try await opened.seek(to: 1.5)
    try await opened.playToEnd()
    #expect(opened.manager.decoderThreads == min(cores + 2, 16))
    opened.manager.shutdown()
  }

  @Test func anExactScrubDecodesOnTheSeekingDecoderAndAKeyframeScrubOnFFmpegsChoice() async throws {
    // Given a paused session (a keyframe every second)
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    // When it scrubs exactly, then to a keyframe in another GOP, then exactly again
    _ = try await opened.seek(to: 2.5)
    let afterExact = opened.manager.decoderThreads
    let keyframe = try await opened.seek(to: 1.5, mode: .keyframe)
    let afterKeyframe = opened.manager.decoderThreads
    _ = try await opened.seek(to: 3.2)
    // Then the run to an exact target had a frame thread more than FFmpeg's choice, the lone keyframe FFmpeg's choice
    #expect(afterExact == min(cores + 2, 16))
    #expect(afterKeyframe == min(cores + 1, 16))
    #expect(opened.manager.decoderThreads == min(cores + 2, 16))
    // And each landed on ffmpeg's frame
    #expect(keyframe.position.seconds == 1.0)
    #expect(opened.manager.currentFrame()?.md5 == reference.entry(containing: 3.2).hash)
    opened.manager.shutdown()
  }

  @Test func playingGoesBackToFFmpegsThreadsWhenOneThreadCannotKeepUp() async throws {
    // Given a wall-clock session where any decoding counts as too much for one thread
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil, startsPlaying: true, realtimeLoadLimit: 0)
    #expect(opened.manager.decoderThreads == 1)
    // When it plays on: after its first second of media the load is measured, and the change waits for the next
    // keyframe (one a second in this clip). Which keyframe that is depends on how far decoding ran ahead of the
    // clock, which a busy machine shifts, so the test looks a quarter second at a time until the last second.
    opened.manager.setRate(4)
    opened.manager.play()
    var position = 0.0
    while opened.manager.decoderThreads == 1 && position < 3.75 {
      position += 0.25
      _ = try await opened.wait(.position(MediaTime(seconds: position)))
    }
    // Then the decoder changed to FFmpeg's threads before the end, and the frames are still ffmpeg's
    #expect(opened.manager.decoderThreads > 1, "still one thread at \(position) s")
    try await opened.playToEnd()
    #expect(opened.manager.currentFrame()?.md5 == reference.last?.hash)
    opened.manager.shutdown()
  }

  @Test func aFileReopenedGoesBackToItsStartAndTellsReadyAgainWithoutOpening() async throws {
    // Given a clip played to its end, its speed then set to 2
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    var opened = try await OpenedManager(url, clock: .wall, progress: nil)
    _ = try await opened.seek(to: 9.8)
    try await opened.playToEnd()
    opened.manager.setRate(2)
    let readies = opened.spy.events.filter { $0 == "ready" }.count
    // When it is reopened
    opened.manager.reopen()
    try await opened.spy.wait("ready again") { [spy = opened.spy] in
      spy.events.filter { $0 == "ready" }.count == readies + 1
    }
    // Then it stands paused at its first frame, ffmpeg's, as a file just opened, with no loop passed
    let snapshot = opened.manager.snapshot()
    #expect(snapshot.position.seconds == 0)
    #expect(snapshot.loops == 0)
    #expect(opened.manager.currentFrame()?.md5 == reference.first?.hash)
    #expect(opened.manager.endDueTime == nil)
    // And it plays on from there
    opened.manager.play()
    let result = try await opened.wait(.position(MediaTime(seconds: 1)))
    #expect(result.outcome == .satisfied)
    #expect(opened.spy.ends.count == 1)
    opened.manager.shutdown()
  }

  @Test func wallClockPlaybackKeepsTime() async throws {
    // Given the wall clock
    let opened = try await OpenedManager(try TestMedia.url(for: .h264BFrames), clock: .wall, progress: 0.5)
    // When it plays for one second of media
    let start = ContinuousClock.now
    opened.manager.play()
    try await opened.spy.wait("progress 1.0") { [spy = opened.spy] in spy.events.contains("progress 1.0") }
    let atMark = ContinuousClock.now - start
    opened.manager.pause()
    let position = opened.manager.snapshot().position.seconds
    let elapsed = ContinuousClock.now - start
    // Then the marks came in order, and the clock never ran ahead of real time: a second of media took at least
    // a second, and the position read is no further than the real time that had passed when it was read. A busy
    // machine can only make playback later, so these hold on any machine; how close to real time it keeps is
    // scripts/bench's pacing figure.
    let marks = opened.spy.events.filter { $0.hasPrefix("progress") }
    #expect(marks.firstIndex(of: "progress 0.5").map { $0 < marks.firstIndex(of: "progress 1.0")! } == true)
    #expect(atMark >= .milliseconds(990))
    let realSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    #expect(position >= 1.0 && position <= realSeconds + 0.01)
    opened.manager.shutdown()
  }

}

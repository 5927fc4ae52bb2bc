// MediaSource on real media: the decoder changes between FFmpeg's frame threads and one thread, at keyframes
// or at a seek, without losing, repeating or spoiling a frame (checked against ffmpeg's framemd5).

import Foundation
import Testing
import VPKTestSupport

@testable import VPKEngine

@Suite struct MediaSourceTests {
  /// Every frame `source` gives until the end, as (pts, md5); when `alternating`, after each frame the source is
  /// asked for another kind of decoder (in turn), so it changes at every keyframe it can.
  private func decodeToEnd(_ source: MediaSource, alternating: Bool) -> [(pts: Int64, md5: String)] {
    var frames: [(pts: Int64, md5: String)] = []
    while case .frame(let frame) = source.next() {
      frames.append((frame.pts, frame.identity(timeBase: source.timeBaseParts).md5))
      if alternating {
        switch source.threading {
        case .realtime: source.wantedThreading = .throughput
        case .throughput: source.wantedThreading = .seeking
        case .seeking: source.wantedThreading = .realtime
        }
      }
    }
    return frames
  }

  @Test func theOpenGOPClipHasLeadingFrames() throws {
    // The handover test below is only worth something if the clip has frames that refer across a keyframe.
    #expect(try FFprobe.leadingFrameCount(TestMedia.url(for: .h264OpenGOP)) >= 3)
  }

  @Test(arguments: [TestClip.h264OpenGOP, .h264BFrames, .mpeg4, .vp9, .mpegTS])
  func changingDecodersAtEveryKeyframeKeepsEveryFrameExact(clip: TestClip) throws {
    // Given a clip and ffmpeg's own frames of it
    let url = try TestMedia.url(for: clip)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    for start in [DecoderThreading.throughput, .realtime] {
      // When it is decoded to the end, the wanted decoder flipping after every frame
      let source = try MediaSource(path: url.path, threading: start, stop: StopFlag())
      let frames = decodeToEnd(source, alternating: true)
      // Then every frame came out once, in order, as ffmpeg decodes it
      // (ffmpeg's framemd5 counts from the first frame; WebM and MPEG-TS start later than 0)
      let firstPTS = frames.first?.pts ?? 0
      #expect(frames.map { $0.pts - firstPTS } == reference.map { $0.pts - reference[0].pts }, "\(clip) from \(start)")
      #expect(frames.map(\.md5) == reference.map(\.hash), "\(clip) from \(start)")
      #expect(source.decodeErrors == 0, "\(clip) from \(start)")
      // And the decoder did change, at the keyframes after the first
      #expect(source.handovers >= 1, "\(clip) from \(start)")
    }
  }

  @Test func theOpenGOPClipChangesDecoderAtEachOfItsKeyframes() throws {
    // Given 4 s with a keyframe every second
    let source = try MediaSource(path: TestMedia.url(for: .h264OpenGOP).path, stop: StopFlag())
    // When it is decoded with the wish flipping after every frame
    _ = decodeToEnd(source, alternating: true)
    // Then each keyframe after the first changed the decoder
    #expect(source.handovers == 3)
  }

  @Test func eachKindOfDecoderRunsOnItsThreads() throws {
    // Given this machine's FFmpeg and its cores
    let url = try TestMedia.url(for: .h264BFrames)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    // Then the real-time decoder has one thread, the throughput decoder FFmpeg's choice (a thread more than the
    // cores, at most 16), and the seeking decoder one more than that (at most 16)
    #expect(try MediaSource(path: url.path, threading: .realtime, stop: StopFlag()).decoderThreadCount == 1)
    #expect(
      try MediaSource(path: url.path, threading: .throughput, stop: StopFlag()).decoderThreadCount
        == min(cores + 1, 16))
    #expect(
      try MediaSource(path: url.path, threading: .seeking, stop: StopFlag()).decoderThreadCount == min(cores + 2, 16))
  }

  @Test(arguments: [DecoderThreading.throughput, .realtime])
  func aSeekChangesTheDecoderAtOnce(to wanted: DecoderThreading) throws {
    // Given a source decoding the other way, some frames in
    let url = try TestMedia.url(for: .h264OpenGOP)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let source = try MediaSource(
      path: url.path, threading: wanted == .realtime ? .throughput : .realtime, stop: StopFlag())
    for _ in 0..<5 { _ = source.next() }
    // When the engine wants the other decoder and seeks into the third GOP (keyframe at 2 s)
    source.wantedThreading = wanted
    #expect(source.seek(to: 2.5))
    // Then the new decoder is in place at once, with no handover waiting for a keyframe
    #expect(source.threading == wanted)
    #expect(source.handovers == 0)
    // And from the keyframe on, its frames are ffmpeg's
    let frames = decodeToEnd(source, alternating: false).filter { $0.pts >= reference[60].pts }
    #expect(frames.map(\.md5) == reference[60...].map(\.hash))
  }
}

@Suite struct MediaSourceFrameOrderTests {
  @Test func eachFrameNamesTheFrameBeforeItUnlessASeekOrADroppedFrameCameBetween() throws {
    // Given a clip with B-frames, decoded from the start
    let url = try TestMedia.url(for: .h264BFrames)
    let source = try MediaSource(path: url.path, stop: StopFlag())
    var frames: [DecodedFrame] = []
    for _ in 0..<40 {
      guard case .frame(let frame) = source.next() else { break }
      frames.append(frame)
    }
    // Then the first follows nothing, and each other the one before it
    #expect(frames.first?.follows == nil)
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $1.follows == $0.pts })
    // When it seeks, with the frames nothing references before 5 s allowed to be dropped
    _ = source.seek(to: 5.0)
    source.discardNonReferenceBefore = 5.0
    var after: [DecodedFrame] = []
    while after.last.map({ $0.time < 5.3 }) ?? true, case .frame(let frame) = source.next() { after.append(frame) }
    source.discardNonReferenceBefore = nil
    // Then the first frame after the seek follows nothing; where frames were dropped, the next follows nothing;
    // and near the target, where none were, each follows the one before
    #expect(after.first?.follows == nil)
    #expect(after.dropFirst().contains { $0.follows == nil })
    let near = after.filter { $0.time >= 4.95 }
    #expect(near.count >= 8)
    #expect(zip(near, near.dropFirst()).allSatisfy { $1.follows == $0.pts })
  }

  @Test func theDecoderGenerationMovesWhenTheDecoderIsReplaced() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let source = try MediaSource(path: url.path, threading: .throughput, stop: StopFlag())
    _ = source.next()
    let first = source.decoderGeneration
    // A seek on the same decoder keeps the generation; a seek that changes decoder moves it
    _ = source.seek(to: 1.0)
    #expect(source.decoderGeneration == first)
    source.wantedThreading = .seeking
    _ = source.seek(to: 2.0)
    #expect(source.decoderGeneration > first)
  }

  @Test func theStreamsReadAreTheOnesMPVChooses() throws {
    // Given a file of two video streams, the first marked default and the second forced, and two audio streams with
    // no mark, the second of which FFmpeg's own choice (av_find_best_stream) prefers for its bit rate
    let url = try TestMedia.url(for: .multiStream)
    // When it is opened
    let source = try MediaSource(path: url.path, stop: StopFlag())
    // Then the forced video stream is played, and the first audio stream is the one described, as mpv chooses them
    #expect(source.info.video?.width == 320)
    #expect(source.info.details?.playedVideoIndex == 1)
    #expect(source.info.details?.playedAudioIndex == 2)
    #expect(source.info.audio?.sampleRate == 22050)
    // And the frames are that stream's
    guard case .frame(let frame) = source.next() else { return #expect(Bool(false), "no first frame") }
    #expect(frame.frame.pointee.width == 320)
  }

  @Test func eachStreamNamesTheDecoderFFmpegOpensForIt() throws {
    // Given a WebM file with Opus sound, whose decoder's long name is not its codec's
    let source = try MediaSource(path: TestMedia.url(for: .vp9).path, stop: StopFlag())
    // When it is described
    let streams = try #require(source.info.details?.streams)
    // Then each stream names its decoder, as mpv's decoder-desc does
    #expect(streams.map(\.decoderDescription) == ["vp9 (Google VP9)", "opus (Opus)"])
    #expect(streams.last?.codecLongName == "Opus (Opus Interactive Audio Codec)")
  }

  @Test func aSongsCoverArtIsNotItsVideo() throws {
    // Given an MP3 whose only picture is its cover art
    let url = try TestMedia.url(for: .coverArtSong)
    // When it is opened
    let source = try MediaSource(path: url.path, stop: StopFlag())
    // Then it plays on its sound, to its end, with no video
    #expect(source.info.video == nil)
    #expect(source.info.audio?.codec == "mp3")
    #expect(source.info.details?.playedVideoIndex == nil)
    #expect(source.info.details?.playedAudioIndex == 0)
    var last = 0.0
    while case .frame(let frame) = source.next() { last = frame.time }
    #expect(last > 2.9)
  }
}

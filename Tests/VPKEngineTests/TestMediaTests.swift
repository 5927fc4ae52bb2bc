// Checks that the generated test media holds what the other tests rely on, using ffprobe and ffmpeg themselves.
import Foundation
import Testing
import VPKTestSupport

@Suite("TestMedia")
struct TestMediaTests {
  /// What ffprobe must report for each clip: its streams as "type:codec", or nil when ffprobe must refuse the file.
  static let expectedStreams: [TestClip: [String]?] = [
    .h264BFrames: ["video:h264", "audio:aac"],
    .mpeg4: ["video:mpeg4"],
    .vp9: ["video:vp9", "audio:opus"],
    .mpegTS: ["video:h264", "audio:aac"],
    .mpeg4AVI: ["video:mpeg4"],
    .rawH264: ["video:h264"],
    .audioOnly: ["audio:aac"], .oggSong: ["audio:vorbis"],
    .truncatedMP4: ["video:h264", "audio:aac"],
    .noStreams: ["subtitle:subrip"],
    .emptyFile: nil,
    .randomBytes: nil,
    .textFile: nil,
    .h264OpenGOP: ["video:h264"],
    .describedMP4: ["video:h264", "audio:aac", "subtitle:mov_text", "data:bin_data", "data:unknown"],
    .describedMKV: ["video:mpeg4", "audio:opus", "subtitle:subrip", "attachment:unknown"],
    .h264FullRange444: ["video:h264"],
    .h264TenBit: ["video:h264"],
    .hevc: ["video:hevc"],
    .h264LongGOP: ["video:h264"],
    .multiStream: ["video:h264", "video:h264", "audio:aac", "audio:aac"],
    .coverArtSong: ["audio:mp3", "video:mjpeg"],
  ]

  @Test(arguments: TestClip.allCases)
  func clipHasWhatItClaims(_ clip: TestClip) throws {
    let url = try TestMedia.url(for: clip)
    #expect(url.pathExtension == clip.fileExtension)
    #expect(FileManager.default.fileExists(atPath: url.path))
    // Asking again gives the cached file.
    #expect(try TestMedia.url(for: clip) == url)

    let expected = try #require(Self.expectedStreams[clip], "no expectation for \(clip)")
    if let expected {
      let streams = try FFprobe.streams(url)
      #expect(streams.map { "\($0.codecType):\($0.codecName)" } == expected)
    } else {
      #expect(throws: TestSupportError.self, "ffprobe must refuse \(clip)") { try FFprobe.streams(url) }
    }
  }

  @Test func videoClipsHaveTheirFrameCountsAndDurations() throws {
    for (clip, frames, seconds) in [(TestClip.h264BFrames, 300, 10.0), (.mpeg4, 150, 6.0), (.vp9, 180, 6.0)] {
      let url = try TestMedia.url(for: clip)
      #expect(try FFprobe.frameCount(url) == frames, "\(clip)")
      #expect(abs(try FFprobe.duration(url) - seconds) < 0.05, "\(clip)")
    }
    #expect(abs(try FFprobe.duration(TestMedia.url(for: .audioOnly)) - 5) < 0.05)
  }

  @Test func noStreamsHasNeitherVideoNorAudio() throws {
    let streams = try FFprobe.streams(TestMedia.url(for: .noStreams))
    #expect(!streams.isEmpty)
    #expect(!streams.contains { $0.codecType == "video" || $0.codecType == "audio" })
  }

  @Test func badFilesHaveTheirSizes() throws {
    func size(_ clip: TestClip) throws -> Int {
      try FileManager.default.attributesOfItem(atPath: TestMedia.url(for: clip).path)[.size] as? Int ?? -1
    }
    #expect(try size(.emptyFile) == 0)
    #expect(try size(.randomBytes) == 64 * 1024)
    #expect(try size(.textFile) > 0)
  }

  @Test func truncatedMP4KeepsItsIndexButLosesFrames() throws {
    let url = try TestMedia.url(for: .truncatedMP4)
    let bytes = try Data(contentsOf: url)
    let moov = try #require(bytes.range(of: Data("moov".utf8)))
    let mdat = try #require(bytes.range(of: Data("mdat".utf8)))
    #expect(moov.lowerBound < mdat.lowerBound, "the index must be at the front (faststart)")
    let whole = try Data(contentsOf: TestMedia.url(for: .h264BFrames)).count
    #expect(abs(Double(bytes.count) / Double(whole) - 0.6) < 0.02)
    #expect(abs(try FFprobe.duration(url) - 10) < 0.05, "the index still says 10 s")
    let frames = try FFprobe.frameCount(url)
    #expect(frames > 0 && frames < 300)
  }

  @Test func frameMD5ParsesTheH264Clip() throws {
    let url = try TestMedia.url(for: .h264BFrames)
    let frames = try FrameMD5.entries(of: url)
    #expect(frames.count == 300)
    #expect(frames.first?.timeBase == FrameMD5TimeBase(num: 1, den: 30))
    #expect(frames.map(\.pts) == Array(0..<300))
    #expect(frames.allSatisfy { $0.size == 320 * 240 * 3 / 2 && $0.hash.count == 32 && $0.duration == 1 })
    #expect(Set(frames.map(\.hash)).count == 300, "testsrc2 frames all differ")

    #expect(frames.entry(containing: 0).pts == 0)
    #expect(frames.entry(containing: 0.0334).pts == 1)
    #expect(frames.entry(containing: 5.0).pts == 150)
    #expect(frames.entry(containing: 9.99).pts == 299)
    #expect(frames.entry(containing: -1).pts == 0)
    #expect(frames.entry(containing: 60).pts == 299)
    #expect(frames.entry(containing: 7.0 / 30.0).pts == 7)
    #expect(frames.entry(containing: 7.0 / 30.0 - 0.001).pts == 6)

    // In the stream's own time base the same frames have the same hashes and times.
    let streamFrames = try FrameMD5.entries(of: url, streamTimeBase: true)
    #expect(streamFrames.first?.timeBase == FrameMD5TimeBase(num: 1, den: 15360))
    #expect(streamFrames.map(\.hash) == frames.map(\.hash))
    #expect(zip(streamFrames, frames).allSatisfy { abs($0.time - $1.time) < 1e-9 })
  }
}

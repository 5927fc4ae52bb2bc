// MediaDescriptionText: `vpk info`'s text block and JSON object for a description made by hand.

import Foundation
import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@Suite struct MediaDescriptionTextTests {
  static let sample = MediaDescription(
    path: "movie.mp4", formatName: "mov,mp4,m4a,3gp,3g2,mj2", formatLongName: "QuickTime / MOV", duration: 3,
    startTime: 0, bitRate: 334_493, size: 125_435,
    tags: [MediaTag("title", "Described clip"), MediaTag("artist", "VPK tests"), MediaTag("comment", "two\nlines")],
    streams: [
      StreamDescription(
        index: 0, kind: .video, codec: "h264", codecLongName: "H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10",
        profile: "High", timeBase: MediaRational(1, 12288), startTime: 0, duration: 3, bitRate: 271_498,
        frameCount: 72, disposition: ["default"],
        tags: [MediaTag("language", "eng"), MediaTag("handler_name", "Video")],
        video: VideoDescription(
          width: 320, height: 240, sampleAspectRatio: MediaRational(1, 1), displayAspectRatio: MediaRational(4, 3),
          rotation: 90, frameRate: MediaRational(30000, 1001), averageFrameRate: MediaRational(30000, 1001),
          pixelFormat: "yuv420p", colorRange: "tv", colorSpace: "bt709", colorTransfer: "bt709",
          colorPrimaries: "bt709", fieldOrder: "progressive")),
      StreamDescription(
        index: 1, kind: .audio, codec: "aac", codecLongName: "AAC (Advanced Audio Coding)", profile: "LC",
        timeBase: MediaRational(1, 48000), startTime: -0.021333, duration: 3.0, bitRate: 47_456,
        disposition: ["default"], tags: [MediaTag("language", "fra"), MediaTag("title", "Sine")],
        audio: AudioDescription(sampleRate: 48000, channels: 2, channelLayout: "stereo", sampleFormat: "fltp")),
      StreamDescription(
        index: 2, kind: .attachment, codec: nil, timeBase: MediaRational(1, 90000),
        tags: [MediaTag("filename", "notes.txt"), MediaTag("FILENAME", "again")]),
    ],
    chapters: [
      ChapterDescription(
        id: 0, timeBase: MediaRational(1, 1000), start: 0, end: 1500, tags: [MediaTag("title", "Opening")]),
      ChapterDescription(id: 1, timeBase: MediaRational(1, 1000), start: 1500, end: 3000),
    ])

  @Test func theTextBlockIsAlignedSectionsOfWhatAPersonLooksFor() {
    let text = MediaDescriptionText.block(Self.sample)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(text.hasSuffix("\n"))
    #expect(lines.first == "General")
    #expect(lines.contains("Stream #0: video") && lines.contains("Stream #1: audio"))
    #expect(lines.contains("Stream #2: attachment") && lines.contains("Chapters"))
    // Every value starts in the same column.
    let body = lines.filter { $0.hasPrefix("  ") }
    let columns = Set(
      body.map { line -> Int in
        // The value starts after the label and the run of spaces that follows it (labels hold single spaces).
        let afterIndent = line.dropFirst(2)
        let gap = afterIndent.range(of: "  ")!
        return line.count - afterIndent[gap.upperBound...].drop { $0 == " " }.count
      })
    #expect(columns.count == 1, "\(text)")
    for expected in [
      "Container", "mov,mp4,m4a,3gp,3g2,mj2 (QuickTime / MOV)", "Described clip", "00:00:03.000", "334 kb/s",
      "125435 bytes", "h264 - H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10", "High", "320x240", "SAR 1:1, DAR 4:3",
      "90°", "29.97 fps (r 30000/1001, avg 30000/1001)", "yuv420p",
      "range tv, space bt709, transfer bt709, primaries bt709",
      "progressive", "48000 Hz", "2 (stereo)", "fltp", "-0.021 s", "eng", "fra", "Sine", "default",
      "00:00:00.000 - 00:00:01.500  Opening", "Tag handler_name",
      "Tag filename", "notes.txt",
    ] {
      #expect(text.contains(expected), "missing \(expected) in\n\(text)")
    }
    #expect(lines.contains { $0.hasPrefix("  #1 ") && $0.hasSuffix(" 00:00:01.500 - 00:00:03.000") })
    // Text from the file stays on its line.
    #expect(text.contains(#"two\nlines"#))
    // The title and language have lines of their own, not tag lines.
    #expect(!text.contains("Tag title") && !text.contains("Tag language"))
  }

  @Test func anUnknownDurationAndMissingFieldsSaySoOrAreLeftOut() {
    let bare = MediaDescription(
      path: "raw.h264", formatName: "h264",
      streams: [StreamDescription(index: 0, kind: .video, codec: "h264", timeBase: MediaRational(1, 1200000))])
    let text = MediaDescriptionText.block(bare)
    #expect(text.contains("unknown"))
    #expect(!text.contains("Bit rate") && !text.contains("Chapters") && !text.contains("Frame rate"))
  }

  @Test func theJSONIsOneObjectThatValidatesAgainstItsSchema() throws {
    let json = MediaDescriptionText.json(Self.sample)
    #expect(!json.contains("\n"))
    // The schema holds it, and is not so loose that it would hold anything: a stream's width written as 2.0, a
    // missing field, and a video field on an audio stream are refused.
    let broken = [
      json.replacingOccurrences(of: #""width":320"#, with: #""width":320.0"#),
      json.replacingOccurrences(of: #""nb_chapters":2,"#, with: ""),
      json.replacingOccurrences(of: #""sample_rate":48000"#, with: #""sample_rate":48000,"width":1"#),
    ]
    #expect(Set(broken).count == 3 && !broken.contains(json))
    let errors = try VPKSchemas.info().errors(inLines: [json] + broken)
    #expect(errors[0] == [], "\(errors[0])")
    #expect(errors.dropFirst().allSatisfy { !$0.isEmpty }, "\(errors)")
    let object = try JSONValue.parse(json)
    #expect(object["path"]?.string == "movie.mp4")
    #expect(object["format"]?["format_name"]?.string == "mov,mp4,m4a,3gp,3g2,mj2")
    #expect(object["format"]?["duration"]?.double == 3)
    #expect(object["format"]?["bit_rate"]?.int == 334_493)
    #expect(object["format"]?["nb_chapters"]?.int == 2)
    #expect(object["format"]?["title"]?.string == "Described clip")
    #expect(object["format"]?["tags"]?["comment"]?.string == "two\nlines")
    guard case .array(let streams)? = object["streams"], case .array(let chapters)? = object["chapters"] else {
      Issue.record("streams and chapters are arrays: \(json)")
      return
    }
    #expect(streams.count == 3 && chapters.count == 2)
    #expect(streams[0]["r_frame_rate"]?.string == "30000/1001")
    #expect(streams[0]["sample_aspect_ratio"]?.string == "1:1")
    #expect(streams[0]["rotation"]?.double == 90)
    #expect(streams[0]["time_base"]?.string == "1/12288")
    #expect(streams[0]["disposition"] == .array([.string("default")]))
    #expect(streams[0]["language"]?.string == "eng")
    #expect(streams[0]["sample_rate"] == nil)
    #expect(streams[1]["start_time"]?.double == -0.021333)
    #expect(streams[1]["channel_layout"]?.string == "stereo")
    #expect(streams[1]["width"] == nil)
    #expect(streams[2]["codec_name"] == .null)
    // A key given twice keeps its first value: JSON keys are unique.
    #expect(streams[2]["tags"]?["filename"]?.string == "notes.txt")
    #expect(chapters[0]["title"]?.string == "Opening" && chapters[1]["title"] == .null)
    #expect(chapters[1]["start_time"]?.double == 1.5 && chapters[1]["end"]?.int == 3000)
  }

  @Test func timesAreRoundedToTheMicrosecondAndUnknownOnesAreNull() throws {
    var description = Self.sample
    description.duration = 2.0000004999
    description.startTime = nil
    let object = try JSONValue.parse(MediaDescriptionText.json(description))
    #expect(object["format"]?["duration"]?.double == 2)
    #expect(object["format"]?["start_time"] == .null)
  }

  @Test func bitRatesReadInKilobitsAboveOneThousand() {
    #expect(MediaDescriptionText.bitRateText(999) == "999 b/s")
    #expect(MediaDescriptionText.bitRateText(64_000) == "64 kb/s")
    #expect(MediaDescriptionText.bitRateText(334_493) == "334 kb/s")
  }
}

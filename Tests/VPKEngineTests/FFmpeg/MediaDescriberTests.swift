// MediaDescriber on every clip of the test corpus, field by field against ffprobe's JSON
// (`ffprobe -show_format -show_streams -show_chapters -of json`): the container, every stream, every chapter. Where
// ffprobe leaves a field out (or prints `unknown`, `N/A`, `0/0`), the description must say nil.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct MediaDescriberTests {
  /// Every clip ffprobe can read.
  static let readable: [TestClip] = TestClip.allCases.filter { ![.emptyFile, .randomBytes, .textFile].contains($0) }

  @Test(arguments: readable)
  func everyFieldMatchesFFprobe(clip: TestClip) throws {
    let url = try TestMedia.url(for: clip)
    let probe = try FFprobe.description(url)
    let described = try MediaDescriber.describe(path: url.path)
    let format = try #require(probe["format"])

    // The container
    #expect(described.path == url.path)
    #expect(described.formatName == format["format_name"]?.string)
    #expect(described.formatLongName == format["format_long_name"]?.string)
    expectSeconds(described.duration, format["duration"], "\(clip) duration")
    expectSeconds(described.startTime, format["start_time"], "\(clip) start_time")
    #expect(described.bitRate == integer(format["bit_rate"]), "\(clip) bit_rate")
    #expect(described.size.map(Int.init) == integer(format["size"]), "\(clip) size")
    #expect(described.streams.count == format["nb_streams"]?.int, "\(clip) nb_streams")
    expectTags(described.tags, format["tags"], "\(clip) format")
    #expect(described.title == format["tags"]?["title"]?.string)

    // Every stream
    let streams = array(probe["streams"])
    #expect(described.streams.count == streams.count, "\(clip) streams")
    for (stream, expected) in zip(described.streams, streams) {
      try expectStream(stream, expected, "\(clip) stream \(stream.index)")
    }

    // Every chapter
    let chapters = array(probe["chapters"])
    #expect(described.chapters.count == chapters.count, "\(clip) chapters")
    for (chapter, expected) in zip(described.chapters, chapters) {
      let label = "\(clip) chapter \(chapter.id)"
      #expect(Int(chapter.id) == expected["id"]?.int, "\(label) id")
      #expect("\(chapter.timeBase.num)/\(chapter.timeBase.den)" == expected["time_base"]?.string, "\(label)")
      #expect(Int(chapter.start) == expected["start"]?.int, "\(label) start")
      #expect(Int(chapter.end) == expected["end"]?.int, "\(label) end")
      expectSeconds(chapter.startTime, expected["start_time"], "\(label) start_time")
      expectSeconds(chapter.endTime, expected["end_time"], "\(label) end_time")
      expectTags(chapter.tags, expected["tags"], label)
    }
  }

  private func expectStream(_ stream: StreamDescription, _ expected: JSONValue, _ label: String) throws {
    #expect(stream.index == expected["index"]?.int, "\(label) index")
    #expect(stream.kind.rawValue == expected["codec_type"]?.string, "\(label) codec_type")
    #expect(stream.codec == known(expected["codec_name"]), "\(label) codec_name")
    #expect(stream.codecLongName == known(expected["codec_long_name"]), "\(label) codec_long_name")
    #expect(stream.profile == known(expected["profile"]), "\(label) profile")
    #expect(rational(stream.timeBase, "/") == expected["time_base"]?.string, "\(label) time_base")
    expectSeconds(stream.startTime, expected["start_time"], "\(label) start_time")
    expectSeconds(stream.duration, expected["duration"], "\(label) duration")
    #expect(stream.bitRate == integer(expected["bit_rate"]), "\(label) bit_rate")
    #expect(stream.frameCount == integer(expected["nb_frames"]), "\(label) nb_frames")
    let flags: [String]
    if case .object(let members)? = expected["disposition"] {
      flags = members.filter { $0.value.int == 1 }.map(\.key).sorted()
    } else {
      flags = []
    }
    #expect(stream.disposition.sorted() == flags, "\(label) disposition")
    expectTags(stream.tags, expected["tags"], label)
    #expect(stream.language == expected["tags"]?["language"]?.string, "\(label) language")
    #expect(stream.title == expected["tags"]?["title"]?.string, "\(label) title")

    switch stream.kind {
    case .video:
      let video = try #require(stream.video, "\(label): no video description")
      #expect(video.width == expected["width"]?.int, "\(label) width")
      #expect(video.height == expected["height"]?.int, "\(label) height")
      #expect(video.sampleAspectRatio.map { rational($0, ":") } == known(expected["sample_aspect_ratio"]), "\(label)")
      #expect(video.displayAspectRatio.map { rational($0, ":") } == known(expected["display_aspect_ratio"]), "\(label)")
      #expect(video.frameRate.map { rational($0, "/") } == knownRate(expected["r_frame_rate"]), "\(label) r_frame_rate")
      #expect(
        video.averageFrameRate.map { rational($0, "/") } == knownRate(expected["avg_frame_rate"]),
        "\(label) avg_frame_rate")
      #expect(video.pixelFormat == known(expected["pix_fmt"]), "\(label) pix_fmt")
      #expect(video.colorRange == known(expected["color_range"]), "\(label) color_range")
      #expect(video.colorSpace == known(expected["color_space"]), "\(label) color_space")
      #expect(video.colorTransfer == known(expected["color_transfer"]), "\(label) color_transfer")
      #expect(video.colorPrimaries == known(expected["color_primaries"]), "\(label) color_primaries")
      #expect(video.fieldOrder == known(expected["field_order"]), "\(label) field_order")
      // ffprobe prints the display matrix's rotation as an integer (truncated).
      let matrix = array(expected["side_data_list"]).first { $0["side_data_type"]?.string == "Display Matrix" }
      #expect(video.rotation.map { Int($0) } == matrix?["rotation"]?.int, "\(label) rotation")
      #expect(stream.audio == nil)
    case .audio:
      let audio = try #require(stream.audio, "\(label): no audio description")
      #expect(audio.sampleRate == integer(expected["sample_rate"]), "\(label) sample_rate")
      #expect(audio.channels == expected["channels"]?.int, "\(label) channels")
      #expect(audio.channelLayout == known(expected["channel_layout"]), "\(label) channel_layout")
      #expect(audio.sampleFormat == known(expected["sample_fmt"]), "\(label) sample_fmt")
      #expect(stream.video == nil)
    default:
      #expect(stream.video == nil && stream.audio == nil, "\(label)")
    }
  }

  @Test func theDescribedClipsHoldWhatTheyAreFor() throws {
    // The comparison above is only worth something if the corpus has every kind of field: check the new clips have
    // them (ffprobe already agreed on the values).
    let mp4 = try MediaDescriber.describe(path: TestMedia.url(for: .describedMP4).path)
    #expect(mp4.streams.map(\.kind) == [.video, .audio, .subtitle, .data, .data])
    #expect(mp4.streams[0].video?.rotation == 90)
    #expect(mp4.streams[0].video?.colorSpace == "bt709" && mp4.streams[0].video?.colorRange == "tv")
    #expect(mp4.streams.map(\.language) == ["eng", "fra", "deu", "eng", "eng"])
    #expect(mp4.streams[2].disposition.contains("forced"))
    #expect(mp4.chapters.map(\.title) == ["Opening", "Ending"])
    #expect(mp4.title == "Described clip" && mp4.tags.value(for: "artist") == "VPK tests")

    let mkv = try MediaDescriber.describe(path: TestMedia.url(for: .describedMKV).path)
    #expect(mkv.streams.map(\.kind) == [.video, .audio, .subtitle, .attachment])
    #expect(mkv.streams[0].video?.fieldOrder == "tt")
    #expect(mkv.streams[0].video?.sampleAspectRatio == MediaRational(16, 11))
    #expect(mkv.streams[0].video?.displayAspectRatio == MediaRational(16, 9))
    #expect(mkv.streams.map(\.title) == ["Test pattern", "Commentary", "Captions", nil])
    #expect(mkv.streams[1].disposition == ["comment"])
    #expect(mkv.streams[2].disposition == ["forced", "hearing_impaired"])
    #expect(mkv.streams[3].tags.value(for: "filename") == "notes.txt")
    #expect(mkv.chapters.count == 2)
    #expect(mkv.streams[1].audio?.channelLayout == "mono")
  }

  @Test(arguments: [
    (TestClip.emptyFile, PlaybackError.Code.notMedia), (.randomBytes, .notMedia), (.textFile, .notMedia),
  ])
  func whatCannotBeReadFailsAsOpeningItToPlayDoes(clip: TestClip, code: PlaybackError.Code) throws {
    let url = try TestMedia.url(for: clip)
    #expect(failure(url.path)?.code == code)
    #expect((try? MediaSource(path: url.path, stop: StopFlag())) == nil)
  }

  @Test func aMissingFileAndAURLFailWithTheirCodes() {
    #expect(throws: PlaybackError(.fileNotFound, "no such file: /nonexistent/clip.mp4; check the path")) {
      try MediaDescriber.describe(path: "/nonexistent/clip.mp4")
    }
    #expect(failure("http://127.0.0.1:9/clip.mp4")?.code == .refusedProtocol)
  }

  @Test(arguments: CraftedFile.allCases)
  func describingRefusesWhatPlayingRefuses(file: CraftedFile) throws {
    // Given a playlist or a stream description, refused by default
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    #expect(failure(url.path)?.code == .refusedFormat, "\(file)")
    // When playlists are allowed, one that names local files is described
    if file.pointsAtLocalFile {
      let described = try MediaDescriber.describe(path: url.path, access: MediaAccess(allowsPlaylists: true))
      #expect(described.formatName.contains(file.demuxer), "\(file): \(described.formatName)")
      #expect(described.streams.contains { $0.kind == .video }, "\(file)")
    }
  }

  /// Why describing `path` failed, or nil when it did not.
  private func failure(_ path: String, access: MediaAccess = MediaAccess()) -> PlaybackError? {
    do throws(PlaybackError) {
      _ = try MediaDescriber.describe(path: path, access: access)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - ffprobe's values

  /// Seconds as ffprobe prints them (six decimals), or nil when it leaves them out.
  private func expectSeconds(_ actual: Double?, _ expected: JSONValue?, _ label: String) {
    let printed = expected?.string.flatMap(Double.init)
    guard let actual, let printed else {
      #expect(
        actual == nil && printed == nil, "\(label): \(String(describing: actual)) vs \(String(describing: printed))")
      return
    }
    #expect(abs(actual - printed) <= 0.5e-6 + 1e-9, "\(label): \(actual) vs \(printed)")
  }

  /// Every tag, with its value; ffprobe's JSON keeps one value per key.
  private func expectTags(_ actual: [MediaTag], _ expected: JSONValue?, _ label: String) {
    var ours: [String: String] = [:]
    for tag in actual where ours[tag.key] == nil { ours[tag.key] = tag.value }
    var theirs: [String: String] = [:]
    if case .object(let members)? = expected {
      for (key, value) in members { theirs[key] = value.string }
    }
    #expect(ours == theirs, "\(label) tags")
  }

  /// An integer ffprobe prints as a number or a string (`"bit_rate": "64000"`).
  private func integer(_ value: JSONValue?) -> Int? {
    value?.int ?? value?.string.flatMap { Int($0) }
  }

  /// A string ffprobe prints, nil when it is absent or says it does not know.
  private func known(_ value: JSONValue?) -> String? {
    guard let text = value?.string, text != "unknown", text != "N/A" else { return nil }
    return text
  }

  /// A frame rate, nil for ffprobe's `0/0`.
  private func knownRate(_ value: JSONValue?) -> String? {
    guard let text = known(value), !text.hasPrefix("0/"), !text.hasSuffix("/0") else { return nil }
    return text
  }

  private func array(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let values)? = value { return values }
    return []
  }

  private func rational(_ value: MediaRational, _ separator: String) -> String {
    "\(value.num)\(separator)\(value.den)"
  }
}

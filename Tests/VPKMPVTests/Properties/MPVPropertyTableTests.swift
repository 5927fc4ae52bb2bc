import Foundation
import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The table of mpv properties, and what comes from it.
@Suite("mpv property table")
struct MPVPropertyTableTests {
  /// docs/control-socket.md, found from this file's path.
  private static let docsURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../docs/control-socket.md").standardized

  @Test("the changes-on column: the rows mpv tells apart as a file ends, pauses at its end, or loses its kept entry")
  func changesOn() {
    // Given the table, When its rows are grouped by the moments they change on
    let rows = { (moment: MPVPropertySpec.ChangeMoment) in
      Set(MPVPropertyTable.all.filter { $0.changesOn.contains(moment) }.map(\.property))
    }
    // Then the position's and the picture's properties (and core-idle) are told before a played file's end-file
    #expect(
      rows(.endOfFile) == [
        .eofReached, .timePos, .playbackTime, .percentPos, .timeRemaining, .playtimeRemaining, .width, .height,
        .coreIdle,
      ])
    // And pause is told last at an end kept open, and the playlist's count and list change with its entry
    #expect(rows(.pauseAtEnd) == [.pause])
    #expect(rows(.playlistEntry) == [.playlistCount, .playlist])
  }

  @Test(
    "track-list selects the subtitle track mpv 0.35.1 selects with its default options",
    arguments: [
      // The flags of each subtitle stream, and the one mpv selected (checked against mpv on Matroska files made with
      // ffmpeg's -disposition; an MP4 subtitle track reads as default).
      ([[]], nil), ([["default"]], 0), ([["forced"]], 0), ([[], []], nil), ([["forced"], ["default"]], 1),
      ([["default"], ["forced"]], 0), ([["forced"], ["forced"]], 0), ([["default"], ["default"]], 0),
      ([["forced"], []], nil), ([[], ["forced"]], nil), ([[], ["default"]], 1), ([["default", "forced"], []], nil),
      ([["default"], ["default", "forced"]], 0),
    ] as [([[String]], Int?)])
  func selectedSubtitle(flags: [[String]], selected: Int?) {
    // Given a video stream, then subtitle streams with these flags
    let streams =
      [StreamDescription(index: 0, kind: .video, codec: "h264", timeBase: MediaRational(1, 25))]
      + flags.enumerated().map { offset, disposition in
        StreamDescription(
          index: offset + 1, kind: .subtitle, codec: "subrip", timeBase: MediaRational(1, 1000),
          disposition: disposition)
      }
    // When the table picks one, Then it is the one mpv selects (by stream index)
    #expect(MPVPropertyTable.selectedSubtitle(of: streams) == selected.map { $0 + 1 })
  }

  @Test("metadata: the container's tags, with a lone audio stream's merged in when there is no video but cover art")
  func loneAudioStreamTagsAreMerged() {
    // Given a song whose tags are its audio stream's (Ogg), and the container's own title
    let stream = { (kind: StreamKind, disposition: [String], tags: [MediaTag]) in
      StreamDescription(
        index: 0, kind: kind, codec: "x", timeBase: MediaRational(1, 1000), disposition: disposition, tags: tags)
    }
    let song = stream(.audio, [], [MediaTag("TITLE", "Song"), MediaTag("artist", "Someone")])
    let info = { (streams: [StreamDescription]) in
      var info = MediaInfo(
        path: "/s.opus", container: "ogg", duration: nil, streamCount: streams.count, video: nil, audio: nil)
      info.details = MediaDescription(
        path: "/s.opus", formatName: "ogg", tags: [MediaTag("title", "Container"), MediaTag("encoder", "e")],
        streams: streams)
      return info
    }
    // When read alone, or beside cover art, Then the stream's tags are merged in, a key already there keeping its
    // spelling and taking the stream's value
    let merged = [MediaTag("title", "Song"), MediaTag("encoder", "e"), MediaTag("artist", "Someone")]
    #expect(MPVPropertyTable.fileTags(info([song])) == merged)
    #expect(MPVPropertyTable.fileTags(info([song, stream(.video, ["attached_pic"], [])])) == merged)
    // And beside a video, or a second audio stream, the container's tags alone
    let container = [MediaTag("title", "Container"), MediaTag("encoder", "e")]
    #expect(MPVPropertyTable.fileTags(info([song, stream(.video, [], [])])) == container)
    #expect(MPVPropertyTable.fileTags(info([song, song])) == container)
    // And in Matroska or WebM, read by mpv's own demuxer, the container's tags alone
    var matroska = info([song])
    matroska.details?.formatName = "matroska,webm"
    #expect(MPVPropertyTable.fileTags(matroska) == container)
  }

  @Test("track-list selects the video and audio streams vpk reads, and video-params and audio-params are theirs")
  func playedStreamsAreSelected() {
    // Given a file of two video and two audio streams whose engine reads the second video and the first audio one
    let video = { (index: Int, width: Int) in
      StreamDescription(
        index: index, kind: .video, codec: "h264", timeBase: MediaRational(1, 25),
        video: VideoDescription(width: width, height: width * 3 / 4, pixelFormat: "yuv420p"))
    }
    let audio = { (index: Int, rate: Int) in
      StreamDescription(
        index: index, kind: .audio, codec: "aac", timeBase: MediaRational(1, rate),
        audio: AudioDescription(sampleRate: rate, channels: 2))
    }
    var info = MediaInfo(
      path: "/m.mkv", container: "matroska,webm", duration: MediaTime(seconds: 2), streamCount: 4,
      video: VideoStreamInfo(codec: "h264", width: 320, height: 240, frameRate: 25, pixelFormat: "yuv420p"),
      audio: AudioStreamInfo(codec: "aac", sampleRate: 22050, channels: 2))
    info.details = MediaDescription(
      path: "/m.mkv", formatName: "matroska,webm",
      streams: [video(0, 160), video(1, 320), audio(2, 22050), audio(3, 48000)])
    info.details?.playedVideoIndex = 1
    info.details?.playedAudioIndex = 2
    var readings = MPVReadings()
    readings.info = info
    // When the track list and the streams' parameters are read
    let tracks = MPVPropertyTable.spec(.trackList).read(readings)
    // Then the played ones are selected, and the parameters are theirs
    guard case .array(let entries) = tracks else {
      return #expect(Bool(false), "track-list: \(String(describing: tracks))")
    }
    #expect(entries.map { $0["selected"] } == [.bool(false), .bool(true), .bool(true), .bool(false)])
    #expect(MPVPropertyTable.spec(.videoParams).read(readings)?["w"] == .integer(320))
    #expect(MPVPropertyTable.spec(.audioParams).read(readings)?["samplerate"] == .integer(22050))
    // And with no stream named by the engine, the first of each kind is
    info.details?.playedVideoIndex = nil
    info.details?.playedAudioIndex = nil
    readings.info = info
    guard case .array(let firsts) = MPVPropertyTable.spec(.trackList).read(readings) else {
      return #expect(Bool(false))
    }
    #expect(firsts.map { $0["selected"] } == [.bool(true), .bool(false), .bool(true), .bool(false)])
    // And with no video the engine could decode (the file opened on its audio), no video stream is selected
    info.video = nil
    readings.info = info
    guard case .array(let noVideo) = MPVPropertyTable.spec(.trackList).read(readings) else {
      return #expect(Bool(false))
    }
    #expect(noVideo.map { $0["selected"] } == [.bool(false), .bool(false), .bool(true), .bool(false)])
    #expect(MPVPropertyTable.spec(.videoParams).read(readings) == nil)
  }

  @Test("a song's cover art is a track with image and albumart true, not selected; the song's sound is")
  func coverArtTrack() {
    // Given a song with its cover art, read by the engine on its sound alone
    var info = MediaInfo(
      path: "/song.mp3", container: "mp3", duration: MediaTime(seconds: 3), streamCount: 2, video: nil,
      audio: AudioStreamInfo(codec: "mp3", sampleRate: 44100, channels: 1))
    info.details = MediaDescription(
      path: "/song.mp3", formatName: "mp3",
      streams: [
        StreamDescription(
          index: 0, kind: .audio, codec: "mp3", timeBase: MediaRational(1, 14_112_000),
          audio: AudioDescription(sampleRate: 44100, channels: 1)),
        StreamDescription(
          index: 1, kind: .video, codec: "mjpeg", timeBase: MediaRational(1, 90000), disposition: ["attached_pic"],
          video: VideoDescription(width: 200, height: 200)),
      ])
    info.details?.playedAudioIndex = 0
    var readings = MPVReadings()
    readings.info = info
    // When the track list is read
    guard case .array(let tracks) = MPVPropertyTable.spec(.trackList).read(readings) else {
      return #expect(Bool(false))
    }
    // Then the picture is an image and album art (as mpv marks it), and only the sound is selected
    #expect(tracks.map { $0["image"] } == [.bool(false), .bool(true)])
    #expect(tracks.map { $0["albumart"] } == [.bool(false), .bool(true)])
    #expect(tracks.map { $0["selected"] } == [.bool(true), .bool(false)])
  }

  @Test("docs/control-socket.md holds the property table as the table of properties writes it")
  func docsTable() throws {
    // Given the docs and the block the table writes
    let docs = try String(contentsOf: Self.docsURL, encoding: .utf8)
    let expected = MPVPropertyTable.docsBlock
    // When the block between the markers is read
    let begin = try #require(docs.range(of: MPVPropertyTable.docsBegin), "no \(MPVPropertyTable.docsBegin) in the docs")
    let end = try #require(docs.range(of: MPVPropertyTable.docsEnd), "no \(MPVPropertyTable.docsEnd) in the docs")
    let found = String(docs[begin.lowerBound..<end.upperBound])
    // Then it is that block (VPK_WRITE_DOCS=1 writes it into the docs instead)
    if found != expected, ProcessInfo.processInfo.environment["VPK_WRITE_DOCS"] == "1" {
      try docs.replacingCharacters(in: begin.lowerBound..<end.upperBound, with: expected)
        .write(to: Self.docsURL, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      found == expected,
      """
      docs/control-socket.md's property table is not the table's; put this between its markers (or run the test \
      with VPK_WRITE_DOCS=1):
      \(expected)
      """
    )
  }

  @Test("property-list names every entry but the sub-properties, in the table's order; each entry is its own")
  func propertyList() {
    let names = MPVPropertyTable.all.map(\.name).filter { !$0.contains("/") }
    #expect(MPVPropertyTable.spec(.propertyList).read(MPVReadings()) == .array(names.map { .string($0) }))
    #expect(MPVProperty.allCases.allSatisfy { MPVPropertyTable.spec($0).property == $0 })
  }

  @Test("the translator refuses set, add and cycle exactly where the table has no write, add or cycle")
  func translatorFollowsTheTable() {
    let translator = MPVCommandTranslator()
    for spec in MPVPropertyTable.all {
      let set = translator.translate(#"{"command": ["set_property", "\#(spec.name)", "x"]}"#).command
      #expect((set == .failure(MPVRequestError(.propertyAccess))) == (spec.write == nil), "\(spec.name)")
      let add = translator.translate(#"{"command": ["add", "\#(spec.name)", 1]}"#).command
      #expect((add == .success(.add(spec.property, 1))) == (spec.add != nil), "\(spec.name)")
      let cycle = translator.translate(#"{"command": ["cycle", "\#(spec.name)"]}"#).command
      #expect((cycle == .success(.cycle(spec.property))) == (spec.cycle != nil), "\(spec.name)")
    }
  }

  @Test("every property of mpv 0.35's is in the docs' table once: served, or with the reason it is not")
  func everyMPVPropertyIsInTheDocs() {
    // Given mpv's list and the names vpk serves
    let served = Set(MPVProperty.allCases.map(\.rawValue))
    let mpvNames = MPVPropertyCatalog.mpvNames
    // Then every name vpk lists is one of mpv's, and mpv names each once
    #expect(MPVProperty.listed.allSatisfy { mpvNames.contains($0.rawValue) })
    #expect(Set(mpvNames).count == mpvNames.count)
    // And every name it does not serve has a reason
    #expect(mpvNames.filter { !served.contains($0) && MPVPropertyCatalog.reason($0) == nil } == [])
    // And the docs' block names each of mpv's properties exactly once: a served row's first cell, or in the list of
    // the reason it is not served
    var named: [String] = []
    for row in MPVPropertyTable.docsBlock.split(separator: "\n") where row.hasPrefix("| ") {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let listed = cells.count == 2 ? cells[1] : cells[0]
      named += listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("`") }.map { String($0.dropFirst().dropLast()) }
    }
    #expect(named.sorted() == (mpvNames + ["filename/no-ext"]).sorted())
  }
}

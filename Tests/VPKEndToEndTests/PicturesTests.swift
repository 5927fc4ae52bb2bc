// Failures you can look at, through the built `vpk`: `snapshot` writes the frame on screen as the PNG ffmpeg writes
// for it (decoded pixels equal), a failed `expect frame.*` in `vpk test` leaves a PNG named in the summary and attached
// in the JUnit report, and `vpk thumbnails` makes a contact sheet whose tiles are ffmpeg's exact frames.

import Foundation
import Testing
import VPKTestSupport

/// A temporary folder, removed at the end.
private struct TemporaryFolder {
  let url: URL

  init(_ name: String) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite struct SnapshotTests {
  /// An 8-bit 4:2:0 clip (a PNG of rgb24), a full-range 4:4:4 one tagged BT.709 (colour matrix and range both count),
  /// and a 10-bit one (a PNG of rgb48be).
  @Test(arguments: [TestClip.h264BFrames, .h264FullRange444, .h264TenBit])
  func snapshotIsFFmpegsPNGOfTheFrameOnScreen(clip: TestClip) throws {
    // Given a clip, ffmpeg's frames, and a folder for the pictures
    let url = try TestMedia.url(for: clip)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let folder = try TemporaryFolder("snapshot")
    defer { folder.remove() }
    let target = 1.3
    let expected = reference.entry(containing: target)
    let index = try #require(reference.firstIndex(of: expected))
    // When vpk scrubs there, reports the frame and writes a snapshot of it
    let shot = folder.file("vpk.png")
    let result = try session(url, ["scrub \(target)", "frame", "snapshot \(shot.path)", "quit"])
    #expect(result.status == 0, "\(result.stderr)")
    let snapshot = try #require(result.event("snapshot", id: 3), "\(result.stdout)")
    // Then the event names the file, its size and the frame: the MD5 is `frame`'s, and ffmpeg's framemd5 there
    #expect(snapshot.fields["path"] == shot.path)
    #expect(snapshot.fields["md5"] == result.event("frame", id: 2)?.fields["md5"])
    #expect(snapshot.fields["md5"] == expected.hash)
    #expect(snapshot.fields["pts"] == String(expected.pts))
    let written = try Pictures.size(of: shot)
    #expect(snapshot.number("width") == Double(written.width) && snapshot.number("height") == Double(written.height))
    #expect(snapshot.fields["format"] == written.pixelFormat)
    // And the PNG holds the pixels of ffmpeg's own PNG of that frame, in the same pixel format
    let ffmpegShot = folder.file("ffmpeg.png")
    try Pictures.ffmpegPNG(of: url, frameIndex: index, to: ffmpegShot)
    #expect(try Pictures.size(of: ffmpegShot).pixelFormat == written.pixelFormat)
    let mine = try Pictures.rgb(of: shot)
    let theirs = try Pictures.rgb(of: ffmpegShot)
    #expect(mine.width == theirs.width && mine.height == theirs.height)
    #expect(mine.bytes == theirs.bytes, "\(clip): \(mine.difference(from: theirs)) bytes differ")
  }

  @Test func defaultNamesFoldersJSONAndErrors() throws {
    // Given a clip and a folder
    let url = try TestMedia.url(for: .h264BFrames)
    let folder = try TemporaryFolder("snapshot-names")
    defer { folder.remove() }
    let stem = url.deletingPathExtension().lastPathComponent
    // When snapshots go to a folder (the default name), to a name with spaces by JSON, to a folder that does not
    // exist, and to a folder in place of a file
    let result = try session(
      url,
      [
        "scrub 2.5", "snapshot \(folder.url.path)/",
        #"{"command":"snapshot","args":[\#(JSONValue.string(folder.file("a b.png").path))],"id":"j"}"#,
        "snapshot \(folder.url.path)/missing/x.png", "snapshot \(folder.url.path)", "status", "quit",
      ])
    // Then the default name is the file's and the position; the others are clear errors and the session goes on
    #expect(result.status == 0, "\(result.stderr)")
    let named = folder.file("\(stem)-2.500.png")
    #expect(result.event("snapshot", id: 2)?.fields["path"] == named.path, "\(result.stdout)")
    #expect(FileManager.default.fileExists(atPath: named.path))
    #expect(FileManager.default.fileExists(atPath: folder.file("a b.png").path))
    let missing = try #require(result.event("error", id: 4), "\(result.stdout)")
    #expect(missing.fields["code"] == "cannot_write")
    #expect(missing.fields["message"]?.contains("make the folder first") == true, "\(missing.fields)")
    #expect(result.event("error", id: 5)?.fields["code"] == "cannot_write")
    #expect(result.event("status", id: 6) != nil)
  }

  @Test func audioOnlyMediaHasNoSnapshot() throws {
    let url = try TestMedia.url(for: .audioOnly)
    let result = try session(url, ["snapshot /tmp/never-written-\(UUID().uuidString).png", "quit"])
    let error = try #require(result.event("error", id: 1), "\(result.stdout)")
    #expect(error.fields["code"] == "unavailable")
    #expect(error.fields["message"]?.contains("no video stream") == true)
  }
}

@Suite struct FailurePictureTests {
  /// Runs a script whose line 3 checks the frame's MD5 against a wrong value, and returns where its picture should be.
  private func failingScript(in folder: ScriptFolder) throws -> String {
    try folder.write(
      "shot.vpk", ["open clip.mp4", "scrub 1.5", "expect frame.md5 == 00000000000000000000000000000000", "quit"])
  }

  @Test func aFailedFrameCheckLeavesAPictureBesideTheTranscriptAndInTheJUnitReport() throws {
    // Given a script whose frame check fails
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = try failingScript(in: folder)
    let transcripts = folder.path("out")
    let report = folder.url.appendingPathComponent("report & <junit>.xml")
    // When vpk test runs it with transcripts and a JUnit report
    let result = try VPKProcess.run(["test", script, "--transcript", transcripts, "--junit", report.path])
    #expect(result.status == 1)
    // Then the frame on screen is saved beside the transcript, named for the line, and the failure names it
    let stem = String(script.replacingOccurrences(of: "/", with: "__"))
    let picture = "\(transcripts)/\(stem).line3.png"
    #expect(FileManager.default.fileExists(atPath: picture), "\(result.stdout)")
    #expect(FileManager.default.fileExists(atPath: "\(transcripts)/\(stem).txt"))
    #expect(result.stdout.contains("\(script):3: expect frame.md5"), "\(result.stdout)")
    #expect(result.stdout.contains("frame on screen saved as \(picture)"), "\(result.stdout)")
    // And the picture is ffmpeg's frame at 1.5 s
    let clip = URL(fileURLWithPath: folder.path("clip.mp4"))
    let reference = try FrameMD5.entries(of: clip, streamTimeBase: true)
    let index = try #require(reference.firstIndex(of: reference.entry(containing: 1.5)))
    let ffmpegShot = folder.url.appendingPathComponent("ffmpeg.png")
    try Pictures.ffmpegPNG(of: clip, frameIndex: index, to: ffmpegShot)
    #expect(try Pictures.rgb(of: URL(fileURLWithPath: picture)) == Pictures.rgb(of: ffmpegShot))
    // And the JUnit report, which Python's xml.etree parses, attaches it in the test case's <system-out>
    let systemOut = try Pictures.junitSystemOut(report)
    let out = try #require(systemOut[script], "\(systemOut.keys)")
    #expect(out.split(separator: "\n").first == "[[ATTACHMENT|\(picture)]]", "\(out)")
    #expect(out.contains("expect #3"), "the transcript follows")
  }

  @Test func withoutATranscriptFolderThePictureGoesBesideTheScript() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = try failingScript(in: folder)
    let result = try VPKProcess.run(["test", script, "--json"])
    #expect(result.status == 1)
    let picture = folder.path("shot.vpk.line3.png")
    #expect(FileManager.default.fileExists(atPath: picture))
    // The JSON report names it too.
    #expect(result.stdout.contains(#""picture":"\#(picture)""#), "\(result.stdout)")
  }

  @Test func passingFrameChecksAndOtherFailuresLeaveNoPicture() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = try folder.write(
      "other.vpk", ["open clip.mp4", "scrub 1", "expect frame.key == false", "expect state == ended", "quit"])
    let result = try VPKProcess.run(["test", script])
    #expect(result.status == 1, "\(result.stdout)")
    let pictures = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".png") }
    #expect(pictures.isEmpty)
  }
}

@Suite struct ThumbnailsTests {
  /// The lines `vpk thumbnails` prints: `sheet …` and one `tile #N …` per tile.
  private func fields(_ line: String) -> [String: String] {
    var fields: [String: String] = [:]
    for token in line.split(separator: " ") {
      let parts = token.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    return fields
  }

  @Test(arguments: [320, 160])
  func sheetTilesAreTheExactFramesWithTheirTimesBelow(tileWidth: Int) throws {
    // Given a 320x240 10 s clip and ffmpeg's frames
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    let folder = try TemporaryFolder("sheet")
    defer { folder.remove() }
    let sheet = folder.file("sheet.png")
    // When vpk makes a 3x2 sheet
    let result = try VPKProcess.run(
      ["thumbnails", url.path, "--grid", "3x2", "--tile-width", String(tileWidth), "-o", sheet.path], timeout: 60)
    #expect(result.status == 0, "\(result.stderr)")
    let header = fields(try #require(result.stdoutLines.first))
    let tiles = result.stdoutLines.dropFirst().map(fields)
    #expect(tiles.count == 6)
    // Then the PNG has the size it says, tiles as wide as asked and as high as the picture's aspect makes them
    let tileHeight = tileWidth * 3 / 4
    #expect(header["tile_width"] == String(tileWidth) && header["tile_height"] == String(tileHeight))
    let size = try Pictures.size(of: sheet)
    #expect(String(size.width) == header["width"] && String(size.height) == header["height"])
    #expect(size.width == 8 + 3 * (tileWidth + 8))
    // And the tiles are spread evenly, each the exact frame at its target, as ffmpeg decodes and scales it
    let picture = try Pictures.rgb(of: sheet)
    for (index, tile) in tiles.enumerated() {
      // (the printed target is rounded to the millisecond; the tile was taken at the exact one)
      let target = 10 * (Double(index) + 0.5) / 6
      #expect(tile["target"] == String(format: "%.3f", target))
      let expected = reference.entry(containing: target)
      #expect(tile["pts"] == String(expected.pts), "tile \(index + 1)")
      guard index == 0 || index == 4 else { continue }  // two tiles' pixels are enough
      let frameIndex = try #require(reference.firstIndex(of: expected))
      let x = try #require(tile["x"].flatMap(Int.init))
      let y = try #require(tile["y"].flatMap(Int.init))
      let theirs = try Pictures.ffmpegRGB(
        of: url, frameIndex: frameIndex, scaledTo: tileWidth == 320 ? nil : (tileWidth, tileHeight))
      let mine = picture.cropped(x: x, y: y, width: tileWidth, height: tileHeight)
      #expect(mine == theirs, "tile \(index + 1): \(mine.difference(from: theirs)) bytes differ")
    }
  }

  @Test func badFilesAndOptionsAreClearErrors() throws {
    let folder = try TemporaryFolder("sheet-errors")
    defer { folder.remove() }
    let out = folder.file("x.png").path
    // A file with no video, or no known duration: status 1
    let audio = try VPKProcess.run(["thumbnails", TestMedia.url(for: .audioOnly).path, "-o", out])
    #expect(audio.status == 1)
    #expect(audio.stderr.contains("has no video stream"), "\(audio.stderr)")
    let raw = try VPKProcess.run(["thumbnails", TestMedia.url(for: .rawH264).path, "-o", out])
    #expect(raw.status == 1)
    #expect(raw.stderr.contains("does not say how long it is"), "\(raw.stderr)")
    // A file that cannot be opened: status 3
    let missing = try VPKProcess.run(["thumbnails", folder.file("missing.mp4").path, "-o", out])
    #expect(missing.status == 3)
    #expect(missing.stderr.contains("file_not_found"), "\(missing.stderr)")
    // Bad options: status 64, before anything is read
    let clip = try TestMedia.url(for: .h264BFrames).path
    for options in [["--grid", "0x3"], ["--grid", "4by4"], ["--grid", "17x1"], ["--tile-width", "10"]] {
      let bad = try VPKProcess.run(["thumbnails", clip, "-o", out] + options)
      #expect(bad.status == 64, "\(options): \(bad.stderr)")
    }
    // An output that cannot be written: status 1
    let unwritable = try VPKProcess.run(["thumbnails", clip, "-o", folder.file("no/such/folder.png").path])
    #expect(unwritable.status == 1)
    #expect(unwritable.stderr.contains("cannot_write"), "\(unwritable.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}

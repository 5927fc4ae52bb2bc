// Crafted files that try to make a player open something else: playlists, concat lists and stream descriptions
// that point at another local file or at a URL. Written at test time into a folder of their own, beside a link to a
// real clip, so the relative names inside them resolve.
import Foundation

public enum CraftedFile: String, CaseIterable, Sendable {
  /// An HLS media playlist whose one segment is a local MPEG-TS clip.
  case hlsToLocalFile
  /// The same playlist, named `.mp4`: the extension must not matter.
  case hlsNamedMP4
  /// An HLS playlist whose segment is an http URL.
  case hlsToURL
  /// An ffconcat list naming a local MP4 clip.
  case concatToLocalFile
  /// An ffconcat list naming a URL, named `.mp4`.
  case concatToURLNamedMP4
  /// A DASH manifest whose one representation is the local MP4 clip.
  case dashToLocalFile
  /// An SDP session description of an RTP stream on localhost.
  case sdpToNetwork

  /// The FFmpeg demuxer that reads it.
  public var demuxer: String {
    switch self {
    case .hlsToLocalFile, .hlsNamedMP4, .hlsToURL: "hls"
    case .concatToLocalFile, .concatToURLNamedMP4: "concat"
    case .dashToLocalFile: "dash"
    case .sdpToNetwork: "sdp"
    }
  }

  /// True when what it names is a local file (so it plays once allowed).
  public var pointsAtLocalFile: Bool {
    switch self {
    case .hlsToLocalFile, .hlsNamedMP4, .concatToLocalFile, .dashToLocalFile: true
    case .hlsToURL, .concatToURLNamedMP4, .sdpToNetwork: false
    }
  }

  var fileName: String {
    switch self {
    case .hlsToLocalFile: "list.m3u8"
    case .hlsNamedMP4: "hls.mp4"
    case .hlsToURL: "url.m3u8"
    case .concatToLocalFile: "list.ffconcat"
    case .concatToURLNamedMP4: "concat.mp4"
    case .dashToLocalFile: "manifest.mpd"
    case .sdpToNetwork: "stream.sdp"
    }
  }

  var text: String {
    let hlsHeader = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXT-X-MEDIA-SEQUENCE:0\n"
    switch self {
    case .hlsToLocalFile, .hlsNamedMP4: return hlsHeader + "#EXTINF:8.0,\nsegment.ts\n#EXT-X-ENDLIST\n"
    case .hlsToURL: return hlsHeader + "#EXTINF:8.0,\nhttp://127.0.0.1:9/segment.ts\n#EXT-X-ENDLIST\n"
    case .concatToLocalFile: return "ffconcat version 1.0\nfile clip.mp4\n"
    case .concatToURLNamedMP4: return "ffconcat version 1.0\nfile http://127.0.0.1:9/clip.mp4\n"
    case .dashToLocalFile:
      return """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" \
        type="static" mediaPresentationDuration="PT10S"><Period><AdaptationSet mimeType="video/mp4">\
        <Representation id="0" bandwidth="100000"><BaseURL>clip.mp4</BaseURL></Representation>\
        </AdaptationSet></Period></MPD>

        """
    case .sdpToNetwork:
      return "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=vpk\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
        + "m=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"
    }
  }
}

public enum CraftedMedia {
  /// Writes the crafted file (and links to the clips it names) into a fresh folder; returns its path.
  public static func url(for file: CraftedFile) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vpk-crafted-\(getpid())-\(UUID().uuidString)", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent("segment.ts"), withDestinationURL: try TestMedia.url(for: .mpegTS))
      try FileManager.default.createSymbolicLink(
        at: folder.appendingPathComponent("clip.mp4"), withDestinationURL: try TestMedia.url(for: .h264BFrames))
      let target = folder.appendingPathComponent(file.fileName)
      try Data(file.text.utf8).write(to: target)
      return target
    } catch let error as TestSupportError {
      throw error
    } catch {
      throw TestSupportError("cannot write the crafted file \(file.rawValue) in \(folder.path): \(error)")
    }
  }

  /// Removes the folder `url(for:)` made.
  public static func remove(_ url: URL) {
    try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
  }
}

extension CraftedMedia {
  /// A 2 s MPEG-4 clip in Matroska whose header says it lasts 1 s: the frames go on past the declared duration, as
  /// in a damaged file. Written fresh into a temporary folder; remove it with `remove(_:)`.
  public static func longerThanItsHeader() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vpk-crafted-\(getpid())-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let target = folder.appendingPathComponent("longer-than-its-header.mkv")
    let result = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "testsrc2=size=160x120:rate=25:duration=2", "-c:v", "mpeg4", "-g", "10", "-f", "matroska", target.path,
      ])
    guard result.status == 0 else { throw TestSupportError("ffmpeg could not make the clip: \(result.stderr)") }
    // The segment's Duration element: ID 0x4489, size 8 (0x88), a big-endian double in milliseconds (2000.0).
    var data = try Data(contentsOf: target)
    let marker = Data([0x44, 0x89, 0x88])
    guard let found = data.range(of: marker) else { throw TestSupportError("no Duration element in \(target.path)") }
    let oneSecond = withUnsafeBytes(of: Double(1000).bitPattern.bigEndian) { Data($0) }
    data.replaceSubrange(found.upperBound..<found.upperBound + 8, with: oneSecond)
    try data.write(to: target)
    return target
  }
}

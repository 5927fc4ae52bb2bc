// MediaAccess: what a media file may make vpk open besides itself. A daemon is handed files nobody
// has looked at: by default only local files are read, and the demuxers that follow references to
// other files and URLs (playlists, concat lists, session descriptions) are refused before they
// open anything.

import CFFmpeg
import VideoPlaybackKit

public struct MediaAccess: Sendable, Equatable {
  /// Network protocols (http, https, rtmp, rtp, …) and the demuxers that only read from the network (rtsp, sdp …).
  public var allowsNetwork: Bool
  /// Demuxers that open other files or URLs named inside the file: HLS and DASH playlists, ffconcat lists, IMF.
  public var allowsPlaylists: Bool

  public init(allowsNetwork: Bool = false, allowsPlaylists: Bool = false) {
    self.allowsNetwork = allowsNetwork
    self.allowsPlaylists = allowsPlaylists
  }

  /// What lifts the refusals, as the error messages name it: vpk's flags, or (`vpk mpv`, whose command line is
  /// mpv's) its environment variables.
  package var networkFlag = "--allow-network"
  package var playlistFlag = "--allow-playlists"

  /// Protocols allowed with `allowsNetwork` (besides `file`). The others (pipe, subfile, the concat protocol,
  /// data, unix sockets, …) are never allowed: vpk reads one named file.
  static let networkProtocols = [
    "http", "https", "tcp", "tls", "udp", "rtp", "srtp", "rtmp", "rtmps", "rtmpt", "rtmpts", "ffrtmphttp",
    "httpproxy", "crypto", "ftp", "mmsh", "mmst", "srt",
  ]

  /// Demuxers that open what the file names: other local files and URLs.
  static let playlistDemuxers: Set<String> = ["hls", "dash", "concat", "imf"]
  /// Demuxers whose file only describes network streams.
  static let networkDemuxers: Set<String> = ["rtsp", "rtp", "sdp", "sap"]
  /// What each refused demuxer reads, for messages.
  static let kinds = [
    "hls": "an HLS playlist", "dash": "a DASH manifest", "concat": "an ffconcat list", "imf": "an IMF composition",
    "rtsp": "an RTSP stream", "rtp": "an RTP stream", "sdp": "an SDP session description",
    "sap": "a SAP announcement",
  ]

  /// A hint for a playlist that was allowed but did not open: what it names may be refused.
  func hint(demuxer name: String) -> String {
    guard !allowsNetwork, !Set(name.split(separator: ",").map(String.init)).isDisjoint(with: Self.playlistDemuxers)
    else { return "" }
    return "; if the playlist names URLs, they need \(networkFlag)"
  }

  /// The value of FFmpeg's `protocol_whitelist` option: what any open, nested ones included, may use.
  var protocolWhitelist: String {
    (["file"] + (allowsNetwork ? Self.networkProtocols : [])).joined(separator: ",")
  }

  /// Why a URL scheme is refused, or nil when it may be opened.
  func refusal(protocol name: String, path: String) -> PlaybackError? {
    if name == "file" || (allowsNetwork && Self.networkProtocols.contains(name)) { return nil }
    if Self.networkProtocols.contains(name) {
      return PlaybackError(
        .refusedProtocol,
        "\(quoted(path)) is a \(name) URL; vpk reads only local files unless \(networkFlag) is given")
    }
    return PlaybackError(
      .refusedProtocol,
      "\(quoted(path)) uses FFmpeg's \(name): protocol, which vpk never opens; give the path of a local media file")
  }

  /// Why a demuxer (by FFmpeg's short name, which may list several: `mov,mp4,m4a`) is refused, or nil.
  func refusal(demuxer name: String, path: String) -> PlaybackError? {
    let names = Set(name.split(separator: ",").map(String.init))
    if !allowsPlaylists, let found = names.intersection(Self.playlistDemuxers).first {
      return PlaybackError(
        .refusedFormat,
        "\(quoted(path)) is \(Self.kinds[found] ?? found), which makes vpk open the other files and URLs it names; "
          + "refused unless \(playlistFlag) is given")
    }
    if !allowsNetwork, let found = names.intersection(Self.networkDemuxers).first {
      return PlaybackError(
        .refusedFormat,
        "\(quoted(path)) is \(Self.kinds[found] ?? found), which makes vpk open network streams; "
          + "refused unless \(networkFlag) is given")
    }
    return nil
  }

  /// The value of FFmpeg's `format_whitelist` option: every demuxer of this build except the refused ones. Nested
  /// demuxers (an allowed playlist's segments) inherit it.
  var formatWhitelist: String {
    var names: [String] = []
    var state: UnsafeMutableRawPointer? = nil
    while let format = av_demuxer_iterate(&state) {
      let name = String(cString: format.pointee.name)
      if refusal(demuxer: name, path: "") == nil { names.append(name) }
    }
    return names.joined(separator: ",")
  }

  /// The path as a message quotes it: the one rule for quoting input in messages (TextQuoting.excerpt), with room
  /// for a URL.
  private func quoted(_ path: String) -> String {
    TextQuoting.excerpt(path, maxCharacters: 80)
  }
}

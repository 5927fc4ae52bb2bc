// Options more than one subcommand takes, and the parsing they share.

import ArgumentParser
import VPKEngine
import VideoPlaybackKit

/// Options that decide how output looks, shared by every subcommand.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Write events as JSON lines instead of text.")
  var json = false

  @Flag(name: .long, help: "Write debug diagnostics, and FFmpeg's own warnings, to standard error.")
  var verbose = false
}

/// What a media file may make vpk open besides itself. By default only the local file named is read.
struct AccessOptions: ParsableArguments {
  @Flag(
    name: .customLong("allow-network"),
    help: "Allow network URLs (http, https, rtmp, rtp and others) and stream descriptions (sdp, rtsp).")
  var allowNetwork = false

  @Flag(
    name: .customLong("allow-playlists"),
    help: "Allow playlists that open the other files and URLs they name (HLS, DASH, ffconcat, IMF).")
  var allowPlaylists = false

  var mediaAccess: MediaAccess { MediaAccess(allowsNetwork: allowNetwork, allowsPlaylists: allowPlaylists) }
}

/// `--progress <seconds>|off`, read the same way by every subcommand that takes it.
enum ProgressOption {
  /// Media seconds between progress events, or nil for `off`.
  static func interval(_ text: String) throws -> Double? {
    if text.lowercased() == "off" { return nil }
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
      throw ValidationError("--progress takes a number of seconds above 0 (such as 1 or 0.5), or 'off'")
    }
    return seconds
  }
}

extension ClockKind: ExpressibleByArgument {}
extension EndAction: ExpressibleByArgument {}
extension SeekMode: ExpressibleByArgument {}

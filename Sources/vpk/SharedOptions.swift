// Options more than one subcommand takes, and the parsing they share.

import ArgumentParser
import Foundation
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

/// `--frame-cache SIZE`: the bytes of decoded frames the engine keeps for seeks and backward steps.
struct FrameCacheOptions: ParsableArguments {
  // Unconditional, as --progress: `--frame-cache -1` is a value to refuse with the option's own message.
  @Option(
    name: .customLong("frame-cache"), parsing: .unconditional,
    help:
      "Bytes of decoded frames kept for seeks and backward steps, with K, M or G (1024s): 256M (default), 1G; 0: off."
  )
  var frameCache: String = "256M"

  /// The largest size taken: far more than any machine this runs on has.
  static let maximum = 1 << 40

  /// The size in bytes, or a message that says what to write.
  var bytes: Int {
    get throws { try Self.bytes(of: frameCache) }
  }

  /// `text` (a size such as 256M) in bytes, or a message that says what to write.
  static func bytes(of text: String) throws -> Int {
    let usage = "--frame-cache takes a size such as 256M, 1G, 64M or 0 (off): a number of bytes with K, M or G"
    var text = text.uppercased()
    if text.hasSuffix("IB") { text.removeLast(2) } else if text.hasSuffix("B") { text.removeLast() }
    var scale = 1.0
    if let unit = text.last, let power = ["K": 1.0, "M": 2.0, "G": 3.0][String(unit)] {
      scale = pow(1024, power)
      text.removeLast()
    }
    guard let number = Double(text), number.isFinite, number >= 0, text.first?.isNumber == true else {
      throw ValidationError(usage)
    }
    let bytes = number * scale
    guard bytes <= Double(maximum) else { throw ValidationError("--frame-cache is at most 1T; \(usage)") }
    return Int(bytes)
  }
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

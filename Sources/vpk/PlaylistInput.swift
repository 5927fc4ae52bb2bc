// PlaylistInput: the files `vpk play` is given, as the session's queue. Several files play one after another; a
// folder gives its media files in natural order (`ep2` before `ep10`); `--playlist FILE` reads an m3u/m3u8 or pls list
// (`PlaylistText`) whose relative entries are relative to the list's folder. URLs in a list are kept as written:
// opening them is refused as a single URL is (unless --allow-network), and the queue skips to the next entry.

import ArgumentParser
import Foundation
import VideoPlaybackKit

enum PlaylistInput {
  /// The extensions of the files a folder gives (lower-cased).
  static let mediaExtensions: Set<String> = [
    "mp4", "m4v", "mkv", "webm", "mov", "avi", "ts", "m2ts", "mts", "mpg", "mpeg", "flv", "ogv", "ogg", "wmv",
    "3gp", "mp3", "m4a", "aac", "flac", "wav", "opus", "y4m", "nut",
  ]

  /// The entries `arguments` and `listFile` give, in order: each argument as written, a folder as its media files,
  /// then the list's entries with the titles it gives them.
  static func entries(arguments: [String], listFile: String?) throws -> [PlaylistText.Entry] {
    var entries: [PlaylistText.Entry] = []
    for argument in arguments {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
        let files = try folder(argument)
        guard !files.isEmpty else { throw ValidationError("\(argument) holds no media files (by their extension)") }
        entries += files.map { PlaylistText.Entry(path: $0) }
      } else {
        entries.append(PlaylistText.Entry(path: argument))
      }
    }
    if let listFile { entries += try list(listFile) }
    return entries
  }

  /// A folder's media files (not its subfolders'), in natural order.
  static func folder(_ path: String) throws -> [String] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      throw ValidationError("cannot read the folder \(path)")
    }
    let prefix = path.hasSuffix("/") ? path : path + "/"
    return naturalOrder(
      names.filter { !$0.hasPrefix(".") && mediaExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
    ).map { prefix + $0 }
  }

  /// Names in natural order: runs of digits compare as numbers (`ep2` before `ep10`), then as written.
  static func naturalOrder(_ names: [String]) -> [String] {
    names.sorted { a, b in
      let order = a.compare(b, options: [.numeric, .caseInsensitive])
      return order == .orderedSame ? a < b : order == .orderedAscending
    }
  }

  /// The entries of an m3u/m3u8 or pls list (see `PlaylistText`): relative paths resolved against the list's folder,
  /// URLs as written.
  static func list(_ path: String) throws -> [PlaylistText.Entry] {
    do throws(PlaylistText.Problem) {
      return try PlaylistText.entries(ofFile: path)
    } catch {
      throw ValidationError(error.message(path: path))
    }
  }
}

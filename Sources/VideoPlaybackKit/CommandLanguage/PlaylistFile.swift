// PlaylistFile: the m3u/m3u8 lists a session plays (`vpk play --playlist LIST`, mpv's `loadlist`): every line that is
// not blank or a `#` comment (`#EXTM3U`, `#EXTINF` …) names an entry; relative paths are relative to the list's folder,
// URLs stay as written (opening one is refused as a single URL is, unless the network is allowed). A list is read
// whole, up to `maxBytes`; it never names a list to read in turn.

import Foundation

package enum PlaylistFile {
  /// The largest list read (a list is text: thousands of entries fit).
  package static let maxBytes = 4 << 20

  /// Why a list cannot be read.
  package enum Failure: Error, Equatable {
    case unreadable
    case tooLarge
    case noEntries
  }

  /// The entries of the list at `path`.
  package static func entries(ofFile path: String) throws(Failure) -> [String] {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular
    else { throw .unreadable }
    guard (attributes[.size] as? Int ?? 0) <= maxBytes else { throw .tooLarge }
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
    else { throw .unreadable }
    let found = entries(text, folder: (path as NSString).deletingLastPathComponent)
    guard !found.isEmpty else { throw .noEntries }
    return found
  }

  /// The entries `text` names, relative ones resolved against `folder` (empty: as written). A line holding a control
  /// character (a NUL, an escape) names no entry.
  package static func entries(_ text: String, folder: String) -> [String] {
    var entries: [String] = []
    for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      let line = rawLine.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{FEFF}", with: "")
      guard !line.isEmpty, !line.hasPrefix("#"),
        !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else { continue }
      if line.hasPrefix("/") || line.contains("://") || folder.isEmpty {
        entries.append(line)
      } else {
        entries.append(folder + "/" + line)
      }
    }
    return entries
  }
}

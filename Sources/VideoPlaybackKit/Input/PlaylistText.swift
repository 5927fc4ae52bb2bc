// PlaylistText: the text of a playlist file as the session's queue entries. Two formats:
//
// - m3u/m3u8: every line that is not blank or a `#` comment (`#EXTM3U` …) names one file; an `#EXTINF:<seconds>,
//   <title>` line before it gives its title.
// - pls: a `[playlist]` header, then `FileN=` (the entries, in the order of N, gaps allowed), `TitleN=` (entry N's
//   title), and `NumberOfEntries`, `Version`, `LengthN`, which say nothing the `FileN` lines do not: a count that
//   differs from them is ignored, and the `FileN` lines are the list. Keys are case-insensitive; a later key replaces
//   an earlier one; other lines (comments, unknown keys) are skipped.
//
// In both, relative paths are resolved against the list's folder and URLs (`scheme://…`) kept as written, so that
// opening them is refused as a single URL is (unless network access was allowed), and the queue skips them. A line
// holding a control character (a NUL, an escape) names no entry. A list file is read whole, up to `maxBytes`, for
// `vpk play --playlist` and mpv's `loadlist`; it never names a list to read in turn.

import Foundation

/// A playlist's text, as the entries of a queue.
package enum PlaylistText {
  /// One file the list names.
  package struct Entry: Sendable, Equatable {
    /// The file: resolved against the list's folder when relative, a URL as written.
    package var path: String
    /// The title the list gives it (pls `TitleN`, m3u `#EXTINF`); nil: none.
    package var title: String?

    package init(path: String, title: String? = nil) {
      self.path = path
      self.title = title
    }
  }

  package enum Format: Sendable, Equatable {
    case m3u
    case pls
  }

  /// The largest list file read (a list is text: thousands of entries fit).
  package static let maxBytes = 4 << 20

  /// Why a list gives no queue.
  package enum Problem: Error, Sendable, Equatable {
    /// It names no file.
    case noEntries
    /// A `.pls` file whose first line that says something is not `[playlist]`.
    case noPLSHeader
    /// The file cannot be read (missing, not a regular file, no permission).
    case unreadable
    /// The file is larger than `maxBytes`.
    case tooLarge
    /// The file is not UTF-8 text.
    case notUTF8

    /// What went wrong, and what to do, for the list at `path`.
    package func message(path: String) -> String {
      switch self {
      case .noEntries: "the playlist \(path) names no files"
      case .noPLSHeader:
        "the playlist \(path) is not a pls list: it does not start with [playlist] (an m3u list is named .m3u)"
      case .unreadable: "cannot read the playlist \(path)"
      case .tooLarge: "the playlist \(path) is over \(PlaylistText.maxBytes >> 20) MiB; split it"
      case .notUTF8: "the playlist \(path) is not UTF-8 text; save it as UTF-8"
      }
    }
  }

  /// The entries of the list file at `path` (its format from its name and text), relative paths resolved against its
  /// folder.
  package static func entries(ofFile path: String) throws(Problem) -> [Entry] {
    try entries(ofFile: path, acceptsHLS: true)
  }

  private static func entries(ofFile path: String, acceptsHLS: Bool) throws(Problem) -> [Entry] {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular
    else { throw .unreadable }
    guard (attributes[.size] as? Int ?? 0) <= maxBytes else { throw .tooLarge }
    guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable }
    guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
    guard acceptsHLS || !isHLS(text) else { throw .noEntries }
    return try entries(
      text, format: format(name: path, text: text), folder: (path as NSString).deletingLastPathComponent)
  }

  /// Whether `path` names a list file by its name (`.m3u`, `.m3u8`, `.pls`, any case): an entry of the queue that does
  /// is read as a list when its turn comes (unless it is an HLS stream, `isHLS`). A URL names none.
  package static func namesList(_ path: String) -> Bool {
    guard !path.contains("://") else { return false }
    let name = path.lowercased()
    return name.hasSuffix(".m3u") || name.hasSuffix(".m3u8") || name.hasSuffix(".pls")
  }

  /// Whether `text` is an HLS playlist (it has `#EXT-X-` tags): a stream of segments, media to FFmpeg, which vpk's safe
  /// defaults refuse unless asked (`--allow-playlists`), not a list of files to play one after another.
  package static func isHLS(_ text: String) -> Bool {
    lines(text).contains { $0.hasPrefix("#EXT-X-") }
  }

  /// The entries of the list file at `path`, for a queue entry that names it (`namesList`): nil when it cannot be read,
  /// names no file, or is an HLS stream, which opens as a file instead (and is refused there unless allowed).
  package static func entriesOfListEntry(_ path: String) -> [Entry]? {
    guard let entries = try? entries(ofFile: path, acceptsHLS: false), !entries.isEmpty else { return nil }
    return entries
  }

  /// The format of the list named `name` whose text is `text`: pls for a `.pls` name or a text that starts with
  /// `[playlist]`, m3u otherwise.
  package static func format(name: String, text: String) -> Format {
    if name.lowercased().hasSuffix(".pls") { return .pls }
    return lines(text).first { !$0.isEmpty }?.lowercased() == "[playlist]" ? .pls : .m3u
  }

  /// The entries of `text` in `format`; relative paths resolved against `folder` (empty: left relative).
  package static func entries(_ text: String, format: Format, folder: String) throws(Problem) -> [Entry] {
    let entries: [Entry]
    switch format {
    case .m3u: entries = m3u(text)
    case .pls: entries = try pls(text)
    }
    guard !entries.isEmpty else { throw .noEntries }
    return entries.map { Entry(path: resolved($0.path, folder: folder), title: $0.title) }
  }

  /// An `#EXTINF:<seconds>,<title>` line gives the title of the entry that follows it.
  private static func m3u(_ text: String) -> [Entry] {
    var entries: [Entry] = []
    var title: String?
    for line in lines(text) where !line.isEmpty {
      if line.hasPrefix("#") {
        if line.uppercased().hasPrefix("#EXTINF:"), let comma = line.firstIndex(of: ",") {
          let named = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
          title = named.isEmpty ? nil : named
        }
        continue
      }
      entries.append(Entry(path: line, title: title))
      title = nil
    }
    return entries
  }

  private static func pls(_ text: String) throws(Problem) -> [Entry] {
    let lines = lines(text).filter { !$0.isEmpty }
    guard lines.first?.lowercased() == "[playlist]" else { throw .noPLSHeader }
    var files: [Int: String] = [:]
    var titles: [Int: String] = [:]
    for line in lines.dropFirst() {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if let number = number(in: key, after: "file") {
        files[number] = value.isEmpty ? nil : value
      } else if let number = number(in: key, after: "title") {
        titles[number] = value.isEmpty ? nil : value
      }
    }
    return files.sorted { $0.key < $1.key }.map { Entry(path: $0.value, title: titles[$0.key]) }
  }

  /// N of a key `<prefix>N` (N a positive decimal number), nil for any other key.
  private static func number(in key: String, after prefix: String) -> Int? {
    guard key.hasPrefix(prefix) else { return nil }
    let digits = key.dropFirst(prefix.count)
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
      let number = Int(digits), number > 0
    else { return nil }
    return number
  }

  /// A path relative to the list's folder; an absolute path, a URL, or any path of a list in the working directory as
  /// written.
  private static func resolved(_ path: String, folder: String) -> String {
    path.hasPrefix("/") || path.contains("://") || folder.isEmpty ? path : folder + "/" + path
  }

  /// The text's lines (`\n`, `\r\n` or `\r`), trimmed of spaces and tabs, without a byte order mark; a line holding
  /// a control character is left out (as blank).
  private static func lines(_ text: String) -> [String] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
      .map { $0.replacingOccurrences(of: "\u{FEFF}", with: "").trimmingCharacters(in: .whitespaces) }
      .map { line in line.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "" : line }
  }
}

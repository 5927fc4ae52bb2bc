// CommandHistory: the file that keeps the lines typed at a terminal from one session to the next.

import Foundation

/// The history file: one submitted line per line, oldest first, at most
/// `TerminalLineEditor.historyLimit` lines kept. `$XDG_STATE_HOME/vpk/history`, or
/// `~/.local/state/vpk/history` when that is not set; none when neither can be found. A file that
/// cannot be read or written only means no history: typing never fails because of it.
package struct CommandHistory: Sendable {
  package let path: String

  package init(path: String) { self.path = path }

  /// Where the history lives for this environment (nil: keep none).
  package static func path(environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/vpk/history" }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.local/state/vpk/history"
  }

  /// The lines kept, oldest first (empty when there is no file yet).
  package func load() -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    return Array(lines.suffix(TerminalLineEditor.historyLimit))
  }

  /// Keeps `lines` (the editor's whole history, oldest first), replacing the file atomically.
  package func save(_ lines: [String]) {
    let directory = (path as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let text = lines.suffix(TerminalLineEditor.historyLimit).map { $0 + "\n" }.joined()
    try? Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}

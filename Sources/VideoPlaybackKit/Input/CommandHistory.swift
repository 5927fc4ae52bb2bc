// CommandHistory: the file that keeps the lines typed at a terminal from one session to the next.

import Foundation

/// The history file: one submitted line per line, oldest first, the newest `limit` lines kept.
/// `$XDG_STATE_HOME/vpk/history`, or `~/.local/state/vpk/history` when that is not set; none when neither can be found.
/// Each line is appended as it is entered, under an exclusive lock (flock), as shells share a history file: sessions
/// running at once each add their lines and lose none of the others'. A file that cannot be read or written only
/// means no history: typing never fails because of it.
package struct CommandHistory: Sendable {
  package let path: String
  /// The newest lines kept; the file is trimmed to these (under the lock) once it holds a tenth more.
  package let limit: Int

  package init(path: String, limit: Int = TerminalLineEditor.historyLimit) {
    self.path = path
    self.limit = max(1, limit)
  }

  /// Where the history lives for this environment (nil: keep none).
  package static func path(environment: [String: String]) -> String? {
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/vpk/history" }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.local/state/vpk/history"
  }

  /// The lines kept, oldest first (empty when there is no file yet).
  package func load() -> [String] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    _ = flock(descriptor, LOCK_SH)
    return Array(Self.lines(Self.readAll(descriptor)).suffix(limit))
  }

  /// Adds `line` at the end of the file at once, and trims the file to the newest `limit` lines when it holds a tenth
  /// more; both under the lock.
  package func append(_ line: String) {
    let directory = (path as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    guard flock(descriptor, LOCK_EX) == 0 else { return }
    defer { _ = flock(descriptor, LOCK_UN) }
    guard Self.writeAll(descriptor, Array((line + "\n").utf8)) else { return }
    let lines = Self.lines(Self.readAll(descriptor))
    guard lines.count > limit + limit / 10 else { return }
    // (With O_APPEND every write goes to the end: once truncated, that is the start.)
    guard ftruncate(descriptor, 0) == 0 else { return }
    _ = Self.writeAll(descriptor, Array(lines.suffix(limit).map { $0 + "\n" }.joined().utf8))
  }

  private static func lines(_ bytes: [UInt8]) -> [String] {
    String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// The whole file, read from its start.
  private static func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var offset: off_t = 0
    while true {
      let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return bytes }
      bytes += chunk[0..<count]
      offset += off_t(count)
    }
  }

  private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    var rest = bytes[...]
    while !rest.isEmpty {
      let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      rest = rest.dropFirst(written)
    }
    return true
  }
}

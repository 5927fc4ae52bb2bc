// MPVTextCommandParser: splits a line of mpv's input.conf syntax (`no-osd seek 10 absolute; cycle pause`) into the
// words of its commands, as mpv reads a text line on its IPC socket: prefixes (`no-osd`, `osd-*`, `raw`,
// `expand-properties`, `repeatable`, `async`, `sync`) before the name, accepted and dropped; arguments unquoted, in
// "double quotes" with JSON/C escapes, in 'single quotes' or in `X custom quotes X` (taken literally); `;` between
// commands; `#` starting a comment. A line mpv cannot parse runs none of its commands.

package enum MPVTextCommandParser {
  /// mpv's command prefixes: how the command is shown or run, which vpk has no use for.
  static let prefixes: Set<String> = [
    "osd-auto", "no-osd", "osd-bar", "osd-msg", "osd-msg-bar", "raw", "expand-properties", "repeatable", "async",
    "sync",
  ]

  /// The commands of `line`, each as its name then its arguments; empty for a blank line or a comment, nil when mpv
  /// would refuse the line (a broken quote or escape, a prefix without a command).
  package static func commands(_ line: String) -> [[String]]? {
    var reader = Reader(bytes: Array(line.utf8))
    var commands: [[String]] = []
    guard let first = reader.command() else { return nil }
    guard let words = first else { return [] }
    commands.append(words)
    while reader.takeSeparator() {
      guard let next = reader.command() else { return nil }
      // A `;` with nothing after it ends the line.
      guard let words = next else { break }
      commands.append(words)
    }
    return commands
  }

  private struct Reader {
    let bytes: [UInt8]
    var index = 0
    /// Whether the command being read had a prefix (a prefix alone is refused).
    var sawPrefix = false

    /// mpv's whitespace: space, \f, \n, \r, \t, \v.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    mutating func skipBlanks() {
      while index < bytes.count, Self.isBlank(bytes[index]) { index += 1 }
    }

    /// One command's words; `.some(nil)` when there is none (the line or the part after `;` is blank or a comment);
    /// nil when it cannot be read.
    mutating func command() -> [String]?? {
      var words: [String] = []
      while true {
        guard let token = token() else { return nil }
        guard let word = token else { break }
        // Prefixes come before the name only.
        if words.isEmpty && prefixes.contains(word) {
          sawPrefix = true
          continue
        }
        words.append(word)
      }
      if words.isEmpty { return sawPrefix ? nil : .some(nil) }
      return .some(words)
    }

    /// Whether a `;` follows (taken), so another command may come.
    mutating func takeSeparator() -> Bool {
      skipBlanks()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { return false }
      index += 1
      sawPrefix = false
      return true
    }

    /// The next word; `.some(nil)` at the end of a command (the line's end, `;` or `#`); nil for a broken quote.
    mutating func token() -> String?? {
      skipBlanks()
      guard index < bytes.count else { return .some(nil) }
      switch bytes[index] {
      case UInt8(ascii: "\""): return doubleQuoted().map { .some($0) }
      case UInt8(ascii: "'"):
        index += 1
        guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "'")) else { return nil }
        defer { index = end + 1 }
        return .some(String(decoding: bytes[index..<end], as: UTF8.self))
      case UInt8(ascii: "`") where index + 1 < bytes.count:
        // `X … X`: ends at the first X followed by a back-quote.
        let quote = bytes[index + 1]
        var end = index + 2
        while end + 1 < bytes.count, !(bytes[end] == quote && bytes[end + 1] == UInt8(ascii: "`")) { end += 1 }
        guard end + 1 < bytes.count else { return nil }
        defer { index = end + 2 }
        return .some(String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
      default:
        let start = index
        while index < bytes.count, !Self.isBlank(bytes[index]), bytes[index] != UInt8(ascii: "#"),
          bytes[index] != UInt8(ascii: ";")
        {
          index += 1
        }
        guard index > start else { return .some(nil) }
        return .some(String(decoding: bytes[start..<index], as: UTF8.self))
      }
    }

    /// A "…" word with its escapes read: \" \\ \/ \' \b \f \n \r \t \e, \xHH, \uHHHH.
    mutating func doubleQuoted() -> String? {
      index += 1
      var out: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          return String(decoding: out, as: UTF8.self)
        }
        guard byte == UInt8(ascii: "\\") else {
          out.append(byte)
          index += 1
          continue
        }
        index += 1
        guard index < bytes.count else { return nil }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "'"): out.append(code)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "e"): out.append(0x1B)
        case UInt8(ascii: "x"):
          guard let value = hex(2) else { return nil }
          out.append(UInt8(value))
        case UInt8(ascii: "u"):
          guard let value = hex(4), let scalar = Unicode.Scalar(value) else { return nil }
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
        default: return nil
        }
      }
      return nil
    }

    /// `count` hex digits, read.
    mutating func hex(_ count: Int) -> UInt32? {
      guard index + count <= bytes.count,
        let value = UInt32(String(decoding: bytes[index..<(index + count)], as: UTF8.self), radix: 16)
      else { return nil }
      index += count
      return value
    }
  }
}

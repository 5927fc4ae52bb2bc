// TerminalKeys: the keys that act at once on an empty line at a terminal, as mpv's do, and the
// command line each one sends. `help` lists them and the line editor looks them up here.

/// A key that, pressed on an empty line, sends a command at once.
package struct TerminalKey: Sendable, Equatable {
  /// The key as a person presses it.
  package enum Press: Sendable, Equatable {
    /// A printable key, by its byte.
    case character(UInt8)
    /// An arrow key: the final byte of its escape sequence (`C` right, `D` left).
    case arrow(UInt8)
  }

  package let press: Press
  /// How `help` names the key.
  package let name: String
  /// The command line the key sends, as if it were typed.
  package let command: String
  /// What it does, in a few words.
  package let summary: String
}

package enum TerminalKeys {
  /// Every key, in the order `help` lists them. Letters are left for typing commands.
  package static let all: [TerminalKey] = [
    TerminalKey(press: .character(UInt8(ascii: " ")), name: "Space", command: "toggle", summary: "play or pause"),
    TerminalKey(press: .arrow(UInt8(ascii: "D")), name: "Left", command: "skip -5", summary: "back 5 seconds"),
    TerminalKey(press: .arrow(UInt8(ascii: "C")), name: "Right", command: "skip +5", summary: "forward 5 seconds"),
    TerminalKey(press: .character(UInt8(ascii: ",")), name: ",", command: "step -1", summary: "the frame before"),
    TerminalKey(press: .character(UInt8(ascii: ".")), name: ".", command: "step +1", summary: "the frame after"),
    TerminalKey(press: .character(UInt8(ascii: "[")), name: "[", command: "rate /1.1", summary: "slower (speed ÷ 1.1)"),
    TerminalKey(press: .character(UInt8(ascii: "]")), name: "]", command: "rate *1.1", summary: "faster (speed × 1.1)"),
    TerminalKey(
      press: .character(UInt8(ascii: "=")), name: "=", command: "mark",
      summary: "pin the frame on screen (in a --record script: its expect lines)"),
    TerminalKey(press: .character(UInt8(ascii: "?")), name: "?", command: "help", summary: "this list"),
  ]

  /// The key for a press, if it is one.
  package static func key(for press: TerminalKey.Press) -> TerminalKey? {
    all.first { $0.press == press }
  }

  /// One line per key, `indent` + name padded to a column + the command it sends + what it does: the end of `help`.
  package static func usageLines(indent: String = "  ") -> [String] {
    let width = all.map(\.name.count).max() ?? 0
    let commandWidth = all.map(\.command.count).max() ?? 0
    return all.map { key in
      indent + key.name + String(repeating: " ", count: width - key.name.count + 3) + key.command
        + String(repeating: " ", count: commandWidth - key.command.count + 3) + key.summary
    }
  }
}

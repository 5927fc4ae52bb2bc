// TerminalLineEditor: line editing for a person typing at a terminal, part of the view's input side.
// With the terminal's own echo and line editing off, vpk keeps the line being typed itself, so
// the status line can be redrawn in place without wiping what the person is typing; the text
// view shows the typed text after the status line.

/// What typing at the terminal produced.
public enum TypedInput: Sendable, Equatable {
  /// The line being typed changed; this is all of it so far.
  case editing(String)
  /// This line was submitted (Enter); shown when the command reader hands it on, so it comes in order.
  case submitted(String)
}

/// Turns the bytes of a terminal in non-canonical mode into lines and editing updates. Pure: it
/// owns no file, so tests feed it bytes.
///
/// Keys: printable text is added; Backspace (DEL or ^H) removes the last character; ^U clears the
/// line; ^W removes the last word; Enter (CR or LF) submits it; ^D on an empty line ends the input.
/// Escape sequences (arrow keys, function keys) are ignored. At most `maxLineBytes` bytes are kept.
public struct TerminalLineEditor: Sendable {
  public enum Output: Sendable, Equatable {
    case line(InputLine)
    case typed(TypedInput)
    case endOfInput
  }

  private enum Escape { case none, started, sequence }

  public let maxLineBytes: Int
  private var bytes: [UInt8] = []
  private var escape = Escape.none

  public init(maxLineBytes: Int = 65_536) {
    self.maxLineBytes = maxLineBytes
  }

  public mutating func feed(_ input: some Collection<UInt8>) -> [Output] {
    var outputs: [Output] = []
    var changed = false
    for byte in input {
      switch escape {
      case .started:
        escape = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .none
        continue
      case .sequence:
        if (0x40...0x7E).contains(byte) { escape = .none }
        continue
      case .none:
        break
      }
      switch byte {
      case 0x1B:
        escape = .started
      case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
        outputs.append(.line(LineSplitter.decode(bytes[...])))
        bytes.removeAll(keepingCapacity: true)
        changed = true
      case 0x7F, 0x08:
        removeLastCharacter()
        changed = true
      case 0x15:
        bytes.removeAll(keepingCapacity: true)
        changed = true
      case 0x17:
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        while let last = bytes.last, last != UInt8(ascii: " ") { bytes.removeLast() }
        changed = true
      case 0x04:
        if bytes.isEmpty {
          outputs.append(.endOfInput)
          return outputs
        }
      case UInt8(ascii: "\t"):
        append(UInt8(ascii: " "))
        changed = true
      case ..<0x20:
        continue
      default:
        append(byte)
        changed = true
      }
    }
    if changed { outputs.append(.typed(.editing(String(decoding: bytes, as: UTF8.self)))) }
    return outputs
  }

  private mutating func append(_ byte: UInt8) {
    if bytes.count < maxLineBytes { bytes.append(byte) }
  }

  /// Removes one character's bytes (a UTF-8 lead byte and its continuation bytes).
  private mutating func removeLastCharacter() {
    while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
  }
}

// TerminalLineEditor: line editing for a person typing at a terminal, part of the view's input side.
// With the terminal's own echo and line editing off, vpk keeps the line being typed itself, so
// the status line can be redrawn in place without wiping what the person is typing; the text
// view shows the typed text after the status line.
//
// Why not readline or libedit: both own the terminal line while they read (they draw the prompt and
// the text and keep their own idea of the cursor), so a status line redrawn from another thread
// between keystrokes either wipes what they drew or is wiped by them; they offer no way for another
// writer to share the line. Here the editor only computes the line and the view draws it, with the
// status line, in one write from one actor.

/// What typing at the terminal produced.
package enum TypedInput: Sendable, Equatable {
  /// The line being typed changed (or its cursor moved): the text before and after the cursor.
  case editing(before: String, after: String)
  /// This line was submitted (Enter); shown when the command reader hands it on, so it comes in order.
  case submitted(String)
  /// The input ended (^D, or the terminal went away): nothing more is read, so no prompt is shown.
  case closed
}

/// Turns the bytes of a terminal in non-canonical mode into lines and editing updates. Pure: it
/// owns no file, so tests feed it bytes.
///
/// Keys, as readline has them: printable text is inserted at the cursor; Left/Right (and ^B/^F)
/// move it a character; Home/End (and ^A/^E) to the start/end; Backspace (DEL or ^H) removes the
/// character before it, Delete (and ^D on a line that is not empty) the one under it; ^K removes
/// to the end of the line, ^U to its start, ^W the word before the cursor; Up/Down (and ^P/^N)
/// walk the history of submitted lines (the line being typed comes back after the newest); Enter
/// (CR or LF) submits the line; ^D on an empty line ends the input. Arrows, Home, End and Delete
/// are understood in both the CSI (`ESC [ D`, `ESC [ 1 ~`, `ESC [ 1;5 D` …) and SS3 (`ESC O D`)
/// forms terminals send; other escape sequences are ignored. At most `maxLineBytes` bytes are kept.
///
/// On an empty line the keys of `TerminalKeys` (Space, Left, Right, `,` `.` `[` `]` `?`) act at once,
/// as mpv's do: each is submitted as the command line it stands for, and is not kept in the history.
/// Any other key (a letter) starts a line as usual.
package struct TerminalLineEditor: Sendable {
  package enum Output: Sendable, Equatable {
    case line(InputLine)
    case typed(TypedInput)
    case endOfInput
  }

  private enum Escape: Sendable { case none, started, controlSequence([UInt8]), singleShift }

  /// How many submitted lines the history keeps (the oldest go first).
  package static let historyLimit = 1000

  package let maxLineBytes: Int
  /// The line's bytes (UTF-8 as typed) and the cursor, a byte offset on a character boundary.
  private var bytes: [UInt8] = []
  private var cursor = 0
  private var escape = Escape.none
  /// Submitted lines, oldest first.
  package private(set) var history: [String]
  /// Which history entry is shown (nil: the line being typed), and that line while one is.
  private var historyIndex: Int?
  private var draft: [UInt8] = []

  package init(maxLineBytes: Int = 65_536, history: [String] = []) {
    self.maxLineBytes = maxLineBytes
    // (A history file written before quits were left out may hold them: they are not offered either.)
    self.history = Array(history.filter { !Self.leaves($0) }.suffix(Self.historyLimit))
  }

  package mutating func feed(_ input: some Collection<UInt8>) -> [Output] {
    var outputs: [Output] = []
    var changed = false
    for byte in input {
      switch escape {
      case .started:
        if byte == UInt8(ascii: "[") {
          escape = .controlSequence([])
          continue
        }
        if byte == UInt8(ascii: "O") {
          escape = .singleShift
          continue
        }
        // Esc alone does nothing, and the key after it is read as it is (Backspace, ^U …), never swallowed.
        escape = .none
      case .controlSequence(var parameters):
        if (0x40...0x7E).contains(byte) {
          escape = .none
          if bytes.isEmpty, parameters.isEmpty, let key = TerminalKeys.key(for: .arrow(byte)) {
            outputs.append(.line(.text(key.command)))
            continue
          }
          changed = controlSequence(final: byte, parameters: parameters) || changed
        } else {
          parameters.append(byte)
          escape = parameters.count > 16 ? .none : .controlSequence(parameters)
        }
        continue
      case .singleShift:
        escape = .none
        if bytes.isEmpty, let key = TerminalKeys.key(for: .arrow(byte)) {
          outputs.append(.line(.text(key.command)))
          continue
        }
        changed = controlSequence(final: byte, parameters: []) || changed
        continue
      case .none:
        break
      }
      switch byte {
      case 0x1B:
        escape = .started
      case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
        let line = LineSplitter.decode(bytes[...])
        if case .text(let text) = line { remember(text) }
        outputs.append(.line(line))
        bytes.removeAll(keepingCapacity: true)
        cursor = 0
        historyIndex = nil
        draft = []
        changed = true
      case 0x01: changed = move(to: 0)
      case 0x05: changed = move(to: bytes.count)
      case 0x02: changed = move(to: previousBoundary(cursor))
      case 0x06: changed = move(to: nextBoundary(cursor))
      case 0x10: changed = recall(older: true) || changed
      case 0x0E: changed = recall(older: false) || changed
      case 0x7F, 0x08:
        changed = remove(previousBoundary(cursor)..<cursor) || changed
      case 0x0B:
        changed = remove(cursor..<bytes.count) || changed
      case 0x15:
        changed = remove(0..<cursor) || changed
      case 0x17:
        var start = cursor
        while start > 0 && bytes[start - 1] == UInt8(ascii: " ") { start -= 1 }
        while start > 0 && bytes[start - 1] != UInt8(ascii: " ") { start -= 1 }
        changed = remove(start..<cursor) || changed
      case 0x04:
        if bytes.isEmpty {
          outputs.append(.endOfInput)
          return outputs
        }
        changed = remove(cursor..<nextBoundary(cursor)) || changed
      case UInt8(ascii: "\t"):
        changed = insert(UInt8(ascii: " ")) || changed
      case ..<0x20:
        continue
      default:
        if bytes.isEmpty, let key = TerminalKeys.key(for: .character(byte)) {
          outputs.append(.line(.text(key.command)))
          continue
        }
        changed = insert(byte) || changed
      }
    }
    if changed { outputs.append(.typed(typed)) }
    return outputs
  }

  /// The line as the view shows it: the text before and after the cursor.
  package var typed: TypedInput {
    .editing(
      before: String(decoding: bytes[..<cursor], as: UTF8.self),
      after: String(decoding: bytes[cursor...], as: UTF8.self))
  }

  // MARK: - Keys

  /// An escape sequence's key: `final` is its last byte, `parameters` what came between.
  private mutating func controlSequence(final: UInt8, parameters: [UInt8]) -> Bool {
    switch final {
    case UInt8(ascii: "A"): return recall(older: true)
    case UInt8(ascii: "B"): return recall(older: false)
    case UInt8(ascii: "C"): return move(to: nextBoundary(cursor))
    case UInt8(ascii: "D"): return move(to: previousBoundary(cursor))
    case UInt8(ascii: "H"): return move(to: 0)
    case UInt8(ascii: "F"): return move(to: bytes.count)
    case UInt8(ascii: "~"):
      // `ESC [ n ~` (with modifiers: `ESC [ n ; m ~`): 1 and 7 Home, 4 and 8 End, 3 Delete.
      let key = parameters.split(separator: UInt8(ascii: ";")).first.map { String(decoding: $0, as: UTF8.self) }
      switch key {
      case "1", "7": return move(to: 0)
      case "4", "8": return move(to: bytes.count)
      case "3": return remove(cursor..<nextBoundary(cursor))
      default: return false
      }
    default:
      return false
    }
  }

  private mutating func move(to position: Int) -> Bool {
    guard position != cursor else { return false }
    cursor = position
    return true
  }

  private mutating func insert(_ byte: UInt8) -> Bool {
    guard bytes.count < maxLineBytes else { return false }
    bytes.insert(byte, at: cursor)
    cursor += 1
    return true
  }

  private mutating func remove(_ range: Range<Int>) -> Bool {
    guard !range.isEmpty else { return false }
    bytes.removeSubrange(range)
    cursor = range.lowerBound
    return true
  }

  /// Shows an older (or newer) history entry; after the newest comes the line being typed.
  private mutating func recall(older: Bool) -> Bool {
    let target: Int?
    if older {
      guard !history.isEmpty, historyIndex != 0 else { return false }
      target = (historyIndex ?? history.count) - 1
    } else {
      guard let index = historyIndex else { return false }
      target = index + 1 < history.count ? index + 1 : nil
    }
    if historyIndex == nil { draft = bytes }
    historyIndex = target
    bytes = target.map { Array(history[$0].utf8.prefix(maxLineBytes)) } ?? draft
    cursor = bytes.count
    return true
  }

  /// Adds a submitted line to the history, unless it is empty, repeats the newest entry, or leaves (`quit`, `exit`,
  /// `q`: kept, it would be the newest entry of the next session, and Up, Enter would leave at once).
  private mutating func remember(_ text: String) {
    guard !text.allSatisfy(\.isWhitespace), history.last != text, !Self.leaves(text) else { return }
    history.append(text)
    if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
  }

  /// Whether `text` is a command that ends the session.
  private static func leaves(_ text: String) -> Bool {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard words.count == 1, let word = words.first?.lowercased() else { return false }
    return word == "q" || CommandVerbs.named(word)?.name == "quit"
  }

  // MARK: - Characters

  /// The character boundary before `offset` (a UTF-8 lead byte; continuation bytes are skipped).
  private func previousBoundary(_ offset: Int) -> Int {
    var position = offset
    guard position > 0 else { return 0 }
    position -= 1
    while position > 0 && bytes[position] & 0xC0 == 0x80 { position -= 1 }
    return position
  }

  private func nextBoundary(_ offset: Int) -> Int {
    var position = offset
    guard position < bytes.count else { return bytes.count }
    position += 1
    while position < bytes.count && bytes[position] & 0xC0 == 0x80 { position += 1 }
    return position
  }
}

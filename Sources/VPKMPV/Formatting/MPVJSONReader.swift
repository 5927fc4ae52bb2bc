// MPVJSONReader: reads one JSON value from an mpv client's line, straight from its UTF-8 bytes into `MPVValue`.
//
// It reads what Foundation's JSONSerialization (with fragments allowed) reads, value for value, and refuses what it
// refuses: RFC 8259's grammar, plus what mpv's own parser allows besides (a trailing comma in an array or object,
// `[1,]`, and a control character such as a raw tab inside a string) and a byte order mark before the value; and, for a
// request, it reads the line's first value and ignores what follows, as mpv does. It
// exists because a request is read on the control socket's thread right as it arrives, and most of a `seek`'s reply
// time went into JSONSerialization: its objects, bridged numbers and dynamic casts cost 15–20 µs per line, and
// 60–100 µs on a thread woken right after the decoder has filled the caches, where this reader's few loops over the
// bytes cost a few. The test suite checks it against JSONSerialization on the same texts (with the control
// characters inside strings escaped first).

/// A reader over the bytes of one line; `read` gives the value, or nil when the text is not one JSON value.
struct MPVJSONReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maxDepth: Int
  private var index = 0
  private var depth = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// What follows the value on the line.
  enum TextAfter {
    /// Blanks only, else the line is not JSON (RFC 8259, and JSONSerialization).
    case refused
    /// Anything, unread: mpv's parser reads the first value of a line and ignores the rest (`{…}xyz`, `{…} {…}`).
    case ignored
  }

  /// The JSON value of `text` (blanks before it allowed, and after it as `after` says); nil when it is not JSON or
  /// nests deeper than `maxDepth` arrays and objects.
  static func read(_ text: String, maxDepth: Int, after: TextAfter = .refused) -> MPVValue? {
    var text = text
    return text.withUTF8 { bytes in
      var reader = MPVJSONReader(bytes, maxDepth: maxDepth)
      return reader.readDocument(after: after)
    }
  }

  private mutating func readDocument(after: TextAfter) -> MPVValue? {
    // A byte order mark (U+FEFF) before the value.
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    skipBlanks()
    guard let value = readValue() else { return nil }
    if after == .ignored { return value }
    skipBlanks()
    return index == bytes.count ? value : nil
  }

  // MARK: - Values

  private mutating func readValue() -> MPVValue? {
    guard index < bytes.count else { return nil }
    switch bytes[index] {
    case UInt8(ascii: "{"): return readObject()
    case UInt8(ascii: "["): return readArray()
    case UInt8(ascii: "\""): return readString().map { .string($0) }
    case UInt8(ascii: "t"): return readWord("true", .bool(true))
    case UInt8(ascii: "f"): return readWord("false", .bool(false))
    case UInt8(ascii: "n"): return readWord("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return readNumber()
    default: return nil
    }
  }

  private mutating func readObject() -> MPVValue? {
    guard enter() else { return nil }
    var members: [String: MPVValue] = [:]
    skipBlanks()
    while !take(UInt8(ascii: "}")) {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = readString() else { return nil }
      skipBlanks()
      guard take(UInt8(ascii: ":")) else { return nil }
      skipBlanks()
      // Of a key given twice the last is kept.
      guard let value = readValue() else { return nil }
      members[key] = value
      skipBlanks()
      // A comma, then another member or (a trailing comma) the end; or the end.
      if take(UInt8(ascii: ",")) {
        skipBlanks()
      } else {
        guard take(UInt8(ascii: "}")) else { return nil }
        break
      }
    }
    depth -= 1
    return .object(members.map { MPVMember($0.key, $0.value) }.sorted { $0.key < $1.key })
  }

  private mutating func readArray() -> MPVValue? {
    guard enter() else { return nil }
    var values: [MPVValue] = []
    skipBlanks()
    while !take(UInt8(ascii: "]")) {
      guard let value = readValue() else { return nil }
      values.append(value)
      skipBlanks()
      if take(UInt8(ascii: ",")) {
        skipBlanks()
      } else {
        guard take(UInt8(ascii: "]")) else { return nil }
        break
      }
    }
    depth -= 1
    return .array(values)
  }

  /// One level deeper; false past `maxDepth`. Steps over the opening bracket.
  private mutating func enter() -> Bool {
    depth += 1
    index += 1
    return depth <= maxDepth
  }

  private mutating func readWord(_ word: StaticString, _ value: MPVValue) -> MPVValue? {
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count else { return nil }
    for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
    index += count
    return value
  }

  // MARK: - Strings

  /// The string whose opening quote is at `index`: its bytes copied up to each escape, which is decoded (a control
  /// character is taken as it is, as mpv takes it); a broken escape or a lone surrogate makes it nothing.
  private mutating func readString() -> String? {
    index += 1
    var start = index
    var decoded: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let string: String
        if decoded.isEmpty {
          string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        } else {
          decoded.append(contentsOf: bytes[start..<index])
          string = String(decoding: decoded, as: UTF8.self)
        }
        index += 1
        return string
      }
      if byte == UInt8(ascii: "\\") {
        decoded.append(contentsOf: bytes[start..<index])
        index += 1
        guard readEscape(into: &decoded) else { return nil }
        start = index
        continue
      }
      index += 1
    }
    return nil
  }

  /// The escape after a backslash (at `index`), appended to `decoded` as UTF-8.
  private mutating func readEscape(into decoded: inout [UInt8]) -> Bool {
    guard index < bytes.count else { return false }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
    case UInt8(ascii: "b"): decoded.append(0x08)
    case UInt8(ascii: "f"): decoded.append(0x0C)
    case UInt8(ascii: "n"): decoded.append(0x0A)
    case UInt8(ascii: "r"): decoded.append(0x0D)
    case UInt8(ascii: "t"): decoded.append(0x09)
    case UInt8(ascii: "u"):
      guard let unit = readHex4() else { return false }
      var scalarValue = UInt32(unit)
      if (0xD800...0xDBFF).contains(unit) {
        // A high surrogate must be followed by an escaped low one.
        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
        else { return false }
        index += 2
        guard let low = readHex4(), (0xDC00...0xDFFF).contains(low) else { return false }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(unit) {
        return false
      }
      guard let scalar = Unicode.Scalar(scalarValue) else { return false }
      decoded.append(contentsOf: UTF8.encode(scalar)!)
    default: return false
    }
    return true
  }

  private mutating func readHex4() -> UInt16? {
    guard bytes.count - index >= 4 else { return nil }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  // MARK: - Numbers

  /// A number as RFC 8259 writes it. A whole one that fits `Int` is an integer (`5`, `-0`, `1.0`, `1e2`); others are
  /// the nearest double to their digits; one too large for a double is nothing.
  private mutating func readNumber() -> MPVValue? {
    let start = index
    var isPlainInteger = true
    _ = take(UInt8(ascii: "-"))
    // The integer part: 0, or a digit 1–9 and more digits.
    guard index < bytes.count, isDigit(bytes[index]) else { return nil }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if take(UInt8(ascii: ".")) {
      isPlainInteger = false
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      skipDigits()
    }
    if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
      isPlainInteger = false
      if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
      guard index < bytes.count, isDigit(bytes[index]) else { return nil }
      skipDigits()
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    if isPlainInteger, let whole = Int(text) { return .integer(whole) }
    guard let value = Double(text), value.isFinite else { return nil }
    // -2^63 ..< 2^63: what `Int` holds (a double at 2^63 or past it would not fit).
    if value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0, let whole = Int(exactly: value) {
      return .integer(whole)
    }
    return .number(value)
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
  }

  // MARK: - Bytes

  /// JSON's blanks: space, tab, line feed, carriage return.
  private mutating func skipBlanks() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Steps over `byte` when it is next.
  private mutating func take(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }
}

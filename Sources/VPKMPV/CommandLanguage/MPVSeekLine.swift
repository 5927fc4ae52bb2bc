// MPVSeekLine: recognises the request mpv clients time most, a JSON `seek`, from the line's bytes alone, so the
// socket can answer it at once while touching little memory. A client measures a seek's reply just after the
// seek before it was decoded, which leaves the caches cold: reading the line with the JSON reader and building the
// reply as a value then costs ten times what it costs warm (about 40 µs against 4).
//
// It reads a strict subset of what MPVCommandTranslator reads: an object with exactly the members `command` and
// `request_id` (either order), `command` being `["seek", <number>]` or `["seek", <number>, "<flags>"]` with plain
// digits for the number (no exponent), flags from mpv's seek flags joined by `+`, and a `request_id` of digits;
// no escapes, spaces and tabs anywhere JSON allows blanks but inside the flags' quotes. Anything else is declined and takes the translator's way. A line
// it recognises is one the translator reads as a seek answered `success`, with the same reply (tested).

package enum MPVSeekLine {
  /// The `request_id` of `line` when it is a seek of the form above; nil for any other line.
  package static func requestID(of line: String) -> Int? {
    var line = line
    return line.withUTF8 { bytes in
      var reader = Reader(bytes: bytes)
      return reader.seekRequestID()
    }
  }

  /// The reply to a seek with a file loaded, as the mpv presenter gives it: `MPVValue.reply(.integer(id), .success,
  /// data: .null)` as a line.
  package static func reply(requestID: Int) -> String {
    "{\"data\":null,\"request_id\":\(requestID),\"error\":\"success\"}\n"
  }

  /// mpv's seek flags, which `+` joins: the first four name the reference, the others the precision.
  private static let flags: [StaticString] = [
    "absolute-percent", "relative-percent", "absolute", "relative", "exact", "keyframes", "default-precise",
  ]
  private static let referenceFlags = 4

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    mutating func seekRequestID() -> Int? {
      skipBlanks()
      guard take("{") else { return nil }
      var requestID: Int?
      var sawCommand = false
      for member in 0..<2 {
        if member == 1 { guard take(",") else { return nil } }
        if take("\"command\"") {
          guard !sawCommand, take(":"), seekCommand() else { return nil }
          sawCommand = true
        } else if take("\"request_id\"") {
          guard requestID == nil, take(":"), let id = integer() else { return nil }
          requestID = id
        } else {
          return nil
        }
      }
      guard take("}"), index == bytes.count else { return nil }
      return requestID
    }

    /// `["seek", <number>]` or `["seek", <number>, "<flags>"]`.
    private mutating func seekCommand() -> Bool {
      guard take("["), take("\"seek\""), take(","), number() else { return false }
      if take(",") {
        guard flagList() else { return false }
      }
      return take("]")
    }

    /// `-?(0|[1-9][0-9]{0,14})(\.[0-9]{1,17})?`: always finite.
    private mutating func number() -> Bool {
      if peek == UInt8(ascii: "-") { index += 1 }
      guard let first = peek, isDigit(first) else { return false }
      index += 1
      if first != UInt8(ascii: "0") {
        var count = 1
        while let digit = peek, isDigit(digit) {
          count += 1
          guard count <= 15 else { return false }
          index += 1
        }
      }
      if peek == UInt8(ascii: ".") {
        index += 1
        var count = 0
        while let digit = peek, isDigit(digit) {
          count += 1
          guard count <= 17 else { return false }
          index += 1
        }
        guard count > 0 else { return false }
      }
      guard let next = peek, !isDigit(next), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") else {
        return false
      }
      return true
    }

    /// `"flag(+flag)*"`, each flag one of mpv's and at most one of each group (mpv refuses `exact+exact`), nothing
    /// else inside the quotes.
    private mutating func flagList() -> Bool {
      guard takeExactly("\"") else { return false }
      var referenced = false
      var precise = false
      repeat {
        guard let flag = MPVSeekLine.flags.firstIndex(where: { takeExactly($0) }) else { return false }
        if flag < MPVSeekLine.referenceFlags {
          guard !referenced else { return false }
          referenced = true
        } else {
          guard !precise else { return false }
          precise = true
        }
      } while takeExactly("+")
      return takeExactly("\"")
    }

    /// `0|[1-9][0-9]{0,14}`, blanks before it skipped.
    private mutating func integer() -> Int? {
      skipBlanks()
      guard let first = peek, isDigit(first) else { return nil }
      var value = 0
      var count = 0
      while let digit = peek, isDigit(digit) {
        guard count < 15, !(count == 1 && value == 0) else { return nil }
        value = value * 10 + Int(digit - UInt8(ascii: "0"))
        count += 1
        index += 1
      }
      return value
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Spaces and tabs: blanks both JSON and the translator's trimming of a line's ends take as such (JSON's `\r` and
    /// `\n` are declined: the translator does not trim them from a line's ends).
    private mutating func skipBlanks() {
      while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
    }

    /// `text` after any blanks, and the blanks after it; false (nothing taken but the blanks before) otherwise.
    private mutating func take(_ text: StaticString) -> Bool {
      skipBlanks()
      guard takeExactly(text) else { return false }
      skipBlanks()
      return true
    }

    /// `text` here, byte for byte.
    private mutating func takeExactly(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.count - index >= count else { return false }
      for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
      index += count
      return true
    }
  }
}

// MPVJSON: the JSON values of mpv's IPC dialect (what a client sends and what vpk answers), read by `MPVJSONReader`
// and written by hand so an object's keys keep the order the presenter gave them.

import VideoPlaybackKit

/// One JSON value of mpv's IPC protocol.
package enum MPVValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  indirect case array([MPVValue])
  /// An object, its members in order.
  indirect case object([MPVMember])

  /// The value as a number, when it is one (integer or not).
  package var number: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The value as an integer, when it is a whole number.
  package var integer: Int? {
    switch self {
    case .integer(let value): value
    case .number(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
    default: nil
    }
  }

  /// The string, when the value is one.
  package var string: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The member `key` of an object (nil when absent, or not an object).
  package subscript(key: String) -> MPVValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The value written as one line of JSON.
  package var json: String {
    var out = ""
    out.reserveCapacity(80)
    write(to: &out)
    return out
  }

  /// Appends the value's JSON to `out` (one buffer for a whole message: an observer's change goes to every client at
  /// every progress mark).
  func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .integer(let value): out += String(value)
    case .number(let value): out += JSONLinesView.encode(value)
    case .string(let value): Self.write(value, to: &out)
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += "," }
        value.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        Self.write(member.key, to: &out)
        out += ":"
        member.value.write(to: &out)
      }
      out += "}"
    }
  }

  /// A JSON string: as it is when it is plain printable ASCII with no quote or backslash (property names, most paths),
  /// else escaped as JSONLinesView escapes.
  private static func write(_ string: String, to out: inout String) {
    let plain = string.utf8.allSatisfy {
      $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
    }
    if plain {
      out += "\""
      out += string
      out += "\""
    } else {
      out += JSONLinesView.encode(string)
    }
  }

  /// The JSON value at the start of `text`, as mpv reads a request line; nil when it is not JSON, or nests deeper than
  /// `maxDepth`. Read by `MPVJSONReader`, which reads what Foundation's JSONSerialization reads, and what mpv's parser
  /// takes besides (a trailing comma, a control character inside a string, any text after the value, unread): keys
  /// sorted, of a key given twice the last kept, a whole number (`5`, `1.0`, `1e2`) an integer when it fits in `Int`.
  package static func parse(_ text: String, maxDepth: Int) -> MPVValue? {
    MPVJSONReader.read(text, maxDepth: maxDepth, after: .ignored)
  }
}

/// A member of a JSON object.
package struct MPVMember: Sendable, Equatable {
  package var key: String
  package var value: MPVValue

  package init(_ key: String, _ value: MPVValue) {
    self.key = key
    self.value = value
  }
}

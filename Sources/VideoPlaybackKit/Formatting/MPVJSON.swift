// MPVJSON: the JSON values of mpv's IPC dialect (what a client sends and what vpk answers), read with Foundation's
// JSONSerialization and written by hand so an object's keys keep the order the presenter gave them.

import Foundation

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

  /// The JSON value in `text`; nil when it is not JSON, or nests deeper than `maxDepth`. Read with Foundation's
  /// JSONSerialization (about four times faster here than JSONDecoder through `Decodable`, whose type probing throws
  /// an error for every guess that fails: a `get_property` request cost 8 µs that way, 2 µs this way). Keys are
  /// sorted; of a key given twice the last is kept. A whole number (`5`, `1.0`, `1e2`) is an integer when it fits in
  /// `Int`, as `Decodable` read it.
  package static func parse(_ text: String, maxDepth: Int) -> MPVValue? {
    guard CommandParser.jsonDepth(text) <= maxDepth,
      let any = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
    else { return nil }
    return MPVValue(foundation: any)
  }

  /// The value of what JSONSerialization read; the casts go from the likeliest (objects and arrays of requests).
  private init?(foundation any: Any) {
    if let object = any as? [String: Any] {
      var members: [MPVMember] = []
      members.reserveCapacity(object.count)
      for (key, element) in object {
        guard let value = MPVValue(foundation: element) else { return nil }
        members.append(MPVMember(key, value))
      }
      members.sort { $0.key < $1.key }
      self = .object(members)
    } else if let array = any as? [Any] {
      var values: [MPVValue] = []
      values.reserveCapacity(array.count)
      for element in array {
        guard let value = MPVValue(foundation: element) else { return nil }
        values.append(value)
      }
      self = .array(values)
    } else if let string = any as? String {
      self = .string(string)
    } else if let number = any as? NSNumber {
      // JSONSerialization's own kinds: "c" for true and false, "d" for numbers with a point or exponent and those too
      // large for Int64 (then an NSDecimalNumber), "Q" for those between Int64 and UInt64; the rest are integers.
      switch UInt8(bitPattern: number.objCType.pointee) {
      case UInt8(ascii: "c"): self = .bool(number.boolValue)
      case UInt8(ascii: "d"), UInt8(ascii: "Q"):
        // A number with more digits than a double holds comes as an NSDecimalNumber, whose `doubleValue` is not the
        // nearest double (the fuzzer found 36 ones read back as another value); its digits are.
        let decimal = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) }
        let value = decimal ?? number.doubleValue
        // -2^63 ..< 2^63: what `Int` holds (a double at 2^63 or past it would not fit).
        if value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0, let whole = Int(exactly: value) {
          self = .integer(whole)
        } else {
          self = .number(value)
        }
      default: self = .integer(number.intValue)
      }
    } else if any is NSNull {
      self = .null
    } else {
      return nil
    }
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

// MPVJSON: the JSON values of mpv's IPC dialect (what a client sends and what vpk answers), read with JSONDecoder and
// written by hand so an object's keys keep the order the presenter gave them.

import Foundation

/// One JSON value of mpv's IPC protocol.
public enum MPVValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  indirect case array([MPVValue])
  /// An object, its members in order.
  indirect case object([MPVMember])

  /// The value as a number, when it is one (integer or not).
  public var number: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .number(let value): value
    default: nil
    }
  }

  /// The value as an integer, when it is a whole number.
  public var integer: Int? {
    switch self {
    case .integer(let value): value
    case .number(let value) where value.rounded() == value && abs(value) < 1e15: Int(value)
    default: nil
    }
  }

  /// The string, when the value is one.
  public var string: String? {
    if case .string(let value) = self { value } else { nil }
  }

  /// The member `key` of an object (nil when absent, or not an object).
  public subscript(key: String) -> MPVValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The value written as one line of JSON.
  public var json: String {
    switch self {
    case .null: "null"
    case .bool(let value): value ? "true" : "false"
    case .integer(let value): String(value)
    case .number(let value): JSONLinesView.encode(value)
    case .string(let value): JSONLinesView.encode(value)
    case .array(let values): "[" + values.map(\.json).joined(separator: ",") + "]"
    case .object(let members):
      "{" + members.map { JSONLinesView.encode($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
    }
  }

  /// The JSON value in `text`; nil when it is not JSON, or nests deeper than `maxDepth`.
  public static func parse(_ text: String, maxDepth: Int) -> MPVValue? {
    guard CommandParser.jsonDepth(text) <= maxDepth, let data = text.data(using: .utf8) else { return nil }
    return try? JSONDecoder().decode(MPVValue.self, from: data)
  }
}

/// A member of a JSON object.
public struct MPVMember: Sendable, Equatable {
  public var key: String
  public var value: MPVValue

  public init(_ key: String, _ value: MPVValue) {
    self.key = key
    self.value = value
  }
}

extension MPVValue: Decodable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  public init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: Key.self) {
      // Key order is lost here; nothing vpk reads depends on it.
      self = .object(
        try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map {
          MPVMember($0.stringValue, try object.decode(MPVValue.self, forKey: $0))
        })
      return
    }
    if var array = try? decoder.unkeyedContainer() {
      var values: [MPVValue] = []
      while !array.isAtEnd { values.append(try array.decode(MPVValue.self)) }
      self = .array(values)
      return
    }
    let single = try decoder.singleValueContainer()
    if single.decodeNil() {
      self = .null
    } else if let value = try? single.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? single.decode(Int.self) {
      self = .integer(value)
    } else if let value = try? single.decode(Double.self) {
      self = .number(value)
    } else {
      self = .string(try single.decode(String.self))
    }
  }
}

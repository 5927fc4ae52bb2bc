// A small JSON parser and JSON Schema validator for the tests of vpk's --json output.
//
// The parser keeps each number's text, so an integer (`2`) and a number written with a point (`2.0`) stay
// different: vpk writes integers without a point, and the schema says which fields are integers.
//
// The validator knows exactly the keywords schema/*.schema.json use (type, const, enum, properties, required,
// additionalProperties: false, items, oneOf, minimum, $ref to #/$defs/…, and the annotations $schema, title,
// description, $comment, $defs). Any other keyword throws when the schema is loaded, so the schema cannot grow a
// rule this validator would silently ignore. One deliberate difference from JSON Schema 2020-12: `integer` matches
// only numbers written without a fraction or exponent (the spec would also accept `2.0`).

import Foundation

/// A JSON value as written.
public indirect enum JSONValue: Sendable, Equatable, CustomStringConvertible {
  /// Members in the order written.
  case object([JSONMember])
  case array([JSONValue])
  case string(String)
  /// A number as its text (`12`, `-0.5`, `1e-07`).
  case number(String)
  case bool(Bool)
  case null

  /// Parses one complete JSON text (RFC 8259, no duplicate keys); throws on anything else.
  public static func parse(_ text: String) throws -> JSONValue {
    var parser = JSONParser(Array(text.utf8))
    return try parser.document()
  }

  /// The member `key` of an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  public var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.key)
  }

  public var string: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  public var double: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  /// True for a number written without a fraction or exponent.
  public var isInteger: Bool {
    guard case .number(let text) = self else { return false }
    return !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
  }

  public var int: Int? { isInteger ? self.double.flatMap { Int(exactly: $0) } : nil }

  public var description: String {
    switch self {
    case .object(let members):
      "{" + members.map { "\(JSONValue.string($0.key)):\($0.value)" }.joined(separator: ",") + "}"
    case .array(let values): "[" + values.map(\.description).joined(separator: ",") + "]"
    case .string(let string):
      "\"" + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    case .number(let text): text
    case .bool(let bool): bool ? "true" : "false"
    case .null: "null"
    }
  }

  /// JSON equality: numbers by value, objects whatever their members' order.
  public func sameValue(as other: JSONValue) -> Bool {
    switch (self, other) {
    case (.number, .number): return self.double == other.double
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count && a.allSatisfy { member in other[member.key].map(member.value.sameValue) ?? false }
    default: return self == other
    }
  }
}

public struct JSONMember: Sendable, Equatable {
  public var key: String
  public var value: JSONValue
}

public struct JSONParseError: Error, CustomStringConvertible {
  public var description: String
}

private struct JSONParser {
  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func document() throws -> JSONValue {
    let value = try self.value()
    skipSpace()
    guard index == bytes.count else { throw fail("text after the value") }
    return value
  }

  private func fail(_ what: String) -> JSONParseError {
    JSONParseError(description: "invalid JSON at byte \(index): \(what)")
  }

  private mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  private mutating func take(_ literal: String) -> Bool {
    let literalBytes = Array(literal.utf8)
    guard bytes.count - index >= literalBytes.count, Array(bytes[index..<index + literalBytes.count]) == literalBytes
    else { return false }
    index += literalBytes.count
    return true
  }

  private mutating func value() throws -> JSONValue {
    skipSpace()
    guard index < bytes.count else { throw fail("a value was expected") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t") where take("true"): return .bool(true)
    case UInt8(ascii: "f") where take("false"): return .bool(false)
    case UInt8(ascii: "n") where take("null"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw fail("unexpected character")
    }
  }

  private mutating func nested<T>(_ body: (inout JSONParser) throws -> T) throws -> T {
    depth += 1
    defer { depth -= 1 }
    guard depth <= 64 else { throw fail("nested too deeply") }
    return try body(&self)
  }

  private mutating func object() throws -> JSONValue {
    try nested { parser in
      parser.index += 1
      var members: [JSONMember] = []
      parser.skipSpace()
      if parser.take("}") { return .object(members) }
      while true {
        parser.skipSpace()
        guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "\"") else {
          throw parser.fail("a key was expected")
        }
        let key = try parser.string()
        guard !members.contains(where: { $0.key == key }) else { throw parser.fail("duplicate key \"\(key)\"") }
        parser.skipSpace()
        guard parser.take(":") else { throw parser.fail("':' was expected") }
        members.append(JSONMember(key: key, value: try parser.value()))
        parser.skipSpace()
        if parser.take("}") { return .object(members) }
        guard parser.take(",") else { throw parser.fail("',' or '}' was expected") }
      }
    }
  }

  private mutating func array() throws -> JSONValue {
    try nested { parser in
      parser.index += 1
      var values: [JSONValue] = []
      parser.skipSpace()
      if parser.take("]") { return .array(values) }
      while true {
        values.append(try parser.value())
        parser.skipSpace()
        if parser.take("]") { return .array(values) }
        guard parser.take(",") else { throw parser.fail("',' or ']' was expected") }
      }
    }
  }

  private mutating func string() throws -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var run: [UInt8] = []
    func flush() throws {
      guard !run.isEmpty else { return }
      guard let text = String(bytes: run, encoding: .utf8) else { throw fail("a string that is not UTF-8") }
      scalars.append(contentsOf: text.unicodeScalars)
      run.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        try flush()
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flush()
        guard index < bytes.count else { break }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{08}")
        case UInt8(ascii: "f"): scalars.append("\u{0C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code) {
            guard take("\\u") else { throw fail("a lone surrogate") }
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          }
          guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate") }
          scalars.append(scalar)
        default: throw fail("an unknown escape")
        }
      case 0x00..<0x20: throw fail("a control character in a string")
      default: run.append(byte)
      }
    }
    throw fail("a string that does not end")
  }

  private mutating func hex4() throws -> UInt32 {
    guard bytes.count - index >= 4,
      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
    else { throw fail("\\u needs four hex digits") }
    index += 4
    return code
  }

  private mutating func number() throws -> String {
    let start = index
    func digits() -> Int {
      let first = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let whole = digits()
    guard whole > 0, !(leadingZero && whole > 1) else { throw fail("a malformed number") }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { throw fail("a malformed number") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      guard digits() > 0 else { throw fail("a malformed number") }
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }
}

// MARK: - Schema

/// A schema this validator cannot apply faithfully (an unknown keyword, a $ref it cannot follow …).
public struct JSONSchemaError: Error, CustomStringConvertible {
  public var description: String
}

/// A JSON Schema restricted to the keywords vpk's schemas use; see the top of this file.
public struct JSONSchema: Sendable {
  public let root: JSONValue

  /// Keywords that only describe and never constrain.
  static let annotations: Set<String> = ["$schema", "$comment", "title", "description"]
  static let assertions: Set<String> = [
    "type", "const", "enum", "properties", "required", "additionalProperties", "items", "oneOf", "minimum", "$ref",
  ]
  static let types: Set<String> = ["object", "array", "string", "number", "integer", "boolean", "null"]

  /// Parses the schema and checks that every keyword in it is one this validator applies.
  public init(text: String) throws {
    root = try JSONValue.parse(text)
    try check(root, at: "#", isRoot: true)
  }

  public init(contentsOf url: URL) throws {
    try self.init(text: String(contentsOf: url, encoding: .utf8))
  }

  /// The schema a `$ref` (`#/$defs/<name>`) names.
  public func resolve(_ reference: String) throws -> JSONValue {
    let prefix = "#/$defs/"
    guard reference.hasPrefix(prefix), let target = root["$defs"]?[String(reference.dropFirst(prefix.count))] else {
      throw JSONSchemaError(description: "cannot follow $ref \(reference): only #/$defs/<name> that exist")
    }
    return target
  }

  private func check(_ schema: JSONValue, at path: String, isRoot: Bool = false) throws {
    guard case .object(let members) = schema else {
      throw JSONSchemaError(description: "\(path): a schema must be an object here")
    }
    func bad(_ why: String) -> JSONSchemaError { JSONSchemaError(description: "\(path): \(why)") }
    for member in members {
      let key = member.key
      let value = member.value
      switch key {
      case _ where Self.annotations.contains(key):
        continue
      case "$defs":
        guard isRoot, case .object(let definitions) = value else { throw bad("$defs only at the top, as an object") }
        for definition in definitions { try check(definition.value, at: "\(path)/$defs/\(definition.key)") }
      case "type":
        let names: [JSONValue]
        if case .array(let list) = value { names = list } else { names = [value] }
        guard !names.isEmpty, names.allSatisfy({ $0.string.map(Self.types.contains) ?? false }) else {
          throw bad("type must name one or more of \(Self.types.sorted())")
        }
      case "const":
        continue
      case "enum":
        guard case .array(let list) = value, !list.isEmpty else { throw bad("enum must be a non-empty array") }
      case "properties":
        guard case .object(let properties) = value else { throw bad("properties must be an object") }
        for property in properties { try check(property.value, at: "\(path)/properties/\(property.key)") }
      case "required":
        guard case .array(let list) = value, list.allSatisfy({ $0.string != nil }) else {
          throw bad("required must be an array of strings")
        }
      case "additionalProperties":
        guard value == .bool(false) else { throw bad("additionalProperties is supported only as false") }
      case "items":
        try check(value, at: "\(path)/items")
      case "oneOf":
        guard case .array(let list) = value, !list.isEmpty else { throw bad("oneOf must be a non-empty array") }
        for (index, branch) in list.enumerated() { try check(branch, at: "\(path)/oneOf/\(index)") }
      case "minimum":
        guard value.double != nil else { throw bad("minimum must be a number") }
      case "$ref":
        guard let reference = value.string else { throw bad("$ref must be a string") }
        _ = try resolve(reference)
      default:
        throw bad("the keyword \(key) is not one this validator knows; teach it to JSONSchema.swift first")
      }
    }
  }

  /// Every way `instance` breaks the schema, as `<pointer>: <what>`; empty when it conforms.
  public func errors(in instance: JSONValue) throws -> [String] {
    try errors(instance, against: root, at: "")
  }

  /// Parses `line` and validates it: every way it is not JSON or breaks the schema; empty when it conforms.
  public func errors(inLine line: String) throws -> [String] {
    let instance: JSONValue
    do { instance = try JSONValue.parse(line) } catch { return ["\(error)"] }
    return try errors(in: instance)
  }

  private func errors(_ instance: JSONValue, against schema: JSONValue, at path: String) throws -> [String] {
    guard case .object(let keywords) = schema else {
      throw JSONSchemaError(description: "\(path): a schema must be an object")
    }
    let place = path.isEmpty ? "/" : path
    var found: [String] = []
    for keyword in keywords {
      let value = keyword.value
      switch keyword.key {
      case _ where Self.annotations.contains(keyword.key), "$defs":
        continue
      case "type":
        let names: [String]
        if case .array(let list) = value { names = list.compactMap(\.string) } else { names = [value.string ?? ""] }
        if !names.contains(where: { Self.instance(instance, isOfType: $0) }) {
          found.append("\(place): \(instance) is not of type \(names.joined(separator: " or "))")
        }
      case "const":
        if !instance.sameValue(as: value) { found.append("\(place): \(instance) is not \(value)") }
      case "enum":
        guard case .array(let allowed) = value else { continue }
        if !allowed.contains(where: instance.sameValue) { found.append("\(place): \(instance) is not one of \(value)") }
      case "properties":
        guard case .object(let properties) = value, case .object(let members) = instance else { continue }
        for member in members {
          guard let property = properties.first(where: { $0.key == member.key }) else { continue }
          found += try errors(member.value, against: property.value, at: "\(path)/\(member.key)")
        }
      case "required":
        guard case .array(let names) = value, case .object = instance else { continue }
        for name in names.compactMap(\.string) where instance[name] == nil {
          found.append("\(place): \(name) is required")
        }
      case "additionalProperties":
        guard case .object(let members) = instance else { continue }
        let known = schema["properties"]?.keys ?? []
        for member in members where !known.contains(member.key) {
          found.append("\(place): \(member.key) is not allowed here")
        }
      case "items":
        guard case .array(let values) = instance else { continue }
        for (index, item) in values.enumerated() { found += try errors(item, against: value, at: "\(path)/\(index)") }
      case "oneOf":
        guard case .array(let branches) = value else { continue }
        let results = try branches.map { try errors(instance, against: $0, at: path) }
        let matching = results.indices.filter { results[$0].isEmpty }
        if matching.isEmpty {
          // Show why the closest branch failed (for events: the one whose `event` matched).
          let closest = results.min { $0.count < $1.count } ?? []
          found.append("\(place): matches none of the \(branches.count) oneOf schemas; closest: \(closest)")
        } else if matching.count > 1 {
          found.append("\(place): matches \(matching.count) of the oneOf schemas (\(matching)), not exactly one")
        }
      case "minimum":
        if let number = instance.double, let minimum = value.double, number < minimum {
          found.append("\(place): \(instance) is below the minimum \(value)")
        }
      case "$ref":
        found += try errors(instance, against: try resolve(value.string ?? ""), at: path)
      default:
        throw JSONSchemaError(description: "\(place): unknown keyword \(keyword.key)")
      }
    }
    return found
  }

  private static func instance(_ instance: JSONValue, isOfType type: String) -> Bool {
    switch (type, instance) {
    case ("object", .object), ("array", .array), ("string", .string), ("number", .number), ("boolean", .bool),
      ("null", .null):
      true
    case ("integer", .number): instance.isInteger
    default: false
    }
  }
}

/// The schemas published in the repository's `schema/` folder.
public enum VPKSchemas {
  public static var folder: URL { TestMedia.packageRoot.appendingPathComponent("schema") }

  /// `schema/vpk-events.schema.json`: every line `vpk --json` writes.
  public static func events() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-events.schema.json"))
  }

  /// `schema/vpk-commands.schema.json`: a JSON command object.
  public static func commands() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-commands.schema.json"))
  }
}

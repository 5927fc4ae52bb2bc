// vpk's --json output against a JSON Schema, checked by the field's reference validator: Python's jsonschema (from
// PyPI; scripts/bootstrap installs it), run by scripts/validate-json once for a whole batch of lines. That script
// checks the schema against its draft's metaschema, then every line, and adds the one rule JSON Schema lacks: an
// integer is written without a point or exponent (`2`, never `2.0`). A missing python3 or jsonschema throws, telling
// to run scripts/bootstrap; the tests never skip.
//
// JSONValue reads a line (with Foundation's JSONDecoder) so the tests can look at its fields.

import Foundation

/// A JSON value, to look at an event's fields.
public enum JSONValue: Sendable, Equatable, Codable, CustomStringConvertible {
  case object([String: JSONValue])
  case array([JSONValue])
  case string(String)
  case number(Double)
  case bool(Bool)
  case null

  /// Parses one JSON text; throws when it is not JSON.
  public static func parse(_ text: String) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let bool = try? container.decode(Bool.self) {
      self = .bool(bool)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else if let array = try? container.decode([JSONValue].self) {
      self = .array(array)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .object(let members): try container.encode(members)
    case .array(let values): try container.encode(values)
    case .string(let string): try container.encode(string)
    case .number(let number): try container.encode(number)
    case .bool(let bool): try container.encode(bool)
    case .null: try container.encodeNil()
    }
  }

  /// The member `key` of an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  public var string: String? {
    if case .string(let string) = self { return string }
    return nil
  }

  public var double: Double? {
    if case .number(let number) = self { return number }
    return nil
  }

  /// A number with no fraction, as an Int. (Whether it was written without a point is the schema's check.)
  public var int: Int? { double.flatMap { Int(exactly: $0) } }

  /// The value as JSON text, keys sorted.
  public var description: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "<not encodable>"
  }
}

/// A schema that cannot be used (invalid against its metaschema, a $ref that leads nowhere …), or a validator that
/// cannot run.
public struct JSONSchemaError: Error, CustomStringConvertible {
  public var description: String
}

/// A JSON Schema, applied by scripts/validate-json.
public struct JSONSchema: Sendable {
  public let text: String
  /// The schema itself, to read its definitions.
  public let root: JSONValue

  public init(text: String) throws {
    self.text = text
    root = try JSONValue.parse(text)
  }

  public init(contentsOf url: URL) throws {
    try self.init(text: String(contentsOf: url, encoding: .utf8))
  }

  /// Checks the schema against its metaschema, then each line against the schema, in one run of
  /// scripts/validate-json. Returns each line's errors (`<JSON pointer>: <message>`; none when it is valid), in the
  /// lines' order. Throws when the schema is unusable or the validator cannot run.
  public func errors(inLines lines: [String]) throws -> [[String]] {
    guard !lines.contains(where: { $0.contains("\n") }) else {
      throw JSONSchemaError(description: "a line to validate holds a newline")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-schema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let schemaFile = folder.appendingPathComponent("schema.json")
    let linesFile = folder.appendingPathComponent("lines.jsonl")
    try text.write(to: schemaFile, atomically: false, encoding: .utf8)
    try lines.map { $0 + "\n" }.joined().write(to: linesFile, atomically: false, encoding: .utf8)

    let script = TestMedia.packageRoot.appendingPathComponent("scripts/validate-json")
    let run = try Tool.run("python3", [script.path, schemaFile.path, linesFile.path])
    let printed = try? JSONSerialization.jsonObject(with: run.stdout) as? [String: Any]
    guard let printed else {
      throw JSONSchemaError(
        description: "scripts/validate-json failed (status \(run.status)); run scripts/bootstrap if jsonschema is "
          + "missing:\n\(run.stderr)")
    }
    if let problem = printed["schema_error"] as? String {
      throw JSONSchemaError(description: "the schema is unusable: \(problem)")
    }
    guard printed["lines"] as? Int == lines.count, let found = printed["errors"] as? [[String: Any]] else {
      throw JSONSchemaError(description: "scripts/validate-json answered for other lines: \(printed)")
    }
    var errors = [[String]](repeating: [], count: lines.count)
    for error in found {
      guard let line = error["line"] as? Int, errors.indices.contains(line - 1), let path = error["path"] as? String,
        let message = error["message"] as? String
      else { throw JSONSchemaError(description: "scripts/validate-json printed an odd error: \(error)") }
      errors[line - 1].append("\(path.isEmpty ? "/" : path): \(message)")
    }
    return errors
  }

  /// Every way `line` is not JSON or breaks the schema; empty when it conforms. One validator run per call: give
  /// many lines to `errors(inLines:)` instead.
  public func errors(inLine line: String) throws -> [String] {
    try errors(inLines: [line])[0]
  }
}

/// The schemas published in the repository's `schema/` folder.
public enum VPKSchemas {
  public static var folder: URL { TestMedia.packageRoot.appendingPathComponent("schema") }

  /// `schema/vpk-events.schema.json`: every line `vpk --json` writes.
  public static func events() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-events.schema.json"))
  }

  /// `schema/vpk-info.schema.json`: the one object `vpk info --json` writes.
  public static func info() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-info.schema.json"))
  }

  /// `schema/vpk-test-report.schema.json`: every line `vpk test --json` writes on standard output.
  public static func testReport() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-test-report.schema.json"))
  }

  /// `schema/vpk-display.schema.json`: every line a control-socket client gets after `format display`.
  public static func display() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-display.schema.json"))
  }

  /// `schema/vpk-commands.schema.json`: a JSON command object.
  public static func commands() throws -> JSONSchema {
    try JSONSchema(contentsOf: folder.appendingPathComponent("vpk-commands.schema.json"))
  }
}

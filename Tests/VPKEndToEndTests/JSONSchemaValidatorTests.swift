// The schema check the end-to-end tests rely on (scripts/validate-json: Python's jsonschema, plus the rule that an
// integer is written without a point): it must catch what vpk could get wrong (an integer written as 2.0, a wrong
// type, a missing or extra field, an unknown event, a line that is not JSON), accept what is right, and refuse a
// schema that is not valid JSON Schema. Each test validates its lines in one validator run.

import Foundation
import Testing
import VPKTestSupport

@Suite struct JSONSchemaValidatorTests {
  private let eventSchema = """
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "oneOf": [{"$ref": "#/$defs/a"}, {"$ref": "#/$defs/b"}],
      "$defs": {
        "a": {
          "type": "object",
          "properties": {
            "event": {"const": "a"}, "n": {"type": "integer", "minimum": 0}, "x": {"type": "number"},
            "s": {"enum": ["p", "q"]}, "l": {"type": "array", "items": {"type": ["string", "null"]}}
          },
          "required": ["event", "n"],
          "additionalProperties": false
        },
        "b": {"type": "object", "properties": {"event": {"const": "b"}}, "required": ["event"]}
      }
    }
    """

  /// Validates every line in one run: each good line must have no error; each bad one must have one, and one that
  /// contains `because` when it is not empty.
  private func expect(
    _ schema: JSONSchema, accepts good: [String], rejects bad: [(line: String, because: String)],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let errors = try schema.errors(inLines: good + bad.map(\.line))
    for (line, errors) in zip(good, errors) {
      #expect(errors.isEmpty, "\(line): \(errors)", sourceLocation: sourceLocation)
    }
    for (bad, errors) in zip(bad, errors.dropFirst(good.count)) {
      #expect(
        !errors.isEmpty && (bad.because.isEmpty || errors.contains { $0.contains(bad.because) }),
        "\(bad.line) should fail with \"\(bad.because)\": \(errors)", sourceLocation: sourceLocation)
    }
  }

  @Test func integersAreWrittenWithoutAPointAndNumbersMayBeEither() throws {
    let pointOrExponent = "an integer is written without a point or exponent"
    try expect(
      JSONSchema(text: eventSchema),
      accepts: [#"{"event":"a","n":2,"x":2}"#, #"{"event":"a","n":2,"x":2.5e-3}"#, #"{"event":"a","n":0,"x":-0.5}"#],
      rejects: [
        (#"{"event":"a","n":2.0}"#, pointOrExponent), (#"{"event":"a","n":2e0}"#, pointOrExponent),
        (#"{"event":"a","n":"2"}"#, "'2' is not of type 'integer'"),
        (#"{"event":"a","n":-1}"#, "-1 is less than the minimum of 0"),
      ])
  }

  @Test func requiredExtraTypeConstEnumItemsAndOneOf() throws {
    try expect(
      JSONSchema(text: eventSchema),
      accepts: [#"{"event":"a","n":1,"s":"q","l":["x",null]}"#, #"{"event":"b","anything":1}"#],
      rejects: [
        (#"{"event":"a"}"#, "'n' is a required property"),
        (#"{"event":"a","n":1,"z":true}"#, "('z' was unexpected)"),
        (#"{"event":"a","n":1,"x":"1"}"#, "'1' is not of type 'number'"),
        (#"{"event":"a","n":1,"s":"r"}"#, "'r' is not one of ['p', 'q']"),
        (#"{"event":"a","n":1,"l":[1]}"#, "1 is not of type 'string', 'null'"),
        (#"{"event":"c"}"#, "is not valid under any of the given schemas"),
        (#"[1]"#, ""),
      ])
  }

  @Test func oneOfMeansExactlyOne() throws {
    try expect(
      JSONSchema(text: #"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#), accepts: ["2.5"],
      rejects: [("2", "is valid under each of")])
  }

  @Test func linesThatAreNotJSONAreRefused() throws {
    let notJSON = [
      #"{"a":1,"a":2}"#, #"{"a":1} x"#, "01", "1.", "-", "[1,]", #"{"a":1,}"#, "\"\u{01}\"", "NaN", "Infinity", "'a'",
      "",
    ]
    try expect(
      JSONSchema(text: "{}"),
      accepts: [#" {"s":"a\"\\\/\n\u00e9\ud83d\ude00","n":-0.5e+2,"i":10,"b":false,"z":null} "#],
      rejects: notJSON.map { ($0, "not JSON") })
  }

  @Test func schemasThatAreNotJSONSchemaAreRefused() throws {
    for text in [
      #"{"type": "float"}"#, #"{"required": "n"}"#, #"{"properties": {"a": {"minimum": "0"}}}"#,
      ##"{"$ref": "#/$defs/missing", "$defs": {}}"##,
    ] {
      #expect(throws: JSONSchemaError.self, "\(text)") { try JSONSchema(text: text).errors(inLine: "1") }
    }
  }

  /// How the tests read a line: JSONValue, from Foundation's JSONDecoder.
  @Test func jsonValueReadsALine() throws {
    let value = try JSONValue.parse(#" {"s":"a\"\\\/\n\u00e9\ud83d\ude00","n":-0.5e+2,"i":10,"b":false,"z":null} "#)
    #expect(value["s"] == .string("a\"\\/\né😀"))
    #expect(value["n"]?.double == -50 && value["n"]?.int == -50 && value["i"]?.int == 10)
    #expect(value["b"] == .bool(false) && value["z"] == .null && value["missing"] == nil)
    #expect(try JSONValue.parse("[1.5,true,\"/\"]").description == #"[1.5,true,"/"]"#)
    #expect(throws: (any Error).self) { try JSONValue.parse("[1") }
  }

  @Test func thePublishedSchemasAreValidAndCheckEventsAndCommands() throws {
    let hello = #""event":"hello","version":"0.1.0","capabilities":["wait"]"#
    try expect(
      VPKSchemas.events(), accepts: ["{\(hello),\"protocol\":2}"],
      rejects: [
        ("{\(hello),\"protocol\":2.0}", "an integer is written without a point or exponent"),
        ("{\(hello),\"protocol\":\"2\"}", "'2' is not of type 'integer'"),
        (#"{"event":"hello","protocol":2}"#, "'version' is a required property"),
        ("{\(hello),\"protocol\":2,\"extra\":1}", "('extra' was unexpected)"),
        (#"{"event":"bogus"}"#, "is not valid under any of the given schemas"),
      ])
    try expect(
      VPKSchemas.commands(),
      accepts: [
        #"{"command":"scrub","args":[10,"exact"],"id":"a1"}"#, #"{"command":"scrub 10 exact"}"#,
        #"{"command":"status","id":7}"#, #"{"command":"rate","args":[0.5],"id":1.5}"#,
      ],
      rejects: [
        #"{"args":[1]}"#, #"{"command":5}"#, #"{"command":"play","id":true}"#, #"{"command":"play","id":null}"#,
        #"{"command":"scrub","args":[[1]]}"#, #"{"command":"scrub","args":"10"}"#, #"{"command":"play","extra":1}"#,
      ].map { ($0, "") })
  }
}

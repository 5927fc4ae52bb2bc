// The test-support JSON parser and schema validator: it must catch what vpk could get wrong (an integer written as
// 2.0, a missing or extra field, the wrong event), and refuse schemas it cannot apply.

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

  @Test func integersAreWrittenWithoutAPointAndNumbersMayBeEither() throws {
    let schema = try JSONSchema(text: eventSchema)
    #expect(try schema.errors(inLine: #"{"event":"a","n":2,"x":2}"#).isEmpty)
    #expect(try schema.errors(inLine: #"{"event":"a","n":2,"x":2.5e-3}"#).isEmpty)
    #expect(try !schema.errors(inLine: #"{"event":"a","n":2.0}"#).isEmpty)
    #expect(try !schema.errors(inLine: #"{"event":"a","n":2e0}"#).isEmpty)
    #expect(try !schema.errors(inLine: #"{"event":"a","n":"2"}"#).isEmpty)
    #expect(try !schema.errors(inLine: #"{"event":"a","n":-1}"#).isEmpty, "minimum")
  }

  @Test func requiredExtraConstEnumItemsAndOneOf() throws {
    let schema = try JSONSchema(text: eventSchema)
    #expect(try schema.errors(inLine: #"{"event":"a","n":1,"s":"q","l":["x",null]}"#).isEmpty)
    let missing = try schema.errors(inLine: #"{"event":"a"}"#)
    #expect(missing.count == 1 && missing[0].contains("n is required"), "\(missing)")
    let extra = try schema.errors(inLine: #"{"event":"a","n":1,"z":true}"#)
    #expect(extra.count == 1 && extra[0].contains("z is not allowed"), "\(extra)")
    #expect(try !schema.errors(inLine: #"{"event":"a","n":1,"s":"r"}"#).isEmpty, "enum")
    #expect(try !schema.errors(inLine: #"{"event":"a","n":1,"l":[1]}"#).isEmpty, "items")
    #expect(try !schema.errors(inLine: #"{"event":"c"}"#).isEmpty, "no branch")
    #expect(try schema.errors(inLine: #"{"event":"b","anything":1}"#).isEmpty)
    #expect(try !schema.errors(inLine: #"[1]"#).isEmpty)
  }

  @Test func oneOfMeansExactlyOne() throws {
    let schema = try JSONSchema(text: #"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#)
    #expect(try schema.errors(inLine: "2.5").isEmpty)
    #expect(try !schema.errors(inLine: "2").isEmpty, "2 matches both")
  }

  @Test func unknownKeywordsAndUnsupportedFormsAreRefused() {
    for text in [
      #"{"type": "string", "maxLength": 3}"#,
      #"{"additionalProperties": true}"#,
      #"{"additionalProperties": {"type": "string"}}"#,
      ##"{"$ref": "#/$defs/missing", "$defs": {}}"##,
      ##"{"$ref": "other.json#/x"}"##,
      #"{"type": "float"}"#,
      #"{"properties": {"a": {"pattern": "x"}}}"#,
      #"{"items": {"$defs": {}}}"#,
    ] {
      #expect(throws: JSONSchemaError.self, "\(text)") { try JSONSchema(text: text) }
    }
  }

  @Test func theParserIsStrict() throws {
    for text in [
      #"{"a":1,"a":2}"#, #"{"a":1} x"#, "01", "1.", "-", "[1,]", #"{"a":1,}"#, "\"\u{01}\"", "NaN", "'a'", "",
    ] {
      #expect(throws: JSONParseError.self, "\(text)") { try JSONValue.parse(text) }
    }
    let value = try JSONValue.parse(#" {"s":"a\"\\\/\n\u00e9\ud83d\ude00","n":-0.5e+2,"i":10,"b":false,"z":null} "#)
    #expect(value["s"] == .string("a\"\\/\né😀"))
    #expect(value["n"]?.double == -50 && value["n"]?.isInteger == false)
    #expect(value["i"]?.int == 10 && value["b"] == .bool(false) && value["z"] == .null)
    #expect(value.keys == ["s", "n", "i", "b", "z"])
  }

  @Test func thePublishedSchemasLoadAndTheCommandSchemaChecksCommands() throws {
    _ = try VPKSchemas.events()
    let commands = try VPKSchemas.commands()
    for good in [
      #"{"command":"scrub","args":[10,"exact"],"id":"a1"}"#, #"{"command":"scrub 10 exact"}"#,
      #"{"command":"status","id":7}"#, #"{"command":"rate","args":[0.5],"id":1.5}"#,
    ] {
      #expect(try commands.errors(inLine: good).isEmpty, "\(good)")
    }
    for bad in [
      #"{"args":[1]}"#, #"{"command":5}"#, #"{"command":"play","id":true}"#, #"{"command":"play","id":null}"#,
      #"{"command":"scrub","args":[[1]]}"#, #"{"command":"scrub","args":"10"}"#, #"{"command":"play","extra":1}"#,
    ] {
      #expect(try !commands.errors(inLine: bad).isEmpty, "\(bad)")
    }
  }
}

import Foundation
import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// Reading mpv's JSON requests: the values, and the blanks around a line.
@Suite("mpv JSON values")
struct MPVJSONTests {
  @Test("numbers: whole ones that fit Int are integers (as Decodable read them), others doubles")
  func numbers() {
    #expect(
      MPVValue.parse("[5, -1, 0, 1.0, 1e2, -0.0, 2.5, 1e-7]", maxDepth: 8)
        == .array([
          .integer(5), .integer(-1), .integer(0), .integer(1), .integer(100), .integer(0), .number(2.5),
          .number(1e-7),
        ]))
    // Past Int's range a number is a double, except below it, where Foundation's JSONSerialization gives Int.min
    // (mpv writes that request_id back as -9223372036854775808.000000: the same value).
    #expect(
      MPVValue.parse("[9223372036854775807, 9223372036854775808, -9223372036854775809, 1e300]", maxDepth: 8)
        == .array([.integer(Int.max), .number(9.223372036854775808e18), .integer(Int.min), .number(1e300)]))
    // More digits than a double holds: the nearest double, which reads back as itself (found by the fuzzer)
    let long = MPVValue.parse("[111111111111111111111111111111111111]", maxDepth: 8)
    #expect(long == .array([.number(Double("111111111111111111111111111111111111")!)]))
    #expect(long.flatMap { MPVValue.parse($0.json, maxDepth: 8) } == long)
  }

  @Test("true, false, null, strings and objects (keys sorted)")
  func otherValues() {
    #expect(
      MPVValue.parse(#"{"b": [true, false, null], "a": "é\n"}"#, maxDepth: 8)
        == .object([MPVMember("a", .string("é\n")), MPVMember("b", .array([.bool(true), .bool(false), .null]))]))
    #expect(MPVValue.parse(#""text""#, maxDepth: 8) == .string("text"))
  }

  @Test("what is not JSON, or nests past the limit, is nothing; a trailing comma is read, as mpv's parser reads it")
  func refusals() {
    #expect(MPVValue.parse(#"{"command": ["get_property", "pause",],}"#, maxDepth: 8) != nil)
    for text in ["{not json", "+1", "NaN", "[1 2]", "x {}", "", "[,]"] {
      #expect(MPVValue.parse(text, maxDepth: 8) == nil, "\(text)")
    }
    #expect(MPVValue.parse("[[[1]]]", maxDepth: 2) == nil)
    #expect(MPVValue.parse("[[[1]]]", maxDepth: 3) != nil)
  }

  @Test("the first value of a line is read and what follows it is not, as mpv's parser reads a request")
  func textAfterTheValue() {
    // Given lines with text after a whole value (checked against mpv 0.35.1: it answers each with the first value's
    // request_id), When read, Then the value is the first one and the rest is not read, however deep it nests
    #expect(MPVValue.parse("{} x", maxDepth: 8) == .object([]))
    #expect(
      MPVValue.parse(#"{"request_id":6} {"request_id":7}"#, maxDepth: 8)
        == .object([MPVMember("request_id", .integer(6))]))
    #expect(MPVValue.parse("[1]]", maxDepth: 8) == .array([.integer(1)]))
    #expect(MPVValue.parse("[1]  ,,", maxDepth: 8) == .array([.integer(1)]))
    #expect(MPVValue.parse("[1] [[[[1]]]]", maxDepth: 1) == .array([.integer(1)]))
    // And a value cut short before the text is still nothing
    #expect(MPVValue.parse("[1 x]", maxDepth: 8) == nil)
  }

  @Test("a line's blanks are what Foundation's whitespace set trims: tabs and space separators, not newlines")
  func blanks() {
    for line in [
      "  {\"a\": 1}\t", "\u{00A0}\u{2003}seek 5\u{3000}", "\t\t", "", "x", " x y ", "\nx\n", "\u{200B}x", " é ",
    ] {
      #expect(String(MPVCommandTranslator.trimmingBlanks(line)) == line.trimmingCharacters(in: .whitespaces), "\(line)")
    }
  }

  @Test("a quick read looks for get_property in the line's bytes")
  func mentions() {
    #expect(MPVQuickReads.mentions("get_property", in: #"{"command": ["get_property", "pause"]}"#))
    #expect(MPVQuickReads.mentions("get_property", in: "gget_property"))
    #expect(MPVQuickReads.mentions("get_property", in: "get_get_property"))
    #expect(!MPVQuickReads.mentions("get_property", in: "get_propert"))
    #expect(!MPVQuickReads.mentions("get_property", in: #"{"command": ["set_property", "pause", true]}"#))
    #expect(!MPVQuickReads.mentions("get_property", in: ""))
  }
}

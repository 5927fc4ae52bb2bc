import Foundation
import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The reader of mpv requests against Foundation's JSONSerialization, which it must agree with value for value.
@Suite("mpv JSON reader")
struct MPVJSONReaderTests {
  @Test("agrees with JSONSerialization on the edge cases of the grammar")
  func edgeCases() {
    let texts = [
      "01", "-01", "0.5", "-0", "1.", ".5", "1e", "1e+", "1E2", "1e400", "-1e400", "1e-400", "\"a\u{01}b\"", "\"a\tb\"",
      #""\ud800""#, #""\ud800\udc00""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\x""#, #""\/""#,
      #""\u00e9""#, #""\u00E9\b\f\n\r\t\"\\""#, "[1,]", #"{"a":1,}"#, "[1,,]", "{,}", " [1] ", "\u{FEFF}[1]",
      "\u{FEFF} [1]", "[1]\n", "\t[1]\t", "\r\n[1]", "true", "tru", "nul", "false", "null", "[true false]",
      #"{"a" 1}"#, "{1:2}", #"{"a":1 "b":2}"#, "[\"\u{7f}\"]", #""\u0000""#, "123456789012345678901234567890",
      "-9223372036854775808", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "1.0e2", "-0.0", "2.5e-3", "[1]x", "[", "]", "\"abc", #"{"a":}"#,
      "[-]", "[- 1]", "[1e5.5]", "\u{00A0}[1]", "[0x10]", "[Infinity]", #"["\u12"]"#, #"["\U0041"]"#,
      #"{"a":1,"a":2}"#, #"{"":1}"#, "[[]]", "[{}]", "[1 , 2 ]", "[ ]", "{ }", "", " ", "é", "\"é😀\"",
      #"{"command": ["seek", 21.638, "absolute"], "request_id": 22}"#, #"{"command":["get_property","pause"]}"#,
      "[[[[[[[[1]]]]]]]]", "[[[[[[[[[1]]]]]]]]]", "1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324",
      "0.1", "100000000000000000000000.5", "[1e2, 1E-2, 1e+2, -1.5E+3]", "{\"b\":1,\"a\":{\"d\":[],\"c\":null}}",
    ]
    for text in texts {
      #expect(
        MPVJSONReader.read(text, maxDepth: 8) == Self.foundationValue(text, maxDepth: 8), "\(text.debugDescription)")
    }
  }

  @Test("takes a control character inside a string as it is, as mpv's parser does; outside one it is refused")
  func controlCharactersInStrings() {
    // Given lines with a raw tab or another control byte inside a string (checked against mpv 0.35.1: it answers
    // them with their own request_id), When read, Then the string holds the byte
    #expect(MPVJSONReader.read("\"a\tb\"", maxDepth: 8) == .string("a\tb"))
    #expect(MPVJSONReader.read("[\"a\u{01}b\u{1F}\"]", maxDepth: 8) == .array([.string("a\u{01}b\u{1F}")]))
    let request = MPVJSONReader.read(#"{"command":["get_property","pa\#tuse"],"request_id":5}"#, maxDepth: 8)
    #expect(request?["request_id"] == .integer(5))
    // And a control byte outside a string, or one that follows a backslash, still makes the line nothing
    #expect(MPVJSONReader.read("[1,\u{01}2]", maxDepth: 8) == nil)
    #expect(MPVJSONReader.read("\"a\\\tb\"", maxDepth: 8) == nil)
  }

  @Test("agrees with JSONSerialization on 20,000 requests with bytes changed at random")
  func mutatedRequests() {
    // Given requests as clients write them, and a generator of small changes to them
    let seeds = [
      #"{"command": ["seek", 21.638, "absolute"], "request_id": 22}"#,
      #"{"command":["get_property","time-pos"],"request_id":7,"async":true}"#,
      #"{ "command": [ "set_property", "pause", false ] }"#,
      #"{"command":["loadfile","/tmp/a \"b\"\\c.mp4","replace"]}"#,
      #"{"command":["observe_property",1,"metadata"],"request_id":-3.0e0}"#, #"["\u00e9\ud83d\ude00",null,true,[{}]]"#,
    ]
    let alphabet = Array(#"{}[]",:\ .eE+-0123456789tfnrul/ab"#.utf8) + [0x09, 0x0A, 0x0D, 0x01, 0xC3, 0xA9]
    var generator = SplitMix64(seed: 23)
    var agreed = 0
    var read = 0
    // When each is read by both
    for round in 0..<20_000 {
      var bytes = Array(seeds[round % seeds.count].utf8)
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let position = Int(generator.next() % UInt64(bytes.count + 1))
        let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
        switch generator.next() % 3 {
        case 0: bytes.insert(byte, at: position)
        case 1 where position < bytes.count: bytes[position] = byte
        default: if position < bytes.count { bytes.remove(at: position) }
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let depth = Int(generator.next() % 4) + 1
      // Then they agree
      let ours = MPVJSONReader.read(text, maxDepth: depth)
      let foundation = Self.foundationValue(text, maxDepth: depth)
      #expect(ours == foundation, "\(text.debugDescription) at depth \(depth)")
      if ours == foundation { agreed += 1 }
      if ours != nil { read += 1 }
    }
    #expect(agreed == 20_000)
    // Both outcomes are well represented: values read, and texts refused.
    #expect(read > 2_000 && read < 18_000, "\(read) read")
  }

  /// What Foundation's JSONSerialization reads in `text`, as an `MPVValue` by the reader's rules: keys sorted, whole
  /// numbers that fit `Int` integers, others the nearest double to their digits.
  /// JSONSerialization's value of `text`, with what mpv's parser takes besides RFC 8259 taken too: a control character
  /// inside a string (escaped first, as `\u00XX`).
  static func foundationValue(_ text: String, maxDepth: Int) -> MPVValue? {
    guard CommandParser.jsonDepth(text) <= maxDepth,
      let any = try? JSONSerialization.jsonObject(
        with: Data(escapingControlsInStrings(text)), options: .fragmentsAllowed)
    else { return nil }
    return value(any)
  }

  /// `text` with each control character inside a string written as its `\u00XX` escape (one that follows a backslash
  /// is left: that escape is broken either way).
  static func escapingControlsInStrings(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var inString = false
    var escaping = false
    for byte in text.utf8 {
      if inString && !escaping && byte < 0x20 {
        out += Array(String(format: "\\u%04x", byte).utf8)
        continue
      }
      out.append(byte)
      if escaping {
        escaping = false
      } else if inString && byte == UInt8(ascii: "\\") {
        escaping = true
      } else if byte == UInt8(ascii: "\"") {
        inString.toggle()
      }
    }
    return out
  }

  private static func value(_ any: Any) -> MPVValue? {
    if let object = any as? [String: Any] {
      var members: [MPVMember] = []
      for (key, element) in object {
        guard let value = value(element) else { return nil }
        members.append(MPVMember(key, value))
      }
      return .object(members.sorted { $0.key < $1.key })
    }
    if let array = any as? [Any] {
      var values: [MPVValue] = []
      for element in array {
        guard let value = value(element) else { return nil }
        values.append(value)
      }
      return .array(values)
    }
    if let string = any as? String { return .string(string) }
    if any is NSNull { return .null }
    guard let number = any as? NSNumber else { return nil }
    switch UInt8(bitPattern: number.objCType.pointee) {
    case UInt8(ascii: "c"): return .bool(number.boolValue)
    case UInt8(ascii: "d"), UInt8(ascii: "Q"):
      let value = (number as? NSDecimalNumber).flatMap { Double($0.stringValue) } ?? number.doubleValue
      if value >= -9_223_372_036_854_775_808.0, value < 9_223_372_036_854_775_808.0, let whole = Int(exactly: value) {
        return .integer(whole)
      }
      return .number(value)
    default: return .integer(number.intValue)
    }
  }
}

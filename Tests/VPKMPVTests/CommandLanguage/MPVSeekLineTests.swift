import Testing

@testable import VPKMPV

/// The byte-level reading of a JSON `seek`: it recognises the forms clients send, declines everything else, and never
/// disagrees with the translator or the presenter's reply.
@Suite("mpv seek line")
struct MPVSeekLineTests {
  private let translator = MPVCommandTranslator()

  /// Given a line the reader recognises, the translator reads the same seek with the same request_id, and the reply
  /// is the presenter's, byte for byte.
  private func expectAgreement(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let id = MPVSeekLine.requestID(of: line) else {
      Issue.record("not recognised: \(line)", sourceLocation: sourceLocation)
      return
    }
    let request = translator.translate(line)
    // The presenter runs what `read` makes of the line: that one request.
    #expect(translator.read(line) == [request], sourceLocation: sourceLocation)
    #expect(request.wantsReply, sourceLocation: sourceLocation)
    guard case .success(.seek) = request.command else {
      Issue.record("the translator reads \(request.command) for \(line)", sourceLocation: sourceLocation)
      return
    }
    #expect(request.requestID == .integer(id), sourceLocation: sourceLocation)
    #expect(
      MPVSeekLine.reply(requestID: id) == MPVValue.reply(request.requestID, .success, data: .null).json + "\n",
      sourceLocation: sourceLocation)
  }

  @Test("the forms clients send are recognised, and read as the translator reads them")
  func clientFormsAgreeWithTheTranslator() {
    // Python's json.dumps, compact JSON, request_id first, blanks, every flag, the legacy third argument absent.
    let lines = [
      #"{"command": ["seek", 12.345, "absolute"], "request_id": 3}"#,
      #"{"command":["seek",-5,"relative"],"request_id":0}"#,
      #"{"request_id": 42, "command": ["seek", 10]}"#,
      #"  { "command" : [ "seek" , 0.5 , "absolute+exact" ] , "request_id" : 123456789012345 }  "#,
      #"{"command": ["seek", 40, "absolute-percent+keyframes"], "request_id": 9}"#,
      #"{"command": ["seek", 0, "relative-percent"], "request_id": 1}"#,
      #"{"command": ["seek", 7, "default-precise+relative"], "request_id": 2}"#,
      #"{"command": ["seek", 100.12345678901234567, "exact"], "request_id": 5}"#,
    ]
    for line in lines { expectAgreement(line) }
    #expect(MPVSeekLine.requestID(of: lines[0]) == 3)
    #expect(MPVSeekLine.requestID(of: lines[2]) == 42)
  }

  @Test("anything else is declined, for the translator to read")
  func otherLinesAreDeclined() {
    let declined = [
      #"{"command": ["seek", 10, "absolute"]}"#,  // no request_id: the reply's id is the translator's to choose
      #"{"command": ["seek", 10, "absolute"], "request_id": "a"}"#,  // a request_id not of digits
      #"{"command": ["seek", 10, "absolute"], "request_id": -1}"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 01}"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 1.5}"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 1234567890123456}"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 1, "async": true}"#,  // a third member
      #"{"command": ["seek", 10, "absolute"], "command": ["seek", 2], "request_id": 1}"#,
      #"{"command": ["seek", "10", "absolute"], "request_id": 1}"#,  // a string target
      #"{"command": ["seek", 1e3, "absolute"], "request_id": 1}"#,  // an exponent
      #"{"command": ["seek", 010, "absolute"], "request_id": 1}"#,
      #"{"command": ["seek", 1., "absolute"], "request_id": 1}"#,
      #"{"command": ["seek", 1234567890123456, "absolute"], "request_id": 1}"#,
      #"{"command": ["seek", 10, "absolute", "exact"], "request_id": 1}"#,  // the legacy third argument
      #"{"command": ["seek", 10, "sideways"], "request_id": 1}"#,
      #"{"command": ["seek", 10, "absolute+"], "request_id": 1}"#,
      #"{"command": ["seek", 10, ""], "request_id": 1}"#,
      #"{"command": ["seek", 10, "abso\u006cute"], "request_id": 1}"#,  // an escape
      #"{"command": ["seek"], "request_id": 1}"#,
      #"{"command": ["frame-step"], "request_id": 1}"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 1} x"#,
      #"{"command": ["seek", 10, "absolute"], "request_id": 1"#,
      #"{"command": ["seek", 10, " absolute"], "request_id": 1}"#,  // a blank inside the flags' quotes
      #"{"command": ["seek", 10, "absolute "], "request_id": 1}"#,
      "{\"command\": [\"seek\", 10, \"\tabsolute\"], \"request_id\": 1}",
      "\r{\"command\": [\"seek\", 10, \"absolute\"], \"request_id\": 1}",  // a blank the translator does not trim
      "{\"command\": [\"seek\", 10, \"absolute\"], \"request_id\": 1}\r",
      "{\"command\":\n[\"seek\", 10], \"request_id\": 1}",
      "\u{00A0}{\"command\": [\"seek\", 10], \"request_id\": 1}",
      "seek 10 absolute",
      "",
    ]
    for line in declined {
      #expect(MPVSeekLine.requestID(of: line) == nil, "\(line)")
    }
  }

  @Test("every line it recognises among the variations of a seek is one the translator agrees with")
  func variationsNeverDisagree() {
    // Given every combination of these pieces, when a line is recognised, then the translator reads it the same.
    let targets = ["0", "-0", "7", "-12.5", "3600.000", "0.0001", "1e2", "00", "-"]
    let flags = [
      nil, "absolute", "relative+exact", "keyframes+absolute-percent", "exact+exact", "absolute++exact", "x",
    ]
    let ids = ["0", "1", "99", "007", "-3", "2.0", "null"]
    var recognised = 0
    for target in targets {
      for flag in flags {
        for id in ids {
          let arguments = flag.map { "\(target), \"\($0)\"" } ?? target
          let line = #"{"command": ["seek", \#(arguments)], "request_id": \#(id)}"#
          guard MPVSeekLine.requestID(of: line) != nil else { continue }
          recognised += 1
          expectAgreement(line)
        }
      }
    }
    // (of the flags, `exact+exact` is refused by mpv, so neither the translator nor the seek line takes it)
    #expect(recognised == 6 * 4 * 3)
  }
}

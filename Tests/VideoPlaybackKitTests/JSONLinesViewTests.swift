import Foundation
import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

private let capabilities =
  #""capabilities":["json-commands","client-ids","virtual-clock","wait","expect","step","rate","open-close","loop","snapshot"]"#
private let hello = #"{"event":"hello","protocol":2,"version":"0.1.0","# + capabilities + "}\n"

private func event(
  _ name: String, id: Int? = nil, _ fields: [EventViewModel.Field] = [],
  severity: EventViewModel.Severity = .info
) -> EventViewModel {
  EventViewModel(
    event: name, commandID: id, fields: fields, text: "\(name) text", severity: severity)
}

/// Decodes one line as JSON with Foundation, to check the hand-written encoding is valid.
private func decoded(_ line: String) -> [String: Any]? {
  (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]))
    as? [String: Any]
}

@MainActor
@Suite("JSON lines view")
struct JSONLinesViewTests {
  @Test func helloComesFirst() {
    // Given a JSON view
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    // When the session starts (a status line) and an event follows
    view.displayStatusLine(StatusLineViewModel(text: "… loading clip.mp4"))
    view.displayEvent(event("ready"))
    // Then hello is the first line, once, and the status line is not shown
    #expect(output.writes == [hello, #"{"event":"ready"}"# + "\n"])
  }

  @Test func helloBeforeTheFirstEvent() {
    // Given a JSON view that has shown nothing
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, version: "9.9.9", onClosed: {})
    // When an event arrives, then another
    view.displayEvent(event("error", id: 1))
    view.displayEvent(event("error", id: 2))
    // Then hello (with the given version) precedes them, once
    #expect(
      output.text
        == #"{"event":"hello","protocol":2,"version":"9.9.9","# + capabilities + "}" + "\n"
        + #"{"event":"error","id":1}"# + "\n"
        + #"{"event":"error","id":2}"# + "\n")
  }

  @Test func finishSaysHelloIfNothingElseDid() {
    // Given a JSON view that has shown nothing
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    // When the session finishes at once, twice
    view.displayFinish()
    view.displayFinish()
    // Then the output is the hello line alone
    #expect(output.writes == [hello])
  }

  @Test func keysInOrderWithTypedValues() {
    // Given a JSON view
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    // When an event with an id and one field of each type arrives
    view.displayEvent(
      event(
        "sample", id: 3,
        [
          .init("zeta", .string("a")), .init("position", .number(12.345)),
          .init("count", .integer(-7)),
          .init("key", .bool(true)), .init("off", .bool(false)), .init("audio", .null),
          .init("alpha", .number(60)),
        ]))
    // Then `event`, `id`, then the fields in their order, on one line
    #expect(
      output.writes.last
        == #"{"event":"sample","id":3,"zeta":"a","position":12.345,"count":-7,"key":true,"off":false,"#
        + #""audio":null,"alpha":60.0}"# + "\n")
  }

  @Test func noIDWhenThereIsNone() {
    // Given an event with no command id
    // When it is encoded
    let line = JSONLinesView.encode(event("progress", [.init("position", .number(1.5))]))
    // Then it has no id key
    #expect(line == #"{"event":"progress","position":1.5}"#)
  }

  @Test(
    arguments: [
      ("plain", #""plain""#),
      (#"say "hi""#, #""say \"hi\"""#),
      (#"back\slash"#, #""back\\slash""#),
      ("one\ntwo", #""one\ntwo""#),
      ("cr\rtab\t", #""cr\rtab\t""#),
      ("bell\u{07}bs\u{08}ff\u{0C}", #""bell\u0007bs\bff\f""#),
      ("nul\u{0}esc\u{1B}us\u{1F}", #""nul\u0000esc\u001bus\u001f""#),
      ("del\u{7F}", #""del\u007f""#),
      ("sep\u{2028}\u{2029}", #""sep\u2028\u2029""#),
      ("héllo ☃ 😀 日本", "\"héllo ☃ 😀 日本\""),
      ("/slash", #""/slash""#),
      ("", #""""#),
    ] as [(String, String)])
  func stringEscaping(value: String, json: String) {
    // Given a string
    // When it is encoded
    let encoded = JSONLinesView.encode(value)
    // Then quotes, backslashes and control characters are escaped, other characters kept as UTF-8
    #expect(encoded == json)
    // And a JSON parser reads back the same string
    let object = decoded(#"{"v":"# + encoded + "}")
    #expect(object?["v"] as? String == value)
  }

  @Test(
    arguments: [
      (12.345, "12.345"), (60, "60.0"), (0.1 + 0.2, "0.30000000000000004"), (-1.5, "-1.5"),
      (1e-7, "1e-07"),
      (1e21, "1e+21"), (.nan, "null"), (.infinity, "null"), (-.infinity, "null"),
    ] as [(Double, String)])
  func numbers(value: Double, json: String) {
    // Given a number
    // When it is encoded
    // Then Swift's shortest form, or null when it is not finite
    #expect(JSONLinesView.encode(value) == json)
  }

  @Test func nonFiniteFieldsAreNull() {
    // Given an event whose numbers are not finite
    let line = JSONLinesView.encode(
      event("status", id: 1, [.init("position", .number(.nan)), .init("rate", .number(.infinity))]))
    // When it is encoded
    // Then they are null, and the line is valid JSON
    #expect(line == #"{"event":"status","id":1,"position":null,"rate":null}"#)
    #expect(decoded(line)?["position"] is NSNull)
  }

  @Test func everyLineIsValidJSONOnOneLine() {
    // Given a presenter driving a JSON view
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    let presenter = PlaybackPresenter(interactor: InteractorSpy(), viewID: .primary)
    presenter.view = view
    // When it presents a session's events, with awkward strings in them
    presenter.present(.loading(path: "clip.mp4", paused: true), origin: nil)
    presenter.present(
      .ready(
        MediaInfo(
          path: "my \"clip\"\n.mp4", container: "mov,mp4,m4a,3gp,3g2,mj2",
          duration: MediaTime(seconds: 60),
          streamCount: 1, video: nil,
          audio: AudioStreamInfo(codec: "aac", sampleRate: 48000, channels: 2)), position: .zero), origin: nil)
    presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: 4, target: MediaTime(seconds: 30), position: MediaTime(seconds: 30.000000001),
            mode: .exact,
            milliseconds: 12.3456), requested: nil, duration: MediaTime(seconds: 60), showsTiming: true)),
      origin: .id(4))
    presenter.present(.superseded(newer: .id(6)), origin: .id(5))
    presenter.present(.error(PlaybackError(.unknownCommand, "no \\ such\tcommand")), origin: .id(7))
    presenter.present(.help, origin: .id(8))
    view.displayFinish()
    // Then each is one valid JSON object on one line, with typed values
    let lines = output.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 7)
    #expect(lines.last == "")
    #expect(lines[0] + "\n" == hello)
    for line in lines.dropLast() {
      #expect(decoded(String(line)) != nil, "\(line)")
    }
    #expect(
      lines[1]
        == #"{"event":"ready","path":"my \"clip\"\n.mp4","duration":60.0,"container":"mov,mp4,m4a,3gp,3g2,mj2","#
        + #""streams":1,"video":null,"audio":"aac","sample_rate":48000,"channels":2}"#)
    #expect(
      lines[2]
        == #"{"event":"seeked","id":4,"target":30.0,"position":30.0,"mode":"exact","ms":12.346}"#)
    #expect(lines[3] == #"{"event":"superseded","id":5,"by":6}"#)
    #expect(
      lines[4]
        == #"{"event":"error","id":7,"code":"unknown_command","message":"no \\ such\tcommand"}"#)
    #expect(
      lines[5]
        == #"{"event":"help","id":8,"commands":"play pause toggle scrub skip step rate status info frame mark snapshot open close next prev goto queue wait expect help quit"}"#
    )
  }

  @Test func onClosedIsCalledOnce() {
    // Given a JSON view whose output fails after the hello line
    let output = CapturedTextOutput(failAfter: 1)
    let closed = ClosedCounter()
    let view = JSONLinesView(output: output, onClosed: closed.callback)
    // When events keep arriving
    view.displayEvent(event("one"))
    view.displayEvent(event("two"))
    view.displayFinish()
    // Then onClosed is called once, and nothing is tried after the failed write
    #expect(closed.count == 1)
    #expect(output.writes == [hello])
    #expect(output.attempts == 2)
  }

  @Test func aFailedHelloClosesTheView() {
    // Given a JSON view whose output is already gone
    let output = CapturedTextOutput(failAfter: 0)
    let closed = ClosedCounter()
    let view = JSONLinesView(output: output, onClosed: closed.callback)
    // When the session starts and events arrive
    view.displayStatusLine(StatusLineViewModel(text: "…"))
    view.displayEvent(event("ready"))
    // Then onClosed is called once, for the hello line
    #expect(closed.count == 1)
    #expect(output.attempts == 1)
  }
}

@MainActor
@Suite("JSON lines view, protocol 2")
struct JSONLinesViewProtocolTests {
  @Test func helloAnnouncesProtocolTwoAndTheCapabilities() throws {
    // Given a JSON view, When it says hello, Then protocol 2, the version and every capability
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    view.displayFinish()
    let object = try #require(decoded(output.text.trimmingCharacters(in: .newlines)))
    #expect(object["protocol"] as? Int == 2)
    #expect(object["version"] as? String == VideoPlaybackKitVersion.current)
    #expect(
      object["capabilities"] as? [String] == [
        "json-commands", "client-ids", "virtual-clock", "wait", "expect", "step", "rate", "open-close", "loop",
        "snapshot",
      ])
  }

  @Test func listsEncodeAsArrays() {
    let line = JSONLinesView.encode(
      event("x", [.init("list", .list([.string("a\"b"), .integer(1), .number(2.5), .bool(true), .null, .list([])]))]))
    #expect(line == #"{"event":"x","list":["a\"b",1,2.5,true,null,[]]}"#)
    #expect(decoded(line) != nil)
  }

  @Test func aClientIDIsTheIDAndTheOrdinalIsSeq() {
    // Given events answering JSON commands with a string, an integer and a fractional id
    let events = [
      EventViewModel(event: "status", commandID: 3, clientID: .string("a1"), fields: [], text: ""),
      EventViewModel(event: "status", commandID: 4, clientID: .integer(7), fields: [], text: ""),
      EventViewModel(event: "status", commandID: 5, clientID: .number(2.5), fields: [], text: ""),
    ]
    // When encoded, Then `id` is the client's and `seq` the ordinal
    #expect(
      events.map(JSONLinesView.encode) == [
        #"{"event":"status","id":"a1","seq":3}"#, #"{"event":"status","id":7,"seq":4}"#,
        #"{"event":"status","id":2.5,"seq":5}"#,
      ])
  }

  @Test func presenterAndViewTogetherForAJSONCommand() {
    // Given a presenter over a JSON view, When a JSON command with an id is answered
    let output = CapturedTextOutput()
    let view = JSONLinesView(output: output, onClosed: {})
    let interactor = InteractorSpy()
    let presenter = PlaybackPresenter(interactor: interactor, viewID: .primary)
    presenter.view = view
    presenter.onInputLine(.text(#"{"command":"rate","args":[2],"id":"r"}"#))
    presenter.present(.rate(2), origin: interactor.origin(1))
    // Then the line carries the client's id and the ordinal
    #expect(output.writes.last == #"{"event":"rate","id":"r","seq":1,"rate":2.0}"# + "\n")
  }
}

// The mpv dialect's view: one JSON object a line, events written as events where the output tells them apart (so a
// client that ended its input is sent no more of them), replies as plain writes.

import Testing
import VideoPlaybackKit

@testable import VPKMPV

/// An output that keeps what was written, and how.
@MainActor
private final class RecordingEventOutput: EventTextOutput {
  var written: [String] = []
  var acceptsWrites = true

  func write(_ text: String) -> Bool {
    written.append("write " + text)
    return acceptsWrites
  }

  func writeEvent(_ text: String) -> Bool {
    written.append("event " + text)
    return acceptsWrites
  }
}

@MainActor
@Suite("mpv dialect view")
struct MPVLinesViewTests {
  @Test("an event goes out as an event, a reply as a write, each as one line")
  func eventsAndRepliesAreToldApart() {
    // Given the view on an output that tells events apart
    let output = RecordingEventOutput()
    let view = MPVLinesView(output: output, onClosed: {})
    // When it shows a reply, an event and a property change
    view.display(.reply(.integer(1), .success, data: .null))
    view.display(.object([MPVMember("event", .string("seek"))]))
    view.display(
      .object([
        MPVMember("event", .string("property-change")), MPVMember("id", .integer(1)),
        MPVMember("name", .string("pause")), MPVMember("data", .bool(true)),
      ]))
    // Then the reply is written plainly and both events as events, one JSON object a line
    #expect(
      output.written == [
        "write " + #"{"data":null,"request_id":1,"error":"success"}"# + "\n",
        "event " + #"{"event":"seek"}"# + "\n",
        "event " + #"{"event":"property-change","id":1,"name":"pause","data":true}"# + "\n",
      ])
  }

  @Test("the first write that fails closes the view: onClosed once, nothing written after")
  func aFailedWriteClosesTheView() {
    // Given the view on an output whose reader went away
    let output = RecordingEventOutput()
    output.acceptsWrites = false
    var closings = 0
    let view = MPVLinesView(output: output, onClosed: { closings += 1 })
    // When it shows an event, then a reply
    view.display(.object([MPVMember("event", .string("idle"))]))
    view.display(.reply(.integer(2), .success))
    // Then it told of the close once and wrote nothing more
    #expect(closings == 1)
    #expect(output.written.count == 1)
  }
}

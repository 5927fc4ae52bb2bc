// The display lines a view in another process shows (`vpk attach` on a terminal): each thing the view is asked to
// show is one JSON line, which reads back as what was shown; a reader that went away is reported once.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite struct DisplayLinesViewTests {
  @Test func eachThingShownIsOneLineThatReadsBackTheSame() throws {
    // Given the view over a captured output
    let output = CapturedTextOutput()
    let view = DisplayLinesView(output: output, onClosed: {})
    let error = EventViewModel(
      event: "error", commandID: 3, fields: [], text: "error #3 code=bad_argument message=\"x \\\"y\\\"\"",
      severity: .error)
    let progress = EventViewModel(
      event: "progress", commandID: nil, fields: [], text: "progress position=1.000", isTransient: true)
    let status = StatusLineViewModel(forms: ["⏸ 00:00:01.000 / 00:00:10.000  10.0%", "⏸ 00:00:01.000"])
    // When it shows an error, a progress event, a status line, and finishes
    view.displayEvent(error)
    view.displayEvent(progress)
    view.displayStatusLine(status)
    view.displayFinish()
    // Then each is one line, and each line reads back as what was shown (what a text view uses of an event)
    #expect(output.writes.count == 4)
    #expect(output.writes.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().allSatisfy { $0 != "\n" } })
    let read = output.writes.map { DisplayLine(decoding: String($0.dropLast())) }
    let shown: [DisplayLine] = [
      .event(EventViewModel(event: "error", commandID: nil, fields: [], text: error.text, severity: .error)),
      .event(
        EventViewModel(event: "progress", commandID: nil, fields: [], text: progress.text, isTransient: true)),
      .statusLine(status), .finish,
    ]
    #expect(read == shown)
    #expect(output.writes[3] == #"{"display":"finish"}"# + "\n")
  }

  @Test func aLineThatIsNotADisplayLineReadsAsNone() {
    for line in ["", "status", #"{"event":"status"}"#, #"{"display":"other"}"#, #"{"display":"status"}"#, "[1]"] {
      #expect(DisplayLine(decoding: line) == nil, "\(line)")
    }
  }

  @Test func aReaderThatWentAwayIsReportedOnceAndNothingMoreIsWritten() {
    let output = CapturedTextOutput(failAfter: 1)
    var closed = 0
    let view = DisplayLinesView(output: output, onClosed: { closed += 1 })
    view.displayFinish()
    view.displayFinish()
    view.displayFinish()
    #expect(closed == 1)
    #expect(output.attempts == 2)
  }
}

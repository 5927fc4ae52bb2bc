// What `vpk attach` on a terminal does with the daemon's display lines (a spy in place of its text view): events and
// status lines are shown as they come, its own markers' replies are not, and it knows when it may leave and why.

import Testing
import VideoPlaybackKit

@testable import VPKSocket

@MainActor
private final class ViewSpy: PlaybackView {
  var shown: [String] = []
  func displayEvent(_ event: EventViewModel) { shown.append("event \(event.text) \(event.severity)") }
  func displayStatusLine(_ status: StatusLineViewModel) { shown.append("status \(status.forms)") }
  func displayFinish() { shown.append("finish") }
}

/// A display line of an event as the daemon sends it: its name, the client id it answers (if any), its fields, its
/// text.
private func event(
  _ text: String, severity: EventViewModel.Severity = .info, fields: [EventViewModel.Field] = []
) -> String {
  let name = String(text.prefix { $0 != " " })
  let clientID = text.split(separator: " ").dropFirst().first.flatMap {
    $0.hasPrefix("#vpk-") ? String($0.dropFirst()) : nil
  }
  return DisplayLine.event(
    EventViewModel(
      event: name, commandID: nil, clientID: clientID.map { .string($0) }, fields: fields, text: text,
      severity: severity)
  ).encoded
}

@MainActor
@Suite struct AttachPresenterTests {
  @Test func showsEventsAndStatusLinesAsTheyComeButNotItsEndMarker() {
    // Given attach's presenter and a view
    let view = ViewSpy()
    let presenter = AttachPresenter()
    presenter.view = view
    // When the daemon sends a status line and an error
    #expect(presenter.receive(DisplayLine.statusLine(StatusLineViewModel(forms: ["⏸ 00:00:00.000", "⏸"])).encoded))
    #expect(presenter.receive(event("error #1 code=unknown_command", severity: .error)))
    // Then the status line and the error are shown
    #expect(view.shown == [#"status ["⏸ 00:00:00.000", "⏸"]"#, "event error #1 code=unknown_command error"])
    // When the reply to the end marker comes, attach may leave; nothing is shown of it
    #expect(!presenter.receive(event("status #vpk-attach-end state=paused position=0.000")))
    #expect(view.shown.count == 2)
    // And leaving clears the screen once
    presenter.leave()
    presenter.leave()
    #expect(view.shown.last == "finish")
    #expect(view.shown.count == 3)
  }

  @Test func keepsTheDaemonsShutdownReasonAndItsFinish() {
    let view = ViewSpy()
    let presenter = AttachPresenter()
    presenter.view = view
    // When the daemon shuts down
    #expect(
      presenter.receive(
        event(
          #"shutdown reason=SIGTERM state=paused position=1.000"#,
          fields: [.init("reason", .string("SIGTERM")), .init("state", .string("paused"))])))
    #expect(presenter.receive(DisplayLine.finish.encoded))
    // Then attach knows why (from the typed field, not the text), the view is finished once, and leaving adds nothing
    #expect(presenter.shutdownReason == "SIGTERM")
    presenter.leave()
    #expect(view.shown == ["event shutdown reason=SIGTERM state=paused position=1.000 info", "finish"])
  }

  @Test func aLineThatIsNotADisplayLineIsShownAsItCame() {
    let view = ViewSpy()
    let presenter = AttachPresenter()
    presenter.view = view
    #expect(presenter.receive("something else"))
    #expect(view.shown == ["event something else info"])
  }
}

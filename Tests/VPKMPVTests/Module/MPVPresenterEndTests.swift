import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv dialect presenter: a file's end")
@MainActor
struct MPVPresenterEndTests {
  @Test("a file closed by no command (--at-end idle) ends with eof, then idle, as mpv --idle")
  func closedAtTheEnd() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When it ends and the session closes it by itself
    harness.presenter.present(
      .ended(EndReached(position: MediaTime(seconds: 4), duration: MediaTime(seconds: 4), loops: 1)), origin: nil)
    harness.presenter.present(.closed, origin: nil)
    // Then the client hears end-file (eof) then idle
    #expect(
      harness.view.lines == [#"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#, #"{"event":"idle"}"#])
  }

  @Test("a file closed by a command (stop, close) ends with stop")
  func closedByACommand() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When another view's close closes it
    harness.presenter.present(.closed, origin: CommandOrigin(id: 7, sender: nil))
    // Then the reason is stop
    #expect(harness.view.lines.first == #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#)
  }
}

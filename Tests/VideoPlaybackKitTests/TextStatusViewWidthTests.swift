import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

private let clear = "\r\u{1B}[2K"
private let reset = "\u{1B}[0m"

/// The last line as the view draws it: with autowrap off.
private func drawn(_ line: String) -> String { "\u{1B}[?7l" + line + "\u{1B}[?7h" }

private func event(_ text: String, _ name: String) -> EventViewModel {
  EventViewModel(event: name, commandID: nil, fields: [], text: text, severity: .info)
}

/// Delays the test ends itself: the view's waits are kept, and run when the test says their time has passed.
@MainActor
final class ManualDelays {
  private var pending: [(delay: Duration, action: @MainActor () -> Void)] = []
  var after: @MainActor (Duration, @escaping @MainActor () -> Void) -> Void {
    { [unowned self] delay, action in pending.append((delay, action)) }
  }
  /// How many actions wait on `delay`.
  func waiting(_ delay: Duration) -> Int { pending.filter { $0.delay == delay }.count }
  /// Runs the first action still waiting on `delay`, as when that much time has passed since it began.
  func endFirst(_ delay: Duration) {
    guard let index = pending.firstIndex(where: { $0.delay == delay }) else { return }
    pending.remove(at: index).action()
  }
  /// Runs every action waiting on `delay`, in the order they began.
  func endAll(_ delay: Duration) {
    while waiting(delay) > 0 { endFirst(delay) }
  }
}

/// A terminal view on a window whose width the test changes, with the view's waits ended by the test.
@MainActor
struct ResizableTerminal {
  let output = CapturedTextOutput()
  let width: TextStatusViewWidthTests.Width
  let delays = ManualDelays()
  let view: TextStatusView

  init(columns: Int) {
    let width = TextStatusViewWidthTests.Width(columns)
    self.width = width
    view = TextStatusView(
      output: output, isTerminal: true, useColor: false, columns: { width.columns }, onClosed: {},
      after: delays.after)
  }

  /// The window is resized to `columns`, and stays that wide until the view takes the width as settled.
  func resize(to columns: Int) {
    width.columns = columns
    view.displayResize()
    delays.endAll(ResizeHold.settleDelay)
  }
}

@MainActor
@Suite("Text status view on a window of known width")
struct TextStatusViewWidthTests {
  /// A width the test changes, as a resize would.
  final class Width {
    var columns: Int
    init(_ columns: Int) { self.columns = columns }
  }

  private let full = StatusLineViewModel(
    forms: StatusLineText.forms(state: .paused, position: MediaTime(seconds: 7), duration: MediaTime(seconds: 30)))

  @Test func theStatusLineIsCutToTheWindowAndRefittedOnAResize() {
    // Given a terminal view 40 columns wide
    let terminal = ResizableTerminal(columns: 40)
    let output = terminal.output, view = terminal.view
    // When the status line is shown
    view.displayStatusLine(full)
    // Then the form without the bar is drawn
    #expect(output.writes.last == clear + drawn("⏸ 00:00:07.000 / 00:00:30.000   23.3%"))
    // When the window grows to 120 columns
    terminal.resize(to: 120)
    // Then, once the width has settled, the line is redrawn whole, clearing to the end of the screen
    #expect(output.writes.last == "\r\u{1B}[J" + drawn("⏸ 00:00:07.000 / 00:00:30.000   23.3%  [████░░░░░░░░░░░░░░]"))
    // When it shrinks to 20 columns below where the cursor was (column 59)
    terminal.resize(to: 20)
    // Then the redraw goes up the rows a rewrapping terminal split the old line into, and clears them
    #expect(output.writes.last == "\r\u{1B}[2A\u{1B}[J" + drawn("⏸ 00:00:07.000"))
  }

  @Test func aLineThatFillsItsLastRowLeavesTheCursorOnThatRow() {
    // Given a terminal view 120 columns wide showing a 40-column line, the cursor after it
    let terminal = ResizableTerminal(columns: 120)
    let output = terminal.output, view = terminal.view
    let forty = String(repeating: "x", count: 40)
    view.displayStatusLine(StatusLineViewModel(forms: [forty, "short"]))
    // When the window narrows to 20 columns (the old line makes two full rows)
    terminal.resize(to: 20)
    // Then the redraw goes up one row, not two: the cursor waits at the end of the second row
    #expect(output.writes.last == "\r\u{1B}[1A\u{1B}[J" + drawn("short"))
  }

  @Test func aCursorInsideTheTypedCommandIsOnTheRowItsColumnFalls() {
    // Given a terminal view 120 columns wide with the cursor at column 40, inside a typed command
    let terminal = ResizableTerminal(columns: 120)
    let output = terminal.output, view = terminal.view
    view.displayStatusLine(StatusLineViewModel(text: String(repeating: "x", count: 32)))
    view.displayTypedInput(.editing(before: "abcd", after: "efgh"))
    // When the window narrows to 20 columns
    terminal.resize(to: 20)
    // Then the redraw goes up from the third row of the old line, where column 40 falls
    #expect(output.writes.last?.hasPrefix("\r\u{1B}[2A\u{1B}[J") == true, "\(output.writes)")
  }

  @Test func aRedrawBeforeTheResizeIsReportedWaitsForTheWidthToSettle() {
    // Given a terminal view 120 columns wide showing its full line (59 columns)
    let terminal = ResizableTerminal(columns: 120)
    let output = terminal.output, width = terminal.width, delays = terminal.delays, view = terminal.view
    view.displayStatusLine(full)
    // When the window narrows to 20 columns and the line changes before the resize is reported
    width.columns = 20
    view.displayStatusLine(
      StatusLineViewModel(
        forms: StatusLineText.forms(state: .paused, position: MediaTime(seconds: 8), duration: MediaTime(seconds: 30))))
    // Then nothing is drawn until the width has settled
    #expect(output.writes.count == 1)
    // When the resize is reported and the width has been still since
    view.displayResize()
    delays.endAll(ResizeHold.settleDelay)
    // Then one draw goes up the rows of the old line, clears them, and draws the new line
    #expect(output.writes.count == 2)
    #expect(output.writes.last == "\r\u{1B}[2A\u{1B}[J" + drawn("⏸ 00:00:08.000"))
  }

  @Test func eventsDuringAResizeAreHeldAndWrittenUnderOneDrawOnceTheWidthSettles() {
    // Given a terminal view 120 columns wide showing its full line (59 columns) and a prompt
    let terminal = ResizableTerminal(columns: 120)
    let output = terminal.output, width = terminal.width, delays = terminal.delays, view = terminal.view
    view.displayStatusLine(full)
    let before = output.writes.count
    // When the window narrows to 40, a command is submitted and answered, and the window narrows again to 20
    width.columns = 40
    view.displayResize()
    view.displayTypedInput(.submitted("rate 1.5"))
    view.displayEvent(event("rate #5 rate=1.5", "rate"))
    width.columns = 20
    view.displayResize()
    // Then nothing is written while the width changes, nor when the first wait ends after a later one began
    delays.endFirst(ResizeHold.settleDelay)
    #expect(output.writes.count == before)
    // When the latest wait ends
    delays.endAll(ResizeHold.settleDelay)
    // Then one write goes up the old line's rows at 20 columns, prints what was held, and draws the line for 20
    #expect(output.writes.count == before + 1)
    #expect(
      output.writes.last == "\r\u{1B}[2A\u{1B}[J" + "› rate 1.5\n" + "rate #5 rate=1.5\n" + drawn("⏸ 00:00:07.000  › "))
  }

  @Test func aHoldThatLastsTooLongCountsTheOldLinesRowsAtTheWidestWidthSeen() {
    // Given a terminal view 120 columns wide showing its full line (59 columns), its width still changing
    let terminal = ResizableTerminal(columns: 120)
    let output = terminal.output, width = terminal.width, delays = terminal.delays, view = terminal.view
    view.displayStatusLine(full)
    width.columns = 20
    view.displayResize()
    view.displayEvent(event("frame #2 pts=0", "frame"))
    // When the longest hold ends before the width settles
    delays.endAll(ResizeHold.longest)
    // Then what was held is written under the line, going up no row: at 120 columns the old line took one
    #expect(output.writes.last == "\r\u{1B}[J" + "frame #2 pts=0\n" + drawn("⏸ 00:00:07.000"))
    // and the settle that follows draws nothing more
    let count = output.writes.count
    delays.endAll(ResizeHold.settleDelay)
    #expect(output.writes.count == count)
  }

  @Test func finishingDuringAResizeWritesWhatWasHeld() {
    // Given a terminal view whose width is changing, with an event held
    let terminal = ResizableTerminal(columns: 60)
    let output = terminal.output, width = terminal.width, delays = terminal.delays, view = terminal.view
    view.displayStatusLine(StatusLineViewModel(text: "⏸ x"))
    width.columns = 50
    view.displayResize()
    view.displayEvent(event("shutdown #3 reason=quit", "shutdown"))
    // When the session finishes, and the wait ends afterwards
    view.displayFinish()
    let finished = output.writes.last
    delays.endAll(ResizeHold.settleDelay)
    delays.endAll(ResizeHold.longest)
    // Then the held event is written at the finish, and nothing after it
    #expect(finished == "\r\u{1B}[J" + "shutdown #3 reason=quit\n")
    #expect(output.writes.last == finished)
  }

  @Test func theCursorIsPutBackInsideTheTypedCommand() {
    // Given a terminal view 60 columns wide showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, columns: { 60 }, onClosed: {})
    view.displayStatusLine(full)
    // When a command is being typed with the cursor inside it
    view.displayTypedInput(.editing(before: "skip -", after: "2"))
    // Then the line is drawn, and the cursor moved back onto the "2"
    let line = "⏸ 00:00:07.000 / 00:00:30.000   23.3%  › skip -2"
    #expect(output.writes.last == clear + drawn(line) + "\r\u{1B}[\(DisplayWidth.columns(line) - 1)C")
  }

  @Test func theFirstPromptComesWithAHintAbove() {
    // Given a terminal view showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, columns: { 60 }, onClosed: {})
    view.displayStatusLine(StatusLineViewModel(text: "⏸ x"))
    // When the first prompt is shown
    view.displayFirstPrompt()
    // Then the hint is printed above the line, which ends in the prompt
    #expect(output.writes.last == clear + "type a command, or ? for keys\n" + drawn("⏸ x  › "))
  }

  @Test func helpsTablesAreLaidOutForTheWidth() {
    // Given a terminal view 40 columns wide
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, columns: { 40 }, onClosed: {})
    // When a table row too long for it is shown
    view.displayEvent(event("help #1\n  frame              write the frame on screen as a PNG", "help"))
    // Then it is broken between words and goes on under its last column
    #expect(
      output.writes.last
        == clear + "help #1\n  frame              write the frame on\n                     screen as a PNG\n")
  }

  @Test func closedInputTakesThePromptAway() {
    // Given a terminal view with a prompt
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, columns: { 60 }, onClosed: {})
    view.displayStatusLine(StatusLineViewModel(text: "⏸ x"))
    view.displayTypedInput(.editing(before: "", after: ""))
    #expect(output.writes.last == clear + drawn("⏸ x  › "))
    // When the input ends
    view.displayTypedInput(.closed)
    // Then the line is drawn without the prompt
    #expect(output.writes.last == clear + drawn("⏸ x"))
  }

  @Test func suspendClearsTheLineAndContinueDrawsItAgain() {
    // Given a terminal view with colour showing a status line and a prompt
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: true, columns: { 60 }, onClosed: {})
    view.displayStatusLine(StatusLineViewModel(text: "⏸ x"))
    view.displayTypedInput(.editing(before: "st", after: ""))
    // When the process is about to stop, then continues
    view.displaySuspend()
    let suspended = output.writes.last
    view.displayContinue()
    // Then the line is cleared (colours reset) before, and drawn again after
    #expect(suspended == clear + reset)
    #expect(output.writes.last == clear + drawn("⏸ x  › st"))
  }
}

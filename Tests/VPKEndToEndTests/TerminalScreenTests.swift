// End-to-end tests of what a person sees on a terminal: vpk run by a shell in a real terminal (tmux), typed
// at with send-keys, resized, suspended and continued, its screen read with capture-pane and asserted.
// Screens are polled until they show what is expected; the polls' timeouts only guard against hangs.

import Foundation
import Testing
import VPKTestSupport

/// The rows of a screen that hold the status line (a state glyph followed by a clock).
private func statusRows(_ screen: [String]) -> [String] {
  screen.filter { row in
    ["▶ 00:", "◀ 00:", "⏸ 00:", "■ 00:"].contains { row.hasPrefix($0) }
  }
}

/// Terminal columns of a row (the glyphs, blocks and prompt used all take one).
private func columns(_ row: String) -> Int { row.count }

@Suite("Terminal screen (tmux)", .serialized)
struct TerminalScreenTests {
  private static func media() throws -> String { try TestMedia.url(for: .h264BFrames).path }

  /// Starts `vpk play` on the 10 s clip in the terminal's shell, paused, and waits for its status line.
  private func startPaused(_ terminal: TmuxTerminal, extra: String = "") throws -> [String] {
    try terminal.type("vpk play '\(Self.media())' --paused --clock wall \(extra)")
    try terminal.press("Enter")
    return try terminal.waitForScreen("the paused status line") { screen in
      screen.last?.hasPrefix("⏸ 00:00:00.000") == true
    }
  }

  @Test(arguments: [40, 60, 120])
  func thePausedStatusLineFitsTheWidthInItsLongestForm(width: Int) throws {
    // Given a terminal `width` columns wide
    let terminal = try TmuxTerminal(width: width)
    // When vpk starts paused
    let screen = try startPaused(terminal)
    // Then the last row is the one status line, narrower than the window, in the longest form that fits
    // beside the prompt
    let last = try #require(screen.last)
    #expect(statusRows(screen) == [last], "\(screen)")
    #expect(columns(last) < width, "\(last)")
    #expect(last.hasSuffix("›"), "\(last)")
    switch width {
    case 120: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000    0.0%  [░░░░░░░░░░░░░░░░░░]  ›")
    case 60: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000    0.0%  ›")
    default: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000  ›")
    }
    try terminal.press("C-c")
  }

  @Test(arguments: [40, 60])
  func playingAtANarrowWidthRedrawsInPlaceWithoutScrolling(width: Int) throws {
    // Given vpk playing on a narrow terminal
    let terminal = try TmuxTerminal(width: width)
    _ = try startPaused(terminal)
    try terminal.type("play")
    try terminal.press("Enter")
    // When it has played for a while (many redraws)
    let screen = try terminal.waitForScreen("playback past 1.5 s") { screen in
      guard let last = screen.last, last.hasPrefix("▶ 00:00:0") else { return false }
      return last >= "▶ 00:00:01.500"
    }
    // Then there is still exactly one status line, and it fits
    #expect(statusRows(screen).count == 1, "\(screen)")
    #expect(screen.allSatisfy { columns($0) < width || !$0.hasPrefix("▶") }, "\(screen)")
    try terminal.press("C-c")
  }

  @Test func aLongTypedCommandScrollsWithinItsFieldAt120Columns() throws {
    // Given vpk paused on a 120-column terminal
    let terminal = try TmuxTerminal(width: 120)
    _ = try startPaused(terminal)
    // When a 90-character command is typed
    let command = "expect position == 0 # " + String(repeating: "abcdefghij", count: 6) + "-THE-END"
    try terminal.type(command)
    // Then the last row shows its end, fits, and no other row holds a status line
    let screen = try terminal.waitForScreen("the end of the typed command") { $0.last?.hasSuffix("-THE-END") == true }
    let last = try #require(screen.last)
    #expect(columns(last) < 120, "\(last)")
    #expect(statusRows(screen) == [last], "\(screen)")
    // When the cursor goes Home, the start of the command is shown instead
    try terminal.press("Home")
    try terminal.waitForScreen("the start of the typed command") {
      $0.last?.contains("› expect position == 0 # abc") == true
    }
    try terminal.press("C-c")
  }

  @Test func aResizeRefitsTheLineAndLeavesNothingBehind() throws {
    // Given vpk paused on a 120-column terminal, with an event printed above its status line
    let terminal = try TmuxTerminal(width: 120)
    _ = try startPaused(terminal)
    // When the window narrows to 40, then 60, then widens to 120
    for (width, expected) in [
      (40, "⏸ 00:00:00.000 / 00:00:10.000  ›"), (60, "⏸ 00:00:00.000 / 00:00:10.000    0.0%  ›"),
      (120, "⏸ 00:00:00.000 / 00:00:10.000    0.0%  [░░░░░░░░░░░░░░░░░░]  ›"),
    ] {
      try terminal.resize(width: width)
      // Then the line is redrawn in the form for that width, and no piece of an older one is left on screen
      let screen = try terminal.waitForScreen("the line refitted to \(width)") { $0.last == expected }
      #expect(statusRows(screen).count == 1, "\(width): \(screen)")
      #expect(
        !screen.dropLast().contains { $0.contains("░") || $0.contains("0.0%") || $0.hasPrefix("›") },
        "\(width): \(screen)")
    }
    try terminal.press("C-c")
  }

  @Test func theTypedLineIsEditedAndRememberedAcrossSessions() throws {
    // Given vpk paused on a 100-column terminal
    let terminal = try TmuxTerminal(width: 100)
    _ = try startPaused(terminal)
    // When "skip -2" is typed, the cursor goes Left twice and X is typed
    try terminal.type("skip -2")
    try terminal.press("Left", "Left")
    try terminal.type("X")
    // Then the X is inserted before "-2"
    try terminal.waitForScreen("skip X-2") { $0.last?.hasSuffix("› skip X-2") == true }
    // When Home, "#" (a comment), End, Backspace, Ctrl-A, Ctrl-K, then "scrub 5" Left "1" Enter
    try terminal.press("Home")
    try terminal.type("#")
    try terminal.press("End", "BSpace")
    try terminal.waitForScreen("#skip X-") { $0.last?.hasSuffix("› #skip X-") == true }
    try terminal.press("C-a", "C-k")
    try terminal.waitForScreen("an empty prompt") { $0.last?.hasSuffix("›") == true }
    try terminal.type("scrub 5")
    try terminal.press("Left")
    try terminal.type("1")
    try terminal.press("Enter")
    // Then the command submitted is "scrub 15", wherever the cursor was
    try terminal.waitForScreen("the seek to 15 s clamped… or done") { screen in
      screen.contains("› scrub 15") && screen.contains { $0.hasPrefix("seeked #1 ") }
    }
    // When Up is pressed, the command comes back; Enter runs it again; then the session quits
    try terminal.press("Up")
    try terminal.waitForScreen("scrub 15 recalled") { $0.last?.hasSuffix("› scrub 15") == true }
    try terminal.press("C-u")
    try terminal.type("quit")
    try terminal.press("Enter")
    try terminal.waitForScreen("the shell's prompt") { $0.last == "$" }
    // Then the history file keeps the commands but not the quit, and a new session recalls them with Up: the first
    // Up brings back `scrub 15`, never a `quit` that would leave at Enter
    let history = try String(
      contentsOf: terminal.home.appendingPathComponent("state/vpk/history"), encoding: .utf8)
    #expect(history == "scrub 15\n")
    try terminal.press("C-l")
    _ = try startPaused(terminal)
    try terminal.press("Up")
    try terminal.waitForScreen("scrub 15 from the last session") { $0.last?.hasSuffix("› scrub 15") == true }
    try terminal.press("C-c")
  }

  @Test func controlZThenFgBringsBackTheEditorAndTheStatusLine() throws {
    // Given vpk paused in a shell on a 80-column terminal
    let terminal = try TmuxTerminal(width: 80)
    _ = try startPaused(terminal)
    // When Ctrl-Z stops it
    try terminal.press("C-z")
    // Then the shell gets a clean, cooked terminal: what is typed is echoed before Enter
    try terminal.waitForScreen("the shell after ^Z") { $0.last == "$" && $0.contains { $0.contains("Stopped") } }
    try terminal.type("echo typed-in-cooked-mode")
    try terminal.waitForScreen("the shell's echo") { $0.last == "$ echo typed-in-cooked-mode" }
    try terminal.press("Enter")
    try terminal.waitForScreen("the command's output") { $0.contains("typed-in-cooked-mode") && $0.last == "$" }
    // When fg continues vpk
    try terminal.type("fg")
    try terminal.press("Enter")
    // Then its status line is back, paused, with the prompt, and typing shows at once
    try terminal.waitForScreen("the status line after fg") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
    try terminal.type("stat")
    try terminal.waitForScreen("the typed text") { $0.last?.hasSuffix("› stat") == true }
    try terminal.type("us")
    try terminal.press("Enter")
    try terminal.waitForScreen("the status reply") { $0.contains { $0.hasPrefix("status #1 state=paused") } }
    try terminal.press("C-c")
  }

  @Test func controlDTakesThePromptAway() throws {
    // Given vpk playing on a 80-column terminal
    let terminal = try TmuxTerminal(width: 80)
    _ = try startPaused(terminal)
    try terminal.type("play")
    try terminal.press("Enter")
    try terminal.waitForScreen("playing") { $0.last?.hasPrefix("▶") == true }
    // When Ctrl-D ends the input
    try terminal.press("C-d")
    // Then the status line goes on without the prompt
    let screen = try terminal.waitForScreen("the line without its prompt") { screen in
      screen.last?.hasPrefix("▶") == true && screen.last?.contains("›") == false
    }
    #expect(statusRows(screen).count == 1, "\(screen)")
    try terminal.press("C-c")
  }

  @Test func controlCEndsOnTheShutdownEventWithNoStaleStatusLineAfterIt() throws {
    // Given vpk playing on a 80-column terminal
    let terminal = try TmuxTerminal(width: 80)
    _ = try startPaused(terminal)
    try terminal.type("play")
    try terminal.press("Enter")
    try terminal.waitForScreen("playing past 0.5 s") {
      $0.last.map { $0 >= "▶ 00:00:00.500" && $0.hasPrefix("▶") } == true
    }
    // When Ctrl-C interrupts it
    try terminal.press("C-c")
    // Then the shutdown event is the last thing vpk printed: no status line after it (the shell's prompt follows)
    let screen = try terminal.waitForScreen("the shell after vpk") { $0.last == "$" }
    let shutdown = try #require(screen.lastIndex { $0.hasPrefix("shutdown reason=SIGINT") }, "\(screen)")
    // (the event itself may wrap onto the rows after it; no status line may follow)
    #expect(screen[(shutdown + 1)...].last == "$", "\(screen)")
    #expect(!screen[(shutdown + 1)...].contains { $0.contains("00:00:") || $0.contains("›") }, "\(screen)")
    #expect(statusRows(screen).isEmpty, "\(screen)")
  }

  @Test func afterPauseTheStatusLineAgreesWithTheStateEvent() throws {
    // Given vpk playing on a 80-column terminal
    let terminal = try TmuxTerminal(width: 80)
    _ = try startPaused(terminal)
    try terminal.type("play")
    try terminal.press("Enter")
    try terminal.waitForScreen("playing past 1 s") {
      $0.last.map { $0 >= "▶ 00:00:01.000" && $0.hasPrefix("▶") } == true
    }
    // When it is paused, and a later command makes sure every report before it has been shown
    try terminal.type("pause")
    try terminal.press("Enter")
    try terminal.type("status")
    try terminal.press("Enter")
    let screen = try terminal.waitForScreen("the status reply") { $0.contains { $0.hasPrefix("status #3 ") } }
    // Then the status line shows the position the state event gave
    let state = try #require(screen.first { $0.hasPrefix("state #2 state=paused") }, "\(screen)")
    let position = try #require(
      state.split(separator: " ").first { $0.hasPrefix("position=") }?.dropFirst("position=".count))
    let seconds = try #require(Double(position))
    let clock = String(format: "00:00:%06.3f", seconds)
    #expect(screen.last?.hasPrefix("⏸ \(clock) ") == true, "\(state) / \(screen.last ?? "")")
    try terminal.press("C-c")
  }

  @Test func keysOnAnEmptyLineActAtOnceAndALetterStartsACommand() throws {
    // Given vpk paused on an 80-column terminal
    let terminal = try TmuxTerminal(width: 80)
    _ = try startPaused(terminal)
    // When `.` is pressed on the empty line, Then the next frame is shown (the line sent is `step +1`)
    try terminal.type(".")
    try terminal.waitForScreen("a step forward") { screen in
      screen.contains("› step +1") && screen.last?.hasPrefix("⏸ 00:00:00.033") == true
    }
    // When `]` is pressed, Then the status line shows the speed, 1.1
    try terminal.type("]")
    try terminal.waitForScreen("the speed on the status line") { $0.last?.contains("  x1.10  ") == true }
    // When Space is pressed, Then it plays; and again, it pauses
    try terminal.press("Space")
    try terminal.waitForScreen("playing") { $0.last?.hasPrefix("▶ ") == true }
    try terminal.press("Space")
    try terminal.waitForScreen("paused again") { screen in
      screen.filter { $0 == "› toggle" }.count == 2 && screen.last?.hasPrefix("⏸ ") == true
    }
    // When `?` is pressed, Then the keys are listed
    try terminal.type("?")
    try terminal.waitForScreen("the keys listed") { screen in
      screen.contains("keys, on an empty line at a terminal:")
        && screen.contains { $0.hasPrefix("  ]") && $0.contains("rate *1.1") }
    }
    // When a letter is typed, then `.` and a space, Then they are typed, not acted on
    try terminal.type("p. ")
    try terminal.waitForScreen("typed text") { $0.last?.hasSuffix("› p.") == true }
    try terminal.press("C-c")
  }

  @Test func spaceWithNothingLoadedSaysInWordsWhatItSet() throws {
    // Given vpk with nothing loaded on a 120-column terminal
    let terminal = try TmuxTerminal(width: 120)
    try terminal.type("vpk play --idle")
    try terminal.press("Enter")
    try terminal.waitForScreen("the first prompt") { $0.contains("type a command, or ? for keys") }
    // When Space is pressed on the empty line
    try terminal.press("Space")
    // Then the answer keeps its fields and says that nothing is loaded and how the next file will start
    let screen = try terminal.waitForScreen("the answer") { $0.contains { $0.hasPrefix("next #1 ") } }
    let answer = try #require(screen.first { $0.hasPrefix("next #1 ") })
    #expect(
      answer == "next #1 paused=true (nothing is loaded: open a file with open <path>; it will start paused)",
      "\(screen)")
    try terminal.press("C-c")
  }

  @Test(arguments: [20, 30])
  func theNarrowestFormStillShowsThePositionAndTheSpeedWhenItFits(width: Int) throws {
    // Given vpk paused at speed 2 on a terminal `width` columns wide
    let terminal = try TmuxTerminal(width: width)
    _ = try startPaused(terminal)
    try terminal.type("rate 2")
    try terminal.press("Enter")
    try terminal.waitForScreen("the rate's reply") { $0.contains { $0.hasPrefix("rate #1") } }
    // When the line is drawn, Then the position shows, and the speed too where it fits beside the prompt
    let screen = try terminal.waitForScreen("the position") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
    let last = try #require(screen.last)
    #expect(columns(last) < width, "\(last)")
    #expect(last == (width == 20 ? "⏸ 00:00:00.000  ›" : "⏸ 00:00:00.000  x2.00  ›"), "\(screen)")
    try terminal.press("C-c")
  }

  @Test func theLineKeepsItsWidthAsThePercentageGrows() throws {
    // Given vpk paused on a 120-column terminal
    let terminal = try TmuxTerminal(width: 120)
    _ = try startPaused(terminal)
    // When it goes to 0.5 s (5 %) and then 5 s (50 %)
    try terminal.type("scrub 0.5")
    try terminal.press("Enter")
    let early = try terminal.waitForScreen("5 %") { $0.last?.contains("  5.0%") == true }
    try terminal.type("scrub 5")
    try terminal.press("Enter")
    let later = try terminal.waitForScreen("50 %") { $0.last?.contains(" 50.0%") == true }
    // Then the prompt after the line stays in the same column
    #expect(columns(try #require(early.last)) == columns(try #require(later.last)), "\(early) \(later)")
    try terminal.press("C-c")
  }

  /// Resizes step by step while playing, as a window's edge dragged, and reads every row the terminal holds after each.
  @Test(arguments: [
    (120, [20, 120]), (80, [30, 80]), (120, [100, 70, 50, 30, 20, 40, 90]),
    // 63 columns (the line at 120, its prompt and the cursor after it) make three rows of 21
    (120, [21, 120]),
  ])
  func resizingWhilePlayingLeavesNoPieceOfAnOldLineOnScreenOrInTheScrollback(start: Int, widths: [Int]) throws {
    // Given vpk playing on a terminal `start` columns wide, with its status line drawn in place
    let terminal = try TmuxTerminal(width: start)
    _ = try startPaused(terminal)
    try terminal.press("Space")
    var last = try #require(try terminal.waitForScreen("playing") { $0.last?.hasPrefix("▶ 00:") == true }.last)
    var previousWidth = start
    for width in widths {
      // When the window is resized while the line is redrawn, and the line has since been drawn again whole in the
      // form for the new width (wider when the window widened), at a later position
      try terminal.resize(width: width)
      let before = last
      last = try #require(
        try terminal.waitForScreen("the line redrawn at \(width)") { screen in
          guard let row = screen.last, row.hasPrefix("▶ 00:"), row.hasSuffix("›"), columns(row) < width,
            row.prefix(14) != before.prefix(14)
          else { return false }
          return width < previousWidth || columns(row) > columns(before)
        }.last)
      previousWidth = width
      // Then the screen and the scrollback hold the one current status line, last, and the lines really printed (the
      // command, the events, the echoed `toggle`): no row holds a piece of an older status line
      let rows = try terminal.screenAndHistory()
      let markers = ["▶", "⏸", "■", "◀", "00:00:", "%", "░", "█", "›"]
      let pieces = rows.dropLast().filter { row in row != "› toggle" && markers.contains { row.contains($0) } }
      #expect(pieces.isEmpty, "\(width): \(pieces) in\n\(rows.joined(separator: "\n"))")
      #expect(rows.last?.hasPrefix("▶ 00:") == true, "\(width): \(rows)")
      #expect(rows.filter { $0 == "› toggle" }.count == 1, "\(width): \(rows)")
      // and no row of what was printed above the line is cleared
      let lines = try terminal.screenAndHistory(joiningWrappedRows: true)
      // (the position the event reports is where the clock stood as it started, 0.000 or a few ms on a busy machine)
      #expect(
        lines.contains { $0.hasPrefix("state #1 state=playing position=0.0") && $0.hasSuffix(" duration=10.000") },
        "\(width): \(lines)")
    }
    try terminal.press("C-c")
  }
}

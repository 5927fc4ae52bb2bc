import Testing

@testable import VideoPlaybackKit

@Suite("Display width and the last line's layout")
struct TerminalWidthTests {
  @Test func glyphsAndBarBlocksTakeOneColumnWideAndZeroWidthCharactersAreCounted() {
    // Given the status line's glyphs, wide CJK and emoji, and combining marks
    // Then each is counted as a terminal lays it out
    #expect(DisplayWidth.columns("▶⏸■…○█░›") == 8)
    #expect(DisplayWidth.columns("ab") == 2)
    #expect(DisplayWidth.columns("日本") == 4)
    #expect(DisplayWidth.columns("🎬") == 2)
    #expect(DisplayWidth.columns("e\u{301}") == 1)
    #expect(DisplayWidth.columns("\u{200B}x\u{7}") == 1)
    #expect(DisplayWidth.columns("⏸\u{FE0F}") == 2)
  }

  @Test func prefixAndSuffixNeverSplitAWideCharacter() {
    #expect(DisplayWidth.prefix("a日本", fitting: 2) == "a")
    #expect(DisplayWidth.prefix("a日本", fitting: 3) == "a日")
    #expect(DisplayWidth.suffix("日本b"[...], fitting: 2) == "b")
    #expect(DisplayWidth.suffix("日本b"[...], fitting: 3) == "本b")
  }

  private let forms = StatusLineText.forms(
    state: .playing, position: MediaTime(seconds: 8.3), duration: MediaTime(seconds: 30))

  @Test func formsGoFromTheFullLineToGlyphAndPosition() {
    #expect(
      forms == [
        "▶ 00:00:08.300 / 00:00:30.000   27.7%  [████░░░░░░░░░░░░░░]",
        "▶ 00:00:08.300 / 00:00:30.000   27.7%",
        "▶ 00:00:08.300 / 00:00:30.000",
        "▶ 00:00:08.300",
      ])
    #expect(
      StatusLineText.forms(state: .paused, position: .zero, duration: nil) == [
        "⏸ 00:00:00.000 / --:--:--.---", "⏸ 00:00:00.000",
      ])
  }

  @Test(arguments: [
    (120, "▶ 00:00:08.300 / 00:00:30.000   27.7%  [████░░░░░░░░░░░░░░]"),
    (60, "▶ 00:00:08.300 / 00:00:30.000   27.7%  [████░░░░░░░░░░░░░░]"),
    (59, "▶ 00:00:08.300 / 00:00:30.000   27.7%"),
    (38, "▶ 00:00:08.300 / 00:00:30.000   27.7%"),
    (37, "▶ 00:00:08.300 / 00:00:30.000"),
    (36, "▶ 00:00:08.300 / 00:00:30.000"),
    (30, "▶ 00:00:08.300 / 00:00:30.000"),
    (29, "▶ 00:00:08.300"),
    (10, "▶ 00:00:0"),
  ])
  func theLongestFormThatFitsInWidthMinusOneColumnsIsShown(width: Int, expected: String) {
    // Given the status line's forms and no prompt, when laid out at this width
    let layout = StatusLineLayout(forms: forms, typed: nil, width: width)
    // Then the longest form that leaves the last column free is chosen (the last one cut if none does)
    #expect(layout.text == expected)
    #expect(DisplayWidth.columns(layout.text) <= width - 1)
    #expect(layout.cursorColumn == DisplayWidth.columns(layout.text))
  }

  @Test func aPromptTakesRoomFromTheStatusLineFirst() {
    // Given a short typed command at 60 columns
    let layout = StatusLineLayout(forms: forms, typed: ("pau", ""), width: 60)
    // Then the bar goes and the prompt follows the line, the cursor after what was typed
    #expect(layout.text == "▶ 00:00:08.300 / 00:00:30.000   27.7%  › pau")
    #expect(layout.cursorColumn == DisplayWidth.columns(layout.text))
    // And at 40 columns the percentage goes too, and at 30 all but glyph and position
    #expect(
      StatusLineLayout(forms: forms, typed: ("pau", ""), width: 40).text == "▶ 00:00:08.300 / 00:00:30.000  › pau")
    #expect(StatusLineLayout(forms: forms, typed: ("pau", ""), width: 30).text == "▶ 00:00:08.300  › pau")
  }

  @Test func aLongTypedCommandScrollsWithinItsFieldKeepingTheCursorInView() {
    // Given a 90-character command at 120 columns with the cursor at its end
    let command = "open " + String(repeating: "x", count: 80) + ".mp4X"
    let end = StatusLineLayout(forms: forms, typed: (command, ""), width: 120)
    // Then the line fits (the cursor's cell, column 118, being the last of the 119 it may use), shows
    // the end of the command, and the cursor sits after it
    #expect(DisplayWidth.columns(end.text) == 118)
    #expect(end.text.hasSuffix(".mp4X"))
    #expect(end.text.contains("› "))
    #expect(end.cursorColumn == 118)
    // When the cursor is at the start, the start is shown, and the cursor is on its first character
    let start = StatusLineLayout(forms: forms, typed: ("", command), width: 120)
    #expect(DisplayWidth.columns(start.text) <= 119)
    #expect(start.text.contains("› open xxx"))
    let promptEnd = start.text.range(of: "› ")!.upperBound
    #expect(start.cursorColumn == DisplayWidth.columns(start.text[..<promptEnd]))
  }

  @Test func aVeryNarrowWindowStillNeverTakesTheLastColumn() {
    for width in 1...24 {
      let layout = StatusLineLayout(forms: forms, typed: ("scrub 12", ""), width: width)
      #expect(DisplayWidth.columns(layout.text) <= max(0, width - 1), "width \(width)")
      #expect(layout.cursorColumn <= max(0, width - 1), "width \(width)")
    }
  }
}

@Suite("The status line's speed and stable width")
struct StatusLineSpeedTests {
  @Test func aSpeedOtherThanOneShowsAfterTheTimesInEveryFormButTheLast() {
    // Given the status line at speed 1.1
    let forms = StatusLineText.forms(
      state: .playing, position: MediaTime(seconds: 8.3), duration: MediaTime(seconds: 30), rate: 1.1)
    // Then the speed follows the times, and the last form is the glyph and the position alone
    #expect(
      forms == [
        "▶ 00:00:08.300 / 00:00:30.000  x1.10   27.7%  [████░░░░░░░░░░░░░░]",
        "▶ 00:00:08.300 / 00:00:30.000  x1.10   27.7%",
        "▶ 00:00:08.300 / 00:00:30.000  x1.10",
        "▶ 00:00:08.300  x1.10",
        "▶ 00:00:08.300",
      ])
  }

  @Test func backwardPlayingShowsALeftGlyphAndANegativeSpeed() {
    // Given playing backward at speed 1, and paused backward at speed 2
    let playing = StatusLineText.line(
      state: .playing, position: MediaTime(seconds: 3), duration: MediaTime(seconds: 10), rate: -1)
    let paused = StatusLineText.line(state: .paused, position: MediaTime(seconds: 3), duration: nil, rate: -2)
    // Then the glyph points left while playing, and the speed says backward
    #expect(playing == "◀ 00:00:03.000 / 00:00:10.000  x-1.00   30.0%  [█████░░░░░░░░░░░░░]")
    #expect(paused == "⏸ 00:00:03.000 / --:--:--.---  x-2.00")
  }

  @Test(arguments: [0.0, 0.5, 5, 50, 99.9, 100])
  func theLineKeepsOneWidthWhateverThePercentage(seconds: Double) {
    // Given a 100 s clip at this position
    let line = StatusLineText.line(
      state: .playing, position: MediaTime(seconds: seconds), duration: MediaTime(seconds: 100))
    // Then the line is as wide as at 100 %
    let full = StatusLineText.line(
      state: .playing, position: MediaTime(seconds: 100), duration: MediaTime(seconds: 100))
    #expect(DisplayWidth.columns(line) == DisplayWidth.columns(full), "\(line)")
  }
}

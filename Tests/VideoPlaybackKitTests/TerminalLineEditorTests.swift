import Testing

@testable import VideoPlaybackKit

@Suite struct TerminalLineEditorTests {
  private func feed(_ text: String, into editor: inout TerminalLineEditor) -> [TerminalLineEditor.Output] {
    editor.feed(Array(text.utf8))
  }

  /// The update for a line with the cursor at its end.
  private func typed(_ text: String) -> TerminalLineEditor.Output { .typed(.editing(before: text, after: "")) }
  private func typed(_ before: String, _ after: String) -> TerminalLineEditor.Output {
    .typed(.editing(before: before, after: after))
  }

  @Test func typingShowsTheLineAndEnterSubmitsIt() {
    // Given an editor
    var editor = TerminalLineEditor()
    // When "scrub 5" is typed in two bursts, then Enter
    #expect(feed("scr", into: &editor) == [typed("scr")])
    #expect(feed("ub 5", into: &editor) == [typed("scrub 5")])
    // Then the line goes to the reader and the line being typed is empty again
    #expect(feed("\r", into: &editor) == [.line(.text("scrub 5")), typed("")])
    #expect(feed("x", into: &editor) == [typed("x")])
  }

  @Test func backspaceRemovesWholeCharactersIncludingMultibyteOnes() {
    var editor = TerminalLineEditor()
    _ = feed("skip é", into: &editor)
    #expect(editor.feed([0x7F]) == [typed("skip ")])
    #expect(editor.feed([0x08, 0x08]) == [typed("ski")])
    #expect(editor.feed([0x7F, 0x7F, 0x7F, 0x7F]) == [typed("")])
  }

  @Test func controlKeysClearAndEraseWords() {
    var editor = TerminalLineEditor()
    _ = feed("scrub 10 exact", into: &editor)
    #expect(editor.feed([0x17]) == [typed("scrub 10 ")])
    #expect(editor.feed([0x15]) == [typed("")])
  }

  @Test(arguments: [
    ("CSI", "\u{1B}[D", "\u{1B}[C"),
    ("SS3", "\u{1B}OD", "\u{1B}OC"),
    ("CSI with a modifier", "\u{1B}[1;5D", "\u{1B}[1;5C"),
    ("^B and ^F", "\u{02}", "\u{06}"),
  ])
  func leftAndRightMoveTheCursorAndTypingInsertsThere(form: String, left: String, right: String) {
    // Given "skip -2" typed
    var editor = TerminalLineEditor()
    _ = feed("skip -2", into: &editor)
    // When Left twice, then X
    #expect(feed(left, into: &editor) == [typed("skip -", "2")], "\(form)")
    #expect(feed(left + "X", into: &editor) == [typed("skip X", "-2")], "\(form)")
    // Then Right moves back towards the end, and Enter submits the whole line wherever the cursor is
    #expect(feed(right, into: &editor) == [typed("skip X-", "2")], "\(form)")
    #expect(feed("\r", into: &editor).first == .line(.text("skip X-2")), "\(form)")
  }

  @Test(arguments: [
    ("CSI H/F", "\u{1B}[H", "\u{1B}[F"),
    ("SS3 H/F", "\u{1B}OH", "\u{1B}OF"),
    ("CSI 1~/4~", "\u{1B}[1~", "\u{1B}[4~"),
    ("CSI 7~/8~", "\u{1B}[7~", "\u{1B}[8~"),
    ("^A/^E", "\u{01}", "\u{05}"),
  ])
  func homeAndEndGoToTheEnds(form: String, home: String, end: String) {
    var editor = TerminalLineEditor()
    _ = feed("scrub 5", into: &editor)
    #expect(feed(home, into: &editor) == [typed("", "scrub 5")], "\(form)")
    #expect(feed("#", into: &editor) == [typed("#", "scrub 5")], "\(form)")
    #expect(feed(end, into: &editor) == [typed("#scrub 5")], "\(form)")
  }

  @Test func controlKKillsToTheEndAndDeleteRemovesTheCharacterUnderTheCursor() {
    // Given "scrub 10 exact" with the cursor after "scrub 1"
    var editor = TerminalLineEditor()
    _ = feed("scrub 10 exact\u{1B}[H", into: &editor)
    _ = feed(String(repeating: "\u{1B}[C", count: 7), into: &editor)
    // When Delete (CSI 3~), then ^D on the non-empty line, then ^K
    #expect(feed("\u{1B}[3~", into: &editor) == [typed("scrub 1", " exact")])
    #expect(editor.feed([0x04]) == [typed("scrub 1", "exact")])
    #expect(editor.feed([0x0B]) == [typed("scrub 1")])
    // Then ^U removes what is before the cursor only
    _ = feed("\u{1B}[D", into: &editor)
    #expect(editor.feed([0x15]) == [typed("", "1")])
  }

  @Test func cursorMovesOverWholeMultibyteCharacters() {
    var editor = TerminalLineEditor()
    _ = feed("open é.mp4", into: &editor)
    _ = feed(String(repeating: "\u{1B}[D", count: 4), into: &editor)
    #expect(feed("\u{1B}[D", into: &editor) == [typed("open ", "é.mp4")])
    #expect(feed("\u{1B}[C", into: &editor) == [typed("open é", ".mp4")])
  }

  @Test func upAndDownWalkTheHistoryAndBringBackTheLineBeingTyped() {
    // Given an editor that remembers two lines, and submits a third
    var editor = TerminalLineEditor(history: ["scrub 5", "pause"])
    _ = feed("status\r", into: &editor)
    #expect(editor.history == ["scrub 5", "pause", "status"])
    // When a line is being typed and Up is pressed (CSI, SS3 and ^P)
    _ = feed("sk", into: &editor)
    #expect(feed("\u{1B}[A", into: &editor) == [typed("status")])
    #expect(feed("\u{1B}OA", into: &editor) == [typed("pause")])
    #expect(editor.feed([0x10]) == [typed("scrub 5")])
    // Then Up at the oldest does nothing, and Down walks back to the line being typed
    #expect(feed("\u{1B}[A", into: &editor).isEmpty)
    #expect(feed("\u{1B}[B", into: &editor) == [typed("pause")])
    #expect(editor.feed([0x0E]) == [typed("status")])
    #expect(feed("\u{1B}OB", into: &editor) == [typed("sk")])
    #expect(feed("\u{1B}[B", into: &editor).isEmpty)
  }

  @Test func historySkipsEmptyLinesAndImmediateRepeatsAndIsBounded() {
    var editor = TerminalLineEditor(history: (0..<1005).map { "wait \($0)" })
    #expect(editor.history.count == TerminalLineEditor.historyLimit)
    _ = feed("\r  \rplay\rplay\r", into: &editor)
    #expect(editor.history.suffix(2) == ["wait 1004", "play"])
    #expect(editor.history.count == TerminalLineEditor.historyLimit)
  }

  @Test func quitLeavesNoTraceInTheHistorySoUpAndEnterNeverLeaveAtOnce() {
    // Given an editor whose history file ends with quits an older vpk kept
    var editor = TerminalLineEditor(history: ["scrub 5", "quit", "exit"])
    #expect(editor.history == ["scrub 5"])
    // When a session submits a command, then quits
    _ = feed("status\rquit\r", into: &editor)
    // Then only the command is remembered: Up brings back `status`, not `quit`
    #expect(editor.history == ["scrub 5", "status"])
    #expect(feed("\u{1B}[A", into: &editor) == [typed("status")])
  }

  @Test func escapeAloneSwallowsNoKey() {
    // Given a line being typed
    var editor = TerminalLineEditor()
    _ = feed("paus", into: &editor)
    // When Esc is pressed, then Backspace
    // Then the Backspace erases a character
    #expect(feed("\u{1B}\u{7F}", into: &editor) == [typed("pau")])
    // And Esc then ^U clears the line; Esc then a letter types it
    #expect(feed("\u{1B}\u{15}", into: &editor) == [typed("")])
    #expect(feed("\u{1B}p", into: &editor) == [typed("p")])
  }

  @Test func otherEscapeSequencesAreIgnored() {
    var editor = TerminalLineEditor()
    #expect(feed("pa\u{1B}[15~us\u{1B}OPe", into: &editor) == [typed("pause")])
  }

  @Test func controlDOnAnEmptyLineEndsTheInputOnlyThen() {
    var editor = TerminalLineEditor()
    _ = feed("st", into: &editor)
    #expect(editor.feed([0x04]).isEmpty)
    _ = editor.feed([0x15])
    #expect(editor.feed([0x04]) == [.endOfInput])
  }

  @Test func theLineIsBoundedAndInvalidUTF8IsReported() {
    var editor = TerminalLineEditor(maxLineBytes: 4)
    _ = feed("abcdefgh", into: &editor)
    #expect(feed("\n", into: &editor).first == .line(.text("abcd")))
    #expect(editor.feed([0xFF, 0x0A]).first == .line(.invalidUTF8))
  }

  @Test func keysOnAnEmptyLineSendTheirCommandsAtOnceAndStayOutOfTheHistory() {
    // Given an editor with an empty line
    var editor = TerminalLineEditor()
    // When Space, `,`, `.`, `[`, `]`, `?` and the arrows Left and Right (CSI and SS3) are pressed
    let outputs = feed(" ,.[]?\u{1B}[D\u{1B}OC", into: &editor)
    // Then each sends its command line, and nothing is typed
    #expect(
      outputs
        == [
          "toggle", "step -1", "step +1", "rate /1.1", "rate *1.1", "help", "skip -5", "skip +5",
        ].map { .line(.text($0)) })
    #expect(editor.history.isEmpty)
    #expect(editor.typed == .editing(before: "", after: ""))
  }

  @Test func aLetterStartsALineWhereTheKeysAreTypedAsText() {
    // Given an editor with an empty line
    var editor = TerminalLineEditor()
    // When a letter, then a space, `.` and `]` are typed, and Left pressed
    #expect(feed("x .]", into: &editor) == [typed("x .]")])
    #expect(feed("\u{1B}[D", into: &editor) == [typed("x .", "]")])
    // Then Ctrl-U empties the line, after which the keys act again
    #expect(editor.feed([0x15]) == [typed("", "]")])
    #expect(editor.feed([0x0B]) == [typed("")])
    #expect(feed(" ", into: &editor) == [.line(.text("toggle"))])
  }
}

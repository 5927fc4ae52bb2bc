import Testing

@testable import VideoPlaybackKit

@Suite struct TerminalLineEditorTests {
  private func feed(_ text: String, into editor: inout TerminalLineEditor) -> [TerminalLineEditor.Output] {
    editor.feed(Array(text.utf8))
  }

  @Test func typingShowsTheLineAndEnterSubmitsIt() {
    // Given an editor
    var editor = TerminalLineEditor()
    // When "scrub 5" is typed in two bursts, then Enter
    #expect(feed("scr", into: &editor) == [.typed(.editing("scr"))])
    #expect(feed("ub 5", into: &editor) == [.typed(.editing("scrub 5"))])
    // Then the line goes to the reader and the line being typed is empty again
    #expect(feed("\r", into: &editor) == [.line(.text("scrub 5")), .typed(.editing(""))])
    #expect(feed("x", into: &editor) == [.typed(.editing("x"))])
  }

  @Test func backspaceRemovesWholeCharactersIncludingMultibyteOnes() {
    var editor = TerminalLineEditor()
    _ = feed("skip é", into: &editor)
    #expect(editor.feed([0x7F]) == [.typed(.editing("skip "))])
    #expect(editor.feed([0x08, 0x08]) == [.typed(.editing("ski"))])
    #expect(editor.feed([0x7F, 0x7F, 0x7F, 0x7F]) == [.typed(.editing(""))])
  }

  @Test func controlKeysClearAndEraseWords() {
    var editor = TerminalLineEditor()
    _ = feed("scrub 10 exact", into: &editor)
    #expect(editor.feed([0x17]) == [.typed(.editing("scrub 10 "))])
    #expect(editor.feed([0x15]) == [.typed(.editing(""))])
  }

  @Test func arrowKeysAndOtherEscapeSequencesAreIgnored() {
    var editor = TerminalLineEditor()
    #expect(feed("pa\u{1B}[A\u{1B}[1;5Cus\u{1B}OPe", into: &editor) == [.typed(.editing("pause"))])
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
}

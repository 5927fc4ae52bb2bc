import Testing

@testable import VideoPlaybackKit

@Suite("Event text laid out for the terminal's width")
struct EventTextLayoutTests {
  private let help = """
    help #1 commands=frame quit
      frame              write the frame on screen as a PNG
      quit               leave
    """

  @Test func aTableRowTooLongIsBrokenAtASpaceAndContinuedUnderItsLastColumn() {
    // Given help's table, When it is laid out for 40 columns
    let text = EventTextLayout.wrapped(help, width: 40)
    // Then the long row goes on under its summary, broken between words; the others are as they were
    #expect(
      text == """
        help #1 commands=frame quit
          frame              write the frame on
                             screen as a PNG
          quit               leave
        """)
  }

  @Test func theEventsOwnLineIsLeftWholeAndAWideTerminalChangesNothing() {
    #expect(EventTextLayout.wrapped(help, width: 12).hasPrefix("help #1 commands=frame quit\n"))
    #expect(EventTextLayout.wrapped(help, width: 120) == help)
    #expect(EventTextLayout.wrapped(help, width: nil) == help)
  }

  @Test func aNarrowTerminalIndentsTheRestFourColumnsInAndCutsAWordLongerThanARow() {
    // Given a row whose summary column leaves too little room
    let rows = EventTextLayout.rows("  frame              write the frame on screen", width: 24)
    // Then the rest goes four columns in; a word longer than a row is cut, leaving the indent at least four columns
    #expect(rows == ["  frame", "      write the frame on", "      screen"])
    #expect(EventTextLayout.rows("  abcdefghij", width: 6) == ["  abcd", "  efgh", "  ij"])
  }
}

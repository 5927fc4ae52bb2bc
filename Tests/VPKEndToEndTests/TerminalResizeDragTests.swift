// End-to-end test of a window's edge dragged with the mouse while vpk plays on a terminal (tmux): many resizes at short,
// random but seeded intervals, commands typed before and during the drag. What was printed stays; the status line stays
// one line, the last.

import Foundation
import Testing
import VPKTestSupport

@Suite("Terminal resize drag (tmux)", .serialized)
struct TerminalResizeDragTests {
  /// Marks of a status line: a row holding one, other than the last, is a piece of an old line.
  private static let statusMarks = ["▶", "⏸", "■", "◀", "00:00:", "%", "░", "█", "›"]

  /// The commands typed, by the resize after which each is typed (before the first resize: before the drag).
  private static let commands: [(afterResize: Int, line: String, reply: String)] = [
    (0, "status", "status #1 "), (0, "frame", "frame #2 "), (0, "toggle", "state #3 state=playing"),
    (3, "status", "status #4 "), (6, "rate 1.5", "rate #5 "), (9, "frame", "frame #6 "), (12, "status", "status #7 "),
  ]

  @Test(arguments: [
    // seed, the shortest and longest wait between two resizes (seconds), the resizes, and whether the edge swings
    // between the two ends (30 and 120 columns, give or take a few) rather than to any width between them
    (UInt64(1), 0.03, 0.3, 20, false), (UInt64(2), 0.1, 0.3, 16, true), (UInt64(3), 0.03, 0.03, 40, true),
  ])
  func draggingAWindowsEdgeWhilePlayingErasesNoPrintedRowAndLeavesOneStatusLine(
    seed: UInt64, shortest: Double, longest: Double, resizes: Int, swings: Bool
  ) throws {
    // Given vpk playing in a loop on a 120-column terminal, after commands typed and answered
    var random = SplitMix64(seed: seed)
    let terminal = try TmuxTerminal(width: 120)
    let media = try TestMedia.url(for: .h264BFrames).path
    try terminal.type("vpk play '\(media)' --paused --clock wall --at-end loop")
    try terminal.press("Enter")
    try terminal.waitForScreen("the paused status line") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
    func typeCommands(afterResize count: Int) throws {
      for command in Self.commands where command.afterResize == count {
        try terminal.type(command.line)
        try terminal.press("Enter")
      }
    }
    try typeCommands(afterResize: 0)
    try terminal.waitForScreen("playing") { $0.last?.hasPrefix("▶ 00:") == true }
    // When the window's edge is dragged between 30 and 120 columns, at random intervals, with commands typed meanwhile
    var widths: [Int] = []
    for step in 1...resizes {
      let width =
        swings
        ? (step.isMultiple(of: 2)
          ? 120 - Int.random(in: 0...5, using: &random) : 30 + Int.random(in: 0...5, using: &random))
        : Int.random(in: 30...120, using: &random)
      widths.append(width)
      try terminal.resize(width: width)
      try typeCommands(afterResize: step)
      Thread.sleep(forTimeInterval: Double.random(in: shortest...longest, using: &random))
    }
    // and then the edge is let go at 80 columns, and the line is drawn again in the form for 80 after every reply
    try terminal.resize(width: 80)
    widths.append(80)
    let replies = Self.commands.map(\.reply)
    let lastReply = try #require(replies.last)
    try terminal.waitForScreen("the last reply and the line at 80") { screen in
      guard let last = screen.last, last.hasPrefix("▶ 00:"), last.hasSuffix("›"), last.count < 80 else { return false }
      return (try? terminal.screenAndHistory(joiningWrappedRows: true).contains { $0.hasPrefix(lastReply) }) == true
    }
    let context = "seed \(seed), widths \(widths)"
    // Then every command echoed and every reply printed is still on screen or in the scrollback, whole
    let lines = try terminal.screenAndHistory(joiningWrappedRows: true)
    let echoed = Set(Self.commands.map { "› " + $0.line })
    for line in echoed {
      let count = Self.commands.filter { "› " + $0.line == line }.count
      #expect(lines.filter { $0 == line }.count == count, "\(line): \(context)\n\(lines.joined(separator: "\n"))")
    }
    for reply in replies {
      #expect(lines.contains { $0.hasPrefix(reply) }, "\(reply): \(context)\n\(lines.joined(separator: "\n"))")
    }
    // and no row but the last holds a piece of a status line
    let rows = try terminal.screenAndHistory()
    let pieces = rows.dropLast().filter { row in
      !echoed.contains(row) && Self.statusMarks.contains { row.contains($0) }
    }
    #expect(pieces.isEmpty, "\(context): \(pieces) in\n\(rows.joined(separator: "\n"))")
    // and the live line is the last row, under what was printed, not alone on an emptied screen
    let screen = try terminal.screen()
    #expect(screen.last?.hasPrefix("▶ 00:") == true, "\(context): \(screen)")
    #expect(screen.count > 1 && screen.dropLast().contains { !$0.isEmpty }, "\(context): \(screen)")
    try terminal.press("C-c")
  }
}

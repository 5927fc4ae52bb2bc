// End-to-end tests of a session as a person at a terminal lives it (tmux): a failed `open` keeps the file that played,
// the end of the media does not end the session, keys typed ahead never reach the shell, and ^Z stops the clock.
// Screens are polled until they show what is expected; the polls' timeouts only guard against hangs.

import Foundation
import Testing
import VPKTestSupport

@Suite("Terminal session (tmux)", .serialized)
struct TerminalSessionTests {
  private static func media() throws -> String { try TestMedia.url(for: .h264BFrames).path }

  /// The position a `status` reply on the screen gives, in seconds: the last such reply with `id`.
  private func statusPosition(_ screen: [String], id: Int) -> Double? {
    guard let row = screen.last(where: { $0.hasPrefix("status #\(id) ") }),
      let field = row.split(separator: " ").first(where: { $0.hasPrefix("position=") })
    else { return nil }
    return Double(field.dropFirst("position=".count))
  }

  @Test func aFailedOpenKeepsTheFileAndTheStatusLineShowsIt() throws {
    // Given vpk paused on the 10 s clip, scrubbed to 3 s
    let terminal = try TmuxTerminal(width: 100)
    try terminal.type("vpk play '\(Self.media())' --paused --clock wall")
    try terminal.press("Enter")
    try terminal.waitForScreen("the paused status line") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
    try terminal.type("scrub 3")
    try terminal.press("Enter")
    try terminal.waitForScreen("the scrub") { $0.last?.hasPrefix("⏸ 00:00:03.000") == true }
    // When a file that is not there is opened
    try terminal.type("open nothere.mp4")
    try terminal.press("Enter")
    // Then the error is shown, and the status line goes back to the file it kept, where it was
    let screen = try terminal.waitForScreen("the error and the kept status line") { screen in
      screen.contains { $0.hasPrefix("error #2 code=file_not_found") }
        && screen.last?.hasPrefix("⏸ 00:00:03.000") == true
    }
    #expect(!screen.contains { $0.contains("loading") }, "\(screen)")
    // and `status` says so
    try terminal.type("status")
    try terminal.press("Enter")
    let answered = try terminal.waitForScreen("the status") { $0.contains { $0.hasPrefix("status #3 ") } }
    #expect(answered.contains { $0.hasPrefix("status #3 state=paused position=3.000") }, "\(answered)")
    try terminal.press("C-c")
  }

  @Test func theEndOfTheMediaLeavesThePersonInTheSessionPaused() throws {
    // Given vpk playing the last half second of the clip on a terminal, with no --at-end
    let terminal = try TmuxTerminal(width: 100)
    try terminal.type("vpk play '\(Self.media())' --start 9.5 --clock wall")
    try terminal.press("Enter")
    // When the end comes, Then vpk stays, on the last frame, and still takes commands
    try terminal.waitForScreen("the ended status line") { $0.last?.hasPrefix("■ 00:00:") == true }
    try terminal.type("status")
    try terminal.press("Enter")
    let screen = try terminal.waitForScreen("the status") { $0.contains { $0.hasPrefix("status #1 ") } }
    #expect(screen.contains { $0.hasPrefix("status #1 state=ended") }, "\(screen)")
    #expect(!screen.contains { $0.hasPrefix("shutdown") }, "\(screen)")
    try terminal.press("C-c")
  }

  @Test func keysTypedAheadOfQuitNeverRunInTheShell() throws {
    // Given vpk paused on a terminal
    let terminal = try TmuxTerminal(width: 100)
    try terminal.type("vpk play '\(Self.media())' --paused --clock wall")
    try terminal.press("Enter")
    try terminal.waitForScreen("the paused status line") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
    // When `quit` and a shell command are typed in one go, the second before vpk has gone
    try terminal.type("quit\necho LEAK$((6*7))\n")
    // Then vpk leaves, and the shell gets its prompt back without running what was typed for vpk
    try terminal.waitForScreen("the shell after quit") { screen in
      screen.contains { $0.hasPrefix("shutdown #1 reason=quit") } && screen.last == "$"
    }
    try terminal.type("echo DONE$((6*7))")
    try terminal.press("Enter")
    let screen = try terminal.waitForScreen("the shell's own command") { $0.contains("DONE42") }
    #expect(!screen.contains("LEAK42"), "\(screen)")
  }

  @Test func controlZStopsTheClockUntilFg() throws {
    // Given vpk playing the 10 s clip on a terminal (staying at the end), past 1 s
    let terminal = try TmuxTerminal(width: 100)
    try terminal.type("vpk play '\(Self.media())' --clock wall --at-end pause")
    try terminal.press("Enter")
    try terminal.waitForScreen("playback past 1 s") { screen in
      guard let last = screen.last, last.hasPrefix("▶ 00:00:0") else { return false }
      return last >= "▶ 00:00:01.000"
    }
    // When a `status` is answered, ^Z is pressed, the process stays stopped a while, and then `fg` and another
    // `status` are typed at once
    try terminal.type("status\n")
    let answered = try terminal.waitForScreen("the first status") { $0.contains { $0.hasPrefix("status #1 ") } }
    let before = try #require(statusPosition(answered, id: 1), "\(answered)")
    try terminal.press("C-z")
    try terminal.waitForScreen("the shell after ^Z") { $0.last == "$" && $0.contains { $0.contains("Stopped") } }
    let stoppedAt = Date()
    Thread.sleep(forTimeInterval: 6)
    try terminal.type("fg\nstatus\n")
    let stopped = Date().timeIntervalSince(stoppedAt)
    let screen = try terminal.waitForScreen("the status after fg") { $0.contains { $0.hasPrefix("status #2 ") } }
    let after = try #require(statusPosition(screen, id: 2), "\(screen)")
    // Then the position gained across the stop is far less than the time stopped: the clock did not run meanwhile
    #expect(after >= before, "\(screen)")
    #expect(after - before < stopped / 2, "gained \(after - before) s over \(stopped) s stopped: \(screen)")
    #expect(screen.contains { $0.hasPrefix("status #2 state=playing") }, "\(screen)")
    try terminal.press("C-c")
  }
}

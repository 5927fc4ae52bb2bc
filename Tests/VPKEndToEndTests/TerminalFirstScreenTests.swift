// End-to-end test of the first screen of a session at a terminal (tmux): a hint says what to type, and the prompt
// comes after what vpk says on its way there.
// Screens are polled until they show what is expected; the polls' timeouts only guard against hangs.

import Foundation
import Testing
import VPKTestSupport

@Suite("Terminal first screen (tmux)", .serialized)
struct TerminalFirstScreenTests {
  @Test func theFirstScreenSaysWhatToTypeAndThePromptComesAfterTheListeningLine() throws {
    // Given a terminal
    let terminal = try TmuxTerminal(width: 100)
    // When an idle vpk with a control socket starts on it
    try terminal.type("vpk play --idle --socket '\(terminal.home.path)/vpk.sock'")
    try terminal.press("Enter")
    let screen = try terminal.waitForScreen("the prompt") { screen in
      screen.contains { $0.contains("vpk: listening on") } && screen.last?.hasSuffix("›") == true
    }
    // Then a hint says what to type, the listening line is whole, and the prompt is the last line, once
    #expect(screen.contains("type a command, or ? for keys"), "\(screen)")
    #expect(screen.contains("vpk: listening on \(terminal.home.path)/vpk.sock"), "\(screen)")
    #expect(screen.filter { $0.contains("›") }.count == 1, "\(screen)")
    try terminal.press("C-c")
  }
}

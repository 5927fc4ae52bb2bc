// `vpk attach` on a real terminal (tmux): a daemon started by the test, attach run by the terminal's shell, typed at
// with send-keys, resized, its screen read with capture-pane and asserted; the same status line and line editor as
// `vpk play` there. Screens are polled until they show what is expected; the polls' timeouts only guard against hangs.

import Foundation
import Testing
import VPKTestSupport

/// The rows of a screen that hold a status line (a state glyph followed by a clock).
private func statusRows(_ screen: [String]) -> [String] {
  screen.filter { row in ["▶ 00:", "⏸ 00:", "■ 00:"].contains { row.hasPrefix($0) } }
}

@Suite("vpk attach on a terminal (tmux)", .serialized)
struct AttachScreenTests {
  /// A daemon on the 10 s clip, paused, listening at a socket of its own (removed with `stop`).
  private final class Daemon {
    let folder: URL
    let socket: String
    let session: VPKSession

    init() throws {
      folder = URL(fileURLWithPath: "/tmp/vpk-att-\(UUID().uuidString.prefix(8))")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      socket = folder.appendingPathComponent("s").path
      let media = try TestMedia.url(for: .h264BFrames).path
      session = try VPKSession(
        ["play", media, "--paused", "--socket", socket, "--clock", "wall", "--json"], input: .closed)
      _ = try session.waitForLine(containing: #""event":"ready""#)
    }

    func stop() {
      if !session.hasExited { session.send(signal: SIGTERM) }
      _ = try? session.waitForExit()
      try? FileManager.default.removeItem(at: folder)
    }
  }

  /// Runs `vpk attach` in the terminal's shell and waits for its paused status line.
  @discardableResult
  private func attach(_ terminal: TmuxTerminal, _ daemon: Daemon) throws -> [String] {
    try terminal.type("vpk attach \(daemon.socket); echo \"rc=$?\"")
    try terminal.press("Enter")
    return try terminal.waitForScreen("attach's paused status line") { $0.last?.hasPrefix("⏸ 00:00:00.000") == true }
  }

  @Test(arguments: [40, 60, 120])
  func theStatusLineFitsTheWidthInItsLongestFormWithThePrompt(width: Int) throws {
    // Given a paused daemon, and attach in a terminal `width` columns wide
    let daemon = try Daemon()
    defer { daemon.stop() }
    let terminal = try TmuxTerminal(width: width)
    // When attach starts
    let screen = try attach(terminal, daemon)
    // Then its last row is the daemon's status line, in the form `vpk play` shows at that width, with the prompt
    let last = try #require(screen.last)
    #expect(statusRows(screen) == [last], "\(screen)")
    #expect(last.count < width, "\(last)")
    switch width {
    case 120: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000    0.0%  [░░░░░░░░░░░░░░░░░░]  ›")
    case 60: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000    0.0%  ›")
    default: #expect(last == "⏸ 00:00:00.000 / 00:00:10.000  ›")
    }
    // When Ctrl-D ends its input
    try terminal.press("C-d")
    // Then it leaves with status 0 and a clean line (no status line left), and the daemon goes on
    let after = try terminal.waitForScreen("the shell after attach") { $0.last == "$" }
    #expect(after.contains("rc=0"), "\(after)")
    #expect(statusRows(after).isEmpty, "\(after)")
    #expect(!daemon.session.hasExited)
  }

  @Test func aFailedOpenThroughAttachKeepsTheDaemonsFileOnTheStatusLine() throws {
    // Given attach on a daemon paused on its clip, scrubbed to 2 s
    let daemon = try Daemon()
    defer { daemon.stop() }
    let terminal = try TmuxTerminal(width: 100)
    try terminal.type("cd '\(terminal.home.path)'")
    try terminal.press("Enter")
    try attach(terminal, daemon)
    try terminal.type("scrub 2")
    try terminal.press("Enter")
    try terminal.waitForScreen("the scrub") { $0.last?.hasPrefix("⏸ 00:00:02.000") == true }
    // When a file that is not there is opened, by a path relative to attach's folder
    try terminal.type("open nothere.mp4")
    try terminal.press("Enter")
    // Then the error names the path tried, and the status line goes back to the daemon's file, where it was
    let screen = try terminal.waitForScreen("the error and the kept status line") { screen in
      screen.contains { $0.hasPrefix("error #2 code=file_not_found") }
        && screen.last?.hasPrefix("⏸ 00:00:02.000") == true
    }
    #expect(screen.joined().contains("\(terminal.home.path)/nothere.mp4"), "\(screen)")
    try terminal.press("C-d")
    try terminal.waitForScreen("the shell after attach") { $0.last == "$" }
  }

  @Test func typedCommandsAreSentAndAnsweredAboveTheStatusLineAndRemembered() throws {
    let daemon = try Daemon()
    defer { daemon.stop() }
    let terminal = try TmuxTerminal(width: 100)
    try attach(terminal, daemon)
    // When "scrub 4" is typed, edited to "scrub 5" (Backspace, 5) and sent
    try terminal.type("scrub 4")
    try terminal.press("BSpace")
    try terminal.type("5")
    try terminal.waitForScreen("the edited line") { $0.last?.hasSuffix("› scrub 5") == true }
    try terminal.press("Enter")
    // Then the command is kept above, its reply under it (#1: the first command typed here), and the status line shows where the seek landed
    var screen = try terminal.waitForScreen("the seek's reply and the status line at 5 s") {
      $0.contains { $0.hasPrefix("seeked #1 target=5.000") } && $0.last?.hasPrefix("⏸ 00:00:05.000") == true
    }
    let command = try #require(screen.firstIndex { $0 == "› scrub 5" }, "\(screen)")
    let reply = try #require(screen.firstIndex { $0.hasPrefix("seeked #1 target=5.000") }, "\(screen)")
    #expect(command < reply, "\(screen)")
    #expect(statusRows(screen).count == 1, "\(screen)")
    // When Up recalls the last line and Enter sends it again, and a bad command follows
    try terminal.press("Up")
    try terminal.waitForScreen("the recalled line") { $0.last?.hasSuffix("› scrub 5") == true }
    try terminal.press("Enter")
    try terminal.type("bogus")
    try terminal.press("Enter")
    // Then both are answered with this client's own ids
    screen = try terminal.waitForScreen("the second seek and the error") {
      $0.contains { $0.hasPrefix("seeked #2 target=5.000") } && $0.contains { $0.hasPrefix("error #3 ") }
    }
    // When Ctrl-D ends the input, attach leaves after the replies, with status 0
    try terminal.press("C-d")
    screen = try terminal.waitForScreen("the shell after attach") { $0.last == "$" }
    #expect(screen.contains("rc=0"), "\(screen)")
  }

  @Test func aResizeRefitsTheLineAndLeavesNothingBehind() throws {
    let daemon = try Daemon()
    defer { daemon.stop() }
    let terminal = try TmuxTerminal(width: 120)
    try attach(terminal, daemon)
    for (width, expected) in [
      (40, "⏸ 00:00:00.000 / 00:00:10.000  ›"), (60, "⏸ 00:00:00.000 / 00:00:10.000    0.0%  ›"),
      (120, "⏸ 00:00:00.000 / 00:00:10.000    0.0%  [░░░░░░░░░░░░░░░░░░]  ›"),
    ] {
      // When the window changes width
      try terminal.resize(width: width)
      // Then the line is redrawn in the form for that width, and no piece of an older one is left
      let screen = try terminal.waitForScreen("the line refitted to \(width)") { $0.last == expected }
      #expect(statusRows(screen).count == 1, "\(width): \(screen)")
      #expect(!screen.dropLast().contains { $0.contains("░") || $0.contains("0.0%") }, "\(width): \(screen)")
    }
    try terminal.press("C-d")
    try terminal.waitForScreen("the shell after attach") { $0.last == "$" }
  }

  @Test func whenTheDaemonQuitsAttachShowsWhyAndLeavesWithItsStatus() throws {
    // Given attach on a playing daemon
    let daemon = try Daemon()
    defer { daemon.stop() }
    let terminal = try TmuxTerminal(width: 80)
    try attach(terminal, daemon)
    try terminal.type("play")
    try terminal.press("Enter")
    try terminal.waitForScreen("playing") { $0.last?.hasPrefix("▶ 00:00:0") == true }
    // When the daemon is sent SIGTERM
    daemon.session.send(signal: SIGTERM)
    // Then attach shows the shutdown event, says why on stderr and leaves with the daemon's status (143)
    let screen = try terminal.waitForScreen("the shell after attach") { $0.last == "$" }
    let shutdown = try #require(screen.lastIndex { $0.hasPrefix("shutdown reason=SIGTERM") }, "\(screen)")
    #expect(screen.contains("vpk attach: the daemon shut down: SIGTERM"), "\(screen)")
    #expect(screen.contains("rc=143"), "\(screen)")
    #expect(statusRows(Array(screen[(shutdown + 1)...])).isEmpty, "\(screen)")
  }
}

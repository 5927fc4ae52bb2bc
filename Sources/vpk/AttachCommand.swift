// `vpk attach PATH`: steers a running `vpk play --socket PATH` from a shell: standard input goes to it, what it
// answers comes out.

import ArgumentParser
import Foundation
import VPKSocket
import VideoPlaybackKit

struct AttachCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "attach",
    abstract: "Send commands to a vpk that listens on a control socket (vpk play --socket PATH).",
    discussion: """
      Lines from standard input go to the daemon as they are; its events come
      back on standard output as text lines (with --json, JSON lines): the
      replies to what this client sent, with this client's own ids, and what
      changes for every client (progress, the end, another client's changes).
      On a terminal (without --json) it shows what vpk play shows there: the
      status line fitted to the window, and the line editor with its history;
      Ctrl-D ends the input.

      vpk attach leaves when its input has ended and every command it sent has
      been answered (exit status 0), or when the daemon shuts down: then the
      reason goes to stderr and the status is the daemon's (0 quit or end, 3
      open failed, 129/130/143 its signal). 69: the socket cannot be reached
      or is not a vpk's, or the daemon closed the connection.

      Examples:
        printf 'open movie.mp4\\nscrub 30\\nstatus\\n' | vpk attach /tmp/vpk.sock
        echo quit | vpk attach /tmp/vpk.sock
        vpk attach /tmp/vpk.sock --record checks/by-hand.vpk

      With --record SCRIPT, the daemon writes the session to SCRIPT as a
      playback test script (as vpk play --record does) from where it is when
      attach connects until attach leaves: every client's commands, the waits
      between them and the expects pinning each frame shown.
      """)

  @Argument(help: "The control socket's path, as given to vpk play --socket.", completion: .file())
  var path: String

  @Flag(name: .long, help: "Write the daemon's events as JSON lines instead of text.")
  var json = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Have the daemon record the session, from where it is, as a playback test script at this path while attached.",
      valueName: "script"),
    completion: .file())
  var record: String?

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    let traits = TextStatusView.terminalTraits(isTTY: isatty(STDOUT_FILENO) == 1, environment: environment)
    let terminal =
      !json && traits.isTerminal && isatty(STDIN_FILENO) == 1
      ? AttachTerminal.Options(
        useColor: traits.useColor,
        history: CommandHistory.path(environment: environment).map { CommandHistory(path: $0) })
      : nil
    let recordPath = record.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    let code = await AttachClient.run(
      path: path, json: json, terminal: terminal, record: recordPath, print: { StandardStreams.writeOutput($0 + "\n") },
      log: { StandardStreams.writeError($0) })
    throw ExitCode(code)
  }
}

// End to end: a session played by hand on the wall clock (commands through stdin with real pauses between them) is
// recorded with `vpk play --record`, replays green with `vpk test` with the same transcript every time, and turns red
// naming the failing `expect` once the file is re-encoded.

import Foundation
import Testing
import VPKTestSupport

@Suite struct RecordReplayTests {
  /// What a person does: commands, and real seconds of waiting (`nil` command) between them. Seeks, steps and rate
  /// changes, backward play at a negative rate, marks, a typo, and a play to the end.
  static let session: [(command: String?, sleep: Double)] = [
    (nil, 0.4), ("pause", 0), ("scrub 2", 0), ("step", 0), ("step 3", 0), ("step -2", 0), ("mark", 0),
    ("play", 0.5), ("rate 2", 0.5), ("pause", 0), ("scrub 8.5", 0), ("rate -1", 0), ("play", 0.6), ("pause", 0),
    ("step -1", 0), ("mark", 0), ("rate 0.5", 0), ("play", 0.4), ("toggle", 0), ("scrub 50%", 0),
    ("skip +1.5", 0), ("skip -0.25", 0), ("seek 3", 0), ("scrub 1:00 keyframe", 0), ("scrub 3", 0), ("rate 1", 0),
    ("status", 0), ("play", 0.3), ("mark", 0.2), ("pause", 0), ("scrub 9.3", 0), ("play", 0),
  ]

  @Test func aSessionRecordedByHandReplaysGreenTwiceAndRedOnAReencodedFile() throws {
    // Given a person's session on a 10 s clip, typed into vpk play --record with real time between the commands
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = folder.path("by-hand.vpk")
    let live = try VPKSession(["play", folder.path("clip.mp4"), "--record", script])
    _ = try live.waitForLine(containing: "ready")
    var commands = 0
    for step in Self.session {
      if let command = step.command {
        #expect(live.send(command))
        commands += 1
      }
      if step.sleep > 0 { Thread.sleep(forTimeInterval: step.sleep) }
    }
    // With input closed, playback goes on from 9.3 s to the end, and vpk leaves there.
    live.closeInput()
    let played = try live.waitForExit(timeout: 120)
    #expect(played.status == 0, "\(played.stderr)")
    #expect(commands >= 20)
    let recorded = try String(contentsOfFile: script, encoding: .utf8)
    let lines = recorded.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("# Recorded by vpk ") == true)
    #expect(lines.contains("open clip.mp4"))
    #expect(lines.contains { $0.hasPrefix("expect frame.md5 == ") })
    #expect(lines.contains("rate -1"))
    #expect(lines.contains("wait ended"))
    #expect(lines.contains("expect error == unknown_command"))

    // When vpk test replays it twice
    let first = try VPKProcess.run(["test", script, "--transcript", folder.path("t1")])
    let second = try VPKProcess.run(["test", script, "--transcript", folder.path("t2")])
    // Then it passes both times, with byte-identical transcripts
    #expect(first.status == 0, "\(first.stdout)\n\(recorded)")
    #expect(second.status == 0, "\(second.stdout)")
    let transcript = try transcriptText(in: folder.path("t1"))
    #expect(transcript == (try transcriptText(in: folder.path("t2"))))
    // And the transcript shows each mark with its line
    #expect(transcript.split(separator: "\n").filter { $0.hasPrefix("mark ") && $0.contains(" line=") }.count == 3)

    // When the file is re-encoded at another quality and swapped in
    let reencoded = folder.path("reencoded.mp4")
    try TestMedia.makeClip(
      at: reencoded,
      ffmpeg: [
        "-i", folder.path("clip.mp4"), "-map", "0", "-c:v", "libx264", "-preset", "veryfast", "-crf", "38", "-bf",
        "3", "-g", "250", "-pix_fmt", "yuv420p", "-c:a", "copy",
      ])
    try FileManager.default.removeItem(atPath: folder.path("clip.mp4"))
    try FileManager.default.moveItem(atPath: reencoded, toPath: folder.path("clip.mp4"))
    let red = try VPKProcess.run(["test", script])
    // Then the replay fails, naming a frame's expect by its line
    #expect(red.status == 1)
    #expect(red.stdout.contains("FAIL \(script)"))
    #expect(red.stdoutLines.contains { $0.hasPrefix("  \(script):") && $0.contains(": expect frame.md5 == ") })
  }

  @Test func withASocketEveryClientsCommandsAreRecordedAndReplayGreen() throws {
    // Given a session with a control socket, recorded, and two clients steering it in turn with time between
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = folder.path("two-clients.vpk")
    let socket = "/tmp/vpk-rec-\(UUID().uuidString.prefix(8))"
    defer { unlink(socket) }
    let daemon = try VPKSession(
      ["play", folder.path("clip.mp4"), "--socket", socket, "--record", script], input: .closed)
    let a = try UnixSocketClient.connect(to: socket)
    let b = try UnixSocketClient.connect(to: socket)
    try a.greet()
    try b.greet()
    Thread.sleep(forTimeInterval: 0.4)
    a.send("pause")
    try a.waitForLine(containing: #""event":"state","id":1"#)
    a.send("scrub 2")
    try a.waitForLine(containing: #""event":"seeked","id":2"#)
    b.send(#"{"command":"step","args":[2],"id":"b1"}"#)
    try b.waitForLine(containing: #""event":"stepped","id":"b1""#)
    b.send("rate -1")
    try b.waitForLine(containing: #""event":"rate","id":2"#)
    a.send("play")
    try a.waitForLine(containing: #""event":"state","id":3"#)
    Thread.sleep(forTimeInterval: 0.4)
    b.send("pause")
    try b.waitForLine(containing: #""event":"state","id":3"#)
    a.send("mark")
    try a.waitForLine(containing: #""event":"mark","id":4"#)
    b.send("quit")
    let played = try daemon.waitForExit(timeout: 120)
    #expect(played.status == 0, "\(played.stderr)")
    let recorded = try String(contentsOfFile: script, encoding: .utf8)
    let lines = recorded.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"{"command":"step","args":[2],"id":"b1"}"#))
    #expect(lines.filter { $0.hasPrefix("expect frame.md5 == ") }.count == 5)
    // When vpk test replays it twice, Then it passes with the same transcript
    let first = try VPKProcess.run(["test", script, "--transcript", folder.path("t1")])
    let second = try VPKProcess.run(["test", script, "--transcript", folder.path("t2")])
    #expect(first.status == 0, "\(first.stdout)\n\(recorded)")
    #expect(second.status == 0, "\(second.stdout)")
    #expect(try transcriptText(in: folder.path("t1")) == (try transcriptText(in: folder.path("t2"))))
  }

  @Test func vpkAttachRecordRecordsTheSessionFromWhereItIsUntilItLeaves() throws {
    // Given a daemon playing the clip, and vpk attach --record joining it a moment later
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = folder.path("attached.vpk")
    let socket = "/tmp/vpk-rec-\(UUID().uuidString.prefix(8))"
    defer { unlink(socket) }
    let daemon = try VPKSession(
      ["play", folder.path("clip.mp4"), "--socket", socket, "--at-end", "pause"], input: .closed)
    let watcher = try UnixSocketClient.connect(to: socket)
    try watcher.greet()
    Thread.sleep(forTimeInterval: 0.5)
    let attach = try VPKSession(["attach", socket, "--record", script])
    // When the person types into attach, with time between two commands, and attach leaves
    Thread.sleep(forTimeInterval: 0.3)
    for line in ["pause", "scrub 2", "step 2", "rate -1", "play"] { #expect(attach.send(line)) }
    Thread.sleep(forTimeInterval: 0.4)
    for line in ["pause", "mark"] { #expect(attach.send(line)) }
    attach.closeInput()
    #expect(try attach.waitForExit(timeout: 120).status == 0)
    // And another client then asks for a recording while none runs, and a second one while it runs
    watcher.send("record \(folder.path("second.vpk"))")
    let other = try UnixSocketClient.connect(to: socket)
    try other.greet()
    other.send("record \(folder.path("third.vpk"))")
    try other.waitForLine(containing: "one recording at a time")
    watcher.send("quit")
    #expect(try daemon.waitForExit(timeout: 120).status == 0)
    // Then the script starts where the session was, holds what attach sent (not its own end marker), and replays
    let recorded = try String(contentsOfFile: script, encoding: .utf8)
    let lines = recorded.split(separator: "\n").map(String.init)
    #expect(lines.contains("open clip.mp4"))
    #expect(lines.contains { $0.hasPrefix("scrub ") } && lines.contains("step 2") && lines.contains("mark"))
    #expect(!recorded.contains("vpk-attach"))
    let first = try VPKProcess.run(["test", script, "--transcript", folder.path("t1")])
    let second = try VPKProcess.run(["test", script, "--transcript", folder.path("t2")])
    #expect(first.status == 0, "\(first.stdout)\n\(recorded)")
    #expect(second.status == 0, "\(second.stdout)")
    #expect(try transcriptText(in: folder.path("t1")) == (try transcriptText(in: folder.path("t2"))))
    #expect(FileManager.default.fileExists(atPath: folder.path("second.vpk")))
    #expect(!FileManager.default.fileExists(atPath: folder.path("third.vpk")))
  }

  @Test func keystrokesTypedAtATerminalAreRecordedAndReplayGreen() throws {
    // Given vpk playing with --record in a real terminal (tmux): what a person types goes through the line editor
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = folder.path("typed.vpk")
    let terminal = try TmuxTerminal(width: 120)
    try terminal.type("cd '\(folder.url.path)' && vpk play clip.mp4 --record typed.vpk")
    try terminal.press("Enter")
    try terminal.waitForScreen("the playing status line") { $0.last?.hasPrefix("▶ 00:00:") == true }
    Thread.sleep(forTimeInterval: 0.5)
    // When the person types commands and presses the empty line's keys (`.` steps, `=` marks, Space plays and
    // pauses), with a pause between two of them, and quits
    for line in ["pause", "scrub 2", "step"] {
      try terminal.type(line)
      try terminal.press("Enter")
    }
    try terminal.press(".")
    try terminal.press("=")
    try terminal.type("rate -1")
    try terminal.press("Enter")
    try terminal.press("Space")
    Thread.sleep(forTimeInterval: 0.4)
    try terminal.press("Space")
    try terminal.type("quit")
    try terminal.press("Enter")
    try terminal.waitForScreen("the shell's prompt after vpk") { $0.last(where: { !$0.isEmpty }) == "$" }
    // Then the script has each typed command, and vpk test replays it green
    let recorded = try String(contentsOfFile: script, encoding: .utf8)
    let commands = recorded.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("expect") }
    #expect(
      commands.filter { !$0.hasPrefix("wait") } == [
        "open clip.mp4", "pause", "scrub 2", "step", "step +1", "mark", "rate -1", "toggle", "toggle",
      ], "\(recorded)")
    #expect(commands.filter { $0.hasPrefix("wait ") }.count == 2, "\(recorded)")
    let replay = try VPKProcess.run(["test", script])
    #expect(replay.status == 0, "\(replay.stdout)\n\(recorded)")
  }

  @Test func aListSessionIsRecordedAsTheQueueAndItsMovesAndReplaysGreen() throws {
    // Given a list of two files, recorded while its commands move through it
    let folder = try ScriptFolder()
    defer { folder.remove() }
    try FileManager.default.copyItem(atPath: folder.path("clip.mp4"), toPath: folder.path("other.mp4"))
    let script = folder.path("queue.vpk")
    let live = try VPKProcess.run(
      [
        "play", folder.path("clip.mp4"), folder.path("other.mp4"), "--paused", "--clock", "virtual", "--record", script,
      ],
      input: .text("next\nscrub 2\nprev\nqueue\nnext\nnext\nquit\n"))
    #expect(live.status == 0, "\(live.stderr)")
    // Then the replay queues the list and moves through it as typed, each move checked, the refused one too
    let recorded = try String(contentsOfFile: script, encoding: .utf8)
    let commands = recorded.split(separator: "\n").map(String.init).filter {
      !$0.hasPrefix("#") && !$0.hasPrefix("expect frame") && !$0.hasPrefix("expect position") && $0 != "pause"
    }
    #expect(
      commands == [
        "queue add clip.mp4", "queue add other.mp4", "goto 1", "next", "expect entry == 2", "scrub 2", "prev",
        "expect entry == 1", "queue", "next", "expect entry == 2", "next", "expect error == queue_end",
      ], "\(recorded)")
    // When vpk test replays it, it passes
    let replay = try VPKProcess.run(["test", script])
    #expect(replay.status == 0, "\(replay.stdout)\n\(recorded)")
  }

  @Test func aRecordFileThatCannotBeWrittenStopsVPKBeforeAnythingPlays() throws {
    // Given a --record path in a folder that does not exist
    let folder = try ScriptFolder()
    defer { folder.remove() }
    // When vpk play is started with it
    let result = try VPKProcess.run(["play", folder.path("clip.mp4"), "--record", folder.path("no/such/dir/s.vpk")])
    // Then it exits 73 (EX_CANTCREAT), saying which file and why, and plays nothing
    #expect(result.status == 73)
    #expect(result.stderr.contains("vpk play: --record: cannot write \(folder.path("no/such/dir/s.vpk"))"))
    #expect(!result.stdout.contains("ready"))
  }

  /// The transcript files in `folder`, in name order, as one string.
  private func transcriptText(in folder: String) throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    return try names.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }.joined()
  }

}

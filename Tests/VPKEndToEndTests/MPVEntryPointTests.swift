// `vpk mpv` and vpk run under the name `mpv`, end to end: started as mpv's clients start mpv, driven over mpv's JSON
// IPC, and, where it is cheap, the same run against Debian's mpv and compared. mpv and python-mpv-jsonipc are test
// dependencies (scripts/bootstrap installs them): a missing one fails the test.

import Foundation
import Testing
import VPKTestSupport

/// A short folder (a socket path holds at most 107 bytes) with a symlink named `mpv` to the built vpk, removed by
/// `remove()`.
private struct MPVFolder {
  let url: URL
  init() throws {
    url = URL(fileURLWithPath: "/tmp/vpk-mpvcli-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: symlink.path, withDestinationPath: try VPKProcess.executableURL().path)
  }
  /// The symlink named mpv to vpk.
  var symlink: URL { url.appendingPathComponent("mpv") }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A program on PATH, or a failure that says how to install it.
private func program(_ name: String) throws -> URL {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") {
    let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  throw TestSupportError("\(name) not found on PATH: the vpk mpv tests need it (run scripts/bootstrap)")
}

/// The JSON object on a line.
private func object(_ line: String) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
}

@Suite struct MPVEntryPointTests {
  /// `vpk mpv --idle --input-ipc-server=S`: the socket speaks mpv's JSON IPC; a file loads, plays from --start,
  /// `quit` ends the process with status 0.
  @Test func idleWithInputIPCServer() throws {
    // Given vpk started as a client starts mpv
    let folder = try MPVFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let socket = folder.path("s")
    let player = try VPKSession(
      ["mpv", "--idle", "--input-ipc-server=\(socket)", "--no-terminal", "--vo=null", "--ao=null", "--pause"],
      input: .closed)
    defer { player.kill() }
    let client = try UnixSocketClient.connect(to: socket)
    // When the client asks whether it is idle, loads a file and seeks
    client.send(#"{"command": ["get_property", "idle-active"], "request_id": 1}"#)
    let idle = try object(try client.waitForLine(containing: #""request_id":1"#))
    client.send(#"{"command": ["loadfile", "\#(media)"], "request_id": 2}"#)
    _ = try client.waitForLine(containing: #""event":"file-loaded""#)
    client.send(#"{"command": ["get_property", "pause"], "request_id": 3}"#)
    let pause = try object(try client.waitForLine(containing: #""request_id":3"#))
    client.send(#"{"command": ["seek", 2, "absolute"], "request_id": 4}"#)
    _ = try client.waitForLine(containing: #""event":"playback-restart""#)
    client.send(#"{"command": ["get_property", "time-pos"], "request_id": 5}"#)
    let position = try object(try client.waitForLine(containing: #""request_id":5"#))
    client.send(#"{"command": ["quit"], "request_id": 6}"#)
    let result = try player.waitForExit()
    // Then it was idle, the file loaded paused (--pause), the seek landed, and quit ended it with status 0, having
    // written nothing (--no-terminal)
    #expect(idle["data"] as? Bool == true)
    #expect(pause["data"] as? Bool == true)
    #expect(position["data"] as? Double == 2)
    #expect(result.status == 0 && !result.terminatedBySignal)
    #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
  }

  /// python-mpv-jsonipc (from PyPI, unmodified) starts the player itself, from a symlink named mpv to vpk, and
  /// drives a short scenario; the same script against Debian's mpv sees the same.
  @Test func clientLibraryStartsVPKAsMPV() throws {
    let python = try program("python3")
    let mpv = try program("mpv")
    let script = TestMedia.packageRoot.appendingPathComponent("Tests/MPVIPC/starts_player.py").path
    let folder = try MPVFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    var transcripts: [String] = []
    for (name, player) in [("vpk", folder.symlink.path), ("mpv", mpv.path)] {
      // Given the library pointed at the player with mpv_location
      // When the scenario runs
      let run = try VPKSession(
        [script, player, folder.path("\(name).sock"), media], input: .closed, executable: python)
      let result = try run.waitForExit(timeout: 180)
      try #require(result.status == 0, "the scenario against \(name) failed: \(result.stderr)")
      transcripts.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    // Then the client saw the same from both: idle at first, the file loaded, the seek landed, the speed set
    let seen = try object(transcripts[0])
    #expect(seen["idle-active"] as? Bool == true)
    #expect(seen["time-pos after seek 2 absolute"] as? Double == 2)
    #expect(transcripts[0] == transcripts[1], "vpk \(transcripts[0])\nmpv \(transcripts[1])")
  }

  /// The command lines mpv refuses, vpk refuses with the same words (on standard output) and status; what both
  /// take, `--version` after it shows (as python-mpv-jsonipc's start-failure probe uses it).
  @Test func commandLinesAsMPVReadsThem() throws {
    let mpv = try program("mpv")
    let folder = try MPVFolder()
    defer { folder.remove() }
    let lines: [[String]] = [
      ["--foo"], ["--foo=1", "--idle"], ["--no-foo"], ["-foo"], ["--start", "5"], ["--input-ipc-server"],
      ["--pause=maybe"], ["--no-pause=yes"], ["--idle=maybe"], ["--keep-open=x"], ["--hr-seek=x"], ["--speed=abc"],
      ["--speed=0"], ["--start=abc"], ["--msg-level=x"], ["--no-config=yes"], ["--foo", "--no-terminal"],
      ["--really-quiet", "--foo"], ["--terminal=yes", "--vo=null", "--ao=null", "--no-config", "--idle=yes", "--foo"],
      ["--start=-10%"], ["--start=--5"], ["--start=-"],
    ]
    for arguments in lines {
      // Given a command line, When vpk (as mpv) and mpv read it
      let ours = try VPKSession(arguments, input: .closed, executable: folder.symlink).waitForExit()
      let theirs = try VPKSession(arguments, input: .closed, executable: mpv).waitForExit()
      // Then both say the same on standard output, and exit with the same status
      #expect(ours.status == theirs.status, "\(arguments)")
      #expect(ours.stdout == theirs.stdout, "\(arguments)")
      #expect(ours.stderr.isEmpty, "\(arguments): \(ours.stderr)")
    }
    // And a line both take, with --version last, passes: status 0, and the first line names mpv 0.35
    let taken = [
      "--terminal=yes", "--idle=yes", "--input-ipc-server=\(folder.path("v.sock"))", "--vo=null", "--ao=null",
      "--config=no", "--keep-open=yes", "--pause=yes", "--start=+1:02", "--speed=1:2", "--hr-seek=no",
      "--msg-level=ffmpeg=warn", "--force-window=no", "--no-video", "--version",
    ]
    let ours = try VPKSession(taken, input: .closed, executable: folder.symlink).waitForExit()
    let theirs = try VPKSession(taken, input: .closed, executable: mpv).waitForExit()
    #expect(ours.status == 0 && theirs.status == 0)
    #expect(ours.stdoutLines.first?.hasPrefix("mpv 0.35.1 ") == true, "\(ours.stdout)")
    #expect(theirs.stdoutLines.first?.hasPrefix("mpv 0.35.1 ") == true, "\(theirs.stdout)")
    // And `vpk mpv` reads the same line as the symlink does
    let subcommand = try VPKProcess.run(["mpv", "--foo"])
    #expect(subcommand.status == 1)
    #expect(subcommand.stdoutLines.first == "Error parsing option foo (option not found)")
  }

  /// `--idle` without `--keep-open`: at the end of the file, `end-file` (eof) then `idle`, and the player waits for
  /// the next; the same against mpv.
  @Test func idleAfterTheEndOfAFile() throws {
    let mpv = try program("mpv")
    let folder = try MPVFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    var heard: [[String]] = []
    for (name, player) in [("vpk", folder.symlink), ("mpv", mpv)] {
      // Given the player started with a file, paused near its end, idle after it
      let socket = folder.path("\(name).sock")
      let process = try VPKSession(
        [
          "--no-config", "--idle=yes", "--vo=null", "--ao=null", "--really-quiet", "--pause", "--start=95%",
          "--input-ipc-server=\(socket)", media,
        ], input: .closed, executable: player)
      defer { process.kill() }
      let client = try UnixSocketClient.connect(to: socket)
      // When it plays to the end
      client.send(#"{"command": ["set_property", "pause", false], "request_id": 1}"#)
      _ = try client.waitForLine(containing: #""event":"idle""#)
      client.send(#"{"command": ["get_property", "idle-active"], "request_id": 2}"#)
      _ = try client.waitForLine(containing: #""request_id":2"#)
      client.send(#"{"command": ["quit"]}"#)
      let result = try process.waitForExit()
      #expect(result.status == 0, "\(name)")
      // (When the file loads, against the client's connecting, differs from run to run; the quit's reply may or may
      // not come before the connection closes.)
      let wanted = [#""request_id":1,"#, #""request_id":2,"#, #""event":"end-file""#, #""event":"idle""#]
      heard.append(client.lines.filter { line in wanted.contains { line.contains($0) } })
    }
    // Then the client heard the file end, the player go idle and stay there, as from mpv
    #expect(
      heard[0] == [
        #"{"request_id":1,"error":"success"}"#, #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#,
        #"{"event":"idle"}"#, #"{"data":true,"request_id":2,"error":"success"}"#,
      ])
    #expect(heard[0] == heard[1], "vpk \(heard[0])\nmpv \(heard[1])")
  }

  /// `--speed` and `--start` hold for a file loaded later, as mpv's do: the same against mpv.
  @Test func speedAndStartForALoadedFile() throws {
    let mpv = try program("mpv")
    let folder = try MPVFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    var values: [[String]] = []
    for (name, player) in [("vpk", folder.symlink), ("mpv", mpv)] {
      // Given the player started idle, paused, at speed 2, starting files at their half
      let socket = folder.path("\(name).sock")
      let process = try VPKSession(
        [
          "--no-config", "--idle", "--vo=null", "--ao=null", "--really-quiet", "--pause", "--speed=2", "--start=50%",
          "--input-ipc-server=\(socket)",
        ], input: .closed, executable: player)
      defer { process.kill() }
      let client = try UnixSocketClient.connect(to: socket)
      // When a file is loaded
      client.send(#"{"command": ["loadfile", "\#(media)"], "request_id": 1}"#)
      _ = try client.waitForLine(containing: #""event":"playback-restart""#)
      client.send(#"{"command": ["get_property", "speed"], "request_id": 2}"#)
      client.send(#"{"command": ["get_property", "time-pos"], "request_id": 3}"#)
      let last = try object(try client.waitForLine(containing: #""request_id":3"#))
      let speed = try client.lines.map(object).first { $0["request_id"] as? Int == 2 }
      values.append(["\(speed?["data"] ?? "none")", "\(last["data"] ?? "none")"])
      client.send(#"{"command": ["quit"]}"#)
      _ = try process.waitForExit()
    }
    // Then it plays at speed 2 from its half, as with mpv
    #expect(values[0] == ["2.0", "5.0"], "vpk \(values[0])")
    #expect(values[0] == values[1], "vpk \(values[0]), mpv \(values[1])")
  }

  /// SIGTERM ends the player with mpv's status for a signal, 4; the same against mpv.
  @Test func signalStatusAsMPV() throws {
    let mpv = try program("mpv")
    let folder = try MPVFolder()
    defer { folder.remove() }
    for (name, player) in [("vpk", folder.symlink), ("mpv", mpv)] {
      // Given the player idle, listening
      let socket = folder.path("\(name).sock")
      let process = try VPKSession(
        ["--idle", "--really-quiet", "--vo=null", "--ao=null", "--input-ipc-server=\(socket)"], input: .closed,
        executable: player)
      _ = try UnixSocketClient.connect(to: socket)
      // (vpk listens before its signal handlers are in; a SIGTERM sent between the two ends it by the default action)
      try process.waitUntilHandling(signal: SIGTERM)
      // When SIGTERM comes
      process.send(signal: SIGTERM)
      // Then it leaves with status 4
      let result = try process.waitForExit()
      #expect(result.status == 4 && !result.terminatedBySignal, "\(name): \(result.status)")
    }
  }

  /// A file that cannot be opened ends `vpk mpv FILE` with mpv's status for it, 2; the end of a file without
  /// --idle or --keep-open ends it with 0.
  @Test func exitStatusesOfAFile() throws {
    let media = try TestMedia.url(for: .h264BFrames).path
    let missing = try VPKProcess.run(["mpv", "--really-quiet", "/nonexistent/clip.mp4"])
    #expect(missing.status == 2, "\(missing.stdout)")
    let ended = try VPKProcess.run(["mpv", "--really-quiet", "--start=95%", "--speed=4", media])
    #expect(ended.status == 0, "\(ended.stdout)")
  }

  /// A URL is refused as by `vpk play`; `vpk mpv`'s command line is mpv's, so the opening up is asked for in the
  /// environment (`VPK_ALLOW_NETWORK=1`), and the refusal says so.
  @Test func networkURLsAreAllowedByTheEnvironment() throws {
    // Given a URL nothing listens at
    let url = "tcp://127.0.0.1:1/clip.mp4"
    // When vpk mpv is asked to play it, without and with the variable
    let refused = try VPKProcess.run(["mpv", url])
    let allowed = try VPKProcess.run(["mpv", url], environment: ["VPK_ALLOW_NETWORK": "1"])
    // Then the first is refused before anything is opened, naming the variable; the second is tried and fails to
    // connect
    #expect(refused.status == 2)
    #expect(refused.stdout.contains("code=refused_protocol"), "\(refused.stdout)")
    #expect(refused.stdout.contains("VPK_ALLOW_NETWORK=1"), "\(refused.stdout)")
    #expect(allowed.status == 2)
    #expect(allowed.stdout.contains("code=not_media"), "\(allowed.stdout)")
    #expect(allowed.stdout.contains("Connection refused"), "\(allowed.stdout)")
  }
}

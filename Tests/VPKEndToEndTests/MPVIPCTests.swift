// mpv's JSON IPC on vpk's control socket, end to end: the built vpk as a daemon, driven with socat (as mpv's manual
// shows), with python-mpv-jsonipc from PyPI (unmodified), and with a plain socket client; where the same scenario
// runs against mpv itself (Debian's mpv, headless), both are run and what should agree is compared. socat, mpv and
// the Python package are test dependencies (scripts/bootstrap installs them): a missing one fails the test.

import Foundation
import Testing
import VPKTestSupport

/// A short folder for sockets (a socket path holds at most 107 bytes), removed by `remove()`.
private struct SocketFolder {
  let url: URL
  init() throws {
    url = URL(fileURLWithPath: "/tmp/vpk-mpv-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  func socket(_ name: String) -> String { url.appendingPathComponent(name).path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A program on PATH, or a failure that says how to install it.
private func tool(_ name: String) throws -> URL {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for folder in path.split(separator: ":") {
    let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: url.path) { return url }
  }
  throw TestSupportError("\(name) not found on PATH: the mpv IPC tests need it (run scripts/bootstrap)")
}

/// Runs a program to its end with `input` on its standard input; returns its status and outputs.
private func run(_ program: URL, _ arguments: [String], input: String = "", timeout: Double = 60) throws -> (
  status: Int32, output: String, errors: String
) {
  let process = Process()
  process.executableURL = program
  process.arguments = arguments
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input.utf8))
  try stdin.fileHandleForWriting.close()
  let collected = LockedData()
  let reader = Thread {
    collected.set(stdout.fileHandleForReading.readDataToEndOfFile(), stderr.fileHandleForReading.readDataToEndOfFile())
  }
  reader.start()
  let deadline = Date(timeIntervalSinceNow: timeout)
  while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
  if process.isRunning {
    process.terminate()
    throw TestSupportError("\(program.lastPathComponent) \(arguments) did not end within \(timeout) s")
  }
  process.waitUntilExit()
  let (output, errors) = collected.wait()
  return (
    process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self)
  )
}

private final class LockedData: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: (Data, Data)?
  func set(_ output: Data, _ errors: Data) {
    condition.withLock {
      value = (output, errors)
      condition.broadcast()
    }
  }
  func wait() -> (Data, Data) {
    condition.withLock {
      while value == nil { condition.wait() }
      return value!
    }
  }
}

/// mpv itself, headless, idle (or with `arguments`' file), with its JSON IPC at `socket`.
private final class MPVProcess {
  let process = Process()
  init(socket: String, arguments: [String] = []) throws {
    process.executableURL = try tool("mpv")
    process.arguments =
      [
        "--no-config", "--idle=yes", "--vo=null", "--ao=null", "--no-audio", "--really-quiet",
        "--input-ipc-server=\(socket)",
      ] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Its socket accepts once mpv is up.
    _ = try UnixSocketClient.connect(to: socket)
  }
  /// mpv leaves on SIGTERM only once its input thread notices; SIGKILL is certain.
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// The JSON object on a line, for comparing shapes.
private func object(_ line: String) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
}

/// Asks `socket` for the file's duration with socat until it answers with success (the file is loaded), for at most
/// `timeout` seconds.
private func waitUntilLoaded(_ socat: URL, socket: String, timeout: Double = 60) throws {
  // Listening first: socat run at a path where nothing is yet makes a plain file there, and the player cannot bind.
  _ = try UnixSocketClient.connect(to: socket)
  let deadline = Date(timeIntervalSinceNow: timeout)
  var last = ""
  while Date() < deadline {
    let result = try run(
      socat, ["-t", "1", "-", socket], input: #"{"command": ["get_property", "duration"], "request_id": 1}"# + "\n")
    last = result.output
    if last.contains(#""request_id":1"#) && last.contains(#""error":"success""#) { return }
    Thread.sleep(forTimeInterval: 0.1)
  }
  throw TestSupportError("\(socket) did not have the file loaded within \(timeout) s; its last answer: \(last)")
}

/// A daemon with `media` loaded and paused, its control socket at `socket`.
/// The daemon outlives its file (`--at-end pause`, as the daemon in docs/control-socket.md does): on a busy machine a test's client can
/// be slow enough for a playing clip to reach its end between two of its requests.
private func vpkDaemon(socket: String, media: String? = nil) throws -> VPKSession {
  var arguments = ["play"]
  arguments += media.map { [$0] } ?? ["--idle"]
  arguments += ["--paused", "--at-end", "pause", "--socket", socket, "--progress", "0.04"]
  return try VPKSession(arguments, input: .closed)
}

/// A daemon whose socket at `socket` speaks only mpv's JSON IPC (`--input-ipc-server`), with `arguments` before it.
private func vpkMPVDaemon(socket: String, _ arguments: [String]) throws -> VPKSession {
  try VPKSession(
    ["play"] + arguments + ["--at-end", "pause", "--input-ipc-server", socket, "--progress", "0.04"], input: .closed)
}

/// The `event` names among `lines`, of those in `names`.
private func events(_ lines: [String], among names: Set<String>) throws -> [String] {
  try lines.compactMap { try object($0)["event"] as? String }.filter { names.contains($0) }
}

@Suite struct MPVIPCTests {
  /// `--input-ipc-server`: a socket that speaks mpv's dialect from the start, as mpv's does. A client that only
  /// listens gets nothing on connecting and mpv's events after (no property-change it did not ask for); text lines
  /// are mpv's input commands, run without a reply. The same against mpv.
  @Test func inputIPCServerSpeaksMPVFromTheStart() throws {
    let socat = try tool("socat")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkMPVDaemon(socket: folder.socket("vpk"), [media, "--paused"])
    defer { daemon.kill() }
    // Listening before socat is run (socat makes a file at a path where nothing is).
    _ = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let mpv = try MPVProcess(socket: folder.socket("mpv"), arguments: ["--pause", media])
    defer { mpv.stop() }
    var heard: [[String]] = []
    var values: [[String]] = []
    for name in ["vpk", "mpv"] {
      try waitUntilLoaded(socat, socket: folder.socket(name))
      // Given a client that only listens, and one that drives with text lines
      let listener = try UnixSocketClient.connect(to: folder.socket(name))
      let driver = try UnixSocketClient.connect(to: folder.socket(name))
      // When the driver seeks, sets, adds and cycles in mpv's input.conf syntax
      driver.send("no-osd seek 2 absolute")
      try listener.waitForLine(containing: #"{"event":"playback-restart"}"#)
      driver.send(#"set speed "1.5"; add speed 0.25"#)
      driver.send("osd-msg cycle pause")
      driver.send("cycle pause # back to paused")
      driver.send(#"{"command": ["get_property", "speed"], "request_id": 1}"#)
      driver.send(#"{"command": ["get_property", "pause"], "request_id": 2}"#)
      try driver.waitForLine(containing: #""request_id":2"#)
      // Then the text lines were run, unanswered: the only replies are the JSON requests'
      let replies = try driver.lines.map(object).filter { $0["event"] == nil }
      #expect(replies.compactMap { $0["request_id"] as? Int } == [1, 2], "\(name): \(driver.lines)")
      values.append(replies.map { "\($0["data"] ?? "none")" })
      // And the listener heard the seek, and nothing else of vpk's or a property's
      #expect(!listener.lines.contains { $0.contains("hello") || $0.contains("property-change") }, "\(name)")
      heard.append(try events(listener.lines, among: ["seek", "playback-restart", "hello", "property-change"]))
    }
    #expect(heard[0] == ["seek", "playback-restart"])
    #expect(heard[0] == heard[1], "vpk \(heard[0]), mpv \(heard[1])")
    #expect(values[0] == ["1.75", "1"], "vpk \(values[0])")
    #expect(values[0] == values[1], "vpk \(values[0]), mpv \(values[1])")
  }

  /// `--socket` and `--input-ipc-server` together: the first detects the dialect (vpk's `hello` answers a vpk
  /// client's first line), the second speaks mpv's only (a vpk text command there is an mpv text line: it runs
  /// nothing).
  @Test func bothSocketsAtOnce() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(
      ["play", "--idle", "--socket", folder.socket("vpk"), "--input-ipc-server", folder.socket("mpv")], input: .closed)
    defer { daemon.kill() }
    let native = try UnixSocketClient.connect(to: folder.socket("vpk"))
    try native.greet()
    let client = try UnixSocketClient.connect(to: folder.socket("mpv"))
    client.send("status")
    client.send(#"{"command": ["get_property", "idle-active"], "request_id": 1}"#)
    try client.waitForLine(containing: #""request_id":1"#)
    #expect(client.lines == [#"{"data":true,"request_id":1,"error":"success"}"#])
    native.send("quit")
    // (mpv tells its clients no `shutdown`: the connection ends)
    try client.waitForEnd()
    #expect(!client.lines.contains { $0.contains("shutdown") })
    #expect(try daemon.waitForExit().status == 0)
  }

  /// Replies come in the order of the requests, whatever is answered at once: a seek (answered as it starts, as mpv
  /// answers it), reads, an unknown property, a line that is not JSON. The same against mpv, through socat.
  @Test func repliesKeepTheOrderOfRequests() throws {
    let socat = try tool("socat")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    defer { daemon.kill() }
    // Listening before socat is run (socat makes a file at a path where nothing is).
    _ = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let mpv = try MPVProcess(socket: folder.socket("mpv"), arguments: ["--pause", media])
    defer { mpv.stop() }
    let lines = [
      #"{"command": ["get_property", "time-pos"], "request_id": 1}"#,
      #"{"command": ["seek", 1, "absolute"], "request_id": 2}"#,
      #"{"command": ["get_property", "volume"], "request_id": 3}"#,
      #"{"command": ["get_property", "time-pos"], "request_id": 4}"#,
      #"{"command": ["get_property", "no-such-property"], "request_id": 5}"#,
      #"{"command": ["unobserve_property", 9], "request_id": 6}"#,
      "{not json",
      #"{"command": ["seek", 2, "absolute"], "request_id": 7}"#,
    ]
    var orders: [[Int]] = []
    for name in ["vpk", "mpv"] {
      try waitUntilLoaded(socat, socket: folder.socket(name))
      let result = try run(socat, ["-t", "10", "-", folder.socket(name)], input: lines.joined(separator: "\n") + "\n")
      let replies = try result.output.split(separator: "\n").map { try object(String($0)) }.filter {
        $0["event"] == nil
      }
      orders.append(replies.compactMap { $0["request_id"] as? Int })
      let seeks = replies.filter { [2, 7].contains($0["request_id"] as? Int) }
      #expect(seeks.count == 2 && seeks.allSatisfy { $0["error"] as? String == "success" }, "\(name): \(replies)")
    }
    #expect(orders[0] == [1, 2, 3, 4, 5, 6, 0, 7])
    #expect(orders[0] == orders[1], "vpk \(orders[0]), mpv \(orders[1])")
  }

  /// While a file loads in a session that plays what it loads, an observer of `pause` is told false once, as mpv
  /// tells it; and the file, opened before the client connected, ends as playlist entry 1, as mpv counts.
  @Test func pauseThroughALoadAndTheFirstEntry() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkMPVDaemon(socket: folder.socket("vpk"), ["--idle"])
    defer { daemon.kill() }
    let mpv = try MPVProcess(socket: folder.socket("mpv"))
    defer { mpv.stop() }
    var pauses: [[String]] = []
    for name in ["vpk", "mpv"] {
      let client = try UnixSocketClient.connect(to: folder.socket(name))
      client.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
      try client.waitForLine(containing: #""request_id":1,"#)
      client.send(#"{"command": ["loadfile", "\#(media)"], "request_id": 2}"#)
      try client.waitForLine(containing: #"{"event":"playback-restart"}"#)
      client.send(#"{"command": ["get_property", "pause"], "request_id": 3}"#)
      try client.waitForLine(containing: #""request_id":3,"#)
      pauses.append(client.lines.filter { $0.contains(#""name":"pause""#) })
      client.send(#"{"command": ["stop"], "request_id": 4}"#)
      let ended = try client.waitForLine(containing: #"{"event":"end-file""#)
      #expect(ended == #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#, "\(name)")
    }
    #expect(pauses[0] == [#"{"event":"property-change","id":1,"name":"pause","data":false}"#])
    #expect(pauses[0] == pauses[1], "vpk \(pauses[0]), mpv \(pauses[1])")
    // And a client of a session started on its file (it saw no start-file) ends it as entry 1 too
    let started = try vpkMPVDaemon(socket: folder.socket("vpk2"), [media, "--paused"])
    defer { started.kill() }
    // (a first client hears the file loaded, so the second connects after its start-file, whatever the machine's
    // speed)
    let watcher = try UnixSocketClient.connect(to: folder.socket("vpk2"))
    watcher.send(#"{"command": ["observe_property", 1, "duration"]}"#)
    try watcher.waitForLine(containing: #""name":"duration","data":"#)
    let client = try UnixSocketClient.connect(to: folder.socket("vpk2"))
    client.send(#"{"command": ["get_property", "duration"], "request_id": 1}"#)
    try client.waitForLine(containing: #""request_id":1,"error":"success""#)
    client.send(#"{"command": ["stop"], "request_id": 2}"#)
    try client.waitForLine(containing: #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#)
    #expect(!client.lines.contains { $0.contains("start-file") }, "\(client.lines)")
  }

  /// On `--socket`'s socket nothing is written before the client's first line: mpv's one-liner
  /// `echo '{"command":["get_property","playback-time"]}' | socat - S | jq .data` prints only the answer, as with mpv; a
  /// connection that never writes is sent nothing (it has not shown a dialect), while one that writes vpk's dialect
  /// first gets `hello` before its reply.
  @Test func nothingIsWrittenBeforeTheFirstLine() throws {
    let socat = try tool("socat")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    defer { daemon.kill() }
    let mpv = try MPVProcess(socket: folder.socket("mpv"), arguments: ["--pause", media])
    defer { mpv.stop() }
    // Given a connection that only listens
    let listener = try UnixSocketClient.connect(to: folder.socket("vpk"))
    var answers: [[String]] = []
    for name in ["vpk", "mpv"] {
      try waitUntilLoaded(socat, socket: folder.socket(name))
      // When the one-liner asks for playback-time
      let result = try run(
        socat, ["-t", "10", "-", folder.socket(name)], input: #"{"command":["get_property","playback-time"]}"# + "\n")
      // Then its output is the one reply
      let lines = result.output.split(separator: "\n").map(String.init)
      try #require(lines.count == 1, "\(name): \(lines)")
      let reply = try object(lines[0])
      #expect(reply["data"] as? Double == 0, "\(name): \(lines)")
      answers.append(lines)
    }
    #expect(answers[0] == [#"{"data":0.0,"request_id":0,"error":"success"}"#], "\(answers)")
    // When a vpk client seeks and asks for a status
    let native = try UnixSocketClient.connect(to: folder.socket("vpk"))
    native.send("scrub 3")
    native.send("status")
    try native.waitForLine(containing: #"{"event":"status","id":2"#)
    // Then it got hello first, then its replies
    #expect(native.lines.first?.hasPrefix(#"{"event":"hello""#) == true, "\(native.lines)")
    #expect(native.lines.dropFirst().first?.hasPrefix(#"{"event":"seeked","id":1"#) == true, "\(native.lines)")
    // And the listener, which never wrote, was sent nothing, even the seek every client sees
    let marker = try UnixSocketClient.connect(to: folder.socket("vpk"))
    try marker.greet()
    #expect(listener.lines.isEmpty, "\(listener.lines)")
    #expect(!listener.hasEnded)
  }

  /// Seeks land where mpv's land with its default --hr-seek, on a clip whose GOP is 250 frames (keyframes at 0, 8.333,
  /// 16.667, 25): absolute seeks exactly; relative forward ones on the first keyframe at or after the target (or at
  /// the end when none follows); backward ones, percentages and +keyframes on a keyframe; +exact exactly.
  @Test func seeksLandWhereMPVsLand() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264LongGOP).path
    let daemon = try vpkMPVDaemon(socket: folder.socket("vpk"), [media, "--paused"])
    defer { daemon.kill() }
    let mpv = try MPVProcess(socket: folder.socket("mpv"), arguments: ["--pause", "--keep-open=yes", media])
    defer { mpv.stop() }
    // From where (an exact seek there first), and the seek's arguments
    let seeks: [(from: Double, args: String)] = [
      (2, #"10"#), (2, #"10, "relative""#), (2, #"40, "absolute-percent""#), (20, #"-3, "relative""#),
      (20, #"-10, "relative""#), (2, #"20, "relative-percent""#), (20, #"-20, "relative-percent""#),
      (2, #"1, "relative""#), (2, #"5, "relative+keyframes""#), (2, #"12, "absolute+keyframes""#),
      (2, #"12, "absolute""#), (2, #"12, "relative+exact""#), (2, #"26, "relative""#),
    ]
    var landings: [[Double]] = []
    for name in ["vpk", "mpv"] {
      let client = try UnixSocketClient.connect(to: folder.socket(name))
      client.send(#"{"command": ["get_property", "duration"], "request_id": 0}"#)
      var polls = 0
      while try !client.waitForLine(containing: #""request_id":0"#).contains("success") {
        polls += 1
        try #require(polls < 600, "\(name) did not load the file")
        Thread.sleep(forTimeInterval: 0.05)
        client.send(#"{"command": ["get_property", "duration"], "request_id": 0}"#)
      }
      var landed: [Double] = []
      for (index, seek) in seeks.enumerated() {
        // When it seeks exactly to the start, then as the case says
        client.send(#"{"command": ["seek", \#(seek.from), "absolute+exact"], "request_id": 1}"#)
        try client.waitForLine(containing: #"{"event":"playback-restart"}"#)
        client.send(#"{"command": ["seek", \#(seek.args)], "request_id": 2}"#)
        try client.waitForLine(containing: #"{"event":"playback-restart"}"#)
        client.send(#"{"command": ["get_property", "time-pos"], "request_id": \#(100 + index)}"#)
        let reply = try object(try client.waitForLine(containing: #""request_id":\#(100 + index),"#))
        landed.append(try #require(reply["data"] as? Double, "\(name), seek \(seek): \(reply)"))
      }
      landings.append(landed)
    }
    // Then vpk lands where mpv does, to the microsecond mpv writes
    for (seek, (ours, theirs)) in zip(seeks, zip(landings[0], landings[1])) {
      #expect(abs(ours - theirs) < 1e-3, "from \(seek.from) seek \(seek.args): vpk \(ours), mpv \(theirs)")
    }
    #expect(abs(landings[0][1] - 50.0 / 3) < 1e-3, "the issue's seek 10 from 2 s: \(landings[0][1])")
  }

  /// On `--socket`'s socket a first line that is one of mpv's text commands makes the connection mpv's: it runs, and
  /// nothing is answered, as with mpv (`echo 'cycle pause' | socat - S`).
  @Test func mpvTextCommandsAsTheFirstLine() throws {
    let socat = try tool("socat")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    defer { daemon.kill() }
    let mpv = try MPVProcess(socket: folder.socket("mpv"), arguments: ["--pause", "--keep-open=yes", media])
    defer { mpv.stop() }
    var seen: [[Double]] = []
    for name in ["vpk", "mpv"] {
      try waitUntilLoaded(socat, socket: folder.socket(name))
      var values: [Double] = []
      for (line, property) in [
        ("cycle pause", "pause"), ("cycle pause", "pause"), ("no-osd seek 2 absolute", "time-pos"),
        ("set pause no", "pause"), ("set pause yes", "pause"),
      ] {
        // When a connection's only line is an mpv text command
        let output = try run(socat, ["-t", "1", "-", folder.socket(name)], input: line + "\n").output
        // Then nothing answers it: no reply, no hello (mpv's own events may come: vpk sends `seek` as a seek starts)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"event":"#) && !$0.contains("hello") }, "\(name) \(line): \(lines)")
        // And it ran: another connection reads its effect
        let read = try run(
          socat, ["-t", "10", "-", folder.socket(name)],
          input: #"{"command": ["get_property", "\#(property)"], "request_id": 1}"# + "\n")
        let reply = try object(try #require(read.output.split(separator: "\n").last.map(String.init), "\(name)"))
        values.append(try #require((reply["data"] as? NSNumber)?.doubleValue, "\(name) \(line): \(reply)"))
      }
      seen.append(values)
    }
    #expect(seen[0] == [0, 1, 2, 0, 1], "vpk \(seen[0])")
    #expect(seen[0] == seen[1], "vpk \(seen[0]), mpv \(seen[1])")
  }

  /// Lines of mpv's manual, sent with socat, one connection each: vpk and mpv answer in the same shape.
  @Test func socatOneLinersAnswerAsMPVDoes() throws {
    let socat = try tool("socat")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"))
    defer { daemon.kill() }
    _ = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let mpv = try MPVProcess(socket: folder.socket("mpv"))
    defer { mpv.stop() }
    // Both load the file and stand paused on it before the lines are sent (mpv plays what it loads).
    for name in ["vpk", "mpv"] {
      _ = try run(
        socat, ["-t", "10", "-", folder.socket(name)],
        input: #"{"command": ["loadfile", "\#(media)"]}"# + "\n" + #"{"command": ["set_property", "pause", true]}"#
          + "\n")
    }
    // socat leaves after its timeout whether or not the file has opened; mpv's first start on a fresh machine (its
    // font cache) has taken longer than that. Both must have the file before the lines are compared.
    for name in ["vpk", "mpv"] { try waitUntilLoaded(socat, socket: folder.socket(name)) }
    let lines = [
      #"{ "command": ["get_property", "time-pos"] }"#,
      #"{ "command": ["get_property", "time-pos"], "request_id": 100 }"#,
      #"{ "command": ["get_property", "playback-time"], "request_id": "abc" }"#,
      #"{ "command": ["get_property", "no-such-property"] }"#,
      #"{ "command": ["set_property", "pause", "maybe"] }"#,
      #"{ "command": ["no-such-command"] }"#,
      #"{ "command": ["get_property_string", "pause"] }"#,
      #"{ "command": ["get_version"] }"#,
      #"{ "command": [] }"#,
    ]
    // As the manual writes it: `echo '{ "command": … }' | socat - /tmp/mpvsocket`, here all the lines at once.
    var replies: [[[String: Any]]] = []
    for name in ["vpk", "mpv"] {
      let result = try run(socat, ["-t", "10", "-", folder.socket(name)], input: lines.joined(separator: "\n") + "\n")
      #expect(result.status == 0, "socat to \(name): \(result.errors)")
      // Nothing but the replies: the file stands paused, and `--socket`'s socket writes nothing before the first line.
      let output = result.output.split(separator: "\n").map(String.init)
      #expect(output.allSatisfy { $0.contains("request_id") }, "\(name): \(output)")
      replies.append(try output.filter { $0.contains("request_id") }.map(object))
    }
    let (ours, theirs) = (replies[0], replies[1])
    try #require(ours.count == lines.count && theirs.count == lines.count, "vpk \(ours), mpv \(theirs)")
    for (line, (our, their)) in zip(lines, zip(ours, theirs)) {
      #expect(our["error"] as? String == their["error"] as? String, "\(line)")
      #expect("\(our["request_id"] ?? "none")" == "\(their["request_id"] ?? "none")", "\(line)")
      #expect((our["data"] == nil) == (their["data"] == nil), "\(line): data in one reply only")
      if let data = their["data"], let ourData = our["data"] {
        #expect(type(of: data) == type(of: ourData), "\(line): vpk \(ourData), mpv \(data)")
        // The values too: positions within one frame of the clip (30 fps), as the differential harness compares
        // them; `get_version` names the program, so only its type is compared; everything else is equal.
        if line.contains("get_version") { continue }
        if line.contains("time"), let a = ourData as? NSNumber, let b = data as? NSNumber {
          #expect(abs(a.doubleValue - b.doubleValue) <= 1.0 / 30 + 1e-6, "\(line): vpk \(a), mpv \(b)")
        } else {
          #expect((ourData as? NSObject)?.isEqual(data) == true, "\(line): vpk \(ourData), mpv \(data)")
        }
      }
    }
  }

  /// The same scenario through python-mpv-jsonipc (from PyPI, unmodified) against vpk and against mpv.
  @Test func pythonClientLibrarySeesWhatItSeesWithMPV() throws {
    let python = try tool("python3")
    let script = TestMedia.packageRoot.appendingPathComponent("Tests/MPVIPC/scenario.py").path
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"))
    defer { daemon.kill() }
    _ = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let mpv = try MPVProcess(socket: folder.socket("mpv"))
    defer { mpv.stop() }
    var transcripts: [[String: Any]] = []
    for name in ["vpk", "mpv"] {
      let result = try run(python, [script, folder.socket(name), media], timeout: 120)
      try #require(result.status == 0, "the scenario against \(name) failed: \(result.errors)")
      transcripts.append(try object(result.output.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    let (ours, theirs) = (transcripts[0], transcripts[1])
    // Everything the scenario records agrees, key by key.
    for key in theirs.keys.sorted() {
      let a = try JSONSerialization.data(withJSONObject: ["v": ours[key] ?? NSNull()], options: .sortedKeys)
      let b = try JSONSerialization.data(withJSONObject: ["v": theirs[key]!], options: .sortedKeys)
      #expect(
        String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self),
        "\(key): vpk \(String(decoding: a, as: UTF8.self)), mpv \(String(decoding: b, as: UTF8.self))")
    }
  }

  /// Events in mpv's order, two mpv clients and a vpk client on one session, and the session's end.
  @Test func eventsAndRepliesOverOneConnection() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"))
    let client = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let watcher = try UnixSocketClient.connect(to: folder.socket("vpk"))
    let native = try UnixSocketClient.connect(to: folder.socket("vpk"))
    try native.greet()
    watcher.send(#"{"command": ["observe_property", 7, "idle-active"], "request_id": 1}"#)
    try watcher.waitForLine(containing: #"{"request_id":1,"error":"success"}"#)
    try watcher.waitForLine(containing: #"{"event":"property-change","id":7,"name":"idle-active","data":true}"#)
    // When a client loads a file
    client.send(#"{"command": ["loadfile", "\#(media)"], "request_id": 2}"#)
    // Then the reply, start-file, file-loaded and playback-restart come in mpv's order
    try client.waitForLine(containing: #"{"data":{"playlist_entry_id":1},"request_id":2,"error":"success"}"#)
    try client.waitForLine(containing: #"{"event":"start-file","playlist_entry_id":1}"#)
    try client.waitForLine(containing: #"{"event":"file-loaded"}"#)
    try client.waitForLine(containing: #"{"event":"playback-restart"}"#)
    // and the observer on another connection sees idle-active turn false; the vpk client sees `ready`
    try watcher.waitForLine(containing: #"{"event":"property-change","id":7,"name":"idle-active","data":false}"#)
    try native.waitForLine(containing: #"{"event":"ready","path""#)
    // When it seeks, exactly
    client.send(#"{"command": ["seek", 2, "absolute+exact"], "request_id": 3}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":3,"error":"success"}"#)
    try client.waitForLine(containing: #"{"event":"seek"}"#)
    client.send(#"{"command": ["get_property", "time-pos"], "request_id": 4}"#)
    let position = try client.waitForLine(containing: #""request_id":4"#)
    let seconds = try #require(try object(position)["data"] as? Double)
    #expect(abs(seconds - 2) < 0.05)
    // A frame step forward and back
    client.send(#"{"command": ["frame-step"], "request_id": 5}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":5,"error":"success"}"#)
    client.send(#"{"command": ["frame-back-step"], "request_id": 6}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":6,"error":"success"}"#)
    client.send(#"{"command": ["get_property", "estimated-frame-number"], "request_id": 7}"#)
    let frame = try client.waitForLine(containing: #""request_id":7"#)
    #expect(try object(frame)["data"] as? Int != nil)
    // cycle, add and set on properties
    client.send(#"{"command": ["set", "speed", "2"], "request_id": 8}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":8,"error":"success"}"#)
    client.send(#"{"command": ["add", "speed", -0.5], "request_id": 9}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":9,"error":"success"}"#)
    client.send(#"{"command": ["get_property", "speed"], "request_id": 10}"#)
    try client.waitForLine(containing: #"{"data":1.5,"request_id":10,"error":"success"}"#)
    client.send(#"{"command": ["cycle", "pause"], "request_id": 11}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":11,"error":"success"}"#)
    client.send(#"{"command": ["get_property", "pause"], "request_id": 12}"#)
    try client.waitForLine(containing: #"{"data":false,"request_id":12,"error":"success"}"#)
    client.send(#"{"command": ["set_property", "pause", true], "request_id": 13}"#)
    try client.waitForLine(containing: #"{"request_id":13,"error":"success"}"#)
    client.send(#"{"command": ["client_name"], "request_id": 14}"#)
    try client.waitForLine(containing: #""data":"ipc_"#)
    // A line mpv cannot read is answered, never dropped, and the connection goes on
    client.send("{not json")
    try client.waitForLine(containing: #"{"request_id":0,"error":"invalid parameter"}"#)
    // When it stops: end-file (stop), then idle
    client.send(#"{"command": ["stop"], "request_id": 15}"#)
    try client.waitForLine(containing: #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#)
    try client.waitForLine(containing: #"{"event":"idle"}"#)
    try watcher.waitForLine(containing: #"{"event":"property-change","id":7,"name":"idle-active","data":true}"#)
    // And quits: the reply, and the session ends for everyone (mpv's clients are told no `shutdown`; vpk's are)
    client.send(#"{"command": ["quit"], "request_id": 16}"#)
    try client.waitForLine(containing: #"{"data":null,"request_id":16,"error":"success"}"#)
    try native.waitForLine(containing: #"{"event":"shutdown","reason":"quit""#)
    try client.waitForEnd()
    try watcher.waitForEnd()
    #expect(!(client.lines + watcher.lines).contains { $0.contains("shutdown") })
    #expect(try daemon.waitForExit().status == 0)
  }

  /// Requests sent together, reads among commands: every reply comes in the order of the requests, and a read after a
  /// seek says where the seek landed (a read is answered on the socket's own thread only when nothing sent before it
  /// is still under way).
  @Test func pipelinedRequestsAreAnsweredInOrder() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    defer { daemon.kill() }
    let client = try UnixSocketClient.connect(to: folder.socket("vpk"))
    // Given the file loaded (a read sent before it is ready is answered unavailable, as mpv answers it)
    for probe in 0..<600 {
      client.send(#"{"command": ["get_property", "duration"], "request_id": "probe-\#(probe)"}"#)
      let reply = try client.waitForLine(containing: #""request_id":"probe-\#(probe)""#)
      if reply.contains(#""error":"success""#) { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    client.send(#"{"command": ["get_property", "duration"], "request_id": 1}"#)
    try client.waitForLine(containing: #""request_id":1,"error":"success""#)
    // When reads, a seek, a read, a step and reads go out in one write
    var requests: [String] = []
    for id in 2..<40 { requests.append(#"{"command": ["get_property", "time-pos"], "request_id": \#(id)}"#) }
    requests.append(#"{"command": ["seek", 2, "absolute+exact"], "request_id": 40}"#)
    requests.append(#"{"command": ["get_property", "time-pos"], "request_id": 41}"#)
    requests.append(#"{"command": ["frame-step"], "request_id": 42}"#)
    for id in 43..<80 { requests.append(#"{"command": ["get_property", "playback-time"], "request_id": \#(id)}"#) }
    client.write(Data((requests.joined(separator: "\n") + "\n").utf8))
    try client.waitForLine(containing: #""request_id":79,"#)
    // Then the replies come in the order of the requests, each once
    let replies = try client.lines.filter { $0.contains("request_id") }.map(object).filter { $0["request_id"] is Int }
    #expect(replies.compactMap { $0["request_id"] as? Int } == Array(1..<80))
    #expect(replies.allSatisfy { $0["error"] as? String == "success" })
    // and the read after the seek is at the seek's target; those after the step, one frame (1/30 s) on
    let afterSeekReply = try #require(replies.first { $0["request_id"] as? Int == 41 })
    let afterSeek = try #require(afterSeekReply["data"] as? Double)
    #expect(abs(afterSeek - 2) < 1e-3)
    let lastReply = try #require(replies.last)
    let afterStep = try #require(lastReply["data"] as? Double)
    #expect(abs(afterStep - (2 + 1.0 / 30)) < 1e-3)
  }

  /// An mpv client and a vpk client on one `--socket` socket: the vpk client's scrub and steps are told to the mpv
  /// client as mpv tells another client's seek (`seek` and `seeking` true, then `playback-restart` and `seeking`
  /// false; a step forward seeks nothing, as mpv's `frame-step`), and the vpk client sees only its own answers.
  @Test func aVPKClientsSeeksAreToldToAnMPVClient() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    defer { daemon.kill() }
    // Given an mpv client observing seeking, and a vpk client
    let mpvClient = try UnixSocketClient.connect(to: folder.socket("vpk"))
    mpvClient.send(#"{"command": ["observe_property", 1, "seeking"], "request_id": 1}"#)
    try mpvClient.waitForLine(containing: #""name":"seeking","data":false"#)
    let vpkClient = try UnixSocketClient.connect(to: folder.socket("vpk"))
    // When the vpk client scrubs, steps back and steps forward, each after the one before has landed
    var told: [[String]] = []
    for (command, answer) in [("scrub 3", "seeked"), ("step -1", "stepped"), ("step 1", "stepped")] {
      let before = mpvClient.lines.count
      vpkClient.send(command)
      try vpkClient.waitForLine(containing: #""event":"\#(answer)""#)
      if command == "step 1" {
        // A step forward is mpv's frame-step, which seeks nothing: a read after it shows what the client was told
        mpvClient.send(#"{"command": ["get_property", "seeking"], "request_id": 2}"#)
        try mpvClient.waitForLine(containing: #""request_id":2"#)
      } else {
        try mpvClient.waitForLine(containing: #"{"event":"playback-restart"}"#)
        try mpvClient.waitForLine(containing: #""name":"seeking","data":false"#)
      }
      told.append(
        try mpvClient.lines.dropFirst(before).map(object).map { line in
          (line["event"] as? String ?? "reply") + ((line["data"] as? Bool).map { " \($0)" } ?? "")
        })
    }
    // Then the mpv client heard the seek and the step back as mpv tells them, and nothing of the step forward
    let seekSeen = ["seek", "property-change true", "playback-restart", "property-change false"]
    #expect(told == [seekSeen, seekSeen, ["reply false"]], "\(mpvClient.lines)")
    // And the vpk client only its own dialect's answers: no line for a seek's start
    let names = try events(vpkClient.lines, among: ["hello", "seeked", "stepped", "seek", "seek-started"])
    #expect(names == ["hello", "seeked", "stepped", "stepped"], "\(vpkClient.lines)")
  }

  /// Two connections: an mpv client observing `pause`, and a vpk client that puts the loaded file in the other state
  /// and `open`s a file beside it. The new file starts as the start options say (`--paused` or not), and the mpv
  /// client hears that once, as the file starts: not the state of the file it replaced.
  @Test(arguments: [true, false])
  func anMPVClientHearsHowAFileOpenedBesideALoadedOneStarts(startPaused: Bool) throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try VPKSession(
      ["play", media] + (startPaused ? ["--paused"] : []) + [
        "--at-end", "pause", "--socket", folder.socket("vpk"), "--progress", "0.04",
      ], input: .closed)
    defer { daemon.kill() }
    // Given an mpv client observing pause, and a vpk client that puts the file in the other state
    let mpvClient = try UnixSocketClient.connect(to: folder.socket("vpk"))
    mpvClient.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
    try mpvClient.waitForLine(containing: #""name":"pause","data":\#(startPaused)"#)
    let vpkClient = try UnixSocketClient.connect(to: folder.socket("vpk"))
    vpkClient.send(startPaused ? "play" : "pause")
    try vpkClient.waitForLine(containing: #""event":"state""#)
    try mpvClient.waitForLine(containing: #""name":"pause","data":\#(!startPaused)"#)
    let before = mpvClient.lines.count
    // When the vpk client opens a file beside it, and the mpv client reads pause once it has loaded
    vpkClient.send("open \(media)")
    try vpkClient.waitForLine(containing: #""event":"ready""#)
    try mpvClient.waitForLine(containing: #"{"event":"playback-restart"}"#)
    mpvClient.send(#"{"command": ["get_property", "pause"], "request_id": 2}"#)
    let read = try mpvClient.waitForLine(containing: #""request_id":2"#)
    // Then the observer heard the new file's start state once, as it started (before file-loaded), and the read agrees
    let told = Array(mpvClient.lines.dropFirst(before).prefix { !$0.contains(#""request_id":2"#) })
    #expect(
      told == [
        #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":\#(startPaused)}"#, #"{"event":"file-loaded"}"#,
        #"{"event":"playback-restart"}"#,
      ], "\(mpvClient.lines)")
    #expect(read == #"{"data":\#(startPaused),"request_id":2,"error":"success"}"#)
  }

  /// A client that connects after the session's file opened (it saw no `file-loaded`) still reads its properties.
  @Test func clientOfASessionWhoseFileIsOpen() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try vpkDaemon(socket: folder.socket("vpk"), media: media)
    let native = try UnixSocketClient.connect(to: folder.socket("vpk"))
    native.send("status")
    try native.waitForLine(containing: #""state":"paused""#)
    let client = try UnixSocketClient.connect(to: folder.socket("vpk"))
    client.send(#"{"command": ["get_property", "width"], "request_id": 1}"#)
    try client.waitForLine(containing: #"{"data":320,"request_id":1,"error":"success"}"#)
    client.send(#"{"command": ["get_property", "time-pos"], "request_id": 2}"#)
    try client.waitForLine(containing: #"{"data":0.0,"request_id":2,"error":"success"}"#)
    client.send(#"{"command": ["quit"]}"#)
    try client.waitForEnd()
    #expect(try daemon.waitForExit().status == 0)
  }
}

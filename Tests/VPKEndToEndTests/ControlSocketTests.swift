// `vpk play --socket` and `vpk attach`, end to end: the built vpk, real Unix-domain sockets, clients that behave and
// clients that do not. Every JSON line the clients receive is checked against the events schema.

import Foundation
import Testing
import VPKTestSupport

/// A short folder for sockets (a socket path holds at most 107 bytes), removed by `remove()`.
private struct SocketFolder {
  let url: URL
  init() throws {
    url = URL(fileURLWithPath: "/tmp/vpk-e2e-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  var socket: String { url.appendingPathComponent("s").path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

private func exists(_ path: String) -> Bool {
  var info = stat()
  return lstat(path, &info) == 0
}

/// Checks every line against the events schema (one validator run for all of them).
private func validate(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
  let schema = try VPKSchemas.events()
  for (line, errors) in zip(lines, try schema.errors(inLines: lines)) where !errors.isEmpty {
    Issue.record("\(line)\n\(errors.joined(separator: "\n"))", sourceLocation: sourceLocation)
  }
}

/// How many descriptors the process `pid` has open (its /proc/PID/fd entries).
private func openDescriptors(of pid: Int32) -> Int {
  (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
}

/// How many of the process `pid`'s threads are named `name` (their /proc/PID/task/*/comm).
/// How many threads the process `pid` runs.
private func threads(of pid: Int32) -> Int {
  ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
}

/// The resident memory of the process `pid`, in KiB (VmRSS in /proc/PID/status).
private func residentKiB(of pid: Int32) throws -> Int {
  let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
  let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
  return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
}

@Suite struct ControlSocketTests {
  @Test func eachClientGetsHelloItsOwnRepliesAndWhatChangesForEveryone() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    // Given an idle daemon whose standard input ends at once (a session with a socket goes on)
    let daemon = try VPKSession(
      ["play", "--idle", "--paused", "--socket", folder.socket, "--clock", "free", "--progress", "off"],
      input: .closed)
    let a = try UnixSocketClient.connect(to: folder.socket)
    let b = try UnixSocketClient.connect(to: folder.socket)
    try a.greet()
    try b.greet()
    // When client a opens the media
    a.send("open \(media)")
    // Then a gets ready as its reply (its id 1), b sees it with no id
    try a.waitForLine(containing: #"{"event":"ready","id":1,"#)
    try b.waitForLine(containing: #"{"event":"ready","path""#)
    // When both send a status with the client id 1
    a.send(#"{"command":"status","id":1}"#)
    b.send(#"{"command":"status","id":1}"#)
    // Then each gets its own, with its own ordinal as seq
    try a.waitForLine(containing: #"{"event":"status","id":1,"seq":2,"#)
    try b.waitForLine(containing: #"{"event":"status","id":1,"seq":1,"#)
    // When b seeks
    b.send("scrub 5")
    try b.waitForLine(containing: #"{"event":"seeked","id":2,"#)
    try a.waitForLine(containing: #"{"event":"seeked","target":5"#)
    // And a quits
    a.send("quit")
    try a.waitForLine(containing: #"{"event":"shutdown","id":3,"reason":"quit""#)
    try b.waitForLine(containing: #"{"event":"shutdown","reason":"quit""#)
    try a.waitForEnd()
    try b.waitForEnd()
    let result = try daemon.waitForExit()
    #expect(result.status == 0)
    #expect(!exists(folder.socket), "the socket file is removed when vpk leaves")
    // Neither client got a reply to the other's commands: b's lines with an id are its own 1 and 2
    #expect(b.lines.filter { $0.contains(#""id":"#) }.count == 2)
    #expect(a.lines.filter { $0.contains(#""id":"#) }.count == 3)
    try validate(a.lines + b.lines)
  }

  @Test func theSocketIsPrivateWhateverTheUmaskAndRemovedOnEverySignal() throws {
    for (signal, status, name) in [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, 143, "SIGTERM"), (SIGHUP, 129, "SIGHUP")] {
      let folder = try SocketFolder()
      defer { folder.remove() }
      // Given a daemon started with an umask that lets everyone in
      let previous = umask(0)
      let daemon: VPKSession
      do {
        defer { umask(previous) }
        daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
      }
      let client = try UnixSocketClient.connect(to: folder.socket)
      try client.greet()
      // Then the socket is its user's alone
      var info = stat()
      #expect(lstat(folder.socket, &info) == 0)
      #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8)) after \(name)")
      // When a signal comes
      try daemon.waitUntilHandling(signal: signal)
      daemon.send(signal: signal)
      // Then every client is told, vpk leaves with the signal's status, and the socket file is gone
      try client.waitForLine(containing: #""reason":"\#(name)""#)
      let result = try daemon.waitForExit()
      #expect(result.status == status)
      #expect(!exists(folder.socket), "socket file left after \(name)")
    }
  }

  /// Clients that keep connecting and leaving while a signal ends the session: one that connects as the server
  /// stops is left to close with the server's event loop, and the session leaves with the signal's status each time.
  /// (Finishing such a client on a loop that has gone traps in a debug build; the window is narrow, so these rounds
  /// meet it only now and then.)
  @Test func clientsConnectingAsTheSessionEndsLeaveItsStatusAlone() throws {
    for round in 1...8 {
      let folder = try SocketFolder()
      defer { folder.remove() }
      // Given a daemon, and clients connecting and leaving without pause from three threads
      let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
      defer { daemon.kill() }
      _ = try UnixSocketClient.connect(to: folder.socket)
      let churn = Churn()
      let churners = (0..<3).map { _ in
        Thread {
          while !churn.stopping {
            if let client = try? UnixSocketClient(path: folder.socket, reads: false) {
              churn.countConnection()
              client.disconnect()
            } else {
              usleep(1000)
            }
          }
        }
      }
      for churner in churners { churner.start() }
      defer { churn.stop() }
      let deadline = Date(timeIntervalSinceNow: 120)
      while churn.connections < 30 && Date() < deadline { usleep(2000) }
      // When SIGTERM comes among them
      try daemon.waitUntilHandling(signal: SIGTERM)
      daemon.send(signal: SIGTERM)
      // Then vpk leaves with SIGTERM's status, not by a crash
      let result = try daemon.waitForExit()
      #expect(result.status == 143 && !result.terminatedBySignal, "round \(round): \(result.status)")
    }
  }

  @Test func aSignalAsSoonAsTheSocketFileExistsEndsTheSessionAndRemovesIt() throws {
    for (signal, status, name) in [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, 130, "SIGINT")] {
      let folder = try SocketFolder()
      defer { folder.remove() }
      // Given a daemon starting
      let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
      // When its socket file appears
      let deadline = Date(timeIntervalSinceNow: 120)
      while !exists(folder.socket) && !daemon.hasExited && Date() < deadline { usleep(500) }
      #expect(exists(folder.socket), "no socket file")
      // Then vpk already handles the signal: one sent now ends the session, which leaves with the signal's status
      // and removes its socket file
      #expect(daemon.isHandling(signal: signal), "\(name) not caught when the socket file exists")
      daemon.send(signal: signal)
      let result = try daemon.waitForExit()
      #expect(result.status == status, "\(name): \(result.stderr)")
      #expect(!exists(folder.socket), "socket file left after \(name)")
    }
  }

  @Test func aPathThatIsNotASocketIsRefusedAndNeverDeleted() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    try Data("precious".utf8).write(to: URL(fileURLWithPath: folder.socket))
    let result = try VPKProcess.run(["play", "--idle", "--socket", folder.socket])
    #expect(result.status == 73)
    #expect(result.stderr.contains("not a socket"))
    #expect(try String(contentsOfFile: folder.socket, encoding: .utf8) == "precious")
  }

  @Test func aLiveSocketIsRefusedAndAStaleOneReplaced() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    // Given a daemon listening
    let first = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
    let client = try UnixSocketClient.connect(to: folder.socket)
    try client.greet()
    // When another vpk is given the same path, it is refused and the first one goes on
    let second = try VPKProcess.run(["play", "--idle", "--socket", folder.socket])
    #expect(second.status == 73)
    #expect(second.stderr.contains("another process is listening"))
    client.send("status")
    try client.waitForLine(containing: #"{"event":"status","id":1"#)
    // When the first is killed (no chance to clean up), its socket is left stale
    first.kill()
    _ = try? first.waitForExit()
    #expect(exists(folder.socket))
    // Then a new vpk replaces it
    let third = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
    let again = try UnixSocketClient.connect(to: folder.socket)
    try again.greet()
    again.send("quit")
    #expect(try third.waitForExit().status == 0)
  }

  @Test func hostileClientsGetErrorsOrADisconnectAndTheOthersGoOn() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket, "--max-clients", "3"], input: .closed)
    let hostile = try UnixSocketClient.connect(to: folder.socket)
    let calm = try UnixSocketClient.connect(to: folder.socket)
    try hostile.greet()
    try calm.greet()
    // When one client sends a line over the limit, bytes that are not UTF-8, garbage and broken JSON
    hostile.write(Data(repeating: UInt8(ascii: "x"), count: 100_000) + Data("\n".utf8))
    hostile.write(Data([0xFF, 0xFE, 0x00, 0x0A]))
    hostile.send("garbage ~~ !!")
    hostile.send(#"{"command": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["#)
    // Then each line gets its error, with its id
    try hostile.waitForLine(containing: #"{"event":"error","id":1,"code":"bad_input""#)
    try hostile.waitForLine(containing: #"{"event":"error","id":2,"code":"bad_input""#)
    try hostile.waitForLine(containing: #"{"event":"error","id":3,"code":"unknown_command""#)
    try hostile.waitForLine(containing: #"{"event":"error","id":4,"code":"bad_json""#)
    // And the other client is served as ever, and saw none of it
    calm.send("status")
    try calm.waitForLine(containing: #"{"event":"status","id":1"#)
    #expect(!calm.lines.contains { $0.contains(#""event":"error""#) })
    // When clients beyond --max-clients come, the one over is told and disconnected
    let third = try UnixSocketClient.connect(to: folder.socket)
    try third.greet()
    let fourth = try UnixSocketClient.connect(to: folder.socket)
    try fourth.waitForLine(containing: #"{"event":"error","code":"too_many_clients""#)
    try fourth.waitForEnd()
    // And once one leaves, there is room again (as soon as the daemon has seen it leave)
    third.disconnect()
    let deadline = Date(timeIntervalSinceNow: 30)
    while true {
      let fifth = try UnixSocketClient.connect(to: folder.socket)
      fifth.send("status")
      let answer = try fifth.waitForLine { $0.contains(#""event":"status""#) || $0.contains("too_many_clients") }
      if answer.contains(#"{"event":"status","id":1"#) { break }
      #expect(Date() < deadline, "no room after a client left")
      if Date() > deadline { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    // And a thousand connections opened and closed leave the daemon serving
    for _ in 0..<1000 { try UnixSocketClient(path: folder.socket, reads: false).disconnect() }
    calm.send("status")
    try calm.waitForLine(containing: #"{"event":"status","id":2"#)
    calm.send("quit")
    let result = try daemon.waitForExit()
    #expect(result.status == 0)
    #expect(result.stderr.contains("--max-clients"))
    try validate(hostile.lines + calm.lines + fourth.lines)
  }

  @Test func descriptorsAndMemoryComeBackAfterTenThousandHostileConnections() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    // Under AddressSanitizer freed memory is held in a quarantine (256 MB by default), which would read as growth.
    let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + " " } ?? ""
    let daemon = try VPKSession(
      ["play", "--idle", "--socket", folder.socket], input: .closed,
      environment: ["ASAN_OPTIONS": asan + "quarantine_size_mb=0"])
    let pid = daemon.processIdentifier
    let calm = try UnixSocketClient.connect(to: folder.socket)
    try calm.greet()
    let overLong = Data(repeating: UInt8(ascii: "x"), count: 70_000) + Data("\n".utf8)
    /// Opens and closes `count` connections; every 50th sends garbage, bytes that are not UTF-8 and a line over the
    /// limit first. Then waits until the daemon has let them all go (its answer to `status` comes after them).
    /// Each waits for its `hello` before it goes, so connections come one after another: with the daemon starved of
    /// CPU, connections that are never waited for pile up in the listen backlog and thousands of them are live at
    /// once; the allocator keeps that high-water mark (8.25 MiB of RSS once, under load), which says nothing about
    /// what a connection leaves behind. The test above has connections come faster than they are accepted.
    var asked = 0
    func churn(_ count: Int) throws {
      for index in 0..<count {
        let client = try UnixSocketClient(path: folder.socket, reads: false)
        try client.readGreeting()
        if index % 50 == 0 {
          client.send("garbage ~~ !!")
          client.write(Data([0xFF, 0xFE, 0x0A]))
          client.write(overLong)
        }
        client.disconnect()
      }
      asked += 1
      calm.send(#"{"command":"status","id":"churn-\#(asked)"}"#)
      try calm.waitForLine(containing: #""id":"churn-\#(asked)""#, timeout: 120)
    }
    /// The daemon's descriptors once the count holds still for a second (it lets closed clients go asynchronously),
    /// or, with `target`, as soon as it is that.
    func settledDescriptors(target: Int? = nil) -> Int {
      let deadline = Date(timeIntervalSinceNow: 60)
      var open = openDescriptors(of: pid)
      var still = 0
      while open != target, still < 20, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
        let now = openDescriptors(of: pid)
        still = now == open ? still + 1 : 0
        open = now
      }
      return open
    }
    // Given a daemon warmed up (NIO's and the allocator's pools filled by a first round)
    try churn(500)
    let descriptorsBefore = settledDescriptors()
    let rssBefore = try residentKiB(of: pid)
    // When 10,000 connections are opened and closed, 200 of them hostile
    try churn(10_000)
    // Then its descriptors are back to the count before, its memory about where it was, and it still answers
    let descriptorsAfter = settledDescriptors(target: descriptorsBefore)
    let rssAfter = try residentKiB(of: pid)
    #expect(descriptorsAfter == descriptorsBefore)
    // A leak of 1 KiB per connection would be 10,000 KiB; 8 MiB leaves room for malloc's arenas and NIO's pools
    // settling after the warm-up (measured in debug builds: 0.2 to 2.8 MiB) and still catches that. Under
    // AddressSanitizer (scripts/test's third run, which sets ASAN_OPTIONS) RSS says little: its allocator keeps freed
    // chunks in per-thread caches and size-class regions (10.3 MiB of growth seen there). There LeakSanitizer checks
    // the daemon when it quits instead: a leak makes its exit status non-zero, which the last check catches.
    if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
      #expect(rssAfter - rssBefore < 8192, "RSS \(rssBefore) KiB before, \(rssAfter) KiB after")
    }
    calm.send("quit")
    #expect(try daemon.waitForExit().status == 0)
    print("descriptors \(descriptorsBefore) -> \(descriptorsAfter), RSS \(rssBefore) -> \(rssAfter) KiB")
  }

  /// An `--input-ipc-server` socket's clients leave no descriptor behind, and no thread (the socket serves them all
  /// on its one event loop).
  /// The threads a daemon's pools may start on demand between two counts, whatever its clients do.
  static let poolGrowth = 2

  @Test func threadsAndDescriptorsComeBackAfterThousandsOfMPVConnections() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(["play", "--idle", "--input-ipc-server", folder.socket], input: .closed)
    let pid = daemon.processIdentifier
    let calm = try UnixSocketClient.connect(to: folder.socket)
    calm.send(#"{"command": ["get_property", "volume"], "request_id": 1}"#)
    try calm.waitForLine(containing: #""request_id":1"#)
    let overLong = Data(repeating: UInt8(ascii: "x"), count: 70_000) + Data("\n".utf8)
    /// Opens `count` connections, each answered before it leaves; every 50th sends garbage, bytes that are not UTF-8
    /// and a line over the limit first, and every 7th leaves without waiting for its answer.
    var asked = 1
    func churn(_ count: Int) throws {
      for index in 0..<count {
        let client = try UnixSocketClient(path: folder.socket)
        if index % 50 == 0 {
          client.send("garbage ~~ !!")
          client.write(Data([0xFF, 0xFE, 0x0A]))
          client.write(overLong)
        }
        client.send(#"{"command": ["get_property", "pause"], "request_id": 5}"#)
        if index % 7 != 0 { try client.waitForLine(containing: #""request_id":5"#) }
        client.disconnect()
      }
      asked += 1
      calm.send(#"{"command": ["get_property", "volume"], "request_id": \#(asked)}"#)
      try calm.waitForLine(containing: #""request_id":\#(asked)"#, timeout: 120)
    }
    /// The daemon's descriptors and threads once they hold still for a second, or as soon as they are back to
    /// `target`.
    func settled(target: (Int, Int)? = nil) -> (descriptors: Int, threads: Int) {
      let deadline = Date(timeIntervalSinceNow: 60)
      func now() -> (Int, Int) { (openDescriptors(of: pid), threads(of: pid)) }
      var counts = now()
      var still = 0
      while target.map({ counts.0 > $0.0 || counts.1 > $0.1 }) ?? true, still < 20, Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
        let next = now()
        still = next == counts ? still + 1 : 0
        counts = next
      }
      return counts
    }
    // Given a daemon that has served a first round
    try churn(200)
    let before = settled()
    // When 2,000 more clients come and go, 40 of them hostile
    try churn(2000)
    // Then no thread or descriptor of theirs is left, and the daemon still answers. Dispatch's and the runtime's pools
    // start a worker on demand (one more, once, on a busy machine): a thread per client would add thousands.
    let after = settled(target: (before.descriptors, before.threads + Self.poolGrowth))
    #expect(after.descriptors <= before.descriptors, "descriptors \(before.descriptors) -> \(after.descriptors)")
    #expect(after.threads <= before.threads + Self.poolGrowth, "threads \(before.threads) -> \(after.threads)")
    calm.send(#"{"command": ["quit"]}"#)
    #expect(try daemon.waitForExit().status == 0)
  }

  /// On an `--input-ipc-server` socket, where reads are answered on the event loop, a client that floods reads and
  /// never reads its replies is held to the same bound.
  @Test func anMPVClientOfAnIPCServerSocketThatFloodsReadsAndNeverReadsIsDisconnectedAndTheOthersGoOn() throws {
    // Given an mpv client that sends 100,000 reads (about 5 MB of replies) and never reads
    let media = try TestMedia.url(for: .h264BFrames).path
    try expectStalledClientDisconnected(
      daemonArguments: [media, "--paused", "--progress", "off"],
      line: #"{"command": ["get_property", "time-pos"], "request_id": 7}"#, count: 100_000, speaksMPV: true)
  }

  @Test func aClientThatNeverReadsIsDisconnectedAndTheOthersGoOn() throws {
    // Given a client that sends 30,000 commands (about 4 MB of replies) and never reads
    try expectStalledClientDisconnected(daemonArguments: ["--idle"], line: "help", count: 30_000)
  }

  /// Reads are answered on the socket's own thread, without the main actor; a client that floods them and never reads
  /// its replies is still held to the same bound and disconnected.
  @Test func anMPVClientThatFloodsReadsAndNeverReadsIsDisconnectedAndTheOthersGoOn() throws {
    // Given an mpv client that sends 100,000 reads (about 5 MB of replies) and never reads
    let media = try TestMedia.url(for: .h264BFrames).path
    try expectStalledClientDisconnected(
      daemonArguments: [media, "--paused", "--progress", "off"],
      line: #"{"command": ["get_property", "time-pos"], "request_id": 7}"#, count: 100_000)
  }

  /// A daemon (`vpk play` with `daemonArguments`), a client that reads, and one that sends `line` `count` times and
  /// never reads: the second is disconnected with a reason in the log, and the first is still served. `speaksMPV`:
  /// on an `--input-ipc-server` socket, the reading client asking in mpv's dialect.
  private func expectStalledClientDisconnected(
    daemonArguments: [String], line: String, count: Int, speaksMPV: Bool = false
  ) throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let socketOption = speaksMPV ? "--input-ipc-server" : "--socket"
    let daemon = try VPKSession(["play"] + daemonArguments + [socketOption, folder.socket], input: .closed)
    let reader = try UnixSocketClient.connect(to: folder.socket)
    /// Asks the daemon something and waits for the answer.
    func ask(_ id: Int) throws {
      if speaksMPV {
        reader.send(#"{"command": ["get_property", "pause"], "request_id": \#(id)}"#)
        try reader.waitForLine(containing: #""request_id":\#(id)"#, timeout: 60)
      } else {
        reader.send(#"{"command":"status","id":\#(id)}"#)
        try reader.waitForLine(containing: #"{"event":"status","id":\#(id)"#, timeout: 60)
      }
    }
    try ask(1)
    let stalled = try UnixSocketClient(path: folder.socket, reads: false, receiveBufferBytes: 4096)
    Thread {
      let burst = Data(String(repeating: line + "\n", count: 1000).utf8)
      for _ in 0..<(count / 1000) {
        if !stalled.write(burst) { break }
      }
    }.start()
    // When its replies fill its buffer, it is disconnected with a reason in the log
    let deadline = Date(timeIntervalSinceNow: 120)
    while !daemon.stderr.contains("disconnected a client") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    #expect(daemon.stderr.contains("bytes of events unread"))
    // Then the reading client is still served
    try ask(2)
    reader.send(speaksMPV ? #"{"command": ["quit"]}"# : "quit")
    #expect(try daemon.waitForExit().status == 0)
    withExtendedLifetime(stalled) {}
  }

  @Test func aClientThatLeavesMidSeekChangesNothingForTheOthers() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try VPKSession(
      ["play", media, "--paused", "--socket", folder.socket, "--clock", "free", "--progress", "off"], input: .closed)
    let leaving = try UnixSocketClient.connect(to: folder.socket)
    let staying = try UnixSocketClient.connect(to: folder.socket)
    try leaving.greet()
    try staying.greet()
    // When one client scrubs and leaves at once
    leaving.send("scrub 7")
    leaving.disconnect()
    // Then the other sees the seek land and finds playback there
    try staying.waitForLine(containing: #"{"event":"seeked","target":7"#)
    staying.send("status")
    try staying.waitForLine(containing: #"{"event":"status","id":1,"state":"paused","position":7"#)
    staying.send("quit")
    #expect(try daemon.waitForExit().status == 0)
  }

  @Test func aClientThatAsksForDisplayLinesGetsWhatATerminalShows() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try VPKSession(
      ["play", media, "--paused", "--socket", folder.socket, "--clock", "free", "--progress", "off"], input: .closed)
    _ = try daemon.waitForLine(containing: "ready ")
    // When a client asks for display lines, then for a status, a seek and a bad command, and quits
    let client = try UnixSocketClient.connect(to: folder.socket)
    for line in ["format display", "status", "scrub 4", "bogus", "quit"] { client.send(line) }
    try client.waitForEnd()
    // Then the first line is vpk's hello, and after it every line is a display line: its first status draws the status line, the events come as
    // `vpk play` prints them (an error as one) with their typed fields, and the last says the session is over
    let lines = Array(client.lines.dropFirst())
    let schema = try VPKSchemas.display()
    for (line, errors) in zip(lines, try schema.errors(inLines: lines)) where !errors.isEmpty {
      Issue.record("\(line)\n\(errors.joined(separator: "\n"))")
    }
    #expect(client.lines.first?.hasPrefix(#"{"event":"hello""#) == true, "\(client.lines)")
    #expect(lines.first?.hasPrefix(#"{"display":"status","forms":["⏸ 00:00:00.000 / 00:00:10.000"#) == true, "\(lines)")
    #expect(lines.contains { $0.contains(#""text":"seeked #2 target=4.000"#) }, "\(lines)")
    #expect(lines.contains { $0.contains(#""event":"error","fields":{"code":"unknown_command","#) }, "\(lines)")
    #expect(lines.contains { $0.contains(#""severity":"error","text":"error #3 "#) }, "\(lines)")
    #expect(lines.last == #"{"display":"finish"}"#, "\(lines)")
    #expect(try daemon.waitForExit().status == 0)
  }

  @Test func aDeeplyNestedCompleteJSONLineGetsAnErrorAndTheClientGoesOn() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
    let client = try UnixSocketClient.connect(to: folder.socket)
    try client.greet()
    // When a client sends a complete JSON line nested 32,000 deep (within the 64 KiB line limit), then one nested
    // 100,000 deep (over it)
    let deep = 32_000
    client.send(
      #"{"command":"status","args":"# + String(repeating: "[", count: deep) + String(repeating: "]", count: deep) + "}")
    client.send(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
    // Then each gets its error, and the client is served after them
    try client.waitForLine(containing: #"{"event":"error","id":1,"code":"bad_json""#)
    try client.waitForLine(containing: #"{"event":"error","id":2,"code":"bad_input""#)
    client.send("status")
    try client.waitForLine(containing: #"{"event":"status","id":3,"state":"idle""#)
    client.send("quit")
    #expect(try daemon.waitForExit().status == 0)
  }

  @Test func aClientThatHalfClosesGetsItsRepliesThenIsClosed() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try VPKSession(
      ["play", media, "--paused", "--socket", folder.socket, "--clock", "wall", "--progress", "off"], input: .closed)
    _ = try daemon.waitForLine(containing: "ready ")
    let other = try UnixSocketClient.connect(to: folder.socket)
    try other.greet()
    // When a client sends a seek, a wait that outlasts it, and a status, then shuts down its writing side at once
    let client = try UnixSocketClient.connect(to: folder.socket)
    client.send("scrub 6")
    client.send("wait 0.3")
    client.send("status")
    client.closeWriting()
    // Then it gets every reply, in order, and then the daemon closes the connection
    try client.waitForEnd()
    let events = client.lines.compactMap { line -> String? in
      guard let range = line.range(of: #"{"event":""#) else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    #expect(events == ["hello", "seeked", "waited", "status"], "\(client.lines)")
    #expect(client.lines.last?.contains(#""id":3,"state":"paused","position":6"#) == true, "\(client.lines)")
    // And the daemon and the other client go on
    other.send("status")
    try other.waitForLine(containing: #"{"event":"status","id":1"#)
    // When a client half-closes with nothing sent, it is closed at once, with nothing said
    let idle = try UnixSocketClient.connect(to: folder.socket)
    idle.closeWriting()
    try idle.waitForEnd()
    #expect(idle.lines.isEmpty, "\(idle.lines)")
    other.send("quit")
    #expect(try daemon.waitForExit().status == 0)
  }

  @Test func attachWhoseOutputIsNotReadStopsReadingTheSocketAndTheDaemonDisconnectsIt() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
    _ = try UnixSocketClient.connect(to: folder.socket)
    // Given attach asked for far more replies (about 6 MB) than the daemon lets a client leave unread (1 MiB), with
    // nobody reading attach's standard output
    let requests = String(repeating: "status\n", count: 20_000)
    let attach = try VPKSession(["attach", folder.socket, "--json"], input: .text(requests), readsOutput: false)
    // Then attach stops reading the socket once its own output is full, instead of buffering the replies, so the
    // daemon sees a slow client and disconnects it
    let deadline = Date(timeIntervalSinceNow: 120)
    while !daemon.stderr.contains("disconnected a client that left over") {
      #expect(Date() < deadline, "the daemon never saw attach as slow: \(daemon.stderr)")
      if Date() > deadline { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    // When its output is read at last, it writes what it had and leaves: the daemon closed the connection (its last
    // words, `slow_client`, were behind the megabyte left unread, and went with the connection)
    attach.startReadingOutput()
    let result = try attach.waitForExit(timeout: 60)
    #expect(result.status == 69, "\(result.stderr)")
    #expect(result.stderr.contains("the daemon closed the connection"), "\(result.stderr)")
    #expect(result.stdoutLines.count < 20_000)
    daemon.send(signal: SIGTERM)
    _ = try daemon.waitForExit()
  }

  @Test func attachSendsItsInputAndLeavesAfterTheReplies() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let daemon = try VPKSession(
      ["play", "--idle", "--paused", "--socket", folder.socket, "--clock", "free", "--progress", "off"],
      input: .closed)
    _ = try UnixSocketClient.connect(to: folder.socket)
    // Piped, in text: the replies to what it sent, with its own ids, then it leaves (the daemon goes on)
    let text = try VPKProcess.run(["attach", folder.socket], input: .text("open \(media)\nscrub 2\nstatus"))
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdoutLines.contains { $0.hasPrefix("ready #1 path=") })
    #expect(text.stdoutLines.contains { $0.hasPrefix("seeked #2 target=2.000") })
    #expect(text.stdoutLines.last?.hasPrefix("status #3 state=paused position=2.000") == true)
    #expect(!text.stdoutLines.contains { $0.contains("vpk-attach-end") })
    // With --json, JSON lines
    let json = try VPKProcess.run(["attach", folder.socket, "--json"], input: .text("status\n"))
    #expect(json.status == 0)
    #expect(json.stdoutLines.count == 1)
    #expect(json.stdoutLines.first?.hasPrefix(#"{"event":"status","id":1,"state":"paused""#) == true)
    try validate(json.stdoutLines)
    // Quit through attach: it leaves with the daemon's reason
    let quit = try VPKProcess.run(["attach", folder.socket], input: .text("quit\n"))
    #expect(quit.status == 0)
    #expect(quit.stdoutLines.last?.hasPrefix("shutdown #1 reason=quit") == true)
    #expect(quit.stderr.contains("the daemon shut down: quit"))
    #expect(try daemon.waitForExit().status == 0)
    // Nothing listening: attach says so
    let missing = try VPKProcess.run(["attach", folder.socket])
    #expect(missing.status == 69)
    #expect(missing.stderr.contains("no vpk is listening at \(folder.socket)"))
  }

  @Test func attachSaysWhatIsWrongWithThePathAndWhatToDo() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    // Given nothing at the path, When attach connects, Then it says nobody listens and how to start one, in its own
    // words (no library's)
    let missing = try VPKProcess.run(["attach", folder.socket])
    #expect(missing.status == 69)
    #expect(
      withoutSanitizerStatistics(missing.stderr)
        == "vpk attach: no vpk is listening at \(folder.socket); start one with vpk play --socket \(folder.socket)")
    // Given a regular file there, Then it says the path is not a socket
    _ = FileManager.default.createFile(atPath: folder.socket, contents: Data("x".utf8))
    let file = try VPKProcess.run(["attach", folder.socket])
    #expect(file.status == 69)
    #expect(file.stderr.contains("\(folder.socket) is not a socket; give the path that vpk play --socket listens on"))
    for result in [missing, file] {
      #expect(!result.stderr.contains("errno") && !result.stderr.contains("connect(descriptor"), "\(result.stderr)")
    }
  }

  @Test func attachToAnMPVSocketSaysItIsNotVPKsInsteadOfWaiting() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    // Given vpk's mpv-only socket, which answers vpk's first line with nothing (as mpv's does)
    let daemon = try VPKSession(["play", "--idle", "--input-ipc-server", folder.socket], input: .closed)
    _ = try UnixSocketClient.connect(to: folder.socket)
    // When attach connects to it, Then it gives up after its greeting deadline and says which socket to use
    let attach = try VPKProcess.run(["attach", folder.socket], input: .text("status\n"))
    #expect(attach.status == 69)
    #expect(
      withoutSanitizerStatistics(attach.stderr)
        == "vpk attach: \(folder.socket) did not greet as a vpk control socket within 15 s; it may be an mpv socket "
        + "(mpv's, or vpk play --input-ipc-server): attach to the socket of vpk play --socket", "\(attach.stderr)")
    #expect(attach.stdout.isEmpty)
    daemon.send(signal: SIGTERM)
    _ = try daemon.waitForExit()
  }

  @Test func theDaemonSaysWhereItListensAndAttachQuitsItCleanly() throws {
    for _ in 0..<5 {
      let folder = try SocketFolder()
      defer { folder.remove() }
      // Given a daemon, When attach sends quit
      let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
      _ = try UnixSocketClient.connect(to: folder.socket)
      let quit = try VPKProcess.run(["attach", folder.socket], input: .text("quit\n"))
      // Then attach leaves with the daemon's reason and nothing of its libraries' on stderr
      #expect(quit.status == 0)
      #expect(
        withoutSanitizerStatistics(quit.stderr) == "vpk attach: the daemon shut down: quit", "\(quit.stderr)")
      // and the daemon told where it listened
      let ended = try daemon.waitForExit()
      #expect(ended.stderr.hasPrefix("vpk: listening on \(folder.socket)\n"), "\(ended.stderr)")
    }
  }

  @Test func aRelativePathTypedIntoAttachIsFromAttachsFolder() throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    // Given a daemon started elsewhere, and attach run in a folder that holds clip.mp4
    let here = folder.url.appendingPathComponent("here")
    try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: here.appendingPathComponent("clip.mp4").path, withDestinationPath: media)
    let daemon = try VPKSession(
      ["play", "--idle", "--paused", "--socket", folder.socket, "--clock", "free", "--progress", "off"],
      input: .closed)
    _ = try UnixSocketClient.connect(to: folder.socket)
    // When attach opens clip.mp4 and then a file that is not there, by relative paths
    let attach = try VPKSession(
      ["attach", folder.socket], input: .text("open clip.mp4\nopen nothere.mp4 # a comment\nstatus\n"),
      launcher: ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, here.path])
    let result = try attach.waitForExit()
    // Then the daemon opens the one in attach's folder, and the error names the path it tried
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdoutLines.contains { $0.hasPrefix("ready #1 path=\(here.path)/clip.mp4") }, "\(result.stdoutLines)")
    #expect(
      result.stdoutLines.contains {
        $0.hasPrefix("error #2 code=file_not_found") && $0.contains("\(here.path)/nothere.mp4")
      },
      "\(result.stdoutLines)")
    // and the file it had stays open
    #expect(result.stdoutLines.last?.hasPrefix("status #3 state=paused") == true, "\(result.stdoutLines)")
    daemon.send(signal: SIGTERM)
    _ = try daemon.waitForExit()
  }

  // Only root can connect as another user; CI runs as root. A root run without the tools fails, never skips.
  @Test(.enabled(if: getuid() == 0, "needs root, to connect as another user"))
  func aClientOfAnotherUserIsRefusedAndLogged() throws {
    for tool in ["/usr/bin/setpriv", "/usr/bin/python3"] {
      try #require(
        FileManager.default.isExecutableFile(atPath: tool),
        "\(tool) is missing (util-linux's setpriv; Debian's python3, which scripts/bootstrap installs)")
    }
    let folder = try SocketFolder()
    defer { folder.remove() }
    let daemon = try VPKSession(["play", "--idle", "--socket", folder.socket], input: .closed)
    let owner = try UnixSocketClient.connect(to: folder.socket)
    try owner.greet()
    // Given the file's mode opened up (so only the credentials check stands in the way)
    chmod(folder.socket, 0o666)
    // When user nobody connects
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    process.arguments = [
      // Debian's python3: one on PATH may live where user nobody cannot run it (pyenv under /root).
      "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
      "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(len(s.recv(4096)))",
      folder.socket,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    // Then it is closed on at once with nothing said, and the refusal is logged
    let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(said.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    owner.send("quit")
    let result = try daemon.waitForExit()
    #expect(result.stderr.contains("refused a client: pid"))
    #expect(result.stderr.contains("runs as uid 65534"))
  }
}

/// How many connections the churning threads made, and whether they should stop.
private final class Churn: @unchecked Sendable {
  private let lock = NSLock()
  private var made = 0
  private var stopped = false
  var connections: Int { lock.withLock { made } }
  var stopping: Bool { lock.withLock { stopped } }
  func countConnection() { lock.withLock { made += 1 } }
  func stop() { lock.withLock { stopped = true } }
}

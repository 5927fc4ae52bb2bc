// A client of an mpv-only socket on its own thread (DescriptorClient), over a real socket pair: what it answers
// itself, what it hands to the main actor and in which order, and how its writes are bounded.

import Foundation
import Testing
import VideoPlaybackKit

@testable import VPKSocket

#if canImport(Glibc)
  import Glibc
#endif

/// What the client reported, and a way to wait for it.
private final class Reports: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [ClientChannelEvent] = []

  func add(_ event: ClientChannelEvent) { lock.withLock { events.append(event) } }

  /// The lines reported and the edges of the reads they came in (`[` started, `]` completed), and the other events
  /// by name.
  var names: [String] {
    lock.withLock {
      events.map {
        switch $0 {
        case .connected: "connected"
        case .line(.text(let text)): text
        case .line(.tooLong): "too long"
        case .line(.invalidUTF8): "not UTF-8"
        case .readStarted: "["
        case .readCompleted: "]"
        case .inputEnded: "input ended"
        case .overflowed: "overflowed"
        case .disconnected: "disconnected"
        }
      }
    }
  }

  var connected: ClientChannelEvent? {
    lock.withLock { events.first { if case .connected = $0 { true } else { false } } }
  }

  /// Waits (up to a minute; a busy machine is slow, a broken client never gets there) until `done` holds.
  func wait(until done: ([String]) -> Bool) -> Bool {
    for _ in 0..<6000 {
      if done(names) { return true }
      usleep(10_000)
    }
    return false
  }
}

/// The test's end of the socket pair.
private struct Peer {
  let descriptor: Int32
  private var received = ""

  init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  func send(_ text: String) {
    var text = text
    text.withUTF8 { _ = Glibc.send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Reads until `count` lines have come (or a minute has passed, or the connection ended).
  mutating func lines(_ count: Int) -> [String] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    for _ in 0..<600 where received.split(separator: "\n").count < count {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      let read = recv(descriptor, &buffer, buffer.count, 0)
      guard read > 0 else { break }
      received += String(decoding: buffer[..<read], as: UTF8.self)
    }
    return received.split(separator: "\n").map(String.init)
  }

  /// Whether the other end closed the connection (a read returns nothing) within a minute.
  func seesClose() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    for _ in 0..<600 {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 100) > 0 else { continue }
      let read = recv(descriptor, &buffer, buffer.count, 0)
      if read == 0 { return true }
      if read < 0 { return errno == ECONNRESET }
    }
    return false
  }

  func endInput() { shutdown(descriptor, Int32(SHUT_WR)) }
  func close() { Glibc.close(descriptor) }
}

@Suite struct DescriptorClientTests {
  /// A started client whose quick answer (given as it connects, before its thread reads) answers every line
  /// starting with "read", and answers (with an event after the answer) and passes on every line starting with
  /// "jump". `before` is what the peer does before the client's thread starts.
  private func connectedClient(writeBufferBytes: Int = 1 << 20, before: (Peer) -> Void = { _ in }) throws -> (
    DescriptorClient, Peer, Reports, lineHandled: @Sendable () -> Void
  ) {
    var ends: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
      throw ControlSocketError("socketpair failed")
    }
    let peer = Peer(descriptor: ends[1])
    before(peer)
    let reports = Reports()
    let client = DescriptorClient(
      descriptor: ends[0], maxLineBytes: 1024, writeBufferBytes: writeBufferBytes,
      report: { event in
        reports.add(event)
        guard case .connected(_, _, let answerQuickly) = event else { return }
        answerQuickly { line in
          if line.hasPrefix("read") { return QuickAnswer("answer to \(line)\n") }
          if line.hasPrefix("jump") {
            return QuickAnswer("answer to \(line)\n", event: "jumped for \(line)\n", passesLineOn: true)
          }
          return nil
        }
      })
    client.start()
    guard case .connected(_, let lineHandled, _) = reports.connected else {
      throw ControlSocketError("the client reported no connection")
    }
    return (client, peer, reports, lineHandled)
  }

  @Test func aReadIsAnsweredOnTheClientsThreadAndTheMainActorNeverSeesIt() throws {
    // Given a client with nothing waiting for the main actor
    var (_, peer, reports, _) = try connectedClient()
    defer { peer.close() }
    // When it sends a read
    peer.send("read time-pos\n")
    // Then the answer comes from the client's thread, and only the connection is reported
    #expect(peer.lines(1) == ["answer to read time-pos"])
    #expect(reports.names == ["connected"])
  }

  @Test func aLineAnsweredAtOnceThatMustBeCarriedOutGoesOnAndTheLinesBehindItWaitTheirTurn() throws {
    // Given a client with nothing waiting for the main actor
    var (_, peer, reports, lineHandled) = try connectedClient()
    defer { peer.close() }
    // When a line answered at once but still to be carried out comes with a read behind it
    peer.send("jump 2\nread time-pos\n")
    // Then the answer and its event are written, and both lines go on to the main actor, in one read
    #expect(peer.lines(2) == ["answer to jump 2", "jumped for jump 2"])
    #expect(reports.wait { $0.last == "]" })
    #expect(reports.names == ["connected", "[", "jump 2", "read time-pos", "]"])
    // When both are handled, the next read is answered at once again
    lineHandled()
    lineHandled()
    peer.send("read pause\n")
    #expect(peer.lines(3).last == "answer to read pause")
  }

  @Test func aReadBehindALineTheMainActorHasNotHandledGoesTheLongWay() throws {
    // Given a command handed to the main actor and not yet handled
    var (_, peer, reports, lineHandled) = try connectedClient()
    defer { peer.close() }
    peer.send("seek 2\n")
    #expect(reports.wait { $0.last == "]" })
    // When a read follows it
    peer.send("read time-pos\n")
    // Then the read goes to the main actor too, after the command, and nothing is answered here
    #expect(reports.wait { $0.count == 7 })
    #expect(reports.names == ["connected", "[", "seek 2", "]", "[", "read time-pos", "]"])
    lineHandled()
    lineHandled()
    peer.send("read pause\n")
    #expect(peer.lines(1) == ["answer to read pause"])
  }

  @Test func theMainActorsWritesAndTheThreadsAnswersKeepTheirOrder() throws {
    // Given a client
    var (client, peer, _, _) = try connectedClient()
    defer { peer.close() }
    // When the main actor writes, then the client sends a read, then the main actor writes again
    #expect(client.write("first\n", isEvent: false))
    peer.send("read pause\n")
    #expect(peer.lines(2) == ["first", "answer to read pause"])
    #expect(client.write("third\n", isEvent: true))
    // Then everything comes in the order it was written
    #expect(peer.lines(3) == ["first", "answer to read pause", "third"])
  }

  @Test func eventsAreDroppedOnceTheClientEndsItsInputAndAnswersStillGoOut() throws {
    // Given a client with nothing waiting for the main actor, when a line answered at once with an event comes with
    // the end of the client's input, as a one-liner's
    var (client, peer, reports, _) = try connectedClient { peer in
      peer.send("jump 2\n")
      peer.endInput()
    }
    defer { peer.close() }
    #expect(reports.wait { $0.contains("input ended") })
    // Then its answer goes out and its event does not, as mpv serves a client only until the end of its input
    // When the main actor then writes an answer and an event for it
    #expect(client.write("an event\n", isEvent: true))
    #expect(client.write("an answer\n", isEvent: false))
    // Then the answer goes out and the event does not
    client.finish(grace: .seconds(1))
    #expect(peer.lines(2) == ["answer to jump 2", "an answer"])
    #expect(peer.seesClose())
    #expect(reports.names == ["connected", "[", "jump 2", "]", "input ended", "disconnected"])
  }

  @Test func aClientThatEndsItsInputWithoutANewlineStillHasItsLastLineRead() throws {
    var (_, peer, reports, _) = try connectedClient()
    defer { peer.close() }
    peer.send("seek 3")
    peer.endInput()
    #expect(reports.wait { $0.contains("input ended") })
    #expect(reports.names == ["connected", "[", "seek 3", "]", "input ended"])
    _ = peer.lines(0)
  }

  @Test func aClientThatLeavesUnreadPastTheMarkIsReportedOnceAndItsWritesAreDropped() throws {
    // Given a client with a small write buffer that reads nothing
    let (client, peer, reports, _) = try connectedClient(writeBufferBytes: 4096)
    defer { peer.close() }
    // When far more is written for it than the socket and the buffer hold
    let line = String(repeating: "x", count: 1023) + "\n"
    for _ in 0..<2000 { #expect(client.write(line, isEvent: true)) }
    // Then it is reported overflowed once; the writes never block
    #expect(reports.wait { $0.contains("overflowed") })
    #expect(reports.names.filter { $0 == "overflowed" }.count == 1)
    // When it is closed, it is gone for good
    client.finish(grace: .milliseconds(100))
    #expect(reports.wait { $0.contains("disconnected") })
    #expect(!client.write("late\n", isEvent: false))
  }

  @Test func aClientThatLeavesIsReportedGoneAndWritesFail() throws {
    let (client, peer, reports, _) = try connectedClient()
    peer.close()
    #expect(reports.wait { $0.contains("disconnected") })
    #expect(reports.names == ["connected", "input ended", "disconnected"])
    #expect(!client.write("to nobody\n", isEvent: false))
  }

  @Test func whatTheMainActorDoesForAClientThatLeftTouchesNoDescriptorItsNumbersWereGivenTo() throws {
    // Given a client that sent a line and left, whose thread closed its descriptors
    let (client, peer, reports, lineHandled) = try connectedClient()
    peer.send("cmd\n")
    peer.close()
    #expect(reports.wait { $0.contains("disconnected") })
    // When new descriptors take the freed numbers, and the main actor then finishes the client and handles its line
    var pipes: [[Int32]] = []
    for _ in 0..<3 {
      var ends: [Int32] = [-1, -1]
      #expect(pipe(&ends) == 0)
      _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
      pipes.append(ends)
    }
    defer { for ends in pipes { Glibc.close(ends[0]); Glibc.close(ends[1]) } }
    client.finish(grace: .seconds(1))
    lineHandled()
    // Then nothing was written to them
    for ends in pipes {
      var byte: UInt8 = 0
      #expect(Glibc.read(ends[0], &byte, 1) == -1 && errno == EAGAIN)
    }
  }

  @Test func readingStopsWhileTooManyLinesWaitAndGoesOnOnceTheyAreHandled() throws {
    // Given a client whose lines the main actor does not handle
    let (_, peer, reports, lineHandled) = try connectedClient()
    defer { peer.close() }
    // When it sends more lines than may wait, in reads of their own
    let limit = ClientChannelHandler.maxLinesInFlight
    for index in 0..<limit {
      peer.send("cmd \(index)\n")
      #expect(reports.wait { $0.contains("cmd \(index)") })
    }
    peer.send("cmd late\n")
    // Then the one past the limit is not read
    usleep(200_000)
    #expect(!reports.names.contains("cmd late"))
    // When one is handled, it is
    lineHandled()
    #expect(reports.wait { $0.contains("cmd late") })
  }
}

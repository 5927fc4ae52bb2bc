// The control socket's per-client handler on NIO's EmbeddedChannel, as every dialect's client has it: a line that
// only reads is answered on the loop by the client's quick answer, but only while no earlier line of the client's
// waits for the main actor; and what one client can cost is bounded both ways (lines in flight, the write buffer's
// mark).

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import Testing
import VideoPlaybackKit

@testable import VPKSocket

/// What the handler reported to the main actor.
private final class Reports: Sendable {
  private let box = NIOLockedValueBox<[ClientChannelEvent]>([])
  func add(_ event: ClientChannelEvent) { box.withLockedValue { $0.append(event) } }
  var lines: [String] {
    box.withLockedValue { events in
      events.compactMap { if case .line(.text(let text)) = $0 { text } else { nil } }
    }
  }
  /// The lines reported and the edges of the reads they came in (`[` started, `]` completed).
  var linesAndReads: [String] {
    box.withLockedValue { events in
      events.compactMap {
        switch $0 {
        case .line(.text(let text)): text
        case .readStarted: "["
        case .readCompleted: "]"
        default: nil
        }
      }
    }
  }
  /// The lines reported and the edges of the reads they came in (`[` started, `]` completed), and the other events
  /// by name.
  var names: [String] {
    box.withLockedValue { events in
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
    box.withLockedValue { events in events.first { if case .connected = $0 { true } else { false } } }
  }
}

/// Counts the reads the handler passes on toward the socket.
private final class ReadCounter: ChannelOutboundHandler {
  typealias OutboundIn = ByteBuffer
  var reads = 0

  func read(context: ChannelHandlerContext) {
    reads += 1
    context.read()
  }
}

@Suite struct ClientChannelHandlerTests {
  /// A connected handler whose quick answer answers every line starting with "read", and answers (with an event
  /// after the answer) and passes on every line starting with "jump".
  private func connectedHandler() throws -> (EmbeddedChannel, Reports, lineHandled: @Sendable () -> Void) {
    let (channel, reports, lineHandled, _) = try connectedHandlerAndBatch()
    return (channel, reports, lineHandled)
  }

  private func connectedHandlerAndBatch() throws -> (
    EmbeddedChannel, Reports, lineHandled: @Sendable () -> Void, ChannelWriteBatch
  ) {
    let channel = EmbeddedChannel()
    let reports = Reports()
    let batch = ChannelWriteBatch(eventLoop: channel.embeddedEventLoop)
    try channel.pipeline.syncOperations.addHandler(ClientChannelHandler(report: reports.add, batch: batch))
    try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/vpk-handler-test")).wait()
    guard case .connected(_, let lineHandled, let answerQuickly) = reports.connected else {
      throw ControlSocketError("the handler reported no connection")
    }
    answerQuickly { line in
      if line.hasPrefix("read") { return QuickAnswer("answer to \(line)\n") }
      if line.hasPrefix("jump") {
        return QuickAnswer("answer to \(line)\n", event: "jumped for \(line)\n", passesLineOn: true)
      }
      return nil
    }
    channel.embeddedEventLoop.run()
    return (channel, reports, lineHandled, batch)
  }

  private func written(_ channel: EmbeddedChannel) throws -> [String] {
    var out: [String] = []
    while let buffer = try channel.readOutbound(as: ByteBuffer.self) { out.append(String(buffer: buffer)) }
    return out
  }

  @Test func aReadWithNothingBeforeItIsAnsweredOnTheLoop() throws {
    // Given a client with nothing waiting for the main actor
    let (channel, reports, _) = try connectedHandler()
    // When a read arrives
    try channel.writeInbound(InputLine.text("read time-pos"))
    channel.embeddedEventLoop.run()
    // Then it is answered there, and the main actor never sees it
    #expect(try written(channel) == ["answer to read time-pos\n"])
    #expect(reports.lines.isEmpty)
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aLineAnsweredOnTheLoopThatMustBeCarriedOutGoesOnAndTheLinesBehindItWait() throws {
    // Given a client with nothing waiting for the main actor
    let (channel, reports, lineHandled) = try connectedHandler()
    // When a line is answered on the loop but must still be carried out, and a read follows it
    try channel.writeInbound(InputLine.text("jump 2"))
    try channel.writeInbound(InputLine.text("read time-pos"))
    channel.embeddedEventLoop.run()
    // Then its answer is written at once, then its event, the line goes on to the main actor, and the read behind it
    // goes too
    #expect(try written(channel) == ["answer to jump 2\n", "jumped for jump 2\n"])
    #expect(reports.lines == ["jump 2", "read time-pos"])
    // When both are handled, the next read is answered on the loop again
    lineHandled()
    lineHandled()
    channel.embeddedEventLoop.run()
    try channel.writeInbound(InputLine.text("read pause"))
    channel.embeddedEventLoop.run()
    #expect(try written(channel) == ["answer to read pause\n"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aReadBehindALineTheMainActorHasNotHandledWaitsItsTurn() throws {
    // Given a command sent to the main actor and not yet handled
    let (channel, reports, lineHandled) = try connectedHandler()
    try channel.writeInbound(InputLine.text("seek 2"))
    // When a read follows it
    try channel.writeInbound(InputLine.text("read time-pos"))
    channel.embeddedEventLoop.run()
    // Then the read goes to the main actor too, after the command, and nothing is answered on the loop
    #expect(reports.lines == ["seek 2", "read time-pos"])
    #expect(try written(channel).isEmpty)
    // When both are handled, the next read is answered on the loop again
    lineHandled()
    lineHandled()
    channel.embeddedEventLoop.run()
    try channel.writeInbound(InputLine.text("read pause"))
    channel.embeddedEventLoop.run()
    #expect(try written(channel) == ["answer to read pause\n"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func theLinesOfOneReadAreReportedBetweenItsStartAndItsEnd() throws {
    // Given a connected client
    let (channel, reports, _) = try connectedHandler()
    // When two lines come in one read, then one in a read of its own, then a read the loop answers itself
    channel.pipeline.fireChannelRead(InputLine.text("observe 1"))
    channel.pipeline.fireChannelRead(InputLine.text("observe 2"))
    channel.pipeline.fireChannelReadComplete()
    try channel.writeInbound(InputLine.text("observe 3"))
    channel.embeddedEventLoop.run()
    // Then each read's lines are reported between its start and its end, in order
    #expect(reports.linesAndReads == ["[", "observe 1", "observe 2", "]", "[", "observe 3", "]"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aReadAnsweredOnTheLoopReportsNoStartOrEnd() throws {
    // Given a client with nothing waiting for the main actor
    let (channel, reports, _) = try connectedHandler()
    // When a read the loop answers comes alone
    try channel.writeInbound(InputLine.text("read time-pos"))
    channel.embeddedEventLoop.run()
    // Then the main actor hears nothing of it
    #expect(reports.linesAndReads.isEmpty)
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aClientPastTheWriteBuffersMarkIsNotAnsweredOnTheLoop() throws {
    // Given a client whose replies are left unread past the high-water mark
    let (channel, reports, _) = try connectedHandler()
    channel.isWritable = false
    channel.pipeline.fireChannelWritabilityChanged()
    // When it sends a read
    try channel.writeInbound(InputLine.text("read time-pos"))
    channel.embeddedEventLoop.run()
    // Then the read goes the long way (held back there, and dropped for a client being disconnected)
    #expect(reports.lines == ["read time-pos"])
    #expect(try written(channel).isEmpty)
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aLineTheQuickAnswerDeclinesGoesToTheMainActor() throws {
    let (channel, reports, _) = try connectedHandler()
    try channel.writeInbound(InputLine.text("quit"))
    channel.embeddedEventLoop.run()
    #expect(reports.lines == ["quit"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func theMainActorsWritesGoOutBeforeAReplyGivenOnTheLoop() throws {
    // Given writes the main actor gathered and the loop has not yet written
    let channel = EmbeddedChannel()
    let batch = ChannelWriteBatch(eventLoop: channel.embeddedEventLoop)
    try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/vpk-batch-test")).wait()
    batch.write(ByteBuffer(string: "first\n"), to: channel)
    batch.write(ByteBuffer(string: "second\n"), to: channel)
    // When the loop writes a reply of its own
    batch.writeNow(ByteBuffer(string: "third\n"), to: channel)
    // Then all three go out in order, and the gathered ones once only
    channel.embeddedEventLoop.run()
    #expect(try written(channel) == ["first\n", "second\n", "third\n"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func eventsAreDroppedOnceTheClientEndsItsInputAndAnswersStillGoOut() throws {
    // Given a client with nothing waiting for the main actor
    let (channel, _, _, batch) = try connectedHandlerAndBatch()
    // When a line answered on the loop with an event comes with the end of the client's input, as a one-liner's
    try channel.writeInbound(InputLine.text("jump 2"))
    channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    channel.embeddedEventLoop.run()
    // Then its answer goes out and its event does not, as mpv serves a client only until the end of its input
    #expect(try written(channel) == ["answer to jump 2\n"])
    // When the main actor then writes an answer and an event for it
    batch.write(ByteBuffer(string: "an event\n"), to: channel, isEvent: true)
    batch.write(ByteBuffer(string: "an answer\n"), to: channel)
    channel.embeddedEventLoop.run()
    // Then only the answer goes out
    #expect(try written(channel) == ["an answer\n"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func aClientThatEndsItsInputWithoutANewlineStillHasItsLastLineReadInAReadOfItsOwn() throws {
    // Given a client framed as the server frames it
    let channel = EmbeddedChannel()
    let reports = Reports()
    let batch = ChannelWriteBatch(eventLoop: channel.embeddedEventLoop)
    try channel.pipeline.syncOperations.addHandlers(
      ByteToMessageHandler(CommandLineDecoder(maxLineBytes: 1024)),
      ClientChannelHandler(report: reports.add, batch: batch)
    )
    try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/vpk-handler-test")).wait()
    // When it sends a line without a newline, then ends its input
    try channel.writeInbound(ByteBuffer(string: "seek 3"))
    channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    channel.embeddedEventLoop.run()
    // Then the line is passed on, its read ends, and then the end of the input is reported
    #expect(reports.names == ["connected", "[", "seek 3", "]", "input ended"])
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @Test func readingStopsWhileTooManyLinesWaitAndGoesOnOnceOneIsHandled() throws {
    // Given a client whose lines the main actor does not handle
    let channel = EmbeddedChannel()
    let reports = Reports()
    let counter = ReadCounter()
    let batch = ChannelWriteBatch(eventLoop: channel.embeddedEventLoop)
    try channel.pipeline.syncOperations.addHandlers(counter, ClientChannelHandler(report: reports.add, batch: batch))
    try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/vpk-handler-test")).wait()
    guard case .connected(_, let lineHandled, _) = reports.connected else {
      throw ControlSocketError("the handler reported no connection")
    }
    // When as many lines as may wait have been passed on
    for index in 0..<ClientChannelHandler.maxLinesInFlight { try channel.writeInbound(InputLine.text("cmd \(index)")) }
    let reads = counter.reads
    channel.read()
    // Then the socket is not read
    #expect(counter.reads == reads)
    // When one is handled, the read held back goes on
    lineHandled()
    channel.embeddedEventLoop.run()
    #expect(counter.reads == reads + 1)
    _ = try channel.finish(acceptAlreadyClosed: true)
  }

  @MainActor @Test func aClientPastTheMarkIsReportedOnceItsWritesAreDroppedAndOnceGoneTheyFail() throws {
    // Given a client's output
    let (channel, reports, _) = try connectedHandler()
    guard case .connected(let makeOutput, _, _) = reports.connected else {
      throw ControlSocketError("the handler reported no connection")
    }
    let output = makeOutput()
    // When it leaves its events unread past the write buffer's mark, and stays there
    channel.isWritable = false
    channel.pipeline.fireChannelWritabilityChanged()
    channel.pipeline.fireChannelWritabilityChanged()
    // Then it is reported once, and what is written for it is dropped (the writes never wait)
    #expect(reports.names.filter { $0 == "overflowed" } == ["overflowed"])
    #expect(output.writeEvent("dropped\n"))
    channel.embeddedEventLoop.run()
    #expect(try written(channel).isEmpty)
    // When it is gone, it is reported gone, and writes fail
    _ = try channel.finish(acceptAlreadyClosed: true)
    #expect(reports.names.last == "disconnected")
    #expect(!output.write("to nobody\n"))
  }
}

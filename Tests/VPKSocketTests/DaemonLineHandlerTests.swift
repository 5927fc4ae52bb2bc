// `vpk attach`'s reading of the daemon, on NIO's EmbeddedChannel: lines not yet written out are bounded; past the
// bound, reading the socket stops until they are (back-pressure onto the daemon, which disconnects a slow client).

import NIOCore
import NIOEmbedded
import Testing
import VideoPlaybackKit

@testable import VPKSocket

/// Counts the reads that reach the socket (the head of the pipeline).
private final class ReadCounter: ChannelOutboundHandler {
  typealias OutboundIn = ByteBuffer
  var reads = 0
  func read(context: ChannelHandlerContext) {
    reads += 1
    context.read()
  }
}

@Suite struct DaemonLineHandlerTests {
  @Test func stopsReadingPastTheBoundAndGoesOnOnceALineIsWrittenOut() async throws {
    // Given the handler with a bound of 3 lines, and a counter of the reads that reach the socket
    let (stream, continuation) = AsyncStream<AttachEvent>.makeStream()
    let counter = ReadCounter()
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandlers(
      counter, DaemonLineHandler(continuation: continuation, maxLinesInFlight: 3))
    channel.read()
    #expect(counter.reads == 1)
    // When 3 lines arrive and none is written out yet
    for index in 0..<3 { try channel.writeInbound(InputLine.text("line \(index)")) }
    // Then the next read is held back
    channel.read()
    #expect(counter.reads == 1)
    // When one of them is written out
    var events = stream.makeAsyncIterator()
    var handled: [@Sendable () -> Void] = []
    for _ in 0..<3 {
      guard case .line(_, let done) = await events.next() else {
        Issue.record("a line was expected")
        return
      }
      handled.append(done)
    }
    handled[0]()
    channel.embeddedEventLoop.run()
    // Then the held read goes on to the socket
    #expect(counter.reads == 2)
    // And a read asked for below the bound is not held
    channel.read()
    #expect(counter.reads == 3)
    _ = try channel.finish(acceptAlreadyClosed: true)
  }
}

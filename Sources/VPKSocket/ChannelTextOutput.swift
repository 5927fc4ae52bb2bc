// ChannelTextOutput: where a socket client's view writes: the client's NIO channel. Writes hand the bytes to the
// server's write batch, which the event loop writes out, and return at once (the handler bounds what a slow reader
// can hold back).

import NIOCore
import VideoPlaybackKit

@MainActor
final class ChannelTextOutput: ClientOutput {

  private let channel: any Channel
  private let batch: ChannelWriteBatch
  private var finished = false

  init(channel: any Channel, batch: ChannelWriteBatch) {
    self.channel = channel
    self.batch = batch
  }

  func write(_ text: String) -> Bool {
    write(text, isEvent: false)
  }

  func writeEvent(_ text: String) -> Bool {
    write(text, isEvent: true)
  }

  private func write(_ text: String, isEvent: Bool) -> Bool {
    guard !finished, channel.isActive else {
      finished = true
      return false
    }
    // A client that turned unwritable (past the write buffer's high-water mark) is about to be disconnected as slow
    // (its handler reported it); what is written for it until then is dropped, so the buffer stays bounded even when
    // the main actor runs ahead of the event loop (20,000 queued `status` lines once piled 5 MB up for one client).
    guard channel.isWritable else { return true }
    batch.write(ByteBuffer(string: text), to: channel, isEvent: isEvent)
    return true
  }

  func finish() {
    finishing()
  }

  func closed() async {
    try? await channel.closeFuture.get()
  }

  /// Nothing more is written; the connection closes once what was written has gone out (or after the grace, for a
  /// client that does not read). Returns when it has closed.
  @discardableResult
  private func finishing() -> EventLoopFuture<Void> {
    finished = true
    let channel = self.channel
    // Writes complete in order: an empty one completes once everything before it has been written.
    let flushed = channel.eventLoop.makePromise(of: Void.self)
    batch.write(ByteBuffer(), to: channel, promise: flushed)
    flushed.futureResult.whenComplete { _ in channel.close(promise: nil) }
    let grace = channel.eventLoop.scheduleTask(in: .seconds(Int64(ClientOutputGrace.seconds))) {
      channel.close(promise: nil)
    }
    // Not held for the grace once closed: many clients that come and go must not keep their channels a second each.
    channel.closeFuture.whenComplete { _ in grace.cancel() }
    return channel.closeFuture
  }
}

// ChannelWriteBatch: how the main actor's writes reach the clients' channels. Each write made off the event loop
// would otherwise be a task of its own on the loop, and a wake-up of the loop's thread each: at a progress mark 64
// observers cost 64 wake-ups. Here the writes are gathered, in the order they were made, from the first one until
// the loop runs the one task that the first scheduled; it writes them all, flushing each channel once.
//
// Order: one queue for every channel, drained whole and in order, so a client's lines keep the order they were
// written in. Code on the loop that writes to a client itself (a read answered there) goes through `writeNow`,
// which first writes whatever the main actor gathered before it.
//
// Events: a write marked as an event is dropped, when it goes out, for a channel whose client has ended its input
// (`inputEnded`, told by the channel's handler as NIO reads the end): mpv serves a client only until then.

import NIOConcurrencyHelpers
import NIOCore

final class ChannelWriteBatch: Sendable {
  private struct Write {
    let channel: any Channel
    let bytes: ByteBuffer
    let promise: EventLoopPromise<Void>?
    let isEvent: Bool
  }

  private let eventLoop: any EventLoop
  private let gathered = NIOLockedValueBox<[Write]>([])
  /// The channels whose clients ended their input (read and changed on the event loop only).
  private let inputEndedChannels = NIOLockedValueBox<Set<ObjectIdentifier>>([])

  init(eventLoop: any EventLoop) {
    self.eventLoop = eventLoop
  }

  /// Writes `bytes` to `channel` soon, after everything written before; from any thread. `promise` completes once
  /// the bytes are written (or fails if the channel closed first). An event (`isEvent`) is dropped if the client has
  /// ended its input by then.
  func write(
    _ bytes: ByteBuffer, to channel: any Channel, promise: EventLoopPromise<Void>? = nil, isEvent: Bool = false
  ) {
    let startsBatch = gathered.withLockedValue { writes in
      writes.append(Write(channel: channel, bytes: bytes, promise: promise, isEvent: isEvent))
      return writes.count == 1
    }
    if startsBatch { eventLoop.execute { self.drain() } }
  }

  /// On the event loop: writes and flushes `bytes` to `channel` now, after what the main actor gathered before.
  func writeNow(_ bytes: ByteBuffer, to channel: any Channel) {
    eventLoop.preconditionInEventLoop()
    drain()
    channel.writeAndFlush(bytes, promise: nil)
  }

  /// On the event loop: `channel`'s client sends no more; the events still to be written to it are dropped.
  func inputEnded(_ channel: any Channel) {
    eventLoop.preconditionInEventLoop()
    inputEndedChannels.withLockedValue { _ = $0.insert(ObjectIdentifier(channel)) }
  }

  /// On the event loop: `channel` closed; it is forgotten.
  func closed(_ channel: any Channel) {
    eventLoop.preconditionInEventLoop()
    inputEndedChannels.withLockedValue { _ = $0.remove(ObjectIdentifier(channel)) }
  }

  /// On the event loop: writes everything gathered so far, in order, then flushes each channel written to once.
  private func drain() {
    let writes = gathered.withLockedValue { writes in
      defer { writes.removeAll(keepingCapacity: true) }
      return writes
    }
    guard !writes.isEmpty else { return }
    let inputEnded = inputEndedChannels.withLockedValue { $0 }
    var written: [ObjectIdentifier: any Channel] = [:]
    for write in writes {
      if write.isEvent && inputEnded.contains(ObjectIdentifier(write.channel)) {
        write.promise?.succeed()
        continue
      }
      write.channel.write(write.bytes, promise: write.promise)
      written[ObjectIdentifier(write.channel)] = write.channel
    }
    for channel in written.values { channel.flush() }
  }
}

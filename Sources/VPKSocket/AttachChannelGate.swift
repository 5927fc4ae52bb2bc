// AttachChannelGate: the one way `vpk attach`'s input reaches the daemon's connection. Its input is read on threads and
// tasks of their own, which may still send after attach has finished; once the gate is shut (before attach's event
// loop goes away), nothing more is sent, so nothing is scheduled on a loop that has shut down.

import NIOConcurrencyHelpers
import NIOCore

final class AttachChannelGate: Sendable {
  private let channel: NIOLockedValueBox<(any Channel)?>

  init(_ channel: any Channel) {
    self.channel = NIOLockedValueBox(channel)
  }

  /// Sends `buffer`; the future completes once it is written. Nil once the gate is shut.
  @discardableResult func send(_ buffer: ByteBuffer) -> EventLoopFuture<Void>? {
    channel.withLockedValue { $0?.writeAndFlush(buffer) }
  }

  /// Closes the connection (if it is open) and lets nothing more through.
  func shut() {
    channel.withLockedValue {
      $0?.close(promise: nil)
      $0 = nil
    }
  }
}

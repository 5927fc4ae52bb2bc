// StopFlag: set once to make FFmpeg's blocking I/O give up, so the engine can stop while a read is stuck.

import Synchronization

/// Set once to make FFmpeg's blocking I/O (a FIFO with no writer, a stalled read) give up at once.
final class StopFlag: Sendable {
  private let value = Atomic<Bool>(false)
  func set() { value.store(true, ordering: .releasing) }
  var isSet: Bool { value.load(ordering: .acquiring) }

  /// FFmpeg's interrupt callback, polled with the flag as `opaque`: a non-zero answer ends the blocking call.
  static let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<StopFlag>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
  }
}

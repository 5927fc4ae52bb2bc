// LineChannel: the bounded queue between the command reader's thread and the task that consumes its lines.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bounded single-producer, single-consumer queue between the reading thread and the task that
/// consumes the lines. The producer blocks while it is full; the consumer suspends while it is
/// empty. Every field is guarded by `condition`.
final class LineChannel: @unchecked Sendable {
  private let condition = NSCondition()
  private let capacity: Int
  private var queue: [InputLine] = []
  private var head = 0
  private var waiter: CheckedContinuation<InputLine?, Never>?
  private var producerWaiting = false
  private var claimed = false
  private var finished = false
  private var cancelled = false

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// True the first time only.
  func claim() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if claimed { return false }
    claimed = true
    return true
  }

  var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Producer: hands over lines in order. False once the consumer is gone.
  func send(_ lines: [InputLine]) -> Bool {
    for line in lines {
      guard send(line) else { return false }
    }
    return true
  }

  /// Producer: hands over a line, waiting while the queue is full. False once the consumer is gone.
  func send(_ line: InputLine) -> Bool {
    condition.lock()
    if queue.count - head >= capacity && !cancelled {
      // Full: sleep until the consumer has drained half of it, so the two sides do not wake each
      // other for every line.
      producerWaiting = true
      while queue.count - head > capacity / 2 && !cancelled { condition.wait() }
      producerWaiting = false
    }
    if cancelled {
      condition.unlock()
      return false
    }
    if let waiter {
      self.waiter = nil
      condition.unlock()
      waiter.resume(returning: line)
    } else {
      queue.append(line)
      condition.unlock()
    }
    return true
  }

  /// Producer: there will be no more lines.
  func finish() {
    condition.lock()
    finished = true
    let waiter = self.waiter
    self.waiter = nil
    condition.unlock()
    waiter?.resume(returning: nil)
  }

  /// Consumer: stop; wakes both sides.
  func cancel() {
    condition.lock()
    cancelled = true
    let waiter = self.waiter
    self.waiter = nil
    queue.removeAll()
    head = 0
    condition.broadcast()
    condition.unlock()
    waiter?.resume(returning: nil)
  }

  /// Consumer: the next line, or nil at the end of input (or once cancelled).
  func receive() async -> InputLine? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<InputLine?, Never>) in
        condition.lock()
        if cancelled {
          condition.unlock()
          continuation.resume(returning: nil)
        } else if head < queue.count {
          let line = queue[head]
          head += 1
          if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
          } else if head >= 64 && head * 2 >= queue.count {
            queue.removeFirst(head)
            head = 0
          }
          if producerWaiting && queue.count - head <= capacity / 2 { condition.signal() }
          condition.unlock()
          continuation.resume(returning: line)
        } else if finished {
          condition.unlock()
          continuation.resume(returning: nil)
        } else {
          waiter = continuation
          condition.unlock()
        }
      }
    } onCancel: {
      cancel()
    }
  }
}

// LockedMailbox: the engine's mailbox (see EngineMailbox) behind the condition the engine thread sleeps on, so
// posting a message wakes it. Any thread posts; the engine thread takes, puts back, looks for an interruption and
// sleeps. It holds nothing else: what other threads read is in EngineSharedState.

import Foundation
import VideoPlaybackKit

// Unchecked: `mailbox` is touched only with `condition` locked.
final class LockedMailbox: @unchecked Sendable {
  private let condition = NSCondition()
  private var mailbox = EngineMailbox()

  func post(_ message: EngineMailbox.Message) {
    condition.lock()
    mailbox.post(message)
    condition.signal()
    condition.unlock()
  }

  /// Every message, oldest first; the mailbox is left empty.
  func takeAll() -> [EngineMailbox.Message] {
    withLock { mailbox.takeAll() }
  }

  /// Puts messages taken but not yet applied back in front of any posted since.
  func putBack(_ taken: some Collection<EngineMailbox.Message>) {
    withLock { mailbox.putBack(taken) }
  }

  /// Whether the mailbox holds something that ends a running seek. It stays in the mailbox.
  func interruption() -> EngineMailbox.Interruption {
    withLock { mailbox.interruption() }
  }

  /// Waits for a message, or for `seconds` to pass (forever when nil); returns at once if one is waiting. True if it
  /// slept.
  func sleep(seconds: Double?) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard mailbox.isEmpty else { return false }
    if let seconds {
      _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
    } else {
      condition.wait()
    }
    return true
  }

  private func withLock<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}

// CapturedTextOutput: a text output for tests that keeps what the views write.

import VideoPlaybackKit

/// A `TextOutput` that keeps what is written; with `failAfter`, it accepts that many writes and
/// then fails as a closed pipe would.
@MainActor
package final class CapturedTextOutput: TextOutput {
  package private(set) var writes: [String] = []
  package private(set) var attempts = 0
  private let failAfter: Int?

  package init(failAfter: Int? = nil) {
    self.failAfter = failAfter
  }

  /// Everything written, as one string.
  package var text: String { writes.joined() }

  package func write(_ text: String) -> Bool {
    attempts += 1
    if let failAfter, writes.count >= failAfter { return false }
    writes.append(text)
    return true
  }
}

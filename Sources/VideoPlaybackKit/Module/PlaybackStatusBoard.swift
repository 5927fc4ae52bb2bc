// PlaybackStatusBoard: what a `status` sent now would be answered with, readable from any thread. The interactor
// publishes here whenever its state changes; a view on another thread (a control-socket client's event loop)
// reads it to answer a read such as mpv's `get_property time-pos` without a round trip through the main actor.
//
// The rule stays the interactor's: it says when a `status` would be answered at once (nothing queued or under way,
// not on the virtual clock, a manager whose position can be read from any thread), and the position is the engine's
// own, read when asked. When it would not be answered at once, `statusNow()` is nil and the reader sends `status`
// like any other command, so a read during a seek still waits for the seek, as `status` does.

import Foundation

package final class PlaybackStatusBoard: @unchecked Sendable {
  /// What the interactor last published.
  struct Published {
    /// A `status` submitted now would run at once (and these fields are what it would report besides the position).
    var answersAtOnce = false
    var state: PlaybackState = .idle
    var duration: MediaTime?
    var rate = 1.0
    /// With no file loaded: whether the next file opens paused.
    var opensPaused: Bool?
    /// The manager's position and counters, from any thread; nil with no manager (then the position is 0).
    var snapshot: (@Sendable () -> PlaybackSnapshot)?
  }

  private let lock = NSLock()
  private var published = Published()

  package init() {}

  func publish(_ update: Published) {
    lock.withLock { published = update }
  }

  /// The session's rate now, whether or not a `status` would be answered at once (a file's own rate is the session's
  /// as it starts loading, and the one it replaced again as it goes).
  package func rateNow() -> Double {
    lock.withLock { published.rate }
  }

  /// The status a `status` command submitted now would report; nil when it would not be answered at once.
  package func statusNow() -> PlaybackStatus? {
    let now = lock.withLock { published }
    guard now.answersAtOnce else { return nil }
    let snapshot = now.snapshot?() ?? PlaybackSnapshot(position: .zero, framesDecoded: 0, decodeErrors: 0)
    var status = PlaybackStatus(state: now.state, duration: now.duration, rate: now.rate, snapshot: snapshot)
    status.opensPaused = now.opensPaused
    return status
  }
}

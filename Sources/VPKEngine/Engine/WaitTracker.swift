// WaitTracker: the one `wait` the engine carries out on its clock, and what ends it. The engine gives it the
// position, the clock time and whether playback moves; the tracker says when the wait is done and how.

import VideoPlaybackKit

struct WaitTracker {
  /// A wait being carried out.
  struct ActiveWait {
    var request: PlaybackWait
    /// Clock time when the wait gives up, and (for `elapsed`) when it is done.
    var timeoutAt: Double?
    var elapsedAt: Double?
    /// Free clock: `elapsed` is media time, so the wait ends at this position.
    var elapsedPosition: Double?
    var loopsAtStart: Int
  }

  /// What playback looks like when a wait is checked.
  struct Playback {
    /// Media position now.
    var position: Double
    /// Whether playback should run (the interactor's intent).
    var playing: Bool
    /// The end was reached and the clock stands still.
    var atEnd: Bool
    /// Whether the file loops (then the end never comes first).
    var loopsAtEnd: Bool
  }

  private(set) var active: ActiveWait?

  var isRunning: Bool { active != nil }

  /// Drops wait `id` if it is the one running: its sender withdrew it, so nothing is reported.
  mutating func cancel(_ id: Int) {
    if active?.request.id == id { active = nil }
  }

  /// The position a running `until position` wait waits for, in seconds.
  var targetPosition: Double? {
    guard let active, case .position(let target) = active.request.until else { return nil }
    return target.seconds
  }

  /// The position a running `until positionAtMost` wait (playing backward) comes down to, in seconds.
  var targetPositionAtMost: Double? {
    guard let active, case .positionAtMost(let target) = active.request.until else { return nil }
    return target.seconds
  }

  /// The earlier of `wake` and the running wait's deadlines.
  func wakeTime(before wake: Double) -> Double {
    guard let active else { return wake }
    return min(wake, active.timeoutAt ?? .infinity, active.elapsedAt ?? .infinity)
  }

  /// Starts `request` at clock time `now`, after `loops` loops, in place of any running wait (which the caller
  /// answers first). On the free clock `elapsed` counts media time from `position`, which is read only then.
  mutating func begin(
    _ request: PlaybackWait, now: Double, loops: Int, clock: ClockKind, position: @autoclosure () -> Double
  ) {
    var wait = ActiveWait(
      request: request, timeoutAt: request.timeout.map { now + $0 }, elapsedAt: nil, elapsedPosition: nil,
      loopsAtStart: loops)
    if case .elapsed(let seconds) = request.until {
      if clock == .free {
        wait.elapsedPosition = position() + seconds
      } else {
        wait.elapsedAt = now + seconds
      }
    }
    active = wait
  }

  /// Ends the running wait if its condition holds, it timed out, or it can no longer hold: returns it with its
  /// outcome. `loops` (the loops completed so far) is read only for `until ended`.
  mutating func finish(now: Double, playback: Playback, loops: @autoclosure () -> Int) -> (
    request: PlaybackWait, outcome: WaitOutcome
  )? {
    guard let wait = active else { return nil }
    let position = playback.position
    let moving = playback.playing && !playback.atEnd
    var outcome: WaitOutcome?
    switch wait.request.until {
    case .position(let target):
      if position >= target.seconds - TimeTolerance.sameInstant {
        outcome = .satisfied
      } else if playback.atEnd && !playback.loopsAtEnd {
        outcome = .endedFirst
      } else if !playback.playing {
        outcome = .notPlaying
      }
    case .positionAtMost(let target):
      if position <= target.seconds + TimeTolerance.sameInstant {
        outcome = .satisfied
      } else if playback.atEnd && !playback.loopsAtEnd {
        outcome = .endedFirst
      } else if !playback.playing {
        outcome = .notPlaying
      }
    case .ended:
      if loops() > wait.loopsAtStart {
        outcome = .satisfied
      } else if !moving {
        outcome = .notPlaying
      }
    case .elapsed:
      if let at = wait.elapsedAt, now >= at - TimeTolerance.deadline {
        outcome = .satisfied
      } else if let target = wait.elapsedPosition, position >= target - TimeTolerance.sameInstant || !moving {
        outcome = .satisfied
      }
    }
    if outcome == nil, let timeoutAt = wait.timeoutAt, now >= timeoutAt - TimeTolerance.deadline {
      outcome = .timedOut
    }
    guard let outcome else { return nil }
    active = nil
    return (wait.request, outcome)
  }

  /// A loop pass of `passLength` seconds went by: a wait for a position past it can never be satisfied. Returns
  /// that wait, ended.
  mutating func failIfBeyond(passLength: Double) -> PlaybackWait? {
    guard let target = targetPosition, target > passLength + TimeTolerance.sameInstant else { return nil }
    let request = active?.request
    active = nil
    return request
  }
}

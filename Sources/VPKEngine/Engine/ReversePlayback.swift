// ReversePlayback: the state of playing backward (see +Reversing): which way the engine's frames ahead run, whether
// the start was reached, the decode pass under way and how fast passes go. Owned by the engine thread's
// PlaybackEngine, and touched only there.

struct ReversePlayback {
  /// The frames ahead are frames played backward, latest first.
  private(set) var isBackward = false
  /// Playing backward: no frame comes before the earliest one held (the start, or a file that gives none).
  private(set) var reachedStart = false
  /// The decode pass under way for the frames before the earliest one held.
  private(set) var pass: BackwardPass?
  /// The target of the last pass that ended: one that could not lengthen the chain is not run again at once.
  private var lastPassTarget: Int64?
  /// Frames a second the last pass decoded that decoded enough to tell (wall clock: when to start the next one).
  private(set) var passPace: Double?
  /// Playing backward has just started: its first turn may hold the clock for the first pass.
  private var starting = false

  /// Whether there is nothing more to queue: the start was reached and no pass is under way.
  var isAtStartWithNoPass: Bool { reachedStart && pass == nil }

  /// Turns to `backward` (or forward), as the frames ahead are dropped. Returns whether a pass was left half-way.
  mutating func turn(backward: Bool) -> Bool {
    let leftPass = pass != nil
    isBackward = backward
    reachedStart = false
    pass = nil
    lastPassTarget = nil
    starting = backward
    return leftPass
  }

  /// Playback goes on from a new point, forward.
  mutating func reset() {
    isBackward = false
    reachedStart = false
    pass = nil
  }

  mutating func markReachedStart() { reachedStart = true }

  /// Whether playing backward has just started; it counts only once.
  mutating func takeStarting() -> Bool {
    defer { starting = false }
    return starting
  }

  /// Starts a pass for the frames before `target`.
  mutating func beginPass(for target: DecodedFrame) {
    pass = BackwardPass(target: target, seekPoint: target.time, backoff: max(0.5, target.duration * 2))
  }

  /// Keeps the pass under way as `pass` has moved on.
  mutating func update(_ pass: BackwardPass) { self.pass = pass }

  /// Ends the pass under way, `pass` as it finished at host time `hostNow`: its target is not run again at once, and
  /// its pace counts if it decoded enough frames to tell.
  mutating func finish(_ pass: BackwardPass, at hostNow: Double) {
    self.pass = nil
    lastPassTarget = pass.target.pts
    let seconds = hostNow - pass.startedAtHost
    if pass.decoded > 8, seconds > 0 { passPace = Double(pass.decoded) / seconds }
  }

  /// Whether `pts` is the target of the last pass that ended.
  func wasLastPassTarget(_ pts: Int64) -> Bool { pts == lastPassTarget }
}

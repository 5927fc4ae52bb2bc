// ProgressMarks: where the next `progress` event is due. The marks are the multiples of the configured interval
// in media time; the engine asks whether a frame reached the next one, reports it and moves past it.

struct ProgressMarks {
  /// Seconds between marks; nil or not positive: no marks at all.
  let interval: Double?
  /// The next mark to report; nil when there are no marks.
  private(set) var next: Double?
  /// Playing backward the marks come in decreasing order: the next is the first at or before a time.
  private(set) var backward = false

  /// Keeps a time that is a multiple of the interval but comes out just below it in binary (0.3 / 0.1 is
  /// 2.9999…) on that multiple, so no mark is reported twice. A fraction of an interval.
  private static let roundingAllowance = 1e-9

  init(interval: Double?) { self.interval = interval }

  /// The next mark is the first at or after `time` (the start of playback, or of a loop pass).
  mutating func moveNext(atOrAfter time: Double) { next = mark(after: time, inclusive: true) }

  /// The next mark is the first strictly after `time` (after a report, a seek or a step).
  mutating func moveNext(after time: Double) { next = mark(after: time, inclusive: false) }

  /// Turns the marks to `backward` (or forward) from position `time`: the next mark is the first strictly past it.
  mutating func turn(backward: Bool, at time: Double) {
    self.backward = backward
    if backward { moveNext(before: time) } else { moveNext(after: time) }
  }

  /// Playing backward: the next mark is the first at or before `time` (the end of a loop pass).
  mutating func moveNext(atOrBefore time: Double) { next = mark(before: time, inclusive: true) }

  /// Playing backward: the next mark is the first strictly before `time` (after a report).
  mutating func moveNext(before time: Double) { next = mark(before: time, inclusive: false) }

  /// After a report at `time`, the next mark in the direction playback goes.
  mutating func moveNext(past time: Double) {
    if backward { moveNext(before: time) } else { moveNext(after: time) }
  }

  /// Whether a frame at media time `time` reaches the next mark (playing backward, a frame that starts at or before
  /// it).
  func isReached(at time: Double) -> Bool {
    guard let next else { return false }
    return backward ? time <= next + TimeTolerance.sameInstant : time >= next - TimeTolerance.sameInstant
  }

  /// The last multiple of the interval at (or strictly before) `time`; nil below 0.
  func mark(before time: Double, inclusive: Bool) -> Double? {
    guard let interval, interval > 0 else { return nil }
    let steps = (time / interval - Self.roundingAllowance).rounded(.up)
    let mark = steps * interval
    let found = inclusive && abs(mark - time) < TimeTolerance.sameInstant ? mark : (steps - 1) * interval
    return found < -TimeTolerance.sameInstant ? nil : found
  }

  /// The first multiple of the interval at (or strictly after) `time`.
  func mark(after time: Double, inclusive: Bool) -> Double? {
    guard let interval, interval > 0 else { return nil }
    let steps = (time / interval + Self.roundingAllowance).rounded(.down)
    let mark = steps * interval
    return inclusive && abs(mark - time) < TimeTolerance.sameInstant ? mark : (steps + 1) * interval
  }
}

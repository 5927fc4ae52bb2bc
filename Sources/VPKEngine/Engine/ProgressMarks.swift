// ProgressMarks: where the next `progress` event is due. The marks are the multiples of the configured interval
// in media time; the engine asks whether a frame reached the next one, reports it and moves past it.

struct ProgressMarks {
  /// Seconds between marks; nil or not positive: no marks at all.
  let interval: Double?
  /// The next mark to report; nil when there are no marks.
  private(set) var next: Double?

  /// Keeps a time that is a multiple of the interval but comes out just below it in binary (0.3 / 0.1 is
  /// 2.9999…) on that multiple, so no mark is reported twice. A fraction of an interval.
  private static let roundingAllowance = 1e-9

  init(interval: Double?) { self.interval = interval }

  /// The next mark is the first at or after `time` (the start of playback, or of a loop pass).
  mutating func moveNext(atOrAfter time: Double) { next = mark(after: time, inclusive: true) }

  /// The next mark is the first strictly after `time` (after a report, a seek or a step).
  mutating func moveNext(after time: Double) { next = mark(after: time, inclusive: false) }

  /// Whether a frame at media time `time` reaches the next mark.
  func isReached(at time: Double) -> Bool {
    guard let next else { return false }
    return time >= next - TimeTolerance.sameInstant
  }

  /// The first multiple of the interval at (or strictly after) `time`.
  func mark(after time: Double, inclusive: Bool) -> Double? {
    guard let interval, interval > 0 else { return nil }
    let steps = (time / interval + Self.roundingAllowance).rounded(.down)
    let mark = steps * interval
    return inclusive && abs(mark - time) < TimeTolerance.sameInstant ? mark : (steps + 1) * interval
  }
}

// TimeTolerance: how close two times in seconds must be to count as the same. Frame times come from stream ticks
// times a time base, and loop offsets are sums of frame durations, so equal times need not be equal doubles.

enum TimeTolerance {
  /// Two timeline or media times (a frame's due time, a loop offset, a progress mark, a wait's position).
  static let sameInstant = 1e-9
  /// A frame's time against a requested time (a seek or step target): frame times are rounded from ticks.
  static let frameTime = 1e-6
  /// A clock time at a deadline (a wait's timeout, or the end of `elapsed`).
  static let deadline = 1e-12
}

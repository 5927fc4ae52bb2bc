// ErrorReports: when the engine says that the file is damaged. Decode errors are counted all along (`status` shows
// the count); an event goes out for the first at once, then at most once per interval of clock time. A read error
// is reported once.

struct ErrorReports {
  /// Clock seconds between decode-error events.
  let interval: Double
  private var reportedDecodeErrors = 0
  private var lastReport = -Double.infinity
  private var readErrorReported = false

  init(interval: Double) { self.interval = interval }

  /// Whether `count` decode errors so far call for an event at clock time `now`; if so, it counts as made.
  mutating func shouldReport(decodeErrors count: Int, at now: Double) -> Bool {
    guard count > reportedDecodeErrors && (reportedDecodeErrors == 0 || now - lastReport >= interval) else {
      return false
    }
    reportedDecodeErrors = count
    lastReport = now
    return true
  }

  /// Whether a read error is still to be reported; if so, it counts as made.
  mutating func shouldReportReadError() -> Bool {
    guard !readErrorReported else { return false }
    readErrorReported = true
    return true
  }
}

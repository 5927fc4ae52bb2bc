// ErrorReports on its own: the first decode error is reported at once, later ones at most once per interval.

import Testing

@testable import VPKEngine

@Suite struct ErrorReportsTests {
  @Test func theFirstErrorIsReportedAtOnceAndLaterOnesOncePerInterval() {
    // Given reports at most once a second
    var reports = ErrorReports(interval: 1)
    // When errors come at clock times 10, 10.5 and 11
    let first = reports.shouldReport(decodeErrors: 1, at: 10)
    let soonAfter = reports.shouldReport(decodeErrors: 2, at: 10.5)
    let aSecondLater = reports.shouldReport(decodeErrors: 3, at: 11)
    // Then the first and the one a second later are reported
    #expect(first)
    #expect(!soonAfter)
    #expect(aSecondLater)
  }

  @Test func noNewErrorsNoReport() {
    // Given one error reported
    var reports = ErrorReports(interval: 1)
    _ = reports.shouldReport(decodeErrors: 1, at: 0)
    // When the count is the same later
    let again = reports.shouldReport(decodeErrors: 1, at: 5)
    // Then it is not reported again
    #expect(!again)
  }

  @Test func aReadErrorIsReportedOnce() {
    // Given no read error reported yet
    var reports = ErrorReports(interval: 1)
    // When it is asked twice
    let first = reports.shouldReportReadError()
    let second = reports.shouldReportReadError()
    // Then it is reported the first time only
    #expect(first)
    #expect(!second)
  }
}

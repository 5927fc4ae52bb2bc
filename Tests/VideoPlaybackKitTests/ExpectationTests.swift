import Testing

@testable import VideoPlaybackKit

private func holds(
  _ op: ExpectOperator, actual: ExpectValue, expected: ExpectValue, tolerance: Double? = nil
) -> Bool {
  VideoPlaybackKit.Expectation(field: .position, op: op, expected: .value(expected), tolerance: tolerance)
    .holds(actual: actual, expected: expected)
}

@Suite struct ExpectationTests {
  @Test(arguments: [
    (ExpectOperator.equal, 10.0, 10.0000005, true), (.equal, 10, 10.00001, false), (.notEqual, 10, 10.00001, true),
    (.notEqual, 10, 10.0000005, false), (.approximately, 10, 10.0009, true), (.approximately, 10, 10.002, false),
    (.less, 9.9, 10, true), (.less, 10, 10, false), (.less, 9.9999995, 10, false), (.lessOrEqual, 10.0000005, 10, true),
    (.lessOrEqual, 10.1, 10, false), (.greater, 10.1, 10, true), (.greater, 10.0000005, 10, false),
    (.greaterOrEqual, 9.9999995, 10, true), (.greaterOrEqual, 9.9, 10, false),
  ])
  func numbersCompareWithinAMicrosecondAndTildeWithinAMillisecond(
    op: ExpectOperator, actual: Double, expected: Double, result: Bool
  ) {
    // Given two numbers, When compared, Then == allows a microsecond, ~ a millisecond, and orderings a microsecond
    #expect(holds(op, actual: .number(actual), expected: .number(expected)) == result)
  }

  @Test func anExplicitToleranceWidensTheComparison() {
    #expect(holds(.approximately, actual: .number(10.009), expected: .number(10), tolerance: 0.01))
    #expect(!holds(.approximately, actual: .number(10.011), expected: .number(10), tolerance: 0.01))
    #expect(holds(.equal, actual: .number(10.4), expected: .number(10), tolerance: 0.5))
    #expect(!holds(.notEqual, actual: .number(10.4), expected: .number(10), tolerance: 0.5))
  }

  @Test func stringsAndBooleansCompareExactly() {
    #expect(holds(.equal, actual: .string("paused"), expected: .string("paused")))
    #expect(!holds(.equal, actual: .string("Paused"), expected: .string("paused")))
    #expect(holds(.notEqual, actual: .string("a"), expected: .string("b")))
    #expect(!holds(.less, actual: .string("a"), expected: .string("b")))
    #expect(holds(.equal, actual: .bool(true), expected: .bool(true)))
    #expect(holds(.notEqual, actual: .bool(true), expected: .bool(false)))
    #expect(!holds(.equal, actual: .bool(true), expected: .bool(false)))
  }

  @Test func noneEqualsOnlyNone() {
    #expect(holds(.equal, actual: .none, expected: .none))
    #expect(!holds(.notEqual, actual: .none, expected: .none))
    #expect(!holds(.equal, actual: .none, expected: .number(0)))
    #expect(holds(.notEqual, actual: .none, expected: .string("")))
    #expect(holds(.notEqual, actual: .number(1), expected: .none))
    #expect(!holds(.greater, actual: .none, expected: .number(1)))
    // and values of different kinds are never equal
    #expect(!holds(.equal, actual: .number(1), expected: .bool(true)))
    #expect(holds(.notEqual, actual: .string("1"), expected: .number(1)))
  }

  @Test func operandsResolveTimesAgainstTheDuration() {
    #expect(ExpectOperand.time(.percent(25)).resolved(duration: MediaTime(seconds: 60)) == .number(15))
    #expect(ExpectOperand.time(.seconds(90)).resolved(duration: nil) == .number(90))
    #expect(ExpectOperand.value(.string("x")).resolved(duration: nil) == .string("x"))
  }

  @Test func fieldKindsAndOrderingOperators() {
    #expect(ExpectField.position.kind == .time)
    #expect(ExpectField.frameTime.kind == .time)
    #expect(ExpectField.framePTS.kind == .number)
    #expect(ExpectField.frameMD5.kind == .string)
    #expect(ExpectField.frameKey.kind == .bool)
    #expect(ExpectOperator.allCases.filter { !$0.isOrdering } == [.equal, .notEqual])
  }
}

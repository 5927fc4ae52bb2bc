// The grammar of `expect`: a field, an operator, a value read for the field's kind, and a tolerance.
//
//   expect field op value [tolerance]
//   op := == | != | < | <= | > | >= | ~          tolerance := ±number | +-number | ± number

extension CommandParser {
  func parseExpect(_ arguments: [String]) -> ParsedLine {
    let usage = "expect <field> <op> <value> [±tolerance], e.g. expect position ~ 10 ±0.001"
    guard arguments.count >= 3 else {
      return .invalid(Self.bad("expect needs a field, an operator and a value: \(usage)"))
    }
    let fieldName = Self.asciiLowercased(arguments[0])
    guard let field = ExpectField(rawValue: fieldName) else {
      // The list is abridged so the message stays one short line; docs/commands.md lists every field.
      let guess = Self.nearestField(to: fieldName).map { "did you mean \($0)? " } ?? ""
      return .invalid(
        PlaybackError(
          .unknownField,
          "expect: unknown field \(Self.quoted(arguments[0])); \(guess)use state, position, duration, rate, loops, "
            + "error, decode_errors, frame.md5 and the other frame.*, video.* and audio.* fields in README"))
    }
    guard let op = ExpectOperator(rawValue: arguments[1]) else {
      return .invalid(
        Self.bad("expect: \(Self.quoted(arguments[1])) is not an operator; use ==, !=, <, <=, >, >= or ~"))
    }
    let tolerance: Double?
    switch parseTolerance(Array(arguments.dropFirst(3)), usage: usage) {
    case .success(let parsed): tolerance = parsed
    case .failure(let error): return .invalid(error)
    }
    if tolerance != nil, field.kind != .time && field.kind != .number {
      return .invalid(Self.bad("expect: a tolerance applies to numbers and times, not to \(field.rawValue)"))
    }
    let operand: ExpectOperand
    switch parseOperand(arguments[2], for: field, op: op) {
    case .success(let parsed): operand = parsed
    case .failure(let error): return .invalid(error)
    }
    return .command(.expect(Expectation(field: field, op: op, expected: operand, tolerance: tolerance)))
  }

  /// The field a mistyped name most likely meant: the nearest within edit distance 2 (the first on a tie).
  static func nearestField(to name: String) -> String? {
    let scalars = Array(name.unicodeScalars.prefix(20))
    guard scalars.count < 20 else { return nil }
    var best: (field: String, distance: Int)?
    for field in ExpectField.allCases {
      let distance = CommandVerbs.editDistance(scalars, Array(field.rawValue.unicodeScalars))
      if distance <= 2, distance < (best?.distance ?? Int.max) { best = (field.rawValue, distance) }
    }
    return best?.field
  }

  /// The words after the value: nothing, or a tolerance `±0.01`, `+-0.01`, or `±` and the number as two words.
  private func parseTolerance(_ rest: [String], usage: String) -> Result<Double?, PlaybackError> {
    guard !rest.isEmpty else { return .success(nil) }
    var text: String?
    if rest.count == 2, rest[0] == "±" || rest[0] == "+-" {
      text = rest[1]
    } else if rest.count == 1, rest[0].hasPrefix("±") {
      text = String(rest[0].dropFirst())
    } else if rest.count == 1, rest[0].hasPrefix("+-") {
      text = String(rest[0].dropFirst(2))
    }
    guard let text else { return .failure(Self.bad("expect takes one value and an optional tolerance: \(usage)")) }
    guard let number = Self.decimal(Array(text.utf8)), text.utf8.count <= Self.maxArgumentLength else {
      return .failure(Self.bad("expect: tolerance \(Self.quoted(text)) is not a number; write ±0.01"))
    }
    return .success(number.value)
  }

  /// The value as written, read for the field's kind: a time, a number, text, true/false, or `none`.
  private func parseOperand(_ valueText: String, for field: ExpectField, op: ExpectOperator) -> Result<
    ExpectOperand, PlaybackError
  > {
    if Self.asciiLowercased(valueText) == "none" {
      guard !op.isOrdering else { return .failure(Self.bad("expect: none can only be compared with == or !=")) }
      return .success(.value(.none))
    } else {
      switch field.kind {
      case .time:
        switch Self.parseTime(valueText, verb: "expect \(field.rawValue)", allowPercent: true) {
        case .success(let time): return .success(.time(time))
        case .failure(let error): return .failure(error)
        }
      case .number:
        var bytes = Array(valueText.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
        guard valueText.utf8.count <= Self.maxArgumentLength, let number = Self.decimal(bytes) else {
          return .failure(
            Self.bad(
              "expect \(field.rawValue): \(Self.quoted(valueText)) is not a number, e.g. expect \(field.rawValue) == 2")
          )
        }
        return .success(.value(.number(negative ? -number.value : number.value)))
      case .string:
        guard !op.isOrdering else {
          return .failure(Self.bad("expect \(field.rawValue) is text: compare it with == or !="))
        }
        return .success(
          .value(.string(field == .state || field == .error ? Self.asciiLowercased(valueText) : valueText)))
      case .bool:
        guard !op.isOrdering else {
          return .failure(Self.bad("expect \(field.rawValue) is true or false: use == or !="))
        }
        // Only the two words docs/commands.md documents (in any case): yes, no, 1 and 0 are refused, not guessed at.
        switch Self.asciiLowercased(valueText) {
        case "true": return .success(.value(.bool(true)))
        case "false": return .success(.value(.bool(false)))
        default:
          return .failure(
            Self.bad("expect \(field.rawValue): \(Self.quoted(valueText)) is not true or false; write true or false"))
        }
      }
    }
  }
}

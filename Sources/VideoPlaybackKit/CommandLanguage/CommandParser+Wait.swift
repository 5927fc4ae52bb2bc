// The grammar of `wait`: a time, or a condition, with an optional timeout.
//
//   wait (seconds | ended | paused | seeked | position ('>=' | '<=') time | entry N) [timeout seconds]

extension CommandParser {
  func parseWait(_ arguments: [String]) -> ParsedLine {
    let usage =
      "wait 2.5, wait ended, wait paused, wait seeked or wait position >= 1:30 (<= playing backward), each with an optional timeout 10"
    var words = arguments[...]
    var timeout: Double?
    if let index = words.firstIndex(where: { Self.asciiLowercased($0) == "timeout" }) {
      let after = words[(index + 1)...]
      guard after.count == 1, let text = after.first else {
        return .invalid(Self.bad("wait: timeout takes one number of seconds at the end: \(usage)"))
      }
      switch Self.parseSeconds(text, what: "wait timeout") {
      case .success(let seconds) where seconds > 0: timeout = seconds
      case .success: return .invalid(Self.bad("wait: timeout must be above 0 seconds, e.g. timeout 10"))
      case .failure(let error): return .invalid(error)
      }
      words = words[..<index]
    }
    guard let first = words.first else { return .invalid(Self.bad("wait needs a time or a condition: \(usage)")) }
    let condition: WaitCondition
    // `position>=12.5` and `position>= 12.5` glue the operator (and the time) to the word; `<=` likewise.
    let gluedPrefix = Self.asciiLowercased(String(String.UnicodeScalarView(first.unicodeScalars.prefix(10))))
    let glued = gluedPrefix == "position>=" || gluedPrefix == "position<="
    switch glued ? "position" : Self.asciiLowercased(first) {
    case "ended": condition = .ended
    case "paused": condition = .paused
    case "seeked": condition = .seeked
    case "entry":
      let usage = "wait entry takes one entry number, counted from 1: wait entry 3"
      guard words.count == 2 else { return .invalid(Self.bad(usage)) }
      switch Self.entryNumber(words[words.startIndex + 1], usage: usage) {
      case .failure(let error): return .invalid(error)
      case .success(let number): condition = .entry(number)
      }
    case "position":
      let afterWord = glued ? [String(String.UnicodeScalarView(first.unicodeScalars.dropFirst(8)))] : []
      var rest = (afterWord + words.dropFirst()).joined(separator: " ")
      let atMost = rest.hasPrefix("<=")
      guard rest.hasPrefix(">=") || atMost else {
        return .invalid(
          Self.bad(
            "wait position takes >= and a time: wait position >= 1:30 (or <= playing backward: wait position <= 10)"))
      }
      rest = String(rest.dropFirst(2)).trimmingSeparators()
      guard !rest.isEmpty, !rest.contains(" ") else {
        return .invalid(Self.bad("wait position takes >= and one time: wait position >= 1:30"))
      }
      switch Self.parseTime(rest, verb: "wait position", allowPercent: true) {
      case .success(let time): condition = atMost ? .positionAtMost(time) : .position(time)
      case .failure(let error): return .invalid(error)
      }
      if words.count > 4 { return .invalid(Self.bad("wait position takes >= and one time: wait position >= 1:30")) }
    default:
      guard words.count == 1 else {
        return .invalid(Self.bad("wait \(Self.quoted(first)) is not a time or a condition: \(usage)"))
      }
      switch Self.parseSeconds(first, what: "wait") {
      case .success(let seconds): condition = .duration(seconds)
      case .failure(let error):
        // A time that is negative or too long says so; anything else is neither a time nor a condition.
        if case .success(.seconds) = Self.parseTime(first, verb: "wait", allowPercent: false) {
          return .invalid(error)
        }
        return .invalid(Self.bad("wait \(Self.quoted(first)) is not a time or a condition: \(usage)"))
      }
      if timeout != nil {
        return .invalid(Self.bad("wait <seconds> takes no timeout: it is its own time limit"))
      }
    }
    if words.count > 1, case .ended = condition {
      return .invalid(Self.bad("wait ended takes no other words: \(usage)"))
    }
    if words.count > 1, case .paused = condition {
      return .invalid(Self.bad("wait paused takes no other words: \(usage)"))
    }
    if words.count > 1, case .seeked = condition {
      return .invalid(Self.bad("wait seeked takes no other words: \(usage)"))
    }
    return .command(.wait(condition, timeout: timeout))
  }

  /// A non-negative number of seconds (`2.5`, `1:30`) no longer than `maxWait`.
  static func parseSeconds(_ text: String, what: String) -> Result<Double, PlaybackError> {
    switch parseTime(text, verb: what, allowPercent: false) {
    case .success(.seconds(let seconds)):
      guard seconds >= 0 else { return .failure(bad("\(what) \(quoted(text)) is negative; write seconds such as 2.5")) }
      guard seconds <= maxWait else {
        return .failure(bad("\(what) \(quoted(text)) is over the limit of \(Int(maxWait)) seconds"))
      }
      return .success(seconds)
    case .success(.percent): return .failure(bad("\(what) takes seconds, not a percentage"))
    case .failure(let error): return .failure(error)
    }
  }
}

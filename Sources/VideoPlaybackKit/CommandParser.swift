// CommandParser: turns one line of the command language into a Command, or a clear error.
//
// Grammar (DESIGN §2), one command per line:
//
//   line     := ws* [ verb (ws+ argument)* ] ws* [ '#' comment ] [CR | LF]*
//   ws       := ' ' | '\t'
//   verb     := play | pause | toggle | status | info | frame | help | quit | exit | close (no arguments)
//             | scrub time [mode] | skip seconds [mode]                     (ASCII case-insensitive)
//             | step [count] | rate number | open path
//             | wait (clock | ended | paused | seeked | position '>=' time) [timeout clock]
//             | expect field op value [tolerance]
//   count    := [sign] digit+  (not 0, at most 100000 frames)
//   path     := the rest of the line (a ` #` comment cut off), or a "double-quoted" string
//   op       := == | != | < | <= | > | >= | ~          tolerance := ±number | +-number | ± number
//   mode     := exact | keyframe                                            (ASCII case-insensitive)
//   time     := [sign] clock | [sign] number '%'
//   seconds  := [sign] clock
//   clock    := number | int ':' sexa | int ':' sexa-int ':' sexa           (s, m:ss, h:mm:ss)
//   number   := digit+ ['.' digit*] | '.' digit+                            (no exponent, inf, nan, hex, _ or ,)
//
// - A byte-order mark (U+FEFF) at the start of the line is ignored.
// - A token that starts with `#` starts a comment: `play # go` is `play`, `play#go` is an unknown verb.
// - The sign applies to the whole time (`-1:30` is -90 s). Only the last field of a clock time may
//   have a fraction; the fields after the first must be below 60; the first field has no upper bound.
// - A time longer than 32 characters is rejected as too long before it is looked at.
// - Every error message is one line of at most about 200 characters, whatever the input: anything
//   quoted from the input is cut to 40 characters and its control characters are replaced.
// - The parser is total: no input traps, overflows or takes more than linear time.

import Foundation

/// What one input line turned out to be.
public enum ParsedLine: Sendable, Equatable {
  /// A blank line or a comment: not a command, takes no id.
  case empty
  case command(Command)
  /// Not a valid command; it still takes an id and gets an `error` event.
  case invalid(PlaybackError)
}

public struct CommandParser: Sendable {
  /// The canonical verbs, in the order `help` lists them.
  public static let verbs: [String] = [
    "play", "pause", "toggle", "scrub", "skip", "step", "rate", "status", "info", "frame", "open", "close",
    "wait", "expect", "help", "quit",
  ]

  /// Other spellings accepted for a canonical verb.
  static let aliases: [String: String] = ["exit": "quit"]

  /// Words users of other players type, mapped to the verb that does that here. Only suggested,
  /// never accepted: `seek 10` is an error that points at `scrub`.
  static let synonyms: [String: String] = [
    "seek": "scrub", "goto": "scrub", "jump": "skip", "jmp": "skip", "forward": "skip",
    "back": "skip",
    "resume": "play", "start": "play", "unpause": "play", "stop": "pause", "q": "quit", "?": "help",
  ]

  /// The most frames one `step` moves.
  static let maxStep = 100_000
  /// The slowest and fastest playback rates.
  static let rateRange = 0.01...100.0
  /// The longest `wait` or `timeout`, in seconds (one day).
  static let maxWait = 86_400.0

  /// The longest time argument (in characters) that is looked at; longer ones are too long.
  static let maxArgumentLength = 32
  /// How much of an input token an error message quotes.
  static let maxQuotedLength = 40

  public init() {}

  public func parse(_ line: String) -> ParsedLine {
    let tokens = Self.tokenize(line)
    guard let first = tokens.first else { return .empty }
    let arguments = tokens.dropFirst()
    let word = Self.asciiLowercased(first)
    let verb = Self.aliases[word] ?? word

    switch verb {
    case "play": return noArguments(.play, word, arguments)
    case "pause": return noArguments(.pause, word, arguments)
    case "toggle": return noArguments(.toggle, word, arguments)
    case "status": return noArguments(.status, word, arguments)
    case "info": return noArguments(.info, word, arguments)
    case "frame": return noArguments(.frame, word, arguments)
    case "help": return noArguments(.help, word, arguments)
    case "quit": return noArguments(.quit, word, arguments)
    case "close": return noArguments(.close, word, arguments)
    case "scrub": return parseScrub(Array(arguments))
    case "skip": return parseSkip(Array(arguments))
    case "step": return parseStep(Array(arguments))
    case "rate": return parseRate(Array(arguments))
    case "open": return parseOpen(line)
    case "wait": return parseWait(Array(arguments))
    case "expect": return parseExpect(Array(arguments))
    default: return .invalid(Self.unknownCommand(first, lowercased: word))
    }
  }

  // MARK: - Verbs

  private func noArguments(_ command: Command, _ word: String, _ arguments: ArraySlice<String>)
    -> ParsedLine
  {
    guard arguments.isEmpty else {
      return .invalid(Self.bad("\(word) takes no arguments; write just '\(word)'"))
    }
    return .command(command)
  }

  private func parseScrub(_ arguments: [String]) -> ParsedLine {
    let parsed = parseSeek(
      arguments, verb: "scrub", allowPercent: true,
      missing: "scrub needs a time: scrub 83.5, scrub 1:23.5 or scrub 50%",
      usage: "a time and an optional mode", examples: "scrub 1:23.5 or scrub 1:23.5 exact",
      modeExample: "scrub 1:23.5 exact")
    switch parsed {
    case .success(let (time, mode)): return .command(.scrub(time, mode))
    case .failure(let error): return .invalid(error)
    }
  }

  private func parseSkip(_ arguments: [String]) -> ParsedLine {
    let parsed = parseSeek(
      arguments, verb: "skip", allowPercent: false,
      missing: "skip needs seconds: skip +10, skip -5 or skip -1:30",
      usage: "seconds and an optional mode", examples: "skip +10 or skip -5 exact", modeExample: "skip +10 exact")
    switch parsed {
    case .success((.seconds(let seconds), let mode)): return .command(.skip(seconds, mode))
    case .success((.percent, _)):
      return .invalid(Self.bad("skip takes seconds, not a percentage: skip +10 or skip -5"))
    case .failure(let error): return .invalid(error)
    }
  }

  /// `<time> [exact|keyframe]`, the arguments scrub and skip share.
  private func parseSeek(
    _ arguments: [String], verb: String, allowPercent: Bool, missing: String, usage: String, examples: String,
    modeExample: String
  ) -> Result<(TimeSpec, SeekMode?), PlaybackError> {
    guard let text = arguments.first else { return .failure(Self.bad(missing)) }
    guard arguments.count <= 2 else {
      return .failure(Self.bad("\(verb) takes \(usage), not \(arguments.count) arguments: \(examples)"))
    }
    return Self.parseTime(text, verb: verb, allowPercent: allowPercent).flatMap { time in
      Self.parseMode(arguments.dropFirst().first, verb: verb, example: modeExample).map { (time, $0) }
    }
  }

  static func parseMode(_ text: String?, verb: String, example: String) -> Result<
    SeekMode?, PlaybackError
  > {
    guard let text else { return .success(nil) }
    switch asciiLowercased(text) {
    case "exact": return .success(.exact)
    case "keyframe": return .success(.keyframe)
    default:
      return .failure(
        bad("\(verb) mode \(quoted(text)) is not known; use exact or keyframe, e.g. \(example)"))
    }
  }

  // MARK: - Times

  /// Parses `83.5`, `1:23.5`, `1:02:03.25`, `-1:30` and (when allowed) `50%`.
  /// Parses a time as `scrub` takes it (`83.5`, `1:23.5`, `1:02:03.25`, `50%`), for options such
  /// as `--start`; the error's message says what is accepted, naming `what`.
  public static func parseTime(_ text: String, for what: String) -> Result<TimeSpec, PlaybackError> {
    parseTime(text, verb: what, allowPercent: true)
  }

  static func parseTime(_ text: String, verb: String, allowPercent: Bool) -> Result<
    TimeSpec, PlaybackError
  > {
    let what = verb == "skip" ? "skip seconds" : verb == "scrub" ? "scrub time" : verb
    let forms =
      allowPercent
      ? "write seconds (83.5), m:ss (1:23.5), h:mm:ss (1:02:03.25) or a percentage (50%)"
      : "write seconds (+10, -5, 0.5) or m:ss (-1:30)"
    guard text.unicodeScalars.prefix(maxArgumentLength + 1).count <= maxArgumentLength else {
      return .failure(
        bad(
          "\(what) is too long; write at most \(maxArgumentLength) characters, e.g. \(verb) 1:23.5")
      )
    }
    let notANumber = bad("\(what) \(quoted(text)) is not a number; \(forms)")
    var bytes = Array(text.utf8)

    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      bytes.removeFirst()
    }

    if bytes.last == UInt8(ascii: "%") {
      guard allowPercent else {
        return .failure(bad("\(verb) takes seconds, not a percentage: \(verb) +10 or \(verb) -5"))
      }
      guard let number = decimal(bytes.dropLast()) else {
        return .failure(
          bad(
            "\(what) \(quoted(text)) is not a percentage; write a number then %, e.g. \(verb) 50%"))
      }
      // `+ 0` turns -0 into 0, so `-0%` and `0%` are the same time.
      return .success(.percent((negative ? -number.value : number.value) + 0))
    }
    guard !bytes.isEmpty, !bytes.contains(UInt8(ascii: "%")) else { return .failure(notANumber) }

    let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
    guard fields.count <= 3 else {
      return .failure(
        bad(
          "\(what) \(quoted(text)) has too many fields; use at most h:mm:ss, e.g. \(verb) 1:02:03.25"
        ))
    }
    guard !fields.contains(where: \.isEmpty) else {
      return .failure(
        bad(
          "\(what) \(quoted(text)) has an empty field; write m:ss or h:mm:ss, e.g. \(verb) 1:23.5"))
    }
    var total = 0.0
    for (index, field) in fields.enumerated() {
      guard let number = decimal(field) else { return .failure(notANumber) }
      let isLast = index == fields.count - 1
      if !isLast && number.hasPoint {
        return .failure(
          bad("\(what) \(quoted(text)): only the seconds may have a fraction, e.g. \(verb) 1:23.5"))
      }
      if index > 0 && !(number.whole < 60) {
        let unit = isLast ? "seconds" : "minutes"
        return .failure(
          bad("\(what) \(quoted(text)): \(unit) must be below 60, e.g. \(verb) 1:59.5"))
      }
      total = total * 60 + number.value
    }
    guard total.isFinite else {
      return .failure(bad("\(what) \(quoted(text)) is too large; \(forms)"))
    }
    return .success(.seconds((negative ? -total : total) + 0))
  }

  /// A plain unsigned decimal: `12`, `12.5`, `.5`, `5.`. Nil for anything else (signs, exponents,
  /// `inf`, `nan`, hex, `_`, commas, non-ASCII digits). `whole` is the value of the digits before
  /// the point, so `59.99999999999999999` (which rounds to 60) still counts as below 60.
  static func decimal(_ bytes: some Collection<UInt8>) -> (
    value: Double, whole: Double, hasPoint: Bool
  )? {
    var integer: [UInt8] = []
    var fraction: [UInt8] = []
    var seenPoint = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        if seenPoint { fraction.append(byte) } else { integer.append(byte) }
      case UInt8(ascii: ".") where !seenPoint:
        seenPoint = true
      default:
        return nil
      }
    }
    guard !integer.isEmpty || !fraction.isEmpty else { return nil }
    if integer.isEmpty { integer = [UInt8(ascii: "0")] }
    if fraction.isEmpty { fraction = [UInt8(ascii: "0")] }
    let text = String(decoding: integer + [UInt8(ascii: ".")] + fraction, as: UTF8.self)
    guard let value = Double(text), value.isFinite,
      let whole = Double(String(decoding: integer, as: UTF8.self)), whole.isFinite
    else { return nil }
    return (value, whole, seenPoint)
  }

  private func parseStep(_ arguments: [String]) -> ParsedLine {
    guard let text = arguments.first else { return .command(.step(1)) }
    guard arguments.count == 1 else { return .invalid(Self.bad("step takes one count: step, step +5 or step -1")) }
    var bytes = Array(text.utf8)
    var negative = false
    if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      bytes.removeFirst()
    }
    guard !bytes.isEmpty, bytes.count <= 7, bytes.allSatisfy({ (48...57).contains($0) }),
      let magnitude = Int(String(decoding: bytes, as: UTF8.self))
    else {
      return .invalid(Self.bad("step count \(Self.quoted(text)) is not a whole number; write step +5 or step -1"))
    }
    guard magnitude > 0 else { return .invalid(Self.bad("step needs a count other than 0: step +1 or step -1")) }
    guard magnitude <= Self.maxStep else {
      return .invalid(Self.bad("step moves at most \(Self.maxStep) frames at a time; scrub to go further"))
    }
    return .command(.step(negative ? -magnitude : magnitude))
  }

  private func parseRate(_ arguments: [String]) -> ParsedLine {
    let usage = "rate takes one speed between 0.01 and 100, e.g. rate 2 or rate 0.5"
    guard arguments.count == 1, let text = arguments.first else { return .invalid(Self.bad(usage)) }
    guard text.utf8.count <= Self.maxArgumentLength, let number = Self.decimal(Array(text.utf8)) else {
      return .invalid(Self.bad("rate \(Self.quoted(text)) is not a number; \(usage)"))
    }
    guard Self.rateRange.contains(number.value) else {
      return .invalid(Self.bad("rate \(Self.quoted(text)) is out of range; \(usage)"))
    }
    return .command(.rate(number.value))
  }

  /// `open <path>`: the rest of the line, or one double-quoted string (with `\"` and `\\`).
  private func parseOpen(_ line: String) -> ParsedLine {
    let usage = "open needs a file: open movie.mp4, or open \"name with # or quotes.mp4\""
    var scalars = Substring(line).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    while let first = scalars.first, Self.isSeparator(first) { scalars.removeFirst() }
    scalars.removeFirst(4)  // the verb
    while let first = scalars.first, Self.isSeparator(first) { scalars.removeFirst() }
    while let last = scalars.last, Self.isSeparator(last) || last == "\r" || last == "\n" { scalars.removeLast() }
    var rest = String(scalars)
    if rest.hasPrefix("\"") {
      var path = ""
      var escaped = false
      var closedAt: String.Index?
      for index in rest.indices.dropFirst() {
        let character = rest[index]
        if escaped {
          path.append(character)
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          closedAt = index
          break
        } else {
          path.append(character)
        }
      }
      guard let closedAt else { return .invalid(Self.bad("open: the quoted path has no closing quote; \(usage)")) }
      let after = rest[rest.index(after: closedAt)...].drop { $0 == " " || $0 == "\t" }
      guard after.isEmpty || after.hasPrefix("#") else {
        return .invalid(Self.bad("open takes one path; put a path with spaces in double quotes"))
      }
      rest = path
    } else if rest.hasPrefix("#") {
      rest = ""  // `open # note`: the ` #` after the verb starts a comment, as on every other line
    } else if let comment = rest.range(of: " #") ?? rest.range(of: "\t#") {
      rest = String(rest[..<comment.lowerBound]).trimmingSeparators()
    }
    guard !rest.isEmpty else { return .invalid(Self.bad(usage)) }
    guard !rest.unicodeScalars.contains(where: { $0.value == 0 }) else {
      return .invalid(Self.bad("open: a path cannot hold a NUL character"))
    }
    return .command(.open(rest))
  }

  private func parseWait(_ arguments: [String]) -> ParsedLine {
    let usage =
      "wait 2.5, wait ended, wait paused, wait seeked or wait position >= 1:30, each with an optional timeout 10"
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
    // `position>=12.5` and `position>= 12.5` glue the operator (and the time) to the word.
    let glued = Self.asciiLowercased(String(String.UnicodeScalarView(first.unicodeScalars.prefix(10)))) == "position>="
    switch glued ? "position" : Self.asciiLowercased(first) {
    case "ended": condition = .ended
    case "paused": condition = .paused
    case "seeked": condition = .seeked
    case "position":
      let afterWord = glued ? [String(String.UnicodeScalarView(first.unicodeScalars.dropFirst(8)))] : []
      var rest = (afterWord + words.dropFirst()).joined(separator: " ")
      guard rest.hasPrefix(">=") else {
        return .invalid(Self.bad("wait position takes >= and a time: wait position >= 1:30"))
      }
      rest = String(rest.dropFirst(2)).trimmingSeparators()
      guard !rest.isEmpty, !rest.contains(" ") else {
        return .invalid(Self.bad("wait position takes >= and one time: wait position >= 1:30"))
      }
      switch Self.parseTime(rest, verb: "wait position", allowPercent: true) {
      case .success(let time): condition = .position(time)
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

  private func parseExpect(_ arguments: [String]) -> ParsedLine {
    let usage = "expect <field> <op> <value> [±tolerance], e.g. expect position ~ 10 ±0.001"
    guard arguments.count >= 3 else {
      return .invalid(Self.bad("expect needs a field, an operator and a value: \(usage)"))
    }
    let fieldName = Self.asciiLowercased(arguments[0])
    guard let field = ExpectField(rawValue: fieldName) else {
      // The list is abridged so the message stays one short line; README.md lists every field.
      return .invalid(
        PlaybackError(
          .unknownField,
          "expect: unknown field \(Self.quoted(arguments[0])); use state, position, duration, rate, loops, error, "
            + "decode_errors, frame.md5 and the other frame.*, video.* and audio.* fields in README"))
    }
    guard let op = ExpectOperator(rawValue: arguments[1]) else {
      return .invalid(
        Self.bad("expect: \(Self.quoted(arguments[1])) is not an operator; use ==, !=, <, <=, >, >= or ~"))
    }
    // The tolerance: `±0.01`, `+-0.01`, or `±` and the number as two words.
    var tolerance: Double?
    var rest = Array(arguments.dropFirst(3))
    if let last = rest.first, rest.count <= 2 {
      var text: String?
      if rest.count == 2, last == "±" || last == "+-" {
        text = rest[1]
      } else if rest.count == 1, last.hasPrefix("±") {
        text = String(last.dropFirst())
      } else if rest.count == 1, last.hasPrefix("+-") {
        text = String(last.dropFirst(2))
      }
      if let text {
        guard let number = Self.decimal(Array(text.utf8)), text.utf8.count <= Self.maxArgumentLength else {
          return .invalid(Self.bad("expect: tolerance \(Self.quoted(text)) is not a number; write ±0.01"))
        }
        tolerance = number.value
        rest = []
      }
    }
    guard rest.isEmpty else { return .invalid(Self.bad("expect takes one value and an optional tolerance: \(usage)")) }
    if tolerance != nil, field.kind != .time && field.kind != .number {
      return .invalid(Self.bad("expect: a tolerance applies to numbers and times, not to \(field.rawValue)"))
    }
    let valueText = arguments[2]
    let operand: ExpectOperand
    if Self.asciiLowercased(valueText) == "none" {
      guard !op.isOrdering else { return .invalid(Self.bad("expect: none can only be compared with == or !=")) }
      operand = .value(.none)
    } else {
      switch field.kind {
      case .time:
        switch Self.parseTime(valueText, verb: "expect \(field.rawValue)", allowPercent: true) {
        case .success(let time): operand = .time(time)
        case .failure(let error): return .invalid(error)
        }
      case .number:
        var bytes = Array(valueText.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        if negative || bytes.first == UInt8(ascii: "+") { bytes.removeFirst() }
        guard valueText.utf8.count <= Self.maxArgumentLength, let number = Self.decimal(bytes) else {
          return .invalid(
            Self.bad(
              "expect \(field.rawValue): \(Self.quoted(valueText)) is not a number, e.g. expect \(field.rawValue) == 2")
          )
        }
        operand = .value(.number(negative ? -number.value : number.value))
      case .string:
        guard !op.isOrdering else {
          return .invalid(Self.bad("expect \(field.rawValue) is text: compare it with == or !="))
        }
        operand = .value(.string(field == .state || field == .error ? Self.asciiLowercased(valueText) : valueText))
      case .bool:
        guard !op.isOrdering else {
          return .invalid(Self.bad("expect \(field.rawValue) is true or false: use == or !="))
        }
        switch Self.asciiLowercased(valueText) {
        case "true", "yes", "1": operand = .value(.bool(true))
        case "false", "no", "0": operand = .value(.bool(false))
        default:
          return .invalid(Self.bad("expect \(field.rawValue): \(Self.quoted(valueText)) is not true or false"))
        }
      }
    }
    return .command(.expect(Expectation(field: field, op: op, expected: operand, tolerance: tolerance)))
  }

  // MARK: - Unknown verbs

  static func unknownCommand(_ typed: String, lowercased: String) -> PlaybackError {
    let message =
      if let suggestion = suggestion(for: lowercased) {
        "unknown command \(quoted(typed)); did you mean '\(suggestion)'? Type help for the list of commands."
      } else {
        "unknown command \(quoted(typed)); type help for the list of commands."
      }
    return PlaybackError(.unknownCommand, message)
  }

  /// The verb the user most likely meant: a known synonym, else the nearest verb or alias within
  /// edit distance 2 (the first in `verbs` order on a tie).
  static func suggestion(for word: String) -> String? {
    if let verb = synonyms[word] { return verb }
    let scalars = Array(word.unicodeScalars.prefix(12))
    guard scalars.count <= 10 else { return nil }
    var best: (verb: String, distance: Int)?
    for candidate in verbs + aliases.keys.sorted() {
      let distance = editDistance(scalars, Array(candidate.unicodeScalars))
      if distance <= 2, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.verb
  }

  /// Levenshtein distance; both inputs are short (callers cap them).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  // MARK: - Helpers

  static func bad(_ message: String) -> PlaybackError { PlaybackError(.badArgument, message) }

  /// Splits a line into tokens at runs of spaces and tabs, dropping trailing CR/LF and any comment.
  /// Works on Unicode scalars, so a space followed by a combining mark still separates tokens.
  static func tokenize(_ line: String) -> [String] {
    let scalars = line.unicodeScalars
    var end = scalars.endIndex
    while end > scalars.startIndex {
      let before = scalars.index(before: end)
      guard isSeparator(scalars[before]) || scalars[before] == "\r" || scalars[before] == "\n"
      else { break }
      end = before
    }
    var tokens: [String] = []
    var index = scalars.startIndex
    // A byte-order mark (a script saved by some Windows editors starts with one) is not a token.
    if index < end && scalars[index] == "\u{FEFF}" { index = scalars.index(after: index) }
    while index < end {
      if isSeparator(scalars[index]) {
        index = scalars.index(after: index)
        continue
      }
      if scalars[index] == "#" { break }
      let start = index
      while index < end && !isSeparator(scalars[index]) { index = scalars.index(after: index) }
      tokens.append(String(Substring(scalars[start..<index])))
    }
    return tokens
  }

  static func isSeparator(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

  /// Lower-cases ASCII letters only, so no Unicode folding (the Kelvin sign, dotted I) can turn a
  /// foreign word into a verb.
  static func asciiLowercased(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if ("A"..."Z").contains(scalar), let lower = Unicode.Scalar(scalar.value + 32) {
        scalars.append(lower)
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// `'text'`, cut to 40 characters (with `…`) and with control, format and line-separator
  /// characters replaced by `?`, so a hostile line cannot make a huge or multi-line message.
  static func quoted(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      if count == maxQuotedLength {
        result.append("…")
        break
      }
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
        .unassigned:
        result.append("?")
      default:
        result.append(scalar)
      }
      count += 1
    }
    return "'" + String(result) + "'"
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  fileprivate func trimmingSeparators() -> String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, CommandParser.isSeparator(first) { scalars.removeFirst() }
    while let last = scalars.last, CommandParser.isSeparator(last) { scalars.removeLast() }
    return String(scalars)
  }
}

// MARK: - JSON commands

extension CommandParser {
  /// The deepest nesting of arrays and objects a JSON command may have (it needs 2).
  static let maxJSONDepth = 4
  /// The longest client id, in characters.
  static let maxClientIDLength = 256

  /// Parses a line of either form: a text command, or (when it starts with `{`) a JSON object
  /// `{"command": "scrub", "args": [10, "exact"], "id": "a1"}`. `command` may also hold a whole
  /// line (`"scrub 10 exact"`); `args` and `id` are optional. The id comes back even when the
  /// command is invalid, so the error can carry it.
  public func parseInput(_ line: String) -> (line: ParsedLine, clientID: ClientID?) {
    let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
    guard trimmed.hasPrefix("{") else { return (parse(line), nil) }
    return parseJSON(String(trimmed))
  }

  private func parseJSON(_ text: String) -> (line: ParsedLine, clientID: ClientID?) {
    let shape =
      "send {\"command\": \"scrub\", \"args\": [10], \"id\": \"a1\"} (args and id optional), one object per line"
    guard Self.jsonDepth(text) <= Self.maxJSONDepth,
      let data = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any]
    else {
      return (.invalid(PlaybackError(.badJSON, "not a JSON object; \(shape)")), nil)
    }
    var clientID: ClientID?
    if let raw = object["id"] {
      switch raw {
      case let string as String where string.count <= Self.maxClientIDLength:
        clientID = .string(string)
      case let number as NSNumber where !Self.isBoolean(number) && number.doubleValue.isFinite:
        clientID = .number(number.doubleValue)
      default:
        return (
          .invalid(
            PlaybackError(
              .badID, "the id must be a string (at most \(Self.maxClientIDLength) characters) or a number; \(shape)")),
          nil
        )
      }
    }
    let unknown = object.keys.filter { !["command", "args", "id"].contains($0) }.sorted()
    guard unknown.isEmpty else {
      return (
        .invalid(
          PlaybackError(
            .badJSON, "unknown key \(Self.quoted(unknown[0])) in a JSON command; the keys are command, args and id")),
        clientID
      )
    }
    guard let command = object["command"] as? String else {
      return (.invalid(PlaybackError(.badJSON, "a JSON command needs \"command\" as a string; \(shape)")), clientID)
    }
    var words: [String] = []
    if let args = object["args"] {
      guard let list = args as? [Any] else {
        return (
          .invalid(PlaybackError(.badJSON, "\"args\" must be an array of strings and numbers; \(shape)")), clientID
        )
      }
      for arg in list {
        switch arg {
        case let string as String: words.append(string)
        case let number as NSNumber where !Self.isBoolean(number) && number.doubleValue.isFinite:
          let value = number.doubleValue
          words.append(value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value))
        default:
          return (
            .invalid(PlaybackError(.badJSON, "\"args\" must be an array of strings and numbers; \(shape)")), clientID
          )
        }
      }
    }
    guard !command.contains(where: { $0 == "\n" || $0 == "\r" }) else {
      return (.invalid(PlaybackError(.badJSON, "\"command\" must be one line; \(shape)")), clientID)
    }
    // `open` takes its path as it is, spaces and all; everything else is read as a text line.
    if Self.asciiLowercased(command) == "open", words.count == 1 {
      let path = words[0]
      guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\n" || $0 == "\r" }) else {
        return (.invalid(Self.bad("open needs a file path without control characters")), clientID)
      }
      return (.command(.open(path)), clientID)
    }
    if let spaced = words.first(where: { $0.isEmpty || $0.contains(where: { $0 == " " || $0 == "\t" || $0 == "#" }) }) {
      return (.invalid(Self.bad("argument \(Self.quoted(spaced)) may not be empty or hold spaces or #")), clientID)
    }
    let line = ([command] + words).joined(separator: " ")
    switch parse(line) {
    case .empty:
      return (.invalid(PlaybackError(.badJSON, "\"command\" is empty; \(shape)")), clientID)
    case let parsed:
      return (parsed, clientID)
    }
  }

  /// The deepest nesting of `[` and `{` outside strings, counted without parsing (so a hostile
  /// line cannot make the JSON parser recurse deeply).
  static func jsonDepth(_ text: String) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in text.utf8 {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return deepest
  }

  /// JSONSerialization gives booleans as NSNumber too; tell them apart.
  static func isBoolean(_ number: NSNumber) -> Bool {
    // Booleans are the only NSNumbers JSONSerialization makes with the C type `char`.
    String(cString: number.objCType) == "c"
  }
}

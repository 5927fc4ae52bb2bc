// CommandParser: turns one line of the command language into a Command, or a clear error.
//
// Grammar (DESIGN §2), one command per line:
//
//   line     := ws* [ verb (ws+ argument)* ] ws* [ '#' comment ] [CR | LF]*
//   ws       := ' ' | '\t'
//   verb     := play | pause | toggle | status | info | frame | help | quit | exit   (no arguments)
//             | scrub time [mode] | skip seconds [mode]                     (ASCII case-insensitive)
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
    "play", "pause", "toggle", "scrub", "skip", "status", "info", "frame", "help", "quit",
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

  /// Verbs of the full command language (DESIGN §2) that this version does not have yet. They are
  /// unknown commands, but the message says so instead of suggesting a look-alike verb.
  static let plannedVerbs: Set<String> = ["step", "rate", "open", "close", "wait", "expect"]

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
    case "scrub": return parseScrub(Array(arguments))
    case "skip": return parseSkip(Array(arguments))
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

  // MARK: - Unknown verbs

  static func unknownCommand(_ typed: String, lowercased: String) -> PlaybackError {
    let message =
      if plannedVerbs.contains(lowercased) {
        "unknown command \(quoted(typed)): this version of vpk does not have it yet; type help for the list of commands."
      } else if let suggestion = suggestion(for: lowercased) {
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

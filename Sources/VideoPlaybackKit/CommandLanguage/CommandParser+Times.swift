// The grammar of times and numbers, and the two seeks that take them (scrub, skip).
//
//   time     := [sign] clock | [sign] number '%'
//   seconds  := [sign] clock
//   clock    := number | int ':' sexa | int ':' sexa-int ':' sexa           (s, m:ss, h:mm:ss)
//   number   := digit+ ['.' digit*] | '.' digit+                            (no exponent, inf, nan, hex, _ or ,)
//   mode     := exact | keyframe                                            (ASCII case-insensitive)
//
// The sign applies to the whole time (`-1:30` is -90 s). Only the last field of a clock time may have a
// fraction; the fields after the first must be below 60; the first field has no upper bound. A time longer
// than 32 characters is rejected as too long before it is looked at.

extension CommandParser {
  func parseScrub(_ arguments: [String]) -> ParsedLine {
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

  func parseSkip(_ arguments: [String]) -> ParsedLine {
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
  func parseSeek(
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
    case "next-keyframe": return .success(.nextKeyframe)
    default:
      return .failure(
        bad("\(verb) mode \(quoted(text)) is not known; use exact, keyframe or next-keyframe, e.g. \(example)"))
    }
  }

  // MARK: - Times

  /// Parses `83.5`, `1:23.5`, `1:02:03.25`, `-1:30` and (when allowed) `50%`.
  /// Parses a time as `scrub` takes it (`83.5`, `1:23.5`, `1:02:03.25`, `50%`), for options such
  /// as `--start`; the error's message says what is accepted, naming `what`.
  package static func parseTime(_ text: String, for what: String) -> Result<TimeSpec, PlaybackError> {
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
}

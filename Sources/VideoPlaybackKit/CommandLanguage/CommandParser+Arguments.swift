// The grammar of the verbs with arguments of their own: step, rate, open and snapshot.
//
//   step [count]      count := [sign] digit+  (not 0, at most 100000 frames)
//   rate number       within PlaybackLimits.rate (0.01 to 100), a minus playing backward
//   rate *f | /f      the rate now times (or divided by) f, f within PlaybackLimits.rate
//   open path         the rest of the line (a ` #` comment cut off), or a "double-quoted" string
//   snapshot [path]   the same, or nothing

extension CommandParser {
  func parseStep(_ arguments: [String]) -> ParsedLine {
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

  /// How `rate` is written, its range from `PlaybackLimits.rate`.
  static let rateUsage: String = {
    let slowest = PlaybackLimits.text(PlaybackLimits.rate.lowerBound)
    let fastest = PlaybackLimits.text(PlaybackLimits.rate.upperBound)
    return "rate takes one speed between \(slowest) and \(fastest), or between -\(slowest) and -\(fastest) to play "
      + "backward, e.g. rate 2, rate 0.5 or rate -1"
  }()

  func parseRate(_ arguments: [String]) -> ParsedLine {
    let usage = Self.rateUsage
    guard arguments.count == 1, let text = arguments.first else { return .invalid(Self.bad(usage)) }
    // `*f` and `/f` scale the rate there is when the command runs.
    let factorUsage =
      "a factor is between \(PlaybackLimits.text(PlaybackLimits.rate.lowerBound)) and "
      + "\(PlaybackLimits.text(PlaybackLimits.rate.upperBound)): rate *1.1 is faster, rate /1.1 slower"
    if let operation = text.utf8.first, operation == UInt8(ascii: "*") || operation == UInt8(ascii: "/") {
      guard text.utf8.count <= Self.maxArgumentLength, let factor = Self.decimal(Array(text.utf8.dropFirst()))
      else {
        return .invalid(Self.bad("rate factor \(Self.quoted(text)) is not a number; \(factorUsage)"))
      }
      guard PlaybackLimits.rate.contains(factor.value) else {
        return .invalid(Self.bad("rate factor \(Self.quoted(text)) is out of range; \(factorUsage)"))
      }
      return .command(.scaleRate(operation == UInt8(ascii: "*") ? factor.value : 1 / factor.value))
    }
    // A leading minus plays backward, at the speed the rest says.
    let backward = text.utf8.first == UInt8(ascii: "-")
    guard text.utf8.count <= Self.maxArgumentLength,
      let number = Self.decimal(Array(text.utf8.dropFirst(backward ? 1 : 0)))
    else {
      return .invalid(Self.bad("rate \(Self.quoted(text)) is not a number; \(usage)"))
    }
    guard PlaybackLimits.rate.contains(number.value) else {
      return .invalid(Self.bad("rate \(Self.quoted(text)) is out of range; \(usage)"))
    }
    return .command(.rate(backward ? -number.value : number.value))
  }

  /// `open <path>`: the rest of the line, or one double-quoted string (with `\"` and `\\`).
  func parseOpen(_ line: String) -> ParsedLine {
    let usage = "open needs a file: open movie.mp4, or open \"name with # or quotes.mp4\""
    switch Self.pathArgument(of: line, verb: "open", usage: usage) {
    case .failure(let error): return .invalid(error)
    case .success(nil): return .invalid(Self.bad(usage))
    case .success(let path?): return .command(.open(path))
    }
  }

  /// `snapshot [path]`: as `open` takes its path; no path is the default name.
  func parseSnapshot(_ line: String) -> ParsedLine {
    let usage = "snapshot takes one file: snapshot, snapshot shot.png, or snapshot \"name with spaces.png\""
    switch Self.pathArgument(of: line, verb: "snapshot", usage: usage) {
    case .failure(let error): return .invalid(error)
    case .success(let path): return .command(.snapshot(path))
    }
  }

  /// The text of the double-quoted string `text` starts with (`\"` and `\\` inside), and the index of its closing
  /// quote; nil when it has none.
  static func unquoted(_ text: Substring) -> (String, Substring.Index)? {
    var content = ""
    var escaped = false
    for index in text.indices.dropFirst() {
      let character = text[index]
      if escaped {
        content.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        return (content, index)
      } else {
        content.append(character)
      }
    }
    return nil
  }

  /// The path after the verb: the rest of the line (a ` #` comment cut off), or one double-quoted string (with `\"`
  /// and `\\`); nil when there is none.
  static func pathArgument(of line: String, verb: String, usage: String) -> Result<String?, PlaybackError> {
    var scalars = Substring(line).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    while let first = scalars.first, isSeparator(first) { scalars.removeFirst() }
    scalars.removeFirst(min(verb.unicodeScalars.count, scalars.count))  // the verb
    while let first = scalars.first, isSeparator(first) { scalars.removeFirst() }
    while let last = scalars.last, isSeparator(last) || last == "\r" || last == "\n" { scalars.removeLast() }
    var rest = String(scalars)
    if rest.hasPrefix("\"") {
      guard let (path, closedAt) = unquoted(Substring(rest)) else {
        return .failure(bad("\(verb): the quoted path has no closing quote; \(usage)"))
      }
      let after = rest[rest.index(after: closedAt)...].drop { $0 == " " || $0 == "\t" }
      guard after.isEmpty || after.hasPrefix("#") else {
        return .failure(bad("\(verb) takes one path; put a path with spaces in double quotes"))
      }
      guard !path.isEmpty else { return .failure(bad(usage)) }
      rest = path
    } else if rest.hasPrefix("#") {
      rest = ""  // `open # note`: the ` #` after the verb starts a comment, as on every other line
    } else if let comment = rest.range(of: " #") ?? rest.range(of: "\t#") {
      rest = String(rest[..<comment.lowerBound]).trimmingSeparators()
    }
    guard !rest.isEmpty else { return .success(nil) }
    guard !rest.unicodeScalars.contains(where: { $0.value == 0 }) else {
      return .failure(bad("\(verb): a path cannot hold a NUL character"))
    }
    return .success(rest)
  }
}

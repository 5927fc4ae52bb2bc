// The grammar of the queue's verbs.
//
//   next | prev
//   goto N                      N := digit+  (the entry's number, from 1)
//   queue [list]
//   queue add OPTION* PATH | queue add-next OPTION* PATH | queue insert N OPTION* PATH
//                               PATH as `open` takes it (the rest of the line, or "double-quoted")
//                               OPTION := start=TIME | pause=yes|no | rate=X  (for that entry's file only)
//                                       | title=WORD | title="TEXT"  (the entry's title, as a list gives one)
//   queue remove N | queue move N M | queue clear | queue shuffle | queue unshuffle | queue loop yes|no

extension CommandParser {
  static let queueUsage =
    "queue takes list, add PATH, add-next PATH, insert N PATH, remove N, move N M, clear, shuffle, unshuffle or "
    + "loop yes|no: "
    + "queue add ep2.mp4, queue move 3 1"

  func parseGoto(_ arguments: [String]) -> ParsedLine {
    let usage = "goto takes one entry number, counted from 1: goto 3"
    guard arguments.count == 1 else { return .invalid(Self.bad(usage)) }
    switch Self.entryNumber(arguments[0], usage: usage) {
    case .failure(let error): return .invalid(error)
    case .success(let number): return .command(.goto(number))
    }
  }

  func parseQueue(_ line: String, _ arguments: [String]) -> ParsedLine {
    guard let first = arguments.first else { return .command(.queue(.list)) }
    let sub = Self.asciiLowercased(first)
    let rest = Array(arguments.dropFirst())
    func numbers(_ count: Int, _ usage: String) -> Result<[Int], PlaybackError> {
      guard rest.count == count else { return .failure(Self.bad(usage)) }
      var values: [Int] = []
      for text in rest {
        switch Self.entryNumber(text, usage: usage) {
        case .failure(let error): return .failure(error)
        case .success(let number): values.append(number)
        }
      }
      return .success(values)
    }
    switch sub {
    case "list", "clear", "shuffle", "unshuffle":
      guard rest.isEmpty else {
        return .invalid(Self.bad("queue \(sub) takes no arguments; write just 'queue \(sub)'"))
      }
      let edits: [String: QueueEdit] = ["list": .list, "clear": .clear, "shuffle": .shuffle, "unshuffle": .unshuffle]
      return .command(.queue(edits[sub] ?? .list))
    case "add", "add-next", "insert":
      return parseQueueAdd(line, sub, rest)
    case "loop":
      guard rest.count == 1, ["yes", "no"].contains(Self.asciiLowercased(rest[0])) else {
        return .invalid(Self.bad("queue loop takes yes or no: queue loop yes"))
      }
      return .command(.queue(.loop(Self.asciiLowercased(rest[0]) == "yes")))
    case "remove":
      switch numbers(1, "queue remove takes one entry number, counted from 1: queue remove 2") {
      case .failure(let error): return .invalid(error)
      case .success(let values): return .command(.queue(.remove(values[0])))
      }
    case "move":
      switch numbers(2, "queue move takes two entry numbers, from and to: queue move 3 1") {
      case .failure(let error): return .invalid(error)
      case .success(let values): return .command(.queue(.move(values[0], values[1])))
      }
    default:
      return .invalid(Self.bad("unknown queue command \(Self.quoted(first)); \(Self.queueUsage)"))
    }
  }

  /// `queue add|add-next [OPTION …] PATH` and `queue insert N [OPTION …] PATH`.
  private func parseQueueAdd(_ line: String, _ sub: String, _ rest: [String]) -> ParsedLine {
    let number = sub == "insert" ? "N " : ""
    let usage =
      "queue \(sub) needs \(sub == "insert" ? "an entry number and " : "")a file, options first: queue \(sub) \(number)"
      + "ep2.mp4, queue \(sub) \(number)start=1:30 pause=yes rate=1.5 title=\"Episode 2\" \"name with # or quotes.mp4\""
    var words = 2
    var slot: QueueSlot = sub == "add" ? .end : .afterCurrent
    if sub == "insert" {
      guard let first = rest.first else { return .invalid(Self.bad(usage)) }
      switch Self.entryNumber(first, usage: usage) {
      case .failure(let error): return .invalid(error)
      case .success(let value): slot = .number(value)
      }
      words += 1
    }
    var options = EntryOptions()
    // The options are read from the line itself: a quoted title may hold spaces and #.
    var remaining = Substring(Self.afterWords(line, words))
    while true {
      let word = remaining.drop { Self.isSeparator($0) }
      let token = word.prefix { !Self.isSeparator($0) }
      guard let equals = token.firstIndex(of: "="),
        ["start", "pause", "rate", "title"].contains(Self.asciiLowercased(String(token[..<equals])))
      else { break }
      let name = Self.asciiLowercased(String(token[..<equals]))
      let valueStart = word.index(after: equals)
      if name == "title" {
        switch Self.titleValue(word[valueStart...]) {
        case .failure(let error): return .invalid(error)
        case .success(let (title, after)):
          options.title = title
          remaining = after
        }
        continue
      }
      switch Self.entryOption(name, String(token[valueStart...])) {
      case .failure(let error): return .invalid(error)
      case .success(let apply): apply(&options)
      }
      remaining = word[token.endIndex...]
    }
    switch Self.pathArgument(of: String(remaining), verb: "", usage: usage) {
    case .failure(let error): return .invalid(error)
    case .success(nil): return .invalid(Self.bad(usage))
    case .success(let path?):
      if options == EntryOptions(), sub != "insert" {
        return .command(.queue(sub == "add" ? .add(path) : .addNext(path)))
      }
      return .command(.queue(.insert(path, slot, options)))
    }
  }

  /// A `title=` option's value at the start of `text`: one word, or a double-quoted text (`\"` and `\\` inside);
  /// with what follows it. Not empty, and without control characters.
  static func titleValue(_ text: Substring) -> Result<(String, Substring), PlaybackError> {
    let usage = "write title=Pilot, or title=\"Episode 2\" for a title with spaces"
    var title = ""
    var after = text
    if text.first == "\"" {
      guard let (quoted, closedAt) = unquoted(text) else {
        return .failure(bad("title: the quoted title has no closing quote; \(usage)"))
      }
      title = quoted
      after = text[text.index(after: closedAt)...]
      guard after.first.map({ Self.isSeparator($0) }) ?? true else {
        return .failure(bad("title: put a space after the quoted title; \(usage)"))
      }
    } else {
      let word = text.prefix { !Self.isSeparator($0) }
      title = String(word)
      after = text[word.endIndex...]
    }
    guard !title.isEmpty else { return .failure(bad("title= needs a title; \(usage)")) }
    guard !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      return .failure(bad("title: a title cannot hold control characters; \(usage)"))
    }
    return .success((title, after))
  }

  /// One of an entry's options: `start=TIME` (as `scrub` takes it), `pause=yes|no`, `rate=X` (a speed).
  static func entryOption(_ name: String, _ value: String) -> Result<(inout EntryOptions) -> Void, PlaybackError> {
    switch name {
    case "start":
      return parseTime(value, for: "start").map { time in { $0.start = .time(time) } }
    case "pause":
      switch asciiLowercased(value) {
      case "yes": return .success { $0.paused = true }
      case "no": return .success { $0.paused = false }
      default: return .failure(bad("pause=\(quoted(value)) is not yes or no; write pause=yes or pause=no"))
      }
    default:
      guard value.utf8.count <= maxArgumentLength, let rate = decimal(Array(value.utf8)),
        PlaybackLimits.rate.contains(rate.value)
      else {
        return .failure(
          bad(
            "rate=\(quoted(value)) is not a speed from \(PlaybackLimits.text(PlaybackLimits.rate.lowerBound)) to "
              + "\(PlaybackLimits.text(PlaybackLimits.rate.upperBound)); write rate=1.5"))
      }
      return .success { $0.rate = rate.value }
    }
  }

  /// An entry's number: a whole number from 1 (at most seven digits).
  static func entryNumber(_ text: String, usage: String) -> Result<Int, PlaybackError> {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty, bytes.count <= 7, bytes.allSatisfy({ (48...57).contains($0) }),
      let number = Int(String(decoding: bytes, as: UTF8.self)), number >= 1
    else {
      return .failure(bad("entry number \(quoted(text)) is not a whole number from 1; \(usage)"))
    }
    return .success(number)
  }

  /// The line after its first `count` words (`queue add`, and the options after it) and the separators after them.
  static func afterWords(_ line: String, _ count: Int) -> String {
    var scalars = Substring(line).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    for _ in 0..<count {
      while let first = scalars.first, isSeparator(first) { scalars.removeFirst() }
      while let first = scalars.first, !isSeparator(first) { scalars.removeFirst() }
    }
    return String(scalars)
  }
}

// The grammar of the queue's verbs.
//
//   next | prev
//   goto N                      N := digit+  (the entry's number, from 1)
//   queue [list]
//   queue add PATH | queue add-next PATH      PATH as `open` takes it (the rest of the line, or "double-quoted")
//   queue remove N | queue move N M | queue clear | queue shuffle

extension CommandParser {
  static let queueUsage =
    "queue takes list, add PATH, add-next PATH, remove N, move N M, clear or shuffle: queue add ep2.mp4, queue move 3 1"

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
    case "list", "clear", "shuffle":
      guard rest.isEmpty else {
        return .invalid(Self.bad("queue \(sub) takes no arguments; write just 'queue \(sub)'"))
      }
      return .command(.queue(sub == "list" ? .list : sub == "clear" ? .clear : .shuffle))
    case "add", "add-next":
      let usage = "queue \(sub) needs a file: queue \(sub) ep2.mp4, or queue \(sub) \"name with # or quotes.mp4\""
      switch Self.pathArgument(of: Self.afterTwoWords(line), verb: "", usage: usage) {
      case .failure(let error): return .invalid(error)
      case .success(nil): return .invalid(Self.bad(usage))
      case .success(let path?): return .command(.queue(sub == "add" ? .add(path) : .addNext(path)))
      }
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

  /// The line after its first two words (`queue add`) and the separators after them.
  static func afterTwoWords(_ line: String) -> String {
    var scalars = Substring(line).unicodeScalars
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    for _ in 0..<2 {
      while let first = scalars.first, isSeparator(first) { scalars.removeFirst() }
      while let first = scalars.first, !isSeparator(first) { scalars.removeFirst() }
    }
    return String(scalars)
  }
}

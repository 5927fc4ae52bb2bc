// JSON commands: a line that starts with `{` is a JSON object naming a command of the same language,
// `{"command": "scrub", "args": [10, "exact"], "id": "a1"}`. It is checked for shape, turned into a
// text line, and parsed by the same grammar; the client's id comes back with every event it causes.

import Foundation

extension CommandParser {
  /// The deepest nesting of arrays and objects a JSON command may have (it needs 2).
  static let maxJSONDepth = 4
  /// The longest client id, in characters.
  static let maxClientIDLength = 256

  /// Parses a line of either form: a text command, or (when it starts with `{`) a JSON object
  /// `{"command": "scrub", "args": [10, "exact"], "id": "a1"}`. `command` may also hold a whole
  /// line (`"scrub 10 exact"`); `args` and `id` are optional. The id comes back even when the
  /// command is invalid, so the error can carry it.
  package func parseInput(_ line: String) -> (line: ParsedLine, clientID: ClientID?) {
    let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
    guard trimmed.hasPrefix("{") else { return (parse(line), nil) }
    return parseJSON(String(trimmed))
  }

  func parseJSON(_ text: String) -> (line: ParsedLine, clientID: ClientID?) {
    let shape =
      "send {\"command\": \"scrub\", \"args\": [10], \"id\": \"a1\"} (args and id optional), one object per line"
    guard Self.jsonDepth(text) <= Self.maxJSONDepth,
      let data = text.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any]
    else {
      return (.invalid(PlaybackError(.badJSON, "not a JSON object; \(shape)")), nil)
    }
    let clientID: ClientID?
    switch Self.clientID(object["id"]) {
    case .success(let id): clientID = id
    case .failure:
      return (
        .invalid(
          PlaybackError(
            .badID, "the id must be a string (at most \(Self.maxClientIDLength) characters) or a number; \(shape)")),
        nil
      )
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
    guard let words = Self.words(of: object["args"]) else {
      return (
        .invalid(PlaybackError(.badJSON, "\"args\" must be an array of strings and numbers; \(shape)")), clientID
      )
    }
    guard !command.contains(where: { $0 == "\n" || $0 == "\r" }) else {
      return (.invalid(PlaybackError(.badJSON, "\"command\" must be one line; \(shape)")), clientID)
    }
    // `open` and `snapshot` take their path as it is, spaces and all; everything else is read as a text line.
    let verb = Self.asciiLowercased(command)
    if verb == "open" || verb == "snapshot", words.count == 1 {
      let path = words[0]
      guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\n" || $0 == "\r" }) else {
        return (.invalid(Self.bad("\(verb) needs a file path without control characters")), clientID)
      }
      return (.command(verb == "open" ? .open(path) : .snapshot(path)), clientID)
    }
    // `queue add` and `queue add-next` take their path as it is, as `open` does.
    if verb == "queue", words.count == 2, ["add", "add-next"].contains(Self.asciiLowercased(words[0])) {
      let path = words[1]
      guard !path.isEmpty, !path.unicodeScalars.contains(where: { $0.value == 0 || $0 == "\n" || $0 == "\r" }) else {
        return (.invalid(Self.bad("queue \(words[0]) needs a file path without control characters")), clientID)
      }
      let edit: QueueEdit = Self.asciiLowercased(words[0]) == "add" ? .add(path) : .addNext(path)
      return (.command(.queue(edit)), clientID)
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

  /// The client's `id`: absent, a string of at most `maxClientIDLength` characters, or a finite number.
  private static func clientID(_ raw: Any?) -> Result<ClientID?, PlaybackError> {
    switch raw {
    case nil: .success(nil)
    case let string as String where string.count <= maxClientIDLength: .success(.string(string))
    case let number as NSNumber where !isBoolean(number) && number.doubleValue.isFinite:
      .success(.number(number.doubleValue))
    default: .failure(PlaybackError(.badID, "not a string or a number"))
    }
  }

  /// `args` as the words of a text line (numbers written as the language writes them), or nil when it is not an
  /// array of strings and finite numbers; no `args` is no words.
  private static func words(of args: Any?) -> [String]? {
    guard let args else { return [] }
    guard let list = args as? [Any] else { return nil }
    var words: [String] = []
    for arg in list {
      switch arg {
      case let string as String: words.append(string)
      case let number as NSNumber where !isBoolean(number) && number.doubleValue.isFinite:
        let value = number.doubleValue
        words.append(NumberText.wholeNumber(value).map { String($0) } ?? String(value))
      default:
        return nil
      }
    }
    return words
  }

  /// The deepest nesting of `[` and `{` outside strings, counted without parsing (so a hostile
  /// line cannot make the JSON parser recurse deeply).
  package static func jsonDepth(_ text: String) -> Int {
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

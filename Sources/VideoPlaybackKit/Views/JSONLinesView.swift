// JSONLinesView: one JSON object per line, for programs. The first line is a `hello` naming the
// protocol version; then each event as `{"event":…,"id":…,<fields in order>}`. Status lines are
// for people and are not shown.
//
// The encoding is written by hand so keys keep the presenter's order and numbers keep their type:
// integers without a decimal point, other numbers in Swift's shortest form, non-finite ones as null.

@MainActor
package final class JSONLinesView: PlaybackView {
  /// The version of this JSON-lines protocol, announced in `hello`.
  package static let protocolVersion = 2
  /// What this vpk understands beyond protocol 1, announced in `hello`.
  package static let capabilities = [
    "json-commands", "client-ids", "virtual-clock", "wait", "expect", "step", "rate", "open-close", "loop", "snapshot",
  ]

  private let output: any TextOutput
  private let version: String
  private let onClosed: @MainActor () -> Void
  private var saidHello = false
  private var closed = false

  /// - Parameters:
  ///   - version: vpk's version, announced in `hello`.
  ///   - onClosed: called once, when a write first fails (the reader went away).
  package init(
    output: any TextOutput, version: String = VideoPlaybackKitVersion.current, onClosed: @escaping @MainActor () -> Void
  ) {
    self.output = output
    self.version = version
    self.onClosed = onClosed
  }

  // MARK: - PlaybackView

  package func displayEvent(_ event: EventViewModel) {
    sayHello()
    emit(Self.encode(event) + "\n")
  }

  /// Not shown; the first call (the session starting) says hello.
  package func displayStatusLine(_ status: StatusLineViewModel) {
    sayHello()
  }

  package func displayFinish() {
    sayHello()
  }

  /// Writes `hello` now, if it has not been written (a socket client is greeted as it connects).
  package func displayGreeting() {
    sayHello()
  }

  // MARK: - Encoding

  /// The `hello` line's object, written before anything else.
  var hello: EventViewModel {
    EventViewModel(
      event: "hello", commandID: nil,
      fields: [
        .init("protocol", .integer(Self.protocolVersion)), .init("version", .string(version)),
        .init("capabilities", .list(Self.capabilities.map { .string($0) })),
      ], text: "hello")
  }

  private func sayHello() {
    guard !saidHello else { return }
    saidHello = true
    emit(Self.encode(hello) + "\n")
  }

  /// One object on one line: `event`, then `id` when there is one, then the fields in order.
  nonisolated static func encode(_ event: EventViewModel) -> String {
    var members = ["\"event\":" + encode(event.event)]
    // A client's own id comes back as `id`; the command's ordinal then goes in `seq`.
    if let clientID = event.clientID {
      members.append("\"id\":" + encode(clientID))
      if let id = event.commandID { members.append("\"seq\":" + String(id)) }
    } else if let id = event.commandID {
      members.append("\"id\":" + String(id))
    }
    for field in event.fields {
      members.append(encode(field.key) + ":" + encode(field.value))
    }
    return "{" + members.joined(separator: ",") + "}"
  }

  nonisolated static func encode(_ value: EventViewModel.Value) -> String {
    switch value {
    case .string(let string): encode(string)
    case .number(let number): encode(number)
    case .integer(let integer): String(integer)
    case .bool(let bool): bool ? "true" : "false"
    case .null: "null"
    case .list(let values): "[" + values.map(encode).joined(separator: ",") + "]"
    }
  }

  /// Swift's shortest form (`12.345`, `60.0`, `1e-07`), all valid JSON; null when not finite.
  package nonisolated static func encode(_ number: Double) -> String {
    number.isFinite ? number.description : "null"
  }

  /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t` … or `\u00XX`, and the
  /// line separators U+2028 and U+2029 escaped too; everything else as UTF-8.
  package nonisolated static func encode(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\u{2028}"
        || scalar == "\u{2029}":
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default:
        result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  private func emit(_ text: String) {
    guard !closed else { return }
    if !output.write(text) {
      closed = true
      onClosed()
    }
  }
}

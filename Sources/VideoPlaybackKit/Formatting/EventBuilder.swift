// EventBuilder: collects one event's typed fields and its text line as the presenter adds them, so
// the text view and the JSON view show the same values in the same order.

/// Collects an event's typed fields and its text, `key=value` by `key=value`, in one order.
struct EventBuilder {
  let event: String
  let commandID: Int?
  let clientID: ClientID?
  let severity: EventViewModel.Severity
  private(set) var fields: [EventViewModel.Field] = []
  private var parts: [String] = []

  init(event: String, commandID: Int?, clientID: ClientID? = nil, severity: EventViewModel.Severity = .info) {
    self.event = event
    self.commandID = commandID
    self.clientID = clientID
    self.severity = severity
  }

  /// `event`, `event #id`, or `event #<client id>` for a JSON command that gave one.
  var header: String {
    if let clientID { return "\(event) #\(Self.text(clientID))" }
    return commandID.map { "\(event) #\($0)" } ?? event
  }

  var model: EventViewModel {
    EventViewModel(
      event: event, commandID: commandID, clientID: clientID.map(Self.value), fields: fields,
      text: ([header] + parts).joined(separator: " "),
      severity: severity)
  }

  /// A client id as text: strings quoted when needed, whole numbers without a point.
  static func text(_ id: ClientID) -> String {
    switch id {
    case .string(let string): TextQuoting.value(string)
    case .number(let number): NumberText.trimmed(number, decimals: 6)
    }
  }

  static func value(_ id: ClientID) -> EventViewModel.Value {
    switch id {
    case .string(let string): .string(string)
    case .number(let number) where NumberText.wholeNumber(number) != nil: .integer(Int(number))
    case .number(let number): .number(number)
    }
  }

  mutating func clientID(_ key: String, _ id: ClientID) {
    add(key, Self.value(id), Self.text(id))
  }

  /// A value `expect` compared: numbers with up to six decimals, text, true/false, or none.
  mutating func expectValue(_ key: String, _ value: ExpectValue) {
    switch value {
    case .number(let number):
      add(key, .number(NumberText.rounded(number, decimals: 6)), NumberText.trimmed(number, decimals: 6))
    case .string(let string): self.string(key, string)
    case .bool(let bool): self.bool(key, bool)
    case .none: none(key)
    }
  }

  /// Seconds: three decimals in text, microseconds in JSON.
  mutating func time(_ key: String, _ time: MediaTime) {
    add(
      key, .number(NumberText.rounded(time.seconds, decimals: 6)),
      NumberText.seconds(time.seconds))
  }

  /// A decimal number: `decimals` places in text (trailing zeros dropped when `trimmed`), the same
  /// rounding in JSON unless `jsonDecimals` asks for more.
  mutating func decimal(
    _ key: String, _ value: Double, decimals: Int, trimmed: Bool = false, jsonDecimals: Int? = nil
  ) {
    let text =
      trimmed
      ? NumberText.trimmed(value, decimals: decimals)
      : NumberText.fixed(value, decimals: decimals)
    add(key, .number(NumberText.rounded(value, decimals: jsonDecimals ?? decimals)), text)
  }

  mutating func integer(_ key: String, _ value: Int) {
    add(key, .integer(value), String(value))
  }

  mutating func string(_ key: String, _ value: String) {
    add(key, .string(value), TextQuoting.value(value))
  }

  mutating func bool(_ key: String, _ value: Bool) {
    add(key, .bool(value), value ? "true" : "false")
  }

  /// Something the media does not have: `key=none` in text, `null` in JSON.
  mutating func none(_ key: String) {
    add(key, .null, "none")
  }

  private mutating func add(_ key: String, _ value: EventViewModel.Value, _ text: String) {
    fields.append(EventViewModel.Field(key, value))
    parts.append("\(key)=\(text)")
  }
}

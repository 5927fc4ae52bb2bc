// DisplayLine: what a view shows, as one JSON line, so a view in another process can show it. A control-socket
// client that asks for `format display` (`vpk attach` on a terminal) gets these instead of events: the session's
// presenter formats for it as for `vpk play`'s own terminal, and attach's text view shows the result.
//
//   {"display":"event","event":"seeked","fields":{"position":2.0,…},"severity":"info","text":"seeked #2 …",…}
//   {"display":"event","event":"status","fields":{…},"id":"vpk-attach-end","severity":"info",…}
//   {"display":"status","forms":["⏸ 00:00:05.000 / 00:00:10.000  50.0%  [████…]", "⏸ 00:00:05.000 / …"]}
//   {"display":"finish"}

import Foundation

package enum DisplayLine: Sendable, Equatable {
  /// An event, as the text view shows it (only the parts a text view uses).
  case event(EventViewModel)
  case statusLine(StatusLineViewModel)
  /// The session's last event has been shown.
  case finish

  private struct Wire: Codable {
    var display: String
    var event: String?
    /// The client's own id for the command the event answers, when it gave one as a string.
    var id: String?
    /// The event's typed fields, as its JSON line has them, so a view in another process reads values, not text.
    var fields: [String: FieldValue]?
    var text: String?
    var severity: String?
    var transient: Bool?
    var forms: [String]?
  }

  /// One JSON line, without its `\n`.
  package var encoded: String {
    let wire: Wire
    switch self {
    case .event(let event):
      let id: String? = if case .string(let id)? = event.clientID { id } else { nil }
      wire = Wire(
        display: "event", event: event.event, id: id,
        fields: Dictionary(
          event.fields.map { ($0.key, FieldValue($0.value)) }, uniquingKeysWith: { first, _ in first }),
        text: event.text, severity: Self.name(of: event.severity), transient: event.isTransient)
    case .statusLine(let status):
      wire = Wire(display: "status", forms: status.forms)
    case .finish:
      wire = Wire(display: "finish")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Strings and bools only: encoding cannot fail.
    return String(decoding: (try? encoder.encode(wire)) ?? Data(), as: UTF8.self)
  }

  /// The line's display, or nil when it is not one (an event line of another format, garbage).
  package init?(decoding line: String) {
    guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(line.utf8)) else { return nil }
    switch wire.display {
    case "event":
      guard let text = wire.text else { return nil }
      self = .event(
        EventViewModel(
          event: wire.event ?? "", commandID: nil, clientID: wire.id.map { .string($0) },
          fields: (wire.fields ?? [:]).sorted { $0.key < $1.key }.map { EventViewModel.Field($0.key, $0.value.value) },
          text: text,
          severity: Self.severity(named: wire.severity), isTransient: wire.transient ?? false))
    case "status":
      guard let forms = wire.forms else { return nil }
      self = .statusLine(StatusLineViewModel(forms: forms))
    case "finish":
      self = .finish
    default:
      return nil
    }
  }

  /// A field's value on the wire: JSON's own types.
  struct FieldValue: Codable, Equatable {
    var value: EventViewModel.Value

    init(_ value: EventViewModel.Value) { self.value = value }

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        value = .null
      } else if let bool = try? container.decode(Bool.self) {
        value = .bool(bool)
      } else if let integer = try? container.decode(Int.self) {
        value = .integer(integer)
      } else if let number = try? container.decode(Double.self) {
        value = .number(number)
      } else if let string = try? container.decode(String.self) {
        value = .string(string)
      } else {
        value = .list(try container.decode([FieldValue].self).map(\.value))
      }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch value {
      case .string(let string): try container.encode(string)
      case .number(let number): if number.isFinite { try container.encode(number) } else { try container.encodeNil() }
      case .integer(let integer): try container.encode(integer)
      case .bool(let bool): try container.encode(bool)
      case .null: try container.encodeNil()
      case .list(let values): try container.encode(values.map(FieldValue.init))
      }
    }
  }

  private static func name(of severity: EventViewModel.Severity) -> String {
    switch severity {
    case .info: "info"
    case .notice: "notice"
    case .error: "error"
    }
  }

  private static func severity(named name: String?) -> EventViewModel.Severity {
    switch name {
    case "notice": .notice
    case "error": .error
    default: .info
    }
  }
}

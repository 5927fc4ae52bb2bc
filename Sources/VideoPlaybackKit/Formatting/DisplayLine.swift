// DisplayLine: what a view shows, as one JSON line, so a view in another process can show it. A control-socket
// client that asks for `format display` (`vpk attach` on a terminal) gets these instead of events: the session's
// presenter formats for it as for `vpk play`'s own terminal, and attach's text view shows the result.
//
//   {"display":"event","event":"seeked","severity":"info","text":"seeked #2 …","transient":false}
//   {"display":"event","event":"status","id":"vpk-attach-end","severity":"info","text":"status #vpk-attach-end …",…}
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
        display: "event", event: event.event, id: id, text: event.text, severity: Self.name(of: event.severity),
        transient: event.isTransient)
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
          event: wire.event ?? "", commandID: nil, clientID: wire.id.map { .string($0) }, fields: [], text: text,
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

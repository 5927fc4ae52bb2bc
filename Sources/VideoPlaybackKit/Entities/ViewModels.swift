// View models: what the presenter hands the views. Every string in them is already formatted;
// a view only writes them out (text) or serialises them (JSON lines).

/// One event, ready to show as a line of text or as a JSON object.
public struct EventViewModel: Sendable, Equatable {
  /// A field's value, typed so the JSON view writes numbers as numbers.
  public enum Value: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
    case null
    indirect case list([Value])
  }

  public struct Field: Sendable, Equatable {
    public var key: String
    public var value: Value
    package init(_ key: String, _ value: Value) {
      self.key = key
      self.value = value
    }
  }

  /// How the text view may colour the line (only on a terminal, and never with NO_COLOR).
  public enum Severity: Sendable, Equatable {
    case info, notice, error
  }

  /// The event's name: `ready`, `state`, `progress`, `seeked`, `error` …
  public var event: String
  /// The id of the command that caused it, if any: its ordinal among the commands received.
  public var commandID: Int?
  /// The id the client gave that command (JSON commands), which views show instead of `commandID`.
  public var clientID: Value?
  /// The event's fields in a stable order (the JSON view's keys, after `event` and `id`).
  public var fields: [Field]
  /// The whole event as one line of text, for people and for grep.
  public var text: String
  public var severity: Severity
  /// A transient event (progress) is what a terminal's status line already shows in place, so a
  /// terminal view need not print it as a line of its own.
  public var isTransient: Bool

  package init(
    event: String, commandID: Int?, clientID: Value? = nil, fields: [Field], text: String, severity: Severity = .info,
    isTransient: Bool = false
  ) {
    self.event = event
    self.commandID = commandID
    self.clientID = clientID
    self.fields = fields
    self.text = text
    self.severity = severity
    self.isTransient = isTransient
  }
}

/// The one-line status shown in place on a terminal, for example
/// `▶ 00:01:23.456 / 00:05:00.000  27.8%  [█████░░░░░░░░░░░░░]`.
public struct StatusLineViewModel: Sendable, Equatable {
  /// The line in its forms, longest first (never empty): a view that is narrower than the first
  /// shows the longest that fits, and cuts the last when none does.
  public var forms: [String]
  /// The full form.
  public var text: String { forms[0] }
  package init(text: String) { self.forms = [text] }
  /// - Parameter forms: longest first; an empty list reads as one empty line.
  package init(forms: [String]) { self.forms = forms.isEmpty ? [""] : forms }
}

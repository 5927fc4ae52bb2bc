// QuickAnswer: a line a client's view answers on its connection's own thread, without the main actor (an mpv
// client's property reads and its seek's reply). The dialect makes it; the socket writes it.

/// A line answered on the event loop: what is written for it at once, an event that follows the answer, and whether
/// the line still goes to the client on the main actor, which then carries it out without answering it again (an mpv
/// `seek`, answered as queued, with its `seek` event).
package struct QuickAnswer: Sendable, Equatable {
  package var text: String
  /// Written after the answer as an event: dropped when the client ends its input with the line, as mpv drops what
  /// it has not written when it sees the end.
  package var event: String?
  package var passesLineOn: Bool

  package init(_ text: String, event: String? = nil, passesLineOn: Bool = false) {
    self.text = text
    self.event = event
    self.passesLineOn = passesLineOn
  }
}

// AttachPresenter: `vpk attach` on a terminal. The daemon's presenter formats for this client (`format display`: what
// `vpk play` shows on a terminal); this one reads those display lines, hands them to attach's text view, and keeps what
// attach needs to know to leave: its end marker's reply, and the reason of the daemon's `shutdown`.

import VideoPlaybackKit

@MainActor
package final class AttachPresenter {
  /// Weak: attach's terminal module holds the view.
  package weak var view: (any PlaybackView)?
  /// The reason the daemon's `shutdown` gave, once it came.
  package private(set) var shutdownReason: String?
  /// Set once the daemon said its session's last event has been shown.
  package private(set) var finished = false

  package init() {}

  /// Shows one line from the daemon. Returns false when it is the reply to attach's end marker: everything attach
  /// sent has been answered, and it may leave (that reply is not shown).
  package func receive(_ line: String) -> Bool {
    guard let display = DisplayLine(decoding: line) else {
      // Not a display line (the daemon is not one that speaks them): shown as it came, rather than lost.
      view?.displayEvent(EventViewModel(event: "", commandID: nil, fields: [], text: line))
      return true
    }
    switch display {
    case .event(let event):
      // The display line names the event, the client id of the command it answers, and its typed fields.
      if event.event == "status" && event.clientID == .string(AttachClient.endMarkerID) { return false }
      if event.event == "shutdown", case .string(let reason)? = event.fields.first(where: { $0.key == "reason" })?.value
      {
        shutdownReason = reason
      }
      view?.displayEvent(event)
    case .statusLine(let status):
      view?.displayStatusLine(status)
    case .finish:
      finished = true
      view?.displayFinish()
    }
    return true
  }

  /// Attach leaves: the screen is left clean (no status line, colours reset), once.
  package func leave() {
    guard !finished else { return }
    finished = true
    view?.displayFinish()
  }
}

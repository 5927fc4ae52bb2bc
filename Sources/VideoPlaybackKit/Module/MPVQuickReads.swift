// MPVQuickReads: answers an mpv client's `get_property` on the client's own thread (the control socket's event loop),
// without the two hops through the main actor that a command takes. It is part of the mpv presenter: the same
// translation of the request and the same property values, from the same view state, which the presenter publishes
// here, and from the interactor's status board, which says what a `status` sent now would report.
//
// It answers only when the answer cannot differ from the presenter's: the request is a `get_property` (or its
// `_string` form) with a reply; nothing of the client's is under way on the main actor (the presenter publishes no
// view state while a command of the client's owes a reply, and the socket sends a line here only when every line
// before it has been handled); and the interactor would answer a `status` at once. Otherwise `answer` is nil and the
// line goes to the presenter as usual.

import Foundation

package final class MPVQuickReads: @unchecked Sendable {
  /// What the presenter knows that a property's value needs besides the status.
  struct ViewState: Sendable {
    var readings: MPVPresenter.Readings
    var seeking: Bool
  }

  private let statusBoard: PlaybackStatusBoard?
  private let translator: MPVCommandTranslator
  private let lock = NSLock()
  private var viewState: ViewState?

  init(statusBoard: PlaybackStatusBoard?, translator: MPVCommandTranslator) {
    self.statusBoard = statusBoard
    self.translator = translator
  }

  /// The presenter's view state now; nil while the client has a command under way.
  func publish(_ state: ViewState?) {
    lock.withLock { viewState = state }
  }

  /// The reply line (with its newline) to `line` when it is a property read that can be answered now; nil when the
  /// line must go to the presenter.
  package func answer(_ line: String) -> String? {
    guard let statusBoard, var state = lock.withLock({ viewState }) else { return nil }
    // Cheap first: most lines that are not reads are seen as such without parsing JSON.
    guard Self.mentionsGetProperty(line) else { return nil }
    let request = translator.translate(line)
    guard request.wantsReply, case .success(.getProperty(let property, let asString)) = request.command else {
      return nil
    }
    if MPVPresenter.constant(property) == nil {
      guard let status = statusBoard.statusNow() else { return nil }
      state.readings.read(status)
    }
    let reply = MPVPresenter.propertyReply(
      request.requestID, property, asString: asString, readings: state.readings, seeking: state.seeking)
    return reply.json + "\n"
  }

  /// Whether `get_property` occurs in `line`, byte by byte (its first letter occurs once in it, so a failed partial
  /// match restarts at most at the byte that failed it).
  static func mentionsGetProperty(_ line: String) -> Bool {
    let word: StaticString = "get_property"
    return word.withUTF8Buffer { word in
      var matched = 0
      for byte in line.utf8 {
        if byte == word[matched] {
          matched += 1
          if matched == word.count { return true }
        } else {
          matched = byte == word[0] ? 1 : 0
        }
      }
      return false
    }
  }
}

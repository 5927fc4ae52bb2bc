// MPVQuickReads: answers an mpv client's `get_property` on the thread that reads the client (the control socket's
// event loop), without the two hops through the main actor that a command takes. It is part of the mpv presenter: the same
// translation of the request and the same reply from the same readings, which the presenter publishes here, with
// what the interactor's status board says a `status` sent now would report read into them.
//
// Which path runs: this one when it can answer; else the line goes to the presenter, which submits a `status` and
// answers when it comes. Both make the reply with `MPVReadings.replyToRead`, from the presenter's readings with a
// status read into them, so they cannot disagree. This path answers only when its answer cannot differ from the
// presenter's: the request is a `get_property` (or its `_string` form) with a reply; nothing of the client's is under
// way on the main actor (the presenter publishes no readings while a command of the client's owes a reply, and the
// socket sends a line here only when every line before it has been handled); and the interactor would answer a
// `status` at once. Otherwise `answer` is nil and the line goes to the presenter as usual.
//
// A `seek` with a file loaded is answered here too, under the same condition: mpv answers a seek as soon as it is
// queued, with `seek` after the reply. The line then still goes to the presenter (marked answered, under this lock),
// which submits the seek without answering again and sends `playback-restart` when it lands; the lines behind it go
// the long way, so their order is kept.

import Foundation
import VideoPlaybackKit

package final class MPVQuickReads: @unchecked Sendable {
  private let statusBoard: PlaybackStatusBoard?
  private let translator: MPVCommandTranslator
  private let lock = NSLock()
  private var published: MPVReadings?
  /// Set when a seek was answered here; the presenter takes it as it carries out that line, the next it is given.
  private var seekAnswered = false
  private var seekEvent = true

  /// Whether a seek answered here is followed by its `seek` event (false once the client disabled it).
  var sendsSeekEvent: Bool {
    get { lock.withLock { seekEvent } }
    set { lock.withLock { seekEvent = newValue } }
  }

  init(statusBoard: PlaybackStatusBoard?, translator: MPVCommandTranslator) {
    self.statusBoard = statusBoard
    self.translator = translator
  }

  /// The presenter's readings now; nil while the client has a command under way.
  func publish(_ readings: MPVReadings?) {
    lock.withLock { published = readings }
  }

  /// What is written at once for `line` when it can be answered now (a property read, or a seek with a file
  /// loaded, which still goes to the presenter to be carried out); nil when the line must go to the presenter.
  package func quickAnswer(_ line: String) -> QuickAnswer? {
    if let reply = answer(line) { return QuickAnswer(reply) }
    if let reply = answerSeek(line) {
      return QuickAnswer(reply, event: sendsSeekEvent ? Self.seekEventLine : nil, passesLineOn: true)
    }
    return nil
  }

  /// The reply line for `line` when it is a JSON `seek` with a reply, a file is loaded and nothing of the client's is
  /// under way (its `seek` event follows, see `quickAnswer`); nil otherwise. Marks the seek answered for the
  /// presenter.
  func answerSeek(_ line: String) -> String? {
    guard Self.mentions("seek", in: line) else { return nil }
    // The common form from its bytes (see MPVSeekLine): the same reply, with little memory touched.
    let recognised = MPVSeekLine.requestID(of: line)
    return lock.withLock { () -> String? in
      guard published?.info != nil, !seekAnswered else { return nil }
      if let recognised {
        seekAnswered = true
        return MPVSeekLine.reply(requestID: recognised)
      }
      let request = translator.translate(line)
      guard request.wantsReply, case .success(.seek) = request.command else { return nil }
      seekAnswered = true
      // The presenter's own answer to a seek with a file loaded (`MPVCommandSubmitter.seek`).
      return
        (request.repliesAsynchronously
        ? MPVValue.asyncReply(request.requestID, .success, data: .null)
        : MPVValue.reply(request.requestID, .success, data: .null)).json + "\n"
    }
  }

  /// The `seek` event mpv sends as a seek starts, as a line.
  private static let seekEventLine = MPVValue.object([MPVMember("event", .string("seek"))]).json + "\n"

  /// Whether the line being carried out is a seek this object answered; clears it.
  func takeAnsweredSeek() -> Bool {
    lock.withLock {
      defer { seekAnswered = false }
      return seekAnswered
    }
  }

  /// The reply line (with its newline) to `line` when it is a property read that can be answered now; nil when the
  /// line must go to the presenter.
  package func answer(_ line: String) -> String? {
    // Cheap first: most lines that are not reads are seen as such without parsing JSON or copying the readings.
    guard let statusBoard, Self.mentions("get_property", in: line),
      var readings = lock.withLock({ published })
    else { return nil }
    let request = translator.translate(line)
    guard request.wantsReply, case .success(.getProperty(let property, let asString)) = request.command else {
      return nil
    }
    if !property.spec.isConstant {
      guard let status = statusBoard.statusNow() else { return nil }
      readings.read(status)
    }
    // The presenter's own answer to a read, from the same readings with the same status read into them.
    return readings.replyToRead(property, asString: asString, requestID: request.requestID).json + "\n"
  }

  /// Whether `word` occurs in `line`, byte by byte (`word`'s first letter must occur once in it, so a failed partial
  /// match restarts at most at the byte that failed it).
  static func mentions(_ word: StaticString, in line: String) -> Bool {
    word.withUTF8Buffer { word in
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

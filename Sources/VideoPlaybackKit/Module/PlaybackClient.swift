// PlaybackClient: what the Builder hands back for one client of the control socket (`attachClient`): the client's
// view and presenter, held for as long as it is connected, and the door its input lines go in by.

@MainActor
public final class PlaybackClient {
  /// Where the client's lines enter the module.
  package var eventHandler: any PlaybackViewEventHandler { presenter }

  private let viewID: PlaybackFanOut.ViewID
  /// Held here: the presenter holds its view weakly.
  private let view: AnyObject
  private let presenter: any PlaybackViewEventHandler & PlaybackInteractorOutput
  /// Leaves the view's output clean before the connection closes.
  private let finish: @MainActor () -> Void
  private weak var fanOut: PlaybackFanOut?
  private let owes: @MainActor () -> Bool
  /// Answers a line from any thread when it can be answered without the main actor (an mpv client's property
  /// reads and seeks); nil for clients that answer everything on the main actor.
  package nonisolated let quickAnswer: (@Sendable (String) -> QuickAnswer?)?
  /// Told when lines begin to come in one read of the client's connection (true) and when they have all come
  /// (false); nil for clients that answer each line as it comes.
  private let linesTogether: (@MainActor (Bool) -> Void)?

  /// Whether a command the client sent still owes it a reply (only the mpv dialect keeps count; vpk's own clients
  /// stay connected until they leave).
  package var owesReplies: Bool { owes() }

  convenience init(
    viewID: PlaybackFanOut.ViewID, view: any PlaybackView, presenter: PlaybackPresenter, fanOut: PlaybackFanOut
  ) {
    self.init(
      viewID: viewID, view: view, presenter: presenter, fanOut: fanOut,
      finish: { [weak view] in view?.displayFinish() },
      owes: { false })
  }

  /// A client whose view and presenter are of a dialect of its own (the mpv dialect's, from VPKMPV).
  /// - Parameters:
  ///   - view: held for as long as the client is connected (its presenter holds it weakly).
  ///   - finish: leaves the view's output clean before the connection closes.
  ///   - owes: whether a command the client sent still owes it a reply.
  ///   - quickAnswer: answers a line off the main actor when it can (see `quickAnswer`).
  ///   - linesTogether: told when the lines of one read of the connection begin (true) and end (false).
  package init(
    viewID: PlaybackFanOut.ViewID, view: AnyObject, presenter: any PlaybackViewEventHandler & PlaybackInteractorOutput,
    fanOut: PlaybackFanOut, finish: @escaping @MainActor () -> Void, owes: @escaping @MainActor () -> Bool,
    quickAnswer: (@Sendable (String) -> QuickAnswer?)? = nil, linesTogether: (@MainActor (Bool) -> Void)? = nil
  ) {
    self.linesTogether = linesTogether
    self.viewID = viewID
    self.view = view
    self.presenter = presenter
    self.finish = finish
    self.fanOut = fanOut
    self.owes = owes
    self.quickAnswer = quickAnswer
  }

  /// Tells this client alone why it is being disconnected (`error`, with no command's id; the mpv dialect has no
  /// such event) and removes it.
  package func disconnect(_ reason: PlaybackError) {
    presenter.present(.error(reason), origin: nil)
    finish()
    detach()
  }

  /// The lines that follow, until `readCompleted`, came together, in one read of the client's connection.
  package func readStarted() {
    linesTogether?(true)
  }

  /// The lines that came together have all been passed on.
  package func readCompleted() {
    linesTogether?(false)
  }

  /// Tells this client alone of `error` (a request of its connection refused), with no command's id.
  package func tell(_ error: PlaybackError) {
    presenter.present(.error(error), origin: nil)
  }

  /// The client sends no more (it shut down its writing side): `close` is called once every command it sent has been
  /// answered.
  package func inputEnded(then close: @escaping @MainActor () -> Void) {
    fanOut?.whenAnswered(viewID, close)
  }

  /// The client left: nothing more is shown to it, and what its commands still cause is dropped (the shared events
  /// they cause still reach the others).
  public func detach() {
    fanOut?.detach(viewID)
  }
}

/// A line answered off the main actor: what is written for it at once, an event that follows the answer, and whether
/// the line still goes to the client's presenter, which then carries it out without answering it again (an mpv
/// `seek`, answered as queued, with its `seek` event).
package struct QuickAnswer: Sendable, Equatable {
  package var text: String
  /// Written after the answer as an event (see `EventTextOutput`): dropped when the client ends its input with the
  /// line, as mpv drops what it has not written when it sees the end.
  package var event: String?
  package var passesLineOn: Bool

  package init(_ text: String, event: String? = nil, passesLineOn: Bool = false) {
    self.text = text
    self.event = event
    self.passesLineOn = passesLineOn
  }
}

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

  convenience init(
    viewID: PlaybackFanOut.ViewID, view: any PlaybackView, presenter: PlaybackPresenter, fanOut: PlaybackFanOut
  ) {
    self.init(
      viewID: viewID, view: view, presenter: presenter, fanOut: fanOut,
      finish: { [weak view] in view?.displayFinish() })
  }

  /// A client whose view and presenter are of a dialect of its own (the mpv dialect's, from VPKMPV).
  /// - Parameters:
  ///   - view: held for as long as the client is connected (its presenter holds it weakly).
  ///   - finish: leaves the view's output clean before the connection closes.
  package init(
    viewID: PlaybackFanOut.ViewID, view: AnyObject, presenter: any PlaybackViewEventHandler & PlaybackInteractorOutput,
    fanOut: PlaybackFanOut, finish: @escaping @MainActor () -> Void
  ) {
    self.viewID = viewID
    self.view = view
    self.presenter = presenter
    self.finish = finish
    self.fanOut = fanOut
  }

  /// Tells this client alone why it is being disconnected (`error`, with no command's id; the mpv dialect has no
  /// such event) and removes it.
  package func disconnect(_ reason: PlaybackError) {
    presenter.present(.error(reason), origin: nil)
    finish()
    detach()
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

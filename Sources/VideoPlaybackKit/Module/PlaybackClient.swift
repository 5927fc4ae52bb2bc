// PlaybackClient: what the Builder hands back for one client of the control socket (`attachClient`): the client's
// view and presenter, held for as long as it is connected, and the door its input lines go in by.

@MainActor
public final class PlaybackClient {
  /// Where the client's lines enter the module.
  public var eventHandler: any PlaybackViewEventHandler { presenter }

  private let viewID: PlaybackFanOut.ViewID
  /// Held here: the presenter holds its view weakly.
  private let view: any PlaybackView
  private let presenter: PlaybackPresenter
  private weak var fanOut: PlaybackFanOut?

  init(viewID: PlaybackFanOut.ViewID, view: any PlaybackView, presenter: PlaybackPresenter, fanOut: PlaybackFanOut) {
    self.viewID = viewID
    self.view = view
    self.presenter = presenter
    self.fanOut = fanOut
  }

  /// Tells this client alone why it is being disconnected (`error`, with no command's id) and removes it.
  public func disconnect(_ reason: PlaybackError) {
    presenter.presentError(reason, commandID: nil)
    view.displayFinish()
    detach()
  }

  /// The client sends no more (it shut down its writing side): `close` is called once every command it sent has been
  /// answered.
  public func inputEnded(then close: @escaping @MainActor () -> Void) {
    fanOut?.whenAnswered(viewID, close)
  }

  /// The client left: nothing more is shown to it, and what its commands still cause is dropped (the shared events
  /// they cause still reach the others).
  public func detach() {
    fanOut?.detach(viewID)
  }
}

// PlaybackFanOut: one interactor, many views. The session's views (standard input and output, and each client of
// the control socket) have a presenter each; this is the interactor's one output, and routes each event by its
// audience and origin:
//
// - a reply (`status`, `frame`, an `error` …) goes to the presenter of the view that sent the command, and only there;
// - a change of the shared playback state (`ready`, `state`, `seeked`, `stepped`, `rate`, `closed`, `shutdown`) goes
//   to every presenter: the sender's names it by its own number, the others show it with none;
// - an event no command caused (`progress`, `ended`, an error of the media) goes to every presenter.
//
// Input goes the other way through a `Port` per view. It counts each view's commands still running (every command
// gets exactly one reply), so a client that sends no more can be closed once it has had its replies. It routes and
// decides nothing about playback. A submission observer (a session recorder) sees each submission as it passes.

@MainActor
package final class PlaybackFanOut: PlaybackInteractorOutput {
  /// A view's identity within the session.
  package typealias ViewID = VideoPlaybackKit.ViewID

  /// The input side for one view's presenter: the interactor, with each command's origin noted.
  @MainActor
  package final class Port: PlaybackInteractorInput {
    package let viewID: ViewID
    /// Weak: the fan-out holds the presenters, which hold their ports.
    private weak var fanOut: PlaybackFanOut?

    init(viewID: ViewID, fanOut: PlaybackFanOut) {
      self.viewID = viewID
      self.fanOut = fanOut
    }

    package func start() { fanOut?.interactor.start() }
    @discardableResult package func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int
    {
      fanOut?.submit(CommandSubmission(view: viewID, command: command, source: source, sender: sender)) {
        $0.submit(command, source: source, from: sender)
      } ?? 0
    }
    @discardableResult package func submitInvalid(
      _ error: PlaybackError, source: SourceLine?, from sender: CommandSender?
    ) -> Int {
      fanOut?.submit(CommandSubmission(view: viewID, invalid: error, source: source, sender: sender)) {
        $0.submitInvalid(error, source: source, from: sender)
      } ?? 0
    }
    package func withdraw(_ id: Int) { fanOut?.interactor.withdraw(id) }
    package func inputEnded() { fanOut?.inputEnded(from: viewID) }
    package func terminate(_ signal: TerminationSignal) { fanOut?.interactor.terminate(signal) }
    package func outputClosed() { fanOut?.outputClosed(from: viewID) }
    package func suspend() { fanOut?.interactor.suspend() }
    package func resumeAfterSuspend() { fanOut?.interactor.resumeAfterSuspend() }
    package func currentStatus() -> PlaybackStatus {
      fanOut?.interactor.currentStatus()
        ?? PlaybackStatus(state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)
    }
  }

  /// The interactor, held strongly: it holds its output (this) weakly.
  let interactor: any PlaybackInteractorInput
  /// The view whose input and output are the session's own (standard input and output).
  private let primary: ViewID
  /// True for a session with a control socket: it ends on `quit` or a signal, not when the primary view's input
  /// ends or its output goes away.
  private let outlivesPrimaryView: Bool
  /// Sees every submission of every view (a session recorder); weak: the module holds it.
  package weak var submissionObserver: (any PlaybackSubmissionObserver)?
  /// The presenters of the views attached now, in the order they came.
  private var presenters: [(id: ViewID, presenter: any PlaybackInteractorOutput)] = []
  /// How many commands each view has running (counted down at each one's reply).
  private var running: [ViewID: Int] = [:]
  private var lastViewNumber = 0
  /// What to do once every command of a view is answered (its client sends no more and is to be closed then).
  private var whenAnswered: [ViewID: @MainActor () -> Void] = [:]

  /// - Parameters:
  ///   - outlivesPrimaryView: the session ends only on `quit` or a signal (a session with a control socket).
  package init(interactor: any PlaybackInteractorInput, outlivesPrimaryView: Bool = false) {
    self.interactor = interactor
    self.outlivesPrimaryView = outlivesPrimaryView
    self.primary = .primary
  }

  /// The primary view's id (standard input and output); attach its presenter with `attach(_:as:)`.
  package var primaryViewID: ViewID { primary }

  /// A new view's id, for a client that connects.
  package func makeViewID() -> ViewID {
    lastViewNumber += 1
    return ViewID(value: lastViewNumber)
  }

  /// The port a view's presenter submits through.
  package func port(for viewID: ViewID) -> Port {
    Port(viewID: viewID, fanOut: self)
  }

  /// Adds a view's presenter: from now on it gets its replies and every shared event.
  package func attach(_ presenter: any PlaybackInteractorOutput, as viewID: ViewID) {
    presenters.removeAll { $0.id == viewID }
    presenters.append((viewID, presenter))
  }

  /// Removes a view (its client left): what its commands still cause is dropped; the shared events they cause still
  /// reach the other views.
  package func detach(_ viewID: ViewID) {
    // Its commands' replies find no presenter of its now: they reach no one, not everyone.
    presenters.removeAll { $0.id == viewID }
    whenAnswered[viewID] = nil
  }

  /// Calls `action` once every command `viewID` has sent has had its reply (at once if none is running). A client
  /// that sends no more is closed this way, after the replies it is owed.
  package func whenAnswered(_ viewID: ViewID, _ action: @escaping @MainActor () -> Void) {
    guard running[viewID, default: 0] > 0 else { return action() }
    whenAnswered[viewID] = action
  }

  /// How many views are attached.
  package var viewCount: Int { presenters.count }

  /// How many commands sent through the ports are not yet answered.
  var runningCommandCount: Int { running.values.reduce(0, +) }

  // MARK: - Input from the ports

  private func submit(_ submission: CommandSubmission, _ submit: (any PlaybackInteractorInput) -> Int) -> Int {
    running[submission.view, default: 0] += 1
    guard let submissionObserver else { return submit(interactor) }
    return submissionObserver.observe(submission) { submit(interactor) }
  }

  private func inputEnded(from viewID: ViewID) {
    // A client's input ending only means it sends no more; its connection says when it leaves.
    if viewID == primary && !outlivesPrimaryView { interactor.inputEnded() }
  }

  private func outputClosed(from viewID: ViewID) {
    if viewID == primary && !outlivesPrimaryView {
      interactor.outputClosed()
    } else {
      detach(viewID)
    }
  }

  // MARK: - Routing (PlaybackInteractorOutput)

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    for presenter in audience(of: event, origin: origin) { presenter.present(event, origin: origin) }
    if event.isReply { submissionObserver?.observe(reply: event, origin: origin) }
    if event.isReply, let view = origin?.sender?.view { answered(view) }
  }

  /// A reply goes to its sender's view (when it is still attached); a shared event, an event no command caused, and a
  /// reply to a command sent without a view, to every view.
  private func audience(of event: SessionEvent, origin: CommandOrigin?) -> [any PlaybackInteractorOutput] {
    guard event.audience == .sender, let sender = origin?.sender else { return presenters.map { $0.presenter } }
    return presenters.filter { $0.id == sender.view }.map { $0.presenter }
  }

  /// One of `view`'s commands has had its reply.
  private func answered(_ view: ViewID) {
    guard let count = running[view] else { return }
    running[view] = count > 1 ? count - 1 : nil
    if count == 1, let action = whenAnswered.removeValue(forKey: view) { action() }
  }
}

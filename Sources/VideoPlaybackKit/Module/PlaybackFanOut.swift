// PlaybackFanOut: one interactor, many views. The session's views (standard input and output, and each client of
// the control socket) have a presenter each; this is the interactor's one output, and routes what it reports:
//
// - an event a command causes (its reply) goes to the presenter of the view that sent the command, and only there;
// - a change of the shared playback state (`ready`, `state`, `seeked`, `stepped`, `rate`, `closed`, `shutdown`) goes
//   to every presenter: the sender's names it by its own id, the others show it with none;
// - an event no command caused (`progress`, `ended`, an error of the media) goes to every presenter.
//
// Input goes the other way through a `Port` per view, which notes the view each command came from (its origin)
// under the id the interactor is about to give it. Every command gets exactly one reply, so a command's origin is
// forgotten once its reply has been routed: the notes are as many as the commands still running, however long the
// session. It routes and decides nothing about playback.

@MainActor
public final class PlaybackFanOut: PlaybackInteractorOutput {
  /// A view's identity within the session.
  public struct ViewID: Hashable, Sendable {
    let value: Int
  }

  /// The input side for one view's presenter: the interactor, with each command's origin noted.
  @MainActor
  public final class Port: PlaybackInteractorInput {
    public let viewID: ViewID
    /// Weak: the fan-out holds the presenters, which hold their ports.
    private weak var fanOut: PlaybackFanOut?

    init(viewID: ViewID, fanOut: PlaybackFanOut) {
      self.viewID = viewID
      self.fanOut = fanOut
    }

    public func start() { fanOut?.interactor.start() }
    @discardableResult public func submit(_ command: Command, source: SourceLine?) -> Int {
      fanOut?.submit(from: viewID) { $0.submit(command, source: source) } ?? 0
    }
    @discardableResult public func submitInvalid(_ error: PlaybackError, source: SourceLine?) -> Int {
      fanOut?.submit(from: viewID) { $0.submitInvalid(error, source: source) } ?? 0
    }
    public var nextCommandID: Int { fanOut?.interactor.nextCommandID ?? 0 }
    public func inputEnded() { fanOut?.inputEnded(from: viewID) }
    public func terminate(_ signal: TerminationSignal) { fanOut?.interactor.terminate(signal) }
    public func outputClosed() { fanOut?.outputClosed(from: viewID) }
  }

  /// The interactor, held strongly: it holds its output (this) weakly.
  let interactor: any PlaybackInteractorInput
  /// The view whose input and output are the session's own (standard input and output).
  private let primary: ViewID
  /// True for a session with a control socket: it ends on `quit` or a signal, not when the primary view's input
  /// ends or its output goes away.
  private let outlivesPrimaryView: Bool
  /// The presenters of the views attached now, in the order they came.
  private var presenters: [(id: ViewID, presenter: any PlaybackInteractorOutput)] = []
  /// The view each command still running came from, by command id (dropped at the command's one reply).
  private var origins: [Int: ViewID] = [:]
  /// The highest command id noted so far (ids grow one by one).
  private var lastNotedID = 0
  private var lastViewNumber = 0
  /// What to do once every command of a view is answered (its client sends no more and is to be closed then).
  private var whenAnswered: [ViewID: @MainActor () -> Void] = [:]

  /// - Parameters:
  ///   - outlivesPrimaryView: the session ends only on `quit` or a signal (a session with a control socket).
  public init(interactor: any PlaybackInteractorInput, outlivesPrimaryView: Bool = false) {
    self.interactor = interactor
    self.outlivesPrimaryView = outlivesPrimaryView
    self.primary = ViewID(value: 0)
  }

  /// The primary view's id (standard input and output); attach its presenter with `attach(_:as:)`.
  public var primaryViewID: ViewID { primary }

  /// A new view's id, for a client that connects.
  public func makeViewID() -> ViewID {
    lastViewNumber += 1
    return ViewID(value: lastViewNumber)
  }

  /// The port a view's presenter submits through.
  public func port(for viewID: ViewID) -> Port {
    Port(viewID: viewID, fanOut: self)
  }

  /// Adds a view's presenter: from now on it gets its replies and every shared event.
  public func attach(_ presenter: any PlaybackInteractorOutput, as viewID: ViewID) {
    presenters.removeAll { $0.id == viewID }
    presenters.append((viewID, presenter))
  }

  /// Removes a view (its client left): what its commands still cause is dropped; the shared events they cause still
  /// reach the other views.
  public func detach(_ viewID: ViewID) {
    // Its commands' origins stay noted: their replies must find no one, not everyone.
    presenters.removeAll { $0.id == viewID }
    whenAnswered[viewID] = nil
  }

  /// Calls `action` once every command `viewID` has sent has had its reply (at once if none is running). A client
  /// that sends no more is closed this way, after the replies it is owed.
  public func whenAnswered(_ viewID: ViewID, _ action: @escaping @MainActor () -> Void) {
    guard origins.values.contains(viewID) else { return action() }
    whenAnswered[viewID] = action
  }

  /// How many views are attached.
  public var viewCount: Int { presenters.count }

  /// How many commands' origins are noted (the commands not yet answered).
  var notedOriginCount: Int { origins.count }

  // MARK: - Input from the ports

  private func submit(from viewID: ViewID, _ submit: (any PlaybackInteractorInput) -> Int) -> Int {
    let id = interactor.nextCommandID
    origins[id] = viewID
    lastNotedID = max(lastNotedID, id)
    return submit(interactor)
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

  // MARK: - Routing

  /// The presenter of the view that sent command `id`, when it is still attached; nil when another view's.
  private func origin(of id: Int) -> [any PlaybackInteractorOutput] {
    guard let viewID = origins[id] else {
      // Noted once and answered already: a second reply (there should be none) reaches no one rather than everyone.
      // Never noted (submitted to the interactor directly, not through a port): everyone's.
      return id <= lastNotedID ? [] : everyone
    }
    return presenters.filter { $0.id == viewID }.map { $0.presenter }
  }

  private var everyone: [any PlaybackInteractorOutput] { presenters.map { $0.presenter } }

  /// Command `id` has had its one reply: its origin is no longer needed.
  private func answered(_ id: Int?) {
    guard let id, let viewID = origins.removeValue(forKey: id) else { return }
    if let action = whenAnswered[viewID], !origins.values.contains(viewID) {
      whenAnswered[viewID] = nil
      action()
    }
  }

  /// A reply goes to its command's view; an event no command caused goes to every view.
  private func replyTo(_ id: Int?) -> [any PlaybackInteractorOutput] {
    id.map(origin(of:)) ?? everyone
  }

  // MARK: - PlaybackInteractorOutput

  public func presentLoading(path: String) {
    everyone.forEach { $0.presentLoading(path: path) }
  }

  public func presentReady(_ info: MediaInfo, position: MediaTime, commandID: Int?) {
    everyone.forEach { $0.presentReady(info, position: position, commandID: commandID) }
    answered(commandID)
  }

  public func presentState(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, commandID: Int?) {
    everyone.forEach { $0.presentState(state, position: position, duration: duration, commandID: commandID) }
    answered(commandID)
  }

  public func presentProgress(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double) {
    everyone.forEach { $0.presentProgress(position: position, duration: duration, state: state, rate: rate) }
  }

  public func presentSeeked(_ result: SeekResult, requested: MediaTime?, duration: MediaTime?, showsTiming: Bool) {
    everyone.forEach {
      $0.presentSeeked(result, requested: requested, duration: duration, showsTiming: showsTiming)
    }
    answered(result.id)
  }

  public func presentSuperseded(id: Int, by newerID: Int?) {
    origin(of: id).forEach { $0.presentSuperseded(id: id, by: newerID) }
    answered(id)
  }

  public func presentStepped(_ result: StepResult, duration: MediaTime?) {
    everyone.forEach { $0.presentStepped(result, duration: duration) }
    answered(result.id)
  }

  public func presentRate(_ rate: Double, commandID: Int) {
    everyone.forEach { $0.presentRate(rate, commandID: commandID) }
    answered(commandID)
  }

  public func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int) {
    everyone.forEach { $0.presentEnded(position: position, duration: duration, loops: loops) }
  }

  public func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int, direction: PlaybackDirection) {
    everyone.forEach { $0.presentEnded(position: position, duration: duration, loops: loops, direction: direction) }
  }

  public func presentError(_ error: PlaybackError, commandID: Int?) {
    replyTo(commandID).forEach { $0.presentError(error, commandID: commandID) }
    answered(commandID)
  }

  public func presentStatus(_ status: PlaybackStatus, commandID: Int) {
    origin(of: commandID).forEach { $0.presentStatus(status, commandID: commandID) }
    answered(commandID)
  }

  public func presentInfo(_ info: MediaInfo, commandID: Int) {
    origin(of: commandID).forEach { $0.presentInfo(info, commandID: commandID) }
    answered(commandID)
  }

  public func presentFrame(_ frame: FrameIdentity, commandID: Int) {
    origin(of: commandID).forEach { $0.presentFrame(frame, commandID: commandID) }
    answered(commandID)
  }

  public func presentSnapshot(_ picture: FramePicture, commandID: Int) {
    origin(of: commandID).forEach { $0.presentSnapshot(picture, commandID: commandID) }
    answered(commandID)
  }

  public func presentHelp(commandID: Int) {
    origin(of: commandID).forEach { $0.presentHelp(commandID: commandID) }
    answered(commandID)
  }

  public func presentWaited(_ condition: WaitCondition, position: MediaTime, commandID: Int) {
    origin(of: commandID).forEach { $0.presentWaited(condition, position: position, commandID: commandID) }
    answered(commandID)
  }

  public func presentExpectation(
    _ expectation: Expectation, expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?,
    commandID: Int
  ) {
    origin(of: commandID).forEach {
      $0.presentExpectation(
        expectation, expected: expected, actual: actual, held: held, source: source, commandID: commandID)
    }
    answered(commandID)
  }

  public func presentClosed(commandID: Int) {
    everyone.forEach { $0.presentClosed(commandID: commandID) }
    answered(commandID)
  }

  public func presentShutdown(reason: ShutdownReason, status: PlaybackStatus, openInterrupted: Bool, commandID: Int?) {
    everyone.forEach {
      $0.presentShutdown(reason: reason, status: status, openInterrupted: openInterrupted, commandID: commandID)
    }
  }
}

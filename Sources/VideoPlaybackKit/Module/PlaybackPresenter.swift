// PlaybackPresenter: turns what the interactor reports into view models, and what the view
// receives (input lines, signals) into requests to the interactor.
//
// It only formats (each event's line comes from EventFormatter). It decides nothing about playback: no clamping, no
// state changes. What it remembers (the state the status line shows) is view state, kept so it can redraw the
// status line.

import Foundation

@MainActor
package final class PlaybackPresenter: PlaybackViewEventHandler, PlaybackInteractorOutput {
  /// The view: a back-reference, held weakly (the module owns the view), set once by the Builder.
  package weak var view: (any PlaybackView)?
  /// The interactor, held strongly: it holds the presenter weakly.
  private let interactor: any PlaybackInteractorInput

  private let parser: CommandParser
  /// The command reader's line limit in bytes, named in the error for a line over it.
  private let maxLineBytes: Int

  /// View state: the state the status line shows, for redraws by events that do not carry one
  /// (`seeked`). Every event that redraws the line carries its position and duration.
  private var shownState: PlaybackState = .idle
  /// View state: the rate the status line shows, from the events that carry one (`rate`, `progress`, `status`).
  private var shownRate: Double = 1
  /// View state: the position and duration the status line shows, for a redraw by a `rate` event.
  private var shownPosition: MediaTime = .zero
  private var shownDuration: MediaTime?
  /// View state: the queue's entry the status line names (`2/3 ep2.mp4`), from the last `entry` event.
  private var shownEntry: String?
  /// Whether this presenter has drawn a status line yet.
  private var drewStatusLine = false
  /// Whether the view shows the status line's text: a view of JSON lines shows none, and is given an empty line (no
  /// text is formatted for it). Set by the Builder.
  package var showsStatusLineText = true
  /// This view, named as the sender of the commands it submits.
  private let viewID: ViewID
  /// How many commands this view has sent: each is named in its events by its ordinal.
  private var ownCommandCount = 0
  /// How this view names commands: its own by their number (or the client's id); other views' with no id when the
  /// session is shared (a control socket's clients), else with the session's id.
  private let naming: EventFormatter.Naming
  /// Input lines seen so far, so a command can name its line.
  private var lineNumber = 0
  /// Whether a person reads the lines at a terminal: a `next` then says in words what it means.
  private let wordsForAPerson: Bool

  /// - Parameters:
  ///   - interactor: the session's business side, which this presenter forwards commands to.
  ///   - maxLineBytes: the command reader's line limit, for the error a longer line gets.
  ///   - viewID: the view this presenter serves (its commands' sender).
  ///   - sharesSession: other views share the session's interactor: their commands' events carry no id here.
  ///   - wordsForAPerson: a person reads the lines at a terminal (see `NextText`).
  package init(
    interactor: any PlaybackInteractorInput, parser: CommandParser = CommandParser(), maxLineBytes: Int = 65_536,
    viewID: ViewID, sharesSession: Bool = false, wordsForAPerson: Bool = false
  ) {
    self.wordsForAPerson = wordsForAPerson
    self.interactor = interactor
    self.parser = parser
    self.maxLineBytes = maxLineBytes
    self.viewID = viewID
    self.naming = .of(viewID, sharesSession: sharesSession)
  }

  // MARK: - PlaybackViewEventHandler

  package func onStart() {
    interactor.start()
  }

  package func onInputLine(_ line: InputLine) {
    lineNumber += 1
    switch line {
    case .text(let text):
      let source = SourceLine(number: lineNumber, text: text)
      let (parsed, clientID) = parser.parseInput(text)
      switch parsed {
      case .empty: break
      case .command(let command): interactor.submit(command, source: source, from: nextSender(clientID))
      case .invalid(let error): interactor.submitInvalid(error, source: source, from: nextSender(clientID))
      }
    case .tooLong(let byteCount):
      interactor.submitInvalid(
        PlaybackError(
          .badInput, "line of \(byteCount) bytes is over the \(maxLineBytes)-byte limit; send one command per line"),
        source: SourceLine(number: lineNumber, text: ""), from: nextSender(nil))
    case .invalidUTF8:
      interactor.submitInvalid(
        PlaybackError(.badInput, "line is not valid UTF-8; send commands as UTF-8 text, one per line"),
        source: SourceLine(number: lineNumber, text: ""), from: nextSender(nil))
    }
  }

  /// A command a Swift view sends as a value, not as a line; its events carry `clientID`, by which the view knows its
  /// answer.
  package func onCommand(_ command: Command, clientID: ClientID) {
    interactor.submit(command, source: nil, from: nextSender(clientID))
  }

  /// This view as the sender of its next command, numbered among the commands it sent.
  private func nextSender(_ clientID: ClientID?) -> CommandSender {
    ownCommandCount += 1
    return CommandSender(view: viewID, number: ownCommandCount, clientID: clientID)
  }

  package func onInputEnded() {
    interactor.inputEnded()
  }

  package func onSignal(_ signal: TerminationSignal) {
    interactor.terminate(signal)
  }

  package func onOutputClosed() {
    interactor.outputClosed()
  }

  /// The process is about to stop (^Z).
  package func onStop() {
    interactor.suspend()
  }

  /// The process continued (`fg`).
  package func onContinue() {
    interactor.resumeAfterSuspend()
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    switch event {
    case .loading(let path, _):
      shownState = .loading
      drewStatusLine = true
      view?.displayStatusLine(
        StatusLineViewModel(
          text:
            "\(StatusLineText.glyph(.loading)) loading \(TextQuoting.escapingControls(StatusLineText.fileName(path)))"
        ))
      return
    case .status(let status) where !drewStatusLine:
      // A view with no status line yet draws it from its first `status`. Later ones leave it to the playback events.
      shownRate = status.rate
      redrawStatusLine(state: status.state, position: status.position, duration: status.duration)
    case .status(let status):
      shownRate = status.rate
    case .entry(let entry):
      shownEntry = showsStatusLineText ? StatusLineText.entry(entry) : nil
    default:
      break
    }
    if var model = EventFormatter.model(event, origin: origin, naming: naming) {
      if wordsForAPerson, case .next(let paused) = event { model.text += NextText.explanation(paused: paused) }
      view?.displayEvent(model)
    }
    switch event {
    case .ready(let info, let position, _):
      // A manager that is ready has opened the file and waits, paused, on its first frame (see the Contract).
      redrawStatusLine(state: .paused, position: position, duration: info.duration)
    case .state(let state, let position, let duration):
      redrawStatusLine(state: state, position: position, duration: duration)
    case .rate(let rate):
      shownRate = rate
      if drewStatusLine { redrawStatusLine(state: shownState, position: shownPosition, duration: shownDuration) }
    case .progress(let mark) where mark.state == .playing:
      shownRate = mark.rate
      // A mark reported after a pause (it was crossed just before) must not move the line back from the position
      // the `state` event gave.
      redrawStatusLine(state: mark.state, position: mark.position, duration: mark.duration)
    case .seeked(let outcome):
      redrawStatusLine(state: shownState, position: outcome.result.position, duration: outcome.duration)
    case .stepped(let result, let duration):
      redrawStatusLine(state: .paused, position: result.position, duration: duration)
    case .ended(let end):
      redrawStatusLine(state: .ended, position: end.position, duration: end.duration)
    case .closed:
      // Nothing plays: no entry either, until the next one starts.
      shownEntry = nil
      redrawStatusLine(state: .idle, position: .zero, duration: nil)
    case .shutdown:
      view?.displayFinish()
    default:
      break
    }
  }

  // MARK: - Showing

  /// This view joined a running session (`vpk attach`): it draws the session's status line at once, from the status
  /// read without a command, so the first command its person types is its #1.
  package func showJoinedSession() {
    let status = interactor.currentStatus()
    shownRate = status.rate
    redrawStatusLine(state: status.state, position: status.position, duration: status.duration)
  }

  private func redrawStatusLine(state: PlaybackState, position: MediaTime, duration: MediaTime?) {
    drewStatusLine = true
    shownState = state
    shownPosition = position
    shownDuration = duration
    guard showsStatusLineText else {
      view?.displayStatusLine(StatusLineViewModel(forms: []))
      return
    }
    view?.displayStatusLine(
      StatusLineViewModel(
        forms: StatusLineText.forms(
          state: state, position: position, duration: duration, rate: shownRate, entry: shownEntry)))
  }
}

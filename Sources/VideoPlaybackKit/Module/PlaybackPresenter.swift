// PlaybackPresenter: turns what the interactor reports into view models, and what the view
// receives (input lines, signals) into requests to the interactor.
//
// It only formats. It decides nothing about playback: no clamping, no state changes. What it
// remembers (the last state, position and duration) is view state, kept so it can redraw the
// status line.
//
// Every event's `text` is one stable, greppable line: `<event>[ #<id>] key=value key=value …`.
// Times are seconds with exactly three decimals; strings that are empty or hold whitespace, `"`,
// `=`, `\` or control characters are double-quoted with backslash escapes, so a value never
// spans lines.

import Foundation

@MainActor
public final class PlaybackPresenter: PlaybackViewEventHandler, PlaybackInteractorOutput {
  /// The view: a back-reference, held weakly (the module owns the view), set once by the Builder.
  public weak var view: (any PlaybackView)?
  /// The interactor, held strongly: it holds the presenter weakly.
  private let interactor: any PlaybackInteractorInput

  private let parser: CommandParser
  /// The command reader's line limit in bytes, named in the error for a line over it.
  private let maxLineBytes: Int

  /// View state: the state the status line shows, for redraws by events that do not carry one
  /// (`seeked`). Every event that redraws the line carries its position and duration.
  private var shownState: PlaybackState = .idle
  /// Whether this presenter has drawn a status line yet.
  private var drewStatusLine = false
  /// What this view's commands are called in its events, by the session's command id.
  private struct OwnCommand {
    /// The command's ordinal among the commands this view sent.
    var number: Int
    /// The id the client gave its JSON command, which events show instead (with `number` as `seq`).
    var clientID: ClientID?
  }
  private var ownCommands: [Int: OwnCommand] = [:]
  private var ownCommandCount = 0
  /// Other views share the session (a control socket's clients): events of commands this view did not send carry no
  /// id. When false this view is the session's only one, and every command id is shown as it is.
  private let sharesSession: Bool
  /// Input lines seen so far, so a command can name its line.
  private var lineNumber = 0

  /// - Parameters:
  ///   - interactor: the session's business side, which this presenter forwards commands to.
  ///   - maxLineBytes: the command reader's line limit, for the error a longer line gets.
  ///   - sharesSession: other views share the session's interactor (see the property).
  public init(
    interactor: any PlaybackInteractorInput, parser: CommandParser = CommandParser(), maxLineBytes: Int = 65_536,
    sharesSession: Bool = false
  ) {
    self.interactor = interactor
    self.parser = parser
    self.maxLineBytes = maxLineBytes
    self.sharesSession = sharesSession
  }

  // MARK: - PlaybackViewEventHandler

  public func onStart() {
    interactor.start()
  }

  public func onInputLine(_ line: InputLine) {
    lineNumber += 1
    switch line {
    case .text(let text):
      let source = SourceLine(number: lineNumber, text: text)
      let (parsed, clientID) = parser.parseInput(text)
      switch parsed {
      case .empty: break
      case .command(let command): own(clientID) { interactor.submit(command, source: source) }
      case .invalid(let error): own(clientID) { interactor.submitInvalid(error, source: source) }
      }
    case .tooLong(let byteCount):
      own(nil) {
        interactor.submitInvalid(
          PlaybackError(
            .badInput,
            "line of \(byteCount) bytes is over the \(maxLineBytes)-byte limit; send one command per line"
          ), source: SourceLine(number: lineNumber, text: ""))
      }
    case .invalidUTF8:
      own(nil) {
        interactor.submitInvalid(
          PlaybackError(
            .badInput, "line is not valid UTF-8; send commands as UTF-8 text, one per line"),
          source: SourceLine(number: lineNumber, text: ""))
      }
    }
  }

  /// A command a Swift view sends as a value (the `Player`), not as a line; its events carry `clientID`, by which the
  /// view knows its answer.
  public func onCommand(_ command: Command, clientID: ClientID) {
    own(clientID) { interactor.submit(command, source: nil) }
  }

  /// Submits a command of this view's, noted first under the id it will get: what it causes at once (`help`, a
  /// `status` with nothing pending) is presented before `submit` returns.
  private func own(_ clientID: ClientID?, _ submit: () -> Int) {
    ownCommandCount += 1
    ownCommands[interactor.nextCommandID] = OwnCommand(number: ownCommandCount, clientID: clientID)
    _ = submit()
  }

  /// How this view names command `id` (the session's): its own ordinal (with the client's id, if it gave one), the
  /// session's id when this view is the only one, or nothing (another view's command).
  private func naming(_ id: Int) -> (number: Int?, clientID: ClientID?) {
    if let own = ownCommands[id] { return (own.number, own.clientID) }
    return (sharesSession ? nil : id, nil)
  }

  public func onInputEnded() {
    interactor.inputEnded()
  }

  public func onSignal(_ signal: TerminationSignal) {
    interactor.terminate(signal)
  }

  public func onOutputClosed() {
    interactor.outputClosed()
  }

  // MARK: - PlaybackInteractorOutput

  public func presentLoading(path: String) {
    shownState = .loading
    drewStatusLine = true
    view?.displayStatusLine(
      StatusLineViewModel(
        text: "\(StatusLineText.glyph(.loading)) loading \(TextQuoting.escapingControls(StatusLineText.fileName(path)))"
      ))
  }

  public func presentReady(_ info: MediaInfo, position: MediaTime = .zero, commandID: Int?) {
    var event = builder("ready", commandID)
    Self.describe(info, into: &event, withBitRates: false)
    display(event)
    // A manager that is ready has opened the file and waits, paused, on its first frame (see the Contract).
    redrawStatusLine(state: .paused, position: position, duration: info.duration)
  }

  public func presentState(
    _ state: PlaybackState, position: MediaTime, duration: MediaTime?, commandID: Int?
  ) {
    var event = builder("state", commandID)
    event.string("state", state.rawValue)
    event.time("position", position)
    if let duration { event.time("duration", duration) }
    display(event)
    redrawStatusLine(state: state, position: position, duration: duration)
  }

  public func presentProgress(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double) {
    var event = EventBuilder(event: "progress", commandID: nil)
    event.time("position", position)
    if let duration { event.time("duration", duration) }
    if let duration, duration.seconds != 0 {
      event.decimal("percent", position.seconds / duration.seconds * 100, decimals: 1)
    }
    event.string("state", state.rawValue)
    event.decimal("rate", rate, decimals: 3, trimmed: true)
    var model = event.model
    model.isTransient = true
    view?.displayEvent(model)
    // A mark reported after a pause (it was crossed just before) must not move the line back from
    // the position the `state` event gave.
    if state == .playing { redrawStatusLine(state: state, position: position, duration: duration) }
  }

  public func presentSeeked(_ result: SeekResult, requested: MediaTime?, duration: MediaTime?, showsTiming: Bool) {
    var event = builder("seeked", result.id)
    event.time("target", result.target)
    // Only a clamped seek carries these: transcripts of seeks within the media stay as they were.
    if let requested {
      event.time("requested", requested)
      event.bool("clamped", true)
    }
    event.time("position", result.position)
    event.string("mode", result.mode.rawValue)
    // Wall-clock figures would make a virtual-clock transcript differ from run to run.
    if showsTiming { event.decimal("ms", result.milliseconds, decimals: 1, jsonDecimals: 3) }
    display(event)
    redrawStatusLine(state: shownState, position: result.position, duration: duration)
  }

  public func presentSuperseded(id: Int, by newerID: Int?) {
    var event = builder("superseded", id)
    if let newerID {
      let newer = naming(newerID)
      if let client = newer.clientID {
        event.clientID("by", client)
      } else if let number = newer.number {
        event.integer("by", number)
      } else {
        // Another client's seek replaced it: its ids mean nothing here.
        event.string("reason", "other_client")
      }
    } else {
      event.string("reason", "shutdown")
    }
    display(event)
  }

  public func presentStepped(_ result: StepResult, duration: MediaTime?) {
    var event = builder("stepped", result.id)
    event.time("position", result.position)
    event.integer("moved", result.moved)
    event.integer("requested", result.requested)
    display(event)
    redrawStatusLine(state: .paused, position: result.position, duration: duration)
  }

  public func presentRate(_ rate: Double, commandID: Int) {
    var event = builder("rate", commandID)
    event.decimal("rate", rate, decimals: 3, trimmed: true)
    display(event)
  }

  public func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int) {
    presentEnded(position: position, duration: duration, loops: loops, direction: .forward)
  }

  /// A forward ending keeps its shape; playing backward, `direction=backward` says the end reached is the start.
  public func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int, direction: PlaybackDirection) {
    var event = EventBuilder(event: "ended", commandID: nil, severity: .notice)
    event.time("position", position)
    if let duration { event.time("duration", duration) }
    event.integer("loops", loops)
    if direction == .backward { event.string("direction", direction.rawValue) }
    display(event)
    redrawStatusLine(state: .ended, position: position, duration: duration)
  }

  public func presentWaited(_ condition: WaitCondition, position: MediaTime, commandID: Int) {
    var event = builder("waited", commandID)
    event.string("condition", condition.description)
    event.time("position", position)
    display(event)
  }

  public func presentExpectation(
    _ expectation: Expectation, expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?,
    commandID: Int
  ) {
    var event = builder("expect", commandID, severity: held ? .info : .error)
    event.string("result", held ? "pass" : "fail")
    event.string("field", expectation.field.rawValue)
    event.string("op", expectation.op.rawValue)
    event.expectValue("expected", expected)
    event.expectValue("actual", actual)
    if let tolerance = expectation.tolerance { event.decimal("tolerance", tolerance, decimals: 6, trimmed: true) }
    if !held, let source {
      event.integer("line", source.number)
      event.string("source", source.text.trimmingCharacters(in: .whitespaces))
    }
    display(event)
  }

  public func presentClosed(commandID: Int) {
    display(builder("closed", commandID))
    redrawStatusLine(state: .idle, position: .zero, duration: nil)
  }

  public func presentError(_ error: PlaybackError, commandID: Int?) {
    var event = builder("error", commandID, severity: .error)
    event.string("code", error.code.rawValue)
    event.string("message", error.message)
    display(event)
  }

  public func presentStatus(_ status: PlaybackStatus, commandID: Int) {
    // A view that joined a running session (`vpk attach`) has no status line yet: its first `status` draws it. Later
    // ones leave it to the playback events.
    if !drewStatusLine { redrawStatusLine(state: status.state, position: status.position, duration: status.duration) }
    var event = builder("status", commandID)
    event.string("state", status.state.rawValue)
    event.time("position", status.position)
    if let duration = status.duration { event.time("duration", duration) }
    event.decimal("rate", status.rate, decimals: 3, trimmed: true)
    event.integer("frames_decoded", status.framesDecoded)
    event.integer("decode_errors", status.decodeErrors)
    event.integer("loops", status.loops)
    event.integer("cache_frames", status.frameCache.frames)
    event.integer("cache_bytes", status.frameCache.bytes)
    event.integer("cache_hits", status.frameCache.hits)
    event.integer("cache_misses", status.frameCache.misses)
    if let lateness = status.latenessP99 { event.decimal("late_p99_ms", lateness, decimals: 3) }
    display(event)
  }

  public func presentInfo(_ info: MediaInfo, commandID: Int) {
    var event = builder("info", commandID)
    Self.describe(info, into: &event, withBitRates: true)
    display(event)
  }

  public func presentFrame(_ frame: FrameIdentity, commandID: Int) {
    var event = builder("frame", commandID)
    event.integer("pts", Int(frame.pts))
    event.string("time_base", "\(frame.timeBase.num)/\(frame.timeBase.den)")
    event.time("time", frame.time)
    event.bool("key", frame.isKeyframe)
    event.integer("width", frame.width)
    event.integer("height", frame.height)
    event.string("pix_fmt", frame.pixelFormat)
    event.string("md5", frame.md5)
    display(event)
  }

  public func presentSnapshot(_ picture: FramePicture, commandID: Int) {
    var event = builder("snapshot", commandID)
    event.string("path", picture.path)
    event.integer("width", picture.frame.width)
    event.integer("height", picture.frame.height)
    event.string("format", picture.pixelFormat)
    event.integer("pts", Int(picture.frame.pts))
    event.time("time", picture.frame.time)
    event.string("md5", picture.frame.md5)
    display(event)
  }

  public func presentHelp(commandID: Int) {
    var event = builder("help", commandID)
    event.string("commands", CommandVerbs.names.joined(separator: " "))
    var model = event.model
    // The header line, then one indented line per command with its usage and what it does.
    model.text = ([event.header] + CommandVerbs.usageLines()).joined(separator: "\n")
    view?.displayEvent(model)
  }

  public func presentShutdown(
    reason: ShutdownReason, status: PlaybackStatus, openInterrupted: Bool = false, commandID: Int?
  ) {
    var event = builder("shutdown", commandID, severity: .notice)
    event.string("reason", reason.text)
    if openInterrupted { event.string("open", "interrupted") }
    event.string("state", status.state.rawValue)
    event.time("position", status.position)
    if let duration = status.duration { event.time("duration", duration) }
    event.integer("frames_decoded", status.framesDecoded)
    event.integer("decode_errors", status.decodeErrors)
    display(event)
    view?.displayFinish()
  }

  // MARK: - Showing

  /// An event answering `commandID`, which it names by the client's id when the client gave one.
  private func builder(_ name: String, _ commandID: Int?, severity: EventViewModel.Severity = .info) -> EventBuilder {
    let named = commandID.map { naming($0) }
    return EventBuilder(event: name, commandID: named?.number, clientID: named?.clientID, severity: severity)
  }

  private func display(_ event: EventBuilder) {
    view?.displayEvent(event.model)
  }

  private func redrawStatusLine(state: PlaybackState, position: MediaTime, duration: MediaTime?) {
    drewStatusLine = true
    shownState = state
    view?.displayStatusLine(
      StatusLineViewModel(forms: StatusLineText.forms(state: state, position: position, duration: duration)))
  }

  /// The fields `ready` and `info` share; `info` adds the bit rates that are known.
  nonisolated private static func describe(
    _ info: MediaInfo, into event: inout EventBuilder, withBitRates: Bool
  ) {
    event.string("path", info.path)
    if let duration = info.duration { event.time("duration", duration) }
    event.string("container", info.container)
    if withBitRates, let bitRate = info.bitRate { event.integer("bitrate", bitRate) }
    event.integer("streams", info.streamCount)
    if let video = info.video {
      event.string("video", video.codec)
      event.integer("width", video.width)
      event.integer("height", video.height)
      if let frameRate = video.frameRate {
        event.decimal("fps", frameRate, decimals: 3, trimmed: true)
      }
      event.string("pix_fmt", video.pixelFormat)
      if withBitRates, let bitRate = video.bitRate { event.integer("video_bitrate", bitRate) }
    } else {
      event.none("video")
    }
    if let audio = info.audio {
      event.string("audio", audio.codec)
      event.integer("sample_rate", audio.sampleRate)
      event.integer("channels", audio.channels)
      if withBitRates, let bitRate = audio.bitRate { event.integer("audio_bitrate", bitRate) }
    } else {
      event.none("audio")
    }
  }

}

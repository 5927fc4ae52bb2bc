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
  public weak var view: (any PlaybackView)?
  /// The interactor, held strongly: it holds the presenter weakly.
  public var interactor: (any PlaybackInteractorInput)?

  private let parser: CommandParser
  /// The command reader's line limit in bytes, named in the error for a line over it.
  private let maxLineBytes: Int

  /// View state: the state the status line shows, for redraws by events that do not carry one
  /// (`seeked`). Every event that redraws the line carries its position and duration.
  private var shownState: PlaybackState = .idle
  /// The ids clients gave their JSON commands, by command id: events show these instead.
  private var clientIDs: [Int: ClientID] = [:]
  /// Input lines seen so far, so a command can name its line.
  private var lineNumber = 0
  /// The client id of the JSON command being submitted: what it causes at once (`help`, a `status`
  /// with nothing pending) is presented before `submit` returns its number.
  private var submittingClientID: ClientID?
  /// The highest command number `submit` has returned; the command being submitted has a higher one.
  private var lastSubmittedID = 0

  /// - Parameter maxLineBytes: the command reader's line limit, for the error a longer line gets.
  public init(parser: CommandParser = CommandParser(), maxLineBytes: Int = 65_536) {
    self.parser = parser
    self.maxLineBytes = maxLineBytes
  }

  // MARK: - PlaybackViewEventHandler

  public func onStart() {
    interactor?.start()
  }

  public func onInputLine(_ line: InputLine) {
    lineNumber += 1
    switch line {
    case .text(let text):
      let source = SourceLine(number: lineNumber, text: text)
      let (parsed, clientID) = parser.parseInput(text)
      submittingClientID = clientID
      defer { submittingClientID = nil }
      let id: Int?
      switch parsed {
      case .empty: id = nil
      case .command(let command): id = interactor?.submit(command, source: source)
      case .invalid(let error): id = interactor?.submitInvalid(error, source: source)
      }
      if let id { submitted(id, clientID: clientID) }
    case .tooLong(let byteCount):
      let id = interactor?.submitInvalid(
        PlaybackError(
          .badInput,
          "line of \(byteCount) bytes is over the \(maxLineBytes)-byte limit; send one command per line"
        ), source: SourceLine(number: lineNumber, text: ""))
      if let id { submitted(id, clientID: nil) }
    case .invalidUTF8:
      let id = interactor?.submitInvalid(
        PlaybackError(
          .badInput, "line is not valid UTF-8; send commands as UTF-8 text, one per line"),
        source: SourceLine(number: lineNumber, text: ""))
      if let id { submitted(id, clientID: nil) }
    }
  }

  private func submitted(_ id: Int, clientID: ClientID?) {
    lastSubmittedID = max(lastSubmittedID, id)
    if let clientID { clientIDs[id] = clientID }
  }

  /// The id the client gave command `id`; while a command is being submitted, its number is the one
  /// not handed back yet.
  private func clientID(of id: Int) -> ClientID? {
    if let known = clientIDs[id] { return known }
    if let submittingClientID, id > lastSubmittedID { return submittingClientID }
    return nil
  }

  public func onInputEnded() {
    interactor?.inputEnded()
  }

  public func onSignal(_ signal: TerminationSignal) {
    interactor?.terminate(signal)
  }

  public func onOutputClosed() {
    interactor?.outputClosed()
  }

  // MARK: - PlaybackInteractorOutput

  public func presentLoading(path: String) {
    shownState = .loading
    view?.displayStatusLine(
      StatusLineViewModel(
        text: "\(Self.glyph(.loading)) loading \(Self.escapingControls(Self.fileName(path)))"))
  }

  public func presentReady(_ info: MediaInfo, commandID: Int?) {
    var event = builder("ready", commandID)
    Self.describe(info, into: &event, withBitRates: false)
    display(event)
    // A manager that is ready has opened the file and waits, paused, at the start (see the Contract).
    redrawStatusLine(state: .paused, position: .zero, duration: info.duration)
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
    redrawStatusLine(state: state, position: position, duration: duration)
  }

  public func presentSeeked(_ result: SeekResult, duration: MediaTime?, showsTiming: Bool) {
    var event = builder("seeked", result.id)
    event.time("target", result.target)
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
      if let client = clientID(of: newerID) { event.clientID("by", client) } else { event.integer("by", newerID) }
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
    var event = EventBuilder(event: "ended", commandID: nil, severity: .notice)
    event.time("position", position)
    if let duration { event.time("duration", duration) }
    event.integer("loops", loops)
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
    var event = builder("status", commandID)
    event.string("state", status.state.rawValue)
    event.time("position", status.position)
    if let duration = status.duration { event.time("duration", duration) }
    event.decimal("rate", status.rate, decimals: 3, trimmed: true)
    event.integer("frames_decoded", status.framesDecoded)
    event.integer("decode_errors", status.decodeErrors)
    event.integer("loops", status.loops)
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

  public func presentHelp(commandID: Int) {
    var event = builder("help", commandID)
    event.string("commands", Self.helpEntries.map(\.verb).joined(separator: " "))
    var model = event.model
    model.text = Self.helpText(header: event.header)
    view?.displayEvent(model)
  }

  public func presentShutdown(reason: String, status: PlaybackStatus, commandID: Int?) {
    var event = builder("shutdown", commandID, severity: .notice)
    event.string("reason", reason)
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
    EventBuilder(event: name, commandID: commandID, clientID: commandID.flatMap(clientID(of:)), severity: severity)
  }

  private func display(_ event: EventBuilder) {
    view?.displayEvent(event.model)
  }

  private func redrawStatusLine(state: PlaybackState, position: MediaTime, duration: MediaTime?) {
    shownState = state
    view?.displayStatusLine(
      StatusLineViewModel(
        text: Self.statusLine(state: state, position: position, duration: duration)))
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

  // MARK: - Help

  nonisolated static let helpEntries: [(verb: String, usage: String, summary: String)] = [
    ("play", "play", "start or resume playback"),
    ("pause", "pause", "pause playback"),
    ("toggle", "toggle", "switch between playing and paused"),
    ("scrub", "scrub <time> [exact|keyframe]", "seek to a time: 83.5, 1:23.5, 1:02:03.25 or 50%"),
    ("skip", "skip <±seconds> [exact|keyframe]", "seek from where playback is: +10, -5"),
    ("step", "step [±N]", "pause and show the Nth next (or previous) frame"),
    ("rate", "rate <x>", "playback speed: 2, 0.5 (wall and virtual clocks)"),
    ("status", "status", "report state, position and counters"),
    ("info", "info", "report the media: container, duration, streams, codecs"),
    ("frame", "frame", "report the frame on screen: pts, time, key flag, md5"),
    ("open", "open <path>", "load another file"),
    ("close", "close", "unload the file and go idle"),
    ("wait", "wait <s> | ended | paused | seeked | position >= <t>", "let time pass, or until… [timeout <s>]"),
    ("expect", "expect <field> <op> <value> [±tol]", "check state, position, frame.md5 …"),
    ("help", "help", "show this list"),
    ("quit", "quit", "leave"),
  ]

  /// The header line, then one indented line per command with its usage and what it does.
  nonisolated static func helpText(header: String) -> String {
    let width = helpEntries.map(\.usage.count).max() ?? 0
    let lines = helpEntries.map { entry in
      "  " + entry.usage + String(repeating: " ", count: width - entry.usage.count + 3)
        + entry.summary
    }
    return ([header] + lines).joined(separator: "\n")
  }

  // MARK: - Status line

  /// `▶ 00:01:23.456 / 00:05:00.000  27.8%  [█████░░░░░░░░░░░░░]`; with no known (or a zero)
  /// duration, `▶ 00:01:23.456 / --:--:--.---` and no percentage or bar.
  nonisolated static func statusLine(
    state: PlaybackState, position: MediaTime, duration: MediaTime?
  ) -> String {
    let head = "\(glyph(state)) \(clock(position.seconds)) / "
    guard let duration, duration.seconds.isFinite, duration.seconds > 0 else {
      return head + unknownClock
    }
    var line = head + clock(duration.seconds)
    let percentText = fixed(position.seconds / duration.seconds * 100, decimals: 1)
    guard let percent = Double(percentText), percent.isFinite else { return line }
    let filled = min(max(Int((percent / 100 * Double(barCells)).rounded(.down)), 0), barCells)
    line += "  \(percentText)%  ["
    line +=
      String(repeating: "█", count: filled) + String(repeating: "░", count: barCells - filled) + "]"
    return line
  }

  nonisolated static let barCells = 18
  nonisolated static let unknownClock = "--:--:--.---"

  nonisolated static func glyph(_ state: PlaybackState) -> String {
    switch state {
    case .playing: "▶"
    case .paused: "⏸"
    case .ended: "■"
    case .loading: "…"
    case .idle: "○"
    }
  }

  /// The last component of a path (the path itself when it has none).
  nonisolated static func fileName(_ path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
    return name ?? path
  }

  // MARK: - Numbers

  /// Seconds with exactly three decimals: `12.345`, `60.000`, `-1.500`. Never `-0.000`.
  nonisolated static func seconds(_ value: Double) -> String {
    fixed(value, decimals: 3)
  }

  /// `HH:MM:SS.mmm`, hours growing past two digits when needed; `-` before negative times;
  /// `--:--:--.---` for times that are not finite (or too large to count in milliseconds).
  nonisolated static func clock(_ value: Double) -> String {
    guard value.isFinite else { return unknownClock }
    let digits = roundedDigits(value.magnitude, decimals: 3)
    guard digits.count <= 18, let total = Int(String(decoding: digits, as: UTF8.self)) else {
      return unknownClock
    }
    let milliseconds = total % 1000
    let seconds = total / 1000 % 60
    let minutes = total / 60_000 % 60
    let hours = total / 3_600_000
    let sign = value < 0 && total != 0 ? "-" : ""
    return sign + padded(hours, 2) + ":" + padded(minutes, 2) + ":" + padded(seconds, 2) + "."
      + padded(milliseconds, 3)
  }

  /// `value` rounded half away from zero to `decimals` places, written with exactly that many.
  /// Rounding works on the shortest decimal form of the number (what `print` shows), so
  /// `59.9995` rounds up to `60.000` although its binary value is a hair below. Non-finite
  /// values read `nan`, `inf`, `-inf`.
  nonisolated static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
    var digits = roundedDigits(value.magnitude, decimals: decimals)
    let isZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
    if digits.count <= decimals {
      digits.insert(
        contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals + 1 - digits.count), at: 0)
    }
    var text = String(decoding: digits.prefix(digits.count - decimals), as: UTF8.self)
    if decimals > 0 { text += "." + String(decoding: digits.suffix(decimals), as: UTF8.self) }
    return value < 0 && !isZero ? "-" + text : text
  }

  /// Like `fixed`, with trailing zeros (and a bare point) removed: `29.97`, `30`, `23.976`.
  nonisolated static func trimmed(_ value: Double, decimals: Int) -> String {
    let text = fixed(value, decimals: decimals)
    guard text.contains("."), value.isFinite else { return text }
    var result = Substring(text)
    while result.last == "0" { result.removeLast() }
    if result.last == "." { result.removeLast() }
    return String(result)
  }

  /// The number JSON should carry for a value shown with `decimals` places: the same rounding
  /// as the text, so `12.345000000001` becomes `12.345`. Non-finite values stay as they are.
  nonisolated static func rounded(_ value: Double, decimals: Int) -> Double {
    guard value.isFinite else { return value }
    return Double(fixed(value, decimals: decimals)) ?? value
  }

  /// The ASCII digits of `magnitude × 10^decimals`, rounded half away from zero, with no leading
  /// zeros (`"0"` for zero). Works on the shortest decimal form of `magnitude`.
  nonisolated private static func roundedDigits(_ magnitude: Double, decimals: Int) -> [UInt8] {
    // The shortest form is `d.ddd`, `d.ddde±x` or `de±x`; read it as 0.DIGITS × 10^point.
    let text = magnitude.description
    let parts = text.split(separator: "e", maxSplits: 1)
    let exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    let mantissa = parts[0].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let integerPart = Array(mantissa[0].utf8)
    let fractionPart = mantissa.count > 1 ? Array(mantissa[1].utf8) : []
    let all = integerPart + fractionPart
    let point = integerPart.count + exponent
    let keep = point + decimals
    var kept: [UInt8]
    if keep < 0 {
      kept = []
    } else if keep >= all.count {
      kept = all + Array(repeating: UInt8(ascii: "0"), count: keep - all.count)
    } else {
      kept = Array(all[..<keep])
      if all[keep] >= UInt8(ascii: "5") {
        var index = kept.count - 1
        while index >= 0, kept[index] == UInt8(ascii: "9") {
          kept[index] = UInt8(ascii: "0")
          index -= 1
        }
        if index >= 0 { kept[index] += 1 } else { kept.insert(UInt8(ascii: "1"), at: 0) }
      }
    }
    let firstNonZero = kept.firstIndex { $0 != UInt8(ascii: "0") } ?? kept.endIndex
    let digits = Array(kept[firstNonZero...])
    return digits.isEmpty ? [UInt8(ascii: "0")] : digits
  }

  nonisolated private static func padded(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  // MARK: - Strings

  /// A string value as it appears after `key=`: bare when it is safe to, else double-quoted with
  /// `\"`, `\\`, `\n`, `\r`, `\t` and `\u{XX}` escapes.
  nonisolated static func quoted(_ value: String) -> String {
    let needsQuotes =
      value.isEmpty
      || value.unicodeScalars.contains { scalar in
        scalar.properties.isWhitespace || scalar == "\"" || scalar == "=" || scalar == "\\"
          || isControl(scalar)
      }
    guard needsQuotes else { return value }
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default: result += escaped(scalar)
      }
    }
    return result + "\""
  }

  /// `value` with its control characters escaped (`\n`, `\t`, `\u{1B}` …) and nothing else changed:
  /// safe to write to a terminal.
  nonisolated static func escapingControls(_ value: String) -> String {
    guard value.unicodeScalars.contains(where: isControl) else { return value }
    return value.unicodeScalars.map(escaped).joined()
  }

  nonisolated private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case _ where isControl(scalar):
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    default: return String(scalar)
    }
  }

  /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
  nonisolated private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
  }
}

// MARK: - Building one event

/// Collects an event's typed fields and its text, `key=value` by `key=value`, in one order.
struct EventBuilder {
  let event: String
  let commandID: Int?
  let clientID: ClientID?
  let severity: EventViewModel.Severity
  private(set) var fields: [EventViewModel.Field] = []
  private var parts: [String] = []

  init(event: String, commandID: Int?, clientID: ClientID? = nil, severity: EventViewModel.Severity = .info) {
    self.event = event
    self.commandID = commandID
    self.clientID = clientID
    self.severity = severity
  }

  /// `event`, `event #id`, or `event #<client id>` for a JSON command that gave one.
  var header: String {
    if let clientID { return "\(event) #\(Self.text(clientID))" }
    return commandID.map { "\(event) #\($0)" } ?? event
  }

  var model: EventViewModel {
    EventViewModel(
      event: event, commandID: commandID, clientID: clientID.map(Self.value), fields: fields,
      text: ([header] + parts).joined(separator: " "),
      severity: severity)
  }

  /// A client id as text: strings quoted when needed, whole numbers without a point.
  static func text(_ id: ClientID) -> String {
    switch id {
    case .string(let string): PlaybackPresenter.quoted(string)
    case .number(let number): PlaybackPresenter.trimmed(number, decimals: 6)
    }
  }

  static func value(_ id: ClientID) -> EventViewModel.Value {
    switch id {
    case .string(let string): .string(string)
    case .number(let number) where number == number.rounded() && abs(number) < 1e15: .integer(Int(number))
    case .number(let number): .number(number)
    }
  }

  mutating func clientID(_ key: String, _ id: ClientID) {
    add(key, Self.value(id), Self.text(id))
  }

  /// A value `expect` compared: numbers with up to six decimals, text, true/false, or none.
  mutating func expectValue(_ key: String, _ value: ExpectValue) {
    switch value {
    case .number(let number):
      add(key, .number(PlaybackPresenter.rounded(number, decimals: 6)), PlaybackPresenter.trimmed(number, decimals: 6))
    case .string(let string): self.string(key, string)
    case .bool(let bool): self.bool(key, bool)
    case .none: none(key)
    }
  }

  /// Seconds: three decimals in text, microseconds in JSON.
  mutating func time(_ key: String, _ time: MediaTime) {
    add(
      key, .number(PlaybackPresenter.rounded(time.seconds, decimals: 6)),
      PlaybackPresenter.seconds(time.seconds))
  }

  /// A decimal number: `decimals` places in text (trailing zeros dropped when `trimmed`), the same
  /// rounding in JSON unless `jsonDecimals` asks for more.
  mutating func decimal(
    _ key: String, _ value: Double, decimals: Int, trimmed: Bool = false, jsonDecimals: Int? = nil
  ) {
    let text =
      trimmed
      ? PlaybackPresenter.trimmed(value, decimals: decimals)
      : PlaybackPresenter.fixed(value, decimals: decimals)
    add(key, .number(PlaybackPresenter.rounded(value, decimals: jsonDecimals ?? decimals)), text)
  }

  mutating func integer(_ key: String, _ value: Int) {
    add(key, .integer(value), String(value))
  }

  mutating func string(_ key: String, _ value: String) {
    add(key, .string(value), PlaybackPresenter.quoted(value))
  }

  mutating func bool(_ key: String, _ value: Bool) {
    add(key, .bool(value), value ? "true" : "false")
  }

  /// Something the media does not have: `key=none` in text, `null` in JSON.
  mutating func none(_ key: String) {
    add(key, .null, "none")
  }

  private mutating func add(_ key: String, _ value: EventViewModel.Value, _ text: String) {
    fields.append(EventViewModel.Field(key, value))
    parts.append("\(key)=\(text)")
  }
}

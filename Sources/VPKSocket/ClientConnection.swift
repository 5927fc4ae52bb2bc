// ClientConnection: one control-socket client on the main actor: the view input side of the client (its lines go
// to its presenter, in order) and the owner of its place in the session (the PlaybackClient the Builder made).
//
// Nothing is written to a connection before its first line, which shows its dialect: a line in mpv's JSON IPC
// (`{"command": ["get_property", "pause"]}`) or one of mpv's text commands that vpk's language does not have
// (`cycle pause`, `seek 20 absolute`) makes the connection speak mpv's dialect from then on, and is served as the
// first command of it; any other line makes it a client of vpk's own dialect, greeted with `hello` before its
// first reply. A first line `format json`, `format text` or `format display` chooses how vpk's events are written
// (after the `hello`): JSON lines (the default), the text lines `vpk play` prints (what `vpk attach` shows piped), or
// what `vpk play` shows on a terminal, as display lines (`vpk attach` on a terminal). A connection that never writes
// is sent nothing, as it is no client of either dialect yet. On a socket that speaks only mpv's dialect
// (`--input-ipc-server`), the connection speaks it from the start: nothing is written before the client asks, and
// every line is mpv's (JSON, or a text command).
//
// A line `record <path>` (from a client of vpk's own dialect, at any time) records the session from where it is to
// that file as a playback test script, until the client leaves (`vpk attach --record`).

import Foundation
import VPKMPV
import VideoPlaybackKit

/// Where a client's view writes, whichever transport serves the connection (NIO's channel, or a DescriptorClient's
/// thread).
@MainActor
protocol ClientOutput: EventTextOutput {
  /// Nothing more is written; the connection closes once what was written has gone out, or after
  /// `ClientOutputGrace.seconds` for a client that does not read.
  func finish()
  /// Returns once the connection has closed.
  func closed() async
}

/// How long a finished connection lets what was written reach the client before it is closed anyway.
enum ClientOutputGrace {
  static let seconds = 1
}

@MainActor
final class ClientConnection {
  /// Makes the client's view and presenter in the session (the app calls the Builder).
  typealias Attach = @MainActor (OutputFormat, any TextOutput) -> PlaybackClient
  /// Makes the view and presenter of a client speaking mpv's JSON IPC.
  typealias AttachMPV = @MainActor (any TextOutput) -> PlaybackClient
  /// Starts recording the session to a path; returns what stops it, or why it cannot.
  typealias Record = @MainActor (String) -> Result<@MainActor () -> Void, PlaybackError>

  let output: any ClientOutput
  private let attach: Attach
  private let attachMPV: AttachMPV?
  /// The client in the session; nil until the first line shows the connection's dialect.
  private var client: PlaybackClient?
  private let lineHandled: @Sendable () -> Void
  /// Gives the connection's handler on the event loop the client's quick answer for reads.
  private let answerQuickly: @Sendable (@escaping @Sendable (String) -> QuickAnswer?) -> Void
  private var speaksMPV = false
  private let record: Record?
  /// Stops the recording this client asked for (nil: none).
  private var stopRecording: (@MainActor () -> Void)?
  /// Whether the lines coming are of one read of the socket, and whether the client was told so.
  private var inRead = false
  private var toldOfRead = false

  /// - Parameter speaksMPV: the connection speaks mpv's dialect from the start (with `attachMPV`).
  init(
    output: any ClientOutput, attach: @escaping Attach, attachMPV: AttachMPV? = nil,
    speaksMPV: Bool = false, record: Record? = nil, lineHandled: @escaping @Sendable () -> Void,
    answerQuickly: @escaping @Sendable (@escaping @Sendable (String) -> QuickAnswer?) -> Void = { _ in }
  ) {
    self.output = output
    self.attach = attach
    self.attachMPV = attachMPV
    self.record = record
    self.lineHandled = lineHandled
    self.answerQuickly = answerQuickly
    if speaksMPV, let attachMPV {
      let client = attachMPV(output)
      self.client = client
      self.speaksMPV = true
      if let quickAnswer = client.quickAnswer { answerQuickly(quickAnswer) }
    }
  }

  func receive(_ line: InputLine) {
    defer { lineHandled() }
    let client: PlaybackClient
    if let attached = self.client {
      client = attached
    } else if case .text(let text) = line, let attachMPV,
      MPVCommandTranslator.isMPVRequest(text) || MPVCommandTranslator.isMPVTextLine(text)
    {
      client = attachMPV(output)
      self.client = client
      speaksMPV = true
      // Set on the loop before this line's `lineHandled`: the next line may be answered there.
      if let quickAnswer = client.quickAnswer { answerQuickly(quickAnswer) }
    } else if case .text(let text) = line, let format = Self.format(chosenBy: text) {
      attachOwnDialect(format)
      return
    } else {
      client = attachOwnDialect(.json)
    }
    if !speaksMPV, case .text(let text) = line, let path = Self.recordPath(in: text) {
      startRecording(to: path, for: client)
      return
    }
    if inRead && !toldOfRead {
      toldOfRead = true
      client.readStarted()
    }
    client.eventHandler.onInputLine(line)
  }

  /// The lines that follow, until `readCompleted`, came in one read of the socket.
  func readStarted() {
    inRead = true
  }

  /// The read's lines have all been received.
  func readCompleted() {
    inRead = false
    guard toldOfRead else { return }
    toldOfRead = false
    client?.readCompleted()
  }

  /// Makes the connection a client of vpk's own dialect, writing its events in `format` (after the JSON `hello` every
  /// such client is greeted with).
  @discardableResult
  private func attachOwnDialect(_ format: OutputFormat) -> PlaybackClient {
    let client = attach(format, output)
    self.client = client
    return client
  }

  /// The path of a line `record <path>`.
  private static func recordPath(in line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("record ") else { return nil }
    return String(trimmed.dropFirst("record ".count)).trimmingCharacters(in: .whitespaces)
  }

  private func startRecording(to path: String, for client: PlaybackClient) {
    guard let record else {
      return client.tell(PlaybackError(.badInput, "this session cannot record; run vpk play --record SCRIPT"))
    }
    guard stopRecording == nil else {
      return client.tell(PlaybackError(.badInput, "this client records the session already"))
    }
    switch record(path) {
    case .success(let stop): stopRecording = stop
    case .failure(let error): client.tell(error)
    }
  }

  /// The format a first line `format json`, `format text` or `format display` chooses.
  private static func format(chosenBy line: String) -> OutputFormat? {
    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
    case "format json": .json
    case "format text": .text
    case "format display": .display
    default: nil
    }
  }

  /// How long a client that ended its input may wait for its replies before it is closed on anyway.
  static let answerGrace: DispatchTimeInterval = .seconds(30)

  private func closeWhenAnswered(deadline: DispatchTime) {
    guard client?.owesReplies == true, DispatchTime.now() < deadline else {
      output.finish()
      return
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) { [weak self] in
      MainActor.assumeIsolated { self?.closeWhenAnswered(deadline: deadline) }
    }
  }

  /// Tells the client why it is being disconnected, then closes the connection once that is written. A connection
  /// that has not shown its dialect yet is told in vpk's (`hello`, then the `error`).
  func disconnect(_ reason: PlaybackError) {
    (client ?? attachOwnDialect(.json)).disconnect(reason)
    output.finish()
  }

  /// The client sends no more: it gets the replies to what it sent, then the connection is closed. An mpv client is
  /// closed once its mpv requests are answered, as mpv does (its client libraries wait for that to end their
  /// reading): one request can take several of vpk's commands, one after another.
  func inputEnded() {
    guard let client else {
      output.finish()
      return
    }
    if speaksMPV {
      closeWhenAnswered(deadline: .now() + Self.answerGrace)
    } else {
      client.inputEnded { [output] in output.finish() }
    }
  }

  /// The client left: what its commands still cause is dropped.
  func detach() {
    stopRecording?()
    stopRecording = nil
    client?.detach()
  }
}

// ClientConnection: one control-socket client on the main actor: the view input side of the client (its lines go
// to its presenter, in order) and the owner of its place in the session (the PlaybackClient the Builder made, or the
// client of the app's other dialect, SocketDialectClient).
//
// Nothing is written to a connection before its first line, which shows its dialect: a line the app's other dialect
// claims (mpv's JSON IPC, `{"command": ["get_property", "pause"]}`, or one of mpv's text commands that vpk's language
// does not have, `cycle pause`) makes the connection speak that dialect from then on, and is served as the first
// request of it; any other line makes it a client of vpk's own dialect, greeted with `hello` before its first reply.
// A first line `format json`, `format text` or `format display` chooses how vpk's events are written (after the
// `hello`): JSON lines (the default), the text lines `vpk play` prints (what `vpk attach` shows piped), or what
// `vpk play` shows on a terminal, as display lines (`vpk attach` on a terminal). A connection that never writes is
// sent nothing, as it is no client of either dialect yet. On a socket that serves the other dialect alone
// (`--input-ipc-server`), the connection speaks it from the start: nothing is written before the client asks.
//
// A line `record <path>` (from a client of vpk's own dialect, at any time) records the session from where it is to
// that file as a playback test script, until the client leaves (`vpk attach --record`).

import Foundation
import VideoPlaybackKit

/// Where a client's view writes (its NIO channel).
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
  /// Starts recording the session to a path; returns what stops it, or why it cannot.
  typealias Record = @MainActor (String) -> Result<@MainActor () -> Void, PlaybackError>

  /// The client in the session, of vpk's own dialect or of the app's other one.
  private enum Client {
    case own(PlaybackClient)
    case dialect(any SocketDialectClient)
  }

  let output: any ClientOutput
  private let attach: Attach
  private let dialect: (any SocketDialect)?
  /// nil until the first line shows the connection's dialect.
  private var client: Client?
  private let lineHandled: @Sendable () -> Void
  /// Gives the connection's handler on the event loop the client's quick answer for reads.
  private let answerQuickly: @Sendable (@escaping @Sendable (String) -> QuickAnswer?) -> Void
  private let record: Record?
  /// Stops the recording this client asked for (nil: none).
  private var stopRecording: (@MainActor () -> Void)?
  /// Whether the lines coming are of one read of the socket, and whether the client was told so.
  private var inRead = false
  private var toldOfRead = false

  /// - Parameters:
  ///   - dialect: the app's other dialect, which a first line it claims chooses.
  ///   - dialectOnly: the connection speaks `dialect` from the start.
  init(
    output: any ClientOutput, attach: @escaping Attach, dialect: (any SocketDialect)? = nil,
    dialectOnly: Bool = false, record: Record? = nil, lineHandled: @escaping @Sendable () -> Void,
    answerQuickly: @escaping @Sendable (@escaping @Sendable (String) -> QuickAnswer?) -> Void = { _ in }
  ) {
    self.output = output
    self.attach = attach
    self.dialect = dialect
    self.record = record
    self.lineHandled = lineHandled
    self.answerQuickly = answerQuickly
    if dialectOnly, let dialect { attachDialect(dialect) }
  }

  func receive(_ line: InputLine) {
    defer { lineHandled() }
    switch client {
    case .dialect(let client):
      pass(line, to: client)
    case .own(let client):
      receiveOwn(line, client: client)
    case nil:
      guard case .text(let text) = line else { return receiveOwn(line, client: attachOwnDialect(.json)) }
      if let dialect, dialect.isSpoken(by: text) {
        pass(line, to: attachDialect(dialect))
      } else if let format = Self.format(chosenBy: text) {
        attachOwnDialect(format)
      } else {
        receiveOwn(line, client: attachOwnDialect(.json))
      }
    }
  }

  private func pass(_ line: InputLine, to client: any SocketDialectClient) {
    if inRead && !toldOfRead {
      toldOfRead = true
      client.linesTogether(true)
    }
    client.receive(line)
  }

  private func receiveOwn(_ line: InputLine, client: PlaybackClient) {
    if case .text(let text) = line, let path = Self.recordPath(in: text) {
      return startRecording(to: path, for: client)
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
    if case .dialect(let client) = client { client.linesTogether(false) }
  }

  /// Makes the connection a client of vpk's own dialect, writing its events in `format` (after the JSON `hello` every
  /// such client is greeted with).
  @discardableResult
  private func attachOwnDialect(_ format: OutputFormat) -> PlaybackClient {
    let client = attach(format, output)
    self.client = .own(client)
    return client
  }

  /// Makes the connection a client of the app's other dialect, and gives its quick answer to the handler (set on the
  /// loop before this line's `lineHandled`: the next line may be answered there).
  @discardableResult
  private func attachDialect(_ dialect: any SocketDialect) -> any SocketDialectClient {
    let client = dialect.attach(output: output)
    self.client = .dialect(client)
    if let quickAnswer = client.quickAnswer { answerQuickly(quickAnswer) }
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

  private func closeWhenAnswered(_ client: any SocketDialectClient, deadline: DispatchTime) {
    guard client.owesReplies, DispatchTime.now() < deadline else {
      output.finish()
      return
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) { [weak self] in
      MainActor.assumeIsolated { self?.closeWhenAnswered(client, deadline: deadline) }
    }
  }

  /// Tells the client why it is being disconnected, then closes the connection once that is written. A connection
  /// that has not shown its dialect yet is told in vpk's (`hello`, then the `error`).
  func disconnect(_ reason: PlaybackError) {
    switch client {
    case .dialect(let client): client.disconnect(reason)
    case .own(let client): client.disconnect(reason)
    case nil: attachOwnDialect(.json).disconnect(reason)
    }
    output.finish()
  }

  /// The client sends no more: it gets the replies to what it sent, then the connection is closed. A client of the
  /// other dialect is closed once its requests are answered, as mpv does (its client libraries wait for that to end
  /// their reading): one request can take several of vpk's commands, one after another.
  func inputEnded() {
    switch client {
    case .dialect(let client): closeWhenAnswered(client, deadline: .now() + Self.answerGrace)
    case .own(let client): client.inputEnded { [output] in output.finish() }
    case nil: output.finish()
    }
  }

  /// The client left: what its commands still cause is dropped.
  func detach() {
    stopRecording?()
    stopRecording = nil
    switch client {
    case .dialect(let client): client.detach()
    case .own(let client): client.detach()
    case nil: break
    }
  }
}

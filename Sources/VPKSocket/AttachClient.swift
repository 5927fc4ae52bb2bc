// AttachClient: `vpk attach PATH`, a client of a running vpk's control socket for people and shell scripts. It
// forwards its standard input to the daemon as it is, and prints what the daemon sends: text lines (the daemon's
// text presenter, asked for with `format text`), or with `--json` the JSON lines (`format json`). The format line is
// the first line it sends: the daemon greets with `hello` only once a client has shown its dialect.
//
// On a terminal (standard input and output both one, and no --json) it shows what `vpk play` shows there instead: the
// status line and the line editor (see AttachTerminal), fed by the daemon's display lines.
//
// It leaves when its input has ended and every command it sent has been answered: after the input it sends one
// `status` of its own with a client id (`vpk-attach-end`), which the daemon answers after the replies to every
// command before it, and which is not printed. Or it leaves when the daemon quits, with the daemon's reason.
//
// What it has read and not yet written out is bounded: at most `maxLinesInFlight` of the daemon's lines wait for
// standard output; past that it stops reading the socket, so a slow standard output holds the daemon back (which
// disconnects a client that reads too slowly, see ControlSocketServer), never attach's memory.

import Foundation
import NIOCore
import NIOPosix
import VideoPlaybackKit

package enum AttachClient {
  /// The client id of the `status` that marks the end of what attach sent.
  package static let endMarkerID = "vpk-attach-end"
  /// The daemon's lines read and not yet written out, past which attach stops reading the socket.
  static let maxLinesInFlight = 64

  /// Exit statuses of `vpk attach` besides the daemon's own (see `exitStatus(forShutdownReason:)`).
  package enum ExitStatus {
    /// The socket cannot be reached, is not a vpk's, or the daemon closed the connection without shutting down.
    package static let unavailable: Int32 = 69
  }

  /// Connects, forwards standard input, prints the daemon's lines to standard output, and returns the exit status.
  /// `log` writes one line to standard error.
  /// - Parameter terminal: show the status line and edit the input line (standard input and output are a terminal);
  ///   `print` is not used then.
  /// - Parameter record: an absolute path the daemon records the session to (as a playback test script) while this
  ///   client is attached.
  /// Seconds attach waits for the daemon's `hello` after its first line before it says the socket is not vpk's.
  static let greetingDeadlineSeconds: Int64 = 15

  package static func run(
    path: String, json: Bool, terminal: AttachTerminal.Options? = nil, inputDescriptor: Int32 = 0,
    record: String? = nil, print: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void
  ) async -> Int32 {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let code = await run(
      path: path, json: json, terminal: terminal, inputDescriptor: inputDescriptor, record: record, group: group,
      print: print, log: log)
    try? await group.shutdownGracefully()
    return code
  }

  @MainActor
  private static func run(
    path: String, json: Bool, terminal: AttachTerminal.Options?, inputDescriptor: Int32, record: String?,
    group: MultiThreadedEventLoopGroup, print: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) async -> Int32 {
    let (lines, continuation) = AsyncStream<AttachEvent>.makeStream()
    let channel: any Channel
    do {
      channel = try await ClientBootstrap(group: group)
        .channelOption(.allowRemoteHalfClosure, value: true)
        .channelInitializer { channel in
          channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandlers(
              ByteToMessageHandler(CommandLineDecoder(maxLineBytes: 1 << 24)),
              DaemonLineHandler(continuation: continuation))
          }
        }
        .connect(unixDomainSocketPath: path).get()
    } catch {
      log(AttachConnectFailure.message(path: path, error: error))
      return ExitStatus.unavailable
    }
    // Whatever still reads input once attach is done sends nothing: the event loop goes away after this returns.
    let gate = AttachChannelGate(channel)
    defer { gate.shut() }
    let directory = FileManager.default.currentDirectoryPath
    var received = lines.makeAsyncIterator()
    // The daemon writes nothing before a client's first line; this one chooses the format, and `hello` answers it.
    // A socket that never answers it (mpv's, or vpk's own `--input-ipc-server`) is told apart by a deadline.
    let overdue = channel.eventLoop.scheduleTask(in: .seconds(greetingDeadlineSeconds)) {
      continuation.yield(.greetingOverdue)
    }
    gate.send(ByteBuffer(string: terminal != nil ? "format display\n" : json ? "format json\n" : "format text\n"))
    let greeting = await received.next(isolation: #isolation)
    overdue.cancel()
    guard case .line(.text(let hello), let handled) = greeting, isHello(hello) else {
      if case .greetingOverdue = greeting {
        log(
          "vpk attach: \(path) did not greet as a vpk control socket within \(greetingDeadlineSeconds) s; it may be an mpv "
            + "socket (mpv's, or vpk play --input-ipc-server): attach to the socket of vpk play --socket")
      } else {
        log("vpk attach: \(path) does not greet as a vpk control socket")
      }
      channel.close(promise: nil)
      return ExitStatus.unavailable
    }
    handled()
    if let terminal {
      let ending = await AttachTerminal.run(
        options: terminal, inputDescriptor: inputDescriptor, gate: gate, directory: directory,
        events: continuation, received: &received, firstLines: record.map { "record \($0)\n" } ?? "")
      switch ending {
      case .answered: return 0
      case .signal(let number): return 128 + number
      case .daemonClosed(let reason): return leaving(reason: reason, log: log)
      }
    }
    if let record { gate.send(ByteBuffer(string: "record \(record)\n")) }
    forwardInput(from: inputDescriptor, to: gate, directory: directory)

    var reason: String?
    while let event = await received.next(isolation: #isolation) {
      guard case .line(let line, let handled) = event else { continue }
      // Written (print blocks while standard output is full) before the handler may read more.
      defer { handled() }
      guard case .text(let text) = line else { continue }
      if isEndMarkerReply(text, json: json) { return 0 }
      if let said = shutdownReason(in: text, json: json) { reason = said }
      print(text)
    }
    return leaving(reason: reason, log: log)
  }

  /// The daemon closed the connection: says why on standard error, and returns attach's exit status.
  private static func leaving(reason: String?, log: @Sendable (String) -> Void) -> Int32 {
    guard let reason else {
      log("vpk attach: the daemon closed the connection")
      return ExitStatus.unavailable
    }
    log("vpk attach: the daemon shut down: \(reason)")
    return exitStatus(forShutdownReason: reason)
  }

  /// The daemon's exit status for the reason its `shutdown` gave; `vpk attach` leaves with it.
  static func exitStatus(forShutdownReason reason: String) -> Int32 {
    switch reason {
    case "open failed": 3
    case "SIGINT": 130
    case "SIGTERM": 143
    case "SIGHUP": 129
    default: 0
    }
  }

  /// Copies standard input to the daemon as it comes, on a thread of its own (blocking read(2); each write waits
  /// until the daemon has taken the previous one, so a fast producer is held back, not buffered), whole lines at a
  /// time, relative paths made absolute from `directory` (see AttachPaths). At its end, a last line without `\n` is
  /// ended, and the end marker is sent.
  private static func forwardInput(from descriptor: Int32, to gate: AttachChannelGate, directory: String) {
    // (Kept apart from AttachTerminal's: that one gets whole lines from the line editor.)
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 16_384)
      var forwarder = AttachInputLines(directory: directory)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        let bytes = forwarder.take(buffer[0..<count])
        if bytes.isEmpty { continue }
        guard let written = gate.send(ByteBuffer(bytes: bytes)), (try? written.wait()) != nil else { return }
      }
      let end = forwarder.finish() + Array((#"{"command":"status","id":"\#(endMarkerID)"}"# + "\n").utf8)
      gate.send(ByteBuffer(bytes: end))
    }
    thread.name = "vpk.attach-input"
    thread.start()
  }

  static func isHello(_ line: String) -> Bool {
    guard let object = jsonObject(line) else { return false }
    return object["event"] as? String == "hello"
  }

  static func isEndMarkerReply(_ line: String, json: Bool) -> Bool {
    json
      ? line.hasPrefix(#"{"event":"status","id":"\#(endMarkerID)""#)
      : line.hasPrefix("status #\(endMarkerID) ")
  }

  /// The reason of a `shutdown` event line, nil for any other line.
  static func shutdownReason(in line: String, json: Bool) -> String? {
    if json {
      guard line.hasPrefix(#"{"event":"shutdown""#), let object = jsonObject(line) else { return nil }
      return object["reason"] as? String
    }
    guard line.hasPrefix("shutdown "), let range = line.range(of: " reason=") else { return nil }
    let value = line[range.upperBound...]
    if value.hasPrefix("\"") {
      return value.dropFirst().split(separator: "\"", maxSplits: 1).first.map(String.init)
    }
    return value.split(separator: " ", maxSplits: 1).first.map(String.init)
  }

  private static func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
  }
}

/// What `vpk attach` waits for: a line from the daemon (`handled` must be called once it is written out), or a
/// signal (on a terminal). The stream finishes when the daemon closes the connection.
enum AttachEvent: Sendable {
  case line(InputLine, handled: @Sendable () -> Void)
  case signal(Int32)
  /// No `hello` came within the greeting deadline after attach's first line.
  case greetingOverdue
}

/// Passes the daemon's lines on to `AttachClient.run`, and the end of the connection. At most `maxLinesInFlight` lines
/// wait to be handled: past that, NIO's read() is held back until they are (the socket fills, the daemon sees it).
final class DaemonLineHandler: ChannelDuplexHandler {
  typealias InboundIn = InputLine
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let continuation: AsyncStream<AttachEvent>.Continuation
  private let maxLinesInFlight: Int
  private var linesInFlight = 0
  private var heldRead = false
  private var lineHandled: (@Sendable () -> Void)?

  init(continuation: AsyncStream<AttachEvent>.Continuation, maxLinesInFlight: Int = AttachClient.maxLinesInFlight) {
    self.continuation = continuation
    self.maxLinesInFlight = maxLinesInFlight
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    let channel = context.channel
    lineHandled = { eventLoop.execute { bound.value.handled(channel: channel) } }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    // `lineHandled` holds this handler and its channel, which holds the handler: let go of it with the pipeline.
    lineHandled = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    linesInFlight += 1
    continuation.yield(.line(unwrapInboundIn(data), handled: lineHandled ?? {}))
  }

  func read(context: ChannelHandlerContext) {
    guard linesInFlight < maxLinesInFlight else {
      heldRead = true
      return
    }
    context.read()
  }

  private func handled(channel: any Channel) {
    linesInFlight -= 1
    if heldRead && linesInFlight < maxLinesInFlight {
      heldRead = false
      channel.read()
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    // The daemon closed its side: nothing more comes.
    if let event = event as? ChannelEvent, event == .inputClosed { continuation.finish() }
    context.fireUserInboundEventTriggered(event)
  }

  func channelInactive(context: ChannelHandlerContext) {
    continuation.finish()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}

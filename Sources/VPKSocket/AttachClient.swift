// AttachClient: `vpk attach PATH`, a client of a running vpk's control socket for people and shell scripts. It
// forwards its standard input to the daemon as it is, and prints what the daemon sends: text lines (the daemon's
// text presenter, asked for with `format text`), or with `--json` the JSON lines.
//
// It leaves when its input has ended and every command it sent has been answered: after the input it sends one
// `status` of its own with a client id (`vpk-attach-end`), which the daemon answers after the replies to every
// command before it, and which is not printed. Or it leaves when the daemon quits, with the daemon's reason.

import Foundation
import NIOCore
import NIOPosix
import VideoPlaybackKit

public enum AttachClient {
  /// The client id of the `status` that marks the end of what attach sent.
  static let endMarkerID = "vpk-attach-end"

  /// Exit statuses of `vpk attach` besides the daemon's own (see `exitStatus(forShutdownReason:)`).
  public enum ExitStatus {
    /// The socket cannot be reached, is not a vpk's, or the daemon closed the connection without shutting down.
    public static let unavailable: Int32 = 69
  }

  /// Connects, forwards standard input, prints the daemon's lines to standard output, and returns the exit status.
  /// `log` writes one line to standard error.
  public static func run(
    path: String, json: Bool, inputDescriptor: Int32 = 0, print: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) async -> Int32 {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let code = await run(path: path, json: json, inputDescriptor: inputDescriptor, group: group, print: print, log: log)
    try? await group.shutdownGracefully()
    return code
  }

  private static func run(
    path: String, json: Bool, inputDescriptor: Int32, group: MultiThreadedEventLoopGroup,
    print: @escaping @Sendable (String) -> Void, log: @escaping @Sendable (String) -> Void
  ) async -> Int32 {
    let (lines, continuation) = AsyncStream<InputLine>.makeStream()
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
      log("vpk attach: cannot connect to \(path): \(error); is a vpk play --socket \(path) running?")
      return ExitStatus.unavailable
    }
    var received = lines.makeAsyncIterator()
    guard let first = await received.next(), case .text(let hello) = first, isHello(hello) else {
      log("vpk attach: \(path) does not greet as a vpk control socket")
      channel.close(promise: nil)
      return ExitStatus.unavailable
    }
    if !json { channel.writeAndFlush(ByteBuffer(string: "format text\n"), promise: nil) }
    forwardInput(from: inputDescriptor, to: channel)

    var reason: String?
    while let line = await received.next() {
      guard case .text(let text) = line else { continue }
      if isEndMarkerReply(text, json: json) {
        channel.close(promise: nil)
        return 0
      }
      if let said = shutdownReason(in: text, json: json) { reason = said }
      print(text)
    }
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
  /// until the daemon has taken the previous one, so a fast producer is held back, not buffered). At its end, a
  /// last line without `\n` is ended, and the end marker is sent.
  private static func forwardInput(from descriptor: Int32, to channel: any Channel) {
    let thread = Thread {
      var buffer = [UInt8](repeating: 0, count: 16_384)
      var lastByte: UInt8 = UInt8(ascii: "\n")
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        lastByte = buffer[count - 1]
        guard (try? channel.writeAndFlush(ByteBuffer(bytes: buffer[0..<count])).wait()) != nil else { return }
      }
      let end =
        (lastByte == UInt8(ascii: "\n") ? "" : "\n") + #"{"command":"status","id":"\#(endMarkerID)"}"# + "\n"
      channel.writeAndFlush(ByteBuffer(string: end), promise: nil)
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

/// Passes the daemon's lines on to `AttachClient.run`, and the end of the connection.
private final class DaemonLineHandler: ChannelInboundHandler {
  typealias InboundIn = InputLine

  private let continuation: AsyncStream<InputLine>.Continuation

  init(continuation: AsyncStream<InputLine>.Continuation) {
    self.continuation = continuation
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    continuation.yield(unwrapInboundIn(data))
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

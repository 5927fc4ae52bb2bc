// ClientChannelHandler: one control-socket client on NIO's event loop, whichever dialect it speaks. It passes the
// client's lines on to the main actor in order, and keeps what one client can cost bounded both ways (the one place
// these bounds are written, for every dialect):
//
// - in: at most `maxLinesInFlight` lines wait for the main actor; past that it stops reading the socket until they
//   are handled (NIO's read() is held back), so a client that floods commands fills its own socket, not vpk's memory;
// - out: the channel's write buffer has a high-water mark; when a client reads too slowly for the events it is sent
//   the channel turns unwritable, and the handler reports it once, and the client is disconnected with a reason.
//   Writes never wait: the engine and the other clients go on;
// - a line's length: CommandLineDecoder, ahead of this handler, holds at most the limit's worth of a line.
//
// A line that only reads (an mpv client's `get_property`) may be answered here, on the loop, by the client's dialect
// (`quickAnswer`, see SocketDialectClient), so a read costs no trip through the main actor; so may a line whose reply
// comes before its work (an mpv `seek`, answered as queued), which then still goes to the main actor. Only when no
// earlier line of the client's is still waiting for the main actor, so replies keep the order of the requests.
//
// The lines of one read of the socket are reported between `readStarted` and `readCompleted`: an mpv client's
// presenter answers them all before it sends the events they cause, as mpv does.

import NIOCore
import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a client's connection reports to the main actor, in the order it happened.
enum ClientChannelEvent: Sendable {
  /// The client connected: `output` makes what the client's view writes to. `lineHandled` must be called once for
  /// every `.line` that follows, once it is handled. `answerQuickly` gives the handler the client's quick answer
  /// for reads (see ClientChannelHandler).
  case connected(
    output: @MainActor @Sendable () -> any ClientOutput, lineHandled: @Sendable () -> Void,
    answerQuickly: @Sendable (@escaping @Sendable (String) -> QuickAnswer?) -> Void)
  case line(InputLine)
  /// The lines that follow, up to `readCompleted`, came in one read of the socket (sent together).
  case readStarted
  /// The read that `readStarted` began has passed on all its lines.
  case readCompleted
  /// The client sends no more (it closed its writing side); it may still read.
  case inputEnded
  /// The client left events unread past the write buffer's high-water mark.
  case overflowed
  case disconnected
}

final class ClientChannelHandler: ChannelDuplexHandler {
  typealias InboundIn = InputLine
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// Lines that may wait for the main actor before reading stops.
  static let maxLinesInFlight = 64

  /// Hands an event to the main actor (in order).
  private let report: @Sendable (ClientChannelEvent) -> Void
  /// Where this handler writes the replies it gives itself, after the main actor's writes.
  private let batch: ChannelWriteBatch
  /// The reply to a line that only reads, when the client's presenter can give it here; set once the client's
  /// dialect is known.
  private var quickAnswer: (@Sendable (String) -> QuickAnswer?)?
  private var linesInFlight = 0
  /// A read NIO asked for while too many lines were in flight, to be passed on once they are handled.
  private var heldRead = false
  private var overflowed = false
  /// Whether a line of the current read was passed on (`readStarted` reported).
  private var readStarted = false
  private var channel: (any Channel)?

  init(report: @escaping @Sendable (ClientChannelEvent) -> Void, batch: ChannelWriteBatch) {
    self.report = report
    self.batch = batch
  }

  func handlerAdded(context: ChannelHandlerContext) {
    channel = context.channel
  }

  func channelActive(context: ChannelHandlerContext) {
    let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    let channel = context.channel
    let batch = self.batch
    report(
      .connected(
        output: { ChannelTextOutput(channel: channel, batch: batch) },
        lineHandled: { eventLoop.execute { bound.value.lineHandled() } },
        answerQuickly: { answer in eventLoop.execute { bound.value.quickAnswer = answer } }))
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let line = unwrapInboundIn(data)
    // Not for a client past the write buffer's mark: its lines go the long way, where reading is held back and what
    // is written for it is dropped until it is disconnected, so a client that floods reads and never reads its
    // replies stays bounded.
    if linesInFlight == 0, !overflowed, context.channel.isWritable, let quickAnswer, case .text(let text) = line,
      let answer = quickAnswer(text)
    {
      batch.writeNow(ByteBuffer(string: answer.text), to: context.channel)
      // Its event goes out after what NIO reads with the line: dropped if that is the end of the client's input.
      if let event = answer.event { batch.write(ByteBuffer(string: event), to: context.channel, isEvent: true) }
      // A line answered here that must still be carried out goes on, and the lines behind it take the long way.
      guard answer.passesLineOn else { return }
      // Its client, woken by the reply, waits for a processor: it reads the reply before the line's work (a seek,
      // with every cache cold) takes the cores on the main actor.
      sched_yield()
    }
    linesInFlight += 1
    if !readStarted {
      readStarted = true
      report(.readStarted)
    }
    report(.line(line))
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    if readStarted {
      readStarted = false
      report(.readCompleted)
    }
    context.fireChannelReadComplete()
  }

  func read(context: ChannelHandlerContext) {
    guard linesInFlight < Self.maxLinesInFlight else {
      heldRead = true
      return
    }
    context.read()
  }

  private func lineHandled() {
    linesInFlight -= 1
    if heldRead && linesInFlight < Self.maxLinesInFlight {
      heldRead = false
      channel?.read()
    }
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if !context.channel.isWritable && !overflowed {
      overflowed = true
      report(.overflowed)
    }
    context.fireChannelWritabilityChanged()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let event = event as? ChannelEvent, event == .inputClosed {
      // The decoder passed on the client's last line (one without `\n`) as its input closed, with no read completing.
      if readStarted {
        readStarted = false
        report(.readCompleted)
      }
      batch.inputEnded(context.channel)
      report(.inputEnded)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // A reset or a broken pipe: the client is gone.
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    batch.closed(context.channel)
    channel = nil
    // The quick answer may hold what holds this handler: let go of it with the connection.
    quickAnswer = nil
    report(.disconnected)
    context.fireChannelInactive()
  }
}

// ClientChannelHandler: one control-socket client on NIO's event loop. It passes the client's lines on to the main
// actor in order, and keeps what one client can cost bounded both ways:
//
// - in: at most `maxLinesInFlight` lines wait for the main actor; past that it stops reading the socket until they
//   are handled (NIO's read() is held back), so a client that floods commands fills its own socket, not vpk's memory;
// - out: the channel's write buffer has a high-water mark; when a client reads too slowly for the events it is sent
//   the channel turns unwritable, and the handler reports it once, and the client is disconnected with a reason.
//   Writes never wait: the engine and the other clients go on.

import NIOCore
import VideoPlaybackKit

/// What a client's connection reports to the main actor, in the order it happened.
enum ClientChannelEvent: Sendable {
  /// The client connected; `lineHandled` must be called once for every `.line` that follows, once it is handled.
  case connected(any Channel, lineHandled: @Sendable () -> Void)
  case line(InputLine)
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
  private var linesInFlight = 0
  /// A read NIO asked for while too many lines were in flight, to be passed on once they are handled.
  private var heldRead = false
  private var overflowed = false
  private var channel: (any Channel)?

  init(report: @escaping @Sendable (ClientChannelEvent) -> Void) {
    self.report = report
  }

  func handlerAdded(context: ChannelHandlerContext) {
    channel = context.channel
  }

  func channelActive(context: ChannelHandlerContext) {
    let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    report(.connected(context.channel, lineHandled: { eventLoop.execute { bound.value.lineHandled() } }))
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    linesInFlight += 1
    report(.line(unwrapInboundIn(data)))
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
      report(.inputEnded)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // A reset or a broken pipe: the client is gone.
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    channel = nil
    report(.disconnected)
    context.fireChannelInactive()
  }
}

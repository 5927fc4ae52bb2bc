// CommandLineDecoder: line framing for the control socket, as a NIO decoder (run by NIO's ByteToMessageHandler).
// It frames with the module's LineSplitter, the one every input path shares, so a socket client's lines obey the
// same rules as standard input's: a line over the limit is reported as too long (the client gets a `bad_input`
// error and goes on) while only the limit's worth of it is ever held; bytes that are not UTF-8 are reported too.

import NIOCore
import VideoPlaybackKit

struct CommandLineDecoder: ByteToMessageDecoder {
  typealias InboundOut = InputLine

  private var splitter: LineSplitter

  init(maxLineBytes: Int) {
    splitter = LineSplitter(maxLineBytes: maxLineBytes)
  }

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
    guard buffer.readableBytes > 0 else { return .needMoreData }
    // Every byte is taken: the splitter keeps what a line needs, so the handler's buffer never grows.
    let lines = splitter.feed(buffer.readableBytesView)
    buffer.moveReaderIndex(to: buffer.writerIndex)
    for line in lines { context.fireChannelRead(wrapInboundOut(line)) }
    return .needMoreData
  }

  mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
    -> DecodingState
  {
    _ = try decode(context: context, buffer: &buffer)
    // A last line without `\n` still counts, as on standard input.
    if seenEOF {
      for line in splitter.finish() { context.fireChannelRead(wrapInboundOut(line)) }
    }
    return .needMoreData
  }
}

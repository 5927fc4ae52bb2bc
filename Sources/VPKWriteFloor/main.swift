// VPKWriteFloor: what the observers figure of scripts/bench costs before vpk does anything: a program that only
// writes an mpv `property-change` line to each of its clients at every mark, through the same stack as vpk's control
// socket (SwiftNIO on a Unix-domain socket, one event-loop thread; the lines made off the loop and handed to it in one
// task per mark, each channel written and flushed, as vpk's write batch does). The bench runs it with one client and
// with 64, as it runs vpk, and compares the CPU the extra clients cost each.
//
// Usage: VPKWriteFloor SOCKET CLIENTS MARKS INTERVAL_MS
// It listens on SOCKET (whatever is at that path is removed first: the bench gives it a fresh temporary path) and waits
// for CLIENTS connections; a line from the first client starts the marks. After the last mark it writes
// `{"event":"floor-done"}` to every client and exits once the first client sends another line (so the bench reads its
// CPU while it is still there) or closes.

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The connected clients, in the order they came; the lines the first one sends are counted off by a semaphore.
final class Clients: Sendable {
  private let list = NIOLockedValueBox<[any Channel]>([])
  private let firstLine = DispatchSemaphore(value: 0)

  func add(_ channel: any Channel) {
    list.withLockedValue { $0.append(channel) }
  }

  var channels: [any Channel] { list.withLockedValue { $0 } }

  /// Called on the loop with the bytes a client sent.
  func received(_ bytes: ByteBuffer, from channel: any Channel) {
    let lines = bytes.readableBytesView.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    guard isFirst(channel) else { return }
    for _ in 0..<lines { firstLine.signal() }
  }

  func closed(_ channel: any Channel) {
    if isFirst(channel) { firstLine.signal() }
  }

  private func isFirst(_ channel: any Channel) -> Bool {
    list.withLockedValue { $0.first === channel }
  }

  func waitForFirstLine() { firstLine.wait() }
}

final class ClientHandler: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  let clients: Clients
  init(clients: Clients) { self.clients = clients }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    clients.received(unwrapInboundIn(data), from: context.channel)
  }

  func channelInactive(context: ChannelHandlerContext) {
    clients.closed(context.channel)
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 5, let count = Int(arguments[2]), let marks = Int(arguments[3]),
  let interval = Double(arguments[4]), count > 0, marks > 0, interval > 0
else {
  FileHandle.standardError.write(Data("usage: VPKWriteFloor SOCKET CLIENTS MARKS INTERVAL_MS\n".utf8))
  exit(64)
}
let path = arguments[1]
try? FileManager.default.removeItem(atPath: path)
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
let clients = Clients()
let server = try ServerBootstrap(group: group)
  .childChannelInitializer { channel in
    clients.add(channel)
    return channel.pipeline.addHandler(ClientHandler(clients: clients))
  }
  .bind(unixDomainSocketPath: path).wait()

while clients.channels.count < count { usleep(10_000) }
let channels = clients.channels
clients.waitForFirstLine()

// The marks: absolute deadlines on the monotonic clock, so the rate holds however long a mark's writes take.
let start = DispatchTime.now().uptimeNanoseconds
for mark in 1...marks {
  let due = start + UInt64(Double(mark) * interval * 1e6)
  let now = DispatchTime.now().uptimeNanoseconds
  if due > now { usleep(UInt32((due - now) / 1000)) }
  let seconds = Double(mark) * interval / 1000
  let lines = channels.enumerated().map { index, channel in
    (
      channel,
      ByteBuffer(
        string: "{\"event\":\"property-change\",\"id\":\(index + 1),\"name\":\"time-pos\",\"data\":\(seconds)}\n")
    )
  }
  loop.execute {
    for (channel, bytes) in lines { channel.write(bytes, promise: nil) }
    for channel in channels { channel.flush() }
  }
}
try loop.submit {
  for channel in channels { channel.writeAndFlush(ByteBuffer(string: "{\"event\":\"floor-done\"}\n"), promise: nil) }
}.wait()
clients.waitForFirstLine()
try? server.close().wait()
try? FileManager.default.removeItem(atPath: path)
exit(0)

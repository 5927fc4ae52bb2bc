// ControlSocketServer: `vpk play --socket PATH`. Listens on a Unix-domain socket with SwiftNIO and makes every client
// a view of the session (through the `attach` the app gives, which calls the Builder). The app's other dialect (mpv's
// JSON IPC, a SocketDialect) is served by the same channels and handlers, under the same bounds: chosen by a
// client's first line, or from the start on a socket that serves it alone (`--input-ipc-server PATH`).
//
// Safety: the path is claimed first (see SocketPath: a stale socket is replaced, a live one or anything that is not
// a socket is refused); the socket is created with mode 0600 whatever the umask; a client whose user (SO_PEERCRED)
// is neither vpk's nor root is refused and the refusal logged; at most `maxClients` are served at once, a client
// more is told so and disconnected; `stop()` removes the socket file (if it is still the one vpk made). With systemd's
// socket activation, the listening socket it passed is served as it is, and its file is left to systemd.

import Dispatch
import NIOCore
import NIOPosix
import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

@MainActor
package final class ControlSocketServer {
  /// How many clients are served at once unless `--max-clients` says otherwise.
  package nonisolated static let defaultMaxClients = 64
  /// The bytes of events a client may leave unread in vpk (beyond what the kernel's socket buffer holds) before it
  /// is disconnected.
  package nonisolated static let defaultWriteBufferBytes = 1 << 20

  package struct Options: Sendable {
    /// Where vpk makes the socket; with `activatedDescriptor`, only the socket's name in messages.
    package var path: String
    /// A socket already bound and listening (systemd's socket activation) to serve instead of making one at `path`.
    /// vpk never removes its file: whoever made it does.
    package var activatedDescriptor: Int32?
    package var maxClients: Int
    package var maxLineBytes: Int
    package var writeBufferBytes: Int
    /// Every client speaks the app's other dialect (`start`'s `dialect`: mpv's JSON IPC, `--input-ipc-server`) from
    /// the start, instead of the dialect its first line chooses.
    package var dialectOnly: Bool

    package init(
      path: String, activatedDescriptor: Int32? = nil, maxClients: Int = ControlSocketServer.defaultMaxClients,
      maxLineBytes: Int = 65_536, writeBufferBytes: Int = ControlSocketServer.defaultWriteBufferBytes,
      dialectOnly: Bool = false
    ) {
      self.dialectOnly = dialectOnly
      self.path = path
      self.activatedDescriptor = activatedDescriptor
      self.maxClients = maxClients
      self.maxLineBytes = maxLineBytes
      self.writeBufferBytes = writeBufferBytes
    }
  }

  package let options: Options
  /// Writes one line to the daemon's log (standard error).
  private let log: @Sendable (String) -> Void
  private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
  /// The main actor's writes to every client, written by the group's one event loop in batches.
  private let batch: ChannelWriteBatch
  private var listener: (any Channel)?
  private var attach: ClientConnection.Attach?
  private var dialect: (any SocketDialect)?
  private var record: ClientConnection.Record?
  private var connections: [ObjectIdentifier: ClientConnection] = [:]
  /// The socket file vpk made (device and inode), so `stop()` removes that one and nothing put there since.
  private var madeFile: (device: UInt64, inode: UInt64)?
  private var stopped = false

  package init(options: Options, log: @escaping @Sendable (String) -> Void) {
    self.options = options
    self.log = log
    batch = ChannelWriteBatch(eventLoop: group.next())
  }

  /// How many clients are connected.
  package var clientCount: Int { connections.count }

  /// Claims the path and listens. Clients are attached with `attach` from then on; one whose first line `dialect`
  /// (when given) claims, with `dialect`, as is every client when the options say the socket serves it alone. A
  /// client's line `record <path>` calls `record` (when given), which starts recording the session there and returns
  /// what stops it when the client leaves.
  package func start(
    attach: @escaping @MainActor (OutputFormat, any TextOutput) -> PlaybackClient,
    dialect: (any SocketDialect)? = nil,
    record: (@MainActor (String) -> Result<@MainActor () -> Void, PlaybackError>)? = nil
  ) async throws {
    let path = options.path
    if options.activatedDescriptor == nil { try SocketPath.claim(path) }
    self.attach = attach
    self.dialect = dialect
    self.record = record
    let report = reporter()
    let batch = self.batch
    let maxLineBytes = options.maxLineBytes
    let log = self.log
    let serverUID = UInt32(getuid())
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelOption(
        .writeBufferWaterMark,
        value: .init(low: options.writeBufferBytes / 2, high: options.writeBufferBytes)
      )
      .childChannelInitializer { channel in
        Self.checkPeer(of: channel, serverUID: serverUID, log: log).flatMapThrowing {
          try channel.pipeline.syncOperations.addHandlers(
            ByteToMessageHandler(CommandLineDecoder(maxLineBytes: maxLineBytes)),
            ClientChannelHandler(report: { report(ObjectIdentifier(channel), $0) }, batch: batch))
        }
      }
    if let descriptor = options.activatedDescriptor {
      do {
        listener = try await bootstrap.withBoundSocket(descriptor).get()
      } catch {
        throw ControlSocketError("cannot serve the socket systemd passed (descriptor \(descriptor)): \(error)")
      }
      return
    }
    // The socket file is made by bind(2) with the umask's mode: 0600 from the start, whatever the caller's umask.
    let previousMask = umask(0o177)
    defer { umask(previousMask) }
    do {
      listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
    } catch {
      throw ControlSocketError("cannot listen on \(path): \(error)")
    }
    chmod(path, 0o600)
    var info = stat()
    if lstat(path, &info) == 0 { madeFile = (UInt64(info.st_dev), UInt64(info.st_ino)) }
  }

  /// Stops listening, lets every client's last events go out (a short grace for those that do not read), closes
  /// them and removes the socket file.
  package func stop() async {
    guard !stopped else { return }
    stopped = true
    let closingListener: EventLoopFuture<Void>? = listener?.close()
    try? await closingListener?.get()
    let outputs = connections.values.map(\.output)
    for output in outputs { output.finish() }
    for output in outputs { await output.closed() }
    connections.removeAll()
    removeSocketFile()
    try? await group.shutdownGracefully()
  }

  /// Removes the socket file if it is still the one vpk made. Safe from any thread (a signal watchdog calls it).
  package nonisolated static func removeSocketFile(path: String, device: UInt64, inode: UInt64) {
    var info = stat()
    guard lstat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return }
    unlink(path)
  }

  /// What removes the socket file from anywhere (a signal watchdog that cannot wait for the main actor).
  package var socketFileRemover: @Sendable () -> Void {
    guard let madeFile else { return {} }
    let path = options.path
    return { Self.removeSocketFile(path: path, device: madeFile.device, inode: madeFile.inode) }
  }

  private func removeSocketFile() {
    socketFileRemover()
    madeFile = nil
  }

  // MARK: - Clients

  /// Refuses a client whose user is neither vpk's nor root (the kernel's word, SO_PEERCRED), and logs it.
  private nonisolated static func checkPeer(
    of channel: any Channel, serverUID: UInt32, log: @escaping @Sendable (String) -> Void
  ) -> EventLoopFuture<Void> {
    guard let provider = channel as? any SocketOptionProvider else {
      return channel.eventLoop.makeFailedFuture(ControlSocketError("cannot read the client's credentials"))
    }
    let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(PeerCredentials.option))
    return credentials.flatMapThrowing { peer in
      guard peer.mayConnect(to: serverUID) else {
        log(peer.refusal(serverUID: serverUID))
        throw ControlSocketError("client of another user")
      }
    }
  }

  /// Hands a connection's events to the main actor, in order (the main queue is FIFO).
  private func reporter() -> @Sendable (ObjectIdentifier, ClientChannelEvent) -> Void {
    // Strong: the server lives as long as the session, and these closures no longer than its connections.
    let server = self
    return { id, event in
      DispatchQueue.main.async {
        MainActor.assumeIsolated { server.handle(event, of: id) }
      }
    }
  }

  private func handle(_ event: ClientChannelEvent, of id: ObjectIdentifier) {
    switch event {
    case .connected(let makeOutput, let lineHandled, let answerQuickly):
      // A client that connected as the server stopped is left alone: its channel closes with the event loops, which
      // may be gone already, and finishing it would schedule work on them.
      guard !stopped else { return }
      let output = makeOutput()
      guard let attach else {
        output.finish()
        return
      }
      let connection = ClientConnection(
        output: output, attach: attach, dialect: dialect, dialectOnly: options.dialectOnly,
        record: record, lineHandled: lineHandled, answerQuickly: answerQuickly)
      guard connections.count < options.maxClients else {
        log("refused a client: \(options.maxClients) are connected, the --max-clients limit")
        connection.disconnect(
          PlaybackError(
            .tooManyClients,
            "vpk serves \(options.maxClients) clients at once (--max-clients); try again when one has left"))
        return
      }
      connections[id] = connection
    case .line(let line):
      connections[id]?.receive(line)
    case .readStarted:
      connections[id]?.readStarted()
    case .readCompleted:
      connections[id]?.readCompleted()
    case .inputEnded:
      connections[id]?.inputEnded()
    case .overflowed:
      guard let connection = connections[id] else { return }
      log("disconnected a client that left over \(options.writeBufferBytes) bytes of events unread")
      connection.disconnect(
        PlaybackError(
          .slowClient,
          "over \(options.writeBufferBytes) bytes of events were left unread; read events as they come"))
    case .disconnected:
      connections.removeValue(forKey: id)?.detach()
    }
  }
}

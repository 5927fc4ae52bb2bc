// DescriptorListener: the listening side of a socket that speaks only mpv's dialect (`--input-ipc-server`): a
// Unix-domain socket bound at a path, whose connections a thread accepts and hands on as descriptors, each to be
// served by a DescriptorClient. A client whose user is neither vpk's nor root (SO_PEERCRED) is refused and logged.

import CVPKThreadName
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

final class DescriptorListener: @unchecked Sendable {
  private let descriptor: Int32
  private let lock = NSLock()
  private var stopped = false

  /// Binds and listens at `path` (which the caller has claimed), with the mode bind(2) gives under `umask`.
  init(path: String) throws {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      throw ControlSocketError("the path is \(bytes.count) bytes long; a socket's path must be under \(capacity)")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { throw ControlSocketError(String(cString: strerror(errno))) }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(descriptor, 256) == 0 else {
      let reason = String(cString: strerror(errno))
      Glibc.close(descriptor)
      throw ControlSocketError(reason)
    }
  }

  /// Accepts connections on a thread of its own until `stop()`, handing each connected descriptor to `accepted`
  /// (which owns it from then on). `log` says why a client was refused.
  func start(
    serverUID: UInt32, log: @escaping @Sendable (String) -> Void, accepted: @escaping @Sendable (Int32) -> Void
  ) {
    let thread = Thread { [self] in
      vpk_name_thread("vpk mpv socket")
      while true {
        let client = accept(descriptor, nil, nil)
        if lock.withLock({ stopped }) {
          if client >= 0 { Glibc.close(client) }
          break
        }
        guard client >= 0 else {
          // A client that left before it was accepted: the next. Anything else (out of descriptors or memory) may
          // last: wait a little rather than spin.
          if errno != EINTR && errno != ECONNABORTED { usleep(errno == EMFILE || errno == ENFILE ? 100_000 : 10_000) }
          continue
        }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        guard Self.mayConnect(client, serverUID: serverUID, log: log) else {
          Glibc.close(client)
          continue
        }
        accepted(client)
      }
      Glibc.close(descriptor)
    }
    thread.start()
  }

  /// Stops accepting: the thread's accept(2) returns and the listening socket is closed.
  func stop() {
    lock.withLock { stopped = true }
    shutdown(descriptor, Int32(SHUT_RDWR))
  }

  private static func mayConnect(_ client: Int32, serverUID: UInt32, log: @Sendable (String) -> Void) -> Bool {
    var peer = PeerCredentials()
    var length = socklen_t(MemoryLayout<PeerCredentials>.size)
    guard getsockopt(client, SOL_SOCKET, PeerCredentials.option, &peer, &length) == 0 else { return false }
    guard peer.mayConnect(to: serverUID) else {
      log(peer.refusal(serverUID: serverUID))
      return false
    }
    return true
  }
}

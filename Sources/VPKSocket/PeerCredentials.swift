// PeerCredentials: who is at the other end of a Unix-domain socket, as the kernel tells it (SO_PEERCRED).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process at the other end of a connection: Linux's `struct ucred`, field for field.
struct PeerCredentials: Sendable, Equatable {
  var pid: Int32 = 0
  var uid: UInt32 = 0
  var gid: UInt32 = 0

  /// The socket option that reads them.
  static let option = SO_PEERCRED

  /// Only vpk's own user, or root, may steer it.
  func mayConnect(to serverUID: UInt32) -> Bool {
    uid == serverUID || uid == 0
  }

  /// What the daemon's log says when this peer is refused.
  func refusal(serverUID: UInt32) -> String {
    "refused a client: pid \(pid) runs as uid \(uid); only vpk's user (uid \(serverUID)) and root may connect"
  }
}

// SocketPath: what is at a control socket's path before vpk listens there, and claiming it safely: nothing there is
// fine; a socket nobody listens on (left by a vpk that was killed) is replaced; a socket another process listens on
// is refused; anything else (a file, a folder, a link) is refused and never touched.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why the control socket cannot be used; the description says what to do.
package struct ControlSocketError: Error, CustomStringConvertible, Sendable, Equatable {
  package var description: String
  package init(_ description: String) { self.description = description }
}

enum SocketPath {
  enum State: Equatable {
    /// Nothing is there.
    case free
    /// A socket that no process listens on.
    case stale
    /// A socket a process listens on.
    case live
    /// Something that is not a socket: what it is, in words.
    case notASocket(String)
  }

  /// The longest path a Unix-domain socket address holds, in bytes (107 on Linux).
  static let maxBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// What is at `path` now. A link is not followed: it counts as not a socket.
  static func inspect(_ path: String) throws -> State {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return .free }
      throw ControlSocketError("cannot look at \(path): \(String(cString: strerror(errno)))")
    }
    switch info.st_mode & S_IFMT {
    case S_IFSOCK: break
    case S_IFDIR: return .notASocket("a directory")
    case S_IFLNK: return .notASocket("a symbolic link")
    case S_IFREG: return .notASocket("a regular file")
    default: return .notASocket("not a socket")
    }
    return try isListening(path) ? .live : .stale
  }

  /// Makes `path` free for vpk to bind: replaces a stale socket, refuses everything else that is there.
  static func claim(_ path: String) throws {
    guard !path.isEmpty else { throw ControlSocketError("the socket needs a path") }
    guard path.utf8.count <= maxBytes else {
      throw ControlSocketError(
        "socket path \(path) is \(path.utf8.count) bytes, over the \(maxBytes) a Unix-domain socket allows; "
          + "use a shorter path")
    }
    switch try inspect(path) {
    case .free:
      return
    case .stale:
      // A socket nobody listens on is what a killed vpk leaves behind.
      guard unlink(path) == 0 || errno == ENOENT else {
        throw ControlSocketError("cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
      }
    case .live:
      throw ControlSocketError("another process is listening on \(path); stop it, or give another path")
    case .notASocket(let what):
      throw ControlSocketError(
        "\(path) exists and is \(what), not a socket; vpk leaves it alone: remove it or give another path")
    }
  }

  /// Whether a process accepts connections on the socket at `path` (a connect succeeds).
  static func isListening(_ path: String) throws -> Bool {
    // Non-blocking: a listener whose backlog is full (one that never accepts) would otherwise hold vpk here.
    let descriptor = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard descriptor >= 0 else {
      throw ControlSocketError("cannot make a socket: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.prefix(maxBytes).enumerated() { bytes[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    if result == 0 { return true }
    switch errno {
    case ECONNREFUSED, ENOENT: return false
    // Someone listens but has not accepted yet.
    case EAGAIN, EINPROGRESS: return true
    case let error:
      throw ControlSocketError("cannot tell whether \(path) is in use: \(String(cString: strerror(error)))")
    }
  }
}

// AttachConnectFailure: why `vpk attach` could not connect to a control socket, in words that say what to do.

import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

enum AttachConnectFailure {
  /// The line attach writes on standard error when connecting to `path` threw `error`.
  static func message(path: String, error: any Error) -> String {
    let start = "start one with vpk play --socket \(path)"
    var info = stat()
    if stat(path, &info) == 0 && info.st_mode & S_IFMT != S_IFSOCK {
      let what = info.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a socket"
      return "vpk attach: \(path) is \(what); give the path that vpk play --socket listens on"
    }
    let code = (error as? IOError)?.errnoCode
    switch code {
    case ENOENT?:
      return "vpk attach: no vpk is listening at \(path); \(start)"
    case ECONNREFUSED?:
      return "vpk attach: no vpk is listening at \(path) (the socket is left from one that stopped); \(start)"
    case EACCES?, EPERM?:
      return "vpk attach: permission denied for \(path): the socket is private to the user that runs vpk play "
        + "(mode 0600); attach as that user"
    case ENOTSOCK?:
      return "vpk attach: \(path) is not a socket; give the path that vpk play --socket listens on"
    case let code?:
      return "vpk attach: cannot connect to \(path): \(String(cString: strerror(code)))"
    case nil:
      if path.utf8.count > SocketPath.maxBytes {
        return "vpk attach: \(path) is \(path.utf8.count) bytes, over the \(SocketPath.maxBytes) a Unix-domain "
          + "socket path allows; use a shorter path (or a link to it)"
      }
      return "vpk attach: cannot connect to \(path); is a vpk play --socket \(path) running?"
    }
  }
}

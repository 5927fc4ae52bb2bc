// SystemdHandover: what systemd hands a service in its environment, read once and then removed from it (so no
// process vpk starts sees variables meant for vpk): NOTIFY_SOCKET (where to say READY=1, Type=notify) and, with
// socket activation, LISTEN_FDS/LISTEN_PID (the listening sockets, from descriptor 3 on).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

package struct SystemdHandover: Sendable, Equatable {
  /// The variables systemd sets for a service; `take()` unsets them all.
  package static let variables = ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES"]
  /// The first descriptor systemd passes (SD_LISTEN_FDS_START).
  package static let firstDescriptor: Int32 = 3

  /// NOTIFY_SOCKET: the datagram socket to tell systemd about readiness (a path, or `@name` in the abstract space).
  package var notifySocket: String?
  /// LISTEN_FDS: how many listening sockets systemd passed, when LISTEN_PID names this process; nil otherwise.
  package var listenDescriptors: Int?

  package init(notifySocket: String? = nil, listenDescriptors: Int? = nil) {
    self.notifySocket = notifySocket
    self.listenDescriptors = listenDescriptors
  }

  /// Reads the variables from `environment` for the process `pid`. LISTEN_FDS counts only when LISTEN_PID is `pid`
  /// (the variables may have been left for another process), and only when it is a number above 0.
  package static func parse(_ environment: [String: String], pid: Int32) -> SystemdHandover {
    var handover = SystemdHandover()
    if let notify = environment["NOTIFY_SOCKET"], !notify.isEmpty { handover.notifySocket = notify }
    if let listenPID = environment["LISTEN_PID"].flatMap({ Int32($0) }), listenPID == pid,
      let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count > 0
    {
      handover.listenDescriptors = count
    }
    return handover
  }

  /// Reads the variables from this process's environment and unsets them.
  package static func take() -> SystemdHandover {
    var environment: [String: String] = [:]
    for name in variables {
      if let value = getenv(name) { environment[name] = String(cString: value) }
      unsetenv(name)
    }
    return parse(environment, pid: getpid())
  }

  /// The listening socket systemd passed, checked: descriptor 3, a Unix-domain stream socket that listens. It is
  /// made close-on-exec (systemd passes it inheritable). Nil when systemd passed none.
  package func activatedSocket() throws -> Int32? {
    guard let count = listenDescriptors else { return nil }
    guard count == 1 else {
      throw ControlSocketError(
        "systemd passed \(count) sockets (LISTEN_FDS); vpk serves one: give the socket unit a single ListenStream=")
    }
    let descriptor = Self.firstDescriptor
    func option(_ name: Int32) throws -> Int32 {
      var value: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 else {
        throw ControlSocketError(
          "descriptor \(descriptor) from systemd (LISTEN_FDS) is not a socket: \(String(cString: strerror(errno))); "
            + "check the socket unit")
      }
      return value
    }
    guard try option(SO_DOMAIN) == AF_UNIX, try option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
      throw ControlSocketError(
        "descriptor \(descriptor) from systemd (LISTEN_FDS) is not a Unix-domain stream socket; "
          + "the socket unit needs ListenStream=/a/path")
    }
    guard try option(SO_ACCEPTCONN) == 1 else {
      throw ControlSocketError(
        "descriptor \(descriptor) from systemd (LISTEN_FDS) does not listen; the socket unit needs Accept=no")
    }
    _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    return descriptor
  }
}

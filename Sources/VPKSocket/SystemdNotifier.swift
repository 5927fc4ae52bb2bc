// SystemdNotifier: sd_notify's protocol, one datagram per state ("READY=1", "STOPPING=1") to NOTIFY_SOCKET. A few
// lines of sendto(2) rather than NIO: one synchronous message needs no event loop, and NIO's socket addresses do not
// take the abstract names (`@name`) systemd uses.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

package struct SystemdNotifier: Sendable {
  /// NOTIFY_SOCKET's value: an absolute path, or `@name` for a name in the abstract space.
  package let address: String

  package init(address: String) {
    self.address = address
  }

  /// Sends `state` (lines of `NAME=value`) in one datagram.
  package func notify(_ state: String) throws {
    var name = Array(address.utf8)
    switch name.first {
    case UInt8(ascii: "/"): break
    case UInt8(ascii: "@"): name[0] = 0
    default:
      throw ControlSocketError("NOTIFY_SOCKET=\(address) is neither a path nor an @name; vpk cannot notify systemd")
    }
    var socketAddress = sockaddr_un()
    let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
    guard name.count < capacity else {
      throw ControlSocketError("NOTIFY_SOCKET=\(address) is over \(capacity - 1) bytes; vpk cannot notify systemd")
    }
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { bytes in
      for (index, byte) in name.enumerated() { bytes[index] = byte }
    }
    // An abstract name is exactly its bytes; a path ends with its NUL.
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1)
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw ControlSocketError("cannot make a socket to notify systemd: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    let message = Array(state.utf8)
    let sent = message.withUnsafeBytes { bytes in
      withUnsafePointer(to: &socketAddress) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, socklen_t(length))
        }
      }
    }
    guard sent == message.count else {
      throw ControlSocketError("cannot notify systemd at \(address): \(String(cString: strerror(errno)))")
    }
  }
}

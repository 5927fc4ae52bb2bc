// sd_notify's datagram to NOTIFY_SOCKET, received by a datagram socket of the test's own: at a path and at an abstract
// `@name`; an address that is neither, one too long for a socket address and one nobody listens at are errors that say so.

import Foundation
import Glibc
import Testing

@testable import VPKSocket

/// A bound datagram socket standing in for systemd's; `name` is a path, or (starting with NUL) an abstract name.
private final class Receiver {
  let descriptor: Int32

  init(name: [UInt8]) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in name.enumerated() { bytes[index] = byte }
    }
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
    }
    guard bound == 0 else { throw ControlSocketError("bind: \(String(cString: strerror(errno)))") }
  }

  deinit { close(descriptor) }

  /// The next datagram (it is already there: the notifier's sendto has returned).
  func receive() -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
  }
}

@Suite struct SystemdNotifierTests {
  @Test func sendsTheStateToAPath() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "vpk-notify-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("notify").path
    let receiver = try Receiver(name: Array(path.utf8))
    try SystemdNotifier(address: path).notify("READY=1")
    #expect(receiver.receive() == "READY=1")
  }

  @Test func sendsTheStateToAnAbstractName() throws {
    let name = "vpk-notify-test-\(getpid())-\(UUID().uuidString.prefix(8))"
    let receiver = try Receiver(name: [0] + Array(name.utf8))
    try SystemdNotifier(address: "@" + name).notify("STOPPING=1")
    #expect(receiver.receive() == "STOPPING=1")
  }

  @Test(arguments: [
    ("relative/notify", "neither a path nor an @name"), ("", "neither a path nor an @name"),
    ("/" + String(repeating: "x", count: 200), "is over 107 bytes"),
    ("@" + String(repeating: "x", count: 200), "is over 107 bytes"),
    ("/nonexistent-vpk-folder/notify", "cannot notify systemd at /nonexistent-vpk-folder/notify"),
  ])
  func aBadAddressIsAnErrorThatSaysSo(address: String, says: String) {
    let error = #expect(throws: ControlSocketError.self) { try SystemdNotifier(address: address).notify("READY=1") }
    #expect(error?.description.contains(says) == true, "\(error?.description ?? "")")
  }
}

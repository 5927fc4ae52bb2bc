// `vpk play` under systemd's conventions, end to end, with the variables set by the test as systemd would: READY=1
// and STOPPING=1 to NOTIFY_SOCKET (a path or an abstract @name), and socket activation (a listening socket passed
// as descriptor 3 with LISTEN_FDS and LISTEN_PID).

import Foundation
import Testing
import VPKTestSupport

/// A short folder for sockets (a socket path holds at most 107 bytes), removed by `remove()`.
private struct SocketFolder {
  let url: URL
  init() throws {
    url = URL(fileURLWithPath: "/tmp/vpk-sd-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A datagram socket standing for systemd's notification socket: bound to a path, or to `@name` (abstract).
private final class NotifySocket {
  let descriptor: Int32
  init(address: String) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var name = Array(address.utf8)
    if name.first == UInt8(ascii: "@") { name[0] = 0 }
    var socketAddress = sockaddr_un()
    socketAddress.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &socketAddress.sun_path) { bytes in
      for (index, byte) in name.enumerated() { bytes[index] = byte }
    }
    let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (name.first == 0 ? 0 : 1)
    let bound = withUnsafePointer(to: &socketAddress) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
    }
    try #require(bound == 0, "cannot bind the notification socket: \(String(cString: strerror(errno)))")
    // A bound on waiting, so a vpk that never notifies fails the test instead of hanging it.
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }
  deinit { close(descriptor) }

  /// The next datagram, or nil if none came in time.
  func receive() -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
  }
}

/// Starts the program after it with a listening socket at `path` as descriptor 3 (or, with `file`, the file at `path`),
/// LISTEN_FDS=1 and LISTEN_PID set to its own pid, which exec keeps: what systemd does for a socket unit.
private func activationLauncher(_ kind: String, _ path: String) -> [String] {
  let script = """
    import os, socket, sys
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "listen":
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(16)
        fd = s.fileno()
    else:
        fd = os.open(path, os.O_RDONLY)
    os.dup2(fd, 3)
    os.set_inheritable(3, True)
    os.environ.update(LISTEN_FDS="1", LISTEN_PID=str(os.getpid()), LISTEN_FDNAMES="vpk")
    os.execv(sys.argv[3], sys.argv[3:])
    """
  return ["/usr/bin/python3", "-c", script, kind, path]
}

private func exists(_ path: String) -> Bool {
  var info = stat()
  return lstat(path, &info) == 0
}

@Suite struct SystemdTests {
  @Test(arguments: ["path", "abstract"])
  func readyIsSentOnceTheSocketListensAndStoppingOnTheWayOut(kind: String) throws {
    let folder = try SocketFolder()
    defer { folder.remove() }
    let address =
      kind == "path" ? folder.path("notify") : "@vpk-test-\(UUID().uuidString.prefix(8))"
    let notify = try NotifySocket(address: address)
    // Given vpk started as a Type=notify service
    let daemon = try VPKSession(
      ["play", "--idle", "--socket", folder.path("s")], input: .closed, environment: ["NOTIFY_SOCKET": address])
    // Then READY=1 comes, and at that point the control socket already accepts a client (no retrying)
    #expect(notify.receive() == "READY=1")
    let client = try UnixSocketClient(path: folder.path("s"))
    try client.greet()
    // When a client quits, STOPPING=1 comes before vpk leaves
    client.send("quit")
    #expect(notify.receive() == "STOPPING=1")
    #expect(try daemon.waitForExit().status == 0)
  }

  @Test func aSocketPassedBySystemdIsServedAndItsFileLeftAlone() throws {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs Debian's python3")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let path = folder.path("s")
    // Given vpk started with a listening socket as descriptor 3 and no --socket
    let daemon = try VPKSession(
      ["play", "--idle"], input: .closed, launcher: activationLauncher("listen", path))
    // Then a client gets hello and its replies
    let client = try UnixSocketClient.connect(to: path)
    try client.greet()
    client.send("status")
    try client.waitForLine(containing: #"{"event":"status","id":1"#)
    // When it quits, vpk leaves and the socket file, which it did not make, is still there
    client.send("quit")
    try client.waitForLine(containing: #"{"event":"shutdown","id":2,"reason":"quit""#)
    let result = try daemon.waitForExit()
    #expect(result.status == 0, "\(result.stderr)")
    #expect(exists(path), "vpk removed a socket file it did not make")
  }

  @Test func aDescriptorThatIsNotAListeningSocketIsRefusedClearly() throws {
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs Debian's python3")
    let folder = try SocketFolder()
    defer { folder.remove() }
    let file = folder.path("f")
    try Data("precious".utf8).write(to: URL(fileURLWithPath: file))
    let daemon = try VPKSession(["play", "--idle"], input: .closed, launcher: activationLauncher("file", file))
    let result = try daemon.waitForExit()
    #expect(result.status == 73)
    #expect(result.stderr.contains("descriptor 3 from systemd (LISTEN_FDS) is not a socket"), "\(result.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == "precious")
  }
}

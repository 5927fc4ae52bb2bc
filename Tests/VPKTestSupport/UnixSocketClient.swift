// A client of vpk's control socket for the end-to-end tests: plain POSIX calls, a thread of its own that reads
// everything the daemon sends (so this client never makes vpk wait), and waits for lines as VPKSession does.
import Foundation

public final class UnixSocketClient: @unchecked Sendable {
  public let descriptor: Int32
  private let state = NSCondition()
  private var received = Data()
  private var ended = false

  /// Connects to the socket at `path`; with `reads` false nothing is ever read (a client that stalls).
  public init(path: String, reads: Bool = true, receiveBufferBytes: Int32? = nil) throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw VPKProcessError(description: "socket: \(String(cString: strerror(errno)))") }
    if var size = receiveBufferBytes {
      setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      // No close here: a class whose init throws once every property is set is deinitialised, and deinit closes the
      // descriptor. Closing it twice would close whatever another thread had opened under that number meanwhile.
      throw VPKProcessError(description: "cannot connect to \(path): \(String(cString: strerror(errno)))")
    }
    if reads {
      Thread { [self] in readLoop() }.start()
    }
  }

  /// Connects to `path`, retrying while the daemon is not listening yet; throws after `timeout` seconds.
  public static func connect(to path: String, timeout: Double = 120) throws -> UnixSocketClient {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      do {
        return try UnixSocketClient(path: path)
      } catch {
        if Date() > deadline { throw error }
        Thread.sleep(forTimeInterval: 0.02)
      }
    }
  }

  deinit { close(descriptor) }

  /// Sends `line` and a newline. False once the daemon is gone.
  @discardableResult
  public func send(_ line: String) -> Bool {
    write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
  }

  /// Sends raw bytes. False once the daemon is gone.
  @discardableResult
  public func write(_ data: Data) -> Bool {
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let count = Foundation.send(
          descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
      }
      return true
    }
  }

  /// Shows the daemon this client speaks vpk's dialect (a first line `format json`, which is no command) and waits
  /// for the `hello` that answers it. The daemon writes nothing to a connection before its first line.
  public func greet(timeout: Double = 120) throws {
    send("format json")
    try waitForLine(containing: #"{"event":"hello""#, timeout: timeout)
  }

  /// For a client made with `reads` false: sends `format json` and blocks until the daemon's first line (its `hello`)
  /// has come, so the daemon has accepted this connection. Throws when the daemon ends it first or sends nothing for
  /// 120 s.
  public func readGreeting() throws {
    send("format json")
    var timeout = timeval(tv_sec: 120, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var byte: UInt8 = 0
    while byte != UInt8(ascii: "\n") {
      let count = recv(descriptor, &byte, 1, 0)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else {
        throw VPKProcessError(
          description: "no greeting from the daemon: \(count == 0 ? "closed" : String(cString: strerror(errno)))")
      }
    }
  }

  /// Closes the connection both ways (the client leaves).
  public func disconnect() { shutdown(descriptor, Int32(SHUT_RDWR)) }

  /// Ends what this client sends (the daemon sees the end of its input); it can still read.
  public func closeWriting() { shutdown(descriptor, Int32(SHUT_WR)) }

  /// Every complete line received so far.
  public var lines: [String] {
    state.withLock {
      var text = String(decoding: received, as: UTF8.self)
      if let last = text.lastIndex(of: "\n") { text = String(text[...last]) } else { return [] }
      return text.split(separator: "\n").map(String.init)
    }
  }

  /// True once the daemon closed the connection.
  public var hasEnded: Bool { state.withLock { ended } }

  /// How many lines the waits have consumed: `waitForLine` looks only at the lines from this index on, and moves it
  /// past the line it returns. A line once matched is never matched again, so waiting for an event a second time
  /// (`idle-active` true before a load and after a `stop`) waits for a new one, and waits in a row find their lines
  /// in the order they were sent.
  public var cursor: Int { state.withLock { consumed } }
  private var consumed = 0

  /// Waits for a line after the cursor (see `cursor`) for which `matches` holds, moves the cursor past it and returns
  /// it; throws after `timeout` s or at the end.
  @discardableResult
  public func waitForLine(timeout: Double = 120, where matches: (String) -> Bool) throws -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      if let line = consume(matches) { return line }
      // Waits in short slices: a line that arrived between `consume` and this lock has already been broadcast, and
      // the next slice's `consume` finds it.
      let over = state.withLock { () -> Bool in
        if ended { return true }
        _ = state.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
        return Date() >= deadline
      }
      if over {
        if let line = consume(matches) { return line }
        let start = cursor
        throw VPKProcessError(
          description:
            "no expected line from the socket after line \(start) (ended: \(hasEnded)); got:\n"
            + lines.suffix(20).joined(separator: "\n"))
      }
    }
  }

  @discardableResult
  public func waitForLine(containing text: String, timeout: Double = 120) throws -> String {
    try waitForLine(timeout: timeout) { $0.contains(text) }
  }

  /// The first line after the cursor that matches, with the cursor moved past it.
  private func consume(_ matches: (String) -> Bool) -> String? {
    let all = lines
    return state.withLock {
      guard consumed < all.count, let index = all[consumed...].firstIndex(where: matches) else { return nil }
      consumed = index + 1
      return all[index]
    }
  }

  /// Waits until the daemon closes the connection; throws after `timeout` s.
  public func waitForEnd(timeout: Double = 120) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    try state.withLock {
      while !ended {
        if !state.wait(until: deadline) && !ended {
          throw VPKProcessError(description: "the daemon did not close the connection within \(timeout) s")
        }
      }
    }
  }

  private func readLoop() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count < 0 && errno == EINTR { continue }
      state.withLock {
        if count > 0 { received.append(contentsOf: buffer[0..<count]) } else { ended = true }
        state.broadcast()
      }
      if count <= 0 { return }
    }
  }
}

// TextOutput: where a view writes its text, and the one that writes to a file descriptor (standard output).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a view writes its text.
@MainActor
package protocol TextOutput: AnyObject {
  /// Writes all of `text`. Returns false when it could not, because the reader is gone or the
  /// output failed; from then on it writes nothing and keeps returning false.
  func write(_ text: String) -> Bool
}

/// An output to a client that may stop sending before it leaves: events (what the client did not ask for) written
/// once it has ended its input are dropped, answers still go out. mpv's IPC serves a client only until the end of
/// its input, so `echo '…' | socat - S` prints the reply alone.
@MainActor
package protocol EventTextOutput: TextOutput {
  /// Writes `text`, an event; as `write`, but dropped when the client has ended its input by the time it goes out.
  func writeEvent(_ text: String) -> Bool
}

/// Writes to a file descriptor with `write(2)`, whole strings at a time. Ignoring SIGPIPE is the
/// caller's job; with it ignored, a reader that went away shows as a failed write.
@MainActor
package final class FileDescriptorOutput: TextOutput {
  package let fileDescriptor: Int32
  /// True once a write failed; nothing is written after that.
  package private(set) var isClosed = false

  package init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  /// Standard output (file descriptor 1).
  package static func standardOutput() -> FileDescriptorOutput {
    FileDescriptorOutput(fileDescriptor: STDOUT_FILENO)
  }

  package func write(_ text: String) -> Bool {
    guard !isClosed else { return false }
    var text = text
    let written = text.withUTF8 { bytes in
      writeAll(fileDescriptor, UnsafeRawBufferPointer(bytes))
    }
    if !written { isClosed = true }
    return written
  }
}

/// Writes every byte, going on after partial writes and interruptions, and waiting for room
/// when the descriptor is non-blocking. False on any other error (EPIPE: the reader is gone).
private func writeAll(_ fileDescriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  var offset = 0
  while offset < bytes.count {
    let count = write(fileDescriptor, base + offset, bytes.count - offset)
    if count > 0 {
      offset += count
      continue
    }
    guard count < 0 else { return false }
    switch errno {
    case EINTR:
      continue
    case EAGAIN, EWOULDBLOCK:
      var request = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&request, 1, -1)
    default:
      return false
    }
  }
  return true
}

// TerminalMode: the terminal settings vpk changes while it edits the input line, and puts back.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts a terminal into the mode the line editor needs (no echo, no line buffering; signals such
/// as ^C still work) and puts it back as it was.
final class TerminalMode: @unchecked Sendable {
  private let fileDescriptor: Int32
  /// The settings to restore; set once at creation, read once at restore.
  private let saved: termios

  /// The settings vpk edits the line in; set once at creation.
  private let editing: termios

  /// Nil when the descriptor is not a terminal or its settings cannot be changed.
  init?(fileDescriptor: Int32) {
    guard isatty(fileDescriptor) == 1 else { return nil }
    var settings = termios()
    guard tcgetattr(fileDescriptor, &settings) == 0 else { return nil }
    self.fileDescriptor = fileDescriptor
    self.saved = settings
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    self.editing = settings
    guard tcsetattr(fileDescriptor, TCSANOW, &settings) == 0 else { return nil }
  }

  /// Puts the settings back as they were (before vpk stops, is suspended with ^Z, or exits), and discards what was
  /// typed that vpk did not read: it was meant for vpk, not for the shell that reads the terminal next.
  func restore() {
    var settings = saved
    _ = tcsetattr(fileDescriptor, TCSANOW, &settings)
    _ = tcflush(fileDescriptor, TCIFLUSH)
  }

  /// Puts vpk's editing settings back (after `fg`: the shell set the terminal to its own mode).
  func reapply() {
    var settings = editing
    _ = tcsetattr(fileDescriptor, TCSANOW, &settings)
  }
}

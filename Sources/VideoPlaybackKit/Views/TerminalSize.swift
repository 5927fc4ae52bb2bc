// TerminalSize: the width of the terminal a view writes to.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

package enum TerminalSize {
  /// The columns of the terminal on `fileDescriptor` (TIOCGWINSZ), or nil when it is not a
  /// terminal or does not say.
  package static func columns(fileDescriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}

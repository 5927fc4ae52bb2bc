// What reaches the module from outside through its view: lines of input and signals.

/// One line of input as the command reader saw it.
package enum InputLine: Sendable, Equatable {
  case text(String)
  /// A line longer than the reader's limit; its bytes were discarded.
  case tooLong(byteCount: Int)
  /// A line whose bytes are not valid UTF-8.
  case invalidUTF8
}

/// Why the session is being asked to stop from outside.
public enum TerminationSignal: String, Sendable {
  case interrupt = "SIGINT"
  case terminate = "SIGTERM"
  case hangUp = "SIGHUP"
}

// The commands of the command language (stdin, sockets and scripts alike), as values.

/// One command of the command language (stdin and scripts).
package enum Command: Sendable, Equatable {
  /// Play; at the end of a file kept open, start over.
  case play
  case pause
  case toggle
  case scrub(TimeSpec, SeekMode?)
  case skip(Double, SeekMode?)
  case status
  case info
  case frame
  /// Report the state, position and frame on screen at once, without changing playback.
  case mark
  case help
  case quit
  /// Pause and show the frame this many frames after (or before, when negative) the one on screen.
  case step(Int)
  case rate(Double)
  /// Multiply the rate there is when the command runs by this factor (`rate *1.1`, `rate /1.1`); the speed stays
  /// within 0.01 … 100 and the direction is kept.
  case scaleRate(Double)
  /// Load another file (a path as written; relative paths resolve against the session's folder).
  case open(String)
  /// Unload the file and go idle.
  case close
  case wait(WaitCondition, timeout: Double?)
  case expect(Expectation)
  /// Write the frame on screen as a PNG: to this path (as written; relative paths resolve against the session's
  /// folder, a path ending in `/` names a folder), or to the default name in the session's folder (nil).
  case snapshot(String?)
  /// Play the queue's next entry (`next`), the one before it (`prev`), or entry N, counted from 1 (`goto N`).
  case next
  case previous
  case goto(Int)
  /// List or edit the queue (`queue`, `queue add PATH` …).
  case queue(QueueEdit)

  /// The verb as the user writes it.
  package var verb: String {
    switch self {
    case .play: "play"
    case .pause: "pause"
    case .toggle: "toggle"
    case .scrub: "scrub"
    case .skip: "skip"
    case .status: "status"
    case .info: "info"
    case .frame: "frame"
    case .mark: "mark"
    case .help: "help"
    case .quit: "quit"
    case .step: "step"
    case .rate, .scaleRate: "rate"
    case .open: "open"
    case .close: "close"
    case .wait: "wait"
    case .expect: "expect"
    case .snapshot: "snapshot"
    case .next: "next"
    case .previous: "prev"
    case .goto: "goto"
    case .queue: "queue"
    }
  }
}

/// Where a command came from: its line number in the input (1-based, counting every line) and its
/// text, so a failure can point at it.
package struct SourceLine: Sendable, Equatable {
  package var number: Int
  package var text: String

  package init(number: Int, text: String) {
    self.number = number
    self.text = text
  }
}

/// A command with the id it was given: its ordinal among the commands received (1, 2, 3 …).
package struct NumberedCommand: Sendable, Equatable {
  package var id: Int
  package var command: Command
  package var source: SourceLine?

  package init(id: Int, command: Command, source: SourceLine? = nil) {
    self.id = id
    self.command = command
    self.source = source
  }
}

/// The `id` a client gave a JSON command; every event the command causes carries it back.
package enum ClientID: Sendable, Equatable {
  case string(String)
  case number(Double)
}

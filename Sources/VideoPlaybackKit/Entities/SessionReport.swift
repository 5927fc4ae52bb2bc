// What a session leaves behind for whoever ran it, and the exit statuses it ends with.

/// What a session leaves behind for whoever ran it (`vpk test` reads it to pass or fail a script).
package struct SessionReport: Sendable, Equatable {
  /// One thing that went wrong, tied to the command (and line) that caused it.
  package struct Failure: Sendable, Equatable {
    package var commandID: Int?
    package var source: SourceLine?
    package var error: PlaybackError
    /// For a failed expect: the expected and actual values, as the presenter would show them.
    package var expected: ExpectValue?
    package var actual: ExpectValue?
    /// For a failed `expect frame.*`: the PNG of the frame that was on screen, where it was written.
    package var picture: String?

    package var code: PlaybackError.Code { error.code }

    package init(
      commandID: Int?, source: SourceLine?, error: PlaybackError, expected: ExpectValue? = nil,
      actual: ExpectValue? = nil, picture: String? = nil
    ) {
      self.commandID = commandID
      self.source = source
      self.error = error
      self.expected = expected
      self.actual = actual
      self.picture = picture
    }

    /// A failure worded where it arose (the engine, the parser).
    package init(
      commandID: Int?, source: SourceLine?, code: PlaybackError.Code, expected: ExpectValue? = nil,
      actual: ExpectValue? = nil, message: String
    ) {
      self.init(
        commandID: commandID, source: source, error: PlaybackError(code, message), expected: expected, actual: actual)
    }
  }

  /// Failed expects and waits: what makes a session's exit status 1.
  package var failedChecks: [Failure] = []
  /// Commands answered with an `error` and not acknowledged by an `expect error == <code>` after them.
  package var commandErrors: [Failure] = []
  package var commandCount = 0
  package var expectCount = 0
  /// The `--start` time lay outside the media: what was asked for and where playback started instead.
  package var startClamped: Clamp?
  /// Why the file the session started with could not be opened (the session then ended, status 3). A failed `open`
  /// command is not here: it is one of `commandErrors`, and the session goes on.
  package var openFailure: PlaybackError?
  /// The frame cache's lookups over the session, summed over every media it opened: those it answered and those that
  /// decoded, as each engine last published them.
  package var frameCacheHits = 0
  package var frameCacheMisses = 0

  /// A time asked for that lay outside the media, and the time it was clamped to.
  package struct Clamp: Sendable, Equatable {
    package var requested: MediaTime
    package var target: MediaTime

    package init(requested: MediaTime, target: MediaTime) {
      self.requested = requested
      self.target = target
    }
  }

  package init() {}
}

/// Exit statuses of a playback session (docs/cli.md lists them for users).
package enum SessionExitCode {
  /// `quit`, the end of the media, or input ended with nothing left to play.
  package static let success: Int32 = 0
  /// An `expect` or a `wait` failed (the session otherwise ended normally).
  package static let checksFailed: Int32 = 1
  /// The media given on the command line could not be opened (missing, not media …).
  package static let mediaUnreadable: Int32 = 3
  /// Hung up (SIGHUP, 128 + 1).
  package static let hungUp: Int32 = 129
  /// Interrupted by SIGINT (128 + 2).
  package static let interrupted: Int32 = 130
  /// Terminated by SIGTERM (128 + 15).
  package static let terminated: Int32 = 143
}

/// Why a session ended, as `shutdown` names it.
public enum ShutdownReason: Sendable, Equatable {
  case quit
  /// Standard input (or a script) ended with nothing left to play.
  case inputEnded
  /// The media given at start could not be opened.
  case openFailed
  /// The media ended (with `--at-end exit`).
  case ended
  case signal(TerminationSignal)

  /// The stable word `shutdown` carries: `quit`, `input ended`, `open failed`, `ended`, `SIGINT` …
  public var text: String {
    switch self {
    case .quit: "quit"
    case .inputEnded: "input ended"
    case .openFailed: "open failed"
    case .ended: "ended"
    case .signal(let signal): signal.rawValue
    }
  }
}

// Every failure vpk reports, with a stable code. The message a person reads is `message`, worded in
// Formatting/ProblemText.swift for the session's own rules.

/// Every failure vpk reports, with a stable code that scripts can match on.
public struct PlaybackError: Error, Sendable, Equatable {
  public enum Code: String, Sendable, CaseIterable {
    /// The verb is not one vpk knows.
    case unknownCommand = "unknown_command"
    /// An argument is missing, malformed or out of range.
    case badArgument = "bad_argument"
    /// The line is too long or not valid UTF-8.
    case badInput = "bad_input"
    /// The command needs media that is not loaded or has failed.
    case notReady = "not_ready"
    /// The command has no meaning in the current state (for example `frame` with no video).
    case unavailable = "unavailable"
    case fileNotFound = "file_not_found"
    case notAFile = "not_a_file"
    case permissionDenied = "permission_denied"
    /// The file exists but holds nothing FFmpeg can read as media.
    case notMedia = "not_media"
    /// The file has neither a video nor an audio stream.
    case noPlayableStream = "no_playable_stream"
    /// A stream's decoder is missing or could not be opened.
    case decoderUnavailable = "decoder_unavailable"
    /// Packets that could not be decoded; playback went on.
    case decodeError = "decode_error"
    /// Reading the file failed part-way; playback stops where it is.
    case readError = "read_error"
    /// A JSON command line that is not a JSON object of the documented shape.
    case badJSON = "bad_json"
    /// A JSON command's `id` that is not a string or a number.
    case badID = "bad_id"
    /// An `expect` names a field vpk does not know.
    case unknownField = "unknown_field"
    /// A `wait` ran out of time before its condition held.
    case waitTimeout = "wait_timeout"
    /// A `wait` whose condition cannot hold (paused, or the end comes first).
    case waitImpossible = "wait_impossible"
    /// An `expect` whose check did not hold.
    case expectFailed = "expect_failed"
    /// The path is a URL whose protocol vpk does not open (network ones need --allow-network).
    case refusedProtocol = "refused_protocol"
    /// The file is a playlist or stream description that would make vpk open other files or URLs
    /// (needs --allow-playlists or --allow-network).
    case refusedFormat = "refused_format"
    /// A file vpk was asked to write (a `snapshot`, a picture of a failed check) could not be written.
    case cannotWrite = "cannot_write"
    /// A control-socket client left events unread past its buffer and was disconnected.
    case slowClient = "slow_client"
    /// A control-socket client was turned away: the daemon serves `--max-clients` at once.
    case tooManyClients = "too_many_clients"
    /// The caller withdrew the command (a Swift task awaiting it was cancelled) before it was answered: it did not
    /// run, or its wait stopped.
    case cancelled = "cancelled"
    /// `goto`, `queue remove` or `queue move` named an entry number outside the queue.
    case noSuchEntry = "no_such_entry"
    /// `next`, `prev` or `goto` with nothing in the queue.
    case queueEmpty = "queue_empty"
    /// `next` at the last entry (or `prev` at the first) of a queue that does not loop.
    case queueEnd = "queue_end"
  }

  /// What went wrong, beyond its code (`message` words it).
  package enum Detail: Sendable, Equatable {
    /// Worded where it arose: by the engine (what FFmpeg found) or the command parser (what is wrong
    /// with the line), which know the particulars.
    case message(String)
    /// One of the session's own rules, as the interactor reports it; `ProblemText` words it.
    case problem(SessionProblem)
  }

  public var code: Code
  package var detail: Detail

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.detail = .message(message)
  }

  /// An error of the session's own rules; its code follows from the problem.
  package init(_ problem: SessionProblem) {
    self.code = problem.code
    self.detail = .problem(problem)
  }
}

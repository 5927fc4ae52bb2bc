// SessionEvent: everything a playback session says, as one typed value. The interactor emits each event once, with
// the command it answers (its origin); the fan-out routes it by `audience`; every presenter (text and JSON lines, the
// mpv dialect, the Swift `Player`) renders it from these payloads. Adding an event is adding a case here and showing
// it in the presenters that show it.

/// The identity of a view of the session: standard input and output, a control-socket client, a `Player`.
public struct ViewID: Hashable, Sendable {
  package let value: Int
  package init(value: Int) { self.value = value }
  /// The session's own view (standard input and output, or the `Player`).
  public static let primary = ViewID(value: 0)
}

/// Who sent a command, and how that view names it in its events.
public struct CommandSender: Sendable, Equatable {
  public var view: ViewID
  /// The command's ordinal among the commands this view sent.
  public var number: Int
  /// The id the client gave the command (a JSON command's `id`), which its events show instead of `number`.
  package var clientID: ClientID?

  package init(view: ViewID, number: Int, clientID: ClientID? = nil) {
    self.view = view
    self.number = number
    self.clientID = clientID
  }
}

/// The command an event answers: the session's id for it, and who sent it (nil for a command the session started
/// itself, or one submitted without a view).
public struct CommandOrigin: Sendable, Equatable {
  public var id: Int
  public var sender: CommandSender?

  package init(id: Int, sender: CommandSender?) {
    self.id = id
    self.sender = sender
  }
}

/// A seek that landed, with what the session adds to the engine's answer.
public struct SeekOutcome: Sendable, Equatable {
  public var result: SeekResult
  /// The time asked for, when it lay outside the media and the target is it clamped (nil: nothing was clamped).
  public var requested: MediaTime?
  public var duration: MediaTime?
  /// Whether wall-clock figures are shown (never on the virtual clock, where they would differ from run to run).
  package var showsTiming: Bool

  package init(result: SeekResult, requested: MediaTime?, duration: MediaTime?, showsTiming: Bool) {
    self.result = result
    self.requested = requested
    self.duration = duration
    self.showsTiming = showsTiming
  }
}

/// Where a seek or step that started goes.
public enum SeekStart: Sendable, Equatable {
  /// A seek (`scrub`, `skip`) to this time, as it was asked for: outside the media, the seek goes to its nearer end.
  case time(MediaTime)
  /// A step of this many frames (negative: backward).
  case frames(Int)
}

/// A progress mark that playback crossed.
public struct ProgressMark: Sendable, Equatable {
  public var position: MediaTime
  public var duration: MediaTime?
  public var state: PlaybackState
  public var rate: Double

  package init(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double) {
    self.position = position
    self.duration = duration
    self.state = state
    self.rate = rate
  }
}

/// Playback reached the end of the media (playing backward: its start).
public struct EndReached: Sendable, Equatable {
  public var position: MediaTime
  public var duration: MediaTime?
  /// How many times the end has been reached in this file, this time included.
  public var loops: Int
  public var direction: PlaybackDirection
  /// What the session does next, by its `--at-end` policy: stays paused at the end (`pause`), plays on from the start
  /// (`loop`), closes the file and waits for the next (`idle`) or ends (`exit`).
  public var action: EndAction

  package init(
    position: MediaTime, duration: MediaTime?, loops: Int, direction: PlaybackDirection = .forward,
    action: EndAction = .pause
  ) {
    self.position = position
    self.duration = duration
    self.loops = loops
    self.direction = direction
    self.action = action
  }
}

/// The result of an `expect`: whether it held, the value found, and the line it came from.
public struct ExpectationOutcome: Sendable, Equatable {
  package var expectation: Expectation
  package var expected: ExpectValue
  package var actual: ExpectValue
  public var held: Bool
  package var source: SourceLine?

  package init(
    expectation: Expectation, expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?
  ) {
    self.expectation = expectation
    self.expected = expected
    self.actual = actual
    self.held = held
    self.source = source
  }
}

/// What `mark` saw: the state, position and frame on screen at one moment, read together.
public struct SessionMark: Sendable, Equatable {
  public var state: PlaybackState
  public var position: MediaTime
  public var rate: Double
  /// The frame on screen; nil when there is none (no media, no video, nothing decoded yet).
  public var frame: FrameIdentity?
  /// The line the `mark` came from (a script's line), when it came from one.
  package var source: SourceLine?

  package init(
    state: PlaybackState, position: MediaTime, rate: Double, frame: FrameIdentity?, source: SourceLine? = nil
  ) {
    self.state = state
    self.position = position
    self.rate = rate
    self.frame = frame
    self.source = source
  }
}

/// The session is over.
public struct SessionShutdown: Sendable, Equatable {
  /// Why: quit, the end of the media, input ended, a signal, a file that failed to open.
  public var reason: ShutdownReason
  /// The state, position and counters at the end.
  public var status: PlaybackStatus
  /// It ended while its media was still opening, and the open was interrupted.
  public var openInterrupted: Bool

  package init(reason: ShutdownReason, status: PlaybackStatus, openInterrupted: Bool = false) {
    self.reason = reason
    self.status = status
    self.openInterrupted = openInterrupted
  }
}

/// What a playback session says.
public enum SessionEvent: Sendable, Equatable {
  /// A file started opening; `paused`: whether it opens paused (else it plays once `ready`). The interactor decides
  /// (the pause that outlives a file, or the start options for an `open` beside a loaded file); views show it. Its
  /// origin is the command that opens it, though that command's `ready` or `error` answers it.
  case loading(path: String, paused: Bool)
  /// The media opened, paused at `position` (its first frame's). `start`: the start position (`--start`) it opens at,
  /// by a seek the session began as it opened (nil: none).
  case ready(MediaInfo, position: MediaTime, start: MediaTime? = nil)
  /// A play/pause/toggle took effect (or was acknowledged with no change).
  case state(PlaybackState, position: MediaTime, duration: MediaTime?)
  case progress(ProgressMark)
  /// A seek or step a command asked for started (the session's own seeks, to `--start` and back to the start on play at
  /// the end, say nothing): a view shows that the picture is moving to a new place until its `seeked`, `superseded` or
  /// `stepped`. vpk's text and JSON lines leave it out (the command's own line says it); an app's view and the mpv
  /// dialect (mpv's `seek` event, its `seeking` property) show it.
  case seekStarted(SeekStart)
  case seeked(SeekOutcome)
  /// A seek that did not land: `newer` replaced it, or (nil) the session closed first.
  case superseded(newer: CommandOrigin?)
  case stepped(StepResult, duration: MediaTime?)
  case rate(Double)
  /// `play`, `pause` or `toggle` with no file loaded: whether the next file opens paused.
  case next(paused: Bool)
  case ended(EndReached)
  case error(PlaybackError)
  case status(PlaybackStatus)
  case info(MediaInfo)
  case frame(FrameIdentity)
  /// `mark`: the state, position and frame on screen at once.
  case mark(SessionMark)
  /// `snapshot` wrote the frame on screen as a PNG.
  case snapshot(FramePicture)
  case help
  /// A wait whose condition held.
  case waited(WaitCondition, position: MediaTime)
  case expectation(ExpectationOutcome)
  /// `close` unloaded the media (or its end did, with `--at-end idle`); the session is idle. `nextPaused`: whether the
  /// next file opens paused (the session's pause outlives its files), as `next` says it.
  case closed(nextPaused: Bool)
  /// An entry of the session's queue started loading (the queue went on by itself, or `next`, `prev` or `goto`
  /// asked; that command's `ready` or `error` answers it, not this).
  case entry(EntryStarted)
  /// An entry that names a list file (`.m3u`, `.m3u8`, `.pls`) came to its turn and was read: the files it names took
  /// its place in the queue, as entries `firstID` … `firstID + count - 1`, and the first of them starts next (its
  /// `entry` follows). `list` is the list's entry as it was.
  case expanded(list: EntryStarted, firstID: Int, count: Int)
  /// The answer to every `queue` command: the list as the command left it.
  case queue(QueueListing)
  case shutdown(SessionShutdown)

  /// Who is told.
  package enum Audience: Sendable, Equatable {
    /// Only the view that sent the command it answers (every view when no command caused it).
    case sender
    /// Every view: a change of the shared playback state, or something no command caused. The sender's view names
    /// it by its command; the others show it with no id.
    case everyone
  }

  package var audience: Audience {
    switch self {
    case .loading, .ready, .state, .progress, .seekStarted, .seeked, .stepped, .rate, .next, .ended, .closed, .entry,
      .expanded, .shutdown:
      .everyone
    case .superseded, .error, .status, .info, .frame, .mark, .snapshot, .help, .waited, .expectation, .queue: .sender
    }
  }

  /// Whether this is the one reply of the command it carries as its origin (every command gets exactly one).
  package var isReply: Bool {
    switch self {
    case .loading, .progress, .seekStarted, .ended, .entry, .expanded, .shutdown: false
    default: true
    }
  }

  /// The event's name, as the text, JSON and display dialects spell it.
  public var name: String {
    switch self {
    case .loading: "loading"
    case .ready: "ready"
    case .state: "state"
    case .progress: "progress"
    case .seekStarted: "seek-started"
    case .seeked: "seeked"
    case .superseded: "superseded"
    case .stepped: "stepped"
    case .rate: "rate"
    case .next: "next"
    case .ended: "ended"
    case .error: "error"
    case .status: "status"
    case .info: "info"
    case .frame: "frame"
    case .mark: "mark"
    case .snapshot: "snapshot"
    case .help: "help"
    case .waited: "waited"
    case .expectation: "expect"
    case .closed: "closed"
    case .entry: "entry"
    case .expanded: "expanded"
    case .queue: "queue"
    case .shutdown: "shutdown"
    }
  }
}

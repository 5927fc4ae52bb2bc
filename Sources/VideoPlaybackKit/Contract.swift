// Contract: every protocol of the playback module, by role, and nothing else: reading this file
// tells what the module does. The values they pass are in Entities/; the roles that implement them
// are in Module/ (interactor, presenter, router, builder), Views/ and Input/, and the engine target.
//
//   stdin ─► CommandReader ─on…─► Presenter ─submit(from:)─► FanOut.Port ─┐
//   socket client ─► VPKSocket ─on…─► Presenter ─submit(from:)─► FanOut.Port ─┴─► Interactor ─► PlaybackManager
//                                                                                  │   ▲              │
//   each view's Presenter ◄─present(event)─ FanOut (routes by origin) ◄─present────┘   └── onEvent ───┘
//   Presenter ─display…─► its View (text or JSON lines: stdout, or one socket client)
//   (a socket client whose first line is mpv's JSON IPC gets the mpv dialect's presenter and view instead)
//   Interactor ─close…─► Router ─► the app (exit code)
//
// One interactor serves every view of the session. Each view (standard input and output, or one
// client of the control socket) has a presenter of its own, which submits through a port of the
// fan-out, naming itself as each command's sender. What the session says is one typed value,
// `SessionEvent`, carrying the command it answers (its origin). The fan-out is the interactor's one
// output: a reply goes to the presenter of the view that sent the command (which names it by that
// view's own number), a change of the shared playback state and an event no command caused to
// every presenter.
//
// The module's objects live on the main actor; the engine does its work on a thread of its own
// and tells its events (`PlaybackManagerEvent`) on the main actor, in order.

// MARK: - View

/// The view's input side: what the command reader and the process forward to the presenter.
@MainActor
package protocol PlaybackViewEventHandler: AnyObject {
  /// The view is ready; the module starts loading its media.
  func onStart()
  func onInputLine(_ line: InputLine)
  /// Standard input reached its end (or was closed).
  func onInputEnded()
  func onSignal(_ signal: TerminationSignal)
  /// The reader of standard output went away; nothing more can be shown.
  func onOutputClosed()
}

/// The status view: shows what the presenter formatted, and nothing else.
@MainActor
public protocol PlaybackView: AnyObject {
  /// Shows one event (a line of text, or a JSON object).
  func displayEvent(_ event: EventViewModel)
  /// Shows the one-line status (on a terminal, redrawn in place; elsewhere ignored).
  func displayStatusLine(_ status: StatusLineViewModel)
  /// Leaves the output clean: clears the status line, resets colours, flushes.
  func displayFinish()
}

// MARK: - Presenter

/// What the interactor reports: every event of the session, one typed value each, with the command it answers.
/// Each presenter renders the events its view shows from their payloads.
@MainActor
package protocol PlaybackInteractorOutput: AnyObject {
  /// `origin`: the command this event answers or was caused by (nil when no command caused it).
  func present(_ event: SessionEvent, origin: CommandOrigin?)
}

/// Sees every command the views submit, around its submission, and every command's reply: a session recorder, which
/// notes what was typed and what it was answered, and may submit commands of its own just before and after it.
@MainActor
package protocol PlaybackSubmissionObserver: AnyObject {
  /// A view submits `submission`; `send` passes it to the interactor and returns its id, which this returns.
  func observe(_ submission: CommandSubmission, send: () -> Int) -> Int
  /// A command's one reply (which goes to its sender's view only, when it is an error or a query's answer).
  func observe(reply: SessionEvent, origin: CommandOrigin?)
}

// MARK: - Interactor

/// What the presenter asks of the interactor: the business side of the session.
@MainActor
package protocol PlaybackInteractorInput: AnyObject {
  /// Opens the session's media (if it has one) and starts playback as the options say.
  func start()
  /// A parsed command from `sender`. The interactor numbers it, runs it in order, and returns its id; every event it
  /// causes carries its origin (the id and `sender`), so the sender knows its answer whenever it comes, even before
  /// `submit` returns.
  @discardableResult func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int
  /// A line that is not a valid command. It still takes an id (returned) and gets an `error` event.
  @discardableResult func submitInvalid(_ error: PlaybackError, source: SourceLine?, from sender: CommandSender?) -> Int
  /// Withdraws command `id`, which its sender no longer awaits: if it has not run it never will, and a wait that is
  /// running stops; either way its one reply is a `cancelled` error. A command that is running otherwise (a seek, a
  /// step) or already answered is left alone.
  func withdraw(_ id: Int)
  func inputEnded()
  func terminate(_ signal: TerminationSignal)
  func outputClosed()
  /// The process is about to stop (^Z): playback's clock stops with it, as for `pause`, without an event.
  func suspend()
  /// The process continued (`fg`): playback goes on as it was before `suspend` (playing again if it played).
  func resumeAfterSuspend()
  /// The session's status now, read without a command (a view that joins a running session draws its status line
  /// from it, and takes no command number for it).
  func currentStatus() -> PlaybackStatus
}

// MARK: - Playback manager (the engine)

/// Plays one file: opens, decodes, paces by its clock, seeks, and tells what happened as `PlaybackManagerEvent`s.
/// It starts paused at the beginning; every call returns at once and the work happens on the
/// engine's own thread.
@MainActor
public protocol PlaybackManager: AnyObject {
  /// Where the manager's events go, one at a time on the main actor, in the order they happened; nil: nowhere (and
  /// nothing is told after `shutdown()`). Whoever holds the manager sets it, so it should not hold the manager back.
  var onEvent: (@MainActor (PlaybackManagerEvent) -> Void)? { get set }
  /// Opens the file. Ends in `.ready` or `.failedToOpen`.
  func prepare(path: String, configuration: PlaybackConfiguration)
  func play()
  func pause()
  /// Starts an absolute seek. A newer seek that arrives before this one lands supersedes it.
  /// Ends in exactly one `.seekFinished` or `.seekSuperseded` with the request's id.
  func seek(_ request: SeekRequest)
  /// Pauses and shows the frame `count` frames away. Ends in `.stepFinished`.
  func step(_ request: StepRequest)
  /// Playback speed (wall and virtual clocks); 1 is normal.
  func setRate(_ rate: Double)
  /// Lets the clock run until the wait's condition holds, it times out, or it cannot hold. On the
  /// virtual clock this is what moves time. Ends in `.waitFinished`.
  func wait(_ request: PlaybackWait)
  /// Stops wait `id` if it is running, reporting nothing for it (its sender withdrew it); on the virtual clock, time
  /// stops moving with it. The default does nothing: a wait that finishes later is then ignored.
  func cancelWait(id: Int)
  /// Position and counters now.
  func snapshot() -> PlaybackSnapshot
  /// `snapshot()` as a function any thread may call (a control-socket client's read, answered on the socket's loop);
  /// nil when the manager cannot be read off the main actor. The default is nil.
  func concurrentSnapshot() -> (@Sendable () -> PlaybackSnapshot)?
  /// The frame on screen, with the MD5 of its pixels; nil when there is no video frame.
  func currentFrame() -> FrameIdentity?
  /// Writes the frame on screen to `path` as a PNG, converted to RGB as `ffmpeg -i FILE -frames:v 1 out.png` converts
  /// it, and returns it named by `path`; nil when there is no video frame. Like `currentFrame`, it works on the
  /// caller's thread and returns when the file is written. Throws `cannotWrite` when the file cannot be written.
  func writePicture(to path: String) throws(PlaybackError) -> FramePicture?
  /// Stops the engine's thread and releases the file. Nothing is reported after this.
  func shutdown()
}

extension PlaybackManager {
  public func concurrentSnapshot() -> (@Sendable () -> PlaybackSnapshot)? { nil }
  public func cancelWait(id: Int) {}
}

/// What vpk's own manager does for a list's entries besides playing a file: its clock carries on from where another's
/// ended, as if the two files were one (a list's next entry then follows the end of the one before it by exactly that
/// one's last frame, whatever the time the session took to hand over between them), and a file it played can be
/// played again from its start without opening it again (going back to an entry).
@MainActor
package protocol ListEntryPlayback: PlaybackManager {
  /// When the end the manager reported last was due on the wall clock (its last frame's duration over), in monotonic
  /// host seconds, while playback stands at that end; nil on the other clocks, or once a seek or step moved it.
  var endDueTime: Double? { get }
  /// Plays, the clock started at `time` (monotonic host seconds; another manager's `endDueTime`) rather than now, when
  /// that was less than the frame on screen's duration ago; else as `play()`.
  func play(continuingFrom time: Double)
  /// Goes back to the start of the file, paused at rate 1, and tells `.ready` again (and the first progress mark) as
  /// `prepare` did: the file is not opened again, and what its frame cache holds stays. Nothing else is asked of the
  /// manager until that `.ready`, as for a file opening.
  func reopen()
}

// MARK: - Router

/// Where the session goes next. The app behind it decides what leaving means (exit codes).
@MainActor
package protocol PlaybackRouting: AnyObject {
  /// `open` / `close`: tears down `current` (if any) and, when `wantsNew`, asks the Builder for a fresh manager, its
  /// events already handed to the interactor. Returns the new manager. An `open` passes no `current`: the file that is open stays while
  /// the new one opens, and is handed in once the new one is ready (or the new one, when it failed).
  func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)?
  /// The session is over; the process should leave with this status. `report` lists what failed.
  func closeSession(exitCode: Int32, report: SessionReport)
  /// The file opened, and the start asked for (`--start`) lies outside it: whoever ran vpk is told at once.
  func noteStartClamped(_ clamp: SessionReport.Clamp)
  /// The files the list file at `path` names (an entry of the queue that is a list, at its turn); nil when it cannot
  /// be read, names none, or is an HLS stream (which opens as a file).
  func readList(_ path: String) -> [PlaylistText.Entry]?
}

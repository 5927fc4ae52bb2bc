// Contract: every protocol of the playback module, by role, and nothing else: reading this file
// tells what the module does. The values they pass are in Entities/; the roles that implement them
// are in Module/ (interactor, presenter, router, builder), Views/ and Input/, and the engine target.
//
//   stdin ─► CommandReader ─on…─► Presenter ─submit…─► FanOut.Port ─┐
//   socket client ─► VPKSocket ─on…─► Presenter ─submit…─► FanOut.Port ─┴─► Interactor ─► PlaybackManager (engine)
//                                                                             │   ▲              │
//   each view's Presenter ◄─present…─ FanOut (routes by origin) ◄─present…─────┘   └── delegate ──┘
//   Presenter ─display…─► its View (text or JSON lines: stdout, or one socket client)
//   (a socket client whose first line is mpv's JSON IPC gets the mpv dialect's presenter and view instead)
//   Interactor ─close…─► Router ─► the app (exit code)
//
// One interactor serves every view of the session. Each view (standard input and output, or one
// client of the control socket) has a presenter of its own, which submits through a port of the
// fan-out: the port notes which view each command came from (its origin). The fan-out is the
// interactor's one output: an event a command causes goes to the presenter of the view that sent it
// (which names it by that view's own id), a change of the shared playback state to every presenter,
// and an event no command caused to every presenter too.
//
// The module's objects live on the main actor; the engine does its work on a thread of its own
// and calls its delegate back on the main actor, in order.

// MARK: - View

/// The view's input side: what the command reader and the process forward to the presenter.
@MainActor
public protocol PlaybackViewEventHandler: AnyObject {
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

/// The view of a control-socket client that speaks mpv's JSON IPC: shows each reply or event the mpv presenter
/// formatted, one JSON object per line.
@MainActor
public protocol MPVView: AnyObject {
  func display(_ message: MPVValue)
  /// Nothing more will be shown.
  func displayFinish()
}

// MARK: - Presenter

/// What the interactor reports; the presenter turns each into view models.
@MainActor
public protocol PlaybackInteractorOutput: AnyObject {
  func presentLoading(path: String)
  /// The media opened; `commandID` is the `open` that asked for it (nil for the command line's file). `position`: the
  /// first frame's, where the paused player stands (not 0 when the media's first frame starts later).
  func presentReady(_ info: MediaInfo, position: MediaTime, commandID: Int?)
  /// A play/pause/toggle took effect (or was acknowledged with no change).
  func presentState(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, commandID: Int?)
  func presentProgress(position: MediaTime, duration: MediaTime?, state: PlaybackState, rate: Double)
  /// A seek landed. `requested`: the time asked for, when it lay outside the media and the target is it clamped
  /// (nil when nothing was clamped).
  func presentSeeked(_ result: SeekResult, requested: MediaTime?, duration: MediaTime?, showsTiming: Bool)
  /// A seek that did not land: a newer seek replaced it, or (`newerID` nil) the session closed first.
  func presentSuperseded(id: Int, by newerID: Int?)
  func presentStepped(_ result: StepResult, duration: MediaTime?)
  func presentRate(_ rate: Double, commandID: Int)
  /// `loops`: how many times the end has been reached in this file, this time included.
  func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int)
  /// The same, with the direction playback was going: `backward` reached the start (see the extension below).
  func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int, direction: PlaybackDirection)
  func presentError(_ error: PlaybackError, commandID: Int?)
  func presentStatus(_ status: PlaybackStatus, commandID: Int)
  func presentInfo(_ info: MediaInfo, commandID: Int)
  func presentFrame(_ frame: FrameIdentity, commandID: Int)
  /// `snapshot` wrote the frame on screen as a PNG.
  func presentSnapshot(_ picture: FramePicture, commandID: Int)
  func presentHelp(commandID: Int)
  /// A wait whose condition held.
  func presentWaited(_ condition: WaitCondition, position: MediaTime, commandID: Int)
  /// The result of an `expect`: whether it held, the value it found, and the line it came from.
  func presentExpectation(
    _ expectation: Expectation, expected: ExpectValue, actual: ExpectValue, held: Bool, source: SourceLine?,
    commandID: Int)
  /// `close` unloaded the media; the session is idle.
  func presentClosed(commandID: Int)
  /// The session is over; `reason` says why (quit, end of media, input ended, a signal).
  /// `openInterrupted`: it ended while its media was still opening, and the open was interrupted.
  func presentShutdown(reason: ShutdownReason, status: PlaybackStatus, openInterrupted: Bool, commandID: Int?)
}

// MARK: - Interactor

/// What the presenter asks of the interactor: the business side of the session.
@MainActor
public protocol PlaybackInteractorInput: AnyObject {
  /// Opens the session's media (if it has one) and starts playback as the options say.
  func start()
  /// A parsed command. The interactor numbers it, runs it in order, and returns its id.
  @discardableResult func submit(_ command: Command, source: SourceLine?) -> Int
  /// A line that is not a valid command. It still takes an id (returned) and gets an `error` event.
  @discardableResult func submitInvalid(_ error: PlaybackError, source: SourceLine?) -> Int
  /// The id the next `submit` or `submitInvalid` will return. Whoever submits can note what the id belongs to
  /// before anything the command causes is presented (some commands are answered within `submit`).
  var nextCommandID: Int { get }
  func inputEnded()
  func terminate(_ signal: TerminationSignal)
  func outputClosed()
}

// MARK: - Playback manager (the engine)

/// Plays one file: opens, decodes, paces by its clock, seeks, and reports to its delegate.
/// It starts paused at the beginning; every call returns at once and the work happens on the
/// engine's own thread.
@MainActor
public protocol PlaybackManager: AnyObject {
  var delegate: (any PlaybackManagerDelegate)? { get set }
  /// Opens the file. Ends in `didBecomeReady` or `didFailToOpen`.
  func prepare(path: String, configuration: PlaybackConfiguration)
  func play()
  func pause()
  /// Starts an absolute seek. A newer seek that arrives before this one lands supersedes it.
  /// Ends in exactly one `didFinishSeek` or `didSupersedeSeek` with the request's id.
  func seek(_ request: SeekRequest)
  /// Pauses and shows the frame `count` frames away. Ends in `didFinishStep`.
  func step(_ request: StepRequest)
  /// Playback speed (wall and virtual clocks); 1 is normal.
  func setRate(_ rate: Double)
  /// Lets the clock run until the wait's condition holds, it times out, or it cannot hold. On the
  /// virtual clock this is what moves time. Ends in `didFinishWait`.
  func wait(_ request: PlaybackWait)
  /// Position and counters now.
  func snapshot() -> PlaybackSnapshot
  /// `snapshot()` as a function any thread may call (a control-socket client's read, answered on its own thread);
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
}

/// What the engine reports, on the main actor, in the order it happened.
@MainActor
public protocol PlaybackManagerDelegate: AnyObject {
  func playbackManager(_ manager: any PlaybackManager, didBecomeReady info: MediaInfo)
  func playbackManager(_ manager: any PlaybackManager, didFailToOpen error: PlaybackError)
  /// Playback crossed a progress mark (a multiple of the configured interval).
  func playbackManager(_ manager: any PlaybackManager, didReachProgress position: MediaTime)
  func playbackManager(_ manager: any PlaybackManager, didFinishSeek result: SeekResult)
  func playbackManager(_ manager: any PlaybackManager, didSupersedeSeek id: Int, by newerID: Int)
  func playbackManager(_ manager: any PlaybackManager, didFinishStep result: StepResult)
  func playbackManager(_ manager: any PlaybackManager, didFinishWait result: WaitResult)
  /// Playback reached the end of the media: it stopped there, or (looping) went on from the start.
  /// `loops` counts the ends reached in this file, this one included.
  func playbackManager(_ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int)
  /// The same, with the direction: playing backward (a negative rate), the end reached is the start.
  func playbackManager(
    _ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int, direction: PlaybackDirection)
  /// Something went wrong that playback survives (corrupt packets, a read error at the end).
  func playbackManager(_ manager: any PlaybackManager, didEncounter error: PlaybackError)
}

// Forward endings are what a role that knows nothing of directions hears; a backward one reaches it as an end too.
extension PlaybackInteractorOutput {
  public func presentEnded(position: MediaTime, duration: MediaTime?, loops: Int, direction: PlaybackDirection) {
    presentEnded(position: position, duration: duration, loops: loops)
  }
}

extension PlaybackManagerDelegate {
  public func playbackManager(
    _ manager: any PlaybackManager, didReachEnd position: MediaTime, loops: Int, direction: PlaybackDirection
  ) {
    playbackManager(manager, didReachEnd: position, loops: loops)
  }
}

// MARK: - Router

/// Where the session goes next. The app behind it decides what leaving means (exit codes).
@MainActor
public protocol PlaybackRouting: AnyObject {
  /// `open` / `close`: tears down the current playback manager (if any) and, when `wantsNew`, asks
  /// the Builder for a fresh one, its delegate already set. Returns the new manager.
  func gotoMedia(replacing current: (any PlaybackManager)?, wantsNew: Bool) -> (any PlaybackManager)?
  /// The session is over; the process should leave with this status. `report` lists what failed.
  func closeSession(exitCode: Int32, report: SessionReport)
}

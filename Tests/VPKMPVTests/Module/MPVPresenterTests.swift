import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

/// Records what the mpv presenter asks its view to show, as JSON lines.
@MainActor
final class MPVViewSpy: MPVView {
  var lines: [String] = []
  var finishCount = 0
  /// Called with each line as it is shown.
  var onDisplay: ((String) -> Void)?
  func display(_ message: MPVValue) {
    lines.append(message.json)
    onDisplay?(message.json)
  }
  func displayFinish() { finishCount += 1 }
}

/// An mpv presenter wired to spies.
@MainActor
struct MPVHarness {
  let presenter: MPVPresenter
  let view = MPVViewSpy()
  let interactor = InteractorSpy()
  /// Whether the session plays the files it loads (`loaded()` opens one playing).
  let startsPlaying: Bool

  init(
    statusBoard: PlaybackStatusBoard? = nil, hrSeek: MPVHRSeek = .default, sharedOptions: MPVSharedOptions? = nil,
    startsPlaying: Bool = false
  ) {
    presenter = MPVPresenter(
      interactor: interactor, clientName: "ipc_3", viewID: .primary, statusBoard: statusBoard,
      startsPlaying: startsPlaying, hrSeek: hrSeek, sharedOptions: sharedOptions, clockMicroseconds: { 12_345_678 })
    presenter.view = view
    self.startsPlaying = startsPlaying
  }

  func send(_ line: String) { presenter.onInputLine(.text(line)) }

  /// What `loadfile PATH replace` submits: the queue becomes PATH alone, with its own options, and it plays.
  static func replacing(_ path: String, _ options: EntryOptions = EntryOptions()) -> [InteractorSpy.Call] {
    [.submit(.queue(.clear)), .submit(.queue(.insert(path, .end, options))), .submit(.goto(1))]
  }

  /// The origin of the last command the presenter submitted, as the interactor gives it.
  var lastOrigin: CommandOrigin { interactor.origin(interactor.lastID) }

  /// The last command the presenter submitted, a seek, lands exactly at `seconds`.
  /// Observes `names` (ids from 1), told their values in `state`; the lines so far are cleared.
  func observe(_ names: [String], state: PlaybackState) {
    for (index, name) in names.enumerated() {
      send(#"{"command": ["observe_property", \#(index + 1), "\#(name)"]}"#)
      presenter.present(.status(status(state)), origin: lastOrigin)
    }
    view.lines.removeAll()
  }

  /// The last command, a seek, starts towards `seconds`, as the interactor tells every view.
  func lastSeekStarts(at seconds: Double) {
    presenter.present(.seekStarted(.time(MediaTime(seconds: seconds))), origin: lastOrigin)
  }

  func lastSeekLands(at seconds: Double) {
    presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: interactor.lastID, target: MediaTime(seconds: seconds), position: MediaTime(seconds: seconds),
            mode: .exact, milliseconds: 1), requested: nil, duration: nil, showsTiming: false)), origin: lastOrigin)
  }

  /// A file is loaded and paused at `position`.
  func loaded(position: Double = 0) {
    presenter.present(.loading(path: "/media/clip.mp4", paused: !startsPlaying), origin: nil)
    presenter.present(.ready(info, position: MediaTime(seconds: position)), origin: nil)
    view.lines.removeAll()
  }

  let info = MediaInfo(
    path: "/media/clip.mp4", container: "mov,mp4,m4a,3gp,3g2,mj2", duration: MediaTime(seconds: 4), streamCount: 1,
    video: VideoStreamInfo(codec: "h264", width: 320, height: 240, frameRate: 25, pixelFormat: "yuv420p"),
    audio: nil)

  func status(_ state: PlaybackState = .paused, position: Double = 2, rate: Double = 1) -> PlaybackStatus {
    PlaybackStatus(
      state: state, position: MediaTime(seconds: position), duration: MediaTime(seconds: 4), rate: rate,
      framesDecoded: 0, decodeErrors: 0)
  }
}

@Suite("mpv dialect presenter")
@MainActor
struct MPVPresenterTests {
  @Test("get_property of a position asks for status and answers from it, with the client's request_id")
  func getPropertyFromStatus() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When the client asks for time-pos
    harness.send(#"{"command": ["get_property", "time-pos"], "request_id": 5}"#)
    #expect(harness.interactor.calls.last == .submit(.status))
    harness.presenter.present(.status(harness.status(position: 2.56)), origin: harness.lastOrigin)
    // Then the reply is mpv's shape
    #expect(harness.view.lines == [#"{"data":2.56,"request_id":5,"error":"success"}"#])
  }

  @Test("a property of the file comes from the events; nothing loaded: property unavailable")
  func fileProperties() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["get_property", "width"]}"#)
    harness.presenter.present(
      .status(PlaybackStatus(state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)),
      origin: harness.lastOrigin)
    #expect(harness.view.lines == [#"{"request_id":0,"error":"property unavailable"}"#])
    harness.loaded()
    for (name, value) in [
      ("width", "320"), ("filename", #""clip.mp4""#), ("estimated-frame-count", "100"), ("container-fps", "25.0"),
      ("idle-active", "false"), ("estimated-frame-number", "50"), ("percent-pos", "50.0"), ("pause", "true"),
    ] {
      harness.view.lines.removeAll()
      harness.send(#"{"command": ["get_property", "\#(name)"]}"#)
      harness.presenter.present(.status(harness.status(position: 2)), origin: harness.lastOrigin)
      #expect(harness.view.lines == [#"{"data":\#(value),"request_id":0,"error":"success"}"#], "\(name)")
    }
  }

  @Test("get_property_string writes flags as yes/no and numbers with six decimals")
  func stringForm() {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["get_property_string", "speed"]}"#)
    harness.presenter.present(.status(harness.status(rate: 1.5)), origin: harness.lastOrigin)
    #expect(harness.view.lines == [#"{"data":"1.500000","request_id":0,"error":"success"}"#])
  }

  @Test("an absolute exact seek is a scrub, answered at once with seek; playback-restart comes when it lands")
  func seekLands() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When the client seeks
    harness.send(#"{"command": ["seek", 2, "absolute+exact"], "request_id": 6}"#)
    // Then vpk scrubs, and the reply and `seek` come at once, as mpv sends them when the seek is queued
    #expect(harness.interactor.calls.last == .submit(.scrub(.seconds(2), .exact)))
    #expect(harness.view.lines == [#"{"data":null,"request_id":6,"error":"success"}"#, #"{"event":"seek"}"#])
    // And when it lands, playback-restart
    harness.lastSeekLands(at: 2)
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":6,"error":"success"}"#, #"{"event":"seek"}"#, #"{"event":"playback-restart"}"#,
      ])
  }

  @Test(
    "another client's seek whose start was not seen (it started before this client connected) shows seek as it lands")
  func othersSeekLands() {
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: 40, target: MediaTime(seconds: 2), position: MediaTime(seconds: 2), mode: .exact, milliseconds: 1),
          requested: nil, duration: nil, showsTiming: false)),
      origin: CommandOrigin(id: 40, sender: CommandSender(view: ViewID(value: 9), number: 1)))
    #expect(harness.view.lines == [#"{"event":"seek"}"#, #"{"event":"playback-restart"}"#])
  }

  @Test(
    "observers hear the target with seeking true as the client's own seek starts, then playback-restart, seeking false and where it landed"
  )
  func seekingOfOwnSeek() {
    // Given a loaded file at 2 s and observers of time-pos and seeking
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(["time-pos", "seeking"], state: .paused)
    // When the client seeks, the seek starts, and it lands on a frame short of the target
    harness.send(#"{"command": ["seek", 3, "absolute"], "request_id": 3}"#)
    harness.lastSeekStarts(at: 3)
    harness.lastSeekLands(at: 2.9)
    // Then, as mpv tells it: the target and seeking true (in the observers' order) after seek, then
    // playback-restart, seeking false, and where it landed
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":3,"error":"success"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":3.0}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":true}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":false}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":2.9}"#,
      ])
  }

  @Test(
    "a seek past the end: time-pos tells the target as asked as it starts, the other position properties within the file"
  )
  func seekPastTheEndTellsTheTargetAsAsked() {
    // Given a loaded 4 s file at 0 s, with observers of the position's properties
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(
      ["time-pos", "playback-time", "percent-pos", "time-remaining", "estimated-frame-number"], state: .paused)
    // When the client seeks to 1000 s, and the session announces the target as asked, then lands at the end
    harness.send(#"{"command": ["seek", 1000, "absolute"], "request_id": 3}"#)
    harness.lastSeekStarts(at: 1000)
    harness.lastSeekLands(at: 4)
    // Then, as mpv 0.35.1 tells it: time-pos 1000 as it starts (the others within the file), then where it landed
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":3,"error":"success"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":1000.0}"#,
        #"{"event":"property-change","id":2,"name":"playback-time","data":4.0}"#,
        #"{"event":"property-change","id":3,"name":"percent-pos","data":100.0}"#,
        #"{"event":"property-change","id":4,"name":"time-remaining","data":0.0}"#,
        #"{"event":"property-change","id":5,"name":"estimated-frame-number","data":100}"#,
        #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":4.0}"#,
      ])
  }

  @Test("another client's seek whose start was not seen: an observer of seeking hears true and false as it lands")
  func seekingOfOthersSeek() {
    // Given a loaded file and an observer of seeking
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["observe_property", 1, "seeking"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    // When another client's seek lands
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: 40, target: MediaTime(seconds: 2), position: MediaTime(seconds: 2), mode: .exact, milliseconds: 1),
          requested: nil, duration: nil, showsTiming: false)),
      origin: CommandOrigin(id: 40, sender: CommandSender(view: ViewID(value: 9), number: 1)))
    // Then the observer hears what mpv sends every client of a seek, in mpv's order
    #expect(
      harness.view.lines == [
        #"{"event":"seek"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":true}"#,
        #"{"event":"playback-restart"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  /// Another client (view 9)'s command `id`.
  private static func others(_ id: Int) -> CommandOrigin {
    CommandOrigin(id: id, sender: CommandSender(view: ViewID(value: 9), number: id))
  }

  private static func landed(_ id: Int, at seconds: Double) -> SessionEvent {
    .seeked(
      SeekOutcome(
        result: SeekResult(
          id: id, target: MediaTime(seconds: seconds), position: MediaTime(seconds: seconds), mode: .exact,
          milliseconds: 1), requested: nil, duration: nil, showsTiming: false))
  }

  /// A loaded file and an observer of `seeking`, with what was written so far cleared.
  private static func observingSeeking() -> MPVHarness {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["observe_property", 1, "seeking"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    return harness
  }

  @Test("another client's seek: seek and seeking true as it starts, playback-restart and seeking false as it lands")
  func othersSeekShownAsItStarts() {
    // Given a loaded file and an observer of seeking
    let harness = Self.observingSeeking()
    // When another client's seek starts
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 2))), origin: Self.others(40))
    // Then the client hears seek, then seeking true, at once, as mpv tells every client
    #expect(
      harness.view.lines == [
        #"{"event":"seek"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":true}"#,
      ])
    harness.view.lines.removeAll()
    // When it lands
    harness.presenter.present(Self.landed(40, at: 2), origin: Self.others(40))
    // Then only playback-restart and seeking false follow
    #expect(
      harness.view.lines == [
        #"{"event":"playback-restart"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  @Test("a seek that lands while the client's newer one is under way leaves the newer target told, as mpv keeps it")
  func olderSeekLandingKeepsTheNewerTarget() {
    // Given a loaded file at 2 s and observers of time-pos and seeking
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(["time-pos", "seeking"], state: .paused)
    // And a seek to 3 s under way, then a newer one to 15 s
    harness.send(#"{"command": ["seek", 3, "absolute"], "request_id": 3}"#)
    let older = harness.lastOrigin
    harness.lastSeekStarts(at: 3)
    harness.send(#"{"command": ["seek", 15, "absolute"], "request_id": 4}"#)
    harness.lastSeekStarts(at: 15)
    harness.view.lines.removeAll()
    // When the older one lands short of its target, then the newer one lands
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: older.id, target: MediaTime(seconds: 3), position: MediaTime(seconds: 2.9), mode: .exact,
            milliseconds: 1), requested: nil, duration: nil, showsTiming: false)), origin: older)
    harness.lastSeekLands(at: 15)
    // Then time-pos never goes back to where the older one landed
    #expect(
      harness.view.lines == [
        #"{"event":"playback-restart"}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":false}"#,
      ])
  }

  @Test(
    "another client's seek while playing: the target, seeking and core-idle true as it starts; then playback-restart, seeking and core-idle false, and where it landed"
  )
  func othersSeekWhilePlayingAsMPVTellsIt() {
    // Given a file playing at 2 s and observers of time-pos, seeking and core-idle
    let harness = MPVHarness(startsPlaying: true)
    harness.loaded()
    harness.observe(["time-pos", "seeking", "core-idle"], state: .playing)
    // When another client's seek to 3 s starts, and lands a little short of it
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 3))), origin: Self.others(40))
    harness.presenter.present(Self.landed(40, at: 2.96), origin: Self.others(40))
    // Then the observers hear it as mpv tells them, each round in the order they were added
    #expect(
      harness.view.lines == [
        #"{"event":"seek"}"#, #"{"event":"property-change","id":1,"name":"time-pos","data":3.0}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":true}"#,
        #"{"event":"property-change","id":3,"name":"core-idle","data":true}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":false}"#,
        #"{"event":"property-change","id":3,"name":"core-idle","data":false}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":2.96}"#,
      ])
  }

  @Test("another client's seek replaced by its newer one: a seek for each start, one playback-restart, seeking false")
  func othersSupersededSeek() {
    // Given a loaded file and an observer of seeking
    let harness = Self.observingSeeking()
    // When another client starts two seeks and the second replaces the first
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 3))), origin: Self.others(40))
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 15))), origin: Self.others(41))
    harness.presenter.present(.superseded(newer: Self.others(41)), origin: Self.others(40))
    harness.presenter.present(Self.landed(41, at: 15), origin: Self.others(41))
    // Then seeking turns true once and false once, with the one playback-restart
    #expect(
      harness.view.lines == [
        #"{"event":"seek"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":true}"#,
        #"{"event":"seek"}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  @Test("another client's step: seek as it starts, playback-restart as it lands")
  func othersStepShownAsItStarts() {
    // Given a loaded file and an observer of seeking
    let harness = Self.observingSeeking()
    // When another client's step starts and lands
    harness.presenter.present(.seekStarted(.frames(-1)), origin: Self.others(42))
    let started = harness.view.lines
    harness.presenter.present(
      .stepped(StepResult(id: 42, requested: -1, moved: -1, position: MediaTime(seconds: 1.96)), duration: nil),
      origin: Self.others(42))
    // Then seek came at its start and only playback-restart at its landing
    #expect(
      started == [#"{"event":"seek"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":true}"#])
    #expect(
      harness.view.lines.dropFirst(started.count).elementsEqual([
        #"{"event":"playback-restart"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ]))
  }

  @Test(
    "another client's frame-step forward: nothing as it starts or lands (mpv plays one frame and seeks nothing)"
  )
  func othersForwardStepShownAsItLands() {
    // Given a loaded file and an observer of seeking
    let harness = Self.observingSeeking()
    // When another client's step forward starts
    harness.presenter.present(.seekStarted(.frames(1)), origin: Self.others(43))
    // Then nothing is shown yet
    #expect(harness.view.lines.isEmpty)
    // When it lands
    harness.presenter.present(
      .stepped(StepResult(id: 43, requested: 1, moved: 1, position: MediaTime(seconds: 2.04)), duration: nil),
      origin: Self.others(43))
    // Then neither seek nor playback-restart, and seeking stays false
    #expect(harness.view.lines.isEmpty)
  }

  @Test("this client's frame-step: its reply, then no seek nor playback-restart; frame-back-step sends both")
  func ownFrameStepSeeksNothing() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When the client frame-steps and the step lands
    harness.send(#"{"command": ["frame-step"], "request_id": 2}"#)
    harness.presenter.present(
      .stepped(
        StepResult(id: harness.interactor.lastID, requested: 1, moved: 1, position: MediaTime(seconds: 0.04)),
        duration: nil), origin: harness.lastOrigin)
    // Then the reply alone, as mpv sends it
    #expect(harness.view.lines == [#"{"data":null,"request_id":2,"error":"success"}"#])
    // When it frame-back-steps and the step lands
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["frame-back-step"], "request_id": 3}"#)
    harness.presenter.present(
      .stepped(StepResult(id: harness.interactor.lastID, requested: -1, moved: -1, position: .zero), duration: nil),
      origin: harness.lastOrigin)
    // Then the reply, seek and playback-restart
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":3,"error":"success"}"#, #"{"event":"seek"}"#, #"{"event":"playback-restart"}"#,
      ])
    // When it observes seeking and time-pos and steps back again
    harness.observe(["seeking", "time-pos"], state: .paused)
    harness.send(#"{"command": ["frame-back-step"], "request_id": 4}"#)
    harness.presenter.present(
      .stepped(
        StepResult(id: harness.interactor.lastID, requested: -1, moved: -1, position: MediaTime(seconds: 1.96)),
        duration: nil), origin: harness.lastOrigin)
    // Then its observers hear the step as mpv tells its own back step: seeking true, then false and where it landed
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":4,"error":"success"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":true}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
        #"{"event":"property-change","id":2,"name":"time-pos","data":1.96}"#,
      ])
  }

  @Test("a frame-step from paused plays its frame as mpv's does: pause and core-idle false, then the frame's changes")
  func frameStepFromPauseUnpausesForItsFrame() {
    for (state, flips) in [(PlaybackState.paused, true), (.playing, false)] {
      // Given a loaded file, paused or playing at 2 s, and observers of time-pos, pause and core-idle
      let harness = MPVHarness()
      harness.loaded()
      for (id, name) in [(1, "time-pos"), (2, "pause"), (3, "core-idle")] {
        harness.send(#"{"command": ["observe_property", \#(id), "\#(name)"], "request_id": \#(10 + id)}"#)
        harness.presenter.present(.status(harness.status(state)), origin: harness.lastOrigin)
      }
      harness.view.lines.removeAll()
      // When the client frame-steps and the step lands on the next frame
      harness.send(#"{"command": ["frame-step"], "request_id": 2}"#)
      harness.presenter.present(
        .stepped(
          StepResult(id: harness.interactor.lastID, requested: 1, moved: 1, position: MediaTime(seconds: 2.04)),
          duration: nil), origin: harness.lastOrigin)
      // Then the reply; from paused, pause and core-idle false; then the frame's changes in the observers' order
      let unpaused = [
        #"{"event":"property-change","id":2,"name":"pause","data":false}"#,
        #"{"event":"property-change","id":3,"name":"core-idle","data":false}"#,
      ]
      #expect(
        harness.view.lines == [#"{"data":null,"request_id":2,"error":"success"}"#] + (flips ? unpaused : []) + [
          #"{"event":"property-change","id":1,"name":"time-pos","data":2.04}"#,
          #"{"event":"property-change","id":2,"name":"pause","data":true}"#,
          #"{"event":"property-change","id":3,"name":"core-idle","data":true}"#,
        ], "from \(state)")
    }
  }

  @Test("this client's own seek is announced as it is sent, once: its start adds nothing")
  func ownSeekStartAddsNothing() {
    // Given a loaded file and an observer of seeking
    let harness = Self.observingSeeking()
    // When the client seeks, the session says it started, and it lands
    harness.send(#"{"command": ["seek", 2, "absolute"], "request_id": 2}"#)
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 2))), origin: harness.lastOrigin)
    harness.presenter.present(Self.landed(harness.interactor.lastID, at: 2), origin: harness.lastOrigin)
    // Then it reads as without the start: reply, seek, seeking true, playback-restart, seeking false
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":2,"error":"success"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":true}"#, #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  @Test("another client's seek replaced by this client's: seeking is false once this client's lands")
  func othersSeekReplacedByOwn() {
    // Given a loaded file, an observer of seeking, and another client's seek under way
    let harness = Self.observingSeeking()
    // (submitted through the session, which numbers every view's commands in one sequence)
    let others = harness.interactor.origin(
      harness.interactor.submit(
        .scrub(.seconds(3), nil), source: nil, from: CommandSender(view: ViewID(value: 9), number: 1)))
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 3))), origin: others)
    // When this client's seek replaces it and lands
    harness.send(#"{"command": ["seek", 5, "absolute"], "request_id": 2}"#)
    let own = harness.lastOrigin
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 5))), origin: own)
    harness.presenter.present(.superseded(newer: own), origin: others)
    harness.presenter.present(Self.landed(own.id, at: 5), origin: own)
    // Then seeking ends false, after the playback-restart
    #expect(
      harness.view.lines.suffix(2) == [
        #"{"event":"playback-restart"}"#, #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  @Test("a seek with nothing loaded is answered when vpk has run it")
  func seekWithoutFile() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["seek", 2, "absolute"], "request_id": 3}"#)
    #expect(harness.view.lines.isEmpty)
    harness.presenter.present(.error(PlaybackError(.notReady, "no media")), origin: harness.lastOrigin)
    #expect(harness.view.lines == [#"{"request_id":3,"error":"error running command"}"#])
  }

  @Test("replies go out in the order of the requests: an answer ready at once waits for an earlier pending one")
  func repliesInRequestOrder() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When a read that needs a status is followed by requests answered at once
    harness.send(#"{"command": ["get_property", "time-pos"], "request_id": 1}"#)
    let read = harness.lastOrigin
    harness.send(#"{"command": ["get_property", "aid"], "request_id": 2}"#)
    harness.send(#"{"command": ["unobserve_property", 4], "request_id": 3}"#)
    harness.send("{not json")
    harness.send(#"{"command": ["seek", 1, "absolute"], "request_id": 4}"#)
    // Then nothing is answered before the read
    #expect(harness.view.lines.isEmpty)
    #expect(harness.presenter.owesReplies)
    // And when the status comes, every reply goes out, in order, the seek's with its `seek` event
    harness.presenter.present(.status(harness.status(position: 0.5)), origin: read)
    #expect(
      harness.view.lines == [
        #"{"data":0.5,"request_id":1,"error":"success"}"#, #"{"request_id":2,"error":"property not found"}"#,
        #"{"request_id":3,"error":"success"}"#, #"{"request_id":0,"error":"invalid parameter"}"#,
        #"{"data":null,"request_id":4,"error":"success"}"#, #"{"event":"seek"}"#,
      ])
    #expect(!harness.presenter.owesReplies)
  }

  @Test("text commands run as mpv's input.conf reads them, unanswered")
  func textCommands() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When a text line cycles pause
    harness.send("no-osd cycle pause")
    harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
    harness.presenter.present(
      .state(.playing, position: .zero, duration: MediaTime(seconds: 4)), origin: harness.lastOrigin)
    // And seeks, sets and adds, two commands on one line
    harness.send(#"osd-msg-bar seek 20 absolute; set "pause" yes"#)
    harness.send("add speed 0.1")
    harness.presenter.present(.status(harness.status(rate: 1)), origin: harness.lastOrigin)
    harness.send("frame_step")
    harness.send("frame-back-step")
    harness.send("loadfile '/media/other file.mp4'")
    harness.send("stop")
    harness.send("quit")
    // Then each runs as its JSON form does
    #expect(
      harness.interactor.calls.filter { $0 != .submit(.status) } == [
        .submit(.queue(.list)), .submit(.info), .submit(.play), .submit(.scrub(.seconds(20), .exact)),
        .submit(.pause), .submit(.rate(1.1)), .submit(.step(1)), .submit(.step(-1)), .submit(.queue(.clear)),
        .submit(.queue(.insert("/media/other file.mp4", .end, EntryOptions()))), .submit(.goto(1)),
        .submit(.queue(.clear)), .submit(.close),
        .submit(.quit),
      ])
    // And nothing is answered: the only lines are the seek's event
    #expect(harness.view.lines == [#"{"event":"seek"}"#])
    #expect(!harness.presenter.owesReplies)
  }

  @Test("a text line mpv cannot parse, or that names the IPC's own commands, runs nothing")
  func refusedTextLines() {
    let harness = MPVHarness()
    harness.loaded()
    for line in [
      "cycle pause; frobnicate", #"set pause "yes"#, "no-osd", "observe_property 1 pause", "get_property pause",
      "# cycle pause", "SET pause yes",
    ] {
      harness.send(line)
    }
    #expect(harness.interactor.calls.filter { $0 != .submit(.info) }.isEmpty)
    #expect(harness.view.lines.isEmpty)
  }

  @Test("while a file loads in a session that plays what it loads, an observer of pause hears false once")
  func pauseDuringLoad() {
    // Given a client of a session that plays what it loads, observing pause
    let interactor = InteractorSpy()
    let view = MPVViewSpy()
    let presenter = MPVPresenter(interactor: interactor, clientName: "ipc_1", viewID: .primary, startsPlaying: true)
    presenter.view = view
    presenter.onInputLine(.text(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#))
    presenter.present(
      .status(PlaybackStatus(state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)),
      origin: interactor.origin(interactor.lastID))
    // When a file loads, is ready and plays
    presenter.present(.loading(path: "/media/clip.mp4", paused: false), origin: nil)
    presenter.present(.ready(MPVHarness().info, position: .zero), origin: nil)
    presenter.present(.state(.playing, position: .zero, duration: MediaTime(seconds: 4)), origin: nil)
    // Then pause was told once: false
    #expect(
      view.lines.filter { $0.contains(#""name":"pause""#) } == [
        #"{"event":"property-change","id":1,"name":"pause","data":false}"#
      ])
  }

  @Test("the session's file, open before the client connected, is its playlist entry 1")
  func learntFileIsEntryOne() {
    // Given a client that learnt the session's open file
    let harness = MPVHarness()
    harness.presenter.learnSessionFile()
    harness.presenter.present(.info(harness.info), origin: harness.lastOrigin)
    // When the file is stopped
    harness.send(#"{"command": ["stop"], "request_id": 1}"#)
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    // Then end-file names entry 1, as mpv counts
    #expect(harness.view.lines.contains(#"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#))
    // And the next loadfile is entry 2, whose replacing ends entry 2 by its number
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["loadfile", "/media/b.mp4"], "request_id": 2}"#)
    harness.presenter.present(.loading(path: "/media/b.mp4", paused: true), origin: harness.lastOrigin)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: harness.lastOrigin)
    harness.presenter.present(.loading(path: "/media/c.mp4", paused: true), origin: nil)
    #expect(
      harness.view.lines == [
        #"{"data":{"playlist_entry_id":2},"request_id":2,"error":"success"}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#, #"{"event":"file-loaded"}"#,
        #"{"event":"playback-restart"}"#, #"{"event":"end-file","reason":"stop","playlist_entry_id":2}"#,
        #"{"event":"start-file","playlist_entry_id":3}"#,
      ])
  }

  @Test("seek references and mpv's default precision map onto scrub and skip")
  func seekReferences() {
    let harness = MPVHarness()
    harness.loaded()
    // Given mpv's default --hr-seek, When seeks of each reference come, with and without a precision
    harness.send(#"{"command": ["seek", 5]}"#)
    harness.send(#"{"command": ["seek", -5]}"#)
    harness.send(#"{"command": ["seek", 3, "absolute"]}"#)
    harness.send(#"{"command": ["seek", 25, "absolute-percent"]}"#)
    harness.send(#"{"command": ["seek", 50, "relative-percent"]}"#)
    harness.send(#"{"command": ["seek", 50, "relative-percent+exact"]}"#)
    harness.send(#"{"command": ["seek", 1, "relative+keyframes"]}"#)
    harness.send(#"{"command": ["seek", 1, "relative+exact"]}"#)
    harness.send(#"{"command": ["seek", 3, "absolute+keyframes"]}"#)
    harness.send(#"{"command": ["frame-back-step"]}"#)
    harness.send(#"{"command": ["frame-step"]}"#)
    // Then absolute seeks are exact, the others go to a keyframe: the next one for a relative seek forward
    #expect(
      harness.interactor.calls == [
        .submit(.queue(.list)), .submit(.info), .submit(.skip(5, .nextKeyframe)), .submit(.skip(-5, .keyframe)),
        .submit(.scrub(.seconds(3), .exact)), .submit(.scrub(.percent(25), .keyframe)), .submit(.skip(2, .keyframe)),
        .submit(.skip(2, .exact)), .submit(.skip(1, .nextKeyframe)), .submit(.skip(1, .exact)),
        .submit(.scrub(.seconds(3), .keyframe)), .submit(.step(-1)), .submit(.step(1)),
      ])
  }

  @Test("a negative absolute seek counts from the end, as mpv's seek command reads it; setting time-pos does not")
  func negativeAbsoluteSeekCountsFromTheEnd() {
    // Given a loaded 4 s file
    let harness = MPVHarness()
    harness.loaded()
    // When the client seeks to -1 absolute, to -9 absolute (before the start), and sets time-pos to -1
    harness.send(#"{"command": ["seek", -1, "absolute"]}"#)
    harness.send(#"{"command": ["seek", -9, "absolute+keyframes"]}"#)
    harness.send(#"{"command": ["set_property", "time-pos", -1]}"#)
    // Then the seeks go to 1 s before the end and to the start, and the set goes to -1 s (the start), as mpv's
    #expect(
      Array(harness.interactor.calls.suffix(3)) == [
        .submit(.scrub(.seconds(3), .exact)), .submit(.scrub(.seconds(0), .keyframe)),
        .submit(.scrub(.seconds(-1), .exact)),
      ])
  }

  @Test("setting and adding to time-pos is an exact seek, as mpv's absolute one; percent-pos a keyframe seek")
  func propertySeeks() {
    // Given a loaded file (4 s)
    let harness = MPVHarness()
    harness.loaded()
    // When a client adds to and sets the position properties (`add` reads the value first)
    for (line, expected) in [
      (#"{"command": ["add", "time-pos", 1]}"#, Command.skip(1, .exact)),
      (#"{"command": ["add", "playback-time", -1]}"#, .skip(-1, .exact)),
      (#"{"command": ["set", "time-pos", "2"]}"#, .scrub(.seconds(2), .exact)),
      (#"{"command": ["add", "percent-pos", 25]}"#, .skip(1, .keyframe)),
      (#"{"command": ["set_property", "percent-pos", 50]}"#, .scrub(.percent(50), .keyframe)),
    ] {
      harness.send(line)
      if harness.interactor.calls.last == .submit(.status) {
        harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
      }
      // Then the times are exact, added ones too (mpv sets them as absolute times); the shares go to a keyframe
      #expect(harness.interactor.calls.last == .submit(expected), "\(line)")
    }
  }

  @Test("--hr-seek decides the precision of seeks that name none; their flags still win")
  func hrSeekOption() {
    for (hrSeek, expected) in [
      (MPVHRSeek.yes, [Command.skip(5, .exact), .scrub(.percent(25), .exact), .skip(5, .nextKeyframe)]),
      (.no, [.skip(5, .nextKeyframe), .scrub(.percent(25), .keyframe), .skip(5, .nextKeyframe)]),
      (.absolute, [.skip(5, .nextKeyframe), .scrub(.percent(25), .keyframe), .skip(5, .nextKeyframe)]),
    ] {
      // Given a client of a session started with that --hr-seek
      let harness = MPVHarness(hrSeek: hrSeek)
      harness.loaded()
      // When it seeks relative, to a percentage, and relative with +keyframes
      harness.send(#"{"command": ["seek", 5]}"#)
      harness.send(#"{"command": ["seek", 25, "absolute-percent"]}"#)
      harness.send(#"{"command": ["seek", 5, "relative+keyframes"]}"#)
      // Then each has the precision mpv gives it
      #expect(Array(harness.interactor.calls.dropFirst(2)) == expected.map { .submit($0) }, "\(hrSeek)")
    }
    // And with --hr-seek=no an absolute seek goes to the keyframe at or before its target, +exact to the frame
    let harness = MPVHarness(hrSeek: .no)
    harness.loaded()
    harness.send(#"{"command": ["seek", 3, "absolute"]}"#)
    harness.send(#"{"command": ["seek", 3, "absolute+exact"]}"#)
    #expect(
      Array(harness.interactor.calls.dropFirst(2)) == [
        .submit(.scrub(.seconds(3), .keyframe)), .submit(.scrub(.seconds(3), .exact)),
      ])
  }

  @Test("set_property pause answers without data once the state changed; a failure is mpv's error string")
  func setPause() {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["set_property", "pause", false], "request_id": 8}"#)
    #expect(harness.interactor.calls.last == .submit(.play))
    harness.presenter.present(
      .state(.playing, position: .zero, duration: MediaTime(seconds: 4)), origin: harness.lastOrigin)
    #expect(harness.view.lines == [#"{"request_id":8,"error":"success"}"#])
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["set", "pause", "yes"]}"#)
    harness.presenter.present(.error(PlaybackError(.notReady, "no media")), origin: harness.lastOrigin)
    #expect(harness.view.lines == [#"{"request_id":0,"error":"error running command"}"#])
  }

  @Test("cycle and add read the value now, then set the new one")
  func cycleAndAdd() {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["cycle", "pause"]}"#)
    harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
    #expect(harness.interactor.calls.suffix(2) == [.submit(.status), .submit(.play)])
    harness.presenter.present(
      .state(.playing, position: .zero, duration: MediaTime(seconds: 4)), origin: harness.lastOrigin)
    harness.send(#"{"command": ["add", "speed", 0.5]}"#)
    harness.presenter.present(.status(harness.status(rate: 1.5)), origin: harness.lastOrigin)
    #expect(harness.interactor.calls.last == .submit(.rate(2)))
    harness.presenter.present(.rate(2), origin: harness.lastOrigin)
    #expect(harness.view.lines.last == #"{"data":null,"request_id":0,"error":"success"}"#)
  }

  @Test(
    "What comes behind an add or cycle runs after its change, as in mpv: a read behind `add speed` says the new speed")
  func requestsBehindAnAdjustWaitForIt() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When a text line adds to the speed and sets it, and a read follows before the speed is known
    harness.send("add speed 0.25; set pause yes")
    harness.send(#"{"command": ["get_property", "speed"], "request_id": 1}"#)
    harness.send(#"{"command": ["cycle", "pause"], "request_id": 2}"#)
    // Then only the add's status has been asked for
    #expect(harness.interactor.calls.last == .submit(.status))
    let before = harness.interactor.calls.count
    // When the status says 1.5
    harness.presenter.present(.status(harness.status(rate: 1.5)), origin: harness.lastOrigin)
    // Then the add's change is submitted, then the set, the read's status and the cycle's status, in that order
    #expect(
      Array(harness.interactor.calls[before...]) == [
        .submit(.rate(1.75)), .submit(.pause), .submit(.status), .submit(.status),
      ])
  }

  @Test("play-dir is the sign of vpk's rate and speed its size: setting one keeps the other")
  func playDirection() {
    // Given a loaded file playing forward at 2x
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.present(.rate(2), origin: harness.interactor.origin(0))
    // When the client sets play-dir backward
    harness.send(#"{"command": ["set_property", "play-dir", "backward"], "request_id": 1}"#)
    // Then vpk's rate turns negative, at the same size
    #expect(harness.interactor.calls.last == .submit(.rate(-2)))
    harness.presenter.present(.rate(-2), origin: harness.lastOrigin)
    // And play-dir reads backward and speed reads 2
    harness.send(#"{"command": ["get_property", "play-dir"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status(rate: -2)), origin: harness.lastOrigin)
    harness.send(#"{"command": ["get_property", "speed"], "request_id": 3}"#)
    harness.presenter.present(.status(harness.status(rate: -2)), origin: harness.lastOrigin)
    #expect(
      harness.view.lines.suffix(2) == [
        #"{"data":"backward","request_id":2,"error":"success"}"#, #"{"data":2.0,"request_id":3,"error":"success"}"#,
      ])
    // When it sets speed 0.5, the direction stays backward
    harness.send(#"{"command": ["set_property", "speed", 0.5]}"#)
    #expect(harness.interactor.calls.last == .submit(.rate(-0.5)))
    harness.presenter.present(.rate(-0.5), origin: harness.lastOrigin)
    // When it cycles play-dir, it goes forward again
    harness.send(#"{"command": ["cycle", "play-dir"]}"#)
    harness.presenter.present(.status(harness.status(rate: -0.5)), origin: harness.lastOrigin)
    #expect(harness.interactor.calls.last == .submit(.rate(0.5)))
    harness.presenter.present(.rate(0.5), origin: harness.lastOrigin)
    // And a direction that is not one is mpv's format error
    harness.send(#"{"command": ["set_property", "play-dir", "sideways"], "request_id": 9}"#)
    #expect(harness.view.lines.last == #"{"request_id":9,"error":"unsupported format for accessing property"}"#)
  }

  @Test("an observer gets the value now, then every change, and nothing after unobserve")
  func observers() {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["observe_property", 1, "time-pos"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status(position: 0)), origin: harness.lastOrigin)
    harness.presenter.present(
      .progress(ProgressMark(position: MediaTime(seconds: 1), duration: nil, state: .playing, rate: 1)), origin: nil)
    // The same position again is no change.
    harness.presenter.present(.state(.paused, position: MediaTime(seconds: 1), duration: nil), origin: nil)
    harness.send(#"{"command": ["unobserve_property", 1]}"#)
    harness.presenter.present(
      .progress(ProgressMark(position: MediaTime(seconds: 2), duration: nil, state: .playing, rate: 1)), origin: nil)
    #expect(
      harness.view.lines == [
        #"{"request_id":2,"error":"success"}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":0.0}"#,
        #"{"event":"property-change","id":1,"name":"time-pos","data":1.0}"#,
        #"{"request_id":0,"error":"success"}"#,
      ])
  }

  @Test("an observe_property_string observer is told the string form, as get_property_string reads it")
  func stringObservers() {
    // Given a loaded file, paused
    let harness = MPVHarness()
    harness.loaded()
    // When a client observes pause as a string, and the file plays
    harness.send(#"{"command": ["observe_property_string", 1, "pause"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
    harness.presenter.present(.state(.playing, position: .zero, duration: nil), origin: nil)
    // Then it is told "yes", then "no"
    #expect(
      harness.view.lines == [
        #"{"request_id":2,"error":"success"}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":"yes"}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":"no"}"#,
      ])
  }

  @Test("loading, stopping and quitting are mpv's events, for every client")
  func lifecycleEvents() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["loadfile", "/media/clip.mp4"], "request_id": 1}"#)
    #expect(harness.interactor.calls.suffix(3) == MPVHarness.replacing("/media/clip.mp4"))
    harness.presenter.present(.loading(path: "/media/clip.mp4", paused: true), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: harness.lastOrigin)
    harness.send(#"{"command": ["stop"]}"#)
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    harness.send(#"{"command": ["quit"]}"#)
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .quit, status: harness.status(.idle), openInterrupted: false)),
      origin: harness.lastOrigin)
    #expect(
      harness.view.lines == [
        #"{"data":{"playlist_entry_id":1},"request_id":1,"error":"success"}"#,
        #"{"event":"start-file","playlist_entry_id":1}"#, #"{"event":"file-loaded"}"#,
        #"{"event":"playback-restart"}"#, #"{"data":null,"request_id":0,"error":"success"}"#,
        #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#, #"{"event":"idle"}"#,
        #"{"data":null,"request_id":0,"error":"success"}"#,
      ])
    #expect(harness.view.finishCount == 1)
  }

  @Test("a file that cannot be opened ends in end-file with reason error and mpv's file_error, then idle")
  func loadFails() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["loadfile", "/nope.mp4"]}"#)
    harness.view.lines.removeAll()
    harness.presenter.present(.error(PlaybackError(.fileNotFound, "no such file")), origin: harness.lastOrigin)
    #expect(
      harness.view.lines == [
        #"{"event":"end-file","reason":"error","playlist_entry_id":1,"file_error":"loading failed"}"#,
        #"{"event":"idle"}"#,
      ])
    // And a file that is not media is mpv's unrecognized format
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["loadfile", "/notes.txt"]}"#)
    harness.view.lines.removeAll()
    harness.presenter.present(.error(PlaybackError(.notMedia, "not a media file")), origin: harness.lastOrigin)
    // (the next loadfile's entry is the queue's next: 2)
    #expect(
      harness.view.lines.first
        == #"{"event":"end-file","reason":"error","playlist_entry_id":2,"file_error":"unrecognized file format"}"#)
  }

  @Test("another mpv client is told the same file_error as the client whose file failed to open, as mpv tells all")
  func othersToldTheFailedFilesError() {
    // Given two mpv clients of one session, the second only listening
    let shared = MPVSharedOptions()
    let loader = MPVHarness(sharedOptions: shared)
    let listener = MPVHarness(sharedOptions: shared)
    // When the first loads a file that is not media, which fails to open
    loader.send(#"{"command": ["loadfile", "/notes.txt"]}"#)
    let loading = SessionEvent.loading(path: "/notes.txt", paused: true)
    loader.presenter.present(loading, origin: loader.lastOrigin)
    listener.presenter.present(loading, origin: loader.lastOrigin)
    loader.presenter.present(.error(PlaybackError(.notMedia, "not a media file")), origin: loader.lastOrigin)
    listener.presenter.present(.state(.idle, position: .zero, duration: nil), origin: nil)
    // Then both are told mpv's file_error for it
    let failure =
      #"{"event":"end-file","reason":"error","playlist_entry_id":1,"file_error":"unrecognized file format"}"#
    #expect(loader.view.lines.contains(failure))
    #expect(listener.view.lines.contains(failure))
    // And a failure loaded by a client of another dialect (none told to the shared options) is mpv's usual reason
    listener.view.lines.removeAll()
    listener.presenter.present(.loading(path: "/none.mp4", paused: true), origin: nil)
    listener.presenter.present(.state(.idle, position: .zero, duration: nil), origin: nil)
    #expect(listener.view.lines.contains { $0.contains(#""file_error":"loading failed""#) })
  }

  @Test("async input commands are answered in mpv's asynchronous form, success or failure; reads as ever")
  func asyncReplies() {
    // Given a client with nothing loaded
    let harness = MPVHarness()
    // When it sends an async seek (which fails without a file) and an async read
    harness.send(#"{"command": ["seek", 1], "request_id": 1, "async": true}"#)
    harness.presenter.present(.error(PlaybackError(.noMedia(verb: "scrub", idle: true))), origin: harness.lastOrigin)
    harness.send(#"{"command": ["get_property", "idle-active"], "request_id": 2, "async": true}"#)
    harness.presenter.present(.status(harness.status(.idle)), origin: harness.lastOrigin)
    // Then the seek's failure has null data after its error, and the read is answered as a read always is
    #expect(harness.view.lines.first == #"{"request_id":1,"error":"error running command","data":null}"#)
    #expect(harness.view.lines.last == #"{"data":true,"request_id":2,"error":"success"}"#)
    // When a file is loaded and an async seek and stop are sent
    harness.loaded()
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["seek", 1], "request_id": 3, "async": true}"#)
    harness.send(#"{"command": ["stop"], "request_id": 4, "async": true}"#)
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    // Then both replies are asynchronous, with data null
    #expect(harness.view.lines.first == #"{"request_id":3,"error":"success","data":null}"#)
    #expect(harness.view.lines.contains(#"{"request_id":4,"error":"success","data":null}"#))
  }

  @Test("a stop sent right behind a loadfile whose file then fails to open is answered, with no second end-file")
  func stopBehindAFailedLoad() {
    // Given a loadfile and a stop sent together
    let harness = MPVHarness()
    harness.send(#"{"command": ["loadfile", "/nope.mp4"], "request_id": 1}"#)
    let load = harness.lastOrigin
    harness.presenter.present(.loading(path: "/nope.mp4", paused: false), origin: load)
    harness.send(#"{"command": ["stop"], "request_id": 2}"#)
    let stop = harness.lastOrigin
    #expect(harness.interactor.calls.last == .submit(.close))
    // When the file fails to open, and the stop then closes nothing
    harness.presenter.present(.error(PlaybackError(.fileNotFound, "no such file")), origin: load)
    harness.presenter.present(.closed(nextPaused: false), origin: stop)
    // Then the failure's end-file and idle are all the client hears, and the stop is answered
    #expect(
      harness.view.lines == [
        #"{"data":{"playlist_entry_id":1},"request_id":1,"error":"success"}"#,
        #"{"event":"start-file","playlist_entry_id":1}"#,
        #"{"event":"end-file","reason":"error","playlist_entry_id":1,"file_error":"loading failed"}"#,
        #"{"event":"idle"}"#, #"{"data":null,"request_id":2,"error":"success"}"#,
      ])
  }

  @Test("while a file opens, reads are answered at once as mpv answers them; a quit then ends it with end-file quit")
  func readsWhileAFileOpens() {
    // Given a file that started opening and has not opened (a slow source)
    let harness = MPVHarness()
    harness.send(#"{"command": ["loadfile", "/media/slow.mp4"], "request_id": 1}"#)
    // (the `info` a client's first command is preceded by finds nothing loaded)
    harness.presenter.present(
      .error(PlaybackError(.noMedia(verb: "info", idle: true))), origin: harness.interactor.origin(2))
    harness.presenter.present(.loading(path: "/media/slow.mp4", paused: false), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    let submitted = harness.interactor.calls.count
    // When the client reads properties
    for name in ["path", "filename", "duration", "time-pos", "core-idle", "idle-active"] {
      harness.send(#"{"command": ["get_property", "\#(name)"], "request_id": "\#(name)"}"#)
    }
    harness.send(#"{"command": ["get_property", "track-list/count"], "request_id": "tracks"}"#)
    // Then each is answered now, from what is known while it opens (checked against mpv 0.35.1 on a FIFO), and no
    // status waits behind the open
    #expect(
      harness.view.lines == [
        #"{"data":"/media/slow.mp4","request_id":"path","error":"success"}"#,
        #"{"data":"slow.mp4","request_id":"filename","error":"success"}"#,
        #"{"request_id":"duration","error":"property unavailable"}"#,
        #"{"request_id":"time-pos","error":"property unavailable"}"#,
        #"{"data":true,"request_id":"core-idle","error":"success"}"#,
        #"{"data":false,"request_id":"idle-active","error":"success"}"#,
        #"{"data":0,"request_id":"tracks","error":"success"}"#,
      ])
    #expect(harness.interactor.calls.count == submitted)
    // And an observer added while it opens is told its value at once
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["observe_property", 5, "path"], "request_id": 5}"#)
    harness.send(#"{"command": ["observe_property", 6, "duration"], "request_id": 6}"#)
    #expect(
      harness.view.lines == [
        #"{"request_id":5,"error":"success"}"#,
        #"{"event":"property-change","id":5,"name":"path","data":"/media/slow.mp4"}"#,
        #"{"request_id":6,"error":"success"}"#, #"{"event":"property-change","id":6,"name":"duration"}"#,
      ])
    #expect(harness.interactor.calls.count == submitted)
    // When the client quits before it opens
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["quit"], "request_id": 9}"#)
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .quit, status: harness.status(.idle), openInterrupted: true)),
      origin: harness.lastOrigin)
    // Then the file ends with the session, as mpv tells it
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":9,"error":"success"}"#,
        #"{"event":"end-file","reason":"quit","playlist_entry_id":1}"#,
      ])
  }

  @Test("another client's commands show only as shared events; their replies are not this client's")
  func otherClientsCommands() {
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.present(.state(.playing, position: .zero, duration: nil), origin: harness.interactor.origin(42))
    harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(43))
    #expect(harness.view.lines.isEmpty)
  }

  @Test("client_name, get_version, the lists, and an unknown command")
  func constants() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["client_name"]}"#)
    harness.send(#"{"command": ["get_version"]}"#)
    harness.send(#"{"command": ["frobnicate"], "request_id": 4}"#)
    harness.send("not json at all")  // a text command mpv does not know: no reply, as mpv
    #expect(
      harness.view.lines == [
        #"{"data":"ipc_3","request_id":0,"error":"success"}"#, #"{"data":131072,"request_id":0,"error":"success"}"#,
        #"{"request_id":4,"error":"invalid parameter"}"#,
      ])
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["get_property", "property-list"]}"#)
    #expect(harness.view.lines.first?.contains(#""time-pos""#) == true)
    // Only the `info` every client's first command is preceded by.
    #expect(harness.interactor.calls == [.submit(.queue(.list)), .submit(.info)])
  }

  @Test(
    "disable_event keeps the events named from this client, property-change excepted; enable_event brings them back")
  func eventRequests() {
    // Given a file loaded, a client observing pause, that disables every event, then enables start-file again
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(["pause"], state: .paused)
    harness.send(#"{"command": ["disable_event", "all"], "request_id": 1}"#)
    harness.send(#"{"command": ["seek", 1, "absolute"], "request_id": 2}"#)
    harness.lastSeekLands(at: 1)
    harness.send(#"{"command": ["enable_event", "start-file"], "request_id": 3}"#)
    // When a stop, a new file and a change of pause follow
    harness.send(#"{"command": ["stop"]}"#)
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    harness.send(#"{"command": ["loadfile", "/media/b.mp4"], "request_id": 4}"#)
    harness.presenter.present(.loading(path: "/media/b.mp4", paused: false), origin: harness.lastOrigin)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: harness.lastOrigin)
    // Then the client hears only start-file and its observer's changes (checked against mpv 0.35.1)
    #expect(
      harness.view.lines == [
        #"{"request_id":1,"error":"success"}"#, #"{"data":null,"request_id":2,"error":"success"}"#,
        #"{"request_id":3,"error":"success"}"#, #"{"data":null,"request_id":0,"error":"success"}"#,
        #"{"data":{"playlist_entry_id":2},"request_id":4,"error":"success"}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":false}"#,
      ])
  }

  @Test("get_time_us answers the clock in microseconds; request_log_messages is accepted and sends nothing")
  func timeAndLogRequests() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["get_time_us"], "request_id": 1}"#)
    harness.send(#"{"command": ["request_log_messages", "v"], "request_id": 2}"#)
    #expect(
      harness.view.lines == [
        #"{"data":12345678,"request_id":1,"error":"success"}"#, #"{"request_id":2,"error":"success"}"#,
      ])
  }

  @Test("a client that connects to a session whose file is open learns the file with info before its first command")
  func learnsTheOpenFile() {
    // Given a client that saw no ready
    let harness = MPVHarness()
    // When it asks for the width
    harness.send(#"{"command": ["get_property", "width"]}"#)
    #expect(harness.interactor.calls == [.submit(.queue(.list)), .submit(.info), .submit(.status)])
    harness.presenter.present(.info(harness.info), origin: harness.interactor.origin(2))
    harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(3))
    // Then it answers from the file info told
    #expect(harness.view.lines == [#"{"data":320,"request_id":0,"error":"success"}"#])
  }

  /// A client that observed seeking and time-pos with nothing loaded, as a file starts opening (paused).
  private static func observingSeekingAndTimePosAsAFileOpens() -> MPVHarness {
    let harness = MPVHarness()
    harness.send(#"{"command": ["observe_property", 1, "seeking"]}"#)
    harness.presenter.present(.status(harness.status(.idle)), origin: harness.lastOrigin)
    harness.send(#"{"command": ["observe_property", 2, "time-pos"]}"#)
    harness.presenter.present(.status(harness.status(.idle)), origin: harness.lastOrigin)
    harness.presenter.present(.loading(path: "/media/clip.mp4", paused: true), origin: nil)
    harness.view.lines.removeAll()
    return harness
  }

  @Test("a file that opens at a start position (--start): file-loaded, seek, seeking true, playback-restart, as mpv's")
  func openedAtAStartPosition() {
    // Given a client observing seeking and time-pos, and a file opening
    let harness = Self.observingSeekingAndTimePosAsAFileOpens()
    // When the file opens at its start position, 3 s
    harness.presenter.present(
      .ready(harness.info, position: .zero, start: MediaTime(seconds: 3)), origin: nil)
    // Then mpv's order: file-loaded, seek, seeking true and the position, playback-restart, seeking false
    #expect(
      harness.view.lines == [
        #"{"event":"file-loaded"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":true}"#,
        #"{"event":"property-change","id":2,"name":"time-pos","data":3.0}"#,
        #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }

  @Test("a file that opens at its first frame: file-loaded, seeking true, playback-restart, no seek, as mpv's")
  func openedAtItsFirstFrame() {
    // Given a client observing seeking and time-pos, and a file opening
    let harness = Self.observingSeekingAndTimePosAsAFileOpens()
    // When the file opens at its first frame
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    // Then no seek, but seeking true around the first playback-restart, as mpv's
    #expect(
      harness.view.lines == [
        #"{"event":"file-loaded"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":true}"#,
        #"{"event":"property-change","id":2,"name":"time-pos","data":0.0}"#,
        #"{"event":"playback-restart"}"#,
        #"{"event":"property-change","id":1,"name":"seeking","data":false}"#,
      ])
  }
}

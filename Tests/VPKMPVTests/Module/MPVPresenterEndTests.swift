import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv dialect presenter: a file's end")
@MainActor
struct MPVPresenterEndTests {
  /// A loaded file, playing with `names` observed, that reached its end at 4 s with `action` to follow.
  private static func playedToItsEnd(observing names: [String], then action: EndAction) -> MPVHarness {
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(names, state: .playing)
    harness.presenter.present(
      .ended(EndReached(position: MediaTime(seconds: 4), duration: MediaTime(seconds: 4), loops: 1, action: action)),
      origin: nil)
    return harness
  }

  @Test("a file closed by no command (--at-end idle) ends with eof, then idle, as mpv --idle")
  func closedAtTheEnd() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When it ends and the session closes it by itself
    harness.presenter.present(
      .ended(EndReached(position: MediaTime(seconds: 4), duration: MediaTime(seconds: 4), loops: 1)), origin: nil)
    harness.presenter.present(.closed(nextPaused: false), origin: nil)
    // Then the client hears end-file (eof) then idle
    #expect(
      harness.view.lines == [#"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#, #"{"event":"idle"}"#])
  }

  @Test("a file that ends and is closed (--at-end idle): pause does not flip and eof-reached goes unavailable")
  func noPauseFlipWhenClosedAtTheEnd() {
    // Given a playing file with observers of pause and eof-reached, ended with the session going idle next
    let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached"], then: .idle)
    // When it is closed
    harness.presenter.present(.closed(nextPaused: false), origin: nil)
    // Then, as mpv --idle, neither pause nor eof-reached turns true: eof-reached becomes unavailable, before end-file
    #expect(
      harness.view.lines == [
        #"{"event":"property-change","id":2,"name":"eof-reached"}"#,
        #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#, #"{"event":"idle"}"#,
      ])
  }

  @Test("a file that played to its end into idle: the position's properties go before end-file, the file's after idle")
  func endIntoIdleOrder() {
    // Given a playing file with observers of what changes at its end, ended with the session going idle next
    let harness = Self.playedToItsEnd(
      observing: [
        "eof-reached", "time-pos", "percent-pos", "duration", "path", "filename", "pause", "idle-active", "core-idle",
      ], then: .idle)
    harness.view.lines.removeAll()
    // When it is closed
    harness.presenter.present(.closed(nextPaused: false), origin: nil)
    // Then, as mpv's: eof-reached, time-pos, percent-pos unavailable and core-idle true; end-file and idle; then
    // duration, path, filename unavailable and idle-active true (pause keeps its value)
    #expect(
      harness.view.lines == [
        #"{"event":"property-change","id":1,"name":"eof-reached"}"#,
        #"{"event":"property-change","id":2,"name":"time-pos"}"#,
        #"{"event":"property-change","id":3,"name":"percent-pos"}"#,
        #"{"event":"property-change","id":9,"name":"core-idle","data":true}"#,
        #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#, #"{"event":"idle"}"#,
        #"{"event":"property-change","id":4,"name":"duration"}"#,
        #"{"event":"property-change","id":5,"name":"path"}"#,
        #"{"event":"property-change","id":6,"name":"filename"}"#,
        #"{"event":"property-change","id":8,"name":"idle-active","data":true}"#,
      ])
  }

  @Test("a file that played to its end as the session ends (no --idle): the position's properties go, then end-file")
  func endOfTheSessionOrder() {
    // Given a playing file with observers, ended with the session leaving next (mpv without --idle or --keep-open)
    let harness = Self.playedToItsEnd(observing: ["eof-reached", "time-pos", "path"], then: .exit)
    harness.view.lines.removeAll()
    // When the session ends
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .ended, status: harness.status(.ended), openInterrupted: false)), origin: nil)
    // Then, as mpv's: eof-reached and time-pos unavailable, then end-file (eof); nothing more
    #expect(
      harness.view.lines == [
        #"{"event":"property-change","id":1,"name":"eof-reached"}"#,
        #"{"event":"property-change","id":2,"name":"time-pos"}"#,
        #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#,
      ])
  }

  @Test(
    "a file kept at its end (--at-end pause, mpv's --keep-open): eof-reached and the others turn true in observer order, pause after them"
  )
  func keptAtTheEnd() {
    // Given a playing file with pause observed first, when it ends and the session stays at the end
    let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached", "core-idle"], then: .pause)
    // Then the end's values are told in observer order, and pause after them, as mpv 0.35.1 tells them
    #expect(
      harness.view.lines == [
        #"{"event":"property-change","id":2,"name":"eof-reached","data":true}"#,
        #"{"event":"property-change","id":3,"name":"core-idle","data":true}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
      ])
  }

  @Test("a frame-step from a file kept at its end changes nothing, as mpv's does; a step back leaves the end")
  func frameStepAtTheEnd() {
    // Given a file kept at its end, pause and eof-reached observed
    let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached"], then: .pause)
    harness.view.lines.removeAll()
    // When a frame-step finds no frame after the end
    harness.send(#"{"command": ["frame-step"], "request_id": 1}"#)
    let end = MediaTime(seconds: 4)
    harness.presenter.present(
      .stepped(StepResult(id: harness.interactor.lastID, requested: 1, moved: 0, position: end), duration: end),
      origin: harness.lastOrigin)
    // Then it is answered, and nothing else is told
    #expect(harness.view.lines == [#"{"data":null,"request_id":1,"error":"success"}"#])
    // When a frame-back-step goes to the frame before
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["frame-back-step"], "request_id": 2}"#)
    harness.presenter.present(
      .stepped(
        StepResult(id: harness.interactor.lastID, requested: -1, moved: -1, position: MediaTime(seconds: 3.96)),
        duration: end), origin: harness.lastOrigin)
    // Then eof-reached turns false
    #expect(harness.view.lines.contains(#"{"event":"property-change","id":2,"name":"eof-reached","data":false}"#))
  }

  @Test("a seek back from a file kept at its end: eof-reached false with seeking true and the target, as it starts")
  func seekBackFromTheEndTellsEOFReachedFalseAsItStarts() {
    // Given a file kept at its end (--at-end pause), eof-reached, seeking and time-pos observed
    let harness = Self.playedToItsEnd(observing: ["eof-reached", "seeking", "time-pos"], then: .pause)
    harness.view.lines.removeAll()
    // When the client seeks back and the seek starts
    harness.send(#"{"command": ["seek", 1, "absolute"], "request_id": 9}"#)
    harness.lastSeekStarts(at: 1)
    // Then, as mpv tells it, eof-reached turns false as the seek starts, before playback-restart
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":9,"error":"success"}"#, #"{"event":"seek"}"#,
        #"{"event":"property-change","id":1,"name":"eof-reached","data":false}"#,
        #"{"event":"property-change","id":2,"name":"seeking","data":true}"#,
        #"{"event":"property-change","id":3,"name":"time-pos","data":1.0}"#,
      ])
  }

  @Test("any seek from a file kept at its end, forward too: eof-reached false as it starts, as mpv")
  func seekForwardFromTheEndTellsEOFReachedFalseAsItStarts() {
    // Given a file kept at its end, eof-reached observed
    let harness = Self.playedToItsEnd(observing: ["eof-reached"], then: .pause)
    harness.view.lines.removeAll()
    // When the client seeks to the end again and the seek starts
    harness.send(#"{"command": ["seek", 100, "absolute-percent"], "request_id": 9}"#)
    harness.lastSeekStarts(at: 4)
    // Then eof-reached turns false then, as mpv tells it
    #expect(harness.view.lines.last == #"{"event":"property-change","id":1,"name":"eof-reached","data":false}"#)
  }

  @Test("unpausing a file kept at its end (set_property, set, cycle, text) stays there and changes nothing, as mpv")
  func unpauseAtTheEndStaysThere() {
    for line in [
      #"{"command": ["set_property", "pause", false], "request_id": 5}"#,
      #"{"command": ["set", "pause", "no"], "request_id": 5}"#, #"{"command": ["cycle", "pause"], "request_id": 5}"#,
      "set pause no", "cycle pause",
    ] {
      // Given a file kept at its end (--at-end pause), pause and eof-reached observed (both true)
      let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached"], then: .pause)
      harness.view.lines.removeAll()
      let callsBefore = harness.interactor.calls.count
      // When the client unpauses
      harness.send(line)
      if line.contains("cycle") {
        harness.presenter.present(.status(harness.status(.ended, position: 4)), origin: harness.lastOrigin)
      }
      // Then the session is asked for nothing but the value a cycle reads: it stays at the end
      let submitted = Array(harness.interactor.calls.dropFirst(callsBefore))
      #expect(submitted == (line.contains("cycle") ? [.submit(.status)] : []), "\(line)")
      // And the reply (a JSON line's) is all the client hears: pause and eof-reached stay true
      let reply =
        line.contains("set_property")
        ? #"{"request_id":5,"error":"success"}"# : #"{"data":null,"request_id":5,"error":"success"}"#
      #expect(harness.view.lines == (line.hasPrefix("{") ? [reply] : []), "\(line)")
    }
  }

  @Test("an unpause sent behind a seek away from the end waits for where the seek leaves the file, then plays")
  func unpauseBehindASeekFromTheEndPlays() {
    // Given a file kept at its end (--at-end pause)
    let harness = Self.playedToItsEnd(observing: ["pause"], then: .pause)
    // When the client seeks to the start and unpauses in one write
    harness.send(#"{"command": ["seek", 0, "absolute"], "request_id": 6}"#)
    harness.send(#"{"command": ["set_property", "pause", false], "request_id": 7}"#)
    // Then the unpause asks where the session stands once the seek has run
    #expect(harness.interactor.calls.last == .submit(.status))
    // And, the seek having left the file paused at its start, it plays
    harness.presenter.present(.status(harness.status(.paused, position: 0)), origin: harness.lastOrigin)
    #expect(harness.interactor.calls.last == .submit(.play))
  }

  @Test("a looping file's end (--at-end loop, mpv's --loop-file) changes neither pause nor eof-reached")
  func loopingEnd() {
    // Given a playing file with observers of pause and eof-reached, when it ends and plays on from the start
    let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached"], then: .loop)
    // Then nothing is told
    #expect(harness.view.lines.isEmpty)
  }

  @Test("a file closed by a command (stop, close) ends with stop")
  func closedByACommand() {
    // Given a loaded file
    let harness = MPVHarness()
    harness.loaded()
    // When another view's close closes it
    harness.presenter.present(.closed(nextPaused: true), origin: CommandOrigin(id: 7, sender: nil))
    // Then the reason is stop
    #expect(harness.view.lines.first == #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#)
  }
}

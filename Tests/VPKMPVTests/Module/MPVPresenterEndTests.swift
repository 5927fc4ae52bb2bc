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

  @Test("a file kept at its end (--at-end pause, mpv's --keep-open): pause and eof-reached turn true")
  func keptAtTheEnd() {
    // Given a playing file with observers of pause and eof-reached, when it ends and the session stays at the end
    let harness = Self.playedToItsEnd(observing: ["pause", "eof-reached"], then: .pause)
    // Then both observers hear true
    #expect(
      harness.view.lines == [
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
        #"{"event":"property-change","id":2,"name":"eof-reached","data":true}"#,
      ])
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
      // When the client unpauses
      harness.send(line)
      if line.contains("cycle") {
        harness.presenter.present(.status(harness.status(.ended, position: 4)), origin: harness.lastOrigin)
      }
      // Then it asks the session for mpv's unpause, which stays at the end
      #expect(harness.interactor.calls.last == .submit(.unpause), "\(line)")
      harness.presenter.present(
        .state(.ended, position: MediaTime(seconds: 4), duration: MediaTime(seconds: 4)), origin: harness.lastOrigin)
      // And the reply (a JSON line's) is all the client hears: pause and eof-reached stay true
      let reply =
        line.contains("set_property")
        ? #"{"request_id":5,"error":"success"}"# : #"{"data":null,"request_id":5,"error":"success"}"#
      #expect(harness.view.lines == (line.hasPrefix("{") ? [reply] : []), "\(line)")
    }
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

extension MPVHarness {
  /// Observes `names` (ids from 1), told their values in `state`; the lines so far are cleared.
  func observe(_ names: [String], state: PlaybackState) {
    for (index, name) in names.enumerated() {
      send(#"{"command": ["observe_property", \#(index + 1), "\#(name)"]}"#)
      presenter.present(.status(status(state)), origin: lastOrigin)
    }
    view.lines.removeAll()
  }
}

import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv dialect presenter: pause and speed with no file, as mpv's options")
@MainActor
struct MPVPresenterIdleOptionsTests {
  /// What `status` says with no file loaded.
  func idleStatus(rate: Double = 1, opensPaused: Bool) -> PlaybackStatus {
    var status = PlaybackStatus(
      state: .idle, position: .zero, duration: nil, rate: rate, framesDecoded: 0, decodeErrors: 0)
    status.opensPaused = opensPaused
    return status
  }

  @Test("set_property pause and speed with no file are submitted, answered with success and read back")
  func setWithNoFile() {
    // Given a client of an idle session
    let harness = MPVHarness()
    // When it sets pause and speed
    harness.send(#"{"command": ["set_property", "pause", true], "request_id": 3}"#)
    #expect(harness.interactor.calls.last == .submit(.pause))
    harness.presenter.present(.next(paused: true), origin: harness.lastOrigin)
    harness.send(#"{"command": ["set_property", "speed", 2], "request_id": 4}"#)
    #expect(harness.interactor.calls.last == .submit(.rate(2)))
    harness.presenter.present(.rate(2), origin: harness.lastOrigin)
    // And reads pause back
    harness.send(#"{"command": ["get_property_string", "pause"], "request_id": 6}"#)
    harness.presenter.present(.status(idleStatus(rate: 2, opensPaused: true)), origin: harness.lastOrigin)
    // Then both sets succeed and pause reads yes
    #expect(
      harness.view.lines == [
        #"{"request_id":3,"error":"success"}"#, #"{"request_id":4,"error":"success"}"#,
        #"{"data":"yes","request_id":6,"error":"success"}"#,
      ])
  }

  @Test("an observer of pause hears the value set with no file, and the next file opens with it without a flip")
  func observerOfPauseWithNoFile() {
    // Given a client of an idle session that plays what it loads, observing pause
    let harness = MPVHarness(startsPlaying: true)
    harness.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
    harness.presenter.present(.status(idleStatus(opensPaused: false)), origin: harness.lastOrigin)
    // When another view pauses the session with nothing loaded, then a file opens
    harness.presenter.present(.next(paused: true), origin: CommandOrigin(id: 40, sender: nil))
    harness.presenter.present(.loading(path: "/media/clip.mp4", paused: true), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    // Then the observer hears false, then true once: the file opens paused
    let changes = harness.view.lines.filter { $0.contains("property-change") }
    #expect(
      changes == [
        #"{"event":"property-change","id":1,"name":"pause","data":false}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
      ])
  }

  @Test(
    "a file opened beside a loaded one (another view's open) starts as the session says, not as the loaded one was",
    arguments: [true, false])
  func openBesideALoadedFile(opensPaused: Bool) {
    // Given a loaded file in the other state (playing when the new one opens paused), pause observed
    let harness = MPVHarness()
    harness.loaded()
    let before: PlaybackState = opensPaused ? .playing : .paused
    harness.presenter.present(.state(before, position: .zero, duration: nil), origin: nil)
    harness.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status(before)), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    // When another view opens a file beside it, which the session opens paused or playing
    harness.presenter.present(.loading(path: "/media/b.mp4", paused: opensPaused), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: CommandOrigin(id: 9, sender: nil))
    if !opensPaused {
      harness.presenter.present(.state(.playing, position: .zero, duration: nil), origin: nil)
    }
    // Then the observer hears the new value once, as the file starts, and nothing after
    #expect(
      harness.view.lines == [
        #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":\#(opensPaused)}"#, #"{"event":"file-loaded"}"#,
        #"{"event":"playback-restart"}"#,
      ])
  }

  @Test("a file closed (stop, or its end into idle) leaves pause as the session says the next file opens")
  func closedSaysHowTheNextFileOpens() {
    for nextPaused in [true, false] {
      // Given a paused file, pause observed
      let harness = MPVHarness()
      harness.loaded()
      harness.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
      harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
      harness.view.lines.removeAll()
      // When it is closed, the session saying how the next file opens
      harness.presenter.present(.closed(nextPaused: nextPaused), origin: nil)
      // Then pause is told only when that differs from the file's
      let told = harness.view.lines.filter { $0.contains(#""name":"pause""#) }
      #expect(told == (nextPaused ? [] : [#"{"event":"property-change","id":1,"name":"pause","data":false}"#]))
    }
  }

  @Test("pause keeps its value through stop: its observer hears no change, and it reads true after")
  func pauseThroughStop() {
    // Given a paused file, pause observed
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status(.paused)), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    // When the client stops it
    harness.send(#"{"command": ["stop"], "request_id": 2}"#)
    #expect(harness.interactor.calls.last == .submit(.close))
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    // Then pause is not told again, and reads true
    #expect(!harness.view.lines.contains { $0.contains(#""name":"pause""#) })
    harness.send(#"{"command": ["get_property", "pause"], "request_id": 3}"#)
    harness.presenter.present(.status(idleStatus(opensPaused: true)), origin: harness.lastOrigin)
    #expect(harness.view.lines.last == #"{"data":true,"request_id":3,"error":"success"}"#)
  }

  @Test("a file playing when stopped leaves pause false")
  func playingThroughStop() {
    // Given a playing file, pause observed
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.present(.state(.playing, position: .zero, duration: nil), origin: nil)
    harness.send(#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status(.playing)), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    // When another view closes it
    harness.presenter.present(.closed(nextPaused: false), origin: CommandOrigin(id: 9, sender: nil))
    // Then pause is not told again: it stays false
    #expect(!harness.view.lines.contains { $0.contains(#""name":"pause""#) })
  }

  @Test("a client that connects to an idle session reads the pause the session keeps, from the status")
  func pauseFromTheStatus() {
    // Given a client of a session that starts files paused
    let harness = MPVHarness()
    // When it reads pause while the session is set to open the next file playing
    harness.send(#"{"command": ["get_property", "pause"], "request_id": 1}"#)
    harness.presenter.present(.status(idleStatus(opensPaused: false)), origin: harness.lastOrigin)
    // Then it reads false
    #expect(harness.view.lines == [#"{"data":false,"request_id":1,"error":"success"}"#])
  }
}

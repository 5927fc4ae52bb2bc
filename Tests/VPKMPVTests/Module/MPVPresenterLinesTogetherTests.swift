import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv dialect presenter: lines sent together")
@MainActor
struct MPVPresenterLinesTogetherTests {
  @Test("an event disabled by a line sent together with the one that causes it is not sent, as mpv's mask works")
  func eventDisabledByALineSentWithIt() {
    // Given a loaded file, and a stop sent together with lines disabling end-file and idle
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.linesTogetherStarted()
    harness.send(#"{"command": ["stop"], "request_id": 1}"#)
    let stop = harness.lastOrigin
    // When the stop closes the file while the lines are still being read
    harness.presenter.present(.closed(nextPaused: true), origin: stop)
    harness.send(#"{"command": ["disable_event", "end-file"], "request_id": 2}"#)
    harness.send(#"{"command": ["disable_event", "idle"], "request_id": 3}"#)
    harness.presenter.linesTogetherEnded()
    // Then the replies go out, and neither event (checked against mpv 0.35.1)
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":1,"error":"success"}"#, #"{"request_id":2,"error":"success"}"#,
        #"{"request_id":3,"error":"success"}"#,
      ])
  }

  @Test("observe lines sent together: every reply first, then the first values, as mpv's")
  func observesSentTogether() {
    // Given a loaded file, and observe lines (a read among them) sent together in one write
    let harness = MPVHarness()
    harness.loaded()
    harness.presenter.linesTogetherStarted()
    var ids: [Int] = []
    for line in [
      #"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#,
      #"{"command": ["observe_property", 2, "speed"], "request_id": 2}"#,
      #"{"command": ["get_property", "pause"], "request_id": 3}"#,
      #"{"command": ["observe_property", 3, "no-such-property"], "request_id": 4}"#,
    ] {
      harness.send(line)
      ids.append(harness.interactor.lastID)
    }
    // When their statuses come while the lines are still coming, and then the lines have all come
    for id in Set(ids).sorted() {
      harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(id))
    }
    let beforeTheEnd = harness.view.lines
    harness.presenter.linesTogetherEnded()
    // Then the replies go out as they are made, and the first values only once all are out, in the order observed
    let replies = [
      #"{"request_id":1,"error":"success"}"#, #"{"request_id":2,"error":"success"}"#,
      #"{"data":true,"request_id":3,"error":"success"}"#, #"{"request_id":4,"error":"success"}"#,
    ]
    #expect(beforeTheEnd == replies)
    #expect(
      harness.view.lines == replies + [
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
        #"{"event":"property-change","id":2,"name":"speed","data":1.0}"#,
        #"{"event":"property-change","id":3,"name":"no-such-property"}"#,
      ])
  }

  @Test("lines sent together whose replies come after the last line: the first values wait for the last reply")
  func repliesAfterTheLinesEnd() {
    // Given two observe lines sent together, all of them come before any status
    let harness = MPVHarness()
    harness.loaded()
    let ids = harness.sendTogether([
      #"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#,
      #"{"command": ["observe_property", 2, "speed"], "request_id": 2}"#,
    ])
    let (first, second) = (ids[0], ids[1])
    // When the first one's status comes
    harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(first))
    // Then only its reply is out
    #expect(harness.view.lines == [#"{"request_id":1,"error":"success"}"#])
    // When the second one's comes
    harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(second))
    // Then its reply, then both first values
    #expect(
      harness.view.lines == [
        #"{"request_id":1,"error":"success"}"#, #"{"request_id":2,"error":"success"}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
        #"{"event":"property-change","id":2,"name":"speed","data":1.0}"#,
      ])
  }

  @Test("another view's seek while a read waits for its answer is shown at once, before the reply")
  func othersEventsWhileAnswering() {
    // Given a read sent alone, waiting for its status
    let harness = MPVHarness()
    harness.loaded()
    let read = harness.sendTogether([#"{"command": ["get_property", "time-pos"], "request_id": 1}"#])[0]
    // When another view's seek starts, and then the status comes
    harness.presenter.present(.seekStarted(.time(MediaTime(seconds: 2))), origin: CommandOrigin(id: 40, sender: nil))
    harness.presenter.present(.status(harness.status()), origin: harness.interactor.origin(read))
    // Then the seek is shown as it starts, and the reply when it is made
    #expect(
      harness.view.lines == [#"{"event":"seek"}"#, #"{"data":2.0,"request_id":1,"error":"success"}"#])
  }

  @Test("an observe line sent alone: its first value right after its reply")
  func observeSentAlone() {
    // Given a loaded file and one observe line sent alone
    let harness = MPVHarness()
    harness.loaded()
    harness.sendTogether([#"{"command": ["observe_property", 1, "pause"], "request_id": 1}"#])
    // When its status comes, and then the session's playing changes the property
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.presenter.present(
      .state(.playing, position: MediaTime(seconds: 2), duration: nil), origin: CommandOrigin(id: 40, sender: nil))
    // Then its reply, its first value, then the change
    #expect(
      harness.view.lines == [
        #"{"request_id":1,"error":"success"}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":true}"#,
        #"{"event":"property-change","id":1,"name":"pause","data":false}"#,
      ])
  }
}

extension MPVHarness {
  /// Sends `lines` as one read of the client's connection (between the socket's start and end of a read); returns
  /// the interactor's last command id after each line.
  @discardableResult
  fileprivate func sendTogether(_ lines: [String]) -> [Int] {
    presenter.linesTogetherStarted()
    defer { presenter.linesTogetherEnded() }
    return lines.map { line in
      send(line)
      return interactor.lastID
    }
  }
}

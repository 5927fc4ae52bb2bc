import Foundation
import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// A status board the test publishes into, standing for the interactor's.
private final class Board: @unchecked Sendable {
  let board = PlaybackStatusBoard()
  /// The position the board's snapshot reads (its own object, so the snapshot holds it and not the board).
  private final class Position: @unchecked Sendable {
    let lock = NSLock()
    var value = MediaTime.zero
  }
  private let position = Position()

  func answering(at seconds: Double, state: PlaybackState = .paused, atOnce: Bool = true) {
    let position = position
    position.lock.withLock { position.value = MediaTime(seconds: seconds) }
    board.publish(
      PlaybackStatusBoard.Published(
        answersAtOnce: atOnce, state: state, duration: MediaTime(seconds: 4), rate: 1,
        snapshot: {
          PlaybackSnapshot(position: position.lock.withLock { position.value }, framesDecoded: 0, decodeErrors: 0)
        }))
  }
}

/// The mpv presenter's property reads answered off the main actor.
@Suite("mpv quick reads")
@MainActor
struct MPVQuickReadsTests {
  /// A client of a loaded file that has sent its first command (and so learnt the file), with nothing under way.
  private func settledClient(at seconds: Double, atOnce: Bool = true) -> MPVHarness {
    let board = Board()
    board.answering(at: seconds, atOnce: atOnce)
    let harness = MPVHarness(statusBoard: board.board)
    harness.loaded()
    harness.send(#"{"command": ["client_name"], "request_id": 1}"#)
    harness.presenter.present(.info(harness.info), origin: harness.lastOrigin)
    harness.view.lines.removeAll()
    return harness
  }

  @Test("a position read is answered from the board's status, as the presenter answers it")
  func positionReadAnsweredAsThePresenterWould() {
    // Given a settled client and a board at 2.56 s
    let harness = settledClient(at: 2.56)
    let request = #"{"command": ["get_property", "time-pos"], "request_id": 5}"#
    // When the read is answered quickly
    let quick = harness.presenter.quickReads.answer(request)
    // Then it is the line the presenter gives for the same status
    harness.send(request)
    harness.presenter.present(.status(harness.status(position: 2.56)), origin: harness.lastOrigin)
    #expect(quick == #"{"data":2.56,"request_id":5,"error":"success"}"# + "\n")
    #expect(harness.view.lines == [#"{"data":2.56,"request_id":5,"error":"success"}"#])
  }

  @Test("every property, in both forms, is answered on the loop as the presenter answers it from a status")
  func everyReadAgreesWithThePresenter() {
    for property in MPVProperty.allCases {
      for name in ["get_property", "get_property_string"] {
        // Given a settled client and a board at 2.5 s
        let harness = settledClient(at: 2.5)
        let request = #"{"command": ["\#(name)", "\#(property.rawValue)"], "request_id": 9}"#
        // When it is answered on the loop, and then by the presenter from the same status
        let quick = harness.presenter.quickReads.answer(request)
        harness.send(request)
        if case .submit(.status) = harness.interactor.calls.last {
          harness.presenter.present(.status(harness.status(position: 2.5)), origin: harness.lastOrigin)
        }
        // Then both replies are the same line
        #expect(quick == harness.view.lines.last.map { $0 + "\n" }, "\(name) \(property.rawValue)")
      }
    }
  }

  @Test("the file's properties, the string form and the lists are answered too")
  func otherReads() {
    let harness = settledClient(at: 1)
    let quick = harness.presenter.quickReads
    #expect(
      quick.answer(#"{"command": ["get_property", "width"], "request_id": 2}"#)?.hasPrefix(#"{"data":320,"#) == true)
    #expect(
      quick.answer(#"{"command": ["get_property_string", "pause"], "request_id": 3}"#)
        == #"{"data":"yes","request_id":3,"error":"success"}"# + "\n")
    #expect(quick.answer(#"{"command": ["get_property", "property-list"]}"#)?.contains("time-pos") == true)
  }

  @Test("while a command of the client's owes its reply, reads go to the presenter")
  func notWhileACommandIsUnderWay() {
    let harness = settledClient(at: 1)
    // When a seek is sent and has not landed
    harness.send(#"{"command": ["seek", 3, "absolute+exact"], "request_id": 4}"#)
    // Then a read is not answered quickly (its reply would overtake the seek's)
    #expect(harness.presenter.quickReads.answer(#"{"command": ["get_property", "time-pos"], "request_id": 5}"#) == nil)
  }

  @Test("a seek with a file loaded is answered on the loop as the presenter answers it, and still carried out")
  func seekAnsweredOnTheLoopThenCarriedOut() {
    // Given a settled client of a loaded file, and a second one that the presenter answers
    let harness = settledClient(at: 1)
    let other = settledClient(at: 1)
    let request = #"{"command": ["seek", 2, "absolute"], "request_id": 6}"#
    other.send(request)
    // When the seek is answered on the loop
    let quick = harness.presenter.quickReads.quickAnswer(request)
    // Then its lines are the presenter's own, the reply and then the `seek` event, and the line goes on
    #expect(other.view.lines.count == 2)
    #expect(
      quick
        == QuickAnswer(
          other.view.lines[0] + "\n", event: other.view.lines.last.map { $0 + "\n" }, passesLineOn: true))
    // When the presenter is given the line, Then it scrubs without answering again
    harness.send(request)
    #expect(harness.interactor.calls.last == .submit(.scrub(.seconds(2), .exact)))
    #expect(harness.view.lines.isEmpty)
    // And a read behind it waits for the seek to land
    #expect(harness.presenter.quickReads.answer(#"{"command": ["get_property", "time-pos"], "request_id": 7}"#) == nil)
    // When it lands, Then playback-restart, and nothing else
    harness.lastSeekLands(at: 2)
    #expect(harness.view.lines == [#"{"event":"playback-restart"}"#])
  }

  @Test("a seek answered on the loop is its own line's only: a line that runs nothing leaves the next seek answered")
  func answeredSeekNeverPassesToTheNextLine() {
    // Given a settled client whose seek was answered on the loop
    let harness = settledClient(at: 1)
    #expect(harness.presenter.quickReads.quickAnswer(#"{"command": ["seek", 2, "absolute"], "request_id": 6}"#) != nil)
    // When the line the presenter is then given runs nothing (a blank one, standing for any line read otherwise)
    harness.send("   ")
    // And the client's next seek comes the long way
    harness.send(#"{"command": ["seek", 3, "absolute"], "request_id": 7}"#)
    // Then that seek is answered, not taken for the one answered on the loop
    #expect(harness.view.lines.first == #"{"data":null,"request_id":7,"error":"success"}"#)
  }

  @Test("a seek that lands opens the quick path only once all its lines are shown")
  func quickPathOpensAfterTheLandingsLines() {
    // Given a settled client observing time-pos, whose seek the presenter carries out
    let harness = settledClient(at: 1)
    harness.send(#"{"command": ["observe_property", 1, "time-pos"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status(position: 1)), origin: harness.lastOrigin)
    harness.send(#"{"command": ["seek", 3, "absolute"], "request_id": 3}"#)
    // When it lands, a seek read on the loop as each line is shown is not answered
    let next = #"{"command": ["seek", 1, "absolute"], "request_id": 4}"#
    var answeredDuring: [String] = []
    harness.view.lines.removeAll()
    harness.view.onDisplay = { line in
      if harness.presenter.quickReads.answerSeek(next) != nil { answeredDuring.append(line) }
    }
    harness.lastSeekLands(at: 3)
    // Then the landing shows playback-restart and the position's change, and only after both may the loop answer
    #expect(harness.view.lines.contains(#"{"event":"playback-restart"}"#))
    #expect(harness.view.lines.last?.contains(#""name":"time-pos","data":3.0"#) == true)
    #expect(answeredDuring.isEmpty)
    #expect(harness.presenter.quickReads.answerSeek(next) != nil)
  }

  @Test("a seek is not answered on the loop without a file, with a seek under way, or without a reply")
  func seekGoesToThePresenterOtherwise() {
    // Given a client with no file: mpv refuses the seek, and the presenter says so
    let board = Board()
    board.answering(at: 0)
    let idle = MPVHarness(statusBoard: board.board)
    idle.send(#"{"command": ["client_name"], "request_id": 1}"#)
    #expect(idle.presenter.quickReads.quickAnswer(#"{"command": ["seek", 2], "request_id": 2}"#) == nil)
    // Given a settled client with a seek under way
    let busy = settledClient(at: 1)
    busy.send(#"{"command": ["seek", 3, "absolute"], "request_id": 4}"#)
    #expect(busy.presenter.quickReads.quickAnswer(#"{"command": ["seek", 2], "request_id": 5}"#) == nil)
    // Given a settled client: the text form wants no reply, a bad seek is the presenter's to refuse
    let settled = settledClient(at: 1)
    #expect(settled.presenter.quickReads.quickAnswer("seek 2 absolute") == nil)
    #expect(settled.presenter.quickReads.quickAnswer(#"{"command": ["seek", "x"], "request_id": 5}"#) == nil)
    // And one seek answered on the loop is not followed by another before the presenter has carried it out
    #expect(settled.presenter.quickReads.quickAnswer(#"{"command": ["seek", 1], "request_id": 6}"#) != nil)
    #expect(settled.presenter.quickReads.quickAnswer(#"{"command": ["seek", 1], "request_id": 7}"#) == nil)
  }

  @Test("when the interactor would not answer a status at once, reads go to the presenter")
  func notWhenTheBoardHasNoAnswer() {
    let harness = settledClient(at: 1, atOnce: false)
    #expect(harness.presenter.quickReads.answer(#"{"command": ["get_property", "time-pos"], "request_id": 5}"#) == nil)
  }

  @Test("a client that has not yet learnt the session's file is not answered quickly")
  func notBeforeTheFirstCommand() {
    let board = Board()
    board.answering(at: 1)
    let harness = MPVHarness(statusBoard: board.board)
    harness.loaded()
    #expect(harness.presenter.quickReads.answer(#"{"command": ["get_property", "time-pos"], "request_id": 5}"#) == nil)
  }

  @Test("lines that do more than read, and reads that want no reply, go to the presenter")
  func onlyReadsWithAReply() {
    let harness = settledClient(at: 1)
    let quick = harness.presenter.quickReads
    #expect(quick.answer(#"{"command": ["set_property", "pause", false], "request_id": 6}"#) == nil)
    #expect(quick.answer(#"{"command": ["observe_property", 1, "time-pos"], "request_id": 7}"#) == nil)
    #expect(quick.answer("get_property time-pos") == nil)
    #expect(quick.answer("{not json") == nil)
  }

  @Test("with no status board, nothing is answered quickly")
  func noBoard() {
    let harness = MPVHarness()
    harness.loaded()
    harness.send(#"{"command": ["client_name"], "request_id": 1}"#)
    #expect(harness.presenter.quickReads.answer(#"{"command": ["get_property", "width"], "request_id": 2}"#) == nil)
  }
}

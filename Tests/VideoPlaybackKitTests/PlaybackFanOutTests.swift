// The fan-out alone (spies on both sides): replies go to the view that sent the command, shared changes and events
// no command caused go to every view, and a view that left gets nothing. Then a session of the real interactor and
// presenters over a fake manager: two clients that both use id 1 are never confused.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite("Fan-out: routing by origin")
struct PlaybackFanOutTests {
  /// A fan-out over an interactor spy, with the primary view and one client attached (output spies).
  @MainActor
  struct Harness {
    let interactor = InteractorSpy()
    let fanOut: PlaybackFanOut
    let primary = InteractorOutputSpy()
    let client = InteractorOutputSpy()
    let clientID: PlaybackFanOut.ViewID

    init(outlivesPrimaryView: Bool = true) {
      fanOut = PlaybackFanOut(interactor: interactor, outlivesPrimaryView: outlivesPrimaryView)
      fanOut.attach(primary, as: fanOut.primaryViewID)
      clientID = fanOut.makeViewID()
      fanOut.attach(client, as: clientID)
    }

    var primaryPort: PlaybackFanOut.Port { fanOut.port(for: fanOut.primaryViewID) }
    var clientPort: PlaybackFanOut.Port { fanOut.port(for: clientID) }

    /// Submits `command` through `view`'s port, naming that view its sender (as its presenter does).
    @discardableResult func send(_ command: Command, from view: PlaybackFanOut.ViewID) -> Int {
      fanOut.port(for: view).submit(command, source: nil, from: CommandSender(view: view, number: 1))
    }
  }

  @Test func aReplyGoesOnlyToTheViewThatSentTheCommand() {
    // Given a command from the primary view (id 1) and two from the client (ids 2 and 3)
    let harness = Harness()
    let first = harness.send(.status, from: harness.fanOut.primaryViewID)
    let second = harness.send(.help, from: harness.clientID)
    let third = harness.send(.info, from: harness.clientID)
    #expect([first, second, third] == [1, 2, 3])
    // When the interactor answers them
    harness.fanOut.present(
      .status(
        PlaybackStatus(
          state: .paused, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0, loops: 0)),
      origin: harness.interactor.origin(1))
    harness.fanOut.present(.help, origin: harness.interactor.origin(2))
    harness.fanOut.present(.error(PlaybackError(.badArgument, "bad")), origin: harness.interactor.origin(3))
    // Then each view has only its own replies
    #expect(harness.primary.lines == ["status #1 paused 0.0"])
    #expect(harness.client.lines == ["help #2", "error #3 bad_argument"])
    // And an error no command caused (no origin) reaches both
    harness.fanOut.present(.error(PlaybackError(.decodeError, "damaged")), origin: nil)
    #expect(harness.primary.lines.count == 2)
    #expect(harness.client.lines.count == 3)
  }

  @Test func sharedChangesAndEventsNoCommandCausedGoToEveryView() {
    // Given the client paused playback (id 1)
    let harness = Harness()
    harness.send(.pause, from: harness.clientID)
    // When the interactor reports the change, progress, the end and an error of the media
    harness.fanOut.present(.state(.paused, position: .zero, duration: nil), origin: harness.interactor.origin(1))
    harness.fanOut.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(id: 1, target: .zero, position: .zero, mode: .exact, milliseconds: 1), requested: nil,
          duration: nil, showsTiming: false)), origin: harness.interactor.origin(1))
    harness.fanOut.present(.rate(2), origin: harness.interactor.origin(1))
    harness.fanOut.present(
      .progress(ProgressMark(position: MediaTime(seconds: 1), duration: nil, state: .playing, rate: 1)), origin: nil)
    harness.fanOut.present(.ended(EndReached(position: MediaTime(seconds: 2), duration: nil, loops: 1)), origin: nil)
    harness.fanOut.present(.error(PlaybackError(.decodeError, "damaged")), origin: nil)
    // Then both views see all of it (each presenter decides how to name another view's command)
    let expected = [
      "state #1 paused 0.0", "seeked #1 0.0 0.0 exact untimed", "rate #1 2.0", "progress 1.0", "ended 2.0 loops 1",
      "error #0 decode_error",
    ]
    #expect(harness.primary.lines == expected)
    #expect(harness.client.lines == expected)
  }

  @Test func aViewThatLeftGetsNothingAndItsRepliesReachNoOneElse() {
    // Given the client sent a status (id 1) and a seek (id 2), then left
    let harness = Harness()
    harness.send(.status, from: harness.clientID)
    harness.send(.scrub(.seconds(5), nil), from: harness.clientID)
    harness.fanOut.detach(harness.clientID)
    // When their answers come
    harness.fanOut.present(.help, origin: harness.interactor.origin(1))
    harness.fanOut.present(.superseded(newer: nil), origin: harness.interactor.origin(2))
    harness.fanOut.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: 2, target: MediaTime(seconds: 5), position: MediaTime(seconds: 5), mode: .exact, milliseconds: 1),
          requested: nil, duration: nil, showsTiming: false)), origin: harness.interactor.origin(2))
    // Then the replies are dropped, and the shared change still reaches the primary view
    #expect(harness.client.lines.isEmpty)
    #expect(harness.primary.lines == ["seeked #2 5.0 5.0 exact untimed"])
    #expect(harness.fanOut.viewCount == 1)
  }

  @Test func withASocketTheSessionOutlivesThePrimaryViewsInputAndOutput() {
    // Given a session with clients
    let harness = Harness(outlivesPrimaryView: true)
    // When standard input ends, and a client's input ends
    harness.primaryPort.inputEnded()
    harness.clientPort.inputEnded()
    // Then the interactor is not told (the session ends on quit or a signal)
    #expect(harness.interactor.calls.isEmpty)
    // When the primary view's output goes away
    harness.primaryPort.outputClosed()
    // Then that view is detached, and the session goes on
    #expect(harness.interactor.calls.isEmpty)
    #expect(harness.fanOut.viewCount == 1)
    // And a signal still ends it
    harness.clientPort.terminate(.terminate)
    #expect(harness.interactor.calls == [.terminate(.terminate)])
  }

  @Test func withoutASocketThePrimaryViewsInputEndAndOutputCloseReachTheInteractor() {
    let harness = Harness(outlivesPrimaryView: false)
    harness.clientPort.inputEnded()
    harness.primaryPort.inputEnded()
    harness.primaryPort.outputClosed()
    #expect(harness.interactor.calls == [.inputEnded, .outputClosed])
  }

  @Test func aClientWhoseOutputClosedIsDetached() {
    let harness = Harness()
    harness.clientPort.outputClosed()
    harness.fanOut.present(
      .progress(ProgressMark(position: .zero, duration: nil, state: .playing, rate: 1)), origin: nil)
    #expect(harness.client.lines.isEmpty)
    #expect(harness.primary.lines == ["progress 0.0"])
    #expect(harness.interactor.calls.isEmpty)
  }
}

@MainActor
@Suite("Fan-out: a session with two clients")
struct PlaybackFanOutSessionTests {
  /// The real interactor and one real presenter per view, over a fake manager (ready, paused, 60 s).
  @MainActor
  struct Session {
    let manager = FakePlaybackManager()
    let router = RouterSpy()
    let interactor: PlaybackInteractor
    let fanOut: PlaybackFanOut
    let views = [ViewSpy(), ViewSpy()]
    let presenters: [PlaybackPresenter]

    init() {
      interactor = PlaybackInteractor(path: "clip.mp4", options: PlaybackOptions(autoplay: false), router: router)
      fanOut = PlaybackFanOut(interactor: interactor, outlivesPrimaryView: true)
      interactor.presenter = fanOut
      router.interactor = interactor
      router.nextManager = manager
      var presenters: [PlaybackPresenter] = []
      for (index, view) in views.enumerated() {
        let viewID = index == 0 ? fanOut.primaryViewID : fanOut.makeViewID()
        let presenter = PlaybackPresenter(interactor: fanOut.port(for: viewID), viewID: viewID, sharesSession: true)
        presenter.view = view
        fanOut.attach(presenter, as: viewID)
        presenters.append(presenter)
      }
      self.presenters = presenters
      interactor.start()
      manager.becomeReady(duration: 60)
      for view in views { view.events.removeAll() }
    }

    func send(_ client: Int, _ line: String) { presenters[client].onInputLine(.text(line)) }
    func texts(_ client: Int) -> [String] { views[client].texts }
  }

  @Test func twoClientsBothUsingID1AreNeverConfused() {
    // Given two clients that each send their first command
    let session = Session()
    session.send(0, "status")
    session.send(1, "help")
    // Then each gets its own reply under its own ordinal, 1
    #expect(session.texts(0).count == 1)
    #expect(session.texts(0)[0].hasPrefix("status #1 "))
    #expect(session.views[1].events.map(\.event) == ["help"])
    #expect(session.views[1].events[0].commandID == 1)
    // When both send a JSON command with the client id 1
    session.send(0, #"{"command":"info","id":1}"#)
    session.send(1, #"{"command":"status","id":1}"#)
    // Then each reply carries id 1 and that client's own ordinal (2) as seq, and goes to its sender only
    #expect(session.views[0].events.map(\.event) == ["status", "info"])
    #expect(session.views[1].events.map(\.event) == ["help", "status"])
    #expect(session.views[0].events[1].clientID == .integer(1))
    #expect(session.views[0].events[1].commandID == 2)
    #expect(session.views[1].events[1].clientID == .integer(1))
    #expect(session.views[1].events[1].commandID == 2)
  }

  @Test func aChangeOneClientMakesReachesTheOtherWithoutAnID() {
    let session = Session()
    // When client 1 starts playback
    session.send(1, "play")
    // Then it gets the reply with its id, and the other client sees the change with none
    #expect(session.texts(1) == ["state #1 state=playing position=0.000 duration=60.000"])
    #expect(session.texts(0) == ["state state=playing position=0.000 duration=60.000"])
  }

  @Test func aSeekReplacedByAnotherClientsSeekSaysSo() {
    let session = Session()
    // Given client 0 and client 1 each scrub, back to back
    session.send(0, "scrub 10")
    session.send(1, "scrub 20")
    #expect(session.manager.seeks.count == 2)
    // When the engine replaces the first by the second, which lands
    session.manager.supersede(session.manager.seeks[0], by: session.manager.seeks[1])
    session.manager.land(session.manager.seeks[1])
    // Then client 0 is told another client's seek replaced its own; both see where playback landed
    #expect(session.texts(0).first == "superseded #1 reason=other_client")
    #expect(session.texts(0).last?.hasPrefix("seeked target=20.000 position=20.000") == true)
    #expect(session.texts(1).count == 1)
    #expect(session.texts(1)[0].hasPrefix("seeked #1 target=20.000 position=20.000"))
  }

  @Test func aClientThatLeavesMidSeekChangesNothingForTheOthers() {
    let session = Session()
    // Given client 1 scrubs, then leaves before the seek lands
    session.send(1, "scrub 30")
    session.presenters[1].onOutputClosed()
    // When the seek lands, and client 0 asks where playback is
    session.manager.land(session.manager.seeks[0])
    session.send(0, "status")
    // Then client 0 sees the landing and its own status at 30 s; the session is still open
    #expect(session.texts(0).count == 2)
    #expect(session.texts(0)[0].hasPrefix("seeked target=30.000"))
    #expect(session.texts(0)[1].hasPrefix("status #1 state=paused position=30.000"))
    #expect(session.views[1].events.isEmpty)
    #expect(session.router.exitCodes.isEmpty)
  }

  @Test func quitFromAnyClientEndsTheSessionForAll() {
    let session = Session()
    session.send(1, "quit")
    #expect(session.texts(1).first?.hasPrefix("shutdown #1 reason=quit") == true)
    #expect(session.texts(0).first?.hasPrefix("shutdown reason=quit") == true)
    #expect(session.router.exitCodes == [0])
  }

  @Test func aCommandsOriginIsForgottenOnceItIsAnsweredSoNotesStayBounded() {
    // Given two clients on one session
    let session = Session()
    // When they send 1,000 rounds of commands of every kind that answers at once, and of bad lines
    for round in 0..<1_000 {
      let client = round % 2
      for line in ["status", "info", "frame", "help", "play", "pause", "rate 1.5", "expect state == paused", "bogus"] {
        session.send(client, line)
      }
    }
    // Then every command was answered (the last round's last, the bad line, with an error) and none is counted as running
    #expect(session.texts(1).last?.hasPrefix("error #4500 ") == true)
    #expect(session.fanOut.runningCommandCount == 0)
    // When each client scrubs, the first seek replaced by the second
    session.send(0, "scrub 10")
    session.send(1, "scrub 20")
    // Then the two seeks are counted as running, until they are answered
    #expect(session.fanOut.runningCommandCount == 2)
    session.manager.supersede(session.manager.seeks[0], by: session.manager.seeks[1])
    #expect(session.fanOut.runningCommandCount == 1)
    session.manager.land(session.manager.seeks[1])
    #expect(session.fanOut.runningCommandCount == 0)
    // When a client scrubs and leaves before its seek lands
    session.send(1, "scrub 30")
    session.presenters[1].onOutputClosed()
    session.manager.land(session.manager.seeks[2])
    // Then its reply reached no one else, and it no longer counts as running
    #expect(session.texts(0).last?.hasPrefix("seeked target=30.000") == true)
    #expect(session.fanOut.runningCommandCount == 0)
  }
}

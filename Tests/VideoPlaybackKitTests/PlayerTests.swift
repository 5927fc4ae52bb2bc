// The Player view over the real interactor and presenter and a fake manager: each call returns its own command's
// answer, failures throw their stable codes, a superseded seek throws, a cancelled call leaves the player usable,
// dropping the player shuts its manager down, and an app's own view sees the session's view models.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite("Player: the in-process view")
struct PlayerTests {
  /// A player whose managers are fakes that answer on their own (or not, `autoResponds: false`).
  @MainActor
  final class Harness {
    var managers: [FakePlaybackManager] = []
    let autoResponds: Bool
    init(autoResponds: Bool = true) { self.autoResponds = autoResponds }

    func makePlayer(options: PlaybackOptions = PlaybackBuilder.playerOptions) async -> Player {
      await PlaybackBuilder.makePlayer(options: options) {
        let manager = FakePlaybackManager(autoResponds: self.autoResponds)
        self.managers.append(manager)
        return manager
      }
    }
  }

  @Test func eachCallReturnsTheAnswerToItsOwnCommand() async throws {
    // Given a player
    let harness = Harness()
    let player = await harness.makePlayer()
    // When it opens a file, scrubs, steps and asks for the status
    let info = try await player.open("clip.mp4")
    let seek = try await player.scrub(to: MediaTime(seconds: 2.5), mode: .exact)
    let step = try await player.step(3)
    let status = try await player.status()
    // Then each answer is its command's, read back from the event
    #expect(info.path == "clip.mp4")
    #expect(info.video?.width == 320)
    #expect(info.duration == MediaTime(seconds: 10))
    #expect(seek.position == MediaTime(seconds: 2.5) && seek.mode == .exact)
    #expect(step.moved == 3 && step.requested == 3)
    #expect(status.state == .paused && status.duration == MediaTime(seconds: 10))
    #expect(harness.managers.count == 1)
  }

  @Test func aFailureThrowsTheErrorWithItsStableCode() async throws {
    // Given a player with nothing open
    let player = await Harness().makePlayer()
    // When it asks for a seek, and opens a file that is missing
    let noMedia = await #expect(throws: PlaybackError.self) { try await player.scrub(to: .zero) }
    let missing = await #expect(throws: PlaybackError.self) { try await player.open("missing.mp4") }
    // Then each throws the code the JSON protocol would carry
    #expect(noMedia?.code == .notReady)
    #expect(missing?.code == .fileNotFound)
  }

  @Test func playAndPauseWithNothingOpenSetHowTheNextFileOpens() async throws {
    // Given a player with nothing open, whose files open paused
    let harness = Harness()
    let player = await harness.makePlayer(options: PlaybackOptions(autoplay: false))
    // When it plays with nothing open, at rate 2, then opens a file
    let position = try await player.play()
    try await player.setRate(2)
    _ = try await player.open("clip.mp4")
    let status = try await player.status()
    // Then the call returns zero, and the file plays at rate 2
    #expect(position == .zero)
    #expect(status.state == .playing && status.rate == 2)
    #expect(harness.managers.first?.configuration?.startsPlaying == true)
  }

  @Test func aSeekReplacedByANewerOneThrowsSuperseded() async throws {
    // Given a player whose manager answers nothing on its own, with a file ready
    let harness = Harness(autoResponds: false)
    let player = await harness.makePlayer()
    async let opened = player.open("clip.mp4")
    await waitUntil { !harness.managers.isEmpty }
    harness.managers[0].becomeReady(duration: 10)
    _ = try await opened
    // When two seeks go out, one after the other reaches the manager, and the manager supersedes the first and lands
    // the second
    async let first = player.scrub(to: MediaTime(seconds: 1))
    await waitUntil { harness.managers[0].seeks.count == 1 }
    async let second = player.scrub(to: MediaTime(seconds: 2))
    await waitUntil { harness.managers[0].seeks.count == 2 }
    let seeks = harness.managers[0].seeks
    harness.managers[0].supersede(seeks[0], by: seeks[1])
    harness.managers[0].land(seeks[1])
    // Then the first throws superseded by a newer seek, the second lands
    var superseded: SeekSuperseded?
    do { _ = try await first } catch let error as SeekSuperseded { superseded = error }
    #expect(superseded == SeekSuperseded(reason: "newer"))
    let landed = try await second
    #expect(landed.position == MediaTime(seconds: 2))
  }

  @Test func cancellingACallAwaitingASeekLeavesThePlayerUsable() async throws {
    // Given a player whose manager does not answer seeks yet, with a file ready
    let harness = Harness(autoResponds: false)
    let player = await harness.makePlayer()
    async let opened = player.open("clip.mp4")
    await waitUntil { !harness.managers.isEmpty }
    harness.managers[0].becomeReady(duration: 10)
    _ = try await opened
    // When a task awaiting a seek is cancelled
    let waiting = Task { try await player.scrub(to: MediaTime(seconds: 4)) }
    await waitUntil { harness.managers[0].seeks.count == 1 }
    waiting.cancel()
    let outcome = await waiting.result
    // Then that task ends with CancellationError; the seek still lands, and the next calls are answered
    #expect(throws: CancellationError.self) { try outcome.get() }
    harness.managers[0].land(harness.managers[0].seeks[0])
    let status = try await player.status()
    #expect(status.position == MediaTime(seconds: 4))
  }

  @Test func cancellingAWaitStopsItInTheSessionAndTheNextCallIsAnsweredAtOnce() async throws {
    // Given a playing player whose manager never ends its waits by itself
    let harness = Harness(autoResponds: false)
    let player = await harness.makePlayer()
    async let opened = player.open("clip.mp4")
    await waitUntil { !harness.managers.isEmpty }
    harness.managers[0].becomeReady(duration: 10)
    _ = try await opened
    try await player.play()
    // When a task awaiting `wait(.ended)` is cancelled
    let waiting = Task { try await player.wait(.ended) }
    await waitUntil { harness.managers[0].waits.count == 1 }
    waiting.cancel()
    let outcome = await waiting.result
    // Then the task ends with CancellationError, the manager is told to stop that wait, and `pause()` is answered
    // without the clip ending
    #expect(throws: CancellationError.self) { try outcome.get() }
    let pause = Task { try await player.pause() }
    await waitUntil { harness.managers[0].cancelledWaits == [harness.managers[0].waits[0].id] }
    _ = try await pause.value
    #expect(try await player.status().state == .paused)
  }

  @Test func aCancelledCallThatHasNotRunIsDropped() async throws {
    // Given a player whose seek is still running, so the calls after it wait in the session's queue
    let harness = Harness(autoResponds: false)
    let player = await harness.makePlayer()
    async let opened = player.open("clip.mp4")
    await waitUntil { !harness.managers.isEmpty }
    harness.managers[0].becomeReady(duration: 10)
    _ = try await opened
    let seek = Task { try await player.scrub(to: MediaTime(seconds: 4)) }
    await waitUntil { harness.managers[0].seeks.count == 1 }
    // When a step queued behind it is cancelled before it runs, and the seek lands
    let step = Task { try await player.step(1) }
    let events = Task { () -> [PlayerEvent] in
      var seen: [PlayerEvent] = []
      for await event in player.events {
        seen.append(event)
        if case .error(let error) = event.event, error.code == .cancelled { break }
      }
      return seen
    }
    await Task.yield()
    step.cancel()
    let stepOutcome = await step.result
    #expect(throws: CancellationError.self) { try stepOutcome.get() }
    harness.managers[0].land(harness.managers[0].seeks[0])
    _ = try await seek.value
    // Then the step never reaches the manager, its one reply is a `cancelled` error, and the player goes on
    let seen = await events.value
    #expect(seen.last.map { if case .error = $0.event { true } else { false } } == true)
    #expect(try await player.status().position == MediaTime(seconds: 4))
    #expect(harness.managers[0].steps.isEmpty)
  }

  @Test func droppingThePlayerShutsItsManagerDown() async throws {
    // Given a player with a file open
    let harness = Harness()
    var player: Player? = await harness.makePlayer()
    try await player?.open("clip.mp4")
    #expect(harness.managers.first?.isShutDown == false)
    // When it is dropped without close()
    player = nil
    // Then its manager is shut down
    #expect(harness.managers.first?.isShutDown == true)
  }

  @Test func closeReleasesTheManagerAndThePlayerOpensAgain() async throws {
    // Given a player with a file open
    let harness = Harness()
    let player = await harness.makePlayer()
    try await player.open("clip.mp4")
    // When it closes and opens again
    try await player.close()
    try await player.open("clip.mp4")
    // Then the first manager was shut down and a second one plays
    #expect(harness.managers.map(\.isShutDown) == [true, false])
    #expect(try await player.status().state == .paused)
  }

  @Test func afterTheSessionEndsEveryCallThrowsPlayerClosed() async throws {
    // Given a player whose session ends at the end of the media
    let harness = Harness()
    var options = PlaybackBuilder.playerOptions
    options.endAction = .exit
    let player = await harness.makePlayer(options: options)
    try await player.open("clip.mp4")
    // When the media ends
    harness.managers[0].reachEnd(at: 10)
    // Then calls throw PlayerClosed, and the events end with the shutdown
    await #expect(throws: PlayerClosed.self) { try await player.status() }
    var names: [String] = []
    for await event in player.events { names.append(event.event.name) }
    #expect(names == ["ready", "ended", "shutdown"])
  }

  @Test func eventsAreTheTypedEventsWithTheirLinesAndTheCallsNumbers() async throws {
    // Given a player
    let player = await Harness().makePlayer()
    // When it opens and plays
    try await player.open("clip.mp4")
    try await player.play()
    // Then its events are the session's typed events, with the calls' numbers and each event's line
    var iterator = player.events.makeAsyncIterator()
    let ready = await iterator.next()
    let state = await iterator.next()
    #expect(ready?.event.name == "ready" && ready?.callNumber == 1)
    #expect(state?.event == .state(.playing, position: .zero, duration: MediaTime(seconds: 10)))
    #expect(state?.callNumber == 2)
    #expect(state?.text == "state #2 state=playing position=0.000 duration=10.000")
  }

  @Test func eventsHoldEachSeekAndStepsAnswerButNotItsStartWhichHasNoLine() async throws {
    // Given a player with a file open
    let player = await Harness().makePlayer()
    try await player.open("clip.mp4")
    // When it scrubs and steps
    try await player.scrub(to: MediaTime(seconds: 2.5), mode: .exact)
    try await player.step(-1)
    // Then its events hold the answers, each with its line, and no seekStarted (as no loading)
    var iterator = player.events.makeAsyncIterator()
    var names: [String] = []
    while names.count < 3, let event = await iterator.next() { names.append(event.event.name) }
    #expect(names == ["ready", "seeked", "stepped"])
  }

  @Test func anAppsOwnViewReceivesThePresentersViewModels() async throws {
    // Given a player with an app's own view attached
    let player = await Harness().makePlayer()
    let view = ViewSpy()
    let client = PlaybackBuilder.attach(view, to: player)
    // When the player opens and scrubs, and the app's view sends a command of its own
    try await player.open("clip.mp4")
    try await player.scrub(to: MediaTime(seconds: 1))
    client.eventHandler.onInputLine(.text("status"))
    // Then the view saw the shared events without the player's ids, and its own command's answer with its id
    #expect(view.events.map(\.event).prefix(2) == ["ready", "seeked"])
    #expect(view.events.prefix(2).allSatisfy { $0.commandID == nil && $0.clientID == nil })
    #expect(view.events.last?.event == "status" && view.events.last?.commandID == 1)
    client.detach()
  }

  /// Lets the main actor run until `condition` holds (the fake's replies are tasks on it).
  private func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
  }
}

// The Player's queue over the real interactor and presenter and fake managers: opening several files makes them the
// queue and plays the first, `next`, `previous` and `go(to:)` return the entry's media once ready, `add` and `queue()`
// return the list as typed values, the queue's refusals throw their stable codes, and each entry that starts is a
// typed `.entry` event in `player.events`, numbered by the call that caused it.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite("Player: the queue")
struct PlayerQueueTests {
  private func makePlayer() async -> Player {
    await PlaybackBuilder.makePlayer(options: PlaybackBuilder.playerOptions) {
      FakePlaybackManager(autoResponds: true)
    }
  }

  @Test func openingSeveralFilesMakesThemTheQueueAndPlaysTheFirst() async throws {
    // Given a player
    let player = await makePlayer()
    // When it opens three files
    let info = try await player.open(["a.mp4", "b.mp4", "c.mp4"])
    let queue = try await player.queue()
    // Then the first is ready, and the queue lists the three with the first current
    #expect(info.path == "a.mp4")
    #expect(queue.entries.map(\.path) == ["a.mp4", "b.mp4", "c.mp4"])
    #expect(queue.entries.map(\.id) == [1, 2, 3])
    #expect(queue.current == 1)
    #expect(queue.entries.allSatisfy { $0.title == nil })
  }

  @Test func nextPreviousAndGoToPlayTheEntryAndReturnItsMedia() async throws {
    // Given a player playing a queue of three
    let player = await makePlayer()
    try await player.open(["a.mp4", "b.mp4", "c.mp4"])
    // When it goes next, to 3, and back
    let next = try await player.next()
    let third = try await player.go(to: 3)
    let previous = try await player.previous()
    // Then each returns its entry's media, and the queue's current entry follows
    #expect([next.path, third.path, previous.path] == ["b.mp4", "c.mp4", "b.mp4"])
    #expect(try await player.queue().current == 2)
    let status = try await player.status()
    #expect(status.entry == QueuePosition(index: 2, count: 3))
  }

  @Test func addAppendsAnEntryAndReturnsTheQueue() async throws {
    // Given a player playing one file of a queue
    let player = await makePlayer()
    try await player.open(["a.mp4"])
    // When it adds a file, then goes next
    let queue = try await player.add("b.mp4")
    let next = try await player.next()
    // Then the queue held both, the first current, and next plays the one added
    #expect(queue.entries.map(\.path) == ["a.mp4", "b.mp4"])
    #expect(queue.current == 1)
    #expect(next.path == "b.mp4")
  }

  @Test func theQueuesRefusalsThrowTheirStableCodes() async throws {
    // Given a player with nothing queued
    let player = await makePlayer()
    // When it asks for the next entry, then plays a queue of two and goes past its end and outside it
    let empty = await #expect(throws: PlaybackError.self) { try await player.next() }
    try await player.open(["a.mp4", "b.mp4"])
    let before = await #expect(throws: PlaybackError.self) { try await player.previous() }
    let outside = await #expect(throws: PlaybackError.self) { try await player.go(to: 3) }
    // Then each throws the code the JSON protocol would carry, and the player stays usable
    #expect(empty?.code == .queueEmpty)
    #expect(before?.code == .queueEnd)
    #expect(outside?.code == .noSuchEntry)
    #expect(try await player.next().path == "b.mp4")
  }

  @Test func anEntryThatStartsIsATypedEventNumberedByItsCall() async throws {
    // Given a player playing a queue of two
    let player = await makePlayer()
    try await player.open(["a.mp4", "b.mp4"])
    // When it goes next
    try await player.next()
    // Then its events hold each entry that started, typed, with the number of the call that caused it and its line
    var entries: [PlayerEvent] = []
    for await event in player.events {
      if case .entry = event.event { entries.append(event) }
      if entries.count == 2 { break }
    }
    #expect(
      entries.map(\.event) == [
        .entry(EntryStarted(index: 1, count: 2, id: 1, path: "a.mp4")),
        .entry(EntryStarted(index: 2, count: 2, id: 2, path: "b.mp4")),
      ])
    // (calls 1 to 3 are open's `queue clear` and two `queue add`s; 4 its `goto 1`; 5 the `next`)
    #expect(entries.map(\.callNumber) == [4, 5])
    #expect(entries.last?.text == "entry #5 index=2 count=2 entry_id=2 path=b.mp4")
  }
}

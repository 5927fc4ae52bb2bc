// The session recorder on a session that started with a list, over the real interactor, fan-out and presenter, with
// fake managers standing in for the engine: the replay queues the same files and moves through them as the session
// did.

import Foundation
import Testing
import VPKTestSupport

@testable import VPKScripts
@testable import VideoPlaybackKit

@MainActor
@Suite("Session recorder: a list's entries as the replay's queue")
struct SessionRecorderQueueTests {
  /// A playing session of the list a.mp4, b.mp4, c.mp4 (10 s each), recorded from its start into `script`.
  @MainActor
  final class Harness {
    /// The managers made so far, in order: the last is the current file's.
    final class Made { var managers: [FakePlaybackManager] = [] }
    let script = CapturedTextOutput()
    let module: PlaybackModule
    private let made = Made()

    init(seed: UInt64 = 1, loops: Bool = false) {
      // No frame cache: nothing is opened ahead, so the last manager made is the current file's.
      var options = PlaybackOptions(autoplay: true, endAction: .exit, frameCacheBytes: 0)
      options.playlist = PlayQueue(paths: ["a.mp4", "b.mp4", "c.mp4"], loops: loops, isList: true, seed: seed)
      let made = made
      module = PlaybackBuilder.build(
        path: "a.mp4", options: options, format: .text, input: .lines([]), output: CapturedTextOutput(),
        isTerminal: false, useColor: false,
        makeManager: {
          let manager = FakePlaybackManager()
          made.managers.append(manager)
          return manager
        }, onClose: { _, _ in })
      PlaybackBuilder.attachRecorder(
        to: module, output: script, scriptDirectory: FileManager.default.currentDirectoryPath, options: options)
      module.eventHandler.onStart()
      current.becomeReady(duration: 10, path: "a.mp4")
    }

    /// The current file's manager.
    var current: FakePlaybackManager { made.managers[made.managers.count - 1] }

    func type(_ line: String) {
      module.eventHandler.onInputLine(.text(line))
    }

    /// The script's lines after its header comments.
    var lines: [String] {
      script.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
    }
  }

  @Test func theListIsQueuedAnEndTheListWentOnFromIsAWaitForTheEntryAndMovesAreTyped() {
    // Given a recorded list whose first entry plays to its end, the second opening after it
    let harness = Harness()
    harness.current.reachEnd(at: 10)
    harness.current.becomeReady(duration: 10, path: "b.mp4")
    // When the person goes back, then on past the last entry
    harness.type("prev")
    harness.current.becomeReady(duration: 10, path: "a.mp4")
    harness.type("goto 3")
    harness.current.becomeReady(duration: 10, path: "c.mp4")
    harness.type("next")
    harness.type("quit")
    // Then the replay queues the list, waits for the entry the end led to, and moves as typed, each move checked
    #expect(
      harness.lines == [
        "queue add a.mp4", "queue add b.mp4", "queue add c.mp4", "goto 1", "wait entry 2", "prev",
        "expect entry == 1", "goto 3", "expect entry == 3", "next", "expect error == queue_end",
      ], "\(harness.script.text)")
  }

  @Test func aListThatLoopsIsQueuedLoopingAndItsWayBackToTheFirstIsAWaitForIt() {
    // Given a recorded list that loops (--loop-playlist), at its last entry
    let harness = Harness(loops: true)
    harness.type("goto 3")
    harness.current.becomeReady(duration: 10, path: "c.mp4")
    // When that entry plays to its end and the list goes round to its first
    harness.current.reachEnd(at: 10)
    harness.current.becomeReady(duration: 10, path: "a.mp4")
    harness.type("quit")
    // Then the replay's queue loops too, and waits for the first entry again
    #expect(
      harness.lines == [
        "queue add a.mp4", "queue add b.mp4", "queue add c.mp4", "queue loop yes", "goto 1", "goto 3",
        "expect entry == 3", "wait entry 1",
      ], "\(harness.script.text)")
  }

  @Test func aShuffleIsWrittenAsTheMovesThatGiveItsOrderAndEditsAsTyped() throws {
    // Given a recorded list playing its first entry
    let harness = Harness(seed: 7)
    // When the person adds a file, shuffles the list and lists it
    harness.type("queue add d.mp4")
    harness.type("queue shuffle")
    harness.type("queue")
    harness.type("quit")
    // Then the add is as typed, and the shuffle is moves that give the session's order from the one before it
    let lines = harness.lines
    #expect(
      Array(lines.prefix(5)) == ["queue add a.mp4", "queue add b.mp4", "queue add c.mp4", "goto 1", "queue add d.mp4"])
    #expect(lines.last == "queue", "\(harness.script.text)")
    var order = ["a.mp4", "b.mp4", "c.mp4", "d.mp4"]
    for line in lines where line.hasPrefix("queue move ") {
      let numbers = line.split(separator: " ").dropFirst(2).compactMap { Int($0) }
      try #require(numbers.count == 2)
      order.insert(order.remove(at: numbers[0] - 1), at: numbers[1] - 1)
    }
    var session = PlayQueue(paths: ["a.mp4", "b.mp4", "c.mp4"], isList: true, seed: 7)
    session.append("d.mp4")
    session.shuffle()
    #expect(order == session.entries.map(\.path), "\(harness.script.text)")
  }
}

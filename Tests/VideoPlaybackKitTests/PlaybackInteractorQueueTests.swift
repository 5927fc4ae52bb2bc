// PlaybackInteractorQueueTests: the queue's rules in the interactor, with fake managers: an entry's end loads the
// next, `--at-end` applies at the end of the list, a file that fails to open is skipped, and the queue's commands
// answer or refuse with stable codes while the session goes on.

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite struct PlaybackInteractorQueueTests {
  /// A session playing the list `paths` (the first entry's manager is the harness's own).
  static func list(
    _ paths: [String] = ["a.mp4", "b.mp4", "c.mp4"], endAction: EndAction = .exit, loops: Bool = false
  ) -> InteractorHarness {
    var options = PlaybackOptions(autoplay: true, endAction: endAction)
    options.playlist = PlayQueue(paths: paths, loops: loops, isList: true)
    let harness = InteractorHarness(options: options, path: paths.first)
    harness.interactor.start()
    harness.manager.becomeReady(path: paths[0])
    return harness
  }

  @Test func anEntrysEndLoadsTheNextAndAtEndAppliesAtTheEndOfTheList() throws {
    // Given a list of three playing its first entry, with --at-end exit
    let h = Self.list()
    #expect(h.output.lines.first == "entry #0 1/3 id 1 a.mp4")
    // When the first entry ends
    h.manager.reachEnd(at: 60)
    // Then the second loads, playing, and the session goes on
    let second = try #require(h.router.made.first)
    #expect(second.preparedPath == "b.mp4")
    #expect(second.configuration?.startsPlaying == true)
    #expect(h.output.lines.suffix(2) == ["entry #0 2/3 id 2 b.mp4", "loading b.mp4"])
    #expect(h.router.exitCodes.isEmpty)
    // When the second and third end
    second.becomeReady(path: "b.mp4")
    second.reachEnd(at: 60)
    let third = try #require(h.router.made.last)
    third.becomeReady(path: "c.mp4")
    third.reachEnd(at: 60)
    // Then --at-end exit applies at the end of the list
    #expect(h.router.exitCodes == [SessionExitCode.success])
    #expect(h.output.lines.last?.hasPrefix("shutdown #0 ended") == true)
  }

  @Test func anEntryThatNamesAListIsReadAtItsTurnAndItsFilesTakeItsPlace() throws {
    // Given a list whose second entry is an m3u list of two files, the first titled
    let h = Self.list(["a.mp4", "l.m3u", "c.mp4"])
    h.router.lists["l.m3u"] = [PlaylistText.Entry(path: "x.mp4", title: "X"), PlaylistText.Entry(path: "y.mp4")]
    // Then while the first plays the list is not opened ahead as a file, nor read
    #expect(h.router.made.isEmpty && h.router.listsRead.isEmpty)
    // When the first entry ends
    h.manager.reachEnd(at: 60)
    // Then the list is read: its files take its place, with new ids (the list's title kept), and the first of them
    // starts
    #expect(h.router.listsRead == ["l.m3u"])
    #expect(
      Array(h.output.lines.suffix(3)) == [
        "expanded #0 2/3 id 2 l.m3u into 4+2", "entry #0 2/4 id 4 x.mp4", "loading x.mp4",
      ])
    #expect(h.interactor.playlist.entries.map(\.path) == ["a.mp4", "x.mp4", "y.mp4", "c.mp4"])
    #expect(h.interactor.playlist.entries.map(\.id) == [1, 4, 5, 3])
    #expect(h.interactor.playlist.entries[1].listTitle == "X")
    let first = try #require(h.router.made.first)
    #expect(first.preparedPath == "x.mp4")
    // When it is ready, the next of the list's files is opened ahead, as any entry
    first.becomeReady(path: "x.mp4")
    #expect(h.router.made.last?.preparedPath == "y.mp4")
  }

  @Test func aListThatAListNamesOrOneThatCannotBeReadOpensAsAFileAndFails() throws {
    // Given a list whose second entry is a list naming another list, and whose third is a list that cannot be read
    let h = Self.list(["a.mp4", "outer.m3u", "missing.pls"])
    h.router.lists["outer.m3u"] = [PlaylistText.Entry(path: "inner.m3u")]
    // When the first entry ends
    h.manager.reachEnd(at: 60)
    // Then the outer list is read, and the list it names is opened as a file (a list is read one level deep)
    #expect(h.router.listsRead == ["outer.m3u"])
    let inner = try #require(h.router.made.last)
    #expect(inner.preparedPath == "inner.m3u")
    // When that fails to open, as a list does as media
    inner.failToOpen(.notMedia)
    // Then it is skipped, and the list that cannot be read is tried, then opened as a file, and nothing is expanded
    #expect(h.router.listsRead == ["outer.m3u", "missing.pls"])
    #expect(h.router.made.last?.preparedPath == "missing.pls")
    #expect(h.output.lines.filter { $0.hasPrefix("expanded") }.count == 1)
  }

  @Test func openingAListAsAFileFailsSayingHowToPlayItsFiles() throws {
    // Given a session playing a file
    let h = InteractorHarness.ready()
    // When a list file is opened with `open`, which loads one file beside the queue, and fails as media
    h.interactor.submit(.open("l.m3u"), source: nil)
    let opened = try #require(h.router.made.last)
    opened.failToOpen(.notMedia)
    // Then its error says to add it to the queue, and the file playing stays
    let error = try #require(
      h.output.events.compactMap { if case .error(let error) = $0.event { error } else { nil } }.last)
    #expect(error.code == .notMedia)
    #expect(error.message.hasSuffix("; to play the files a list names, add it to the queue: queue add l.m3u"))
    #expect(h.interactor.path == "clip.mp4")
  }

  @Test func loopPlaylistGoesBackToTheFirstEntry() throws {
    // Given a list of two that loops, playing its second entry
    let h = Self.list(["a.mp4", "b.mp4"], loops: true)
    h.manager.reachEnd(at: 60)
    let second = try #require(h.router.made.first)
    second.becomeReady(path: "b.mp4")
    // When the second ends
    second.reachEnd(at: 60)
    // Then the first loads again, by the manager that played it (kept, and prepared again as the second played)
    #expect(h.manager.calls.last == "reopen")
    #expect(h.interactor.path == "a.mp4")
    #expect(h.output.lines.contains("entry #0 1/2 id 1 a.mp4"))
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func anEntryThatFailsToOpenIsReportedAndSkipped() throws {
    // Given a list whose second file cannot be opened
    let h = Self.list()
    h.manager.reachEnd(at: 60)
    let second = try #require(h.router.made.first)
    // When its open fails
    second.failToOpen(.fileNotFound)
    // Then the error is told, with no command, and the third entry loads
    #expect(h.output.lines.contains("error #0 file_not_found"))
    #expect(h.router.made.last?.preparedPath == "c.mp4")
    #expect(h.output.lines.contains("entry #0 3/3 id 3 c.mp4"))
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func aListWhoseEntriesAllFailEndsWithoutGoingRound() throws {
    // Given a looping list of two whose files all fail, with --at-end exit
    var options = PlaybackOptions(autoplay: true, endAction: .exit)
    options.playlist = PlayQueue(paths: ["a.mp4", "b.mp4"], loops: true, isList: true)
    let h = InteractorHarness(options: options, path: "a.mp4")
    h.interactor.start()
    // When both fail
    h.manager.failToOpen(.notMedia)
    try #require(h.router.made.first).failToOpen(.notMedia)
    // Then the session ends once the list has come round, trying each once
    #expect(h.router.made.count == 1)
    #expect(h.router.exitCodes.count == 1)
  }

  @Test func waitEntryGoesThroughTheEntriesBeforeItAndFailsWhenTheListEndsFirst() throws {
    // Given a list of three playing its first, --at-end pause
    let h = Self.list(endAction: .pause)
    // When a script waits for entry 3
    let id = h.interactor.submit(.wait(.entry(3), timeout: nil))
    // Then the first entry plays to its end for it
    #expect(h.manager.waits.last?.until == .ended)
    h.manager.reachEnd(at: 60)
    let second = try #require(h.router.made.first)
    second.becomeReady(path: "b.mp4")
    // And the wait goes on through the second
    #expect(second.waits.last == PlaybackWait(id: id, until: .ended, timeout: nil))
    #expect(!h.output.lines.contains { $0.hasPrefix("waited") })
    second.reachEnd(at: 60)
    let third = try #require(h.router.made.last)
    third.becomeReady(path: "c.mp4")
    // Then it is satisfied as the third is ready
    #expect(h.output.lines.last == "waited #\(id) entry 3 at 0.0")
    // When a script waits for an entry behind, or one past the end
    let behind = h.interactor.submit(.wait(.entry(1), timeout: nil))
    #expect(h.output.lines.last == "error #\(behind) wait_impossible")
  }

  @Test func nextPrevAndGotoAnswerWithTheEntrysReady() throws {
    // Given a list of three playing its first
    let h = Self.list()
    // When `goto 3` is sent
    let id = h.interactor.submit(.goto(3))
    // (the first manager made is the second entry's, opened ahead and dropped by the goto)
    let third = try #require(h.router.made.last)
    third.becomeReady(path: "c.mp4")
    // Then entry 3 started for it and its ready answers it
    #expect(h.output.lines.contains("entry #\(id) 3/3 id 3 c.mp4"))
    #expect(h.output.lines.contains("ready #\(id) c.mp4"))
    // When `next` is sent at the last entry
    let next = h.interactor.submit(.next)
    // Then it is refused, and the session goes on
    #expect(h.output.lines.last == "error #\(next) queue_end")
    // When `prev` is sent
    h.interactor.submit(.previous)
    #expect(h.router.made.last?.preparedPath == "b.mp4")
  }

  @Test func badEntryNumbersAndAnEmptyQueueAreRefusedWithStableCodes() {
    // Given a list of three
    let h = Self.list()
    // When entries outside it are named
    let goto = h.interactor.submit(.goto(4))
    let remove = h.interactor.submit(.queue(.remove(9)))
    // Then each is refused with its code
    #expect(h.output.lines.contains("error #\(goto) no_such_entry"))
    #expect(h.output.lines.contains("error #\(remove) no_such_entry"))
    // When the queue is cleared and next is sent
    h.interactor.submit(.queue(.clear))
    let next = h.interactor.submit(.next)
    // Then it is refused as empty, and the file plays on
    #expect(h.output.lines.last == "error #\(next) queue_empty")
    #expect(h.interactor.state == .playing)
  }

  @Test func removingTheEntryPlayingPlaysTheOneAfterIt() throws {
    // Given a list of three playing its first
    let h = Self.list()
    // When the entry playing is removed
    let remove = h.interactor.submit(.queue(.remove(1)))
    // Then the one after it starts, playing, numbered in the list as it is now; the command's answer is the queue
    let next = try #require(h.router.made.first)
    #expect(next.preparedPath == "b.mp4")
    #expect(next.configuration?.startsPlaying == true)
    #expect(
      h.output.lines.suffix(3) == [
        "entry #\(remove) 1/2 id 2 b.mp4", "loading b.mp4", "queue #\(remove) b.mp4 c.mp4 current 1",
      ])
    // And once it is ready (its `ready` answers no command), status tells the entry where it stands now
    next.becomeReady(path: "b.mp4")
    #expect(h.output.lines.suffix(2) == ["ready #0 b.mp4", "state #0 playing 0.0"])
    #expect(h.interactor.currentStatus().entry == QueuePosition(index: 1, count: 2))
    #expect(h.interactor.state == .playing)
    #expect(h.router.exitCodes.isEmpty)
  }

  @Test func removingTheLastEntryPlayingClosesTheFileAndKeepsTheRest() throws {
    // Given a list of two, with --at-end exit, playing its second
    let h = Self.list(["a.mp4", "b.mp4"])
    h.interactor.submit(.goto(2))
    try #require(h.router.made.last).becomeReady(path: "b.mp4")
    // When the entry playing is removed
    let remove = h.interactor.submit(.queue(.remove(2)))
    // Then the file closes and the session is idle, not ended, with the rest of the list and no current entry
    #expect(h.output.lines.suffix(2) == ["closed #0", "queue #\(remove) a.mp4 current 0"])
    #expect(h.interactor.state == .idle)
    #expect(h.interactor.currentStatus().entry == QueuePosition(index: nil, count: 1))
    #expect(h.router.exitCodes.isEmpty)
    // When `next` is sent, the list plays from its first entry again
    let next = h.interactor.submit(.next)
    #expect(h.output.lines.last == "loading a.mp4")
    #expect(h.output.lines.contains("entry #\(next) 1/1 id 1 a.mp4"))
  }

  @Test func removingTheLastEntryPlayingOfALoopingListPlaysTheFirst() throws {
    // Given a list of two that loops, playing its second
    let h = Self.list(["a.mp4", "b.mp4"], loops: true)
    h.interactor.submit(.goto(2))
    try #require(h.router.made.last).becomeReady(path: "b.mp4")
    // When the entry playing is removed
    let remove = h.interactor.submit(.queue(.remove(2)))
    // Then the list goes round to its first
    #expect(
      h.output.lines.suffix(3) == [
        "entry #\(remove) 1/1 id 1 a.mp4", "loading a.mp4", "queue #\(remove) a.mp4 current 1",
      ])
  }

  @Test func queueEditsAnswerWithTheQueueAndMakeASingleFileAList() throws {
    // Given a session on one file
    var options = PlaybackOptions(autoplay: true, endAction: .exit)
    options.playlist = nil
    let h = InteractorHarness(options: options, path: "a.mp4")
    h.interactor.start()
    h.manager.becomeReady(path: "a.mp4")
    #expect(!h.output.lines.contains { $0.hasPrefix("entry") })
    // When a file is added, another added next, and the last moved first
    h.interactor.submit(.queue(.add("c.mp4")))
    h.interactor.submit(.queue(.addNext("b.mp4")))
    let move = h.interactor.submit(.queue(.move(3, 1)))
    // Then each answers with the queue as it left it
    #expect(h.output.lines.last == "queue #\(move) c.mp4 a.mp4 b.mp4 current 2")
    #expect(h.interactor.actualValue(of: .queueCount) == .number(3))
    #expect(h.interactor.actualValue(of: .entry) == .number(2))
    // And status tells where the entry stands
    #expect(h.interactor.currentStatus().entry == QueuePosition(index: 2, count: 3))
    // When the file ends, the entry after it plays
    h.manager.reachEnd(at: 60)
    #expect(h.output.lines.last == "loading b.mp4")
  }

  @Test func aSingleFileSessionSaysNothingOfAQueue() {
    // Given a session on one file
    let h = InteractorHarness.ready()
    // Then status carries no entry, and the end exits as before
    #expect(h.interactor.currentStatus().entry == nil)
    h.manager.reachEnd(at: 60)
    #expect(h.router.exitCodes == [SessionExitCode.success])
  }
}

// PlayQueueTests: the session's list of files as a value: ids that stay with entries, the current entry through
// edits, what comes next at the ends, and shuffles a seed repeats.

import Testing

@testable import VideoPlaybackKit

@Suite struct PlayQueueTests {
  @Test func entriesKeepTheirIdsThroughEdits() throws {
    // Given a list of three files, the second playing
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4", "c.mp4"])
    try queue.select(1)
    // When the first is removed and a file is added after the current one
    try queue.remove(at: 0)
    queue.insertNext("d.mp4")
    // Then b is still current, with its id, and d (id 4) comes next
    #expect(queue.entries.map(\.path) == ["b.mp4", "d.mp4", "c.mp4"])
    #expect(queue.entries.map(\.id) == [2, 4, 3])
    #expect(queue.current?.id == 2)
    #expect(try queue.index(after: nil) == 1)
  }

  @Test func movingKeepsTheCurrentEntryCurrent() throws {
    // Given a, b, c with c playing
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4", "c.mp4"])
    try queue.select(2)
    // When c moves to the front
    try queue.move(from: 2, to: 0)
    // Then c is current at its new index
    #expect(queue.entries.map(\.path) == ["c.mp4", "a.mp4", "b.mp4"])
    #expect(queue.currentIndex == 0)
  }

  @Test func removingTheCurrentEntryLeavesNoneCurrent() throws {
    // Given a, b with b playing
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4"])
    try queue.select(1)
    // When b is removed
    let removed = try queue.remove(at: 1)
    // Then nothing is current, and the next entry is the first
    #expect(removed.path == "b.mp4")
    #expect(queue.currentIndex == nil)
    #expect(try queue.index(after: nil) == 0)
  }

  @Test func theEndsOfTheListRefuseUnlessItLoops() throws {
    // Given a, b with b playing, not looping
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4"])
    try queue.select(1)
    // Then there is nothing after b
    #expect(throws: PlayQueue.Refusal.noEntry(after: true)) { try queue.index(after: nil) }
    // When the list loops, a comes after b; and before a, b
    queue.loops = true
    #expect(try queue.index(after: nil) == 0)
    try queue.select(0)
    #expect(try queue.indexBefore() == 1)
  }

  @Test func indexesOutsideTheListAndAnEmptyListAreRefused() {
    // Given a list of two
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4"])
    // Then index 2 is refused, naming the count
    #expect(throws: PlayQueue.Refusal.noSuchEntry(index: 2, count: 2)) { try queue.select(2) }
    #expect(throws: PlayQueue.Refusal.noSuchEntry(index: -1, count: 2)) { try queue.move(from: 0, to: -1) }
    // When it is cleared, every move is refused as empty
    queue.clear()
    #expect(throws: PlayQueue.Refusal.empty) { try queue.index(after: nil) }
    #expect(throws: PlayQueue.Refusal.empty) { try queue.remove(at: 0) }
  }

  @Test func aSeedRepeatsTheShuffleAndTheCurrentEntryStaysCurrent() throws {
    // Given two lists of ten with the same seed, the fourth playing
    let paths = (1...10).map { "ep\($0).mp4" }
    var first = PlayQueue(paths: paths, seed: 42)
    var second = PlayQueue(paths: paths, seed: 42)
    try first.select(3)
    try second.select(3)
    // When both are shuffled
    first.shuffle()
    second.shuffle()
    // Then they are in the same order, a new one, and ep4 is still current
    #expect(first.entries == second.entries)
    #expect(first.entries.map(\.path) != paths)
    #expect(Set(first.entries.map(\.path)) == Set(paths))
    #expect(first.current?.path == "ep4.mp4")
  }

  @Test func anEntryInsertedAtANumberKeepsItsOptionsAndTheCurrentEntryCurrent() throws {
    // Given a list of three, the second current
    var queue = PlayQueue(paths: ["a", "b", "c"])
    try queue.select(1)
    // When an entry with options of its own is inserted as entry 1, and another past the end + 1
    let options = EntryOptions(start: .time(.seconds(5)), paused: true, rate: 2)
    let added = try queue.insert("d", at: .number(1), options: options)
    // Then it is first, with its options and the next id; the current entry is still b; the other is refused
    #expect(queue.entries.map(\.path) == ["d", "a", "b", "c"])
    #expect(added.id == 4 && queue.entries[0].options == options)
    #expect(queue.current?.path == "b")
    #expect(throws: PlayQueue.Refusal.noSuchEntry(index: 6, count: 5)) { try queue.insert("e", at: .number(7)) }
    // When one is inserted after the current entry and at the end
    try queue.insert("f", at: .afterCurrent)
    try queue.insert("g", at: .end)
    #expect(queue.entries.map(\.path) == ["d", "a", "b", "f", "c", "g"])
  }

  @Test func unshufflePutsTheEntriesBackInTheOrderTheyWereAdded() throws {
    // Given a shuffled list of five, the third of the order added current
    var queue = PlayQueue(paths: ["a", "b", "c", "d", "e"], seed: 7)
    try queue.select(2)
    queue.shuffle()
    // When it is unshuffled
    queue.unshuffle()
    // Then the entries are in the order they were added, and c is still current
    #expect(queue.entries.map(\.path) == ["a", "b", "c", "d", "e"])
    #expect(queue.current?.path == "c")
  }

  @Test func theShuffleGeneratorIsSplitMix64() {
    // Given the generator seeded with 0 (the reference implementation's first outputs)
    var generator = ShuffleGenerator(seed: 0)
    // Then its first two values are the reference's
    #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
  }
}

@Suite struct PlayQueueTitleTests {
  @Test func aListsTitleStaysAndATagNamesOnlyAnEntryItLeftUntitled() {
    // Given two entries, the first titled by its list
    var queue = PlayQueue(paths: ["a.mp4", "b.mp4"])
    queue.setTitle("Pilot", ofID: 1)
    // When both files open and their tags give titles
    queue.learnTitle(fromTags: "Tag A", ofID: 1)
    queue.learnTitle(fromTags: "Tag B", ofID: 2)
    // Then the first keeps its list's title, the second is named by its tag, and only the first has a list title
    #expect(queue.entries.map(\.title) == ["Pilot", "Tag B"])
    #expect(queue.entries.map(\.listTitle) == ["Pilot", nil])
  }

  @Test func anEntryAddedWithATitleIsNamedByItAsByItsList() throws {
    // Given a list of one
    var queue = PlayQueue(paths: ["a.mp4"])
    // When an entry is added with a title (mpv's `loadlist` of a list with titles), and its file's tags give another
    try queue.insert("b.mp4", at: .end, options: EntryOptions(title: "Pilot"))
    queue.learnTitle(fromTags: "Tag B", ofID: 2)
    // Then it keeps the title it was added with, which is its list title
    #expect(queue.entries[1].title == "Pilot" && queue.entries[1].listTitle == "Pilot")
  }

  @Test func aListEntryGivesWayToItsFilesAndTheCurrentEntryStaysCurrent() {
    // Given a list of four whose second entry is a list file, the fourth current
    var queue = PlayQueue(paths: ["a", "l.m3u", "c", "d"])
    try? queue.select(3)
    // When the list entry gives way to its two files
    let added = queue.expand(at: 1, into: [("x", "X"), ("y", nil)])
    // Then they take its place with new ids, titled as the list says and known to come from a list, and d is current
    #expect(queue.entries.map(\.path) == ["a", "x", "y", "c", "d"])
    #expect(added.map(\.id) == [5, 6] && added.allSatisfy(\.fromList))
    #expect(queue.entries[1].listTitle == "X" && queue.entries[2].title == nil)
    #expect(queue.current?.path == "d")
    // When the list entry was current (its turn came), the first of its files is
    var turn = PlayQueue(paths: ["a", "l.m3u"])
    try? turn.select(1)
    turn.expand(at: 1, into: [("x", nil)])
    #expect(turn.current?.path == "x" && turn.currentIndex == 1)
  }
}

// PlayQueue: the session's list of files as a value. Entries keep their id from the moment they are added, whatever
// edits move them; indexes are 0-based here (the command language and the events count from 1). The interactor holds
// one and decides what plays; this decides only what the list holds and which entry comes next.

/// The files a session plays one after another, the one playing, and how the list goes on at its end.
package struct PlayQueue: Sendable, Equatable {
  /// One file of the list.
  package struct Entry: Sendable, Equatable {
    /// Stays with the entry whatever edits move it (1, 2, 3 … in the order entries were added).
    package let id: Int
    /// The file as written (the command line, the list file resolved against its folder, `queue add`).
    package let path: String
    /// The title its list gave (a pls `TitleN`), or else the one the file's tags give once it has been opened (nil:
    /// none known).
    package var title: String?
    /// The title its list gave, if it gave one (mpv's playlist shows only that one).
    package var listTitle: String?
    /// What the file opens with each time it plays, for it only.
    package var options = EntryOptions()
    /// It came from reading a list that was an entry (`expand`): a list it names is not read in turn.
    package var fromList = false

    /// Whether it is a list file to read at its turn (`expand`): named as one, and not itself from a list.
    package var isListToRead: Bool { !fromList && PlaylistText.namesList(path) }
  }

  /// Why an edit or a move cannot be made.
  package enum Refusal: Error, Sendable, Equatable {
    /// An index outside 0 ..< count.
    case noSuchEntry(index: Int, count: Int)
    /// Nothing to go to: the list is empty.
    case empty
    /// No entry after the last (or before the first) and the list does not loop.
    case noEntry(after: Bool)
  }

  package private(set) var entries: [Entry] = []
  /// The entry playing (or last played); nil before any has started, or once the list was cleared.
  package private(set) var currentIndex: Int?
  /// After the last entry comes the first again (`--loop-playlist`).
  package var loops: Bool
  /// The session plays a list: started with several files, a folder or a list file, or edited by a `queue` command.
  /// Only then do its events name the entries.
  package var isList: Bool
  private var lastID = 0
  private var random: ShuffleGenerator

  /// - Parameters:
  ///   - seed: seeds the shuffles (`--shuffle-seed`), so that a test gets the same order every run.
  package init(paths: [String] = [], loops: Bool = false, isList: Bool = false, seed: UInt64 = 0) {
    self.loops = loops
    self.isList = isList
    random = ShuffleGenerator(seed: seed)
    for path in paths { append(path) }
  }

  package var count: Int { entries.count }
  package var isEmpty: Bool { entries.isEmpty }
  package var current: Entry? { currentIndex.map { entries[$0] } }

  /// The index of the entry with `id`, if it is still in the list.
  package func index(ofID id: Int) -> Int? { entries.firstIndex { $0.id == id } }

  /// Adds `path` at the end; returns the new entry.
  @discardableResult package mutating func append(_ path: String, options: EntryOptions = EntryOptions()) -> Entry {
    insert(path, at: entries.count, options: options)
  }

  /// Adds `path` right after the current entry (at the front when none is current).
  @discardableResult package mutating func insertNext(_ path: String, options: EntryOptions = EntryOptions()) -> Entry {
    insert(path, at: currentIndex.map { $0 + 1 } ?? 0, options: options)
  }

  /// The index a new entry takes at `slot`; nil for a number past the end + 1.
  package func index(of slot: QueueSlot) -> Int? {
    switch slot {
    case .end: entries.count
    case .afterCurrent: currentIndex.map { $0 + 1 } ?? 0
    case .number(let number): (1...entries.count + 1).contains(number) ? number - 1 : nil
    }
  }

  /// Adds `path` at `slot`; returns the new entry.
  @discardableResult package mutating func insert(
    _ path: String, at slot: QueueSlot, options: EntryOptions = EntryOptions()
  )
    throws(Refusal) -> Entry
  {
    guard let index = index(of: slot) else {
      guard case .number(let number) = slot else { throw .empty }
      throw .noSuchEntry(index: number - 1, count: entries.count + 1)
    }
    return insert(path, at: index, options: options)
  }

  private mutating func insert(_ path: String, at index: Int, options: EntryOptions) -> Entry {
    lastID += 1
    let entry = Entry(id: lastID, path: path, title: options.title, listTitle: options.title, options: options)
    entries.insert(entry, at: index)
    if let current = currentIndex, index <= current { currentIndex = current + 1 }
    return entry
  }

  /// The entry at `index`, a list file, gives way to the files it names (`files`: each path with its list's title),
  /// in its place and in their order, with new ids; when it was current, the first of them is. Returns them.
  @discardableResult package mutating func expand(at index: Int, into files: [(path: String, title: String?)])
    -> [Entry]
  {
    let wasCurrent = currentIndex == index
    entries.remove(at: index)
    var added: [Entry] = []
    for (offset, file) in files.enumerated() {
      lastID += 1
      var entry = Entry(
        id: lastID, path: file.path, title: file.title, listTitle: file.title, options: EntryOptions(title: file.title))
      entry.fromList = true
      added.append(entry)
      entries.insert(entry, at: index + offset)
    }
    if let current = currentIndex, !wasCurrent, current > index { currentIndex = current - 1 + added.count }
    if wasCurrent { currentIndex = added.isEmpty ? nil : index }
    return added
  }

  /// Makes the entry at `index` the current one.
  package mutating func select(_ index: Int) throws(Refusal) {
    try check(index)
    currentIndex = index
  }

  /// Removes the entry at `index`. Removing the current entry leaves none current: the interactor decides what plays.
  @discardableResult package mutating func remove(at index: Int) throws(Refusal) -> Entry {
    try check(index)
    let removed = entries.remove(at: index)
    if let current = currentIndex {
      if index == current {
        currentIndex = nil
      } else if index < current {
        currentIndex = current - 1
      }
    }
    return removed
  }

  /// Moves the entry at `from` to `to` (its index once moved); the current entry stays current wherever it goes.
  package mutating func move(from: Int, to: Int) throws(Refusal) {
    try check(from)
    try check(to)
    let currentID = current?.id
    let entry = entries.remove(at: from)
    entries.insert(entry, at: to)
    currentIndex = currentID.flatMap(index(ofID:))
  }

  /// Empties the list.
  package mutating func clear() {
    entries.removeAll()
    currentIndex = nil
  }

  /// Puts the entries in a random order (the seeded generator's next, Fisher–Yates); the current entry stays current.
  package mutating func shuffle() {
    let currentID = current?.id
    guard entries.count > 1 else { return }
    for index in stride(from: entries.count - 1, to: 0, by: -1) {
      let other = Int(random.next() % UInt64(index + 1))
      entries.swapAt(index, other)
    }
    currentIndex = currentID.flatMap(index(ofID:))
  }

  /// Puts the entries back in the order they were added (by id); the current entry stays current.
  package mutating func unshuffle() {
    let currentID = current?.id
    entries.sort { $0.id < $1.id }
    currentIndex = currentID.flatMap(index(ofID:))
  }

  /// The title the list gives the entry with `id`.
  package mutating func setTitle(_ title: String?, ofID id: Int) {
    guard let index = index(ofID: id) else { return }
    entries[index].title = title
    entries[index].listTitle = title
  }

  /// The title the file's tags give the entry with `id`, once opened: it names the entry unless its list named it.
  package mutating func learnTitle(fromTags title: String?, ofID id: Int) {
    guard let index = index(ofID: id), entries[index].title == nil else { return }
    entries[index].title = title
  }

  /// The index after `index` (after the current entry when nil): the first again after the last when the list loops.
  package func index(after index: Int?) throws(Refusal) -> Int {
    guard !entries.isEmpty else { throw .empty }
    guard let from = index ?? currentIndex else { return 0 }
    if from + 1 < entries.count { return from + 1 }
    guard loops else { throw .noEntry(after: true) }
    return 0
  }

  /// The index before the current entry: the last after the first when the list loops.
  package func indexBefore() throws(Refusal) -> Int {
    guard !entries.isEmpty else { throw .empty }
    guard let from = currentIndex else { return 0 }
    if from > 0 { return from - 1 }
    guard loops else { throw .noEntry(after: false) }
    return entries.count - 1
  }

  private func check(_ index: Int) throws(Refusal) {
    guard !entries.isEmpty else { throw .empty }
    guard entries.indices.contains(index) else { throw .noSuchEntry(index: index, count: entries.count) }
  }
}

/// What one entry is given besides its path as it is added: its title, and what its file opens with, for that file
/// only, each time it plays (nil: as the session's settings say). The session's pause and rate it replaced are given
/// back as the file goes.
package struct EntryOptions: Sendable, Equatable {
  /// Where the file opens, instead of the session's start position.
  package var start: FileStart?
  /// Whether it opens paused.
  package var paused: Bool?
  /// The speed it plays at (a size, in the session's direction).
  package var rate: Double?
  /// The entry's title, as a list gives one (mpv's `loadlist` of a list with titles); it names the entry before the
  /// file's own tags.
  package var title: String?

  package init(start: FileStart? = nil, paused: Bool? = nil, rate: Double? = nil, title: String? = nil) {
    self.start = start
    self.paused = paused
    self.rate = rate
    self.title = title
  }
}

/// Where an entry is added: at the end, right after the current entry (first when none is), or as entry N (from 1; a
/// count + 1 appends).
package enum QueueSlot: Sendable, Equatable {
  case end
  case afterCurrent
  case number(Int)
}

/// The shuffles' generator, SplitMix64 (Steele, Lea and Flood): a small generator whose sequence a seed fixes, for
/// shuffles a test can repeat.
package struct ShuffleGenerator: RandomNumberGenerator, Sendable, Equatable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

// QueueValues: the session's queue as typed values: where the current entry stands (for `status`, `info` and the
// status line), the payloads of its two events (`SessionEvent.entry`, an entry started; `SessionEvent.queue`, the
// list as a `queue` command left it), and what a `queue` command does to the list.

/// Where the current entry stands in the list (1-based), for `status`, `info` and the status line.
package struct QueuePosition: Sendable, Equatable {
  /// The current entry's number; nil when none is (the list was cleared, or the current entry removed).
  package var index: Int?
  package var count: Int

  package init(index: Int?, count: Int) {
    self.index = index
    self.count = count
  }
}

/// An entry of the list started loading: the list went on by itself, or `next`, `prev` or `goto` asked (whose `ready`
/// or `error` answers it, not this).
public struct EntryStarted: Sendable, Equatable {
  /// Its number in the list (1-based), and how many the list holds.
  public var index: Int
  public var count: Int
  /// The id that stays with the entry whatever edits move it.
  public var id: Int
  /// The file as written.
  public var path: String

  package init(index: Int, count: Int, id: Int, path: String) {
    self.index = index
    self.count = count
    self.id = id
    self.path = path
  }
}

/// The list as a `queue` command leaves it.
public struct QueueListing: Sendable, Equatable {
  /// One entry of the list.
  public struct Entry: Sendable, Equatable {
    /// The id that stays with the entry whatever edits move it.
    public var id: Int
    /// The file as written.
    public var path: String
    /// The title its list gave (a pls `TitleN`), or else the file's tags', once opened (nil: none known).
    public var title: String?
    /// The title its list gave, if it gave one.
    package var listTitle: String?

    package init(id: Int, path: String, title: String? = nil, listTitle: String? = nil) {
      self.id = id
      self.path = path
      self.title = title
      self.listTitle = listTitle
    }
  }

  /// The entries, in the order they play.
  public var entries: [Entry]
  /// The current entry's number (1-based); nil when none is.
  public var current: Int?

  package init(entries: [Entry], current: Int?) {
    self.entries = entries
    self.current = current
  }
}

/// What a `queue` command does to the list; entries are numbered from 1, as written.
package enum QueueEdit: Sendable, Equatable {
  /// `queue`: list the entries.
  case list
  /// `queue add PATH`: add a file at the end.
  case add(String)
  /// `queue add-next PATH`: add a file right after the current entry.
  case addNext(String)
  /// `queue insert N PATH`, and `queue add`, `add-next` or `insert` with options (`start=`, `pause=`, `rate=`,
  /// `title=`): add a file at `slot` with its title and what it opens with.
  case insert(String, QueueSlot, EntryOptions)
  /// `queue remove N`.
  case remove(Int)
  /// `queue move N M`: entry N goes to number M.
  case move(Int, Int)
  /// `queue clear`.
  case clear
  /// `queue shuffle`.
  case shuffle
  /// `queue unshuffle`: the entries in the order they were added.
  case unshuffle
  /// `queue loop yes|no`: after the last entry comes the first again (as `--loop-playlist`), or not.
  case loop(Bool)
}

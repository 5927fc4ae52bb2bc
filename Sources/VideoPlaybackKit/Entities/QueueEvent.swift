// QueueEvent: what the session's queue says, as typed values: an entry started, or the queue as a `queue` command left
// it. They reach the presenters through `PlaybackInteractorOutput.present(queue:origin:)`, beside the session's events;
// views that show no queue (the `Player`) leave them out; the mpv dialect reads its playlist from them.

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

/// An entry of the list started loading.
package struct EntryStarted: Sendable, Equatable {
  /// Its number in the list (1-based), and how many the list holds.
  package var index: Int
  package var count: Int
  /// The id that stays with the entry whatever edits move it.
  package var id: Int
  /// The file as written.
  package var path: String

  package init(index: Int, count: Int, id: Int, path: String) {
    self.index = index
    self.count = count
    self.id = id
    self.path = path
  }
}

/// The list as a `queue` command leaves it.
package struct QueueListing: Sendable, Equatable {
  package struct Entry: Sendable, Equatable {
    package var id: Int
    package var path: String
    package var title: String?

    package init(id: Int, path: String, title: String? = nil) {
      self.id = id
      self.path = path
      self.title = title
    }
  }

  package var entries: [Entry]
  /// The current entry's number (1-based); nil when none is.
  package var current: Int?

  package init(entries: [Entry], current: Int?) {
    self.entries = entries
    self.current = current
  }
}

package enum QueueEvent: Sendable, Equatable {
  /// An entry started loading: the list went on by itself, or `next`, `prev` or `goto` asked (whose `ready` or
  /// `error` answers it, not this).
  case entry(EntryStarted)
  /// The answer to every `queue` command: the list as it left it.
  case listed(QueueListing)

  /// Whether this is the one reply of the command it carries as its origin.
  package var isReply: Bool {
    if case .listed = self { true } else { false }
  }

  /// The event's name, as the text and JSON dialects spell it.
  package var name: String {
    switch self {
    case .entry: "entry"
    case .listed: "queue"
    }
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
  /// `queue insert N PATH`, and `queue add`, `add-next` or `insert` with options (`start=`, `pause=`, `rate=`):
  /// add a file at `slot` with what it opens with.
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

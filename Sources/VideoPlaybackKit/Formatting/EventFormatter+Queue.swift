// The queue's events as lines: `entry index=2 count=3 entry_id=2 path=b.mp4` when an entry starts, `expanded index=2
// count=3 entry_id=2 path=l.m3u entries=4 first_entry_id=7` when an entry that is a list is read, and the answer
// to every `queue` command, `queue #N count=3 current=2` followed (in text) by one line per entry, the current one
// marked `>`, with its title (its list's, or its tags' once it has been opened).

extension EventFormatter {
  /// `entry`'s fields: the entry that started.
  static func describe(_ entry: EntryStarted, into line: inout EventBuilder) {
    line.integer("index", entry.index)
    line.integer("count", entry.count)
    // (`entry_id`: in JSON, `id` is the command's)
    line.integer("entry_id", entry.id)
    line.string("path", entry.path)
  }

  /// `queue`: the header's fields, the lists in JSON, and one indented line per entry in text.
  static func model(_ listing: QueueListing, line: EventBuilder) -> EventViewModel {
    var line = line
    line.integer("count", listing.entries.count)
    if let current = listing.current { line.integer("current", current) } else { line.none("current") }
    var model = line.model
    model.fields.append(EventViewModel.Field("ids", .list(listing.entries.map { .integer($0.id) })))
    model.fields.append(EventViewModel.Field("paths", .list(listing.entries.map { .string($0.path) })))
    model.fields.append(
      EventViewModel.Field("titles", .list(listing.entries.map { $0.title.map { .string($0) } ?? .null })))
    // One indented line per entry: `> 2 id=2 b.mp4` for the current one.
    let entries = listing.entries.enumerated().map { offset, entry in
      let mark = offset + 1 == listing.current ? ">" : " "
      let title = entry.title.map { " title=" + TextQuoting.value($0) } ?? ""
      return "\(mark) \(offset + 1) id=\(entry.id) path=\(TextQuoting.value(entry.path))" + title
    }
    model.text = ([model.text] + entries).joined(separator: "\n")
    return model
  }

  /// Where the entry stands in the queue, as `status` and `info` add it: `entry=2 entries=3`.
  static func describe(_ position: QueuePosition?, into line: inout EventBuilder) {
    guard let position else { return }
    if let index = position.index { line.integer("entry", index) } else { line.none("entry") }
    line.integer("entries", position.count)
  }
}

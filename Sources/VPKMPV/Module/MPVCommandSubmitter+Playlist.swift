// MPVCommandSubmitter+Playlist: mpv's playlist commands as edits of the session's queue and moves through it. mpv's
// playlist is the queue: `loadfile … replace` empties it, adds the file and plays it; `append` and the `insert-*`
// flags add an entry (playing it with `-play` when nothing plays); `playlist-next`, `playlist-prev` and
// `playlist-play-index` are `next`, `prev` and `goto`; the edits are `queue` commands. Indexes are 0-based in mpv and
// 1-based in the queue's commands.

import Foundation
import VideoPlaybackKit

extension MPVCommandSubmitter {
  /// `loadfile`: answered at once with the new entry's id, as mpv answers it before the file starts loading.
  func loadFile(_ path: String, _ options: MPVFileOptions, _ mode: MPVLoadMode, ticket: Ticket?) {
    add(
      [(path, EntryOptions(start: options.start, paused: options.paused, rate: options.speed))],
      stored: options.stored, mode: mode, ticket: ticket,
      answer: { [unowned self] ids in
        if let ticket {
          replies.reply(ticket, .success, data: .object([MPVMember("playlist_entry_id", .integer(ids[0]))]))
        }
      })
  }

  /// `loadlist`: the list file's entries, read as `vpk play --playlist` reads an m3u or pls list; a list that cannot be
  /// read (or names no files) is mpv's command error.
  func loadList(_ path: String, _ mode: MPVLoadMode, ticket: Ticket?) {
    guard let entries = try? PlaylistText.entries(ofFile: path), !entries.isEmpty else {
      if let ticket { replies.reply(ticket, .commandFailed) }
      return
    }
    // Each entry with the title the list gives it, as mpv's playlist shows it.
    add(
      entries.map { ($0.path, EntryOptions(title: $0.title)) }, stored: [:], mode: mode, ticket: ticket,
      answer: { [unowned self] ids in
        // mpv 0.35 answers with the first entry's id and how many the list added.
        let data = MPVValue.object([
          MPVMember("playlist_entry_id", .integer(ids[0])), MPVMember("num_entries", .integer(ids.count)),
        ])
        if let ticket { replies.reply(ticket, .success, data: data) }
      })
  }

  /// Adds `entries` (each path with its title and what its file opens with) to the queue as `mode` says, answering
  /// with their ids (known ahead: the queue numbers entries in the order they are added), and plays the first when
  /// the mode says so.
  private func add(
    _ entries: [(path: String, options: EntryOptions)], stored: [MPVProperty: MPVValue], mode: MPVLoadMode,
    ticket: Ticket?, answer: ([Int]) -> Void
  ) {
    let ids = mirror.reserveEntryIDs(entries.count)
    let listing = mirror.readings.queue ?? QueueListing(entries: [], current: nil)
    let count = listing.entries.count + mirror.entriesAddedUntold
    var firstNumber: Int
    var slot: QueueSlot
    var plays: Bool
    switch mode {
    case .replace:
      (firstNumber, slot, plays) = (1, .end, true)
    case .add(.end, let play):
      (firstNumber, slot, plays) = (count + 1, .end, play && !mirror.hasFile)
    case .add(.afterCurrent, let play):
      let number = (listing.current ?? 0) + 1
      (firstNumber, slot, plays) = (number, .afterCurrent, play && !mirror.hasFile)
    case .add(.index(let index), let play):
      // A negative index, or one past the end, appends, as mpv's `insert-at` does.
      let number = (0...count).contains(index) ? index + 1 : count + 1
      (firstNumber, slot, plays) = (number, .number(number), play && !mirror.hasFile)
    }
    answer(ids)
    // The entry that plays is known before the queue lists it: its observers hear of the playlist after its
    // `start-file`.
    if plays { mirror.entryWillStart(ids[0]) }
    if mode == .replace { commands.submit(.queue(.clear), .listing) }
    for (offset, entry) in entries.enumerated() {
      let at: QueueSlot = offset == 0 || slot == .end ? slot : .number(firstNumber + offset)
      mirror.entryAdded()
      commands.submit(.queue(.insert(entry.path, at, entry.options)), .added)
    }
    guard plays else { return }
    // The file's own stored values (`volume=50` …) are set as it starts loading (`loading`), for the `goto` that
    // loads it.
    sharedOptions.register(stored, for: commands.nextSender)
    commands.submit(.goto(firstNumber), .load(ids[0]))
  }

  /// `playlist-play-index`: `goto`; `current` plays the current entry again; `none` (and an index with no entry)
  /// stops playback, as mpv's does.
  func playIndex(_ index: MPVPlaylistIndex, ticket: Ticket?, withData: Bool = true) {
    let listing = mirror.readings.queue
    let number: Int? =
      switch index {
      case .index(let index): listing.map { (0..<$0.entries.count).contains(index) } == false ? nil : index + 1
      case .current: listing?.current
      case .none: nil
      }
    guard let number else {
      if mirror.hasFile {
        sharedOptions.keepPlaylistStop = commands.nextSender
        commands.submit(.close, .silent)
      }
      if let ticket { replies.reply(ticket, .success, data: withData ? .null : nil) }
      return
    }
    commands.submit(.goto(number), .playlistGo(ticket, force: true, withData: withData))
  }

  /// The edits: `playlist-clear` keeps the current entry, as mpv's does; `playlist-remove` of the entry playing
  /// plays the next one first (or stops); `playlist-move A B` puts A where B is.
  func editPlaylist(_ command: MPVCommand, ticket: Ticket?) {
    let owed: Pending = ticket.map { .reply($0, withData: true) } ?? .silent
    let listing = mirror.readings.queue ?? QueueListing(entries: [], current: nil)
    let playing = mirror.hasFile ? listing.current : nil
    switch command {
    case .playlistClear:
      // Every entry but the one playing, from the last.
      let numbers = listing.entries.indices.map { $0 + 1 }.filter { $0 != playing }.reversed()
      guard !numbers.isEmpty else {
        if let ticket { replies.reply(ticket, .success, data: .null) }
        return
      }
      for (offset, number) in numbers.enumerated() {
        commands.submit(.queue(.remove(number)), offset == numbers.count - 1 ? owed : .listing)
      }
    case .playlistRemove(let index):
      var number: Int?
      switch index {
      case .index(let index): number = index + 1
      case .current, .none: number = listing.current
      }
      guard let number, (1...max(1, listing.entries.count)).contains(number), !listing.entries.isEmpty else {
        if let ticket { replies.reply(ticket, .commandFailed) }
        return
      }
      if number == playing {
        // mpv stops the entry and plays the next one, or stops when there is none.
        if number < listing.entries.count {
          commands.submit(.next, .silent)
        } else {
          commands.submit(.close, .silent)
        }
      }
      commands.submit(.queue(.remove(number)), owed)
    case .playlistMove(let from, let to):
      let count = listing.entries.count
      guard (0..<count).contains(from) else {
        if let ticket { replies.reply(ticket, .commandFailed) }
        return
      }
      // mpv puts the entry in the place of entry `to` (the end past the last): its index once moved is one less
      // when it moved down.
      let target = to >= count || to < 0 ? count - 1 : (from < to ? to - 1 : to)
      guard target != from else {
        if let ticket { replies.reply(ticket, .success, data: .null) }
        return
      }
      commands.submit(.queue(.move(from + 1, target + 1)), owed)
    case .playlistShuffle: commands.submit(.queue(.shuffle), owed)
    case .playlistUnshuffle: commands.submit(.queue(.unshuffle), owed)
    default: break
    }
  }

  /// A `next`, `prev` or `goto` found no entry to go to: mpv's command error, or (`force`) playback stops.
  func playlistGoFailed(_ error: PlaybackError, ticket: Ticket?, force: Bool, withData: Bool) {
    let noEntry = [.queueEnd, .queueEmpty, .noSuchEntry].contains(error.code)
    guard noEntry, force else {
      if let ticket { replies.reply(ticket, withData ? .commandFailed : .propertyUnavailable) }
      return
    }
    if mirror.hasFile {
      sharedOptions.keepPlaylistStop = commands.nextSender
      commands.submit(.close, .silent)
    }
    if let ticket { replies.reply(ticket, .success, data: withData ? .null : nil) }
  }

  /// This client's `next`, `prev` or `goto` (`commandID`) starts its entry: answered now, before `start-file`, as mpv
  /// answers it; its file's failure to open is told as a `loadfile`'s is.
  func entryStarting(_ commandID: Int?) {
    guard let commandID, case .playlistGo(let ticket, _, let withData) = commands.pending[commandID] else { return }
    commands.replace(commandID, with: .load(nil))
    if let ticket { replies.reply(ticket, .success, data: withData ? .null : nil) }
  }

  /// The queue as this client's `queue` command `commandID` (nil: another's) left it: into the readings, and the
  /// command answered.
  func queueChanged(_ listing: QueueListing, _ commandID: Int?) {
    let owed = commands.take(commandID)
    if case .added = owed {
      mirror.queueChanged(listing, added: true)
    } else {
      mirror.queueChanged(listing, added: false)
    }
    if case .reply(let ticket, let withData) = owed { replies.reply(ticket, .success, data: withData ? .null : nil) }
  }
}

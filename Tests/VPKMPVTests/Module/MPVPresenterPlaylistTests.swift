import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The mpv dialect's playlist as the session's queue (MPVCommandSubmitter+Playlist): what each command submits, and
/// the playlist's properties read from the queue's listings.
@Suite("mpv dialect presenter: the playlist")
@MainActor
struct MPVPresenterPlaylistTests {
  /// A client whose session's queue holds `paths`, the entry numbered `current` (from 1) loaded.
  private func client(_ paths: [String], current: Int?) -> MPVHarness {
    let harness = MPVHarness()
    harness.send(#"{"command": ["client_name"]}"#)
    let listing = QueueListing(
      entries: paths.enumerated().map { QueueListing.Entry(id: $0.offset + 1, path: $0.element) }, current: current)
    harness.presenter.present(.queue(listing), origin: harness.interactor.origin(1))
    if let current {
      harness.presenter.present(
        .entry(EntryStarted(index: current, count: paths.count, id: current, path: paths[current - 1])),
        origin: nil)
      harness.presenter.present(.loading(path: paths[current - 1], paused: true), origin: nil)
      harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    }
    harness.view.lines.removeAll()
    return harness
  }

  private func submitted(_ harness: MPVHarness, since count: Int) -> [Command] {
    harness.interactor.calls.dropFirst(count).compactMap { if case .submit(let command) = $0 { command } else { nil } }
      .filter { $0 != .status }
  }

  @Test("loadfile append adds an entry at the end and answers its id at once; append-play in idle plays it")
  func appendAndAppendPlay() {
    // Given an idle client whose queue holds one entry
    let harness = client(["/a.mp4"], current: nil)
    let before = harness.interactor.calls.count
    // When it appends a file with options of its own, then another with append-play
    harness.send(#"{"command": ["loadfile", "/b.mp4", "append", "start=5,pause=yes,speed=2"], "request_id": 1}"#)
    harness.send(#"{"command": ["loadfile", "/c.mp4", "append-play"], "request_id": 2}"#)
    // Then the first is a queue insert with its options, answered with the next id; the second is inserted and played
    #expect(
      submitted(harness, since: before) == [
        .queue(.insert("/b.mp4", .end, EntryOptions(start: .time(.seconds(5)), paused: true, rate: 2))),
        .queue(.insert("/c.mp4", .end, EntryOptions())), .goto(3),
      ])
    #expect(
      harness.view.lines == [
        #"{"data":{"playlist_entry_id":2},"request_id":1,"error":"success"}"#,
        #"{"data":{"playlist_entry_id":3},"request_id":2,"error":"success"}"#,
      ])
  }

  @Test("insert-next goes after the current entry, insert-at at its index (past the end: last); replace plays alone")
  func insertsAndReplace() {
    // Given a client playing the second of three entries
    let harness = client(["/a.mp4", "/b.mp4", "/c.mp4"], current: 2)
    let before = harness.interactor.calls.count
    // When it inserts next, at 0 with -play (something plays: it does not start), past the end, then replaces
    for words in [
      #"["loadfile", "/d.mp4", "insert-next"]"#, #"["loadfile", "/e.mp4", "insert-at-play", 0]"#,
      #"["loadfile", "/f.mp4", "insert-at", 9]"#, #"["loadfile", "/g.mp4", "replace", "pause=yes"]"#,
    ] {
      harness.send(#"{"command": \#(words)}"#)
    }
    // Then each is the queue's insert at its place (numbers from 1; the two before it not listed yet count), and the
    // replace empties the queue, adds its file with its own pause and plays it
    #expect(
      submitted(harness, since: before) == [
        .queue(.insert("/d.mp4", .afterCurrent, EntryOptions())), .queue(.insert("/e.mp4", .number(1), EntryOptions())),
        .queue(.insert("/f.mp4", .number(6), EntryOptions())), .queue(.clear),
        .queue(.insert("/g.mp4", .end, EntryOptions(paused: true))), .goto(1),
      ])
    // And each is answered at once with the id the queue gives it
    #expect(
      harness.view.lines.map { $0.contains("playlist_entry_id") } == [true, true, true, true]
        && harness.view.lines.last == #"{"data":{"playlist_entry_id":7},"request_id":0,"error":"success"}"#)
  }

  @Test("the playlist's properties are the queue's: entries, count, and the position of the entry loaded")
  func propertiesFromTheQueue() {
    // Given a client whose queue holds three entries, the second loaded
    let harness = client(["/a.mp4", "/b.mp4", "/c.mp4"], current: 2)
    // When the playlist is read
    harness.send(#"{"command": ["get_property", "playlist"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.send(#"{"command": ["get_property", "playlist-pos-1"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.send(#"{"command": ["get_property", "playlist/count"], "request_id": 3}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    // Then it lists the entries with their ids, the loaded one current and playing
    #expect(
      harness.view.lines == [
        #"{"data":[{"filename":"/a.mp4","id":1},{"filename":"/b.mp4","current":true,"playing":true,"id":2},"#
          + #"{"filename":"/c.mp4","id":3}],"request_id":1,"error":"success"}"#,
        #"{"data":2,"request_id":2,"error":"success"}"#, #"{"data":3,"request_id":3,"error":"success"}"#,
      ])
  }

  @Test("an entry's title in the playlist and media-title is the one its list gave, not its file's tags'")
  func titlesFromTheList() {
    // Given a client whose queue holds two entries, the first titled by its list, the second by its file's tags only
    let harness = MPVHarness()
    harness.send(#"{"command": ["client_name"]}"#)
    let listing = QueueListing(
      entries: [
        QueueListing.Entry(id: 1, path: "/a.mp4", title: "Pilot", listTitle: "Pilot"),
        QueueListing.Entry(id: 2, path: "/b.mp4", title: "A tag"),
      ], current: 1)
    harness.presenter.present(.queue(listing), origin: harness.interactor.origin(1))
    harness.presenter.present(.entry(EntryStarted(index: 1, count: 2, id: 1, path: "/a.mp4")), origin: nil)
    harness.presenter.present(.loading(path: "/a.mp4", paused: true), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    harness.view.lines.removeAll()
    // When the playlist and the media title are read
    harness.send(#"{"command": ["get_property", "playlist"], "request_id": 1}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    harness.send(#"{"command": ["get_property", "media-title"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    // Then the first entry has its list's title, in mpv's place for it, and the second none; the file loaded, which
    // has no title tag, is named by its list's title
    #expect(
      harness.view.lines == [
        #"{"data":[{"filename":"/a.mp4","current":true,"playing":true,"title":"Pilot","id":1},"#
          + #"{"filename":"/b.mp4","id":2}],"request_id":1,"error":"success"}"#,
        #"{"data":"Pilot","request_id":2,"error":"success"}"#,
      ])
  }

  @Test("a client that read the queue before the session's one file started numbers that file as the queue does")
  func theSessionsFileListedBeforeItStarts() {
    // Given a client that connected as a session of one file began: it read the queue (the file, not started yet)
    let harness = MPVHarness()
    harness.send(#"{"command": ["client_name"]}"#)
    harness.presenter.present(
      .queue(QueueListing(entries: [QueueListing.Entry(id: 1, path: "/a.mp4")], current: nil)),
      origin: harness.interactor.origin(1))
    harness.view.lines.removeAll()
    // When the file starts loading, with no entry said (the session plays no list), and then another is loadfile'd
    harness.presenter.present(.loading(path: "/a.mp4", paused: true), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    harness.send(#"{"command": ["loadfile", "/b.mp4", "append"], "request_id": 2}"#)
    // Then the file is entry 1, as the queue numbered it, and the next entry 2
    #expect(harness.view.lines.first == #"{"event":"start-file","playlist_entry_id":1}"#, "\(harness.view.lines)")
    #expect(
      harness.view.lines.last == #"{"data":{"playlist_entry_id":2},"request_id":2,"error":"success"}"#,
      "\(harness.view.lines)")
  }

  @Test("an entry that is a list ends the file before it, starts and ends with redirect, and its first file starts")
  func aListEntryIsARedirect() {
    // Given a client playing the first of two entries, the second a list file
    let harness = client(["/a.mp4", "/l.m3u"], current: 1)
    harness.presenter.present(.entry(EntryStarted(index: 1, count: 2, id: 1, path: "/a.mp4")), origin: nil)
    harness.presenter.present(.loading(path: "/a.mp4", paused: false), origin: nil)
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    harness.view.lines.removeAll()
    // When the first ends, and the list is read into two files that take its place, the first of them starting
    harness.presenter.present(
      .ended(EndReached(position: MediaTime(seconds: 10), duration: MediaTime(seconds: 10), loops: 1)), origin: nil)
    harness.presenter.present(
      .expanded(list: EntryStarted(index: 2, count: 2, id: 2, path: "/l.m3u"), firstID: 3, count: 2), origin: nil)
    harness.presenter.present(.entry(EntryStarted(index: 2, count: 3, id: 3, path: "/x.mp4")), origin: nil)
    harness.presenter.present(.loading(path: "/x.mp4", paused: false), origin: nil)
    // Then the events are mpv's: the file's end, the list's start and redirect, the first file's start
    let events = harness.view.lines.filter {
      $0.hasPrefix(#"{"event":"start-file""#) || $0.hasPrefix(#"{"event":"end-file""#)
    }
    #expect(
      events == [
        #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#,
        #"{"event":"end-file","reason":"redirect","playlist_entry_id":2,"playlist_insert_id":3,"playlist_insert_num_entries":2}"#,
        #"{"event":"start-file","playlist_entry_id":3}"#,
      ], "\(harness.view.lines)")
  }

  @Test("playlist-next is answered as its entry starts; at the end, weak is refused and force stops playback")
  func nextAndItsEnd() {
    // Given a client playing the first of two entries
    let harness = client(["/a.mp4", "/b.mp4"], current: 1)
    // When it asks for the next, and the entry starts
    harness.send(#"{"command": ["playlist-next"], "request_id": 1}"#)
    #expect(harness.interactor.calls.last == .submit(.next))
    let next = harness.lastOrigin
    #expect(harness.view.lines.isEmpty)
    harness.presenter.present(
      .entry(EntryStarted(index: 2, count: 2, id: 2, path: "/b.mp4")), origin: next)
    harness.presenter.present(.loading(path: "/b.mp4", paused: true), origin: next)
    // Then the reply comes before the end of the first file and the start of the second, which has its entry's id
    #expect(
      harness.view.lines == [
        #"{"data":null,"request_id":1,"error":"success"}"#,
        #"{"event":"end-file","reason":"stop","playlist_entry_id":1}"#,
        #"{"event":"start-file","playlist_entry_id":2}"#,
      ])
    harness.presenter.present(.ready(harness.info, position: .zero), origin: next)
    // When it asks for the next at the last entry, weak then force
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["playlist-next"], "request_id": 2}"#)
    harness.presenter.present(.error(PlaybackError(.queueEnd, "no entry after")), origin: harness.lastOrigin)
    let before = harness.interactor.calls.count
    harness.send(#"{"command": ["playlist-next", "force"], "request_id": 3}"#)
    harness.presenter.present(.error(PlaybackError(.queueEnd, "no entry after")), origin: harness.lastOrigin)
    // Then the first is mpv's command error; the second closes the file, keeping the playlist, and succeeds
    #expect(
      harness.view.lines == [
        #"{"request_id":2,"error":"error running command"}"#, #"{"data":null,"request_id":3,"error":"success"}"#,
      ])
    #expect(submitted(harness, since: before) == [.next, .close])
  }

  @Test(
    "the edits: move to mpv's target place, remove of the entry playing goes on first, clear keeps it, stop empties")
  func edits() {
    // Given a client playing the second of three entries
    let harness = client(["/a.mp4", "/b.mp4", "/c.mp4"], current: 2)
    let before = harness.interactor.calls.count
    // When it moves entry 0 to the place of entry 2, then past the end, removes the entry playing, clears, and stops
    for words in [
      #"["playlist-move", 0, 2]"#, #"["playlist-move", 0, 9]"#, #"["playlist-remove", "current"]"#,
      #"["playlist-clear"]"#, #"["playlist-shuffle"]"#, #"["playlist-unshuffle"]"#, #"["stop"]"#,
    ] {
      harness.send(#"{"command": \#(words)}"#)
    }
    // Then each is the queue's edit (numbers from 1, as the queue was listed last)
    #expect(
      submitted(harness, since: before) == [
        .queue(.move(1, 2)), .queue(.move(1, 3)), .next, .queue(.remove(2)), .queue(.remove(3)), .queue(.remove(1)),
        .queue(.shuffle), .queue(.unshuffle), .queue(.clear), .close,
      ])
  }

  @Test("playlist-play-index plays the entry; none, or an index with no entry, stops playback")
  func playIndex() {
    // Given a client playing the first of two entries
    let harness = client(["/a.mp4", "/b.mp4"], current: 1)
    let before = harness.interactor.calls.count
    // When it plays index 1, the current one again, then none, then an index with no entry
    for argument in ["1", #""current""#, #""none""#, "7"] {
      harness.send(#"{"command": ["playlist-play-index", \#(argument)]}"#)
    }
    // Then these are goto 2, goto 1, and a close for each of the others
    #expect(submitted(harness, since: before) == [.goto(2), .goto(1), .close, .close])
  }

  @Test("loop-playlist set loops the queue; its entries go on to the next at their end, end-file eof")
  func loopPlaylistAndTheEnd() {
    // Given a client playing the last of two entries
    let harness = client(["/a.mp4", "/b.mp4"], current: 2)
    let before = harness.interactor.calls.count
    // When loop-playlist is set
    harness.send(#"{"command": ["set_property", "loop-playlist", "inf"], "request_id": 1}"#)
    // Then it is answered at once and the queue loops
    #expect(harness.view.lines.first == #"{"request_id":1,"error":"success"}"#)
    #expect(submitted(harness, since: before) == [.queue(.loop(true))])
    // When the entry plays to its end and the queue goes on to the first
    harness.view.lines.removeAll()
    harness.presenter.present(
      .ended(EndReached(position: MediaTime(seconds: 4), duration: nil, loops: 0, direction: .forward, action: .idle)),
      origin: nil)
    harness.presenter.present(.entry(EntryStarted(index: 1, count: 2, id: 1, path: "/a.mp4")), origin: nil)
    harness.presenter.present(.loading(path: "/a.mp4", paused: true), origin: nil)
    // Then its end-file says eof, and the next file is its entry
    #expect(
      harness.view.lines.filter { $0.contains("-file") } == [
        #"{"event":"end-file","reason":"eof","playlist_entry_id":2}"#, #"{"event":"start-file","playlist_entry_id":1}"#,
      ])
  }
}

import Foundation
import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The properties clients read at once: the stored ones, the playlist of one, the file's details, and what an observer
/// is told first.
extension MPVPresenterTests {
  /// The reply to `get_property` of `name` (the `status` it asks for reports `status`), as a value.
  private func read(_ harness: MPVHarness, _ name: String, status: PlaybackStatus? = nil, asString: Bool = false)
    -> MPVValue?
  {
    let before = harness.interactor.lastID
    harness.view.lines.removeAll()
    harness.send(#"{"command": ["get_property\#(asString ? "_string" : "")", "\#(name)"]}"#)
    if harness.interactor.lastID != before, harness.interactor.calls.last == .submit(.status) {
      harness.presenter.present(.status(status ?? harness.status()), origin: harness.lastOrigin)
    }
    return harness.view.lines.last.flatMap { MPVJSONReader.read($0, maxDepth: 8) }
  }

  /// `read`'s data as the reply writes it; nil when the read was not a success.
  private func value(_ harness: MPVHarness, _ name: String, status: PlaybackStatus? = nil) -> String? {
    _ = read(harness, name, status: status)
    let (head, tail) = (#"{"data":"#, #","request_id":0,"error":"success"}"#)
    guard let line = harness.view.lines.last, line.hasPrefix(head), line.hasSuffix(tail) else { return nil }
    return String(line.dropFirst(head.count).dropLast(tail.count))
  }

  /// Sends `command` and, when it asks for a `status` first (`add`, `cycle`), reports one.
  private func run(_ harness: MPVHarness, _ command: String) -> String? {
    let before = harness.interactor.lastID
    harness.view.lines.removeAll()
    harness.send(command)
    if harness.interactor.lastID != before, harness.interactor.calls.last == .submit(.status) {
      harness.presenter.present(.status(harness.status()), origin: harness.lastOrigin)
    }
    return harness.view.lines.first
  }

  private static let idleStatus = PlaybackStatus(
    state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)

  @Test("volume, mute, loop-file, fullscreen, sub-visibility: mpv's defaults, set, cycled and added to as mpv does")
  func storedProperties() {
    // Given a client with nothing loaded
    let harness = MPVHarness(sharedOptions: MPVSharedOptions())
    // Then the stored properties read mpv's defaults
    let defaults: [(String, MPVValue)] = [
      ("volume", .number(100)), ("mute", .bool(false)), ("loop-file", .bool(false)), ("fullscreen", .bool(false)),
      ("sub-visibility", .bool(true)),
    ]
    for (name, expected) in defaults {
      #expect(value(harness, name, status: Self.idleStatus) == expected.json, "\(name)")
    }
    // When each is set, cycled or added to, the reply is at once and the value is as mpv keeps it
    let steps: [(String, String, MPVValue)] = [
      (#"{"command": ["set_property", "volume", 55], "request_id": 1}"#, "volume", .number(55)),
      (#"{"command": ["set_property_string", "volume", "60"], "request_id": 1}"#, "volume", .number(60)),
      (#"{"command": ["set_property", "volume", 200], "request_id": 1}"#, "volume", .number(200)),
      (#"{"command": ["add", "volume", 1], "request_id": 1}"#, "volume", .number(130)),
      (#"{"command": ["add", "volume", -500], "request_id": 1}"#, "volume", .number(0)),
      (#"{"command": ["cycle", "mute"], "request_id": 1}"#, "mute", .bool(true)),
      (#"{"command": ["set_property", "mute", "no"], "request_id": 1}"#, "mute", .bool(false)),
      (#"{"command": ["set_property", "loop-file", "inf"], "request_id": 1}"#, "loop-file", .string("inf")),
      (#"{"command": ["set_property", "loop-file", 3], "request_id": 1}"#, "loop-file", .integer(3)),
      (#"{"command": ["add", "loop-file", 2], "request_id": 1}"#, "loop-file", .integer(5)),
      (#"{"command": ["set_property", "loop-file", "no"], "request_id": 1}"#, "loop-file", .bool(false)),
      (#"{"command": ["cycle", "loop-file"], "request_id": 1}"#, "loop-file", .integer(1)),
      (#"{"command": ["set_property", "loop-file", true], "request_id": 1}"#, "loop-file", .string("inf")),
      (#"{"command": ["set_property", "loop-file", 0], "request_id": 1}"#, "loop-file", .bool(false)),
      (#"{"command": ["cycle", "fullscreen"], "request_id": 1}"#, "fullscreen", .bool(true)),
      (#"{"command": ["set_property", "sub-visibility", false], "request_id": 1}"#, "sub-visibility", .bool(false)),
    ]
    for (command, name, expected) in steps {
      let reply = run(harness, command)
      #expect(reply?.contains(#""request_id":1,"error":"success""#) == true, "\(command): \(reply ?? "nothing")")
      #expect(value(harness, name, status: Self.idleStatus) == expected.json, "\(command)")
    }
    // And nothing of them reaches the session: only the statuses `add`, `cycle` and the reads asked for (and the
    // session's file, asked for once)
    #expect(
      harness.interactor.calls.allSatisfy {
        $0 == .submit(.status) || $0 == .submit(.info) || $0 == .submit(.queue(.list))
      })
    // And values mpv refuses are its format error
    for bad in [
      #"["set_property", "volume", 1001]"#, #"["set_property", "loop-file", -1]"#,
      #"["set_property", "loop-file", "bogus"]"#, #"["set_property", "mute", 3]"#,
    ] {
      #expect(
        run(harness, #"{"command": \#(bad), "request_id": 2}"#)
          == #"{"request_id":2,"error":"unsupported format for accessing property"}"#, "\(bad)")
    }
    // And the string forms are mpv's
    #expect(read(harness, "volume", status: Self.idleStatus, asString: true)?["data"] == .string("0.000000"))
    #expect(read(harness, "fullscreen", status: Self.idleStatus, asString: true)?["data"] == .string("yes"))
  }

  @Test("the stored properties are the session's: a value one client sets is what another reads and observes")
  func storedPropertiesAreShared() {
    // Given two clients of one session, the second observing volume
    let shared = MPVSharedOptions()
    let setter = MPVHarness(sharedOptions: shared)
    let observer = MPVHarness(sharedOptions: shared)
    observer.send(#"{"command": ["observe_property", 7, "volume"], "request_id": 1}"#)
    observer.presenter.present(.status(Self.idleStatus), origin: observer.lastOrigin)
    // When the first sets it
    setter.send(#"{"command": ["set_property", "volume", 42], "request_id": 1}"#)
    // Then the observer was told the value at once, then the change
    #expect(
      observer.view.lines == [
        #"{"request_id":1,"error":"success"}"#, #"{"event":"property-change","id":7,"name":"volume","data":100.0}"#,
        #"{"event":"property-change","id":7,"name":"volume","data":42.0}"#,
      ])
    // And the setter was answered before its own observers would hear of it
    #expect(setter.view.lines == [#"{"request_id":1,"error":"success"}"#])
    // And a client that connects later reads it too
    let later = MPVHarness(sharedOptions: shared)
    #expect(value(later, "volume", status: Self.idleStatus) == "42.0")
  }

  @Test(
    "a loadfile's own speed and stored values hold for its file: told after start-file in one round, to every client; those they replaced come back after idle"
  )
  func fileOwnOptions() {
    // Given two clients of one session (its status board gives the session's rate), the second observing speed,
    // volume and mute
    let shared = MPVSharedOptions()
    let board = PlaybackStatusBoard()
    let loader = MPVHarness(statusBoard: board, sharedOptions: shared)
    let observer = MPVHarness(statusBoard: board, sharedOptions: shared)
    observer.observe(["volume", "speed", "mute"], state: .idle)
    // When the first loads a file with values of its own
    loader.send(#"{"command": ["loadfile", "/media/b.mp4", "replace", "mute=yes,speed=2,volume=50"], "request_id": 1}"#)
    // Then the speed goes to the interactor with the file, as a rate for it only
    #expect(loader.interactor.calls.suffix(3) == MPVHarness.replacing("/media/b.mp4", EntryOptions(rate: 2)))
    // When its file starts loading at that rate, told to both clients
    board.publish(PlaybackStatusBoard.Published(rate: 2))
    let loading = SessionEvent.loading(path: "/media/b.mp4", paused: true)
    for client in [observer, loader] { client.presenter.present(loading, origin: loader.lastOrigin) }
    // Then the observer is told the values after start-file, in one round, in its observers' order
    #expect(
      observer.view.lines == [
        #"{"event":"start-file","playlist_entry_id":1}"#,
        #"{"event":"property-change","id":1,"name":"volume","data":50.0}"#,
        #"{"event":"property-change","id":2,"name":"speed","data":2.0}"#,
        #"{"event":"property-change","id":3,"name":"mute","data":true}"#,
      ])
    // And the loader, which was told the same loading after the observer, reads the file's own values too
    #expect(value(loader, "volume", status: Self.idleStatus) == "50.0")
    // When the file ends into idle, the session's rate back at 1 (a `rate` follows, for the other views)
    observer.view.lines.removeAll()
    board.publish(PlaybackStatusBoard.Published(rate: 1))
    for client in [loader, observer] { client.presenter.present(.closed(nextPaused: true), origin: nil) }
    for client in [loader, observer] { client.presenter.present(.rate(1), origin: nil) }
    // Then the values the file's own replaced come back after idle, in one round, in the observers' order
    #expect(
      observer.view.lines == [
        #"{"event":"end-file","reason":"eof","playlist_entry_id":1}"#, #"{"event":"idle"}"#,
        #"{"event":"property-change","id":1,"name":"volume","data":100.0}"#,
        #"{"event":"property-change","id":2,"name":"speed","data":1.0}"#,
        #"{"event":"property-change","id":3,"name":"mute","data":false}"#,
      ])
  }

  @Test("a loadfile's own stored values come back when its file fails to open, and one that never loads is forgotten")
  func fileOwnOptionsOnFailure() {
    // Given a client observing volume, and the session's volume at 80
    let shared = MPVSharedOptions()
    let harness = MPVHarness(sharedOptions: shared)
    harness.send(#"{"command": ["set_property", "volume", 80]}"#)
    harness.observe(["volume"], state: .idle)
    // When a file with a volume of its own starts loading and cannot be opened
    harness.send(#"{"command": ["loadfile", "/media/none.mp4", "replace", "volume=10"]}"#)
    let origin = harness.lastOrigin
    harness.presenter.present(.loading(path: "/media/none.mp4", paused: true), origin: origin)
    harness.presenter.present(.error(PlaybackError(.fileNotFound, "no such file")), origin: origin)
    // Then its volume was told after start-file, and the one it replaced after idle
    #expect(
      harness.view.lines == [
        #"{"data":{"playlist_entry_id":1},"request_id":0,"error":"success"}"#,
        #"{"event":"start-file","playlist_entry_id":1}"#,
        #"{"event":"property-change","id":1,"name":"volume","data":10.0}"#,
        #"{"event":"end-file","reason":"error","playlist_entry_id":1,"file_error":"loading failed"}"#,
        #"{"event":"idle"}"#, #"{"event":"property-change","id":1,"name":"volume","data":80.0}"#,
      ])
    // When a loadfile with a volume of its own is refused before its file starts loading, and then a file without
    // one loads
    harness.send(#"{"command": ["loadfile", "/media/b.mp4", "replace", "volume=20"]}"#)
    harness.presenter.present(.error(PlaybackError(.notMedia, "not a media file")), origin: harness.lastOrigin)
    harness.send(#"{"command": ["loadfile", "/media/c.mp4"]}"#)
    harness.presenter.present(.loading(path: "/media/c.mp4", paused: true), origin: harness.lastOrigin)
    // Then that file keeps the session's volume
    #expect(value(harness, "volume", status: Self.idleStatus) == "80.0")
  }

  @Test(
    "the shared options hear the session themselves: a file's own values come back though its client has left; the other clients are told a failure to open"
  )
  func fileOwnOptionsWithTheClientGone() {
    // Given a client that loads a file with a volume of its own, and the shared options told the session's events
    let shared = MPVSharedOptions()
    var loader: MPVHarness? = MPVHarness(sharedOptions: shared)
    loader?.send(#"{"command": ["loadfile", "/media/b.mp4", "replace", "volume=50"]}"#)
    let origin = loader?.lastOrigin
    shared.present(.loading(path: "/media/b.mp4", paused: true), origin: origin)
    #expect(shared.values.value(of: .volume) == .number(50))
    // When the client leaves, and the file then ends into idle
    loader = nil
    shared.present(.closed(nextPaused: true), origin: nil)
    // Then the volume it replaced is back, for the client that connects next
    let later = MPVHarness(sharedOptions: shared)
    #expect(value(later, "volume", status: Self.idleStatus) == "100.0")
    // And when a file of a later client fails to open with that client gone, the idle that follows gives its values
    // back, and the clients still there are told
    later.observe(["volume"], state: .idle)
    var failing: MPVHarness? = MPVHarness(sharedOptions: shared)
    failing?.send(#"{"command": ["loadfile", "/media/none.mp4", "replace", "volume=10"]}"#)
    // (each harness's interactor numbers commands from 1: the session's id for this one is another)
    let origin2 = CommandOrigin(id: 99, sender: failing?.lastOrigin.sender)
    let loading = SessionEvent.loading(path: "/media/none.mp4", paused: true)
    shared.present(loading, origin: origin2)
    #expect(shared.values.value(of: .volume) == .number(10))
    later.presenter.present(loading, origin: origin2)
    #expect(later.view.lines.last == #"{"event":"property-change","id":1,"name":"volume","data":10.0}"#)
    failing = nil
    later.view.lines.removeAll()
    let idle = SessionEvent.state(.idle, position: .zero, duration: nil)
    shared.present(idle, origin: nil)
    later.presenter.present(idle, origin: nil)
    #expect(shared.values.value(of: .volume) == .number(100))
    // (the client still there is told the failure as mpv tells every client, then the volume back; the file is the
    // session's second, as mpv numbers it, though this client connected after the first)
    #expect(
      later.view.lines == [
        #"{"event":"end-file","reason":"error","playlist_entry_id":2,"file_error":"loading failed"}"#,
        #"{"event":"idle"}"#, #"{"event":"property-change","id":1,"name":"volume","data":100.0}"#,
      ])
  }

  @Test("the playlist of one: count, position and entry follow the file; working-directory is vpk's")
  func playlistProperties() {
    let harness = MPVHarness()
    // Given nothing loaded: an empty playlist
    let empty: [(String, MPVValue)] = [
      ("playlist-count", .integer(0)), ("playlist-pos", .integer(-1)), ("playlist-pos-1", .integer(-1)),
      ("playlist-current-pos", .integer(-1)), ("playlist-playing-pos", .integer(-1)), ("playlist", .array([])),
      ("working-directory", .string(FileManager.default.currentDirectoryPath)),
    ]
    for (name, expected) in empty { #expect(value(harness, name, status: Self.idleStatus) == expected.json, "\(name)") }
    // When a file loads, it is the playlist's one entry, numbered as start-file numbers it
    harness.presenter.present(.loading(path: "/media/clip.mp4", paused: true), origin: nil)
    let entry = MPVValue.array([
      .object([
        MPVMember("filename", .string("/media/clip.mp4")), MPVMember("current", .bool(true)),
        MPVMember("playing", .bool(true)), MPVMember("id", .integer(1)),
      ])
    ])
    let loading: [(String, MPVValue?)] = [
      ("playlist-count", .integer(1)), ("playlist-pos", .integer(0)), ("playlist-pos-1", .integer(1)),
      ("playlist-current-pos", .integer(0)), ("playlist-playing-pos", .integer(0)), ("playlist", entry),
      ("media-title", .string("clip.mp4")), ("filename/no-ext", .string("clip")),
      ("metadata", nil), ("file-size", nil),
    ]
    for (name, expected) in loading { #expect(value(harness, name) == expected?.json, "\(name) while loading") }
    // And once a stop closes it the playlist is empty again
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    harness.send(#"{"command": ["stop"]}"#)
    harness.presenter.present(.closed(nextPaused: true), origin: harness.lastOrigin)
    for (name, expected) in empty { #expect(value(harness, name, status: Self.idleStatus) == expected.json, "\(name)") }
    // And setting the playlist's position plays that entry of the queue (its number from 1)
    harness.send(#"{"command": ["set_property", "playlist-pos", 0], "request_id": 3}"#)
    #expect(harness.interactor.calls.last == .submit(.goto(1)))
  }

  @Test("the playlist keeps a file's entry after it ends, fails to open or is stopped with keep-playlist, as mpv's")
  func playlistKeepsItsEntry() {
    // Given two mpv clients of one session, the first playing a file
    let shared = MPVSharedOptions()
    let harness = MPVHarness(sharedOptions: shared)
    let other = MPVHarness(sharedOptions: shared)
    let both = [harness, other]
    for client in both { client.loaded() }
    let kept = MPVValue.array([
      .object([MPVMember("filename", .string("/media/clip.mp4")), MPVMember("id", .integer(1))])
    ])
    let keptEntry: [(String, MPVValue)] = [
      ("playlist-count", .integer(1)), ("playlist-pos", .integer(-1)), ("playlist-pos-1", .integer(-1)),
      ("playlist-current-pos", .integer(-1)), ("playlist-playing-pos", .integer(-1)), ("playlist", kept),
    ]
    // When the file plays to its end into idle (closed by no command)
    for client in both { client.presenter.present(.closed(nextPaused: false), origin: nil) }
    // Then each client's playlist keeps the entry, neither current nor playing
    for client in both {
      for (name, expected) in keptEntry {
        #expect(value(client, name, status: Self.idleStatus) == expected.json, "\(name) after the end")
      }
    }
    // When the first client stops with keep-playlist in idle, nothing is asked of the session
    let calls = harness.interactor.calls.count
    #expect(
      run(harness, #"{"command": ["stop", "keep-playlist"], "request_id": 1}"#)
        == #"{"data":null,"request_id":1,"error":"success"}"#)
    #expect(harness.interactor.calls.count == calls)
    // When it stops plainly, it is answered at once, only the queue is cleared, and every client's playlist is empty
    #expect(
      run(harness, #"{"command": ["stop"], "request_id": 2}"#) == #"{"data":null,"request_id":2,"error":"success"}"#)
    #expect(harness.interactor.calls.dropFirst(calls) == [.submit(.queue(.clear))])
    for client in both {
      #expect(value(client, "playlist-count", status: Self.idleStatus) == MPVValue.integer(0).json)
      #expect(value(client, "playlist", status: Self.idleStatus) == MPVValue.array([]).json)
    }
    // When a file it loads fails to open, the playlist keeps the failed file's entry (told to the other as idle)
    harness.send(#"{"command": ["loadfile", "/nope.mp4"]}"#)
    let load = harness.lastOrigin
    for client in both { client.presenter.present(.loading(path: "/nope.mp4", paused: false), origin: load) }
    harness.presenter.present(.error(PlaybackError(.fileNotFound, "no such file")), origin: load)
    other.presenter.present(.state(.idle, position: .zero, duration: nil), origin: nil)
    let failed = MPVValue.array([.object([MPVMember("filename", .string("/nope.mp4")), MPVMember("id", .integer(2))])])
    for client in both { #expect(value(client, "playlist", status: Self.idleStatus) == failed.json) }
    // When a file that opened is closed by the first client's stop keep-playlist, both keep its entry
    harness.send(#"{"command": ["loadfile", "/media/clip.mp4"]}"#)
    let reload = harness.lastOrigin
    for client in both {
      client.presenter.present(.loading(path: "/media/clip.mp4", paused: false), origin: reload)
      client.presenter.present(.ready(client.info, position: .zero), origin: reload)
    }
    harness.send(#"{"command": ["stop", "keep-playlist"]}"#)
    let stop = harness.lastOrigin
    for client in both { client.presenter.present(.closed(nextPaused: false), origin: stop) }
    let stopped = MPVValue.array([
      .object([MPVMember("filename", .string("/media/clip.mp4")), MPVMember("id", .integer(3))])
    ])
    for client in both {
      #expect(value(client, "playlist", status: Self.idleStatus) == stopped.json)
      #expect(value(client, "playlist-count", status: Self.idleStatus) == MPVValue.integer(1).json)
    }
  }

  @Test("a client that connects later numbers the files as the others do and sees the playlist's kept entry")
  func lateClientSeesThePlaylist() {
    // Given a session whose shared options heard two files load, the second fail to open
    let shared = MPVSharedOptions()
    let first = MPVHarness(sharedOptions: shared)
    shared.present(.loading(path: "/media/a.mp4", paused: true), origin: nil)
    shared.present(.ready(first.info, position: .zero), origin: nil)
    shared.present(.loading(path: "/media/none.mp4", paused: true), origin: nil)
    shared.present(.state(.idle, position: .zero, duration: nil), origin: nil)
    // When a client connects
    let late = MPVHarness(sharedOptions: shared)
    // Then it sees the failed file's entry, numbered 2, and its next file would be 3
    let kept = MPVValue.array([
      .object([MPVMember("filename", .string("/media/none.mp4")), MPVMember("id", .integer(2))])
    ])
    #expect(value(late, "playlist", status: Self.idleStatus) == kept.json)
    late.send(#"{"command": ["loadfile", "/media/c.mp4"], "request_id": 1}"#)
    #expect(late.view.lines.last == #"{"data":{"playlist_entry_id":3},"request_id":1,"error":"success"}"#)
    // And when the first client stops in idle, the late one's playlist is empty too
    #expect(run(first, #"{"command": ["stop"]}"#) == #"{"data":null,"request_id":0,"error":"success"}"#)
    #expect(value(late, "playlist-count", status: Self.idleStatus) == MPVValue.integer(0).json)
  }

  @Test(
    "a stop in idle clears the kept entry without telling the playlist's observers, who hear of it at the next file")
  func playlistClearedUntold() {
    // Given a client observing the playlist, whose file played to its end into idle
    let harness = MPVHarness()
    harness.loaded()
    harness.observe(["playlist-count", "playlist"], state: .playing)
    harness.presenter.present(.closed(nextPaused: false), origin: nil)
    harness.view.lines.removeAll()
    // When it stops in idle, and then changes a stored property
    harness.send(#"{"command": ["stop"], "request_id": 1}"#)
    harness.send(#"{"command": ["set_property", "volume", 50], "request_id": 2}"#)
    // Then it hears the replies and nothing of the playlist
    #expect(!harness.view.lines.contains { $0.contains("playlist") })
    // When the next file starts loading, the playlist is told, and the count (1 again) is not
    harness.view.lines.removeAll()
    harness.presenter.present(.loading(path: "/media/next.mp4", paused: false), origin: nil)
    #expect(harness.view.lines.contains { $0.contains(#""name":"playlist","data":[{"filename":"/media/next.mp4""#) })
    #expect(!harness.view.lines.contains { $0.contains(#""name":"playlist-count""#) })
  }

  /// A file as the engine describes it: tags, two chapters, a video stream shown at 16:9 and turned by its matrix,
  /// a stereo audio stream, a subtitle stream.
  private static let describedInfo: MediaInfo = {
    var info = MediaInfo(
      path: "/media/film.mkv", container: "matroska,webm", duration: MediaTime(seconds: 4), streamCount: 3,
      video: VideoStreamInfo(codec: "mpeg4", width: 352, height: 288, frameRate: 25, pixelFormat: "yuv420p"),
      audio: AudioStreamInfo(codec: "opus", sampleRate: 48000, channels: 2))
    info.details = MediaDescription(
      path: "/media/film.mkv", formatName: "matroska,webm", size: 123_456,
      tags: [MediaTag("title", "A film"), MediaTag("ARTIST", "Someone")],
      streams: [
        StreamDescription(
          index: 0, kind: .video, codec: "mpeg4", codecLongName: "MPEG-4 part 2", timeBase: MediaRational(1, 1000),
          disposition: ["default"], tags: [MediaTag("title", "Pattern")],
          video: VideoDescription(
            width: 352, height: 288, sampleAspectRatio: MediaRational(16, 11), rotation: -90,
            averageFrameRate: MediaRational(25, 1), pixelFormat: "yuv420p")),
        StreamDescription(
          index: 1, kind: .audio, codec: "opus", codecLongName: "Opus", timeBase: MediaRational(1, 1000),
          bitRate: 32000, disposition: ["default", "hearing_impaired"], tags: [MediaTag("language", "jpn")],
          audio: AudioDescription(sampleRate: 48000, channels: 2, channelLayout: "stereo", sampleFormat: "fltp")),
        StreamDescription(
          index: 2, kind: .subtitle, codec: "subrip", timeBase: MediaRational(1, 1000),
          tags: [MediaTag("language", "eng")]),
      ],
      chapters: [
        ChapterDescription(
          id: 1, timeBase: MediaRational(1, 1000), start: 0, end: 1500, tags: [MediaTag("title", "Opening")]),
        ChapterDescription(id: 2, timeBase: MediaRational(1, 1000), start: 1500, end: 4000),
      ])
    return info
  }()

  @Test("the file's details: title, tags, chapters, tracks, stream parameters, size and the time left, as mpv's")
  func fileDetails() throws {
    // Given a described file, paused at 2 s
    let harness = MPVHarness()
    harness.presenter.present(.loading(path: "/media/film.mkv", paused: true), origin: nil)
    harness.presenter.present(.ready(Self.describedInfo, position: MediaTime(seconds: 2)), origin: nil)
    // Then each property is mpv's value for it
    let expected: [(String, MPVValue?)] = [
      ("media-title", .string("A film")), ("filename/no-ext", .string("film")),
      ("metadata", .object([MPVMember("title", .string("A film")), MPVMember("ARTIST", .string("Someone"))])),
      ("chapters", .integer(2)), ("chapter", .integer(1)),
      (
        "chapter-list",
        .array([
          .object([MPVMember("title", .string("Opening")), MPVMember("time", .number(0))]),
          .object([MPVMember("time", .number(1.5))]),
        ])
      ),
      ("file-size", .integer(123_456)), ("time-remaining", .number(2)), ("core-idle", .bool(true)),
      ("seekable", .bool(true)), ("partially-seekable", .bool(false)),
      (
        "video-params",
        .object([
          MPVMember("pixelformat", .string("yuv420p")), MPVMember("w", .integer(352)), MPVMember("h", .integer(288)),
          MPVMember("dw", .integer(512)), MPVMember("dh", .integer(288)), MPVMember("aspect", .number(512.0 / 288)),
          MPVMember("par", .number(16.0 / 11)), MPVMember("rotate", .integer(90)),
        ])
      ),
      (
        "audio-params",
        .object([
          MPVMember("samplerate", .integer(48000)), MPVMember("channel-count", .integer(2)),
          MPVMember("channels", .string("stereo")), MPVMember("hr-channels", .string("stereo")),
          MPVMember("format", .string("floatp")),
        ])
      ),
    ]
    for (name, value) in expected { #expect(self.value(harness, name) == value?.json, "\(name)") }
    // And the chapter follows the position, the time left the speed
    #expect(value(harness, "chapter", status: harness.status(position: 1)) == "0")
    #expect(value(harness, "playtime-remaining", status: harness.status(position: 1, rate: 2)) == "1.5")
    #expect(value(harness, "core-idle", status: harness.status(.playing)) == "false")
    // And the track list holds the video and audio streams with mpv's fields, and the subtitle, not selected
    let tracks = try #require(value(harness, "track-list").flatMap { MPVJSONReader.read($0, maxDepth: 8) })
    guard case .array(let entries) = tracks else { return #expect(Bool(false), "not a list: \(tracks)") }
    #expect(entries.count == 3)
    #expect(entries.last?["type"] == .string("sub") && entries.last?["selected"] == .bool(false))
    #expect(entries.last?["lang"] == .string("eng") && entries.last?["decoder-desc"] == nil)
    let video = entries[0]
    #expect(video["id"] == .integer(1) && video["type"] == .string("video") && video["src-id"] == .integer(1))
    #expect(video["title"] == .string("Pattern") && video["lang"] == nil)
    #expect(video["selected"] == .bool(true) && video["default"] == .bool(true) && video["ff-index"] == .integer(0))
    #expect(video["codec"] == .string("mpeg4") && video["decoder-desc"] == .string("mpeg4 (MPEG-4 part 2)"))
    #expect(video["demux-w"] == .integer(352) && video["demux-h"] == .integer(288))
    #expect(video["demux-fps"]?.number == 25 && video["demux-par"] == .number(16.0 / 11))
    #expect(video["demux-rotation"] == .integer(90))
    let audio = entries[1]
    #expect(audio["id"] == .integer(1) && audio["type"] == .string("audio") && audio["src-id"] == .integer(2))
    #expect(audio["lang"] == .string("jpn") && audio["hearing-impaired"] == .bool(true))
    #expect(audio["demux-samplerate"] == .integer(48000) && audio["demux-channel-count"] == .integer(2))
    // (mpv reads Matroska with its own reader, which gives a track's channel count and no layout)
    #expect(audio["demux-channels"] == .string("unknown2") && audio["demux-bitrate"] == .integer(32000))
    #expect(audio["audio-channels"] == .integer(2) && audio["codec"] == .string("opus"))
  }

  @Test("a file without tags, chapters or audio: {} , 0, [] and unavailable, as mpv answers them")
  func fileWithoutDetails() {
    // Given a file the engine described by its video stream only
    let harness = MPVHarness()
    harness.loaded(position: 1)
    let expected: [(String, MPVValue?)] = [
      ("metadata", .object([])), ("chapters", .integer(0)), ("chapter", nil), ("chapter-list", .array([])),
      ("audio-params", nil), ("file-size", nil), ("media-title", .string("clip.mp4")),
      ("time-remaining", .number(2)),
    ]
    for (name, value) in expected { #expect(self.value(harness, name) == value?.json, "\(name)") }
    #expect(value(harness, "track-list")?.contains(#""type":"video""#) == true)
    // And with nothing loaded the file's properties are unavailable, and the lists empty
    harness.presenter.present(.closed(nextPaused: true), origin: nil)
    for name in [
      "media-title", "metadata", "chapters", "video-params", "audio-params", "time-remaining", "playtime-remaining",
      "filename/no-ext", "file-size", "seekable", "partially-seekable",
    ] {
      #expect(read(harness, name, status: Self.idleStatus)?["error"] == .string("property unavailable"), "\(name)")
    }
    #expect(value(harness, "track-list", status: Self.idleStatus) == "[]")
    #expect(value(harness, "core-idle", status: Self.idleStatus) == "true")
  }

  @Test("observing any property sends at once what a read gives: the value, or the change without data")
  func observersToldAtOnce() {
    for loaded in [false, true] {
      for property in MPVProperty.allCases {
        // Given a client with a file loaded, or none
        let harness = MPVHarness(sharedOptions: MPVSharedOptions())
        if loaded { harness.loaded(position: 1) }
        let status = loaded ? harness.status(position: 1) : Self.idleStatus
        let data = value(harness, property.rawValue, status: status)
        // When it observes the property
        harness.view.lines.removeAll()
        harness.send(#"{"command": ["observe_property", 5, "\#(property.rawValue)"], "request_id": 9}"#)
        harness.presenter.present(.status(status), origin: harness.lastOrigin)
        // Then the reply and a property-change with what the read gave follow at once
        let change =
          #"{"event":"property-change","id":5,"name":"\#(property.rawValue)""# + (data.map { #","data":"# + $0 } ?? "")
          + "}"
        #expect(
          harness.view.lines == [#"{"request_id":9,"error":"success"}"#, change],
          "\(property.rawValue), loaded: \(loaded)")
      }
    }
  }

  @Test("observing a property vpk does not serve is accepted and told once that it is unavailable")
  func observeUnknown() {
    let harness = MPVHarness()
    harness.send(#"{"command": ["observe_property", 3, "aid"], "request_id": 4}"#)
    #expect(
      harness.view.lines == [
        #"{"request_id":4,"error":"success"}"#, #"{"event":"property-change","id":3,"name":"aid"}"#,
      ])
    // And it hears nothing after
    harness.loaded()
    #expect(harness.view.lines.isEmpty)
  }

  @Test("an observer numbered 0 is told its changes without an id, as mpv leaves out a reply id of 0")
  func observerZero() {
    // Given a file loaded
    let harness = MPVHarness()
    harness.loaded()
    // When a client observes a property, and one vpk does not serve, both as observer 0
    harness.send(#"{"command": ["observe_property", 0, "time-pos"], "request_id": 2}"#)
    harness.presenter.present(.status(harness.status(position: 0)), origin: harness.lastOrigin)
    harness.send(#"{"command": ["observe_property_string", 0, "aid"], "request_id": 3}"#)
    harness.presenter.present(
      .progress(ProgressMark(position: MediaTime(seconds: 1), duration: nil, state: .playing, rate: 1)), origin: nil)
    // Then their changes carry no id (checked against mpv 0.35.1)
    #expect(
      harness.view.lines == [
        #"{"request_id":2,"error":"success"}"#, #"{"event":"property-change","name":"time-pos","data":0.0}"#,
        #"{"request_id":3,"error":"success"}"#, #"{"event":"property-change","name":"aid"}"#,
        #"{"event":"property-change","name":"time-pos","data":1.0}"#,
      ])
  }

  @Test("get_property_string of an unavailable or unknown property is success with data null, as mpv's IPC answers")
  func stringFormWhenUnavailable() {
    // Given nothing loaded
    let harness = MPVHarness()
    // When the string form of an unavailable property, then of one vpk does not serve, is asked for
    _ = read(harness, "time-pos", status: Self.idleStatus, asString: true)
    let unavailable = harness.view.lines.last
    harness.send(#"{"command": ["get_property_string", "aid"], "request_id": 6}"#)
    // Then both are success with data null, where get_property answers with mpv's errors
    #expect(unavailable == #"{"data":null,"request_id":0,"error":"success"}"#)
    #expect(harness.view.lines.last == #"{"data":null,"request_id":6,"error":"success"}"#)
    #expect(read(harness, "time-pos", status: Self.idleStatus)?["error"] == .string("property unavailable"))
    #expect(read(harness, "aid")?["error"] == .string("property not found"))
  }

  @Test("paths into a value are read and observed: told at once, then as the value changes")
  func subProperties() {
    // Given a client with nothing loaded, observing the playlist's count and an entry's name
    let harness = MPVHarness()
    harness.send(#"{"command": ["observe_property", 1, "playlist/count"], "request_id": 1}"#)
    harness.presenter.present(.status(Self.idleStatus), origin: harness.lastOrigin)
    harness.send(#"{"command": ["observe_property", 2, "playlist/0/filename"], "request_id": 2}"#)
    harness.presenter.present(.status(Self.idleStatus), origin: harness.lastOrigin)
    // When a file loads
    harness.presenter.present(.loading(path: "/media/clip.mp4", paused: true), origin: nil)
    // Then each was told its value at once (the entry it does not have yet without data), then the change
    #expect(
      harness.view.lines.filter { $0.contains("property-change") } == [
        #"{"event":"property-change","id":1,"name":"playlist/count","data":0}"#,
        #"{"event":"property-change","id":2,"name":"playlist/0/filename"}"#,
        #"{"event":"property-change","id":1,"name":"playlist/count","data":1}"#,
        #"{"event":"property-change","id":2,"name":"playlist/0/filename","data":"/media/clip.mp4"}"#,
      ])
    // And a read of a path the value does not have is mpv's error, of a path into nothing loaded unavailable
    harness.presenter.present(.ready(harness.info, position: .zero), origin: nil)
    #expect(value(harness, "track-list/count") == "1")
    #expect(read(harness, "track-list/3/type")?["error"] == .string("property not found"))
    harness.presenter.present(.closed(nextPaused: true), origin: nil)
    #expect(read(harness, "video-params/w", status: Self.idleStatus)?["error"] == .string("property unavailable"))
  }

  @Test("observe_property_string tells the values in their string form, as mpv does")
  func observeStrings() {
    // Given a client of a session that plays what it loads, observing pause and volume as strings, and time-pos,
    // with nothing loaded
    let harness = MPVHarness(sharedOptions: MPVSharedOptions(), startsPlaying: true)
    for (id, name) in [(1, "pause"), (2, "volume"), (3, "time-pos")] {
      harness.send(#"{"command": ["observe_property_string", \#(id), "\#(name)"], "request_id": \#(id)}"#)
      harness.presenter.present(.status(Self.idleStatus), origin: harness.lastOrigin)
    }
    // When volume is set
    harness.send(#"{"command": ["set_property", "volume", 55], "request_id": 4}"#)
    // Then each is told in its string form (time-pos, unavailable, without data)
    #expect(
      harness.view.lines.filter { $0.contains("property-change") } == [
        #"{"event":"property-change","id":1,"name":"pause","data":"no"}"#,
        #"{"event":"property-change","id":2,"name":"volume","data":"100.000000"}"#,
        #"{"event":"property-change","id":3,"name":"time-pos"}"#,
        #"{"event":"property-change","id":2,"name":"volume","data":"55.000000"}"#,
      ])
  }
}

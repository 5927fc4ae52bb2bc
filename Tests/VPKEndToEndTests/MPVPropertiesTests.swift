// The mpv properties vpk serves, end to end against Debian's mpv 0.35 on the same clips: every property in vpk's
// `property-list` (and `filename/no-ext`) read from both, compared in outcome and type, and in value where the two
// must agree; what an observer is told at once and when another client sets a stored property; and mpv's own
// `property-list` against the docs' table of every mpv property. mpv is a test dependency (scripts/bootstrap
// installs it): without it the test fails.

import Foundation
import Testing
import VPKTestSupport

/// A short folder for sockets (a socket path holds at most 107 bytes).
private struct Sockets {
  let url = URL(fileURLWithPath: "/tmp/vpk-mpvp-\(UUID().uuidString.prefix(8))")
  init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Debian's mpv, headless and paused on `media` (decoding its audio to no output), or idle.
private final class MPV {
  let process = Process()
  init(socket: String, media: String?) throws {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
      .map { "\($0)/mpv" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let path else { throw TestSupportError("mpv not found on PATH: these tests need it (run scripts/bootstrap)") }
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments =
      ["--no-config", "--idle=yes", "--vo=null", "--ao=null", "--really-quiet", "--input-ipc-server=\(socket)"]
      + (media.map { ["--pause", $0] } ?? [])
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
  }
  func stop() {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}

/// A reply: its error string, its data (nil when none), and the data as the player wrote it.
private struct Reply {
  var error: String
  var data: Any?
  var rawData: String?

  /// The JSON type of the data, telling integers from other numbers by how they are written.
  var type: String {
    guard let raw = rawData, let first = raw.first else { return "none" }
    switch first {
    case "{": return "object"
    case "[": return "array"
    case "\"": return "string"
    case "t", "f": return "bool"
    case "n": return "null"
    default: return raw.contains(".") || raw.contains("e") ? "double" : "integer"
    }
  }
}

/// A client of one player: requests numbered in order, answered by id (found by polling what it received).
private final class Client {
  let socket: UnixSocketClient
  private var nextID = 100
  init(_ path: String) throws { socket = try UnixSocketClient.connect(to: path) }

  func ask(_ command: [Any]) throws -> Reply {
    nextID += 1
    let request = try JSONSerialization.data(withJSONObject: ["command": command, "request_id": nextID])
    socket.send(String(decoding: request, as: UTF8.self))
    let id = #""request_id":\#(nextID),"#
    try waitFor(self, [id])
    let line = try #require(socket.lines.last { $0.contains(id) })
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed) as? [String: Any])
    var raw: String?
    if let start = line.range(of: #"{"data":"#), let end = line.range(of: #","request_id""#, options: .backwards) {
      raw = String(line[start.upperBound..<end.lowerBound])
    }
    return Reply(error: object["error"] as? String ?? "", data: object["data"], rawData: raw)
  }

  func get(_ name: String) throws -> Reply { try ask(["get_property", name]) }

  /// Reads `name` until it is a success (mpv reports some values once the first frame is decoded).
  func getOnceAvailable(_ name: String) throws -> Reply {
    let deadline = Date(timeIntervalSinceNow: 30)
    while true {
      let reply = try get(name)
      if reply.error == "success" || Date() > deadline { return reply }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
}

/// Waits until `client` has received a line holding each of `texts`, for at most 30 s.
private func waitFor(_ client: Client, _ texts: [String]) throws {
  let deadline = Date(timeIntervalSinceNow: 30)
  while true {
    let lines = client.socket.lines
    if texts.allSatisfy({ text in lines.contains { $0.contains(text) } }) { return }
    guard Date() < deadline else {
      throw TestSupportError("no line holding each of \(texts); got:\n" + lines.joined(separator: "\n"))
    }
    Thread.sleep(forTimeInterval: 0.02)
  }
}

/// A value as JSON text with sorted keys, for comparing.
private func text(_ value: Any?) -> String {
  guard let value else { return "none" }
  guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
  else { return "\(value)" }
  return String(decoding: data, as: UTF8.self)
}

/// `value`'s members `keys`, as text.
private func members(_ value: Any?, _ keys: [String]) -> String {
  guard let object = value as? [String: Any] else { return "not an object: \(text(value))" }
  return text(object.filter { keys.contains($0.key) })
}

@Suite struct MPVPropertiesTests {
  /// Every property vpk serves, read from vpk and from mpv on the same clip, both paused at its start: the same
  /// outcome (success, or the same error), the same JSON type, and the same value where vpk's comes from what mpv's
  /// does (the file, its streams and tags, the stored defaults); the track list is compared on its video, audio and
  /// subtitle tracks (with several of a kind, the one selected is the one mpv chooses).
  @Test(arguments: [TestClip.h264BFrames, .describedMP4, .multiStream])
  func everyPropertyAsMPVGivesIt(_ clip: TestClip) throws {
    let sockets = try Sockets()
    defer { sockets.remove() }
    let media = try TestMedia.url(for: clip).path
    let vpkDaemon = try VPKSession(
      ["play", media, "--paused", "--at-end", "pause", "--input-ipc-server", sockets.path("vpk")], input: .closed)
    defer { vpkDaemon.kill() }
    let mpvDaemon = try MPV(socket: sockets.path("mpv"), media: media)
    defer { mpvDaemon.stop() }
    let vpk = try Client(sockets.path("vpk"))
    let mpv = try Client(sockets.path("mpv"))
    // Given both with the file loaded and its first frame shown
    _ = try vpk.getOnceAvailable("duration")
    _ = try mpv.getOnceAvailable("video-params")
    _ = try mpv.getOnceAvailable("audio-params")
    // When every property vpk lists is read from both
    let listed = try #require(try vpk.get("property-list").data as? [String], "vpk's property-list")
    #expect(listed.count >= 45)
    var differences: [String] = []
    for name in listed + ["filename/no-ext"] {
      let (ours, theirs) = (try vpk.get(name), try mpv.get(name))
      // Then both succeed or fail alike, with the same type
      if ours.error != theirs.error || ours.type != theirs.type {
        differences.append("\(name): vpk \(ours.error) \(ours.type), mpv \(theirs.error) \(theirs.type)")
      }
      // And the string form alike: a string, or (unavailable) success with data null
      let (ourString, theirString) = (
        try vpk.ask(["get_property_string", name]), try mpv.ask(["get_property_string", name])
      )
      if ourString.error != theirString.error || ourString.type != theirString.type {
        differences.append("\(name) as a string: vpk \(ourString.type), mpv \(theirString.type)")
      }
    }
    // (vpk's numbers are written as their shortest form, mpv's with six decimals: both are doubles)
    #expect(differences == [], "\(clip)")
    // And the values that come from the file, its tags and streams, or the stored defaults, are mpv's
    for name in [
      "volume", "mute", "loop-file", "fullscreen", "sub-visibility", "playlist-count", "playlist-pos",
      "playlist-pos-1", "playlist-current-pos", "playlist-playing-pos", "working-directory", "media-title",
      "filename/no-ext", "file-size", "metadata", "chapters",
      "chapter", "core-idle", "seekable", "partially-seekable", "audio-params", "path", "filename", "duration",
    ] {
      #expect(text(try vpk.get(name).data) == text(try mpv.get(name).data), "\(name) of \(clip)")
    }
    // And paths into values read as mpv reads them, or fail as mpv's do
    for path in [
      "playlist/count", "playlist/0/filename", "track-list/count", "track-list/0/type", "track-list/1/codec",
      "track-list/5/type", "track-list/0/nope", "chapter-list/count", "metadata/list/count", "metadata/list/0/key",
      "metadata/by-key/MAJOR_BRAND", "metadata/by-key/nope", "video-params/w", "audio-params/channels", "volume/x",
      "track-list/0/title", "track-list/1/demux-w", "track-list/0/replaygain-track-gain", "playlist/0/title",
      "track-list/0/lang/x", "metadata/by-key/MAJOR_BRAND/x", "video-params/alpha", "video-params/nope",
      "duration/x", "time-pos/x", "pause/x",
    ] {
      let (ours, theirs) = (try vpk.get(path), try mpv.get(path))
      #expect("\(ours.error) \(text(ours.data))" == "\(theirs.error) \(text(theirs.data))", "\(path) of \(clip)")
    }
    let videoKeys = ["w", "h", "dw", "dh", "pixelformat", "rotate", "par"]
    #expect(
      members(try vpk.get("video-params").data, videoKeys) == members(try mpv.get("video-params").data, videoKeys))
    let entryKeys = ["filename", "current", "playing", "id"]
    let playlists = try [vpk, mpv].map {
      ((try $0.get("playlist").data as? [Any]) ?? []).map { members($0, entryKeys) }
    }
    #expect(playlists[0] == playlists[1])
    let chapterLists = try [vpk, mpv].map { try text($0.get("chapter-list").data) }
    #expect(chapterLists[0] == chapterLists[1], "\(clip)")
    let trackKeys = [
      "id", "type", "src-id", "ff-index", "selected", "main-selection", "default", "forced", "codec", "decoder-desc",
      "lang", "title", "demux-w", "demux-h", "demux-fps", "demux-par", "demux-channel-count", "demux-channels",
      "demux-samplerate", "demux-bitrate", "audio-channels",
    ]
    let tracks = try [vpk, mpv].map { client in
      ((try client.get("track-list").data as? [[String: Any]]) ?? [])
        .filter { ["video", "audio", "sub"].contains($0["type"] as? String) }.map { members($0, trackKeys) }
    }
    #expect(tracks[0] == tracks[1], "\(clip)")
    for name in ["time-remaining", "playtime-remaining"] {
      let values = try [vpk, mpv].map { try $0.get(name).data as? Double ?? -1 }
      #expect(abs(values[0] - values[1]) < 0.05, "\(name): vpk \(values[0]), mpv \(values[1])")
    }
  }

  /// An observer is told each property's value at once, or that it is unavailable, as mpv tells it; a stored
  /// property another client sets reaches it as a change, as in mpv.
  @Test func observersAsMPVTellsThem() throws {
    let sockets = try Sockets()
    defer { sockets.remove() }
    let media = try TestMedia.url(for: .h264BFrames).path
    let vpkDaemon = try VPKSession(
      ["play", media, "--paused", "--at-end", "pause", "--input-ipc-server", sockets.path("vpk")], input: .closed)
    defer { vpkDaemon.kill() }
    let mpvDaemon = try MPV(socket: sockets.path("mpv"), media: media)
    defer { mpvDaemon.stop() }
    let names = [
      "volume", "mute", "loop-file", "fullscreen", "sub-visibility", "playlist-count", "media-title", "metadata",
      "chapter", "chapters", "chapter-list", "file-size", "seekable", "audio-params", "no-such-property",
    ]
    var seen: [[String]] = []
    for player in ["vpk", "mpv"] {
      // Given a client with the file loaded
      let observer = try Client(sockets.path(player))
      _ = try observer.getOnceAvailable("audio-params")
      // When it observes each property, and another client then sets volume and loop-file
      for (index, name) in names.enumerated() {
        #expect(try observer.ask(["observe_property", index + 1, name]).error == "success")
      }
      #expect(try observer.ask(["observe_property_string", 99, "volume"]).error == "success")
      try waitFor(observer, names.indices.map { #""id":\#($0 + 1),"name":"\#(names[$0])""# } + [#""id":99"#])
      let setter = try Client(sockets.path(player))
      _ = try setter.ask(["set_property", "volume", 55])
      _ = try setter.ask(["set_property", "loop-file", "inf"])
      try waitFor(
        observer,
        [#""name":"volume","data":55"#, #""name":"volume","data":"55.000000""#, #""name":"loop-file","data":"inf""#])
      // Then each was told at once (with data or, when unavailable, without), and the changes followed
      seen.append(
        try observer.socket.lines.filter { $0.contains("property-change") }.map { line in
          let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
          return "\(object["id"] ?? "") \(object["name"] ?? "") \(text(object["data"]))"
        })
    }
    // Each observer's changes in order; between observers mpv's order varies from run to run on a busy machine (it
    // has told observer 3's loop-file before observer 99's volume, set first), so it is not compared.
    let byObserver = seen.map { lines in Dictionary(grouping: lines) { $0.prefix { $0 != " " } } }
    #expect(byObserver[0] == byObserver[1], "vpk \(seen[0])\nmpv \(seen[1])")
  }

  /// `client_name` counts the clients from 0 in the order they connect, as mpv's does: the same against mpv.
  @Test func clientNamesAsMPVCountsThem() throws {
    let sockets = try Sockets()
    defer { sockets.remove() }
    let vpkDaemon = try VPKSession(
      ["play", "--idle", "--input-ipc-server", sockets.path("vpk")], input: .closed)
    defer { vpkDaemon.kill() }
    let mpvDaemon = try MPV(socket: sockets.path("mpv"), media: nil)
    defer { mpvDaemon.stop() }
    var names: [[String]] = []
    for player in ["vpk", "mpv"] {
      // Given three clients that connect one after another, each asking its name as it connects
      var clients: [Client] = []
      var asked: [String] = []
      for _ in 0..<3 {
        let client = try Client(sockets.path(player))
        clients.append(client)
        asked.append(try client.ask(["client_name"]).data as? String ?? "none")
      }
      names.append(asked)
    }
    // Then vpk names them as mpv does
    #expect(names[0] == ["ipc_0", "ipc_1", "ipc_2"], "vpk \(names[0])")
    #expect(names[0] == names[1], "vpk \(names[0]), mpv \(names[1])")
  }

  /// mpv's own `property-list` is the list the docs' table is written from: every name in it is in the table, and
  /// the table names no property mpv does not have.
  @Test func mpvPropertyListIsTheDocs() throws {
    let sockets = try Sockets()
    defer { sockets.remove() }
    let mpvDaemon = try MPV(socket: sockets.path("mpv"), media: nil)
    defer { mpvDaemon.stop() }
    let mpvNames = try #require(try Client(sockets.path("mpv")).get("property-list").data as? [String])
    // Given the docs' block of properties
    let docs = try String(
      contentsOf: TestMedia.packageRoot.appendingPathComponent("docs/control-socket.md"), encoding: .utf8)
    let begin = try #require(docs.range(of: "<!-- mpv-properties:begin -->"))
    let end = try #require(docs.range(of: "<!-- mpv-properties:end -->"))
    // When the names of its rows are read (a served row's first cell; the list of each reason's row)
    var named: [String] = []
    for row in docs[begin.upperBound..<end.lowerBound].split(separator: "\n") where row.hasPrefix("| ") {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let listed = cells.count == 2 ? cells[1] : cells[0]
      named += listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("`") }.map { String($0.dropFirst().dropLast()) }
    }
    // Then they are mpv's, each once (and `filename/no-ext`, a sub-property mpv's list does not name)
    #expect(named.sorted() == (mpvNames + ["filename/no-ext"]).sorted())
  }
}

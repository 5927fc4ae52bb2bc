// The engine's safe defaults: only local files, and no demuxer that opens what a file names, unless allowed.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

/// Opens `path` with these permissions and waits for ready or the failure.
@MainActor
private func open(_ path: String, _ access: MediaAccess = MediaAccess()) async throws -> (
  FFmpegPlaybackManager, ManagerEventSpy
) {
  let manager = FFmpegPlaybackManager(access: access)
  let spy = ManagerEventSpy()
  spy.listen(to: manager)
  manager.prepare(path: path, configuration: PlaybackConfiguration(clock: .free, progressInterval: nil))
  try await spy.wait("ready or failure") { [spy] in spy.info != nil || spy.openError != nil }
  return (manager, spy)
}

@MainActor
@Suite struct MediaAccessTests {
  @Test(arguments: CraftedFile.allCases)
  func playlistsAndStreamDescriptionsAreRefusedByDefault(file: CraftedFile) async throws {
    // Given a crafted file that names another local file or a URL
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    // When it is opened with the default permissions
    let (manager, spy) = try await open(url.path)
    defer { manager.shutdown() }
    // Then it is refused before anything it names is opened, with the flag that would allow it
    let error = try #require(spy.openError, "\(file) opened: \(String(describing: spy.info))")
    #expect(error.code == .refusedFormat, "\(file): \(error.message)")
    #expect(error.message.contains(file.demuxer == "sdp" ? "--allow-network" : "--allow-playlists"), "\(error.message)")
  }

  @Test(arguments: CraftedFile.allCases.filter(\.pointsAtLocalFile))
  func allowedPlaylistsPlayTheLocalFilesTheyName(file: CraftedFile) async throws {
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    let (manager, spy) = try await open(url.path, MediaAccess(allowsPlaylists: true))
    defer { manager.shutdown() }
    let info = try #require(spy.info, "\(file): \(String(describing: spy.openError))")
    #expect(info.container == file.demuxer)
    manager.play()
    try await spy.wait("the end", seconds: 60) { [spy] in spy.endedAt != nil }
    #expect(manager.snapshot().framesDecoded > 100)
  }

  @Test(arguments: [CraftedFile.hlsToURL, .concatToURLNamedMP4])
  func anAllowedPlaylistStillCannotReachTheNetwork(file: CraftedFile) async throws {
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    let (manager, spy) = try await open(url.path, MediaAccess(allowsPlaylists: true))
    defer { manager.shutdown() }
    let error = try #require(spy.openError)
    #expect(error.code == .notMedia)
    #expect(error.message.contains("--allow-network"), "\(error.message)")
  }

  @Test(arguments: [
    ("http://127.0.0.1:9/clip.mp4", "--allow-network"), ("https://example.invalid/a.m3u8", "--allow-network"),
    ("rtmp://127.0.0.1:9/live", "--allow-network"), ("concat:a.mp4|b.mp4", "local media file"),
    ("subfile:,start,0,end,100,:/etc/passwd", "local media file"), ("pipe:0", "local media file"),
    ("data:video/mp4;base64,AAAA", "local media file"), ("unix:/run/socket", "local media file"),
  ])
  func urlsAreRefusedUnlessTheirProtocolIsAllowed(path: String, hint: String) async throws {
    let (manager, spy) = try await open(path)
    defer { manager.shutdown() }
    let error = try #require(spy.openError)
    #expect(error.code == .refusedProtocol, "\(path): \(error.message)")
    #expect(error.message.contains(hint), "\(error.message)")
  }

  @Test func allowingTheNetworkLetsAURLThroughToFFmpeg() async throws {
    // Port 9 (discard) on localhost refuses connections: the URL is tried, and fails as a network failure would.
    let (manager, spy) = try await open("http://127.0.0.1:9/clip.mp4", MediaAccess(allowsNetwork: true))
    defer { manager.shutdown() }
    let error = try #require(spy.openError)
    #expect(error.code == .notMedia, "\(error.message)")
  }

  @Test func theFormatWhitelistHoldsEveryDemuxerButTheRefusedOnes() {
    let names = Set(MediaAccess().formatWhitelist.split(separator: ",").map(String.init))
    #expect(names.contains("matroska") && names.contains("mov") && names.contains("mpegts"))
    #expect(names.isDisjoint(with: MediaAccess.playlistDemuxers.union(MediaAccess.networkDemuxers)))
    let open = Set(MediaAccess(allowsNetwork: true, allowsPlaylists: true).formatWhitelist.split(separator: ","))
    #expect(open.contains("hls") && open.contains("concat") && open.contains("sdp"))
    #expect(MediaAccess().protocolWhitelist == "file")
  }
}

@Suite struct MediaAccessMessageTests {
  @Test func aRefusedPathIsQuotedShortAndWithoutControlCharacters() throws {
    // Given a long URL with a newline in it
    let path = "http://127.0.0.1:9/" + String(repeating: "a", count: 100) + "\n.mp4"
    // When it is refused, Then the message quotes it the way every message quotes input: cut, controls replaced
    let error = try #require(
      MediaAccess(allowsNetwork: false, allowsPlaylists: false).refusal(protocol: "http", path: path))
    #expect(error.message.hasPrefix("'http://127.0.0.1:9/aaa"))
    #expect(error.message.contains("…'"))
    #expect(!error.message.contains("\n"))
  }
}

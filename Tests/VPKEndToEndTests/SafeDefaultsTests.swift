// Safe defaults end to end: vpk refuses URLs and files that would make it open other files, says which flag
// allows them, and exits 3; the flags let them through.

import Foundation
import Testing
import VPKTestSupport

@Suite struct SafeDefaultsTests {
  @Test(arguments: CraftedFile.allCases)
  func aCraftedFileIsRefusedWithTheFlagThatAllowsIt(file: CraftedFile) throws {
    let url = try CraftedMedia.url(for: file)
    defer { CraftedMedia.remove(url) }
    let flag = file.demuxer == "sdp" ? "--allow-network" : "--allow-playlists"
    let result = try VPKProcess.run(["play", url.path], input: .closed)
    #expect(result.status == 3, "play \(file)")
    let error = try #require(result.events("error").first, "play \(file): \(result.stdout)")
    #expect(error.fields["code"] == "refused_format")
    #expect(error.fields["message"]?.contains(flag) == true)
    // `vpk info` says it on stderr, and nothing on stdout
    let info = try VPKProcess.run(["info", url.path], input: .closed)
    #expect(info.status == 3, "info \(file)")
    #expect(info.stdout.isEmpty)
    #expect(info.stderr.contains("refused_format") && info.stderr.contains(flag), "info \(file): \(info.stderr)")
  }

  @Test func allowPlaylistsLetsInfoDescribeAPlaylistOfLocalFiles() throws {
    let url = try CraftedMedia.url(for: .hlsToLocalFile)
    defer { CraftedMedia.remove(url) }
    let result = try VPKProcess.run(["info", url.path, "--json", "--allow-playlists"], input: .closed)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try JSONValue.parse(result.stdout)["format"]?["format_name"]?.string == "hls")
  }

  @Test func allowPlaylistsPlaysAPlaylistOfLocalFiles() throws {
    let url = try CraftedMedia.url(for: .hlsToLocalFile)
    defer { CraftedMedia.remove(url) }
    let result = try VPKProcess.run(
      ["play", url.path, "--clock", "free", "--allow-playlists", "--progress", "off"], input: .closed)
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.events("ready").first?.fields["container"] == "hls")
    #expect(result.events("ended").count == 1)
  }

  @Test func aURLIsRefusedUnlessTheNetworkIsAllowed() throws {
    let refused = try VPKProcess.run(["play", "http://127.0.0.1:9/clip.mp4"], input: .closed)
    #expect(refused.status == 3)
    #expect(refused.events("error").first?.fields["code"] == "refused_protocol")
    #expect(refused.events("error").first?.fields["message"]?.contains("--allow-network") == true)
    // With the flag the URL is tried (and fails to connect: port 9 on localhost refuses)
    let tried = try VPKProcess.run(["play", "http://127.0.0.1:9/clip.mp4", "--allow-network"], input: .closed)
    #expect(tried.status == 3)
    #expect(tried.events("error").first?.fields["code"] == "not_media")
  }

  @Test func aLocalFileWhoseNameLooksLikeAURLIsReadAsThatFile() throws {
    // Given a clip copied to names that parse as URL schemes, in a folder of their own
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-names-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("http:"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = try TestMedia.url(for: .mpeg4)
    for name in ["clip:1.mp4", "http:/x.mp4", "concat:a.mp4"] {
      try FileManager.default.copyItem(at: clip, to: folder.appendingPathComponent(name))
      // When vpk is run in that folder with the relative name
      let process = Process()
      process.executableURL = try VPKProcess.executableURL()
      process.arguments = ["play", name, "--clock", "free", "--progress", "off"]
      process.currentDirectoryURL = folder
      process.standardInput = FileHandle.nullDevice
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      // Then it plays as the local file
      #expect(process.terminationStatus == 0, "\(name): \(stdout)")
      #expect(stdout.contains("ended position=6.000"), "\(name): \(stdout)")
    }
  }
}

// What is at a control socket's path, and claiming it: free, stale (replaced), live (refused), not a socket
// (refused, never touched).

import Foundation
import Testing

@testable import VPKSocket

@Suite struct SocketPathTests {
  private func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-socket-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A Unix-domain socket bound at `path`, listening or not; returns its descriptor.
  private func bindSocket(at path: String, listening: Bool) -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { bytes in
      for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
    }
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    if listening { listen(descriptor, 1) }
    return descriptor
  }

  @Test func nothingThereIsFree() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try SocketPath.inspect(folder.appendingPathComponent("s").path) == .free)
  }

  @Test func aRegularFileIsRefusedAndLeftAlone() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("notes.txt").path
    try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
    #expect(try SocketPath.inspect(path) == .notASocket("a regular file"))
    #expect(throws: ControlSocketError.self) { try SocketPath.claim(path) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test func aDirectoryAndALinkAreRefused() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("link").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/nonexistent")
    #expect(try SocketPath.inspect(folder.path) == .notASocket("a directory"))
    #expect(try SocketPath.inspect(link) == .notASocket("a symbolic link"))
    #expect(throws: ControlSocketError.self) { try SocketPath.claim(link) }
    #expect(FileManager.default.fileExists(atPath: folder.path))
  }

  @Test func aSocketNobodyListensOnIsStaleAndReplaced() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s").path
    close(bindSocket(at: path, listening: false))
    #expect(try SocketPath.inspect(path) == .stale)
    try SocketPath.claim(path)
    #expect(try SocketPath.inspect(path) == .free)
  }

  @Test func aSocketSomeoneListensOnIsLiveAndRefused() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s").path
    let descriptor = bindSocket(at: path, listening: true)
    defer { close(descriptor) }
    #expect(try SocketPath.inspect(path) == .live)
    #expect(throws: ControlSocketError.self) { try SocketPath.claim(path) }
    #expect(try SocketPath.inspect(path) == .live)
  }

  @Test func aPathTooLongForASocketAddressIsRefused() {
    let path = "/tmp/" + String(repeating: "x", count: 200)
    #expect(throws: ControlSocketError.self) { try SocketPath.claim(path) }
  }
}

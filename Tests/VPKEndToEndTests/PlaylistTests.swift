// PlaylistTests: `vpk play` with several files, a folder, an m3u and a pls list, driven through standard input on
// clips made at test time, on the virtual clock, reading standard output.

import Foundation
import Testing
import VPKTestSupport

@Suite struct PlaylistTests {
  /// A fresh folder holding copies of a test clip named `names`.
  private func folder(_ names: [String]) throws -> URL {
    let clip = try TestMedia.url(for: .mpeg4)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-playlist-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in names { try FileManager.default.copyItem(at: clip, to: folder.appendingPathComponent(name)) }
    return folder
  }

  @Test func threeFilesPlayOneAfterAnotherAndTheQueueCommandsAnswer() throws {
    // Given three files, the second missing
    let folder = try folder(["a.mp4", "c.mp4"])
    defer { try? FileManager.default.removeItem(at: folder) }
    // When vpk plays them, checked by a script on standard input
    let script = """
      expect entry == 1
      expect queue.count == 3
      wait entry 3
      expect entry == 3
      goto 9
      queue
      prev
      status
      quit

      """
    let (a, b, c) = (folder.path + "/a.mp4", folder.path + "/b.mp4", folder.path + "/c.mp4")
    let result = try VPKProcess.run(
      ["play", a, b, c, "--clock", "virtual", "--progress", "off", "--at-end", "pause"], input: .text(script))
    // Then entry 2 is reported and skipped, the bad goto refused, and the session ends on quit
    let lines = result.stdoutLines
    #expect(result.status == 0, "\(lines)")
    #expect(
      lines.filter { $0.hasPrefix("entry") } == [
        "entry index=1 count=3 entry_id=1 path=\(a)",
        "entry index=2 count=3 entry_id=2 path=\(b)",
        "entry index=3 count=3 entry_id=3 path=\(c)",
        "entry #7 index=2 count=3 entry_id=2 path=\(b)",
        "entry index=3 count=3 entry_id=3 path=\(c)",
      ])
    #expect(lines.contains { $0.hasPrefix("error code=file_not_found") })
    #expect(lines.contains { $0.hasPrefix("error #5 code=no_such_entry") })
    #expect(lines.contains("queue #6 count=3 current=3"))
    #expect(lines.contains("> 3 id=3 path=\(c)"))
    #expect(lines.filter { $0.hasPrefix("expect") && $0.contains("result=pass") }.count == 3)
    #expect(lines.contains("waited #3 condition=\"entry 3\" position=0.000"))
    #expect(lines.contains { $0.hasPrefix("status #8") && $0.hasSuffix("entry=3 entries=3") })
  }

  @Test func aFolderPlaysInNaturalOrderAndAListResolvesAgainstItsFolder() throws {
    // Given a folder of ep10, ep2 and ep1, and a list beside them naming two of them and a URL
    let folder = try folder(["ep10.mp4", "ep2.mp4", "ep1.mp4"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("list.m3u")
    try "#EXTM3U\n#EXTINF:1,two\nep2.mp4\nhttp://example.com/x.mp4\nep1.mp4\n".write(
      to: list, atomically: true, encoding: .utf8)
    // When the folder is played
    let played = try VPKProcess.run(
      ["play", folder.path, "--clock", "virtual", "--progress", "off", "--start-entry", "2"],
      input: .text("queue\nquit\n"))
    // Then ep1, ep2, ep10 in that order, starting at the second
    let names = played.stdoutLines.filter { $0.hasPrefix("  ") || $0.hasPrefix("> ") }.map {
      String($0.split(separator: "/").last ?? "")
    }
    #expect(names == ["ep1.mp4", "ep2.mp4", "ep10.mp4"])
    #expect(played.stdoutLines.first?.hasPrefix("entry index=2 count=3") == true)
    // When the list is played to its end
    let listed = try VPKProcess.run(
      ["play", "--playlist", list.path, "--clock", "virtual", "--progress", "off"],
      input: .text("wait ended\nwait ended\n"))
    // Then its relative entries open, and the URL is refused as a single URL is, and skipped
    let lines = listed.stdoutLines
    #expect(listed.status == 0, "\(lines)")
    #expect(lines.contains("entry index=1 count=3 entry_id=1 path=\(folder.path)/ep2.mp4"))
    #expect(lines.contains { $0.hasPrefix("error code=refused_protocol") })
    #expect(lines.contains("entry index=3 count=3 entry_id=3 path=\(folder.path)/ep1.mp4"))
    #expect(lines.last?.hasPrefix("shutdown reason=ended") == true)
  }

  @Test func aPLSListPlaysItsFilesByNumberWithItsTitles() throws {
    // Given a pls list beside two clips, numbering them out of order, with a title and a URL
    let folder = try folder(["a.mp4", "b.mp4"])
    defer { try? FileManager.default.removeItem(at: folder) }
    let list = folder.appendingPathComponent("list.pls")
    let text = "[playlist]\nFile2=b.mp4\nTitle2=The B\nFile1=a.mp4\nFile3=https://example.com/x.mp4\n"
    try (text + "NumberOfEntries=3\nVersion=2\n").write(to: list, atomically: true, encoding: .utf8)
    // When it is played to its end
    let result = try VPKProcess.run(
      ["play", "--playlist", list.path, "--clock", "virtual", "--progress", "off"],
      input: .text("queue\nwait ended\nwait ended\n"))
    // Then its entries play by number, relative to its folder, the second with its title; the URL is refused and
    // skipped
    let lines = result.stdoutLines
    #expect(result.status == 0, "\(lines)")
    #expect(lines.contains("entry index=1 count=3 entry_id=1 path=\(folder.path)/a.mp4"))
    #expect(lines.contains("queue #1 count=3 current=1"))
    #expect(lines.contains("  2 id=2 path=\(folder.path)/b.mp4 title=\"The B\""))
    #expect(lines.contains("  3 id=3 path=https://example.com/x.mp4"))
    #expect(lines.contains("entry index=2 count=3 entry_id=2 path=\(folder.path)/b.mp4"))
    #expect(lines.contains { $0.hasPrefix("error code=refused_protocol") })
    #expect(lines.last?.hasPrefix("shutdown reason=ended") == true)
  }

  @Test func aSeedRepeatsTheShuffle() throws {
    // Given a folder of five, shuffled twice with one seed
    let folder = try folder((1...5).map { "ep\($0).mp4" })
    defer { try? FileManager.default.removeItem(at: folder) }
    func order() throws -> [String] {
      try VPKProcess.run(
        ["play", folder.path, "--shuffle", "--shuffle-seed", "7", "--clock", "virtual", "--progress", "off"],
        input: .text("queue\nquit\n")
      ).stdoutLines.filter { $0.hasPrefix("  ") || $0.hasPrefix("> ") }
    }
    // Then both orders are the same
    let first = try order()
    #expect(first.count == 5)
    #expect(try order() == first)
  }
}

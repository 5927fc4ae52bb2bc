// PlaylistScriptTests: a `vpk test` script that builds a queue, moves through it and checks it, on the virtual clock:
// it passes, and its transcript is the same byte for byte on every run and in every folder.

import Foundation
import Testing
import VPKTestSupport

@Suite struct PlaylistScriptTests {
  @Test func aQueueScriptsTranscriptIsByteIdenticalAcrossRunsAndFolders() throws {
    // Given two folders, each with two copies of a clip and the same script that queues them and checks the entries
    let script = [
      "queue add a.mp4", "queue add b.mp4", "goto 1", "expect entry == 1", "expect queue.count == 2", "wait 1",
      "next", "expect entry == 2", "prev", "wait entry 2", "expect entry == 2", "queue add-next a.mp4",
      "queue move 3 1", "queue", "status", "goto 9", "expect error == no_such_entry",
    ]
    let folders = try (0..<2).map { _ in try ScriptFolder(clip: .mpeg4) }
    defer { for folder in folders { folder.remove() } }
    var transcripts: [String] = []
    for (index, folder) in folders.enumerated() {
      for name in ["a.mp4", "b.mp4"] {
        try FileManager.default.copyItem(atPath: folder.path("clip.mp4"), toPath: folder.path(name))
      }
      let path = try folder.write("queue.vpk", script)
      // When it runs: twice in the first folder, once in the second
      for run in 0..<(index == 0 ? 2 : 1) {
        let dir = folder.path("out\(run)")
        let result = try VPKProcess.run(["test", path, "--transcript", dir], timeout: 120)
        #expect(result.status == 0, "\(result.stdout)")
        transcripts.append(
          try String(
            contentsOfFile: dir + "/" + path.replacingOccurrences(of: "/", with: "__") + ".txt", encoding: .utf8))
      }
    }
    // Then every run passed with the same transcript, which names the entries as the script wrote them
    #expect(Set(transcripts).count == 1, "\(transcripts)")
    let lines = transcripts[0].split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("expect") }.allSatisfy { $0.contains("result=pass") })
    #expect(lines.filter { $0.hasPrefix("entry") }.count == 4, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("status #15") && $0.hasSuffix("entry=3 entries=3") }, "\(lines)")
    #expect(!transcripts[0].contains(folders[0].url.path))
  }
}

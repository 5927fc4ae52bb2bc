// A long-lived vpk gives back what each file took: after 100 `close`/`open` cycles its open descriptors and threads
// are back to their count from before (read from /proc/<pid>/fd and /proc/<pid>/task).

import Foundation
import Testing
import VPKTestSupport

@Suite struct OpenCloseResourceTests {
  /// Descriptors and threads of a running process.
  private func resources(of pid: Int32) -> (fds: Int, threads: Int) {
    func count(_ folder: String) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1 }
    return (count("/proc/\(pid)/fd"), count("/proc/\(pid)/task"))
  }

  @Test func aHundredOpenCloseCyclesGiveBackEveryDescriptorAndThread() throws {
    // Given a vpk session on a clip, warmed up by one cycle
    let url = try TestMedia.url(for: .mpeg4)
    let session = try VPKSession(["play", url.path, "--paused", "--clock", "free", "--progress", "off", "--json"])
    defer { session.kill() }
    var id = 0
    func send(_ line: String) -> Int {
      session.send(line)
      id += 1
      return id
    }
    func answered(_ wanted: Int, _ event: String) throws {
      _ = try session.waitForLine(timeout: 30) {
        $0.contains("\"event\":\"\(event)\"")
          && ($0.contains("\"id\":\(wanted),") || $0.contains("\"id\":\(wanted)}"))
      }
    }
    try session.waitForLine(containing: "\"ready\"")
    _ = send("close")
    try answered(send("open \(url.path)"), "ready")
    try answered(send("status"), "status")
    Thread.sleep(forTimeInterval: 0.5)
    let before = resources(of: session.processIdentifier)
    // When the file is closed and opened again 100 times, and a frame decoded each time
    for _ in 0..<100 {
      try answered(send("close"), "closed")
      try answered(send("open \(url.path)"), "ready")
      _ = send("scrub 3")
    }
    try answered(send("status"), "status")
    // Then, once threads on their way out have gone, the counts are back where they were
    var after = resources(of: session.processIdentifier)
    let deadline = Date(timeIntervalSinceNow: 10)
    while (after.fds > before.fds || after.threads > before.threads) && Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      after = resources(of: session.processIdentifier)
    }
    #expect(after.fds <= before.fds, "descriptors \(before.fds) -> \(after.fds)")
    #expect(after.threads <= before.threads, "threads \(before.threads) -> \(after.threads)")
    print(
      "OpenCloseResourceTests: descriptors \(before.fds) -> \(after.fds), threads \(before.threads) -> \(after.threads)"
    )
    session.send("quit")
    #expect(try session.waitForExit(timeout: 30).status == 0)
  }
}

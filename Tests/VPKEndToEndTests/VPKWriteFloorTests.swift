// VPKWriteFloor, the bench's floor for the observers figure, end to end: it must write what vpk writes to each observer
// (one property-change a mark, with the client's own id) at each mark, or the floor it measures is not vpk's.

import Foundation
import Testing
import VPKTestSupport

@Suite struct VPKWriteFloorTests {
  @Test func eachClientGetsOneChangeAMarkWithItsOwnIDThenDone() throws {
    // Given the floor listening for 3 clients, 4 marks 10 ms apart
    let folder = URL(fileURLWithPath: "/tmp/vpk-floor-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let socket = folder.appendingPathComponent("s").path
    let program = try VPKProcess.executableURL().deletingLastPathComponent().appendingPathComponent("VPKWriteFloor")
    let floor = try VPKSession([socket, "3", "4", "10"], input: .closed, executable: program)
    let clients = try (0..<3).map { _ in try UnixSocketClient.connect(to: socket) }

    // When the first client starts the marks
    clients[0].send("go")

    // Then each client gets 4 changes of time-pos, the nth saying n × 10 ms, with its own id; then floor-done
    for (index, client) in clients.enumerated() {
      _ = try client.waitForLine(containing: "floor-done", timeout: 60)
      let changes = client.lines.filter { $0.contains("property-change") }
      #expect(
        changes
          == (1...4).map {
            "{\"event\":\"property-change\",\"id\":\(index + 1),\"name\":\"time-pos\",\"data\":\(Double($0) * 10 / 1000)}"
          })
    }
    // And it leaves, its socket removed, once the first client says so
    clients[0].send("quit")
    let result = try floor.waitForExit(timeout: 60)
    #expect(result.status == 0)
    #expect(!FileManager.default.fileExists(atPath: socket))
  }

  @Test func wrongArgumentsAreAUsageError() throws {
    let program = try VPKProcess.executableURL().deletingLastPathComponent().appendingPathComponent("VPKWriteFloor")
    let result = try VPKSession(["/tmp/x.sock", "0", "4", "10"], input: .closed, executable: program)
      .waitForExit(timeout: 60)
    #expect(result.status == 64)
    #expect(result.stderr.contains("usage: VPKWriteFloor"))
  }
}

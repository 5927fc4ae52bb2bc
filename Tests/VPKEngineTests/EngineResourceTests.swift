// Descriptors and threads come back: the engine driven through scrubs, a play to the end and 100 managers opened and
// shut down, in a process of its own (VPKLeakCheck, built beside vpk), so other tests running at the same time do not
// disturb the counts. scripts/leaks runs the same driver under valgrind.

import Foundation
import Testing
import VPKTestSupport

@Suite struct EngineResourceTests {
  @Test func descriptorsAndThreadsAreBackAfterASessionAndAHundredOpenCloseCycles() throws {
    let driver = try VPKProcess.executableURL().deletingLastPathComponent().appendingPathComponent("VPKLeakCheck")
    #expect(FileManager.default.isExecutableFile(atPath: driver.path), "build it: swift build (\(driver.path))")
    let process = Process()
    process.executableURL = driver
    process.arguments = [try TestMedia.url(for: .mpeg4).path, "--scrubs", "50", "--cycles", "100"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // The driver fails (status 1, a message) when a count is higher than before
    #expect(process.terminationStatus == 0, "\(stdout)\(stderr)")
    #expect(stdout.contains("100 open/close cycles"), "\(stdout)")
  }
}

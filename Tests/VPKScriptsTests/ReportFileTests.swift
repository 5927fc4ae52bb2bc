import Foundation
import Testing

@testable import VPKScripts

@Suite struct ReportFileTests {
  @Test func aRegularFileIsReplacedWhole() throws {
    // Given a report file that exists
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-report-\(getpid()).xml").path
    try "old, longer content".write(toFile: path, atomically: true, encoding: .utf8)
    defer { unlink(path) }
    // When a report is written there, Then it holds the new report only
    try ReportFile.write("<new/>", toFile: path)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "<new/>")
  }

  @Test func aPipeIsWrittenThroughNotReplaced() throws {
    // Given a FIFO (like /dev/null or /dev/stdout, not a regular file) with a reader: `cat` copying it to a file
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-report-\(getpid())-fifo")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("report").path
    let copy = folder.appendingPathComponent("copy").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: "/bin/sh")
    reader.arguments = ["-c", "cat \"$0\" > \"$1\"", fifo, copy]
    try reader.run()
    // When a report is written to it
    try ReportFile.write("<report/>", toFile: fifo)
    reader.waitUntilExit()
    // Then the reader got it, and the FIFO is still a FIFO: written through, not replaced by a regular file
    #expect(try String(contentsOfFile: copy, encoding: .utf8) == "<report/>")
    let type = try FileManager.default.attributesOfItem(atPath: fifo)[.type] as? FileAttributeType
    #expect(type != .typeRegular)
  }
}

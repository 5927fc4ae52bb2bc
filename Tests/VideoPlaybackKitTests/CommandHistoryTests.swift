// CommandHistory: lines appended as they are entered, shared by sessions at once, trimmed to the newest.

import Foundation
import Testing

@testable import VideoPlaybackKit

@Suite struct CommandHistoryTests {
  private func temporaryPath() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-history-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("state/vpk/history").path
  }

  @Test func twoSessionsOnOneFileKeepEachOthersLines() throws {
    // Given two sessions' histories on one file, each having loaded it when it started
    let path = try temporaryPath()
    let first = CommandHistory(path: path)
    let second = CommandHistory(path: path)
    #expect(first.load().isEmpty && second.load().isEmpty)
    // When each enters lines in turn
    first.append("play")
    second.append("scrub 30")
    first.append("status")
    second.append("quit")
    // Then the file holds every line, in the order entered, for the next session
    #expect(CommandHistory(path: path).load() == ["play", "scrub 30", "status", "quit"])
  }

  @Test func manyAppendsAtOnceLoseNoLine() async throws {
    // Given two histories on one file, appending from two threads at once
    let path = try temporaryPath()
    let first = CommandHistory(path: path, limit: 10_000)
    let second = CommandHistory(path: path, limit: 10_000)
    await withTaskGroup(of: Void.self) { group in
      group.addTask { for index in 0..<200 { first.append("a\(index)") } }
      group.addTask { for index in 0..<200 { second.append("b\(index)") } }
    }
    // Then every line is there once, whole, each session's in its order
    let lines = CommandHistory(path: path, limit: 10_000).load()
    #expect(lines.count == 400)
    #expect(lines.filter { $0.hasPrefix("a") } == (0..<200).map { "a\($0)" })
    #expect(lines.filter { $0.hasPrefix("b") } == (0..<200).map { "b\($0)" })
  }

  @Test func theFileIsTrimmedToTheNewestLines() throws {
    // Given a history that keeps 10 lines
    let path = try temporaryPath()
    let history = CommandHistory(path: path, limit: 10)
    // When 25 lines are entered
    for index in 0..<25 { history.append("line \(index)") }
    // Then it loads the newest 10, and the file holds at most a tenth more than that
    #expect(history.load() == (15..<25).map { "line \($0)" })
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.split(separator: "\n").count <= 11)
    #expect(text.hasSuffix("line 24\n"))
  }
}

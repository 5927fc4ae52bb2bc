// What `vpk test` prints and writes about its scripts: the summary, each failure at its line, the
// exit status, and the transcripts.

import Foundation
import VideoPlaybackKit

extension PlaybackTestRunner {
  /// The shard a run was, and how many scripts the whole suite has, for the summary.
  package struct Sharding: Sendable, Equatable {
    package var shard: TestShard
    package var scriptCount: Int

    package init(shard: TestShard, scriptCount: Int) {
      self.shard = shard
      self.scriptCount = scriptCount
    }
  }

  /// `1 command`, `2 commands`.
  nonisolated static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// One block per script (`PASS`/`FAIL` and each failure at its line), then `N passed, M failed` (and, for a
  /// shard, which shard and how many of the suite's scripts it ran).
  nonisolated package static func summary(of results: [PlaybackScriptResult], sharding: Sharding? = nil) -> String {
    var text = ""
    for result in results {
      let name = result.script.path
      if let unreadable = result.script.unreadable {
        text += "ERROR \(name): cannot read the script: \(unreadable)\n"
        continue
      }
      let commands = counted(result.report.commandCount, "command")
      let checks = counted(result.report.expectCount, "expect")
      let time = NumberText.fixed(result.seconds, decimals: 2)
      text += "\(result.passed ? "PASS" : "FAIL") \(name) (\(commands), \(checks), \(time) s)\n"
      if result.timedOut { text += "  \(name): stopped after the --timeout\n" }
      for failure in result.failures { text += "  " + describe(failure, in: name) + "\n" }
    }
    let passed = results.filter(\.passed).count
    text += "\(passed) passed, \(results.count - passed) failed"
    if let sharding {
      text += "; shard \(sharding.shard) ran \(results.count) of \(counted(sharding.scriptCount, "script"))"
    }
    return text + "\n"
  }

  /// `vpk test --json`: one JSON object per script, in the order given, then one summary object; one per line.
  nonisolated package static func jsonReport(of results: [PlaybackScriptResult], sharding: Sharding? = nil) -> String {
    var lines: [String] = []
    for result in results {
      var object: [String: Any] = ["event": "script", "path": result.script.path]
      if let unreadable = result.script.unreadable {
        object["result"] = "error"
        object["message"] = "cannot read the script: \(unreadable)"
      } else {
        object["result"] = result.passed ? "pass" : "fail"
        object["commands"] = result.report.commandCount
        object["expects"] = result.report.expectCount
        object["seconds"] = NumberText.rounded(result.seconds, decimals: 3)
        object["timed_out"] = result.timedOut
        object["peak_rss_bytes"] = result.peakResidentBytes ?? NSNull()
        object["cache_hits"] = result.report.frameCacheHits
        object["cache_misses"] = result.report.frameCacheMisses
        object["cache_hit_rate"] = result.frameCacheHitRate.map { NumberText.rounded($0, decimals: 4) } ?? NSNull()
        object["failures"] = result.failures.map { failure in
          var entry: [String: Any] = [
            "code": failure.code.rawValue, "message": describe(failure, in: result.script.path),
          ]
          if let picture = failure.picture { entry["picture"] = picture }
          if let source = failure.source {
            entry["line"] = source.number
            entry["source"] = source.text.trimmingCharacters(in: .whitespaces)
          }
          return entry
        }
      }
      lines.append(json(object))
    }
    let passed = results.filter(\.passed).count
    var summary: [String: Any] = [
      "event": "summary", "passed": passed, "failed": results.count - passed, "exit": Int(exitCode(of: results)),
    ]
    if let sharding {
      summary["shard"] = sharding.shard.description
      summary["scripts"] = sharding.scriptCount
    }
    lines.append(json(summary))
    return lines.map { $0 + "\n" }.joined()
  }

  /// One object as a line of JSON, keys sorted so a report is the same every run.
  nonisolated private static func json(_ object: [String: Any]) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// `script.vpk:7: expect position ~ 10: expected 10, actual 9.967`.
  nonisolated package static func describe(_ failure: SessionReport.Failure, in name: String) -> String {
    let place = failure.source.map { "\(name):\($0.number)" } ?? name
    let line = failure.source.map { $0.text.trimmingCharacters(in: .whitespaces) } ?? ""
    if failure.code == .expectFailed, let expected = failure.expected, let actual = failure.actual {
      let picture = failure.picture.map { "; frame on screen saved as \($0)" } ?? ""
      return "\(place): \(line): expected \(text(of: expected)), actual \(text(of: actual))\(picture)"
    }
    let quoted = line.isEmpty ? "" : "\(line): "
    return "\(place): \(quoted)\(failure.code.rawValue): \(failure.error.message)"
  }

  nonisolated static func text(of value: ExpectValue) -> String {
    switch value {
    case .number(let number): NumberText.trimmed(number, decimals: 6)
    case .string(let string): TextQuoting.value(string)
    case .bool(let bool): bool ? "true" : "false"
    case .none: "none"
    }
  }

  /// 0 when every script passed, 2 when one could not be read, else 1.
  nonisolated package static func exitCode(of results: [PlaybackScriptResult]) -> Int32 {
    if results.contains(where: { $0.script.unreadable != nil }) { return 2 }
    return results.allSatisfy(\.passed) ? 0 : 1
  }

  /// Writes each script's transcript to `folder/<script path with / as __>.txt` (or `.jsonl`).
  nonisolated package static func writeTranscripts(_ results: [PlaybackScriptResult], to folder: String, json: Bool)
    throws
  {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for result in results where result.script.unreadable == nil {
      let name = transcriptStem(of: result.script.path)
      let url = URL(fileURLWithPath: folder).appendingPathComponent(name + (json ? ".jsonl" : ".txt"))
      try ReportFile.write(result.transcript, toFile: url.path)
    }
  }

  /// A script's transcript name without its extension: its path with `/` as `__` (`checks__seek.vpk`).
  nonisolated static func transcriptStem(of scriptPath: String) -> String {
    var name = scriptPath
    while name.hasPrefix("./") { name.removeFirst(2) }
    return name.replacingOccurrences(of: "/", with: "__")
  }
}

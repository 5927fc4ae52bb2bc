// What `vpk test` prints and writes about its scripts: the summary, each failure at its line, the
// exit status, and the transcripts.

import Foundation
import VideoPlaybackKit

extension PlaybackTestRunner {
  /// One block per script (`PASS`/`FAIL` and each failure at its line), then `N passed, M failed`.
  nonisolated public static func summary(of results: [PlaybackScriptResult]) -> String {
    var text = ""
    for result in results {
      let name = result.script.path
      if let unreadable = result.script.unreadable {
        text += "ERROR \(name): cannot read the script: \(unreadable)\n"
        continue
      }
      let checks = "\(result.report.expectCount) expect\(result.report.expectCount == 1 ? "" : "s")"
      let time = NumberText.fixed(result.seconds, decimals: 2)
      text +=
        "\(result.passed ? "PASS" : "FAIL") \(name) (\(result.report.commandCount) commands, \(checks), \(time) s)\n"
      if result.timedOut { text += "  \(name): stopped after the --timeout\n" }
      for failure in result.failures { text += "  " + describe(failure, in: name) + "\n" }
    }
    let passed = results.filter(\.passed).count
    text += "\(passed) passed, \(results.count - passed) failed\n"
    return text
  }

  /// `script.vpk:7: expect position ~ 10: expected 10, actual 9.967`.
  nonisolated public static func describe(_ failure: SessionReport.Failure, in name: String) -> String {
    let place = failure.source.map { "\(name):\($0.number)" } ?? name
    let line = failure.source.map { $0.text.trimmingCharacters(in: .whitespaces) } ?? ""
    if failure.code == .expectFailed, let expected = failure.expected, let actual = failure.actual {
      return "\(place): \(line): expected \(text(of: expected)), actual \(text(of: actual))"
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
  nonisolated public static func exitCode(of results: [PlaybackScriptResult]) -> Int32 {
    if results.contains(where: { $0.script.unreadable != nil }) { return 2 }
    return results.allSatisfy(\.passed) ? 0 : 1
  }

  /// Writes each script's transcript to `folder/<script path with / as __>.txt` (or `.jsonl`).
  nonisolated public static func writeTranscripts(_ results: [PlaybackScriptResult], to folder: String, json: Bool)
    throws
  {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for result in results where result.script.unreadable == nil {
      var name = result.script.path
      while name.hasPrefix("./") { name.removeFirst(2) }
      name = name.replacingOccurrences(of: "/", with: "__")
      let url = URL(fileURLWithPath: folder).appendingPathComponent(name + (json ? ".jsonl" : ".txt"))
      try result.transcript.write(to: url, atomically: true, encoding: .utf8)
    }
  }
}

// JUnitReport: `vpk test --junit FILE`. The JUnit XML that CI systems (Jenkins, GitLab, GitHub
// actions' test reporters) read: one test suite, one test case per script, a <failure> per failed
// script with every failing line, an <error> for a script that could not be read. Pictures of failed frame checks
// are attachments in the failed test case's <system-out>. Each script that ran has <properties>: the process's peak
// resident bytes while it ran and its frame cache's hits, misses and hit rate (as `vpk test --json` has them).

import Foundation
import VideoPlaybackKit

package struct JUnitReport {
  package var results: [PlaybackScriptResult]

  package init(results: [PlaybackScriptResult]) { self.results = results }

  package var xml: String {
    let failures = results.filter { !$0.passed && $0.script.unreadable == nil }.count
    let errors = results.filter { $0.script.unreadable != nil }.count
    let total = results.reduce(0) { $0 + $1.seconds }
    var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    let counts = "tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(total))\""
    text += "<testsuites name=\"vpk test\" \(counts)>\n"
    text += "  <testsuite name=\"vpk test\" \(counts)>\n"
    for result in results {
      let name = Self.escape(result.script.path)
      text += "    <testcase classname=\"vpk\" name=\"\(name)\" time=\"\(seconds(result.seconds))\""
      if let unreadable = result.script.unreadable {
        text +=
          ">\n      <error type=\"unreadable\" message=\"\(Self.escape("cannot read the script: \(unreadable)"))\"/>\n"
        text += "    </testcase>\n"
      } else if result.passed {
        text += ">\n" + Self.properties(result)
        text += "    </testcase>\n"
      } else {
        let lines =
          result.failures.map { PlaybackTestRunner.describe($0, in: result.script.path) }
          + (result.timedOut ? ["\(result.script.path): stopped after the --timeout"] : [])
        let first = lines.first ?? "the session ended with status \(result.exitCode)"
        let type = result.failures.first?.code.rawValue ?? "session"
        text += ">\n" + Self.properties(result)
        text += "      <failure type=\"\(Self.escape(type))\" message=\"\(Self.escape(first))\">"
        text += Self.escape(lines.joined(separator: "\n")) + "</failure>\n"
        text += "      <system-out>" + Self.escape(Self.attachmentLines(result) + result.transcript) + "</system-out>\n"
        text += "    </testcase>\n"
      }
    }
    text += "  </testsuite>\n</testsuites>\n"
    return text
  }

  /// A script's `<properties>`: `peak_rss_bytes` (when it could be read), `cache_hits`, `cache_misses` and
  /// `cache_hit_rate` (when the cache had lookups).
  static func properties(_ result: PlaybackScriptResult) -> String {
    var pairs: [(String, String)] = []
    if let peak = result.peakResidentBytes { pairs.append(("peak_rss_bytes", String(peak))) }
    pairs.append(("cache_hits", String(result.report.frameCacheHits)))
    pairs.append(("cache_misses", String(result.report.frameCacheMisses)))
    if let rate = result.frameCacheHitRate {
      pairs.append(("cache_hit_rate", NumberText.trimmed(rate, decimals: 4)))
    }
    var text = "      <properties>\n"
    for (name, value) in pairs { text += "        <property name=\"\(name)\" value=\"\(escape(value))\"/>\n" }
    return text + "      </properties>\n"
  }

  /// The pictures of a script's failures as attachments, one line each before its transcript, in the convention
  /// Jenkins' JUnit Attachments plugin set and GitLab and Azure DevOps read too: `[[ATTACHMENT|/absolute/path.png]]`.
  static func attachmentLines(_ result: PlaybackScriptResult) -> String {
    result.failures.compactMap(\.picture).map { picture in
      "[[ATTACHMENT|" + URL(fileURLWithPath: picture).standardizedFileURL.path + "]]\n"
    }.joined()
  }

  private func seconds(_ value: Double) -> String { NumberText.fixed(value, decimals: 3) }

  /// Escapes text for XML attributes and content; characters XML 1.0 cannot hold become U+FFFD. (It looks like
  /// JSONLinesView's string encoder, but XML's rules differ: entities, no \u escapes, replaced controls.)
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
      case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value):
        result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

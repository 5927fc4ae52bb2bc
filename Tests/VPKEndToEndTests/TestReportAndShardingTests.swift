// End-to-end tests of what `vpk test` reports and how a suite spreads over machines, through the built `vpk`: the
// JSON report against its schema, the summary's words, `--help`'s list of expect fields, refused arguments, and
// sharded runs (by --shard and by the variables Bazel and other test runners set) that cover every script once.

import Foundation
import Testing
import VPKTestSupport

@Suite struct TestReportAndShardingTests {
  /// A folder of `count` passing scripts, one with a single command, named so their sorted order differs from the
  /// order they are given in.
  private func suite(_ count: Int) throws -> (folder: ScriptFolder, scripts: [String]) {
    let folder = try ScriptFolder()
    var scripts: [String] = []
    for number in 0..<count {
      let lines = number == 0 ? ["quit"] : ["open clip.mp4", "scrub \(number)", "expect position == \(number)"]
      scripts.append(try folder.write("s\(number).vpk", lines))
    }
    return (folder, scripts.reversed())
  }

  /// The scripts a text summary says passed.
  private func passed(_ result: VPKResult) -> [String] {
    result.stdoutLines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst(5).prefix { $0 != " " }) }
  }

  @Test func shardsGivenByFlagCoverEveryScriptExactlyOnce() throws {
    let (folder, scripts) = try suite(7)
    defer { folder.remove() }
    for count in [1, 2, 3, 7, 9] {
      // When the suite runs as each of `count` shards
      var ran: [String] = []
      for number in 1...count {
        let result = try VPKProcess.run(
          ["test", "--shard", "\(number)/\(count)", "--jobs", "1"] + scripts, timeout: 120)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        ran += passed(result)
        #expect(
          result.stdoutLines.last?.hasSuffix("shard \(number)/\(count) ran \(passed(result).count) of 7 scripts")
            == true)
      }
      // Then every script ran in exactly one shard
      #expect(ran.sorted() == scripts.sorted(), "\(count) shards")
    }
  }

  @Test func shardsGivenByTheTestRunnersVariablesCoverEveryScriptTheSameWay() throws {
    let (folder, scripts) = try suite(5)
    defer { folder.remove() }
    var ran: [String] = []
    for index in 0..<3 {
      // Given Bazel's variables for shard `index` (from 0) of 3
      let status = folder.path("status-\(index)")
      let xml = folder.path("junit-\(index).xml")
      let environment = [
        "TEST_TOTAL_SHARDS": "3", "TEST_SHARD_INDEX": "\(index)", "TEST_SHARD_STATUS_FILE": status,
        "XML_OUTPUT_FILE": xml,
      ]
      let result = try VPKProcess.run(["test"] + scripts, environment: environment, timeout: 120)
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      // Then the status file is touched, the JUnit report is where XML_OUTPUT_FILE says, naming this shard's scripts
      #expect(FileManager.default.fileExists(atPath: status))
      let report = try String(contentsOfFile: xml, encoding: .utf8)
      #expect(report.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
      let mine = passed(result)
      #expect(report.components(separatedBy: "<testcase ").count - 1 == mine.count)
      // and the same partition as --shard index+1/3
      let flagged = try VPKProcess.run(["test", "--shard", "\(index + 1)/3"] + scripts.shuffled(), timeout: 120)
      #expect(Set(passed(flagged)) == Set(mine))
      ran += mine
    }
    #expect(ran.sorted() == scripts.sorted())
  }

  @Test(arguments: [
    (["--shard", "0/3"], [String: String](), "shard 0 does not exist"),
    (["--shard", "4/3"], [:], "shard 4 does not exist: there are 3 shards, 1 to 3"),
    (["--shard", "2"], [:], "--shard takes K/N"), (["--shard", "-1/2"], [:], "--shard takes K/N"),
    ([], ["TEST_TOTAL_SHARDS": "2", "TEST_SHARD_INDEX": "2"], "shard 3 does not exist"),
    ([], ["TEST_TOTAL_SHARDS": "two", "TEST_SHARD_INDEX": "0"], "TEST_TOTAL_SHARDS must be a whole number"),
    ([], ["TEST_TOTAL_SHARDS": "2"], "set without TEST_SHARD_INDEX"),
  ])
  func aShardThatCannotBeIsRefused(arguments: [String], environment: [String: String], words: String) throws {
    let result = try VPKProcess.run(["test", "x.vpk"] + arguments, environment: environment)
    #expect(result.status == 64)
    #expect(result.stderr.contains(words), "\(result.stderr)")
  }

  @Test func theJSONReportIsOneObjectPerScriptAndASummaryThatMatchTheSchema() throws {
    // Given a passing script, a failing one, and one that does not exist
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let pass = try folder.write("pass.vpk", ["open clip.mp4", "expect frame.key == true"])
    let fail = try folder.write("fail.vpk", ["open clip.mp4", "expect state == paused"])
    // When vpk test runs them with --json
    let result = try VPKProcess.run(["test", "--json", pass, fail, folder.path("none.vpk")], timeout: 120)
    // Then the report is JSON lines that match the schema: three scripts, then the summary
    #expect(result.status == 2)
    let schema = try VPKSchemas.testReport()
    for (line, errors) in zip(result.stdoutLines, try schema.errors(inLines: result.stdoutLines)) {
      #expect(errors.isEmpty, "\(line)\n\(errors.joined(separator: "\n"))")
    }
    let objects = try result.stdoutLines.map(JSONValue.parse)
    #expect(objects.map { $0["event"]?.string } == ["script", "script", "script", "summary"])
    #expect(objects.map { $0["result"]?.string } == ["pass", "fail", "error", nil])
    #expect(objects[1]["failures"]?.description.contains("fail.vpk:2: expect state == paused") == true)
    #expect(objects[3]["passed"]?.int == 1 && objects[3]["failed"]?.int == 2 && objects[3]["exit"]?.int == 2)
  }

  @Test func withFourJobsEachScriptReportsThePeakMemoryAndTheCacheHitRate() throws {
    // Given four scripts that scrub, step back three frames and scrub back, so the frame cache both decodes and answers
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let scripts = try (1...4).map { number in
      try folder.write(
        "scrub\(number).vpk",
        ["open clip.mp4", "pause", "scrub \(number).5", "step -1", "step -1", "step -1", "scrub \(number).3"])
    }
    // When vpk test runs them four at a time with --json, with the cache on and then off
    let on = try VPKProcess.run(["test", "--json", "--jobs", "4"] + scripts, timeout: 120)
    let off = try VPKProcess.run(["test", "--json", "--jobs", "4", "--frame-cache", "0"] + scripts, timeout: 120)
    // Then each report matches the schema
    let schema = try VPKSchemas.testReport()
    for result in [on, off] {
      #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
      for (line, errors) in zip(result.stdoutLines, try schema.errors(inLines: result.stdoutLines)) {
        #expect(errors.isEmpty, "\(line)\n\(errors.joined(separator: "\n"))")
      }
    }
    // and every script has the process's peak resident bytes and a hit rate that is its hits over its lookups
    let reports = try on.stdoutLines.map(JSONValue.parse).filter { $0["event"]?.string == "script" }
    #expect(reports.count == 4)
    for report in reports {
      #expect((report["peak_rss_bytes"]?.int ?? 0) > 0, "\(report)")
      let hits = try #require(report["cache_hits"]?.int)
      let misses = try #require(report["cache_misses"]?.int)
      #expect(hits > 0 && misses > 0, "\(report)")
      let rate = try #require(report["cache_hit_rate"]?.double)
      #expect(abs(rate - Double(hits) / Double(hits + misses)) < 0.0001, "\(report)")
    }
    // and with the cache off there are no lookups, so no hit rate, and still a peak
    let offReports = try off.stdoutLines.map(JSONValue.parse).filter { $0["event"]?.string == "script" }
    #expect(offReports.count == 4)
    for report in offReports {
      #expect(report["cache_hits"]?.int == 0 && report["cache_misses"]?.int == 0, "\(report)")
      #expect(report["cache_hit_rate"] == .null, "\(report)")
      #expect((report["peak_rss_bytes"]?.int ?? 0) > 0, "\(report)")
    }
  }

  @Test func helpSaysTheRunsCacheBudgetIsDividedAmongTheJobs() throws {
    let result = try VPKProcess.run(["test", "--help"])
    let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("divided equally among the jobs"), "\(result.stdout)")
    #expect(help.contains("1/16 of the machine's physical memory, at most 256M"), "\(result.stdout)")
    #expect(help.contains("peak_rss_bytes"), "\(result.stdout)")
  }

  @Test func theSummarySaysOneCommandAndOneExpect() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = try folder.write("one.vpk", ["expect state == idle"])
    let result = try VPKProcess.run(["test", script])
    #expect(result.stdoutLines.first?.contains("(1 command, 1 expect, ") == true, "\(result.stdout)")
  }

  @Test func helpListsEveryExpectFieldAndOperator() throws {
    let result = try VPKProcess.run(["test", "--help"])
    let help = result.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
    for word in ["state", "frame.key", "audio.channels", "video.pix_fmt", "==", "!=", "<=", ">=", "~"] {
      #expect(help.contains(word), "\(word)")
    }
    #expect(result.stdout.contains("--shard"))
    #expect(result.stdout.contains("TEST_TOTAL_SHARDS"))
  }

  @Test(arguments: [["test", "x.vpk"], ["play", "x.mp4"]])
  func aNegativeProgressIsRefusedWithItsOwnMessage(command: [String]) throws {
    let result = try VPKProcess.run(command + ["--progress", "-1"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("--progress takes a number of seconds above 0"), "\(result.stderr)")
    #expect(!result.stderr.contains("Missing value"))
  }

  @Test func aBooleanSpelledYesIsRefusedInAScript() throws {
    let folder = try ScriptFolder()
    defer { folder.remove() }
    let script = try folder.write("yes.vpk", ["open clip.mp4", "expect frame.key == yes"])
    let result = try VPKProcess.run(["test", script])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(
        "yes.vpk:2: expect frame.key == yes: bad_argument: expect frame.key: 'yes' is not true or false"),
      "\(result.stdout)")
  }
}

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKScripts

@Suite struct JUnitReportTests {
  private func result(
    _ path: String, seconds: Double, failures: [SessionReport.Failure] = [], exitCode: Int32 = 0,
    unreadable: String? = nil, transcript: String = "", timedOut: Bool = false, peak: Int? = nil, cacheHits: Int = 0,
    cacheMisses: Int = 0
  ) -> PlaybackScriptResult {
    var report = SessionReport()
    report.failedChecks = failures
    report.frameCacheHits = cacheHits
    report.frameCacheMisses = cacheMisses
    return PlaybackScriptResult(
      script: PlaybackScriptFile(path: path, lines: unreadable == nil ? [] : nil, unreadable: unreadable),
      report: report, exitCode: exitCode, transcript: transcript, seconds: seconds, timedOut: timedOut,
      peakResidentBytes: peak)
  }

  @Test func aPassAFailureAndAnError() {
    // Given a passing script, a failing one with a name full of XML's special characters, and an unreadable one
    let failure = SessionReport.Failure(
      commandID: 2, source: SourceLine(number: 2, text: "expect state == playing"), code: .expectFailed,
      expected: .string("playing"), actual: .string("paused"), message: "")
    let results = [
      result("a.vpk", seconds: 0.5, peak: 123_456_789, cacheHits: 3, cacheMisses: 1),
      result(#"b&<>"'.vpk"#, seconds: 1.25, failures: [failure], exitCode: 1, transcript: "ready\u{1}\n"),
      result("c.vpk", seconds: 0, unreadable: "no such file"),
    ]
    // When the report is made, Then counts, one test case each with its memory and cache properties, escaped text,
    // control characters replaced
    let description = #"b&amp;&lt;&gt;&quot;&apos;.vpk:2: expect state == playing: expected playing, actual paused"#
    #expect(
      JUnitReport(results: results).xml == """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="vpk test" tests="3" failures="1" errors="1" time="1.750">
          <testsuite name="vpk test" tests="3" failures="1" errors="1" time="1.750">
            <testcase classname="vpk" name="a.vpk" time="0.500">
              <properties>
                <property name="peak_rss_bytes" value="123456789"/>
                <property name="cache_hits" value="3"/>
                <property name="cache_misses" value="1"/>
                <property name="cache_hit_rate" value="0.75"/>
              </properties>
            </testcase>
            <testcase classname="vpk" name="b&amp;&lt;&gt;&quot;&apos;.vpk" time="1.250">
              <properties>
                <property name="cache_hits" value="0"/>
                <property name="cache_misses" value="0"/>
              </properties>
              <failure type="expect_failed" message="\(description)">\(description)</failure>
              <system-out>ready\u{FFFD}
        </system-out>
            </testcase>
            <testcase classname="vpk" name="c.vpk" time="0.000">
              <error type="unreadable" message="cannot read the script: no such file"/>
            </testcase>
          </testsuite>
        </testsuites>

        """)
  }

  @Test func aFailedFrameCheckAttachesItsPicture() {
    // Given a script whose frame check failed with a picture saved (relative to the working directory, with `&`)
    var failure = SessionReport.Failure(
      commandID: 3, source: SourceLine(number: 3, text: "expect frame.md5 == 0"), code: .expectFailed,
      expected: .string("0"), actual: .string("ab"), message: "")
    failure.picture = "/out/a&b.vpk.line3.png"
    var relative = SessionReport.Failure(
      commandID: 4, source: SourceLine(number: 4, text: "expect frame.key == true"), code: .expectFailed,
      expected: .bool(true), actual: .bool(false), message: "")
    relative.picture = "out/x.png"
    let xml = JUnitReport(
      results: [result("a&b.vpk", seconds: 1, failures: [failure, relative], exitCode: 1, transcript: "expect #3\n")]
    ).xml
    // Then <system-out> starts with one attachment line per picture (absolute paths, escaped), then the transcript,
    // and the failure message names the picture
    let cwd = FileManager.default.currentDirectoryPath
    #expect(
      xml.contains(
        "<system-out>[[ATTACHMENT|/out/a&amp;b.vpk.line3.png]]\n[[ATTACHMENT|\(cwd)/out/x.png]]\nexpect #3\n</system-out>"
      ),
      "\(xml)")
    #expect(xml.contains("actual ab; frame on screen saved as /out/a&amp;b.vpk.line3.png"), "\(xml)")
  }

  @Test func aTimedOutScriptWithNoFailureSaysWhy() {
    let xml = JUnitReport(results: [result("t.vpk", seconds: 2, exitCode: 143, timedOut: true)]).xml
    #expect(xml.contains(#"<failure type="session" message="t.vpk: stopped after the --timeout">"#))
    #expect(xml.contains(#"tests="1" failures="1" errors="0""#))
  }

  @Test func escaping() {
    #expect(JUnitReport.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
    #expect(JUnitReport.escape("tab\tnl\ncr\r") == "tab\tnl\ncr\r")
    #expect(JUnitReport.escape("nul\u{0}esc\u{1B}bad\u{FFFE}") == "nul\u{FFFD}esc\u{FFFD}bad\u{FFFD}")
    #expect(JUnitReport.escape("é😀") == "é😀")
  }

  @Test func anEmptyRun() {
    #expect(
      JUnitReport(results: []).xml.contains(
        #"<testsuite name="vpk test" tests="0" failures="0" errors="0" time="0.000">"#))
  }
}

// `vpk info` end to end: one description and nothing else (no session's events), `--json` one JSON object that its
// schema (schema/vpk-info.schema.json) and `python3 -m json.tool` accept and that agrees with ffprobe; a file that
// cannot be opened is one line on stderr, nothing on stdout and exit status 3. And `vpk play` on a file that cannot be
// opened, with stdout not a terminal: the error event on stdout, one line on stderr.

import Foundation
import Testing
import VPKTestSupport

@Suite struct InfoCommandTests {
  static let readable: [TestClip] = TestClip.allCases.filter { ![.emptyFile, .randomBytes, .textFile].contains($0) }

  @Test func jsonIsOneObjectThatValidatesAndAgreesWithFFprobe() throws {
    var lines: [String] = []
    for clip in Self.readable {
      let url = try TestMedia.url(for: clip)
      let result = try VPKProcess.run(["info", url.path, "--json"])
      #expect(result.status == 0, "\(clip): \(result.stderr)")
      #expect(result.stderr.isEmpty, "\(clip): \(result.stderr)")
      #expect(result.stdoutLines.count == 1, "\(clip): \(result.stdout)")
      let line = try #require(result.stdoutLines.first)
      lines.append(line)
      try expectJSONTool(accepts: result.stdout, "\(clip)")

      let object = try JSONValue.parse(line)
      let probe = try FFprobe.description(url)
      #expect(object["path"]?.string == url.path)
      #expect(object["format"]?["format_name"] == probe["format"]?["format_name"], "\(clip)")
      #expect(object["format"]?["nb_streams"] == probe["format"]?["nb_streams"], "\(clip)")
      #expect(
        object["format"]?["duration"]?.double == probe["format"]?["duration"]?.string.flatMap(Double.init),
        "\(clip) duration")
      guard case .array(let streams)? = object["streams"], case .array(let probed)? = probe["streams"] else {
        Issue.record("\(clip): no streams array")
        continue
      }
      #expect(streams.map { $0["codec_type"] } == probed.map { $0["codec_type"] }, "\(clip)")
      #expect(streams.map { $0["width"]?.int } == probed.map { $0["width"]?.int }, "\(clip)")
    }
    // Every clip's object against the schema, in one validator run.
    let errors = try VPKSchemas.info().errors(inLines: lines)
    for (clip, found) in zip(Self.readable, errors) {
      #expect(found.isEmpty, "\(clip): \(found)")
    }
  }

  @Test func textIsOneDescriptionWithNoSessionEvents() throws {
    let url = try TestMedia.url(for: .describedMP4)
    let result = try VPKProcess.run(["info", url.path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    #expect(result.stdoutLines.first == "General")
    for expected in [
      "Stream #0: video", "Stream #1: audio", "Stream #2: subtitle", "Stream #3: data", "Chapters", "Rotation",
      "90°", "Described clip", "Opening", "Ending", "deu", "forced",
    ] {
      #expect(result.stdout.contains(expected), "missing \(expected) in\n\(result.stdout)")
    }
    for sessionWord in ["ready", "shutdown", "frames_decoded"] {
      #expect(!result.stdout.contains(sessionWord), "\(result.stdout)")
    }
  }

  @Test func textAndJSONSayTheSame() throws {
    // The text block shows the JSON's values (a description made once, formatted twice).
    for clip in Self.readable {
      let path = try TestMedia.url(for: clip).path
      let text = try VPKProcess.run(["info", path]).stdout
      let object = try JSONValue.parse(try VPKProcess.run(["info", path, "--json"]).stdout)
      let lines = text.split(separator: "\n").map(String.init)
      func value(_ label: String, after heading: String) -> String? {
        let start = lines.firstIndex(of: heading).map { $0 + 1 } ?? lines.endIndex
        let section = lines[start...].prefix { $0.hasPrefix("  ") }
        return section.first { $0.hasPrefix("  \(label) ") }.map {
          String($0.dropFirst(2 + label.count).drop { $0 == " " })
        }
      }
      #expect(
        value("Container", after: "General")?.hasPrefix(object["format"]?["format_name"]?.string ?? "?") == true,
        "\(clip)")
      #expect(value("Streams", after: "General") == object["format"]?["nb_streams"]?.int.map(String.init), "\(clip)")
      guard case .array(let streams)? = object["streams"] else { continue }
      for stream in streams {
        let heading = "Stream #\(stream["index"]?.int ?? -1): \(stream["codec_type"]?.string ?? "?")"
        #expect(lines.contains(heading), "\(clip): \(heading)")
        #expect(
          value("Codec", after: heading)?.hasPrefix(stream["codec_name"]?.string ?? "unknown") == true,
          "\(clip) \(heading)")
        if let width = stream["width"]?.int, let height = stream["height"]?.int {
          #expect(value("Size", after: heading) == "\(width)x\(height)", "\(clip) \(heading)")
        }
        if let rate = stream["sample_rate"]?.int {
          #expect(value("Sample rate", after: heading) == "\(rate) Hz", "\(clip) \(heading)")
        }
        if let frames = stream["nb_frames"]?.int {
          #expect(value("Frames", after: heading) == String(frames), "\(clip) \(heading)")
        }
      }
    }
  }

  @Test(arguments: [
    ("/nonexistent/missing.mp4", "file_not_found"), ("/tmp", "not_a_file"),
    ("http://127.0.0.1:9/x.mp4", "refused_protocol"),
  ])
  func anUnopenablePathIsOneLineOnStderrAndExitThree(path: String, code: String) throws {
    for json in [false, true] {
      let result = try VPKProcess.run(["info", path] + (json ? ["--json"] : []))
      #expect(result.status == 3, "\(path)")
      #expect(result.stdout.isEmpty, "\(path): \(result.stdout)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == 1, "\(path): \(result.stderr)")
      #expect(result.stderr.hasPrefix("vpk: ") && result.stderr.contains(code), "\(path): \(result.stderr)")
    }
  }

  @Test(arguments: [TestClip.emptyFile, .randomBytes, .textFile])
  func aFileThatIsNotMediaIsOneLineOnStderrAndExitThree(clip: TestClip) throws {
    let result = try VPKProcess.run(["info", try TestMedia.url(for: clip).path])
    #expect(result.status == 3)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("not_media"), "\(result.stderr)")
  }

  @Test func playOnAMissingFileThroughAPipeSaysItOnStdoutAndOnceOnStderr() throws {
    // VPKProcess's stdout is a pipe, as in `vpk play missing.mp4 | cat`.
    let result = try VPKProcess.run(["play", "/nonexistent/missing.mp4"], input: .closed)
    #expect(result.status == 3)
    #expect(result.events("error").first?.fields["code"] == "file_not_found")
    #expect(result.events("shutdown").first?.fields["reason"] == "open failed")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stderr)")
    #expect(lines.first?.hasPrefix("vpk: no such file: /nonexistent/missing.mp4") == true, "\(result.stderr)")
  }

  @Test func playThatOpensItsFileWritesNothingOnStderr() throws {
    let result = try session(try TestMedia.url(for: .audioOnly), ["quit"])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
  }

  /// `python3 -m json.tool` reads `text` (from its standard input) without complaint.
  private func expectJSONTool(accepts text: String, _ label: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-m", "json.tool"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // The description is small: the pipes' buffers hold it, so writing before reading cannot block.
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    _ = output.fileHandleForReading.readDataToEndOfFile()
    let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(label): json.tool: \(complaint)")
  }
}

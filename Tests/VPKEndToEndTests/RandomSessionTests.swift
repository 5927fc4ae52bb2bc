// Random command sequences against a real vpk session: after each command a `status` must come back, consistent
// with everything sent so far. Seeded: the seed is printed, and VPK_SEED=<seed> replays a sequence.

import Foundation
import Testing
import VPKTestSupport

/// One JSON event line of vpk's output.
struct JSONEvent {
  var object: [String: Any]
  var name: String { object["event"] as? String ?? "" }
  var id: Int? { object["id"] as? Int }
  var state: String? { object["state"] as? String }
  var position: Double? { (object["position"] as? NSNumber)?.doubleValue }

  init?(_ line: String) {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    self.object = object
  }
}

/// Standard error without LeakSanitizer's "Suppressions used" table, which a vpk built with AddressSanitizer prints
/// at exit (its suppressed leaks are the Swift runtime's, see scripts/lsan-suppressions.txt); any report stays.
func withoutSanitizerStatistics(_ stderr: String) -> String {
  var kept: [Substring] = []
  var inTable = false
  for line in stderr.split(separator: "\n", omittingEmptySubsequences: false) {
    if line.hasPrefix("Suppressions used:") {
      inTable = true
      if kept.last?.allSatisfy({ $0 == "-" }) == true { kept.removeLast() }
      continue
    }
    if inTable {
      if line.allSatisfy({ $0 == "-" }) && !line.isEmpty { inTable = false }
      continue
    }
    kept.append(line)
  }
  return kept.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
}

/// One random line.
private enum Step {
  /// A command, valid or not: takes an id and gets an answer.
  case command(String)
  /// A blank line or a comment: takes no id, gets no answer.
  case ignored(String)
}

@Suite struct RandomSessionTests {
  static let states: Set<String> = ["idle", "loading", "playing", "paused", "ended"]

  @Test(arguments: [TestClip.h264BFrames, .mpeg4AVI, .mpegTS, .audioOnly])
  func randomCommandsKeepTheSessionConsistent(clip: TestClip) throws {
    let seed =
      ProcessInfo.processInfo.environment["VPK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(1 << 40))
    print("RandomSessionTests: \(clip) with seed \(seed) (replay with VPK_SEED=\(seed))")
    var random = SplitMix64(seed: seed &+ UInt64(TestClip.allCases.firstIndex(of: clip)!))
    let url = try TestMedia.url(for: clip)
    let duration = try FFprobe.duration(url)
    let session = try VPKSession(
      ["play", url.path, "--json", "--paused", "--clock", "free", "--progress", "off", "--at-end", "pause"])
    defer { session.kill() }

    var nextID = 1
    /// Whether the last state change left playback paused (nothing can move it until a play).
    var surelyPaused = true
    /// Whether a file is loaded (`close` unloads it, `open` loads it again).
    var loaded = true
    /// With no file loaded: whether the next file surely opens paused. Pause outlives the file: `close` leaves the
    /// next file paused unless the file was playing, and `play`, `pause`, `toggle` with nothing loaded set it.
    var nextOpensPaused = true
    for step in 0..<120 {
      let line = Self.randomLine(&random, duration: duration, path: url.path)
      guard case .command(let text) = line else {
        if case .ignored(let text) = line { #expect(session.send(text)) }
        continue
      }
      #expect(session.send(text), "seed \(seed) step \(step): vpk stopped reading")
      nextID += 1
      let lowered = text.lowercased()
      if loaded {
        if lowered == "play" { surelyPaused = false }
        if lowered == "pause" { surelyPaused = true }
        if lowered == "toggle" { surelyPaused = false }  // the model does not track which way it went
        // A step pauses only where there are video frames to step between: on audio-only media it is an
        // `unavailable` error, and an error leaves the state as it was.
        if lowered.hasPrefix("step") && clip != .audioOnly { surelyPaused = true }
      } else {
        if lowered == "play" || lowered == "toggle" { nextOpensPaused = false }
        if lowered == "pause" { nextOpensPaused = true }
      }
      if lowered == "close" && loaded {
        loaded = false
        nextOpensPaused = surelyPaused
      }
      if lowered.hasPrefix("open ") {
        // Beside a loaded file, a file opens as the session was started (--paused); with nothing loaded, as the
        // last file left it or as play and pause set it since.
        surelyPaused = loaded ? true : nextOpensPaused
        loaded = true
      }

      // After each command, a status: it must be answered, and everything before it too.
      #expect(session.send("status"))
      let statusID = nextID
      nextID += 1
      let context = "seed \(seed), \(clip), step \(step): '\(text)'"
      let statusLine = try session.waitForLine(timeout: 30) {
        JSONEvent($0).map { $0.name == "status" && $0.id == statusID } ?? false
      }
      let status = try #require(JSONEvent(statusLine))
      let state = try #require(status.state)
      #expect(Self.states.contains(state), "\(context): state \(state)")
      let position = try #require(status.position)
      #expect(position >= 0 && position <= duration + 1e-3, "\(context): position \(position) outside 0...\(duration)")
      // (pause at the end leaves the session `ended`; a scrub then makes it `paused`)
      if !loaded {
        #expect(state == "idle", "\(context): state \(state) with no file")
      } else if surelyPaused {
        #expect(state == "paused" || state == "ended", "\(context): state \(state) after a pause")
      }
      // An exact scrub right before a status lands exactly where it was sent (clamped), when nothing moves it on.
      if loaded, surelyPaused, let target = Self.exactTarget(lowered, duration: duration) {
        #expect(abs(position - target) < 1e-3, "\(context): position \(position), expected \(target)")
      }
      let answered = Set(session.stdoutLines.compactMap { JSONEvent($0)?.id })
      let missing = (1...statusID).filter { !answered.contains($0) }
      #expect(missing.isEmpty, "\(context): commands \(missing) not answered")
    }
    #expect(session.send("quit"))
    let result = try session.waitForExit(timeout: 30)
    #expect(result.status == 0, "seed \(seed): exit \(result.status)")
    #expect(withoutSanitizerStatistics(result.stderr).isEmpty, "seed \(seed): \(result.stderr)")
    #expect(result.stdoutLines.allSatisfy { JSONEvent($0) != nil }, "seed \(seed): a line that is not JSON")
    #expect(result.stdoutLines.last.flatMap(JSONEvent.init)?.name == "shutdown")
  }

  /// The target of `scrub T` / `scrub T exact` in seconds, clamped, for the plain number and percentage forms.
  static func exactTarget(_ line: String, duration: Double) -> Double? {
    let words = line.split(separator: " ")
    guard words.count >= 2, words[0] == "scrub", words.count == 2 || words[2] == "exact" else { return nil }
    let argument = String(words[1])
    // Only the plain decimal forms the grammar takes (no exponent, inf or nan, at most 32 characters).
    let body = argument.hasSuffix("%") ? argument.dropLast() : Substring(argument)
    let digits = body.drop { $0 == "+" || $0 == "-" }
    guard argument.count <= 32, digits.count + 1 >= body.count, !digits.isEmpty,
      digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ":") })
    else { return nil }
    let seconds: Double?
    if argument.hasSuffix("%") {
      seconds = Double(argument.dropLast()).map { $0 / 100 * duration }
    } else {
      seconds = argument.contains(":") ? nil : Double(argument)
    }
    return seconds.map { min(max($0, 0), duration) }
  }

  private static func randomLine(_ random: inout SplitMix64, duration: Double, path: String) -> Step {
    func time() -> String { String(format: "%.3f", Double.random(in: -2...(duration + 2), using: &random)) }
    func mode() -> String { ["", " exact", " keyframe", " EXACT"].randomElement(using: &random)! }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<8: return .command("play")
    case 8..<20: return .command("pause")
    case 20..<25: return .command("toggle")
    case 25..<45: return .command("scrub \(time())\(mode())")
    case 45..<52: return .command("scrub \(Int.random(in: 0...120, using: &random))%\(mode())")
    case 52..<55:
      let seconds = Int.random(in: 0...Int(duration), using: &random)
      return .command("scrub \(seconds / 60):\(String(format: "%02d", seconds % 60)).5\(mode())")
    case 55..<67:
      return .command(String(format: "skip %+.2f", Double.random(in: -5...5, using: &random)) + mode())
    case 67..<72: return .command("frame")
    case 72..<75: return .command("info")
    case 75..<77: return .command("help")
    case 77..<90:
      let bad = [
        "seek 10", "scrub", "scrub abc", "scrub 1:99", "skip 50%", "play now", "scrub 1e9", "SCRUB -inf",
        "scrub 5 sideways", "\u{FEFF}statuss", "scrub 99999999999999999999999999999999999", "frame 2", "quit now",
      ]
      return .command(bad.randomElement(using: &random)!)
    case 90..<93: return .ignored(["", "   ", "# a comment", "\t# indented comment"].randomElement(using: &random)!)
    case 93..<96:
      return .command(["step", "step -3", "step +2", "step 1", "rate 2", "rate 0.5"].randomElement(using: &random)!)
    case 96: return .command("close")
    case 97: return .command("open \(path)")
    default: return .command("status")
    }
  }
}

// End to end: random sessions typed into `vpk play --record` on the wall clock, as a person types at the terminal
// (seeks of every form, skips, steps, rates forward and backward, pauses, queries, a typo, at random moments), each
// replayed by `vpk test`, which must pass: what the recorder writes is what its own replay meets. Seeded: the seed
// is printed, and VPK_SEED=<seed> replays the same sessions.

import Foundation
import Testing
import VPKTestSupport

@Suite struct RandomRecordedSessionTests {
  /// Sessions per clip, and commands per session.
  static let sessions = 6
  static let commandsPerSession = 16

  /// A command a person may type, drawn at random on a clip of `duration` seconds.
  static func command(_ random: inout SplitMix64, duration: Double) -> String {
    func seconds(_ range: ClosedRange<Double>) -> String {
      String(format: "%.3f", Double.random(in: range, using: &random))
    }
    switch Int.random(in: 0..<20, using: &random) {
    case 0, 1: return "play"
    case 2, 3: return "pause"
    case 4: return "toggle"
    case 5: return "scrub \(seconds(0...duration))"
    case 6: return "scrub \(Int.random(in: 0...100, using: &random))%"
    case 7:
      let whole = Int.random(in: 0...min(9, Int(duration) - 1), using: &random)
      return "scrub 0:0\(whole).\(Int.random(in: 0...99, using: &random))"
    case 8: return "scrub \(seconds(0...duration)) keyframe"
    case 9, 10: return "skip \(Bool.random(using: &random) ? "+" : "-")\(seconds(0.1...3))"
    case 11: return "skip \(Bool.random(using: &random) ? "+" : "-")\(seconds(0.5...4)) keyframe"
    case 12: return "step"
    case 13: return "step \([-3, -2, -1, 2, 3].randomElement(using: &random)!)"
    case 14, 15: return "rate \([0.5, 1, 1.5, 2, -1, -0.5, -2].randomElement(using: &random)!)"
    case 16: return ["status", "frame", "info"].randomElement(using: &random)!
    case 17: return "mark"
    case 18: return "scrb 2"
    default: return "play"
    }
  }

  /// Given random sessions typed into vpk play --record with random real time between the commands, when vpk test
  /// replays each, then each passes.
  @Test(arguments: [TestClip.h264BFrames, .mpegTS])
  func everyRandomSessionRecordedReplaysGreen(clip: TestClip) throws {
    let seed =
      ProcessInfo.processInfo.environment["VPK_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64(1 << 40))
    print("RandomRecordedSessionTests: \(clip) with seed \(seed) (replay with VPK_SEED=\(seed))")
    var random = SplitMix64(seed: seed &+ UInt64(clip == .h264BFrames ? 0 : 1))
    let folder = try ScriptFolder(clip: clip)
    defer { folder.remove() }
    let media = folder.path("clip.\(try TestMedia.url(for: clip).pathExtension)")
    let duration = clip == .h264BFrames ? 10.0 : 8.0

    for session in 1...Self.sessions {
      // Given a session typed into vpk play --record, with real time between the commands, kept at the end as on a
      // terminal
      let script = folder.path("session-\(session).vpk")
      let live = try VPKSession(["play", media, "--at-end", "pause", "--record", script])
      _ = try live.waitForLine(containing: "ready")
      var typed: [String] = []
      for _ in 0..<Self.commandsPerSession {
        // At least 50 ms between two commands, as between two lines a person types and sends.
        Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.3, using: &random))
        let command = Self.command(&random, duration: duration)
        typed.append(command)
        #expect(live.send(command), "seed \(seed), session \(session): vpk stopped reading at '\(command)'")
      }
      #expect(live.send("quit"))
      let played = try live.waitForExit(timeout: 120)
      let context = "seed \(seed), \(clip), session \(session), typed: \(typed.joined(separator: "; "))"
      #expect(played.status == 0, "\(context)\n\(played.stderr)")
      let recorded = try String(contentsOfFile: script, encoding: .utf8)

      // When vpk test replays it
      let replay = try VPKProcess.run(["test", script])
      // Then it passes
      #expect(replay.status == 0, "\(context)\n\(replay.stdout)\n--- the script:\n\(recorded)")
    }
  }
}

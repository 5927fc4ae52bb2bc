import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKScripts

@MainActor
@Suite struct FrameCacheBudgetTests {
  @Test func theDefaultIsASixteenthOfMemoryUpTo256M() {
    // Given machines of 1 GiB, 4 GiB and 64 GiB, When the default budget is taken, Then 1/16 of each, capped at 256 MiB
    #expect(FrameCacheBudget.defaultTotal(physicalMemory: 1 << 30) == 64 << 20)
    #expect(FrameCacheBudget.defaultTotal(physicalMemory: 4 << 30) == 256 << 20)
    #expect(FrameCacheBudget.defaultTotal(physicalMemory: 64 << 30) == 256 << 20)
    #expect(FrameCacheBudget.defaultTotal(physicalMemory: 0) == 0)
  }

  @Test func eachJobGetsAnEqualShare() {
    // Given a budget, When it is shared, Then each job's share is the budget over the jobs, rounded down
    #expect(FrameCacheBudget.share(of: 256 << 20, jobs: 4) == 64 << 20)
    #expect(FrameCacheBudget.share(of: 256 << 20, jobs: 1) == 256 << 20)
    #expect(FrameCacheBudget.share(of: 10, jobs: 3) == 3)
    #expect(FrameCacheBudget.share(of: 0, jobs: 4) == 0)
    #expect(FrameCacheBudget.share(of: 100, jobs: 0) == 100)
  }

  @Test func theRunnerDividesTheBudgetAmongTheJobsThatRun() async throws {
    // Given four scripts and a budget of 400 bytes
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-budget-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let scripts = try (1...4).map { index in
      let path = (folder as NSString).appendingPathComponent("s\(index).vpk")
      try "open clip.mp4\nquit\n".write(toFile: path, atomically: true, encoding: .utf8)
      return PlaybackScriptFile.load(path)
    }
    var options = PlaybackOptions(autoplay: false, clock: .virtual, progressInterval: nil, endAction: .pause)
    options.frameCacheBytes = 400
    for (jobs, count, share) in [(4, 4, 100), (4, 2, 200), (1, 4, 400), (3, 4, 133)] {
      var managers: [FakePlaybackManager] = []
      let runner = PlaybackTestRunner(
        options: options, format: .text, jobs: jobs, timeout: 20,
        makeManager: {
          let manager = FakePlaybackManager(autoResponds: true)
          managers.append(manager)
          return manager
        })
      // When they run with `jobs` jobs
      let results = await runner.run(scripts: Array(scripts.prefix(count)))
      // Then every session's cache got the budget over the jobs that ran at once
      #expect(results.filter(\.passed).count == count)
      #expect(managers.count == count)
      #expect(managers.map { $0.configuration?.frameCacheBytes } == Array(repeating: share, count: count))
    }
  }
}

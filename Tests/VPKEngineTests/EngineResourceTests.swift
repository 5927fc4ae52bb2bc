// Descriptors and threads come back: the engine driven through scrubs, a play to the end and 100 managers opened and
// shut down, in a process of its own (VPKLeakCheck, built beside vpk), so other tests running at the same time do not
// disturb the counts. scripts/leaks runs the same driver under valgrind.

import Foundation
import Testing
import VPKTestSupport

@Suite struct EngineResourceTests {
  @Test func descriptorsAndThreadsAreBackAfterASessionAndAHundredOpenCloseCycles() async throws {
    let result = try await VPKProcess.runBeside(
      "VPKLeakCheck", [try TestMedia.url(for: .mpeg4).path, "--scrubs", "50", "--cycles", "100"])
    // The driver fails (status 1, a message) when a count is higher than before
    #expect(result.succeeded, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("100 open/close cycles"), "\(result.stdout)")
  }
}

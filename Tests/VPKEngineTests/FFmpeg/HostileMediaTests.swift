// Regression tests for faults the media mutation suite (scripts/torture) found, each on a file that reproduces it.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@MainActor
@Suite struct HostileMediaTests {
  /// torture seed 2, #299 (FLAC with 4 bytes duplicated): a progress event said 2.016 s of a 2 s file.
  @Test func progressStaysWithinTheDeclaredDurationWhenFramesGoOnPastIt() async throws {
    // Given a file whose header says 1 s and whose frames go on to 2 s
    let url = try CraftedMedia.longerThanItsHeader()
    defer { CraftedMedia.remove(url) }
    let opened = try await OpenedManager(url, progress: 0.25)
    #expect(opened.spy.info?.duration?.seconds == 1)
    // When it plays to the end
    try await opened.playToEnd()
    // Then every frame was decoded, yet no position reported lies past the duration
    #expect(opened.manager.snapshot().framesDecoded == 50)
    let positions = opened.spy.events.compactMap { event in
      event.hasPrefix("progress ") ? Double(event.dropFirst("progress ".count)) : nil
    }
    #expect(positions.count >= 4)
    #expect(positions.allSatisfy { $0 <= 1 }, "\(positions)")
    #expect(opened.spy.endedAt?.seconds == 1)
    opened.manager.shutdown()
  }
}

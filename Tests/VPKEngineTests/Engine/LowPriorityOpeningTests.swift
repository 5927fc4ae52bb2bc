// LowPriorityOpeningTests: a file opened ahead opens on a thread of lower priority than the caller's, hands the source
// back to the caller, and hands back the error of a file that cannot be opened.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct LowPriorityOpeningTests {
  /// The calling thread's nice value.
  static func niceness() -> Int32 {
    errno = 0
    return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
  }

  /// What the opening thread saw, written there and read after `run` returned.
  final class Seen: @unchecked Sendable {
    var niceness: Int32?
    var thread: pthread_t?
  }

  @Test func theFileOpensOnANicerThreadAndTheSourceComesBack() throws {
    // Given a clip, and the caller's priority
    let url = try TestMedia.url(for: .h264BFrames)
    let before = Self.niceness()
    let seen = Seen()
    // When it is opened ahead
    let source = try LowPriorityOpening.run { () throws(PlaybackError) -> MediaSource in
      seen.niceness = Self.niceness()
      seen.thread = pthread_self()
      return try MediaSource(path: url.path, threading: .realtime, stop: StopFlag())
    }
    // Then it was opened on a thread of its own, nicer than the caller by the opening's niceness, and the caller's
    // priority is as it was
    #expect(seen.thread.map { pthread_equal($0, pthread_self()) == 0 } == true)
    #expect(seen.niceness == min(before + LowPriorityOpening.niceness, 19))
    #expect(Self.niceness() == before)
    // And the source is the caller's to read
    #expect(source.hasVideo)
    #expect(source.info.duration != nil)
  }

  @Test func aFileThatCannotBeOpenedThrowsItsError() {
    // When a file that does not exist is opened ahead
    // Then its error comes back to the caller
    #expect(throws: PlaybackError.self) {
      _ = try LowPriorityOpening.run { () throws(PlaybackError) -> MediaSource in
        try MediaSource(path: "/nonexistent/vpk-ahead.mp4", threading: .realtime, stop: StopFlag())
      }
    }
  }
}

// LowPriorityOpening: a file opened ahead of its turn (the next entry of a playlist) opens on a short-lived thread
// whose scheduling priority is lower than the engine threads' (nice +10), so that on a busy machine the file on
// screen decodes its frames first. The engine thread waits for it: the source is made on the helper and used on the
// engine thread only after the helper has finished with it.

import Dispatch
import Foundation
import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#endif

enum LowPriorityOpening {
  /// How much nicer than the engine thread the opening thread is (Linux: per thread; the range is 0…19).
  static let niceness: Int32 = 10

  /// Runs `open` on a thread of lower priority and returns what it made, or throws what it threw. The thread made
  /// by `open` must not start threads of its own that outlive it (they would keep its priority): the engine opens a
  /// file ahead only with the one-thread decoder.
  static func run(_ open: @escaping () throws(PlaybackError) -> MediaSource) throws(PlaybackError) -> MediaSource {
    let handoff = Handoff(open)
    let thread = Thread { [handoff] in
      Thread.current.name = "vpk-open-ahead"
      lowerPriority()
      handoff.run()
    }
    thread.name = "vpk-open-ahead"
    thread.stackSize = 4 << 20
    thread.start()
    handoff.done.wait()
    return try handoff.take()
  }

  /// Makes the calling thread nicer: on Linux a nice value belongs to a thread, and `who` 0 names the caller's.
  private static func lowerPriority() {
    #if os(Linux)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    #endif
  }

  /// The opening's work and its outcome, passed between the two threads. `@unchecked Sendable`: the helper writes
  /// `outcome` before it signals `done`, and the engine thread reads it only after `done`, so the two never touch it
  /// at once; the source inside is then the engine thread's alone.
  private final class Handoff: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let open: () throws(PlaybackError) -> MediaSource
    private var outcome: Result<MediaSource, PlaybackError>?

    init(_ open: @escaping () throws(PlaybackError) -> MediaSource) { self.open = open }

    func run() {
      do throws(PlaybackError) {
        outcome = .success(try open())
      } catch {
        outcome = .failure(error)
      }
      done.signal()
    }

    func take() throws(PlaybackError) -> MediaSource {
      guard let outcome else { throw PlaybackError(.cannotOpenMedia) }
      return try outcome.get()
    }
  }
}

// EngineSharedState: what the engine thread publishes for other threads (the main actor's `status` and `frame`, a
// socket's event-loop thread through `concurrentSnapshot()`, `thumbnails`), behind one lock. Any thread may read it;
// only the engine thread writes it, always in one `update` for a change that other threads must see whole.
//
// The lock is an NSLock (a pthread mutex), not Synchronization's Mutex: on Linux a contended Mutex waits and wakes in
// the standard library's own futex code, which ThreadSanitizer does not see, so a sanitized build reports races on
// what the lock guards (the frames published here) whenever the engine thread and a reader meet at the lock.

import Foundation
import VideoPlaybackKit

final class EngineSharedState: @unchecked Sendable {
  /// The fields behind the lock. A value of it exists outside the lock only as a read's argument.
  struct Published {
    var clock: EngineClock
    /// The virtual clock's time: moved only by waits.
    var virtualNow = 0.0
    /// The frame the engine thread presented last.
    var current: DecodedFrame?
    /// The loop offset of the frame on screen: timeline minus media time.
    var presentedOffset = 0.0
    /// The engine thread's frames ahead, as last published (wall clock only): the ones whose time has come are on
    /// screen before the engine thread presents them.
    var ahead: [ScheduledFrame] = []
    /// Where the newest presented frame ends, in media time.
    var lastFrameMediaEnd = 0.0
    /// Where playing backward ends: the first frame's time, not below 0.
    var start = 0.0
    /// What the file holds: its duration (0: unknown), whether it has video, the video stream's time base.
    var duration = 0.0
    var hasVideo = false
    var timeBase: (num: Int32, den: Int32) = (0, 1)
    /// The decoder's counters, and the loops (and ends) reached.
    var framesDecoded = 0
    var decodeErrors = 0
    var loops = 0
    var lateness = LatenessWindow(capacity: PlaybackEngine.latenessSamples)
    /// The frame cache's figures.
    var frameCacheReading = FrameCacheReading()
    /// Diagnostics for tests: the decoder's threads; how many times the engine thread woke from a sleep (lazy
    /// presentation); how many times playing backward held the clock for its first pass, and for how many host
    /// seconds in all (see +Reversing).
    var decoderThreads = 0
    var wakeups = 0
    var firstPassHolds = (count: 0, seconds: 0.0)

    /// Clock time now.
    func now() -> Double {
      clock.kind == .virtual ? virtualNow : hostSeconds()
    }

    /// The lowest position there is now: the start while the clock runs backward (it may pass the start before the
    /// engine thread stops it there, as it may pass the end forward), else 0.
    var lowestPosition: Double {
      clock.isRunning && clock.rate < 0 ? start : 0
    }

    /// The frame on screen at timeline time `timeline` and its loop offset: the newest frame published ahead whose
    /// time has come, else the one the engine thread presented last.
    func visible(at timeline: Double) -> (frame: DecodedFrame?, offset: Double) {
      var visible = (frame: current, offset: presentedOffset)
      for scheduled in ahead {
        guard scheduled.isDue(at: timeline) else { break }
        visible = (scheduled.frame, scheduled.offset)
      }
      return visible
    }
  }

  private let lock = NSLock()
  /// Read and written only with `lock` held.
  private var published: Published

  init(clock: ClockKind) {
    published = Published(clock: EngineClock(kind: clock))
  }

  /// Reads fields under the lock.
  func read<T: Sendable>(_ body: (Published) -> T) -> T {
    lock.withLock { body(published) }
  }

  /// Changes fields under the lock (the engine thread only).
  func update<T: Sendable>(_ body: (inout Published) -> T) -> T {
    lock.withLock { body(&published) }
  }

  /// Clock time now.
  func now() -> Double { read { $0.now() } }

  /// What `status` reports.
  func snapshot() -> PlaybackSnapshot {
    read { state in
      let limit = state.duration > 0 ? state.duration : state.lastFrameMediaEnd
      let timeline = state.clock.position(at: state.now())
      let visible = state.visible(at: timeline)
      let position = min(max(state.lowestPosition, timeline - visible.offset), limit)
      let p99 = state.clock.kind == .wall ? state.lateness.p99Milliseconds : nil
      let loopOnScreen = abs(visible.offset - state.presentedOffset) > TimeTolerance.sameInstant ? 1 : 0
      return PlaybackSnapshot(
        position: MediaTime(seconds: position), framesDecoded: state.framesDecoded, decodeErrors: state.decodeErrors,
        loops: state.loops + loopOnScreen, latenessP99: p99, frameCache: state.frameCacheReading)
    }
  }

  /// The frame on screen (nil with no video frame) and the video stream's time base.
  func frameOnScreen() -> (frame: DecodedFrame?, timeBase: (num: Int32, den: Int32)) {
    read { state in
      (state.hasVideo ? state.visible(at: state.clock.position(at: state.now())).frame : nil, state.timeBase)
    }
  }
}

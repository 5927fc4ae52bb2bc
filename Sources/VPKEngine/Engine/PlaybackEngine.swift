// PlaybackEngine: the engine thread's work on one file: it demuxes, decodes and paces it.
//
// It runs on a thread of its own (not Swift's cooperative pool), which EngineHandle starts; the thread makes its
// PlaybackEngine and is the only one ever to touch it (the class is not Sendable). Other threads reach the engine
// through two things it shares with EngineHandle: a LockedMailbox, where commands arrive (the thread checks it between
// packets, so a seek lands promptly even mid-decode), and EngineSharedState, where it publishes what `status`, `frame`
// and `writePicture` read. A few decoded frames wait ahead of the clock; paused, the thread sleeps on the mailbox
// with no timeout. Everything it has to say goes out, in order, through `emit`.
//
// Playing on the wall clock, frames are shown lazily: a frame decoded ahead is on screen for
// `status` and `frame` from its due time on, whether or not the thread has woken for it. The thread
// wakes only when a frame matters: a progress mark, a loop, the end, a wait, or a refill of the
// frames ahead, which it decodes in one go. That keeps paced playback near the CPU cost of decoding.
//
// Clocks: on the wall clock frames are shown when real time reaches them; on the free clock at
// once; on the virtual clock time stands still until a wait moves it, and then jumps from one due
// frame to the next. On the virtual clock the engine also finishes decoding ahead before it
// answers anything, so what a session observes never depends on thread timing.
//
// Where to read on: this file holds the engine thread's state and the play loop (`run`, `runOnce`, sleeping). The
// work is split by concern: +Commands applies the mailbox, +Decoding decodes ahead, +Presenting puts frames on
// screen and reaches the end, +Seeking, +Stepping and +Waiting carry out those commands; +Reversing plays backward
// (a negative rate). State of one concern lives in a leaf type: ReversePlayback, FrameCache, ProgressMarks,
// LatenessWindow, WaitTracker, RealTimeLoad, ErrorReports. No FFmpeg type is used here: MediaSource (FFmpeg/) is the
// engine's only way to the file.

import Foundation
import VideoPlaybackKit

final class PlaybackEngine {
  typealias Message = EngineMailbox.Message

  /// Frames decoded ahead of the clock: paused, seeking, and on the free and virtual clocks.
  static let framesAhead = 6
  /// Playing on the wall clock, frames decoded ahead: as many as fit in `wallAheadBytes`, within these
  /// bounds. A deeper queue means fewer, longer refills, and fewer wake-ups of the decoder's threads.
  static let wallFramesAhead = 6...30
  static let wallAheadBytes = 24 << 20
  /// While playing on the wall clock, decoding ahead resumes only when this few frames are left and
  /// then fills up in one go: fewer wake-ups per frame than topping up one by one.
  static let refillBelow = 2
  /// Frames a backward step keeps while it decodes; a longer step seeks to the frame it found.
  static let stepFramesKept = 16
  /// At most one decode-error event a second of clock time; the count is always in `status`.
  static let errorReportInterval = 1.0
  /// On the wall clock, how long after the end the decoder is replaced, if playback still stands there (`reachEnd`).
  static let decoderReleaseGrace = 0.5
  /// Playing on the wall clock, one decoder thread may use this share of real time (its CPU time per second of
  /// media, times the rate) before playing goes back to FFmpeg's threads (see `RealTimeLoad`).
  static let realtimeLoadLimit = 0.5
  /// Frame lateness samples kept for the p99 in `status` (wall clock).
  static let latenessSamples = 4096

  // MARK: - Given at init

  private let path: String
  let configuration: PlaybackConfiguration
  private let access: MediaAccess
  private let stopFlag: StopFlag
  let emit: @Sendable (EngineEvent) -> Void
  /// `configuration.clock`: the kind of the clock in `shared`.
  let clockKind: ClockKind
  /// Where other threads' commands arrive.
  let mailbox: LockedMailbox
  /// What other threads read: the clock, the frame on screen, the counters (see EngineSharedState).
  let shared: EngineSharedState

  // MARK: - The engine thread's own

  private(set) var source: MediaSource?
  /// Frames decoded and not yet presented, in order.
  var ahead: [ScheduledFrame] = [] {
    // Only the wall clock shows frames the thread has not presented; the other clocks present each one as it comes due.
    didSet { if clockKind == .wall { shared.update { [ahead] in $0.ahead = ahead } } }
  }
  var sourceEnded = false
  /// The loop offset of the frames being decoded now, and where the current pass's frames end.
  var decodeOffset = 0.0
  var decodedPassEnd = 0.0
  /// The timeline offset of the pass on screen, for the length of a loop pass.
  var previousPassOffset = 0.0
  /// Whether playback should run: the interactor's intent, which the engine never changes itself.
  var playing = false
  /// The end was reached (and reported); the clock stands still until a seek moves playback away.
  var atEnd = false
  /// On the wall clock, the clock time at which the decoder is replaced if playback still stands at the end (see
  /// `reachEnd`); nil when none is due.
  var decoderReleaseDue: Double?
  /// Where the newest presented frame ends on the timeline: the end of the media as the decoder sees it.
  var lastFrameEnd = 0.0
  var progressMarks: ProgressMarks
  var errorReports = ErrorReports(interval: PlaybackEngine.errorReportInterval)
  var waits = WaitTracker()
  /// A refill of the frames ahead is under way (see `refillBelow`).
  var refilling = false
  /// How many frames playing on the wall clock keeps ahead (from the first frame's size).
  private(set) var wallAheadLimit = PlaybackEngine.framesAhead
  /// Whether one decoder thread keeps up while playing on the wall clock.
  var realtimeLoad: RealTimeLoad
  /// Decoded frames kept for seeks and backward steps (see FrameCache and +Caching).
  var frameCache: FrameCache<DecodedFrame>
  /// A seek or step landed on a frame from the cache and the decoder was left where it was: its next frame does not
  /// follow the newest frame held (see `followFromCache`).
  var decoderDetached = false
  /// The first frame of the media, where backward steps stop, and its time: where playing backward reaches the start.
  private(set) var firstFramePTS: Int64?
  private(set) var firstFrameTime = 0.0
  /// Playing backward (see +Reversing).
  var reverse = ReversePlayback()

  init(
    path: String, configuration: PlaybackConfiguration, access: MediaAccess, realtimeLoadLimit: Double,
    mailbox: LockedMailbox, shared: EngineSharedState, stopFlag: StopFlag,
    emit: @escaping @Sendable (EngineEvent) -> Void
  ) {
    self.path = path
    self.configuration = configuration
    self.access = access
    self.stopFlag = stopFlag
    self.emit = emit
    self.clockKind = configuration.clock
    self.mailbox = mailbox
    self.shared = shared
    self.progressMarks = ProgressMarks(interval: configuration.progressInterval)
    self.realtimeLoad = RealTimeLoad(limit: realtimeLoadLimit)
    self.frameCache = FrameCache(budget: configuration.frameCacheBytes)
  }

  /// Clock time now.
  func now() -> Double { shared.now() }

  /// The frame the engine thread presented last.
  var current: DecodedFrame? { shared.read { $0.current } }

  /// The loop offset of the frame on screen.
  var presentedOffset: Double { shared.read { $0.presentedOffset } }

  /// The media's duration (0: unknown).
  var duration: Double { shared.read { $0.duration } }

  // MARK: - The play loop (the engine thread)

  /// Opens the file and plays it until shutdown; `opened` is called once the attempt to open it is over.
  func run(opened: () -> Void) {
    guard let source = openSource(opened: opened) else { return }
    self.source = source
    becomeReady(with: source)
    while let work = takeMessages() {
      switch work {
      case .seek(let pending): seek(pending)
      case .step(let request): stepFrames(request)
      case .none: runOnce()
      }
    }
    ahead.removeAll()
    frameCache.removeAll()
    shared.update { $0.current = nil }
    self.source = nil
  }

  /// Opens the file; if it cannot be, says so and returns nil.
  private func openSource(opened: () -> Void) -> MediaSource? {
    do {
      // A session that plays on the wall clock as soon as it is ready starts on the real-time decoder; so does a file
      // opened ahead of its turn there, which opens on a thread of lower priority (`LowPriorityOpening`) and must not
      // start FFmpeg's frame threads from it.
      let wall = configuration.clock == .wall
      let threading: DecoderThreading =
        (configuration.startsPlaying || configuration.opensAhead) && wall ? .realtime : .throughput
      let (path, access, stopFlag) = (self.path, self.access, self.stopFlag)
      let open = { () throws(PlaybackError) -> MediaSource in
        try MediaSource(path: path, access: access, threading: threading, stop: stopFlag)
      }
      let source = configuration.opensAhead && wall ? try LowPriorityOpening.run(open) : try open()
      opened()
      return source
    } catch {
      opened()
      emit(.failedToOpen(error))
      return nil
    }
  }

  /// Publishes what the file holds and shows the first frame, as a paused player does, before saying the file is
  /// ready: a `frame` sent right after `ready` must find it. Then reports progress at that frame if it reaches the
  /// first mark (0), at the frame's time: the position `state` and `status` report, which is not 0 when the first
  /// frame starts later (a WebM whose Opus audio is delayed).
  private func becomeReady(with source: MediaSource) {
    let (duration, hasVideo, timeBase) = (source.info.duration?.seconds ?? 0, source.hasVideo, source.timeBaseParts)
    shared.update {
      $0.duration = duration  // 0: unknown
      $0.hasVideo = hasVideo
      $0.timeBase = timeBase
    }
    var firstPosition = 0.0
    if case .frame(let first) = readFrame() {
      firstFramePTS = first.pts
      firstFrameTime = first.time
      firstPosition = max(first.time, 0)
      decodedPassEnd = max(first.time + first.duration, 0)
      wallAheadLimit = min(
        max(Self.wallAheadBytes / max(first.byteCount, 1), Self.wallFramesAhead.lowerBound),
        Self.wallFramesAhead.upperBound)
      present(scheduled(first, offset: 0), jump: true)
      shared.update { $0.start = firstPosition }
    } else {
      sourceEnded = true
    }
    publishCounters()
    settleIfVirtual()
    tellReady(source.info, at: firstPosition)
  }

  /// Says the file is ready, its first frame on screen at `firstPosition`, then reports progress there if it reaches
  /// the first mark (0). A file gone back to its start (`reopen`) tells it again so.
  func tellReady(_ info: MediaInfo, at firstPosition: Double) {
    emit(.ready(info))
    progressMarks.moveNext(atOrAfter: 0)
    if progressMarks.next == 0 {
      let position = duration > 0 ? min(firstPosition, duration) : firstPosition
      emit(.progress(position))
      progressMarks.moveNext(after: position)
    }
  }

  /// One turn of the loop while no seek or step is pending: show a due frame, decode one, finish a wait, or
  /// sleep until something is due.
  private func runOnce() {
    alignAhead()
    if reverse.isBackward {
      runBackwardOnce()
      return
    }
    let now = self.now()
    var due: Double?
    if playing && !atEnd {
      if let head = ahead.first {
        if presentDueFrames(now: now) { return }
        due = shared.read { $0.clock.dueTime(of: head.due) } ?? .infinity
      } else if sourceEnded {
        // A seek that landed at the end of the stream (decoding on would have gone on to the next pass).
        if startNextPass() { return }
        let endDue = shared.read { [lastFrameEnd] in $0.clock.dueTime(of: lastFrameEnd) } ?? .infinity
        if endDue <= now {
          reachEnd()
          return
        }
        due = endDue
      } else {
        decodeOne()
        return
      }
    }
    let pacedPlayback = playing && !atEnd && clockKind == .wall
    if canDecodeMore && (!pacedPlayback || refilling || ahead.count <= Self.refillBelow) {
      refilling = true
      decodeOne()
      return
    }
    refilling = false
    if finishWaitIfDone(now: now) { return }
    if let releaseDue = decoderReleaseDue {
      if !atEnd || now >= releaseDue {
        decoderReleaseDue = nil
        if atEnd { releaseDecoderMemory() }
        return
      }
      due = min(due ?? .infinity, releaseDue)
    }
    // Frames are shown lazily on the wall clock: sleep past the ones that need nothing from this thread.
    if pacedPlayback && !ahead.isEmpty { due = nextWake() ?? due }
    idle(until: due, now: now)
  }

  /// Playing on the wall clock, with frames ahead: the clock time of the first frame that needs the engine
  /// thread. Up to then the frames due are on screen without it (see `EngineSharedState.Published.visible`).
  func nextWake() -> Double? {
    guard let last = ahead.last else { return nil }
    // Playing backward, timeline times come down: "earlier" on the clock is the greater one.
    let backward = reverse.isBackward
    let presentedOffset = self.presentedOffset
    func isEarlier(_ time: Double, than other: Double) -> Bool { backward ? time > other : time < other }
    // The frame that leaves `refillBelow` frames ahead; at the end of the stream (the start, backward), the last one.
    let refillIndex = ahead.count - 1 - Self.refillBelow
    let noMore = backward ? reverse.isAtStartWithNoPass : sourceEnded
    var wake = noMore || refillIndex < 0 ? last.due : ahead[refillIndex].due
    for scheduled in ahead {
      guard isEarlier(scheduled.due, than: wake) else { break }
      // A loop (the `ended` event), or a progress mark.
      if abs(scheduled.offset - presentedOffset) > TimeTolerance.sameInstant
        || progressMarks.isReached(at: scheduled.frame.time)
      {
        wake = scheduled.due
        break
      }
    }
    // Waits for a position are checked as frames are presented: wake at the frame that reaches it.
    let reaching: ScheduledFrame?
    if let target = waits.targetPosition {
      reaching = ahead.first {
        $0.offset == presentedOffset && $0.due - $0.offset >= target - TimeTolerance.sameInstant
      }
    } else if let target = waits.targetPositionAtMost {
      reaching = ahead.first {
        $0.offset == presentedOffset && $0.due - $0.offset <= target + TimeTolerance.sameInstant
      }
    } else {
      reaching = nil
    }
    if let reaching, isEarlier(reaching.due, than: wake) { wake = reaching.due }
    return shared.read { [wake] in $0.clock.dueTime(of: wake) }
  }

  /// Waits until clock time `due` (or a wait's deadline, whichever is first), or forever when there
  /// is neither. On the virtual clock, time jumps there instead, but only while a wait is running.
  func idle(until due: Double?, now: Double) {
    let wake = waits.wakeTime(before: due ?? .infinity)
    if clockKind == .virtual {
      if waits.isRunning && wake.isFinite {
        shared.update { $0.virtualNow = max($0.virtualNow, wake) }
        return
      }
      sleep(seconds: nil)
      return
    }
    sleep(seconds: wake.isFinite ? max(0, wake - now) : nil)
  }

  /// Waits for a message, or for `seconds` to pass (forever when nil).
  private func sleep(seconds: Double?) {
    if mailbox.sleep(seconds: seconds) { shared.update { $0.wakeups += 1 } }
  }
}

// PlaybackEngine: the thread that demuxes, decodes and paces one file.
//
// It owns a thread of its own (not Swift's cooperative pool). Commands arrive through a mailbox
// that the thread checks between packets, so a seek lands promptly even mid-decode. A few decoded
// frames wait ahead of the clock; paused, the thread sleeps on a condition with no timeout.
// Everything it has to say goes out, in order, through `emit`.
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
// Where to read on: this file holds the engine's state, what other threads call (`post`, `snapshot`,
// `currentFrame`) and the play loop (`run`, `runOnce`, sleeping). The engine thread's work is split by concern:
// +Commands applies the mailbox, +Decoding decodes ahead, +Presenting puts frames on screen and reaches the end,
// +Seeking, +Stepping and +Waiting carry out those commands. State of one concern lives in a leaf type:
// EngineMailbox, ProgressMarks, LatenessWindow, WaitTracker, RealTimeLoad. No FFmpeg type is used here: MediaSource
// (FFmpeg/) is the engine's only way to the file.

import Foundation
import Synchronization
import VideoPlaybackKit

final class PlaybackEngine: @unchecked Sendable {
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
  /// Playing on the wall clock, one decoder thread may use this share of real time (its CPU time per second of
  /// media, times the rate) before playing goes back to FFmpeg's threads (see `RealTimeLoad`).
  static let realtimeLoadLimit = 0.5
  /// Frame lateness samples kept for the p99 in `status` (wall clock).
  static let latenessSamples = 4096

  // MARK: - Given at init

  let path: String
  let configuration: PlaybackConfiguration
  let access: MediaAccess
  let emit: @Sendable (EngineEvent) -> Void

  // MARK: - Shared with other threads, guarded by `condition`

  let condition = NSCondition()
  /// Signalled when the engine thread has finished.
  let finished = DispatchSemaphore(value: 0)
  /// Interrupts FFmpeg's blocking I/O on shutdown.
  let stopFlag = StopFlag()
  /// True while the thread is opening the file.
  let opening = Atomic<Bool>(true)
  var mailbox = EngineMailbox()
  var clock: EngineClock
  /// The virtual clock's time: moved only by waits.
  var virtualNow = 0.0
  var current: DecodedFrame?
  /// The loop offset of the frame on screen: timeline minus media time.
  var presentedOffset = 0.0
  var duration = 0.0
  var framesDecoded = 0
  var decodeErrors = 0
  var loops = 0
  var hasVideo = false
  var timeBase: (num: Int32, den: Int32) = (0, 1)
  /// `lastFrameEnd` as last published to other threads.
  var lastFrameEndShared = 0.0
  var lateness = LatenessWindow(capacity: PlaybackEngine.latenessSamples)
  /// `ahead` as last published to other threads: on the wall clock the frames in it whose time has
  /// come are on screen before the engine thread presents them.
  var aheadShared: [ScheduledFrame] = []
  /// How many times the thread has woken from a sleep: a diagnostic for tests of lazy presentation.
  var wakeups = 0
  /// The decoder's threads: a diagnostic for tests of real-time decoding.
  var decoderThreads = 0

  // MARK: - The engine thread's own

  var source: MediaSource?
  /// Frames decoded and not yet presented, in order.
  var ahead: [ScheduledFrame] = [] {
    // Only the wall clock shows frames the thread has not presented; the other clocks present each one as it comes due.
    didSet { if clock.kind == .wall { withLock { aheadShared = ahead } } }
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
  /// Where the newest presented frame ends on the timeline: the end of the media as the decoder sees it.
  var lastFrameEnd = 0.0
  var progressMarks: ProgressMarks
  /// Decode errors already reported, when, and whether the read error was.
  var reportedErrors = 0
  var lastErrorReport = -Double.infinity
  var readErrorReported = false
  var waits = WaitTracker()
  /// A refill of the frames ahead is under way (see `refillBelow`).
  var refilling = false
  /// How many frames playing on the wall clock keeps ahead (from the first frame's size).
  var wallAheadLimit = PlaybackEngine.framesAhead
  /// Whether one decoder thread keeps up while playing on the wall clock.
  var realtimeLoad: RealTimeLoad

  init(
    path: String, configuration: PlaybackConfiguration, access: MediaAccess = MediaAccess(),
    realtimeLoadLimit: Double = PlaybackEngine.realtimeLoadLimit, emit: @escaping @Sendable (EngineEvent) -> Void
  ) {
    self.path = path
    self.configuration = configuration
    self.access = access
    self.emit = emit
    self.clock = EngineClock(kind: configuration.clock)
    self.progressMarks = ProgressMarks(interval: configuration.progressInterval)
    self.realtimeLoad = RealTimeLoad(limit: realtimeLoadLimit)
  }

  // MARK: - Any thread

  func start() {
    let thread = Thread { [self] in
      // Linux applies a thread's name only from the thread itself (for top, perf, gdb).
      Thread.current.name = "vpk-engine"
      run()
      finished.signal()
    }
    thread.name = "vpk-engine"
    thread.stackSize = 4 << 20
    thread.start()
  }

  /// Asks the thread to stop and waits until it has released the file. FFmpeg's I/O is interrupted,
  /// so this is prompt; the bound only guards against a decoder that never returns. A thread still
  /// opening the file may sit in the kernel's open(2) (a FIFO with no writer), where no callback
  /// reaches it and it holds no FFmpeg state the process's exit could disturb: that wait is short.
  func stop() {
    stopFlag.set()
    post(.shutdown)
    _ = finished.wait(timeout: .now() + (opening.load(ordering: .acquiring) ? 0.5 : 10))
  }

  func post(_ message: Message) {
    condition.lock()
    mailbox.post(message)
    condition.signal()
    condition.unlock()
  }

  func snapshot() -> PlaybackSnapshot {
    condition.lock()
    defer { condition.unlock() }
    let limit = duration > 0 ? duration : lastFrameEndShared
    let timeline = clock.position(at: now())
    let visible = visibleLocked(at: timeline)
    let position = min(max(0, timeline - visible.offset), limit)
    let p99 = clock.kind == .wall ? lateness.p99Milliseconds : nil
    return PlaybackSnapshot(
      position: MediaTime(seconds: position), framesDecoded: framesDecoded, decodeErrors: decodeErrors,
      loops: loops + (visible.offset > presentedOffset + TimeTolerance.sameInstant ? 1 : 0), latenessP99: p99)
  }

  /// The frame on screen with its MD5 (computed on the caller's thread), nil with no video frame.
  func currentFrame() -> FrameIdentity? {
    condition.lock()
    let frame = hasVideo ? visibleLocked(at: clock.position(at: now())).frame : nil
    let timeBase = self.timeBase
    condition.unlock()
    return frame?.identity(timeBase: timeBase)
  }

  /// `wakeups`, read under the lock.
  var wakeupCount: Int { withLock { wakeups } }

  /// Threads of the decoder, as last published (for tests).
  var decoderThreadCount: Int { withLock { decoderThreads } }

  /// The frame on screen at timeline time `timeline` and its loop offset (call with the lock held): the
  /// newest frame decoded ahead whose time has come, else the one the engine thread presented last.
  private func visibleLocked(at timeline: Double) -> (frame: DecodedFrame?, offset: Double) {
    var visible = (frame: current, offset: presentedOffset)
    for scheduled in aheadShared {
      guard scheduled.due <= timeline + TimeTolerance.sameInstant else { break }
      visible = (scheduled.frame, scheduled.offset)
    }
    return visible
  }

  /// Clock time now (call with the lock held, or from the engine thread).
  func now() -> Double {
    clock.kind == .virtual ? virtualNow : hostSeconds()
  }

  func withLock<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  // MARK: - The play loop (the engine thread)

  private func run() {
    guard let source = openSource() else { return }
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
    withLock { current = nil }
    self.source = nil
  }

  /// Opens the file; if it cannot be, says so and returns nil.
  private func openSource() -> MediaSource? {
    do {
      // A session that plays on the wall clock as soon as it is ready starts on the real-time decoder.
      let threading: DecoderThreading =
        configuration.startsPlaying && configuration.clock == .wall ? .realtime : .throughput
      let source = try MediaSource(path: path, access: access, threading: threading, stop: stopFlag)
      opening.store(false, ordering: .releasing)
      return source
    } catch {
      opening.store(false, ordering: .releasing)
      emit(.failedToOpen(error))
      return nil
    }
  }

  /// Publishes what the file holds and shows the first frame, as a paused player does, before saying the file is
  /// ready: a `frame` sent right after `ready` must find it. Then reports progress 0 if a mark is there.
  private func becomeReady(with source: MediaSource) {
    withLock {
      duration = source.info.duration?.seconds ?? 0  // 0: unknown
      hasVideo = source.hasVideo
      timeBase = source.timeBaseParts
    }
    if case .frame(let first) = source.next() {
      decodedPassEnd = max(first.time + first.duration, 0)
      wallAheadLimit = min(
        max(Self.wallAheadBytes / max(first.byteCount, 1), Self.wallFramesAhead.lowerBound),
        Self.wallFramesAhead.upperBound)
      present(scheduled(first, offset: 0), jump: true)
    } else {
      sourceEnded = true
    }
    publishCounters()
    settleIfVirtual()
    emit(.ready(source.info))
    progressMarks.moveNext(atOrAfter: 0)
    if let mark = progressMarks.next, mark <= 0 {
      emit(.progress(0))
      progressMarks.moveNext(after: 0)
    }
  }

  /// One turn of the loop while no seek or step is pending: show a due frame, decode one, finish a wait, or
  /// sleep until something is due.
  private func runOnce() {
    let now = withLock { self.now() }
    var due: Double?
    if playing && !atEnd {
      if let head = ahead.first {
        let headDue = withLock { clock.dueTime(of: head.due) } ?? .infinity
        if headDue <= now {
          // Every frame whose time has come, in order (several when shown lazily).
          while let head = ahead.first, let headDue = withLock({ clock.dueTime(of: head.due) }), headDue <= now {
            presentFirstAhead(dueAt: headDue)
          }
          return
        }
        due = headDue
      } else if sourceEnded {
        let endDue = withLock { clock.dueTime(of: lastFrameEnd) } ?? .infinity
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
    let pacedPlayback = playing && !atEnd && clock.kind == .wall
    if canDecodeMore && (!pacedPlayback || refilling || ahead.count <= Self.refillBelow) {
      refilling = true
      decodeOne()
      return
    }
    refilling = false
    if finishWaitIfDone(now: now) { return }
    // Frames are shown lazily on the wall clock: sleep past the ones that need nothing from this thread.
    if pacedPlayback && !ahead.isEmpty { due = nextWake() ?? due }
    idle(until: due, now: now)
  }

  /// Playing on the wall clock, with frames ahead: the clock time of the first frame that needs the engine
  /// thread. Up to then the frames due are on screen without it (see `visibleLocked`).
  private func nextWake() -> Double? {
    guard let last = ahead.last else { return nil }
    // The frame that leaves `refillBelow` frames ahead; at the end of the stream, the last frame.
    let refillIndex = ahead.count - 1 - Self.refillBelow
    var wake = sourceEnded || refillIndex < 0 ? last.due : ahead[refillIndex].due
    for scheduled in ahead {
      guard scheduled.due < wake else { break }
      // A loop (the `ended` event), or a progress mark.
      if scheduled.offset > presentedOffset + TimeTolerance.sameInstant
        || progressMarks.isReached(at: scheduled.frame.time)
      {
        wake = scheduled.due
        break
      }
    }
    if let target = waits.targetPosition {
      // Waits for a position are checked as frames are presented: wake at the frame that reaches it.
      if let reaching = ahead.first(where: {
        $0.offset == presentedOffset && $0.frame.time >= target - TimeTolerance.sameInstant
      }) {
        wake = min(wake, reaching.due)
      }
    }
    return withLock { clock.dueTime(of: wake) }
  }

  /// Waits until clock time `due` (or a wait's deadline, whichever is first), or forever when there
  /// is neither. On the virtual clock, time jumps there instead, but only while a wait is running.
  private func idle(until due: Double?, now: Double) {
    let wake = waits.wakeTime(before: due ?? .infinity)
    if clock.kind == .virtual {
      if waits.isRunning && wake.isFinite {
        withLock { virtualNow = max(virtualNow, wake) }
        return
      }
      sleep(seconds: nil)
      return
    }
    sleep(seconds: wake.isFinite ? max(0, wake - now) : nil)
  }

  /// Waits for a message, or for `seconds` to pass (forever when nil).
  private func sleep(seconds: Double?) {
    condition.lock()
    if mailbox.isEmpty {
      if let seconds {
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
      } else {
        condition.wait()
      }
      wakeups += 1
    }
    condition.unlock()
  }
}

// MARK: - Commands

extension PlaybackEngine {
  /// What the play loop does next.
  enum Work {
    case seek(PendingSeek)
    case step(StepRequest)
    /// Nothing asked: a turn of the loop (`runOnce`).
    case none
  }

  /// A seek taken from the mailbox, with the host time it was asked at (for its `ms`).
  struct PendingSeek {
    var request: SeekRequest
    var requestedAt: UInt64
  }

  /// Applies the mailbox: play, pause, rate and waits at once; of several seeks the newest wins and
  /// the others are superseded. A step runs after the seeks before it; what follows it stays in the
  /// mailbox. Returns nil on shutdown.
  func takeMessages() -> Work? {
    let messages = withLock { mailbox.takeAll() }
    var seek: PendingSeek?
    for (index, message) in messages.enumerated() {
      switch message {
      case .shutdown:
        return nil  // nothing is reported after shutdown
      case .play:
        playing = true
        if !atEnd { withLock { clock.start(at: now()) } }
      case .pause:
        playing = false
        withLock { clock.pause(at: now()) }
        catchUp()
      case .rate(let rate):
        withLock {
          clock.setRate(rate, at: now())
          lateness.removeAll()
        }
        realtimeLoad.reset()  // measured again at this rate
      case .wait(let request):
        beginWait(request)
      case .seek(let request, let requestedAt):
        if let older = seek { emit(.superseded(older.request.id, by: request.id)) }
        seek = PendingSeek(request: request, requestedAt: requestedAt)
      case .step(let request):
        let rest = messages[(index + 1)...]
        if !rest.isEmpty { withLock { mailbox.putBack(rest) } }
        if let seek {
          // The step goes back in front of what followed it, to run once the seek has landed.
          withLock { mailbox.putBack([.step(request)]) }
          return .seek(seek)
        }
        return .step(request)
      }
    }
    return seek.map(Work.seek) ?? Work.none
  }
}

// MARK: - Decoding

extension PlaybackEngine {
  /// Whether there is room for another frame ahead and the stream has more.
  var canDecodeMore: Bool {
    !sourceEnded && ahead.count < (playing && clock.kind == .wall ? wallAheadLimit : Self.framesAhead)
  }

  /// Decodes ahead to the limit: on the virtual clock, before anything is reported, so counters and
  /// errors are the same on every run.
  func settleIfVirtual() {
    guard clock.kind == .virtual else { return }
    while canDecodeMore { decodeOne() }
  }

  /// The decoder playing wants: one thread on the wall clock (it only needs real time, and costs less CPU for the
  /// same frames); flat out on the free and virtual clocks, any threaded decoder (the one a seek left is as fast).
  /// Nil while paused: the decoder stays as it is, since what comes next is a seek (which changes it at once) or
  /// playing on.
  var playbackThreading: DecoderThreading? {
    guard playing && !atEnd, let source else { return nil }
    if clock.kind == .wall && !realtimeLoad.isTooSlow { return .realtime }
    return source.threading.isThreaded ? source.threading : .throughput
  }

  /// Decodes the next frame onto the end of `ahead`; at the end of the stream, loops or marks the source ended.
  func decodeOne() {
    guard let source else { return }
    if let wanted = playbackThreading { source.wantedThreading = wanted }
    let measuring = playing && clock.kind == .wall && source.threading == .realtime
    let cpuBefore = measuring ? RealTimeLoad.threadCPUSeconds() : 0
    switch source.next() {
    case .frame(let frame):
      if measuring {
        realtimeLoad.record(
          cpu: RealTimeLoad.threadCPUSeconds() - cpuBefore, media: frame.duration, rate: withLock { clock.rate })
      }
      ahead.append(scheduled(frame, offset: decodeOffset))
      decodedPassEnd = max(decodedPassEnd, frame.time + frame.duration)
    case .endOfStream:
      if configuration.loops, decodedPassEnd > 0, source.seek(to: 0) {
        // Looping: the next pass follows this one on the timeline, with no gap.
        decodeOffset += decodedPassEnd
        decodedPassEnd = 0
      } else {
        sourceEnded = true
      }
    }
    publishCounters()
  }

  /// A frame just decoded, placed `offset` along the timeline.
  func scheduled(_ frame: DecodedFrame, offset: Double) -> ScheduledFrame {
    ScheduledFrame(frame: frame, offset: offset, decodedAt: withLock { now() })
  }

  /// Publishes the decoder's counters to other threads, and reports new decode errors (at most one event per
  /// `errorReportInterval`) and a read error (once).
  func publishCounters() {
    guard let source else { return }
    condition.lock()
    framesDecoded = source.framesDecoded
    decodeErrors = source.decodeErrors
    decoderThreads = source.decoderThreadCount
    let now = self.now()
    condition.unlock()
    if source.decodeErrors > reportedErrors
      && (reportedErrors == 0 || now - lastErrorReport >= Self.errorReportInterval)
    {
      reportedErrors = source.decodeErrors
      lastErrorReport = now
      emit(
        .error(
          PlaybackError(
            .decodeError,
            "\(source.decodeErrors) packet(s) could not be decoded so far; playback goes on, but the file is damaged")))
    }
    if let readError = source.readError, !readErrorReported {
      readErrorReported = true
      emit(.error(readError))
    }
  }
}

// MARK: - Presenting

extension PlaybackEngine {
  /// Puts a frame on screen. With `jump`, the clock jumps to it (a seek, a step); else (playback)
  /// the free clock follows the frame and the others keep their own time.
  func present(_ scheduled: ScheduledFrame, jump: Bool, dueAt: Double? = nil) {
    let wrapped = scheduled.offset > presentedOffset + TimeTolerance.sameInstant
    let frame = scheduled.frame
    lastFrameEnd = max(scheduled.due + frame.duration, 0)
    condition.lock()
    current = frame
    presentedOffset = scheduled.offset
    lastFrameEndShared = max(frame.time + frame.duration, 0)
    if jump {
      clock.jump(to: max(scheduled.due, scheduled.offset), at: self.now())
    } else if clock.kind == .free {
      clock.jump(to: max(scheduled.due, scheduled.offset), at: self.now())
    }
    if clock.kind == .wall, let dueAt {
      // How late the frame is shown, for the p99 in `status`: it is on screen from its due time if it was decoded by
      // then (see `visibleLocked`), else from when it was.
      lateness.record(max(0, scheduled.decodedAt - dueAt))
    }
    if wrapped { loops += 1 }
    let loopsNow = loops
    condition.unlock()
    if wrapped {
      // A loop: the end of the pass before this frame's was passed on the way to it.
      let passLength = scheduled.offset - previousPassOffset
      previousPassOffset = scheduled.offset
      emit(.ended(duration > 0 ? min(passLength, duration) : passLength, loops: loopsNow))
      progressMarks.moveNext(atOrAfter: min(0, frame.time))
      failPositionWaitInLoop(passLength: passLength)
    }
    if !jump {
      reportProgress(at: max(frame.time, 0))
      // Most frames are shown with no wait running: then there is nothing to check.
      if waits.isRunning { finishWaitIfDone(now: withLock { self.now() }) }
    }
  }

  /// Takes the first frame ahead and puts it on screen, as playback reaches it. On the wall clock it leaves `ahead`
  /// only once it is on screen, so another thread reading the frame on screen (`visibleLocked`) never misses it. On
  /// the others it leaves first: presenting it may finish a wait, which decodes ahead again (`settleIfVirtual`).
  func presentFirstAhead(dueAt: Double? = nil) {
    guard let head = ahead.first else { return }
    if clock.kind == .wall {
      present(head, jump: false, dueAt: dueAt)
      ahead.removeFirst()
    } else {
      ahead.removeFirst()
      present(head, jump: false, dueAt: dueAt)
    }
  }

  /// Presents the frames decoded ahead whose time has come: on the wall clock they are on screen before the engine
  /// thread gets to them (see `visibleLocked`). Pauses, steps and seeks start from the frame on screen.
  func catchUp() {
    let timeline = withLock { clock.position(at: now()) }
    while let head = ahead.first, head.due <= timeline + TimeTolerance.sameInstant {
      presentFirstAhead()
    }
  }

  /// Reports the progress mark a frame at media time `time` reached, if it did.
  func reportProgress(at time: Double) {
    guard progressMarks.isReached(at: time) else { return }
    // A damaged file can hold frames past the duration its header declares: report within it, as status does.
    emit(.progress(duration > 0 ? min(time, duration) : time))
    progressMarks.moveNext(after: time)
  }

  /// Stops the clock at the end and says so, once. Playing stays the intent: a seek that was already
  /// on its way moves playback away from the end and it goes on.
  func reachEnd() {
    atEnd = true
    // Nothing more is decoded until a seek: the decoder gives back what playing at full speed kept, before the end
    // is reported.
    source?.releaseDecoderMemory()
    let position = lastFrameEnd - presentedOffset
    let end = duration > 0 ? min(max(position, 0), duration) : max(position, 0)
    let loopsNow = withLock {
      let now = self.now()
      clock.pause(at: now)
      clock.jump(to: end + presentedOffset, at: now)
      loops += 1
      return loops
    }
    publishCounters()
    emit(.ended(end, loops: loopsNow))
    _ = finishWaitIfDone(now: withLock { self.now() })
  }
}

// MARK: - Seeking

extension PlaybackEngine {
  /// Carries out a seek taken from the mailbox and reports where it landed (or that a newer one superseded it).
  func seek(_ pending: PendingSeek) {
    guard let source else { return }
    catchUp()
    let request = pending.request
    let target = request.target.seconds
    var shown: DecodedFrame?
    if request.mode == .exact && canDecodeOn(to: target) {
      // Forward within the frames' own GOP: decoding on from where the decoder is passes fewer frames than a
      // seek back to the keyframe would. Frames already decoded ahead up to the target are taken as they are.
      withLock { lateness.removeAll() }
      while let head = ahead.first, head.frame.time <= target + TimeTolerance.frameTime {
        shown = head.frame
        ahead.removeFirst()
      }
      if ahead.isEmpty && !sourceEnded {
        guard case .reached(let frame) = decodeOn(to: target, for: request) else { return }
        shown = frame ?? shown
      }
      // Nothing new up to the target: it lies within the frame on screen, which stays.
      if shown == nil { shown = withLock { current } }
    } else {
      resetForNewPosition()
      let first = seekToKeyframe(
        before: target, discardBefore: request.mode == .exact ? target : nil, keyframeOnly: request.mode == .keyframe)
      shown = first
      if request.mode == .exact, let firstFrame = first, firstFrame.time <= target {
        guard case .reached(let frame) = decodeOn(to: target, for: request) else { return }
        shown = frame ?? shown
      }
    }
    source.discardNonReferenceBefore = nil

    var position: Double
    switch request.mode {
    case .exact: position = target
    case .keyframe: position = max(0, min(shown?.time ?? target, target))
    }
    if sourceEnded && ahead.isEmpty, let shown, request.mode == .exact {
      // Past the last frame there is: a truncated file whose index promised more. Land where the data ends.
      position = min(position, max(shown.time + shown.duration, 0))
    }
    land(on: shown, at: position)
    publishCounters()
    settleIfVirtual()
    let milliseconds = Double(hostNanoseconds() - pending.requestedAt) / nanosecondsPerMillisecond
    emit(
      .seeked(
        SeekResult(
          id: request.id, target: request.target, position: MediaTime(seconds: position), mode: request.mode,
          milliseconds: milliseconds)))
  }

  /// Clears what was decoded ahead and the loop bookkeeping: playback continues from a new point.
  func resetForNewPosition() {
    ahead.removeAll()
    sourceEnded = false
    atEnd = false
    decodeOffset = 0
    decodedPassEnd = 0
    previousPassOffset = 0
    withLock {
      presentedOffset = 0
      lateness.removeAll()
    }
  }

  /// Seeks the source so that the next frames are those from the keyframe at or before `target`.
  /// Returns the first frame, or nil at the end of the stream. Containers index by decode time, so
  /// with B-frames the keyframe found can show after the target: then it steps further back.
  /// `keyframeOnly`: only the keyframe's own frame is wanted (a keyframe scrub), not a run of frames after it.
  func seekToKeyframe(before target: Double, discardBefore: Double?, keyframeOnly: Bool = false) -> DecodedFrame? {
    guard let source else { return nil }
    var seekPoint = target
    var backoff = 0.5
    // A run of frames from the keyframe on decodes fastest on the seeking decoder. For the keyframe alone, each
    // frame thread more delays the first frame (every thread takes a packet before one comes out): FFmpeg's choice.
    // Changing decoder costs a little (a new decoder's frame buffers are new memory), paid once when a slider drag
    // of keyframe scrubs starts and once when an exact scrub ends it. Playing changes back later.
    source.wantedThreading = keyframeOnly ? .throughput : .seeking
    while true {
      if !source.seek(to: seekPoint) && seekPoint > 0 {
        // The demuxer cannot seek there (a raw stream): start from the beginning and decode forward.
        seekPoint = 0
        continue
      }
      source.discardNonReferenceBefore = discardBefore
      var first: DecodedFrame?
      switch source.next() {
      case .frame(let frame):
        first = frame
        sourceEnded = false
      case .endOfStream:
        sourceEnded = true
      }
      if seekPoint <= 0 || (first.map { $0.time <= target + TimeTolerance.frameTime } ?? false) { return first }
      seekPoint = max(0, seekPoint - backoff)
      backoff *= 2
    }
  }

  enum DecodeOnOutcome {
    /// The newest frame that starts at or before the target (nil: none came), the next ones queued ahead.
    case reached(DecodedFrame?)
    /// A newer seek or a shutdown came first; the seek was answered as superseded, or not at all.
    case interrupted
  }

  /// Decodes forward to the frame whose display interval contains `target`, skipping the frames before it that
  /// nothing references. The first frame after it goes to the frames ahead. For a seek (`request`), a newer seek or
  /// a shutdown in the mailbox ends it between frames; a backward step's run to its frame (nil) is not interrupted.
  func decodeOn(to target: Double, for request: SeekRequest?) -> DecodeOnOutcome {
    guard let source else { return .interrupted }
    source.discardNonReferenceBefore = target
    defer { source.discardNonReferenceBefore = nil }
    var shown: DecodedFrame?
    while true {
      if let request {
        switch withLock({ mailbox.interruption() }) {
        case .none: break
        case .newerSeek(let newer):
          emit(.superseded(request.id, by: newer))
          return .interrupted
        case .shutdown:
          return .interrupted
        }
      }
      switch source.next() {
      case .frame(let frame):
        if frame.time <= target + TimeTolerance.frameTime {
          shown = frame
          continue
        }
        ahead.append(scheduled(frame, offset: 0))
      case .endOfStream:
        sourceEnded = true
      }
      return .reached(shown)
    }
  }

  /// Whether an exact seek to `target` can decode on from the frames decoded so far instead of seeking: the
  /// newest frame held (ahead, or on screen) is the newest the decoder gave, so the decoder's next frames follow
  /// it (not so after a seek that was overtaken half-way); the target is after the frame on screen; and the
  /// keyframe at or before it (by the container's index) is no later than that newest frame, so no keyframe
  /// closer to the target is skipped. Not across loop passes, and not without an index (MPEG-TS, raw streams).
  func canDecodeOn(to target: Double) -> Bool {
    guard let source, !sourceEnded, !atEnd, decodeOffset == 0, previousPassOffset == 0 else { return false }
    let (onScreenFrame, offset) = withLock { (current, presentedOffset) }
    guard offset == 0, let onScreenFrame, onScreenFrame.time < target else { return false }
    let newestHeld = ahead.last?.frame ?? onScreenFrame
    guard let decoderAt = source.newestFramePTS, decoderAt == newestHeld.pts else { return false }
    let newest = newestHeld.time
    guard let keyframe = source.keyframeTime(atOrBefore: target) else { return false }
    return keyframe <= newest + TimeTolerance.frameTime
  }

  /// Shows `frame` (if any) with the clock at `position`, ready to play on from there.
  func land(on frame: DecodedFrame?, at position: Double) {
    if let frame {
      decodedPassEnd = max(decodedPassEnd, frame.time + frame.duration)
      for scheduled in ahead { decodedPassEnd = max(decodedPassEnd, scheduled.frame.time + scheduled.frame.duration) }
      present(scheduled(frame, offset: 0), jump: true)
    }
    withLock { clock.jump(to: position, at: now()) }
    if sourceEnded && ahead.isEmpty { lastFrameEnd = max(lastFrameEnd, position) }
    // Playback that was running (or stopped at the end) runs on from the new position.
    if playing { withLock { clock.start(at: now()) } }
    progressMarks.moveNext(after: position)
  }

  /// Whether a shutdown waits in the mailbox (it stays there for the play loop).
  func isShuttingDown() -> Bool {
    withLock { mailbox.interruption() } == .shutdown
  }
}

// MARK: - Stepping

extension PlaybackEngine {
  /// Carries out a step of `request.count` frames (negative: backward) and reports how far it moved.
  func stepFrames(_ request: StepRequest) {
    playing = false
    withLock { clock.pause(at: now()) }
    catchUp()
    let moved = request.count > 0 ? stepForward(request.count) : stepBackward(-request.count)
    guard let moved else { return }  // shutting down
    publishCounters()
    settleIfVirtual()
    let position = currentPosition()
    emit(
      .stepped(
        StepResult(id: request.id, requested: request.count, moved: moved, position: MediaTime(seconds: position))))
  }

  /// Shows the `count`th frame after the one on screen (or the last one there is). Nil on shutdown.
  func stepForward(_ count: Int) -> Int? {
    var moved = 0
    while moved < count {
      if isShuttingDown() { return nil }
      if let head = ahead.first {
        // A step never crosses into the next loop pass: it stops on the last frame.
        if head.offset > presentedOffset + TimeTolerance.sameInstant { break }
        ahead.removeFirst()
        present(head, jump: true)
        moved += 1
      } else if sourceEnded {
        break
      } else {
        decodeOne()
      }
    }
    if moved > 0 {
      atEnd = false
      if let frame = withLock({ current }) { progressMarks.moveNext(after: max(frame.time, 0)) }
    }
    return moved
  }

  /// Shows the `count`th frame before the one on screen (or the first one). It seeks to a keyframe
  /// far enough back and decodes forward, keeping the last frames before the current one; a step
  /// longer than that lands on the frame it found with an exact seek. Nil on shutdown.
  func stepBackward(_ count: Int) -> Int? {
    guard let source, let currentFrame = withLock({ current }) else { return 0 }
    guard let found = framesBefore(currentFrame, count: count, in: source) else { return nil }
    guard let targetTime = found.times.first else {
      // Already on the first frame: it stays on screen, and playback goes on after it.
      resetForNewPosition()
      let again = found.after.first ?? currentFrame
      ahead = found.after.dropFirst().map { scheduled($0, offset: 0) }
      land(on: again, at: max(again.time, 0))
      return 0
    }
    let moved = found.times.count
    resetForNewPosition()
    if let index = found.kept.firstIndex(where: { abs($0.time - targetTime) < TimeTolerance.sameInstant }) {
      let target = found.kept[index]
      ahead = (found.kept[(index + 1)...] + found.after).map { scheduled($0, offset: 0) }
      land(on: target, at: max(target.time, 0))
    } else {
      // Too far back to have kept it: land on it as an exact seek would.
      let first = seekToKeyframe(before: targetTime, discardBefore: targetTime)
      guard case .reached(let frame) = decodeOn(to: targetTime, for: nil) else { return nil }
      let shown = frame ?? first
      land(on: shown, at: max(shown?.time ?? targetTime, 0))
    }
    return -moved
  }

  /// The frames before `currentFrame`, found by seeking to a keyframe and decoding forward, further back each
  /// time until `count` frames are found or the start is reached: the times of the last `count` of them, the last
  /// few themselves (at most `stepFramesKept`), and the frame the decoder gave next (at the current one). Nil on
  /// shutdown.
  private func framesBefore(_ currentFrame: DecodedFrame, count: Int, in source: MediaSource) -> (
    times: [Double], kept: [DecodedFrame], after: [DecodedFrame]
  )? {
    let currentTime = currentFrame.time
    var seekPoint = currentTime
    var backoff = max(0.5, currentFrame.duration * Double(count + 1))
    var times: [Double] = []
    var kept: [DecodedFrame] = []
    var after: [DecodedFrame] = []
    while true {
      times.removeAll()
      kept.removeAll()
      after.removeAll()
      guard var frame = seekToKeyframe(before: seekPoint, discardBefore: nil) else { break }
      let startedAt = frame.time
      while true {
        if isShuttingDown() { return nil }
        if frame.time < currentTime - TimeTolerance.frameTime {
          times.append(frame.time)
          if times.count > count { times.removeFirst() }
          kept.append(frame)
          if kept.count > min(count, Self.stepFramesKept) { kept.removeFirst() }
        } else {
          after.append(frame)
          break
        }
        guard case .frame(let next) = source.next() else {
          sourceEnded = true
          break
        }
        frame = next
      }
      if times.count >= count || seekPoint <= 0 || startedAt <= 0 { break }
      seekPoint = max(0, startedAt - backoff)
      backoff *= 2
    }
    return (times, kept, after)
  }
}

// MARK: - Waiting

extension PlaybackEngine {
  func beginWait(_ request: PlaybackWait) {
    if let running = waits.active {
      // One wait at a time: the interactor never sends two; answer the older one anyway.
      emit(
        .waited(WaitResult(id: running.request.id, outcome: .timedOut, position: MediaTime(seconds: currentPosition())))
      )
    }
    let now = withLock { self.now() }
    waits.begin(request, now: now, loops: withLock { loops }, clock: clock.kind, position: currentPosition())
  }

  /// Media position of the clock now.
  func currentPosition() -> Double {
    withLock { max(0, clock.position(at: now()) - presentedOffset) }
  }

  /// Ends the running wait if its condition holds, it timed out, or it can no longer hold.
  @discardableResult
  func finishWaitIfDone(now: Double) -> Bool {
    guard waits.isRunning else { return false }
    let position = currentPosition()
    let playback = WaitTracker.Playback(
      position: position, playing: playing, atEnd: atEnd, loopsAtEnd: configuration.loops)
    guard let (request, outcome) = waits.finish(now: now, playback: playback, loops: withLock { loops }) else {
      return false
    }
    settleIfVirtual()
    emit(.waited(WaitResult(id: request.id, outcome: outcome, position: MediaTime(seconds: position))))
    return true
  }

  /// A loop pass went by: a wait for a position past the end of the media can never be satisfied.
  func failPositionWaitInLoop(passLength: Double) {
    guard let request = waits.failIfBeyond(passLength: passLength) else { return }
    emit(
      .waited(WaitResult(id: request.id, outcome: .neverInLoop, position: MediaTime(seconds: currentPosition()))))
  }
}

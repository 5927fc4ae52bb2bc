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

import CFFmpeg
import Foundation
import Synchronization
import VideoPlaybackKit

/// What the engine reports; the manager hands each to its delegate on the main actor.
enum EngineEvent: Sendable {
  case ready(MediaInfo)
  case failedToOpen(PlaybackError)
  case progress(Double)
  case seeked(SeekResult)
  case superseded(Int, by: Int)
  case stepped(StepResult)
  case waited(WaitResult)
  case ended(Double, loops: Int)
  case error(PlaybackError)
}

final class PlaybackEngine: @unchecked Sendable {
  enum Message {
    case play
    case pause
    case seek(SeekRequest, requestedAt: UInt64)
    case step(StepRequest)
    case rate(Double)
    case wait(PlaybackWait)
    case shutdown
  }

  /// Frames decoded ahead of the clock: paused, seeking, and on the free and virtual clocks.
  private static let framesAhead = 6
  /// Playing on the wall clock, frames decoded ahead: as many as fit in `wallAheadBytes`, within these
  /// bounds. A deeper queue means fewer, longer refills, and fewer wake-ups of the decoder's threads.
  private static let wallFramesAhead = 6...30
  private static let wallAheadBytes = 24 << 20
  /// While playing on the wall clock, decoding ahead resumes only when this few frames are left and
  /// then fills up in one go: fewer wake-ups per frame than topping up one by one.
  private static let refillBelow = 2
  /// Frames a backward step keeps while it decodes; a longer step seeks to the frame it found.
  private static let stepFramesKept = 16
  /// At most one decode-error event a second of clock time; the count is always in `status`.
  private static let errorReportInterval = 1.0
  /// Playing on the wall clock, one decoder thread may use this share of real time (its CPU time per second of
  /// media, times the rate) before playing goes back to FFmpeg's threads: above it, a run of hard frames would
  /// leave too little margin to keep them on time.
  static let realtimeLoadLimit = 0.5
  /// Frame lateness samples kept for the p99 in `status` (wall clock).
  private static let latenessSamples = 4096

  /// A decoded frame placed on the timeline: `offset` is the length of the loop passes before it.
  private struct Scheduled {
    var frame: DecodedFrame
    var offset: Double
    /// Clock time when it was decoded: a frame is shown late only if it was decoded after its due time.
    var decodedAt: Double
    var due: Double { frame.time + offset }
  }

  /// A wait being carried out.
  private struct ActiveWait {
    var request: PlaybackWait
    /// Clock time when the wait gives up, and (for `elapsed`) when it is done.
    var timeoutAt: Double?
    var elapsedAt: Double?
    /// Free clock: `elapsed` is media time, so the wait ends at this position.
    var elapsedPosition: Double?
    var loopsAtStart: Int
  }

  private let path: String
  private let configuration: PlaybackConfiguration
  private let realtimeLoadLimit: Double
  private let access: MediaAccess
  private let emit: @Sendable (EngineEvent) -> Void

  // Shared with the main actor, guarded by `condition`.
  private let condition = NSCondition()
  /// Signalled when the engine thread has finished.
  private let finished = DispatchSemaphore(value: 0)
  /// Interrupts FFmpeg's blocking I/O on shutdown.
  private let stopFlag = StopFlag()
  /// True while the thread is opening the file.
  private let opening = Atomic<Bool>(true)
  private var mailbox: [Message] = []
  private var clock: EngineClock
  /// The virtual clock's time: moved only by waits.
  private var virtualNow = 0.0
  private var current: DecodedFrame?
  /// The loop offset of the frame on screen: timeline minus media time.
  private var presentedOffset = 0.0
  private var duration = 0.0
  private var framesDecoded = 0
  private var decodeErrors = 0
  private var loops = 0
  private var hasVideo = false
  private var timeBase: (num: Int32, den: Int32) = (0, 1)
  /// `lastFrameEnd` as last published to other threads.
  private var lastFrameEndShared = 0.0
  private var lateness: [Double] = []
  private var latenessNext = 0
  /// `ahead` as last published to other threads: on the wall clock the frames in it whose time has
  /// come are on screen before the engine thread presents them.
  private var aheadShared: [Scheduled] = []
  /// How many times the thread has woken from a sleep: a diagnostic for tests of lazy presentation.
  private var wakeups = 0
  /// The decoder's threads: a diagnostic for tests of real-time decoding.
  private var decoderThreads = 0

  // The engine thread's own.
  private var source: MediaSource?
  private var ahead: [Scheduled] = [] {
    // Only the wall clock shows frames the thread has not presented; the other clocks present each one as it comes due.
    didSet { if clock.kind == .wall { withLock { aheadShared = ahead } } }
  }
  private var sourceEnded = false
  /// The loop offset of the frames being decoded now, and where the current pass's frames end.
  private var decodeOffset = 0.0
  private var decodedPassEnd = 0.0
  /// Whether playback should run: the interactor's intent, which the engine never changes itself.
  private var playing = false
  /// The end was reached (and reported); the clock stands still until a seek moves playback away.
  private var atEnd = false
  /// Where the newest presented frame ends on the timeline: the end of the media as the decoder sees it.
  private var lastFrameEnd = 0.0
  private var nextProgressMark: Double?
  private var reportedErrors = 0
  private var lastErrorReport = -Double.infinity
  private var readErrorReported = false
  private var activeWait: ActiveWait?
  /// A refill of the frames ahead is under way (see `refillBelow`).
  private var refilling = false
  /// How many frames playing on the wall clock keeps ahead (from the first frame's size).
  private var wallAheadLimit = PlaybackEngine.framesAhead
  /// Decoding on one thread while playing on the wall clock: the thread's CPU seconds and the media seconds
  /// decoded since the last check against `realtimeLoadLimit`.
  private var realtimeLoad = (cpu: 0.0, media: 0.0)
  /// One decoder thread could not keep up at this rate: playing uses FFmpeg's threads until the rate changes.
  private var realtimeTooSlow = false

  init(
    path: String, configuration: PlaybackConfiguration, access: MediaAccess = MediaAccess(),
    realtimeLoadLimit: Double = PlaybackEngine.realtimeLoadLimit, emit: @escaping @Sendable (EngineEvent) -> Void
  ) {
    self.path = path
    self.configuration = configuration
    self.realtimeLoadLimit = realtimeLoadLimit
    self.access = access
    self.emit = emit
    self.clock = EngineClock(kind: configuration.clock)
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
    mailbox.append(message)
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
    var p99: Double?
    if clock.kind == .wall, !lateness.isEmpty {
      let sorted = lateness.sorted()
      p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)] * 1000
    }
    return PlaybackSnapshot(
      position: MediaTime(seconds: position), framesDecoded: framesDecoded, decodeErrors: decodeErrors,
      loops: loops + (visible.offset > presentedOffset + 1e-9 ? 1 : 0), latenessP99: p99)
  }

  /// The frame on screen with its MD5 (computed on the caller's thread), nil with no video frame.
  func currentFrame() -> FrameIdentity? {
    condition.lock()
    let frame = hasVideo ? visibleLocked(at: clock.position(at: now())).frame : nil
    let timeBase = self.timeBase
    condition.unlock()
    return frame?.identity(timeBase: timeBase)
  }

  /// The frame on screen at timeline time `timeline` and its loop offset (call with the lock held): the
  /// newest frame decoded ahead whose time has come, else the one the engine thread presented last.
  private func visibleLocked(at timeline: Double) -> (frame: DecodedFrame?, offset: Double) {
    var visible = (frame: current, offset: presentedOffset)
    for scheduled in aheadShared {
      guard scheduled.due <= timeline + 1e-9 else { break }
      visible = (scheduled.frame, scheduled.offset)
    }
    return visible
  }

  /// Clock time now (call with the lock held, or from the engine thread).
  private func now() -> Double {
    clock.kind == .virtual ? virtualNow : hostSeconds()
  }

  // MARK: - The engine thread

  private func run() {
    let source: MediaSource
    do {
      // A session that plays on the wall clock as soon as it is ready starts on the real-time decoder.
      let threading: DecoderThreading =
        configuration.startsPlaying && configuration.clock == .wall ? .realtime : .throughput
      source = try MediaSource(path: path, access: access, threading: threading, stop: stopFlag)
      opening.store(false, ordering: .releasing)
    } catch {
      opening.store(false, ordering: .releasing)
      emit(.failedToOpen(error))
      return
    }
    self.source = source
    condition.lock()
    duration = source.info.duration?.seconds ?? 0  // 0: unknown
    hasVideo = source.hasVideo
    timeBase = source.timeBaseParts
    condition.unlock()

    // Show the first frame, as a paused player does, before saying the file is ready: a `frame`
    // sent right after `ready` must find it.
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
    nextProgressMark = nextMark(after: 0, inclusive: true)
    if let mark = nextProgressMark, mark <= 0 {
      emit(.progress(0))
      nextProgressMark = nextMark(after: 0, inclusive: false)
    }

    while true {
      guard let work = takeMessages() else { break }
      switch work {
      case .seek(let seek): perform(seek)
      case .step(let request): performStep(request)
      case .none: step()
      }
    }
    ahead.removeAll()
    condition.lock()
    current = nil
    condition.unlock()
    self.source = nil
  }

  private enum Work {
    case seek(SeekPending)
    case step(StepRequest)
    case none
  }

  /// Applies the mailbox: play, pause, rate and waits at once; of several seeks the newest wins and
  /// the others are superseded. A step runs after the seeks before it; what follows it stays in the
  /// mailbox. Returns nil on shutdown.
  private func takeMessages() -> Work? {
    condition.lock()
    let messages = mailbox
    mailbox.removeAll(keepingCapacity: true)
    condition.unlock()
    var seek: SeekPending?
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
        realtimeTooSlow = false  // measured again at this rate
        realtimeLoad = (0, 0)
      case .wait(let request):
        begin(request)
      case .seek(let request, let requestedAt):
        if let older = seek { emit(.superseded(older.request.id, by: request.id)) }
        seek = SeekPending(request: request, requestedAt: requestedAt)
      case .step(let request):
        let rest = messages[(index + 1)...]
        if !rest.isEmpty { withLock { mailbox.insert(contentsOf: rest, at: 0) } }
        if let seek {
          // The step goes back in front of what followed it, to run once the seek has landed.
          withLock { mailbox.insert(.step(request), at: 0) }
          return .seek(seek)
        }
        return .step(request)
      }
    }
    return seek.map(Work.seek) ?? Work.none
  }

  private struct SeekPending {
    var request: SeekRequest
    var requestedAt: UInt64
  }

  private func withLock<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }

  /// One unit of work while no seek is pending: show a due frame, decode one, finish a wait, or
  /// sleep until something is due.
  private func step() {
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

  private var canDecodeMore: Bool {
    !sourceEnded && ahead.count < (playing && clock.kind == .wall ? wallAheadLimit : Self.framesAhead)
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
      if scheduled.offset > presentedOffset + 1e-9
        || nextProgressMark.map({ scheduled.frame.time >= $0 - 1e-9 }) == true
      {
        wake = scheduled.due
        break
      }
    }
    if let wait = activeWait, case .position(let target) = wait.request.until {
      // Waits for a position are checked as frames are presented: wake at the frame that reaches it.
      if let reaching = ahead.first(where: { $0.offset == presentedOffset && $0.frame.time >= target.seconds - 1e-9 }) {
        wake = min(wake, reaching.due)
      }
    }
    return withLock { clock.dueTime(of: wake) }
  }

  /// Waits until clock time `due` (or a wait's deadline, whichever is first), or forever when there
  /// is neither. On the virtual clock, time jumps there instead, but only while a wait is running.
  private func idle(until due: Double?, now: Double) {
    var wake = due ?? .infinity
    if let wait = activeWait {
      wake = min(wake, wait.timeoutAt ?? .infinity, wait.elapsedAt ?? .infinity)
    }
    if clock.kind == .virtual {
      if activeWait != nil && wake.isFinite {
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

  /// `wakeups`, read under the lock.
  var wakeupCount: Int { withLock { wakeups } }

  /// Decodes ahead to the limit: on the virtual clock, before anything is reported, so counters and
  /// errors are the same on every run.
  private func settleIfVirtual() {
    guard clock.kind == .virtual else { return }
    while canDecodeMore { decodeOne() }
  }

  /// The decoder playing wants: one thread on the wall clock (it only needs real time, and costs less CPU for the
  /// same frames); flat out on the free and virtual clocks, any threaded decoder (the one a seek left is as fast).
  /// Nil while paused: the decoder stays as it is, since what comes next is a seek (which changes it at once) or
  /// playing on.
  private var playbackThreading: DecoderThreading? {
    guard playing && !atEnd, let source else { return nil }
    if clock.kind == .wall && !realtimeTooSlow { return .realtime }
    return source.threading.isThreaded ? source.threading : .throughput
  }

  private func decodeOne() {
    guard let source else { return }
    if let wanted = playbackThreading { source.wantedThreading = wanted }
    let measuring = playing && clock.kind == .wall && source.threading == .realtime
    let cpuBefore = measuring ? threadCPUSeconds() : 0
    switch source.next() {
    case .frame(let frame):
      if measuring { noteRealtimeLoad(cpu: threadCPUSeconds() - cpuBefore, media: frame.duration) }
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

  /// Checks, once a second of media, whether one decoder thread keeps up with the wall clock at this rate.
  private func noteRealtimeLoad(cpu: Double, media: Double) {
    realtimeLoad.cpu += cpu
    realtimeLoad.media += media
    guard realtimeLoad.media >= 1 else { return }
    let share = realtimeLoad.cpu * withLock { clock.rate } / realtimeLoad.media
    if share > realtimeLoadLimit { realtimeTooSlow = true }
    realtimeLoad = (0, 0)
  }

  /// CPU seconds of the calling thread (the engine thread, which runs a one-thread decoder itself).
  private func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  /// Threads of the decoder, as last published (for tests).
  var decoderThreadCount: Int { withLock { decoderThreads } }

  private func publishCounters() {
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

  /// A frame just decoded, placed `offset` along the timeline.
  private func scheduled(_ frame: DecodedFrame, offset: Double) -> Scheduled {
    Scheduled(frame: frame, offset: offset, decodedAt: withLock { now() })
  }

  /// Puts a frame on screen. With `jump`, the clock jumps to it (a seek, a step); else (playback)
  /// the free clock follows the frame and the others keep their own time.
  private func present(_ scheduled: Scheduled, jump: Bool, dueAt: Double? = nil) {
    let wrapped = scheduled.offset > presentedOffset + 1e-9
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
      let late = max(0, scheduled.decodedAt - dueAt)
      if lateness.count < Self.latenessSamples {
        lateness.append(late)
      } else {
        lateness[latenessNext] = late
        latenessNext = (latenessNext + 1) % Self.latenessSamples
      }
    }
    if wrapped { loops += 1 }
    let loopsNow = loops
    condition.unlock()
    if wrapped {
      // A loop: the end of the pass before this frame's was passed on the way to it.
      let passLength = scheduled.offset - previousPassOffset
      previousPassOffset = scheduled.offset
      emit(.ended(duration > 0 ? min(passLength, duration) : passLength, loops: loopsNow))
      nextProgressMark = nextMark(after: min(0, frame.time), inclusive: true)
      failPositionWaitInLoop(passLength: passLength)
    }
    if !jump {
      reportProgress(at: max(frame.time, 0))
      // Most frames are shown with no wait running: then there is nothing to check.
      if activeWait != nil { finishWaitIfDone(now: withLock { self.now() }) }
    }
  }

  /// Takes the first frame ahead and puts it on screen, as playback reaches it. On the wall clock it leaves `ahead`
  /// only once it is on screen, so another thread reading the frame on screen (`visibleLocked`) never misses it. On
  /// the others it leaves first: presenting it may finish a wait, which decodes ahead again (`settleIfVirtual`).
  private func presentFirstAhead(dueAt: Double? = nil) {
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
  private func catchUp() {
    let timeline = withLock { clock.position(at: now()) }
    while let head = ahead.first, head.due <= timeline + 1e-9 {
      presentFirstAhead()
    }
  }

  /// The timeline offset of the pass on screen, for the length of a loop pass.
  private var previousPassOffset = 0.0

  private func reportProgress(at time: Double) {
    guard let mark = nextProgressMark, time >= mark - 1e-9 else { return }
    // A damaged file can hold frames past the duration its header declares: report within it, as status does.
    emit(.progress(duration > 0 ? min(time, duration) : time))
    nextProgressMark = nextMark(after: time, inclusive: false)
  }

  /// The first multiple of the progress interval at (or strictly after) `time`.
  private func nextMark(after time: Double, inclusive: Bool) -> Double? {
    guard let interval = configuration.progressInterval, interval > 0 else { return nil }
    // The small allowance keeps 0.3 / 0.1 (2.9999…) on mark 3, so no mark is reported twice.
    let steps = (time / interval + 1e-9).rounded(.down)
    let mark = steps * interval
    return inclusive && abs(mark - time) < 1e-9 ? mark : (steps + 1) * interval
  }

  /// Stops the clock at the end and says so, once. Playing stays the intent: a seek that was already
  /// on its way moves playback away from the end and it goes on.
  private func reachEnd() {
    atEnd = true
    // Nothing more is decoded until a seek: the decoder gives back what playing at full speed kept, before the end
    // is reported (freeing and opening a decoder takes 2-6 ms on 720p-1080p).
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

  // MARK: - Waiting

  private func begin(_ request: PlaybackWait) {
    if let running = activeWait {
      // One wait at a time: the interactor never sends two; answer the older one anyway.
      emit(
        .waited(WaitResult(id: running.request.id, outcome: .timedOut, position: MediaTime(seconds: currentPosition())))
      )
    }
    let now = withLock { self.now() }
    var wait = ActiveWait(
      request: request, timeoutAt: request.timeout.map { now + $0 }, elapsedAt: nil, elapsedPosition: nil,
      loopsAtStart: withLock { loops })
    if case .elapsed(let seconds) = request.until {
      if clock.kind == .free {
        wait.elapsedPosition = currentPosition() + seconds
      } else {
        wait.elapsedAt = now + seconds
      }
    }
    activeWait = wait
  }

  private func currentPosition() -> Double {
    withLock { max(0, clock.position(at: now()) - presentedOffset) }
  }

  /// Ends the running wait if its condition holds, it timed out, or it can no longer hold.
  @discardableResult
  private func finishWaitIfDone(now: Double) -> Bool {
    guard let wait = activeWait else { return false }
    let position = currentPosition()
    let moving = playing && !atEnd
    var outcome: WaitOutcome?
    switch wait.request.until {
    case .position(let target):
      if position >= target.seconds - 1e-9 {
        outcome = .satisfied
      } else if atEnd && !configuration.loops {
        outcome = .endedFirst
      } else if !playing {
        outcome = .notPlaying
      }
    case .ended:
      if withLock({ loops }) > wait.loopsAtStart {
        outcome = .satisfied
      } else if !moving {
        outcome = .notPlaying
      }
    case .elapsed:
      if let at = wait.elapsedAt, now >= at - 1e-12 {
        outcome = .satisfied
      } else if let target = wait.elapsedPosition, position >= target - 1e-9 || !moving {
        outcome = .satisfied
      }
    }
    if outcome == nil, let timeoutAt = wait.timeoutAt, now >= timeoutAt - 1e-12 {
      outcome = .timedOut
    }
    guard let outcome else { return false }
    activeWait = nil
    settleIfVirtual()
    emit(.waited(WaitResult(id: wait.request.id, outcome: outcome, position: MediaTime(seconds: position))))
    return true
  }

  /// A loop pass went by: a wait for a position past the end of the media can never be satisfied.
  private func failPositionWaitInLoop(passLength: Double) {
    guard let wait = activeWait, case .position(let target) = wait.request.until else { return }
    guard target.seconds > passLength + 1e-9 else { return }
    activeWait = nil
    emit(
      .waited(WaitResult(id: wait.request.id, outcome: .neverInLoop, position: MediaTime(seconds: currentPosition()))))
  }

  // MARK: - Seeking

  /// Clears what was decoded ahead and the loop bookkeeping: playback continues from a new point.
  private func resetForNewPosition() {
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
  private func seekToKeyframe(before target: Double, discardBefore: Double?, keyframeOnly: Bool = false)
    -> DecodedFrame?
  {
    guard let source else { return nil }
    var seekPoint = target
    var backoff = 0.5
    // A run of frames from the keyframe on decodes fastest on the seeking decoder. For the keyframe alone, each
    // frame thread more delays the first frame (every thread takes a packet before one comes out): FFmpeg's choice
    // (1080p H.264 keyframe scrubs: 14.1 ms against 15.9 on the seeking decoder). Changing decoder costs about 7 ms
    // at 1080p (a new decoder's frame buffers are new memory), paid once when a slider drag of keyframe scrubs
    // starts and once when an exact scrub ends it. Playing changes back later.
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
      if seekPoint <= 0 || (first.map { $0.time <= target + 1e-6 } ?? false) { return first }
      seekPoint = max(0, seekPoint - backoff)
      backoff *= 2
    }
  }

  private func perform(_ pending: SeekPending) {
    guard let source else { return }
    catchUp()
    let request = pending.request
    let target = request.target.seconds
    var shown: DecodedFrame?
    if request.mode == .exact && canDecodeOn(to: target) {
      // Forward within the frames' own GOP: decoding on from where the decoder is passes fewer frames than a
      // seek back to the keyframe would. Frames already decoded ahead up to the target are taken as they are.
      withLock { lateness.removeAll() }
      while let head = ahead.first, head.frame.time <= target + 1e-6 {
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
    let milliseconds = Double(hostNanoseconds() - pending.requestedAt) / 1e6
    emit(
      .seeked(
        SeekResult(
          id: request.id, target: request.target, position: MediaTime(seconds: position), mode: request.mode,
          milliseconds: milliseconds)))
  }

  private enum DecodeOnOutcome {
    /// The newest frame that starts at or before the target (nil: none came), the next ones queued ahead.
    case reached(DecodedFrame?)
    /// A newer seek or a shutdown came first; the seek was answered as superseded, or not at all.
    case interrupted
  }

  /// Decodes forward to the frame whose display interval contains `target`, skipping the frames before it that
  /// nothing references. The first frame after it goes to the frames ahead.
  private func decodeOn(to target: Double, for request: SeekRequest) -> DecodeOnOutcome {
    guard let source else { return .interrupted }
    source.discardNonReferenceBefore = target
    defer { source.discardNonReferenceBefore = nil }
    var shown: DecodedFrame?
    while true {
      switch interruption() {
      case .none: break
      case .newerSeek(let newer):
        emit(.superseded(request.id, by: newer))
        return .interrupted
      case .shutdown:
        return .interrupted
      }
      switch source.next() {
      case .frame(let frame):
        if frame.time <= target + 1e-6 {
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
  private func canDecodeOn(to target: Double) -> Bool {
    guard let source, !sourceEnded, !atEnd, decodeOffset == 0, previousPassOffset == 0 else { return false }
    let (onScreenFrame, offset) = withLock { (current, presentedOffset) }
    guard offset == 0, let onScreenFrame, onScreenFrame.time < target else { return false }
    let newestHeld = ahead.last?.frame ?? onScreenFrame
    guard let decoderAt = source.newestFramePTS, decoderAt == newestHeld.pts else { return false }
    let newest = newestHeld.time
    guard let keyframe = source.keyframeTime(atOrBefore: target) else { return false }
    return keyframe <= newest + 1e-6
  }

  /// Shows `frame` (if any) with the clock at `position`, ready to play on from there.
  private func land(on frame: DecodedFrame?, at position: Double) {
    if let frame {
      decodedPassEnd = max(decodedPassEnd, frame.time + frame.duration)
      for scheduled in ahead { decodedPassEnd = max(decodedPassEnd, scheduled.frame.time + scheduled.frame.duration) }
      present(scheduled(frame, offset: 0), jump: true)
    }
    withLock { clock.jump(to: position, at: now()) }
    if sourceEnded && ahead.isEmpty { lastFrameEnd = max(lastFrameEnd, position) }
    // Playback that was running (or stopped at the end) runs on from the new position.
    if playing { withLock { clock.start(at: now()) } }
    nextProgressMark = nextMark(after: position, inclusive: false)
  }

  private enum Interruption { case none, newerSeek(Int), shutdown }

  /// Whether the mailbox holds something that ends a running seek: a newer seek (the newest
  /// one's id) or a shutdown. Both stay in the mailbox for the main loop.
  private func interruption() -> Interruption {
    condition.lock()
    defer { condition.unlock() }
    if mailbox.contains(where: { if case .shutdown = $0 { true } else { false } }) { return .shutdown }
    for message in mailbox.reversed() {
      if case .seek(let request, _) = message { return .newerSeek(request.id) }
    }
    return .none
  }

  private func isShuttingDown() -> Bool {
    if case .shutdown = interruption() { return true }
    return false
  }

  // MARK: - Stepping

  private func performStep(_ request: StepRequest) {
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
  private func stepForward(_ count: Int) -> Int? {
    var moved = 0
    while moved < count {
      if isShuttingDown() { return nil }
      if let head = ahead.first {
        // A step never crosses into the next loop pass: it stops on the last frame.
        if head.offset > presentedOffset + 1e-9 { break }
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
      if let frame = withLock({ current }) { nextProgressMark = nextMark(after: max(frame.time, 0), inclusive: false) }
    }
    return moved
  }

  /// Shows the `count`th frame before the one on screen (or the first one). It seeks to a keyframe
  /// far enough back and decodes forward, keeping the last frames before the current one; a step
  /// longer than that lands on the frame it found with an exact seek. Nil on shutdown.
  private func stepBackward(_ count: Int) -> Int? {
    guard let source, let currentFrame = withLock({ current }) else { return 0 }
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
        if frame.time < currentTime - 1e-6 {
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
    guard let targetTime = times.first else {
      // Already on the first frame: it stays on screen, and playback goes on after it.
      resetForNewPosition()
      let again = after.first ?? currentFrame
      ahead = after.dropFirst().map { scheduled($0, offset: 0) }
      land(on: again, at: max(again.time, 0))
      return 0
    }
    let moved = times.count
    resetForNewPosition()
    if let index = kept.firstIndex(where: { abs($0.time - targetTime) < 1e-9 }) {
      let target = kept[index]
      ahead = (kept[(index + 1)...] + after).map { scheduled($0, offset: 0) }
      land(on: target, at: max(target.time, 0))
    } else {
      // Too far back to have kept it: land on it as an exact seek would.
      let first = seekToKeyframe(before: targetTime, discardBefore: targetTime)
      var shown = first
      while true {
        guard case .frame(let frame) = source.next() else {
          sourceEnded = true
          break
        }
        if frame.time <= targetTime + 1e-6 {
          shown = frame
          continue
        }
        ahead.append(scheduled(frame, offset: 0))
        break
      }
      source.discardNonReferenceBefore = nil
      land(on: shown, at: max(shown?.time ?? targetTime, 0))
    }
    return -moved
  }
}

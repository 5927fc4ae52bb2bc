// PlaybackEngine: the thread that demuxes, decodes and paces one file.
//
// It owns a thread of its own (not Swift's cooperative pool). Commands arrive through a mailbox
// that the thread checks between packets, so a seek lands promptly even mid-decode. A few decoded
// frames wait ahead of the clock; paused, the thread sleeps on a condition with no timeout.
// Everything it has to say goes out, in order, through `emit`.

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
  case ended(Double)
  case error(PlaybackError)
}

final class PlaybackEngine: @unchecked Sendable {
  enum Message {
    case play
    case pause
    case seek(SeekRequest, requestedAt: UInt64)
    case shutdown
  }

  /// Frames decoded ahead of the clock.
  private static let framesAhead = 6
  /// At most one decode-error event a second; the count is always in `status`.
  private static let errorReportInterval: UInt64 = 1_000_000_000

  private let path: String
  private let configuration: PlaybackConfiguration
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
  private var current: DecodedFrame?
  private var duration = 0.0
  private var framesDecoded = 0
  private var decodeErrors = 0
  private var hasVideo = false
  private var timeBase: (num: Int32, den: Int32) = (0, 1)
  /// `lastFrameEnd` as last published to other threads.
  private var lastFrameEndShared = 0.0

  // The engine thread's own.
  private var source: MediaSource?
  private var ahead: [DecodedFrame] = []
  private var sourceEnded = false
  /// Whether playback should run: the interactor's intent, which the engine never changes itself.
  private var playing = false
  /// The end was reached (and reported); the clock stands still until a seek moves playback away.
  private var atEnd = false
  /// Where the newest presented frame ends: the end of the media as the decoder sees it.
  private var lastFrameEnd = 0.0
  private var nextProgressMark: Double?
  private var reportedErrors = 0
  private var lastErrorReport: UInt64 = 0
  private var readErrorReported = false

  init(path: String, configuration: PlaybackConfiguration, emit: @escaping @Sendable (EngineEvent) -> Void) {
    self.path = path
    self.configuration = configuration
    self.emit = emit
    self.clock = EngineClock(kind: configuration.clock)
  }

  // MARK: - Any thread

  func start() {
    let thread = Thread { [self] in
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
    let position = min(max(0, clock.position(at: hostNanoseconds())), limit)
    return PlaybackSnapshot(
      position: MediaTime(seconds: position), framesDecoded: framesDecoded, decodeErrors: decodeErrors)
  }

  /// The frame on screen with its MD5 (computed on the caller's thread), nil with no video frame.
  func currentFrame() -> FrameIdentity? {
    condition.lock()
    let frame = hasVideo ? current : nil
    let timeBase = self.timeBase
    condition.unlock()
    return frame?.identity(timeBase: timeBase)
  }

  // MARK: - The engine thread

  private func run() {
    let source: MediaSource
    do {
      source = try MediaSource(path: path, stop: stopFlag)
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
      present(first, position: 0)
    } else {
      sourceEnded = true
    }
    publishCounters()
    emit(.ready(source.info))
    nextProgressMark = nextMark(after: 0, inclusive: true)
    if let mark = nextProgressMark, mark <= 0 {
      emit(.progress(0))
      nextProgressMark = nextMark(after: 0, inclusive: false)
    }

    while true {
      guard let pendingSeek = takeMessages() else { break }
      if let seek = pendingSeek {
        perform(seek)
        continue
      }
      step()
    }
    ahead.removeAll()
    condition.lock()
    current = nil
    condition.unlock()
    self.source = nil
  }

  /// Applies the mailbox: play/pause at once; of several seeks the newest wins and the others are
  /// superseded. Returns nil on shutdown, else the seek to perform (if any).
  private func takeMessages() -> SeekPending?? {
    condition.lock()
    let messages = mailbox
    mailbox.removeAll(keepingCapacity: true)
    condition.unlock()
    var seek: SeekPending?
    for message in messages {
      switch message {
      case .shutdown:
        return nil  // nothing is reported after shutdown
      case .play:
        playing = true
        if !atEnd { withLock { clock.start(at: hostNanoseconds()) } }
      case .pause:
        playing = false
        withLock { clock.pause(at: hostNanoseconds()) }
      case .seek(let request, let requestedAt):
        if let older = seek { emit(.superseded(older.request.id, by: request.id)) }
        seek = SeekPending(request: request, requestedAt: requestedAt)
      }
    }
    return .some(seek)
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

  /// One unit of work while no seek is pending: present a due frame, decode one, or sleep.
  private func step() {
    let now = hostNanoseconds()
    if playing && !atEnd {
      if let head = ahead.first {
        let delay = withLock { clock.delay(until: head.time, at: now) } ?? 0
        if delay <= 0 {
          ahead.removeFirst()
          present(head, position: nil)
        } else if canDecodeMore {
          decodeOne()
        } else {
          sleep(seconds: delay)
        }
      } else if sourceEnded {
        let end = max(lastFrameEnd, withLock { clock.position(at: now) })
        let delay = withLock { clock.delay(until: lastFrameEnd, at: now) } ?? 0
        if delay <= 0 { reachEnd(at: duration > 0 ? min(end, duration) : end) } else { sleep(seconds: delay) }
      } else {
        decodeOne()
      }
    } else if canDecodeMore {
      decodeOne()
    } else {
      sleep(seconds: nil)
    }
  }

  private var canDecodeMore: Bool { !sourceEnded && ahead.count < Self.framesAhead }

  /// Waits for a message, or for `seconds` to pass (forever when nil).
  private func sleep(seconds: Double?) {
    condition.lock()
    if mailbox.isEmpty {
      if let seconds {
        _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
      } else {
        condition.wait()
      }
    }
    condition.unlock()
  }

  private func decodeOne() {
    guard let source else { return }
    switch source.next() {
    case .frame(let frame): ahead.append(frame)
    case .endOfStream: sourceEnded = true
    }
    publishCounters()
  }

  private func publishCounters() {
    guard let source else { return }
    condition.lock()
    framesDecoded = source.framesDecoded
    decodeErrors = source.decodeErrors
    condition.unlock()
    let now = hostNanoseconds()
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

  /// Puts `frame` on screen. With `position`, the clock jumps there; else (playback) the free
  /// clock follows the frame and the wall clock keeps its own time.
  private func present(_ frame: DecodedFrame, position: Double?) {
    lastFrameEnd = max(frame.time + frame.duration, 0)
    condition.lock()
    current = frame
    lastFrameEndShared = lastFrameEnd
    if let position {
      clock.jump(to: position, at: hostNanoseconds())
    } else if clock.kind == .free {
      clock.jump(to: max(frame.time, 0), at: hostNanoseconds())
    }
    condition.unlock()
    if position == nil { reportProgress(at: max(frame.time, 0)) }
  }

  private func reportProgress(at time: Double) {
    guard let mark = nextProgressMark, time >= mark - 1e-9 else { return }
    emit(.progress(time))
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
  private func reachEnd(at position: Double) {
    atEnd = true
    withLock {
      clock.pause(at: hostNanoseconds())
      clock.jump(to: position, at: hostNanoseconds())
    }
    publishCounters()
    emit(.ended(position))
  }

  // MARK: - Seeking

  private func perform(_ pending: SeekPending) {
    guard let source else { return }
    let request = pending.request
    let target = request.target.seconds
    ahead.removeAll()
    sourceEnded = false
    atEnd = false

    // Land on a keyframe at or before the target. Containers index by decode time, so with
    // B-frames the keyframe found can show after the target: then step further back.
    var seekPoint = target
    var first: DecodedFrame?
    var backoff = 0.5
    while true {
      if !source.seek(to: seekPoint) && seekPoint > 0 {
        // The demuxer cannot seek there (a raw stream): start from the beginning and decode forward.
        seekPoint = 0
        continue
      }
      source.discardNonReferenceBefore = request.mode == .exact ? target : nil
      switch source.next() {
      case .frame(let frame):
        first = frame
      case .endOfStream:
        first = nil
        sourceEnded = true
      }
      if seekPoint <= 0 || (first.map { $0.time <= target + 1e-6 } ?? false) { break }
      seekPoint = max(0, seekPoint - backoff)
      backoff *= 2
      sourceEnded = false
    }

    var shown = first
    if request.mode == .exact, let firstFrame = first, firstFrame.time <= target {
      // Decode forward to the frame whose display interval contains the target.
      while true {
        switch interruption() {
        case .none: break
        case .newerSeek(let newer):
          source.discardNonReferenceBefore = nil
          emit(.superseded(request.id, by: newer))
          return
        case .shutdown:
          return
        }
        switch source.next() {
        case .frame(let frame):
          if frame.time <= target + 1e-6 {
            shown = frame
            continue
          }
          ahead.append(frame)
        case .endOfStream:
          sourceEnded = true
        }
        break
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
    if let shown {
      present(shown, position: position)
    } else {
      withLock { clock.jump(to: position, at: hostNanoseconds()) }
    }
    if sourceEnded && ahead.isEmpty { lastFrameEnd = max(lastFrameEnd, position) }
    // Playback that was running (or stopped at the end) runs on from the new position.
    if playing { withLock { clock.start(at: hostNanoseconds()) } }
    publishCounters()
    nextProgressMark = nextMark(after: position, inclusive: false)
    let milliseconds = Double(hostNanoseconds() - pending.requestedAt) / 1e6
    emit(
      .seeked(
        SeekResult(
          id: request.id, target: request.target, position: MediaTime(seconds: position), mode: request.mode,
          milliseconds: milliseconds)))
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
}

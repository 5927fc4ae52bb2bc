// PlaybackEngine+Presenting: putting frames on screen as the clock reaches them, and what that reports: progress
// marks, loops, frame lateness, and the end of the media.

import VideoPlaybackKit

extension PlaybackEngine {
  /// Puts a frame on screen. With `jump`, the clock jumps to it (a seek, a step); else (playback)
  /// the free clock follows the frame and the others keep their own time.
  func present(_ scheduled: ScheduledFrame, jump: Bool, dueAt: Double? = nil) {
    // A new loop pass: later on the timeline, or earlier playing backward.
    let wrapped =
      scheduled.backward
      ? scheduled.offset < presentedOffset - TimeTolerance.sameInstant
      : scheduled.offset > presentedOffset + TimeTolerance.sameInstant
    let frame = scheduled.frame
    lastFrameEnd = max(scheduled.offset + frame.time + frame.duration, 0)
    let loopsNow = shared.update { state in
      state.current = frame
      state.presentedOffset = scheduled.offset
      state.lastFrameMediaEnd = max(frame.time + frame.duration, 0)
      if jump {
        state.clock.jump(to: max(scheduled.due, scheduled.offset), at: state.now())
      } else if clockKind == .free {
        state.clock.jump(to: max(scheduled.due, scheduled.offset), at: state.now())
      }
      if clockKind == .wall, let dueAt {
        // How late the frame is shown, for the p99 in `status`: it is on screen from its due time if it was decoded
        // by then (see `EngineSharedState.Published.visible`), else from when it was.
        state.lateness.record(max(0, scheduled.decodedAt - dueAt))
      }
      if wrapped { state.loops += 1 }
      return state.loops
    }
    if wrapped && scheduled.backward {
      // A loop backward: the start of the pass after this frame's was passed on the way to it.
      previousPassOffset = scheduled.offset
      emit(.ended(startPosition, loops: loopsNow, direction: .backward))
      progressMarks.moveNext(atOrBefore: frame.time + frame.duration)
    } else if wrapped {
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
      if waits.isRunning { finishWaitIfDone(now: now()) }
    }
  }

  /// Takes the first frame ahead and puts it on screen, as playback reaches it. On the wall clock it leaves `ahead`
  /// only once it is on screen, so another thread reading the frame on screen (`EngineSharedState.Published.visible`)
  /// never misses it. On the others it leaves first: presenting it may finish a wait, which decodes ahead again
  /// (`settleIfVirtual`).
  func presentFirstAhead(dueAt: Double? = nil) {
    guard let head = ahead.first else { return }
    if clockKind == .wall {
      present(head, jump: false, dueAt: dueAt)
      ahead.removeFirst()
    } else {
      ahead.removeFirst()
      present(head, jump: false, dueAt: dueAt)
    }
  }

  /// The play loop's turn at clock time `now`, either direction: presents every frame ahead whose time has come, in
  /// order (several when shown lazily on the wall clock). True if it presented any.
  func presentDueFrames(now: Double) -> Bool {
    var presented = false
    while let head = ahead.first, let headDue = shared.read({ $0.clock.dueTime(of: head.due) }), headDue <= now {
      presentFirstAhead(dueAt: headDue)
      presented = true
    }
    return presented
  }

  /// Presents the frames decoded ahead whose time has come: on the wall clock they are on screen before the engine
  /// thread gets to them (see `EngineSharedState.Published.visible`). Pauses, steps and seeks start from the frame on
  /// screen.
  func catchUp() {
    let timeline = shared.read { $0.clock.position(at: $0.now()) }
    while let head = ahead.first, head.isDue(at: timeline) {
      presentFirstAhead()
    }
  }

  /// Pausing on the wall clock when the frame due was not decoded in time leaves the one before it on screen: the
  /// stopped clock is put at the start of the frame on screen, so that a paused position always lies in the frame
  /// shown (as after a step), and what follows a pause (a skip, a step) starts from what the person saw.
  func standOnTheFrameOnScreen() {
    shared.update { state in
      guard let frame = state.current, frame.duration > 0 else { return }
      let now = state.now()
      let start = state.presentedOffset + frame.time
      let timeline = state.clock.position(at: now)
      guard timeline < start - TimeTolerance.frameTime || timeline >= start + frame.duration else { return }
      state.clock.jump(to: start, at: now)
    }
  }

  /// Reports the progress mark a frame at media time `time` reached, if it did.
  func reportProgress(at time: Double) {
    guard progressMarks.isReached(at: time) else { return }
    // A damaged file can hold frames past the duration its header declares: report within it, as status does.
    emit(.progress(duration > 0 ? min(time, duration) : time))
    progressMarks.moveNext(past: time)
  }

  /// Stops the clock at the end and says so, once. Playing stays the intent: a seek that was already
  /// on its way moves playback away from the end and it goes on.
  func reachEnd() {
    atEnd = true
    // Nothing more is decoded until a seek: the decoder gives back what playing at full speed kept. On the wall clock
    // that comes `decoderReleaseGrace` after the end is reported, if playback still stands there: freeing one decoder
    // and opening another takes both cores of a small machine for milliseconds, which the end (and a list's next
    // entry, whose first frame follows it) must not wait for; a list's file is shut down before then. On the other
    // clocks it comes before the end is reported, so that what `status` reads after `ended` never depends on the
    // engine thread's timing.
    let releasesLater = clockKind == .wall
    if !releasesLater { releaseDecoderMemory() }
    let position = lastFrameEnd - presentedOffset
    let end = duration > 0 ? min(max(position, 0), duration) : max(position, 0)
    let (loopsNow, dueAt) = shared.update { [lastFrameEnd, clockKind] state in
      let now = state.now()
      let dueAt = clockKind == .wall ? state.clock.dueTime(of: lastFrameEnd) : nil
      state.clock.pause(at: now)
      state.clock.jump(to: end + state.presentedOffset, at: now)
      state.loops += 1
      return (state.loops, dueAt)
    }
    publishCounters()
    emit(.ended(end, loops: loopsNow, dueAt: dueAt))
    if releasesLater { decoderReleaseDue = now() + Self.decoderReleaseGrace }
    _ = finishWaitIfDone(now: now())
  }

  /// Replaces the decoder with a fresh one (see `MediaSource.releaseDecoderMemory`); the frames of the one replaced
  /// leave the frame cache too.
  func releaseDecoderMemory() {
    source?.releaseDecoderMemory()
    syncFrameCache()
    publishCounters()
  }
}

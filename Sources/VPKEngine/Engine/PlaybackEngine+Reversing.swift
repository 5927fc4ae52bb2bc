// PlaybackEngine+Reversing: playing backward (a negative rate, on the wall and virtual clocks). Frames are shown in
// reverse presentation order, each as the clock comes down to it. Inter-frame codecs decode only forward, so the
// frames come from the frame cache: the chain of frames it holds before the earliest one queued (`cachedFrames`).
// When that chain runs low, a decode pass seeks to the keyframe before its earliest frame and decodes forward up to
// it, one frame per turn of the play loop, so the frames already queued keep being shown on time. The cache's focus
// is the frame on screen, so it keeps what is nearest before it: the rest of the chain, then the last frames of the
// pass, as many as the budget holds (a segment of the GOP when it cannot hold all of it). With the cache off, or a
// budget under a frame, a pass keeps its last few frames itself: still exact, at a pass per few frames.
//
// `ahead` then holds frames latest first, marked `backward` (due as the clock comes down to their end). Whatever
// wants frames ahead in forward order (a seek, a step, pausing, a positive rate) turns it back first (`alignAhead`).
// Reaching the start is an `ended` with the direction backward; looping goes on from the last frame, a pass earlier
// on the timeline. The state of playing backward is in ReversePlayback (`reverse`), a pass's in BackwardPass.

import VideoPlaybackKit

extension PlaybackEngine {
  /// Playing backward a frame is due this long before the clock comes down to its end, so that at a frame's start
  /// time exactly (where a wait lands) the frame on screen is the one that starts there, as playing forward.
  static let backwardLead = TimeTolerance.frameTime
  /// The frames a pass keeps itself, with the cache on (it holds them) and off.
  static let backwardPassKeptWithCache = 2
  /// A pass starts when the frames held before the one on screen drop below half of what the budget holds; on the wall
  /// clock, earlier when the pass ahead would take longer than those frames last (up to three quarters of the
  /// budget, so a pass still adds a quarter). Never for more than this many frames (a chain walk per turn stays
  /// short).
  static let backwardLowWaterCap = 300
  /// How much longer than the last passes' pace a pass may take before the frames held run out.
  static let backwardPassMargin = 1.5

  /// Whether playback runs backward now.
  var playsBackward: Bool { playing && !atEnd && shared.read { $0.clock.rate } < 0 }

  var backwardAheadLimit: Int { clockKind == .wall ? wallAheadLimit : Self.framesAhead }

  /// Whether playing backward has work to do before anything else: frames to queue or a pass under way.
  var canDecodeBackward: Bool {
    !reverse.reachedStart && (ahead.count < backwardAheadLimit || reverse.pass != nil)
  }

  /// Where the start is on the timeline of the pass on screen: the first frame's time (not below 0).
  var startPosition: Double { max(firstFrameTime, 0) }

  /// Turns `ahead` to the direction playback goes (`backward`, else the one it goes now): the frames there are
  /// dropped, and played forward again the decoder follows the frame on screen (see `followFromCache`).
  func alignAhead(backward wanted: Bool? = nil) {
    let wanted = wanted ?? playsBackward
    guard wanted != reverse.isBackward else { return }
    catchUp()
    ahead.removeAll()
    refilling = false
    if reverse.turn(backward: wanted) { source?.discardNonReferenceBefore = nil }  // a pass left half-way
    let offset = presentedOffset
    decodeOffset = offset
    previousPassOffset = offset
    if !wanted {
      decoderDetached = true
      sourceEnded = false
    }
    progressMarks.turn(backward: wanted, at: currentPosition())
  }

  /// One turn of the play loop playing backward: show the frames due, queue or decode more, reach the start, finish
  /// a wait, or sleep until something is due.
  func runBackwardOnce() {
    if reverse.takeStarting() { holdClockForFirstPass() }
    let now = self.now()
    var due: Double?
    if let head = ahead.first {
      if presentDueFrames(now: now) { return }
      due = shared.read { $0.clock.dueTime(of: head.due) } ?? .infinity
    } else if reverse.reachedStart {
      let start = startPosition
      let startDue = shared.read { $0.clock.dueTime(of: $0.presentedOffset + start) } ?? .infinity
      if startDue <= now {
        reachStart()
        return
      }
      due = startDue
    } else {
      decodeBackward()
      return
    }
    let paced = clockKind == .wall
    let wantsFrames =
      ahead.count < backwardAheadLimit && (!paced || refilling || ahead.count <= Self.refillBelow)
    if !reverse.reachedStart && (wantsFrames || reverse.pass != nil || backwardPassTarget() != nil) {
      refilling = wantsFrames
      decodeBackward()
      return
    }
    refilling = false
    if finishWaitIfDone(now: now) { return }
    if paced && !ahead.isEmpty { due = nextWake() ?? due }
    idle(until: due, now: now)
  }

  /// One unit of backward work: queue frames the cache holds, decode one frame of the pass under way, or start one.
  func decodeBackward() {
    defer { publishCounters() }
    guard let earliest = ahead.last?.frame ?? current else {
      reverse.markReachedStart()
      return
    }
    if ahead.count < backwardAheadLimit {
      if earliest.pts == firstFramePTS && reverse.pass == nil {
        if !loopFromEnd() { reverse.markReachedStart() }
        return
      }
      let chain = cachedFrames(before: earliest, count: backwardAheadLimit - ahead.count)
      if !chain.isEmpty {
        for _ in chain { frameCache.recordHit() }
        queueBackward(chain)
        return
      }
    }
    if reverse.pass != nil {
      advanceBackwardPass()
    } else if let target = backwardPassTarget() {
      startBackwardPass(for: target)
    } else if ahead.count < backwardAheadLimit {
      startBackwardPass(for: earliest)
    }
  }

  /// The frame a new pass should decode up to, if one should start: the earliest of the chain the cache holds before
  /// the frames queued, when that chain is short (see `backwardLowWaterCap`) and not at the start. A pass that could
  /// not lengthen the chain is not run again for the same frame until it is the earliest one queued.
  func backwardPassTarget() -> DecodedFrame? {
    guard reverse.pass == nil, !reverse.reachedStart, let earliest = ahead.last?.frame ?? current else {
      return nil
    }
    let capacity = frameCache.budget / max(earliest.byteCount, 1)
    let least = max(backwardAheadLimit + 1, capacity / 2)
    let most = clockKind == .wall ? max(least, capacity * 3 / 4) : least
    let chain =
      earliest.pts == firstFramePTS
      ? [] : cachedFrames(before: earliest, count: min(most, Self.backwardLowWaterCap))
    let target = chain.last ?? earliest
    // The pass's own length decides (the one for a keyframe's predecessors decodes the GOP before it), not the one
    // for the frames queued.
    var lowWater = least
    if clockKind == .wall, let needed = framesShownDuringPass(before: target) {
      lowWater = max(lowWater, min(needed, most))
    }
    lowWater = min(lowWater, Self.backwardLowWaterCap)
    guard target.pts != firstFramePTS, ahead.count + chain.count < lowWater else { return nil }
    if reverse.wasLastPassTarget(target.pts) && target !== earliest { return nil }
    return target
  }

  /// Wall clock, as playing backward starts (`play`, a turn of the rate, a seek landing): when the frames held before
  /// the one on screen would run out before the pass that lengthens them is done (or no pass has been timed yet), that
  /// pass runs at once with the clock held, as a seek holds it while it decodes. Else the first pass of a run from a
  /// frame the cache has nothing before (a scrub 200 frames into a GOP: about 150 frames to decode) would leave every
  /// frame due meanwhile late. A newer seek or a shutdown ends the hold; the pass then goes on between frames.
  func holdClockForFirstPass() {
    guard clockKind == .wall, ahead.isEmpty, reverse.pass == nil, let target = backwardPassTarget(),
      let onScreen = current
    else { return }
    let held = target === onScreen ? 0 : cachedFrames(before: onScreen, count: Self.backwardLowWaterCap).count
    if let needed = framesShownDuringPass(before: target), held >= needed { return }
    let (position, start) = shared.read { ($0.clock.position(at: $0.now()), $0.now()) }
    startBackwardPass(for: target)
    while reverse.pass != nil && mailbox.interruption() == .none {
      advanceBackwardPass()
    }
    shared.update { state in
      let now = state.now()
      state.clock.jump(to: position, at: now)
      state.firstPassHolds = (state.firstPassHolds.count + 1, state.firstPassHolds.seconds + now - start)
    }
    publishCounters()
  }

  /// Wall clock: about how many frames are shown while a pass for the frames before `frame` decodes, at the pace the
  /// last passes decoded (nil before one has): its frames from the keyframe, by the container's index.
  func framesShownDuringPass(before frame: DecodedFrame) -> Int? {
    guard let pace = reverse.passPace, pace > 0, frame.duration > 0, let source else { return nil }
    // The pass for a keyframe's predecessors starts at the keyframe before it. The index keeps decode times, which
    // come before the keyframe's own time with B-frames: the entry just before the frame can be its own.
    var keyframe = source.keyframeTime(atOrBefore: frame.time - frame.duration / 2) ?? 0
    if frame.isKeyframe { keyframe = source.keyframeTime(atOrBefore: keyframe - frame.duration / 2) ?? 0 }
    let passFrames = max(1, (frame.time - keyframe) / frame.duration)
    let rate = abs(shared.read { $0.clock.rate })
    return Int((passFrames / pace * rate / frame.duration * Self.backwardPassMargin).rounded(.up))
  }

  func startBackwardPass(for target: DecodedFrame) {
    frameCache.recordMiss()
    reverse.beginPass(for: target)
    advanceBackwardPass()
  }

  /// Decodes one more frame of the pass (the first one of an attempt seeks); at the target, ends it.
  func advanceBackwardPass() {
    guard var pass = reverse.pass else { return }
    var frame: DecodedFrame?
    if !pass.decoding {
      // The frames too far before the target for the cache to keep them are decoded only if something references
      // them: a pass from the keyframe then costs the reference frames up to the segment it keeps.
      let capacity = frameCache.budget / max(pass.target.byteCount, 1)
      let keeps = frameCache.isEnabled ? max(capacity, Self.backwardPassKeptWithCache) : Self.stepFramesKept
      let discardBefore = pass.target.time - Double(keeps + 2) * pass.target.duration
      frame = seekToKeyframe(before: pass.seekPoint, discardBefore: discardBefore > 0 ? discardBefore : nil)
      pass.decoding = true
      pass.startedAt = frame?.time ?? 0
      pass.foundBefore = 0
      pass.kept.removeAll()
    } else if case .frame(let next) = readFrame() {
      frame = next
    }
    let target = pass.target
    if frame != nil { pass.decoded += 1 }
    if let frame, frame.time < target.time - TimeTolerance.frameTime {
      pass.foundBefore += 1
      pass.kept.append(frame)
      let keep = frameCache.isEnabled ? Self.backwardPassKeptWithCache : Self.stepFramesKept
      if pass.kept.count > keep { pass.kept.removeFirst() }
      reverse.update(pass)
      return
    }
    // At the target (or the end of the stream).
    if pass.foundBefore == 0 && pass.seekPoint > 0 && pass.startedAt > 0 {
      // The keyframe found was the target itself: the next attempt starts further back.
      pass.seekPoint = max(0, pass.startedAt - pass.backoff)
      pass.backoff *= 2
      pass.decoding = false
      reverse.update(pass)
      return
    }
    reverse.finish(pass, at: hostSeconds())
    source?.discardNonReferenceBefore = nil
    let isEarliest = (ahead.last?.frame ?? current)?.pts == target.pts
    guard isEarliest else { return }
    if pass.foundBefore == 0 {
      reverse.markReachedStart()  // nothing comes before it
      return
    }
    syncFrameCache()
    if frameCache.frame(before: target) == nil {
      // The cache holds none of them (off, or a budget under a frame): the frames the pass kept.
      for _ in pass.kept { frameCache.recordMiss() }
      queueBackward(pass.kept.reversed())
    }
  }

  /// Puts frames at the end of `ahead`, latest first, to be shown backward.
  func queueBackward(_ frames: [DecodedFrame]) {
    let now = self.now()
    ahead += frames.map { ScheduledFrame(frame: $0, offset: decodeOffset, decodedAt: now, backward: true) }
  }

  /// Looping backward, after the first frame: decodes the last GOP to find the last frame (the cache keeps the frames
  /// before it) and queues it, a pass earlier on the timeline. False when not looping or there is none.
  func loopFromEnd() -> Bool {
    guard configuration.loops, source != nil else { return false }
    let end = duration > 0 ? duration : decodedPassEnd
    var last: DecodedFrame?
    withCacheFocus(at: end) {
      var frame = seekToKeyframe(before: end, discardBefore: nil)
      while let decoded = frame {
        last = decoded
        guard !isShuttingDown(), case .frame(let next) = readFrame() else { break }
        frame = next
      }
    }
    guard let last else { return false }
    frameCache.recordMiss()
    decodeOffset -= last.time + last.duration
    queueBackward([last])
    return true
  }

  /// Stops the clock at the start and says so (`ended`, backward), once.
  func reachStart() {
    atEnd = true
    let start = startPosition
    let loopsNow = shared.update { state in
      let now = state.now()
      state.clock.pause(at: now)
      state.clock.jump(to: start + state.presentedOffset, at: now)
      state.loops += 1
      return state.loops
    }
    publishCounters()
    emit(.ended(start, loops: loopsNow, direction: .backward))
    _ = finishWaitIfDone(now: now())
  }
}

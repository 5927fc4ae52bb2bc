// PlaybackEngine+Seeking: seeks, exact and to a keyframe. An exact seek shows the frame from the frame cache when it
// holds it; else it goes to the keyframe at or before the target and decodes forward, skipping frames nothing
// references; within the frames' own GOP it decodes on from where the decoder is instead. A keyframe seek shows the
// keyframe at or before the target; a next-keyframe seek the first one at or after it (by the container's index, as
// mpv's demuxer seeks forward), or the end when none follows. A newer seek or a shutdown, looked for in the mailbox
// between frames, ends a running seek.

import Foundation
import VideoPlaybackKit

extension PlaybackEngine {
  /// Carries out a seek taken from the mailbox and reports where it landed (or that a newer one superseded it).
  func seek(_ pending: PendingSeek) {
    guard let source else { return }
    // The direction playback goes (paused too): the end a seek can meet is the start playing backward.
    let backward = shared.read { $0.clock.rate } < 0
    catchUp()
    alignAhead(backward: false)  // a seek lands with frames ahead as playing forward has them (+Reversing)
    let request = pending.request
    var target = request.target.seconds
    // The precision the seek is carried out with: a next-keyframe seek that finds no keyframe after the target meets
    // the end of the media, as mpv's demuxer does: it goes to the end, as an exact seek there, and the end is reached
    // (looping, it goes on from the start instead, as mpv's loop does); without an index (MPEG-TS) it is a keyframe
    // seek.
    var mode = request.mode
    var meetsTheEnd = false
    let outcome: DecodeOnOutcome
    let landed = mode == .nextKeyframe ? withCacheFocus(at: target, { seekToNextKeyframe(after: target) }) : nil
    let foundNothing = landed.map { self.findsNothing($0, after: target) } ?? false
    if let landed, !(configuration.loops && foundNothing) {
      outcome = landed
      meetsTheEnd = foundNothing
      // The stream has nothing after the frame found: the end is where the media ends.
      if foundNothing { sourceEnded = true }
    } else {
      if mode == .nextKeyframe {
        let indexed = source.keyframeTime(atOrBefore: target) != nil
        if configuration.loops && (indexed || foundNothing) {
          target = 0
          mode = .keyframe
        } else {
          mode = indexed ? .exact : .keyframe
          if indexed && duration > 0 { target = duration }
          meetsTheEnd = indexed
        }
      }
      if mode == .exact, let cached = cachedFrame(forSeekTo: target) {
        resetForNewPosition()
        decoderDetached = true
        outcome = .reached(cached)
      } else {
        outcome = withCacheFocus(at: target) {
          mode == .exact && canDecodeOn(to: target)
            ? decodeOnFromHere(to: target, for: request) : seekBack(to: target, for: request, mode: mode)
        }
      }
    }
    guard case .reached(let shown) = outcome else { return }
    source.discardNonReferenceBefore = nil

    var position: Double
    switch mode {
    case .exact: position = target
    case .keyframe: position = max(0, min(shown?.time ?? target, target))
    case .nextKeyframe: position = max(target, shown?.time ?? target)
    }
    if backward && playing && position < startPosition {
      // Playing backward, the start is the first frame's time, as the end is the media's end playing forward: a seek
      // before it (to 0 when the first frame comes later, a keyframe seek clamped there) lands on it, where playing
      // backward ends at once.
      position = startPosition
    }
    if sourceEnded && ahead.isEmpty, let shown, mode == .exact {
      // Past the last frame there is: a truncated file whose index promised more. Land where the data ends.
      position = min(position, max(shown.time + shown.duration, 0))
    }
    land(on: shown, at: position)
    publishCounters()
    settleIfVirtual()
    if pending.reopens {
      shared.update { $0.loops = 0 }
      return tellReady(source.info, at: position)
    }
    let milliseconds = Double(hostNanoseconds() - pending.requestedAt) / nanosecondsPerMillisecond
    emit(
      .seeked(
        SeekResult(
          id: request.id, target: request.target, position: MediaTime(seconds: position), mode: request.mode,
          milliseconds: milliseconds)))
    // Playing backward, the end is the start: a seek forward past the last keyframe only lands.
    if meetsTheEnd && !backward { reachEnd() }
  }

  /// Whether a seek to the next keyframe found nothing after `target`: the stream ended first, or, for a target at the
  /// end of the media, the frame it found ends there or before (a stream whose every packet is a keyframe, as Ogg's or
  /// FLAC's, has its last one found). Before the end, a frame found ahead of the target is no end: Ogg's demuxer seeks
  /// forward to a page before the target.
  private func findsNothing(_ outcome: DecodeOnOutcome, after target: Double) -> Bool {
    switch outcome {
    case .reached(.none): true
    case .reached(let frame?):
      duration > 0 && target >= duration - TimeTolerance.frameTime
        && frame.time + frame.duration <= target + TimeTolerance.sameInstant
    case .interrupted: false
    }
  }

  /// An exact seek forward within the frames' own GOP: decoding on from where the decoder is passes fewer frames than
  /// a seek back to the keyframe would. Frames already decoded ahead up to the target are taken as they are.
  private func decodeOnFromHere(to target: Double, for request: SeekRequest) -> DecodeOnOutcome {
    shared.update { $0.lateness.removeAll() }
    decoderDetached = false  // the decoder follows the frames held (`canDecodeOn`)
    var shown: DecodedFrame?
    while let head = ahead.first, head.frame.time <= target + TimeTolerance.frameTime {
      shown = head.frame
      ahead.removeFirst()
    }
    if ahead.isEmpty && !sourceEnded {
      guard case .reached(let frame) = decodeOn(to: target, for: request) else { return .interrupted }
      shown = frame ?? shown
    }
    // Nothing new up to the target: it lies within the frame on screen, which stays.
    return .reached(shown ?? current)
  }

  /// A seek back to the keyframe at or before the target, from which an exact seek decodes on to it. An exact seek
  /// backward within the GOP on screen, with the frame cache on, decodes every frame on the way instead of skipping
  /// those nothing references: a slider dragged left asks for them next, and the cache then holds them. A jump to
  /// another GOP skips them as before.
  private func seekBack(to target: Double, for request: SeekRequest, mode: SeekMode) -> DecodeOnOutcome {
    let discarding = mode == .exact && !isBackwardInGOPOnScreen(target)
    resetForNewPosition()
    let first = seekToKeyframe(
      before: target, discardBefore: discarding ? target : nil, keyframeOnly: mode == .keyframe)
    if mode == .exact, let firstFrame = first, firstFrame.time <= target {
      let reached = decodeOn(to: target, for: request, discarding: discarding)
      guard case .reached(let frame) = reached else { return .interrupted }
      return .reached(frame ?? first)
    }
    return .reached(first)
  }

  /// A seek to the first keyframe at or after the target, whose frame is shown; nil when the demuxer finds none (past
  /// the last keyframe, or the container cannot seek so). Matroska reads its index at its first seek: the demuxer,
  /// not the index read before, says whether there is one.
  private func seekToNextKeyframe(after target: Double) -> DecodeOnOutcome? {
    guard let source else { return .interrupted }
    resetForNewPosition()
    source.wantedThreading = .throughput  // the keyframe alone (see seekToKeyframe)
    guard source.seek(to: target, forward: true) else { return nil }
    switch readFrame() {
    case .frame(let frame):
      sourceEnded = false
      return .reached(frame)
    case .endOfStream:
      sourceEnded = true
      return .reached(nil)
    }
  }

  /// Clears what was decoded ahead and the loop bookkeeping: playback continues from a new point.
  func resetForNewPosition() {
    ahead.removeAll()
    reverse.reset()
    decoderDetached = false
    sourceEnded = false
    atEnd = false
    decodeOffset = 0
    decodedPassEnd = 0
    previousPassOffset = 0
    shared.update {
      $0.presentedOffset = 0
      $0.lateness.removeAll()
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
      switch readFrame() {
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
  /// nothing references (unless not `discarding`). The first frame after it goes to the frames ahead. For a seek (`request`), a newer seek or
  /// a shutdown in the mailbox ends it between frames; a backward step's run to its frame (nil) is not interrupted.
  func decodeOn(to target: Double, for request: SeekRequest?, discarding: Bool = true) -> DecodeOnOutcome {
    guard let source else { return .interrupted }
    source.discardNonReferenceBefore = discarding ? target : nil
    defer { source.discardNonReferenceBefore = nil }
    var shown: DecodedFrame?
    while true {
      if let request {
        switch mailbox.interruption() {
        case .none: break
        case .newerSeek(let newer):
          emit(.superseded(request.id, by: newer))
          return .interrupted
        case .shutdown:
          return .interrupted
        }
      }
      switch readFrame() {
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
    let (onScreenFrame, offset) = shared.read { ($0.current, $0.presentedOffset) }
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
    shared.update { $0.clock.jump(to: position, at: $0.now()) }
    if sourceEnded && ahead.isEmpty { lastFrameEnd = max(lastFrameEnd, position) }
    // Playback that was running (or stopped at the end) runs on from the new position.
    if playing { shared.update { $0.clock.start(at: $0.now()) } }
    progressMarks.turn(backward: false, at: position)
  }

  /// Whether `target` is before the frame on screen, after the same keyframe (by the container's index), with the
  /// frame cache on.
  private func isBackwardInGOPOnScreen(_ target: Double) -> Bool {
    guard frameCache.isEnabled, let source, let onScreen = current, target < onScreen.time,
      let keyframe = source.keyframeTime(atOrBefore: target)
    else { return false }
    return source.keyframeTime(atOrBefore: onScreen.time) == keyframe
  }

  /// Whether a shutdown waits in the mailbox (it stays there for the play loop).
  func isShuttingDown() -> Bool {
    mailbox.interruption() == .shutdown
  }
}

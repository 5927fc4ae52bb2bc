// PlaybackEngine+Stepping: frame steps. A step pauses playback and moves frame by frame: forward through the
// frames decoded ahead, backward through the frames the frame cache holds before the one on screen, and from the
// first one it does not hold by seeking to a keyframe far enough back and decoding forward (the frames passed on
// the way go to the cache, so the next steps back find theirs there).

import VideoPlaybackKit

extension PlaybackEngine {
  /// Carries out a step of `request.count` frames (negative: backward) and reports how far it moved.
  func stepFrames(_ request: StepRequest) {
    playing = false
    shared.update { $0.clock.pause(at: $0.now()) }
    catchUp()
    alignAhead(backward: false)
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
        // The next frame may share its timestamp and take its place (see DecodedFrame.hidesPrevious): know it first.
        if ahead.count == 1 && !sourceEnded {
          decodeOne()
          if ahead.count == 1 && !sourceEnded { continue }
        }
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
      if let frame = current { progressMarks.turn(backward: false, at: max(frame.time, 0)) }
    }
    return moved
  }

  /// Shows the `count`th frame before the one on screen (or the first one). The frames the cache holds before it
  /// count first; from the earliest of them it seeks to a keyframe far enough back and decodes forward, keeping the
  /// last frames before it; a step longer than that lands on the frame it found from the cache, or with an exact
  /// seek. Nil on shutdown.
  func stepBackward(_ count: Int) -> Int? {
    guard let source, let currentFrame = current else { return 0 }
    let chain = cachedFrames(before: currentFrame, count: count)
    if frameCache.isEnabled {
      let reachedStart = (chain.last ?? currentFrame).pts == firstFramePTS
      if chain.count == count || reachedStart {
        frameCache.recordHit()
        let target = chain.last ?? currentFrame
        landFromCache(on: target, at: max(target.time, 0))
        return -chain.count
      }
      frameCache.recordMiss()
    }
    let from = chain.last ?? currentFrame
    let decoded = withCacheFocus(at: from.time) { framesBefore(from, count: count - chain.count, in: source) }
    guard let found = decoded else { return nil }
    guard let targetTime = found.times.first else {
      // `from` is the first frame: it is shown, and playback goes on after it.
      resetForNewPosition()
      let again = found.after.first ?? from
      ahead = found.after.dropFirst().map { scheduled($0, offset: 0) }
      land(on: again, at: max(again.time, 0))
      return -chain.count
    }
    let moved = chain.count + found.times.count
    resetForNewPosition()
    if let index = found.kept.firstIndex(where: { abs($0.time - targetTime) < TimeTolerance.sameInstant }) {
      let target = found.kept[index]
      ahead = (found.kept[(index + 1)...] + found.after).map { scheduled($0, offset: 0) }
      land(on: target, at: max(target.time, 0))
    } else if let cached = frameCache.frame(containing: targetTime, tolerance: TimeTolerance.frameTime) {
      decoderDetached = true
      land(on: cached, at: max(cached.time, 0))
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
        guard case .frame(let next) = readFrame() else {
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

// PlaybackEngine+Caching: the decoded-frame cache (see FrameCache) on the engine thread. Every frame the decoder gives
// on the way to a target (a seek's run from the keyframe, a backward step's pass, what a paused session decodes
// ahead, playing backward's passes) goes through `readFrame`, which keeps it; exact seeks, backward steps and playing
// backward look in the cache first. Playing forward keeps nothing: its memory and CPU stay what they are without a
// cache. One answered from
// the cache leaves the decoder where it was ("detached"): the frames after the one shown then come from the cache
// while it holds them, and when it does not, the decoder is moved back to follow on (`followFromCache`).

import VideoPlaybackKit

extension PlaybackEngine {
  /// The decoder's next frame. With `caching`, the frame goes to the cache on its way, which keeps what is near its
  /// focus. Playing keeps nothing (see `decodeOne`).
  func readFrame(caching: Bool = true) -> DecodeOutcome {
    guard let source else { return .endOfStream }
    let outcome = source.next()
    if caching, frameCache.isEnabled, case .frame(let frame) = outcome, !isInDiscardedStretch(frame, of: source) {
      let focus = frameCache.heading ?? current?.time ?? frame.time
      frameCache.insert(frame, generation: source.decoderGeneration, focus: focus)
    }
    return outcome
  }

  /// Whether `frame` comes from the stretch of an exact seek's run where the frames nothing references are skipped
  /// (the source's own rule, before the target): the frames there have gaps between them, so no step or seek could
  /// use them, and holding them would only keep the decoder from reusing their buffers (exact seeks then slow down).
  private func isInDiscardedStretch(_ frame: DecodedFrame, of source: MediaSource) -> Bool {
    guard let before = source.discardNonReferenceBefore else { return false }
    return frame.time + 2 * frame.duration <= before
  }

  /// Empties the cache if the decoder changed, or reported an error, since its frames were decoded.
  func syncFrameCache() {
    guard frameCache.isEnabled, let source else { return }
    frameCache.admit(generation: source.decoderGeneration)
  }

  /// Runs `body` with the cache's focus at `time`: where a seek or a backward step is heading.
  func withCacheFocus<T>(at time: Double, _ body: () -> T) -> T {
    let saved = frameCache.replaceHeading(with: time)
    defer { _ = frameCache.replaceHeading(with: saved) }
    return body()
  }

  /// The frame an exact seek to `target` shows, if the cache holds it (a hit; a miss counts otherwise). Nil without
  /// a count when the frames decoded ahead already reach past the target: the seek takes them as they are.
  func cachedFrame(forSeekTo target: Double) -> DecodedFrame? {
    guard frameCache.isEnabled else { return nil }
    if let newest = ahead.last?.frame, newest.time > target + TimeTolerance.frameTime, canDecodeOn(to: target) {
      return nil
    }
    syncFrameCache()
    guard let frame = frameCache.frame(containing: target, tolerance: TimeTolerance.frameTime) else {
      frameCache.recordMiss()
      return nil
    }
    frameCache.recordHit()
    return frame
  }

  /// Up to `count` frames before `frame` that the cache holds in a row, nearest first.
  func cachedFrames(before frame: DecodedFrame, count: Int) -> [DecodedFrame] {
    guard frameCache.isEnabled else { return [] }
    syncFrameCache()
    var chain: [DecodedFrame] = []
    var newest = frame
    while chain.count < count, newest.pts != firstFramePTS, let before = frameCache.frame(before: newest) {
      chain.append(before)
      newest = before
    }
    return chain
  }

  /// Shows a frame from the cache at `position`: what was decoded ahead goes, and the decoder stays where it is.
  func landFromCache(on frame: DecodedFrame, at position: Double) {
    resetForNewPosition()
    decoderDetached = true
    land(on: frame, at: position)
  }

  /// Whether the cache holds the frame after the newest frame held (ahead, or on screen).
  func hasCachedSuccessor() -> Bool {
    guard let held = ahead.last?.frame ?? current else { return false }
    syncFrameCache()
    return frameCache.frame(after: held) != nil
  }

  /// While detached, puts the next frame ahead: from the cache if it holds it, else by moving the decoder back to
  /// the keyframe before the newest frame held and decoding on to the frame after it (as an exact seek there would).
  /// False when the decoder follows on as it is: then it reads on as usual.
  func followFromCache() -> Bool {
    guard decoderDetached, let source else { return false }
    guard let held = ahead.last?.frame ?? current else {
      decoderDetached = false
      return false
    }
    syncFrameCache()
    if let next = frameCache.frame(after: held) {
      ahead.append(scheduled(next, offset: decodeOffset))
      decodedPassEnd = max(decodedPassEnd, next.time + next.duration)
      return true
    }
    decoderDetached = false
    if source.newestFramePTS == held.pts { return false }  // the decoder is there already
    withCacheFocus(at: held.time) {
      let first = seekToKeyframe(before: held.time, discardBefore: held.time)
      if let first, first.time > held.time + TimeTolerance.frameTime {
        ahead.append(scheduled(first, offset: decodeOffset))  // nothing before it to skip
      } else if first != nil {
        _ = decodeOn(to: held.time, for: nil)
      }
    }
    if let newest = ahead.last?.frame { decodedPassEnd = max(decodedPassEnd, newest.time + newest.duration) }
    return true
  }
}

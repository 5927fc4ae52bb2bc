// PlaybackEngine+Decoding: decoding ahead of the clock, on the decoder playing wants, and publishing the decoder's
// counters (with the decode-error events they call for).

import Foundation
import VideoPlaybackKit

extension PlaybackEngine {
  /// Whether there is room for another frame ahead and the stream has more. Landed from the frame cache and paused,
  /// only what the cache holds: moving the decoder back waits until playing or a step needs it.
  var canDecodeMore: Bool {
    guard !sourceEnded && ahead.count < (playing && clockKind == .wall ? wallAheadLimit : Self.framesAhead) else {
      return false
    }
    return !decoderDetached || playing || hasCachedSuccessor()
  }

  /// Decodes ahead to the limit: on the virtual clock, before anything is reported, so counters and
  /// errors are the same on every run.
  func settleIfVirtual() {
    guard clockKind == .virtual else { return }
    if reverse.isBackward {
      // The passes the chain calls for too: what the play loop would decode next is decoded before anything is said.
      while canDecodeBackward || backwardPassTarget() != nil { decodeBackward() }
    } else {
      while canDecodeMore { decodeOne() }
    }
  }

  /// The decoder playing wants: one thread on the wall clock (it only needs real time, and costs less CPU for the
  /// same frames); flat out on the free and virtual clocks, any threaded decoder (the one a seek left is as fast).
  /// Nil while paused: the decoder stays as it is, since what comes next is a seek (which changes it at once) or
  /// playing on.
  var playbackThreading: DecoderThreading? {
    guard playing && !atEnd, let source else { return nil }
    if clockKind == .wall && !realtimeLoad.isTooSlow { return .realtime }
    return source.threading.isThreaded ? source.threading : .throughput
  }

  /// Decodes the next frame onto the end of `ahead`; at the end of the stream, loops or marks the source ended.
  func decodeOne() {
    guard let source else { return }
    if followFromCache() {
      publishCounters()
      return
    }
    if let wanted = playbackThreading { source.wantedThreading = wanted }
    let measuring = playing && clockKind == .wall && source.threading == .realtime
    let cpuBefore = measuring ? RealTimeLoad.threadCPUSeconds() : 0
    // Playing keeps no frames in the cache: its memory, and the decoder's buffer reuse, stay as without one.
    switch readFrame(caching: !playing) {
    case .frame(let frame):
      if measuring {
        realtimeLoad.record(
          cpu: RealTimeLoad.threadCPUSeconds() - cpuBefore, media: frame.duration, rate: shared.read { $0.clock.rate })
      }
      if frame.hidesPrevious, let last = ahead.last, last.frame.pts == frame.pts, last.offset == decodeOffset {
        // Its twin with the same timestamp would be shown for no time at all: this frame takes its place.
        ahead.removeLast()
      }
      ahead.append(scheduled(frame, offset: decodeOffset))
      decodedPassEnd = max(decodedPassEnd, frame.time + frame.duration)
    case .endOfStream:
      if !startNextPass() { sourceEnded = true }
    }
    publishCounters()
  }

  /// Looping, at the end of the stream: the next pass follows this one on the timeline, with no gap. False when not
  /// looping (or the source cannot go back to its start).
  func startNextPass() -> Bool {
    guard configuration.loops, decodedPassEnd > 0, let source, source.seek(to: 0) else { return false }
    decodeOffset += decodedPassEnd
    decodedPassEnd = 0
    sourceEnded = false
    return true
  }

  /// A frame just decoded, placed `offset` along the timeline.
  func scheduled(_ frame: DecodedFrame, offset: Double) -> ScheduledFrame {
    ScheduledFrame(frame: frame, offset: offset, decodedAt: now())
  }

  /// Publishes the decoder's counters to other threads, and reports new decode errors (at most one event per
  /// `errorReportInterval`) and a read error (once).
  func publishCounters() {
    guard let source else { return }
    let (framesDecoded, decodeErrors, decoderThreads) =
      (source.framesDecoded, source.decodeErrors, source.decoderThreadCount)
    let cacheReading = FrameCacheReading(
      frames: frameCache.count, bytes: frameCache.bytes, hits: frameCache.hits, misses: frameCache.misses)
    let now = shared.update {
      $0.framesDecoded = framesDecoded
      $0.decodeErrors = decodeErrors
      $0.decoderThreads = decoderThreads
      $0.frameCacheReading = cacheReading
      return $0.now()
    }
    if errorReports.shouldReport(decodeErrors: source.decodeErrors, at: now) {
      emit(
        .error(
          PlaybackError(
            .decodeError,
            "\(source.decodeErrors) packet(s) could not be decoded so far; playback goes on, but the file is damaged")))
    }
    if let readError = source.readError, errorReports.shouldReportReadError() {
      emit(.error(readError))
    }
  }
}

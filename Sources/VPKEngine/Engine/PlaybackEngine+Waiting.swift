// PlaybackEngine+Waiting: carrying out `wait` on the engine's clock. WaitTracker decides when a wait is done; this
// gives it the engine's state and says the outcome.

import VideoPlaybackKit

extension PlaybackEngine {
  func beginWait(_ request: PlaybackWait) {
    if let running = waits.active {
      // One wait at a time: the interactor never sends two; answer the older one anyway.
      emit(
        .waited(WaitResult(id: running.request.id, outcome: .timedOut, position: MediaTime(seconds: currentPosition())))
      )
    }
    let now = self.now()
    waits.begin(request, now: now, loops: shared.read { $0.loops }, clock: clockKind, position: currentPosition())
  }

  /// Media position of the clock now.
  func currentPosition() -> Double {
    shared.read { max($0.lowestPosition, $0.clock.position(at: $0.now()) - $0.presentedOffset) }
  }

  /// Ends the running wait if its condition holds, it timed out, or it can no longer hold.
  @discardableResult
  func finishWaitIfDone(now: Double) -> Bool {
    guard waits.isRunning else { return false }
    let position = currentPosition()
    let playback = WaitTracker.Playback(
      position: position, playing: playing, atEnd: atEnd, loopsAtEnd: configuration.loops)
    guard let (request, outcome) = waits.finish(now: now, playback: playback, loops: shared.read { $0.loops }) else {
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

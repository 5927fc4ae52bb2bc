// SessionProblem: what the session's own rules refuse or find, as values. The interactor reports
// these; Formatting/ProblemText.swift words them for people, so every message is written in one place.

package enum SessionProblem: Sendable, Equatable {
  /// A playback command arrived with no media loaded (`idle`), or with media that did not open.
  case noMedia(verb: String, idle: Bool)
  /// `scrub N%` on media that does not say how long it is.
  case percentOfUnknownDuration
  /// `step` on media without video.
  case noVideoToStep
  /// `frame` on media without video.
  case noVideoForFrame
  /// `snapshot` on media without video.
  case noVideoForSnapshot
  /// `frame` or `snapshot` before any frame was decoded.
  case noFrameYet
  /// `rate` on the free clock.
  case rateOnFreeClock
  /// A negative `rate` on media without video.
  case noVideoToReverse
  /// A seek target that is not a finite time.
  case targetNotFinite
  /// The session has no way to make a playback manager.
  case cannotOpenMedia
  /// A wait whose condition cannot hold, and why.
  case waitNeverSatisfied(WaitCondition, because: WaitObstacle)
  /// A wait that ran out of time at this position.
  case waitTimedOut(WaitCondition, at: MediaTime)
  /// An `expect` that did not hold.
  case expectFailed(ExpectField, ExpectOperator)

  /// The stable code scripts match on.
  package var code: PlaybackError.Code {
    switch self {
    case .noMedia: .notReady
    case .percentOfUnknownDuration, .noVideoToStep, .noVideoForFrame, .noVideoForSnapshot, .noFrameYet,
      .rateOnFreeClock, .noVideoToReverse,
      .cannotOpenMedia:
      .unavailable
    case .targetNotFinite: .badArgument
    case .waitNeverSatisfied: .waitImpossible
    case .waitTimedOut: .waitTimeout
    case .expectFailed: .expectFailed
    }
  }
}

/// Why a wait can never be satisfied.
package enum WaitObstacle: Sendable, Equatable {
  /// Nothing is loaded.
  case noMedia
  /// Playback is paused (`wait ended`).
  case paused
  /// Playback is paused at this position, before the position waited for.
  case pausedAt(MediaTime)
  /// Playback loops, so it never stops by itself (`wait paused`).
  case loops
  /// A percentage of media that does not say how long it is.
  case unknownDuration
  /// The engine found playback not moving while the wait held the commands after it.
  case notMoving
  /// The media ended first, at this position.
  case endedFirst(at: MediaTime)
  /// A whole pass of looping media went by without it.
  case wholeLoopWithout
  /// The position waited for is past the end of the media, which ends here.
  case pastTheEnd(MediaTime)
  /// The queue's entry waited for is behind the one playing, and the list does not loop.
  case entryBehind
  /// The list ended (or none of its entries after the one playing opened) before the entry waited for.
  case listEndedFirst
}

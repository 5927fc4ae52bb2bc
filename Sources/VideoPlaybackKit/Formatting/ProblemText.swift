// ProblemText: the words for every error a person reads. Errors the engine and the command parser
// raise carry their own particulars; the session's own rules (SessionProblem) are worded here.

extension PlaybackError {
  /// The message a person reads: one line that says what went wrong and what to do.
  public var message: String {
    switch detail {
    case .message(let message): message
    case .problem(let problem): ProblemText.message(for: problem)
    }
  }
}

package enum ProblemText {
  package static func message(for problem: SessionProblem) -> String {
    switch problem {
    case .noMedia(let verb, idle: true):
      "no media is loaded; \(verb) needs a file: open one with open <path>"
    case .noMedia(let verb, idle: false):
      "no media is loaded; \(verb) needs a file that opened"
    case .percentOfUnknownDuration:
      "this media does not say how long it is; scrub to a time in seconds instead of %"
    case .noVideoToStep:
      "this media has no video stream; step moves between video frames"
    case .noVideoToReverse:
      "this media has no video stream; a negative rate plays video frames backward; use a rate above 0"
    case .noVideoForFrame:
      "this media has no video stream; frame reports video frames only"
    case .noVideoForSnapshot:
      "this media has no video stream; snapshot writes video frames only"
    case .noFrameYet:
      "no frame has been decoded yet; play or scrub first"
    case .rateOnFreeClock:
      "the free clock runs as fast as decoding allows; rate applies to the wall and virtual clocks"
    case .targetNotFinite:
      "that target is not a finite time"
    case .cannotOpenMedia:
      "vpk cannot open media in this session"
    case .waitNeverSatisfied(let condition, let obstacle):
      "wait \(condition.description) can never be satisfied: \(reason(obstacle))"
    case .waitTimedOut(let condition, let position):
      "wait \(condition.description) timed out at position \(NumberText.seconds(position.seconds))"
    case .expectFailed(let field, let op):
      "expect \(field.rawValue) \(op.rawValue) failed"
    }
  }

  private static func reason(_ obstacle: WaitObstacle) -> String {
    switch obstacle {
    case .noMedia: "no media is loaded; open a file first"
    case .paused: "playback is paused; play first"
    case .pausedAt(let position): "playback is paused at \(NumberText.seconds(position.seconds)) s; play first"
    case .loops: "playback loops (--at-end loop), so it never stops by itself"
    case .unknownDuration: "this media does not say how long it is; wait for a position in seconds"
    case .notMoving: "playback is not moving"
    case .endedFirst(let position): "the media ended first, at \(NumberText.seconds(position.seconds))"
    case .wholeLoopWithout: "a whole pass of the looping media went by without it"
    case .pastTheEnd(let end): "the media ends at \(NumberText.seconds(end.seconds)) s"
    case .entryBehind: "that entry is behind the one playing and the queue does not loop; goto it instead"
    case .listEndedFirst: "the queue ended first"
    }
  }
}

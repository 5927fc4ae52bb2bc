// ScheduledFrame: a decoded frame placed on the engine's timeline, which keeps growing across loop passes.

struct ScheduledFrame {
  var frame: DecodedFrame
  /// The length of the loop passes before it: timeline time minus media time.
  var offset: Double
  /// Clock time when it was decoded: a frame is shown late only if it was decoded after its due time.
  var decodedAt: Double
  /// Playing backward: it is due as the clock comes down to its end (see `PlaybackEngine.backwardLead`).
  var backward = false
  /// Timeline time when it is due: its start playing forward; playing backward, just before its end.
  var due: Double {
    backward ? frame.time + frame.duration + offset - PlaybackEngine.backwardLead : frame.time + offset
  }

  /// Whether it is due at timeline time `timeline`, in the direction it is played.
  func isDue(at timeline: Double) -> Bool {
    backward ? due >= timeline - TimeTolerance.sameInstant : due <= timeline + TimeTolerance.sameInstant
  }
}

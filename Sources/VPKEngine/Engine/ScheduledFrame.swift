// ScheduledFrame: a decoded frame placed on the engine's timeline, which keeps growing across loop passes.

struct ScheduledFrame {
  var frame: DecodedFrame
  /// The length of the loop passes before it: timeline time minus media time.
  var offset: Double
  /// Clock time when it was decoded: a frame is shown late only if it was decoded after its due time.
  var decodedAt: Double
  /// Timeline time when it is due.
  var due: Double { frame.time + offset }
}

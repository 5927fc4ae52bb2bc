// BackwardPass: a decode pass for the frames before `target`, playing backward (see +Reversing): it seeks to a
// keyframe before the target and decodes forward up to it, one frame per turn of the play loop. Owned by
// ReversePlayback, on the engine thread.

struct BackwardPass {
  /// The earliest frame of the chain: the pass decodes up to it.
  let target: DecodedFrame
  /// Where this attempt seeks, and how much further back the next one goes if this one finds nothing before the
  /// target (the keyframe was the target itself).
  var seekPoint: Double
  var backoff: Double
  /// The attempt has sought and is decoding forward.
  var decoding = false
  var startedAt = 0.0
  var foundBefore = 0
  /// The last frames before the target, for when the cache holds none of them.
  var kept: [DecodedFrame] = []
  /// Host time when the pass started, and the frames it decoded: how fast passes decode, on the wall clock.
  let startedAtHost = hostSeconds()
  var decoded = 0
}

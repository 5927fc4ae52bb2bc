// EngineEvent: everything the engine thread says, in the order it says it.

import VideoPlaybackKit

/// What the engine thread reports; the manager tells each as a `PlaybackManagerEvent` on the main actor.
enum EngineEvent: Sendable {
  case ready(MediaInfo)
  case failedToOpen(PlaybackError)
  case progress(Double)
  case seeked(SeekResult)
  case superseded(Int, by: Int)
  case stepped(StepResult)
  case waited(WaitResult)
  /// Backward: the start was reached, playing at a negative rate. `dueAt`: the end of the media on the wall clock, when
  /// its last frame's duration was over (monotonic host seconds); nil for the other ends and clocks.
  case ended(Double, loops: Int, direction: PlaybackDirection = .forward, dueAt: Double? = nil)
  case error(PlaybackError)
}

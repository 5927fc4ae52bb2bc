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
  /// Backward: the start was reached, playing at a negative rate.
  case ended(Double, loops: Int, direction: PlaybackDirection = .forward)
  case error(PlaybackError)
}

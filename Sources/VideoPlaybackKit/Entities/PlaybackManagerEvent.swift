// PlaybackManagerEvent: what a playback manager (the engine) tells the session, one value at a time on the main actor,
// in the order it happened. The interactor switches on them; nothing else crosses the engine's edge that way.

/// One thing a `PlaybackManager` tells of the file it plays.
public enum PlaybackManagerEvent: Sendable, Equatable {
  /// The file opened: what it holds. A `prepare` ends in this or in `failedToOpen`.
  case ready(MediaInfo)
  /// The file could not be opened.
  case failedToOpen(PlaybackError)
  /// Playback crossed a progress mark (a multiple of the configured interval).
  case progress(MediaTime)
  /// A seek landed. Every seek ends in this or in `seekSuperseded`, with its request's id.
  case seekFinished(SeekResult)
  /// Seek `id` gave way to the newer seek `by` before it landed.
  case seekSuperseded(id: Int, by: Int)
  /// A step ended, where it got to.
  case stepFinished(StepResult)
  /// A wait ended: its condition held, it timed out, or it cannot hold.
  case waitFinished(WaitResult)
  /// Playback reached an end of the media (playing backward, the start): it stopped there, or (looping) went on.
  /// `loops` counts the ends reached in this file, this one included.
  case ended(position: MediaTime, loops: Int, direction: PlaybackDirection)
  /// Something went wrong that playback survives (corrupt packets, a read error at the end).
  case problem(PlaybackError)
}

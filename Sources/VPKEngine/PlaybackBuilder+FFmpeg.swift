// PlaybackBuilder+FFmpeg: a player that plays with FFmpeg, for programs that embed playback.

import VideoPlaybackKit

extension PlaybackBuilder {
  /// Makes a player whose every `open` gets a fresh `FFmpegPlaybackManager`; call it with `await` from any isolation.
  /// - Parameters:
  ///   - options: the session's clock, end action, seek mode and the rest (see `PlaybackBuilder.playerOptions`).
  ///   - baseDirectory: the folder relative paths resolve against (nil: the working directory).
  ///   - access: what a file may make the engine open besides itself (by default: nothing).
  public static func makePlayer(
    options: PlaybackOptions = playerOptions, baseDirectory: String? = nil, access: MediaAccess = MediaAccess()
  ) async -> Player {
    await makePlayer(options: options, baseDirectory: baseDirectory) { FFmpegPlaybackManager(access: access) }
  }
}

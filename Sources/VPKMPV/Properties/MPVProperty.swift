// MPVProperty: the names of the mpv properties vpk serves. What each one is and does is its entry in
// MPVPropertyTable.

import VideoPlaybackKit

/// A property of mpv's that vpk serves, in the order `property-list` gives them.
package enum MPVProperty: String, Sendable, Equatable, CaseIterable {
  case pause
  case timePos = "time-pos"
  case playbackTime = "playback-time"
  case percentPos = "percent-pos"
  case duration
  case speed
  /// forward or backward: vpk's rate carries the direction (a negative rate plays backward), `speed` its size.
  case playDir = "play-dir"
  case path
  case filename
  case fileFormat = "file-format"
  case eofReached = "eof-reached"
  case idleActive = "idle-active"
  case seeking
  case width
  case height
  case containerFPS = "container-fps"
  case videoCodec = "video-codec"
  case estimatedFrameNumber = "estimated-frame-number"
  case estimatedFrameCount = "estimated-frame-count"
  case propertyList = "property-list"
  case commandList = "command-list"
  case volume
  case mute
  case loopFile = "loop-file"
  /// mpv's other name for `loop-file`: the same stored value.
  case loop
  case loopPlaylist = "loop-playlist"
  case fullscreen
  case subVisibility = "sub-visibility"
  case playlistCount = "playlist-count"
  case playlistPos = "playlist-pos"
  case playlistPos1 = "playlist-pos-1"
  case playlistCurrentPos = "playlist-current-pos"
  case playlistPlayingPos = "playlist-playing-pos"
  case playlist
  case workingDirectory = "working-directory"
  case mediaTitle = "media-title"
  case metadata
  case chapter
  case chapters
  case chapterList = "chapter-list"
  case trackList = "track-list"
  case videoParams = "video-params"
  case audioParams = "audio-params"
  case timeRemaining = "time-remaining"
  case playtimeRemaining = "playtime-remaining"
  /// A sub-property of `filename`'s: mpv's `property-list` does not name it.
  case filenameNoExt = "filename/no-ext"
  case fileSize = "file-size"
  case coreIdle = "core-idle"
  case seekable
  case partiallySeekable = "partially-seekable"

  /// The names `property-list` gives, as mpv's does (without sub-properties).
  static var listed: [MPVProperty] { allCases.filter { $0 != .filenameNoExt } }

  /// Its entry in the table of properties.
  var spec: MPVPropertySpec { MPVPropertyTable.spec(self) }

  /// The value as `get_property_string` gives it: flags as yes/no, numbers with six decimals, as mpv writes them.
  package static func stringForm(_ value: MPVValue) -> String {
    switch value {
    case .null: ""
    case .bool(let flag): flag ? "yes" : "no"
    case .integer(let integer): String(integer)
    case .number(let number): NumberText.fixed(number, decimals: 6)
    case .string(let string): string
    case .array(let values):
      // A list of names is written as mpv writes `property-list`; a list of objects (`command-list`) by its names.
      !values.isEmpty && values.allSatisfy { $0.string != nil || $0["name"]?.string != nil }
        ? values.map { $0.string ?? $0["name"]?.string ?? "" }.joined(separator: ",") : value.json
    case .object: value.json
    }
  }
}

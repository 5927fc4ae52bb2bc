// MPVStoredOptions: the mpv properties vpk keeps without acting on them: `volume` and `mute` (vpk plays no sound),
// `loop-file` (and its other name `loop`), `loop-playlist` (vpk plays one file), `fullscreen` (vpk has no window) and `sub-visibility` (vpk shows no subtitles). Every mpv client of a
// session shares one set (MPVSharedOptions), so a value one client sets is what the others read and observe.

/// The stored values, with mpv 0.35's defaults.
package struct MPVStoredOptions: Sendable, Equatable {
  /// mpv's `--volume` (a percentage; `add` keeps it within 0 and `volumeMax`).
  var volume = 100.0
  var mute = false
  /// `false` (mpv's `no`), `"inf"`, or a count of repeats.
  var loopFile = MPVValue.bool(false)
  /// `false` (mpv's `no`), `"inf"`, `"force"`, or a count of passes.
  var loopPlaylist = MPVValue.bool(false)
  var fullscreen = false
  var subVisibility = true

  /// mpv's `--volume-max` default: the top of `add volume`.
  static let volumeMax = 130.0
  /// What mpv's `--volume` option takes from `set_property`.
  static let volumeRange = -1.0...1000.0

  /// `property`'s stored value; nil when it is not a stored one.
  func value(of property: MPVProperty) -> MPVValue? {
    switch property {
    case .volume: .number(volume)
    case .mute: .bool(mute)
    case .loopFile, .loop: loopFile
    case .loopPlaylist: loopPlaylist
    case .fullscreen: .bool(fullscreen)
    case .subVisibility: .bool(subVisibility)
    default: nil
    }
  }

  /// Stores `value` (as the property's entry accepted it) as `property`'s.
  mutating func store(_ value: MPVValue, as property: MPVProperty) {
    switch property {
    case .volume: volume = value.number ?? volume
    case .mute: mute = value == .bool(true)
    case .loopFile, .loop: loopFile = value
    case .loopPlaylist: loopPlaylist = value
    case .fullscreen: fullscreen = value == .bool(true)
    case .subVisibility: subVisibility = value == .bool(true)
    default: break
    }
  }
}

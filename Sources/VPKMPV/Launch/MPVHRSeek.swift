// MPVHRSeek: mpv's `--hr-seek` option, the precision of the mpv dialect's seeks that do not name one.

import VideoPlaybackKit

/// `--hr-seek=no|absolute|yes|always|default`: which seeks of the mpv dialect that name no precision (`seek 10`,
/// not `seek 10 exact`) are exact.
package enum MPVHRSeek: String, Sendable, CaseIterable {
  /// Every seek to a keyframe.
  case no
  /// Exact for absolute seeks, keyframes for relative ones (mpv's default for video).
  case absolute
  /// Every seek exact.
  case yes
  /// As `yes`.
  case always
  /// As `absolute` (mpv's default; it differs from `absolute` only for audio-only files).
  case `default`

  /// The precision every seek that names none takes; nil: the dialect's own default (absolute exact, relative to
  /// keyframes).
  package var forcedMode: SeekMode? {
    switch self {
    case .no: .keyframe
    case .yes, .always: .exact
    case .absolute, .default: nil
    }
  }
}

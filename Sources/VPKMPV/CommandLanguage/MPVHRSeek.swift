// MPVHRSeek: mpv's `--hr-seek` option, and the precision vpk seeks with for an mpv `seek`, as mpv 0.35 chooses it
// (player/playloop.c, mp_seek): a seek is exact ("hr-seek") when its flags say `exact`, or they say nothing and the
// option makes it so (`yes`, `always`: every seek; `absolute` and `default`: seeks to an absolute time, not to a percentage);
// `keyframes` never is. A seek that is not exact goes to a keyframe: for a relative seek forward the first one at or
// after the target (mpv's demuxer seeks forward then), else the one at or before it.

import VideoPlaybackKit

/// mpv's `--hr-seek`: which seeks are exact when the command names no precision.
package enum MPVHRSeek: String, Sendable, Equatable, CaseIterable {
  case no, absolute, yes
  /// As `yes`.
  case always
  case `default`

  /// The precision of an mpv seek by `amount` from `reference`, with the flag it gave (`exact`, `keyframes`; nil:
  /// none, or `default-precise`).
  package func mode(for reference: MPVSeekReference, amount: Double, flag: SeekMode?) -> SeekMode {
    let exact: Bool =
      switch flag {
      case .exact: true
      case .keyframe, .nextKeyframe: false
      case nil: self == .yes || self == .always || (self != .no && reference == .absolute)
      }
    if exact { return .exact }
    return reference == .relative && amount > 0 ? .nextKeyframe : .keyframe
  }
}

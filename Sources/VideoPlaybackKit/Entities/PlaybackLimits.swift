// PlaybackLimits: the bounds of playback that every command language checks the same way (vpk's own parser, and the
// mpv dialect's translator and property table).

package enum PlaybackLimits {
  /// The slowest and fastest playback rates; a backward rate's size is within them too. mpv's range for its speed.
  package static let rate = 0.01...100.0

  /// A bound written as the messages and docs write it: `0.01`, `100`.
  package static func text(_ bound: Double) -> String {
    NumberText.trimmed(bound, decimals: 6)
  }
}

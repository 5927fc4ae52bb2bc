// MPVView: the view contract of a control-socket client that speaks mpv's JSON IPC.

import VideoPlaybackKit

/// The view of a control-socket client that speaks mpv's JSON IPC: shows each reply or event the mpv presenter
/// formatted, one JSON object per line.
@MainActor
package protocol MPVView: AnyObject {
  func display(_ message: MPVValue)
  /// Nothing more will be shown.
  func displayFinish()
}

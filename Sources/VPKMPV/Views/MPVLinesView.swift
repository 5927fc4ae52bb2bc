// MPVLinesView: the view of a control-socket client speaking mpv's JSON IPC: one JSON object per line, as the mpv
// presenter formatted it; events written as events, where the output tells them apart (see EventTextOutput).

import VideoPlaybackKit

@MainActor
package final class MPVLinesView: MPVView {
  private let output: any TextOutput
  private let onClosed: @MainActor () -> Void
  private var closed = false

  /// - Parameter onClosed: called once, when a write first fails (the client went away).
  package init(output: any TextOutput, onClosed: @escaping @MainActor () -> Void) {
    self.output = output
    self.onClosed = onClosed
  }

  package func display(_ message: MPVValue) {
    guard !closed else { return }
    let line = message.json + "\n"
    let written =
      if Self.isEvent(message), let eventOutput = output as? any EventTextOutput {
        eventOutput.writeEvent(line)
      } else {
        output.write(line)
      }
    if !written {
      closed = true
      onClosed()
    }
  }

  package func displayFinish() {}

  /// An mpv event (`{"event": …}`), as against a reply.
  private static func isEvent(_ message: MPVValue) -> Bool {
    guard case .object(let members) = message else { return false }
    return members.first?.key == "event"
  }
}

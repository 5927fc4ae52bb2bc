// MPVLinesView: the view of a control-socket client speaking mpv's JSON IPC: one JSON object per line, as the mpv
// presenter formatted it.

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
    if !output.write(message.json + "\n") {
      closed = true
      onClosed()
    }
  }

  package func displayFinish() {}
}

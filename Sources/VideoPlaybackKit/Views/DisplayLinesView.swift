// DisplayLinesView: the view of a control-socket client that shows the session in another process (`vpk attach` on
// a terminal): it writes each thing it is asked to show as a display line (see DisplayLine), and adds nothing.

/// Writes what it is asked to show as display lines (see `DisplayLine`), for a view in another process.
@MainActor
package final class DisplayLinesView: PlaybackView {
  private let output: any TextOutput
  private let onClosed: @MainActor () -> Void
  private var closed = false

  /// - Parameter onClosed: called once, when a write first fails (the reader went away).
  package init(output: any TextOutput, onClosed: @escaping @MainActor () -> Void) {
    self.output = output
    self.onClosed = onClosed
  }

  package func displayEvent(_ event: EventViewModel) { emit(.event(event)) }
  package func displayStatusLine(_ status: StatusLineViewModel) { emit(.statusLine(status)) }
  package func displayFinish() { emit(.finish) }

  private func emit(_ line: DisplayLine) {
    guard !closed else { return }
    if !output.write(line.encoded + "\n") {
      closed = true
      onClosed()
    }
  }
}

// TextStatusView: shows the presenter's text. On a terminal, one status line redrawn in place
// with events printed above it; elsewhere, one line per event and no status line.
//
// It shows what the presenter formatted and adds only terminal mechanics: carriage returns,
// line clearing, fitting the last line to the window's width (see `StatusLineLayout`), and colour
// (red errors, bold notices) when colour is allowed.

@MainActor
package final class TextStatusView: PlaybackView {
  private let output: any TextOutput
  private let isTerminal: Bool
  private let useColor: Bool
  private let onClosed: @MainActor () -> Void
  /// Reads the window's width (nil: unknown); called at creation and on `displayResize()`.
  private let readColumns: @MainActor () -> Int?
  private var columns: Int?
  /// The status line on screen (terminal only) in its forms, redrawn under every event.
  private var statusForms: [String]?
  /// The command being typed, when vpk edits the terminal's input line (shown after the status line).
  private var typed: (before: String, after: String)?
  /// The column the cursor was left at by the last draw of the last line.
  private var cursorColumn = 0
  private var closed = false
  /// Set by `displayFinish`: the session's last event has been shown.
  private var finished = false

  /// - Parameters:
  ///   - isTerminal: redraw a status line in place and print events above it; when false, write
  ///     one line per event and ignore status lines.
  ///   - useColor: colour errors and notices (only used on a terminal).
  ///   - columns: the terminal's width now (nil: unknown, nothing is cut); read again on `displayResize()`.
  ///   - onClosed: called once, when a write first fails (the reader went away).
  package init(
    output: any TextOutput, isTerminal: Bool, useColor: Bool, columns: @escaping @MainActor () -> Int? = { nil },
    onClosed: @escaping @MainActor () -> Void
  ) {
    self.output = output
    self.isTerminal = isTerminal
    self.useColor = isTerminal && useColor
    self.onClosed = onClosed
    self.readColumns = columns
    self.columns = isTerminal ? columns() : nil
  }

  /// Whether output to a descriptor that is (or is not) a terminal gets in-place redraw and colour.
  nonisolated package static func terminalTraits(isTTY: Bool, environment: [String: String]) -> (
    isTerminal: Bool, useColor: Bool
  ) {
    let isTerminal = isTTY && environment["TERM"] != "dumb"
    let useColor = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    return (isTerminal, useColor)
  }

  // MARK: - PlaybackView

  package func displayEvent(_ event: EventViewModel) {
    guard isTerminal else {
      emit(event.text + "\n")
      return
    }
    // The status line redrawn in place shows progress; printing it too would only scroll.
    guard !event.isTransient else { return }
    emit(Self.clearLine + painted(event) + "\n" + bottomLine())
  }

  package func displayStatusLine(_ status: StatusLineViewModel) {
    guard isTerminal, status.forms != statusForms else { return }
    statusForms = status.forms
    emit(Self.clearLine + bottomLine())
  }

  /// Shows what is being typed after the status line, and each submitted command above it, so the
  /// screen keeps a record of what was asked. Only on a terminal.
  package func displayTypedInput(_ input: TypedInput) {
    // After the last event, keystrokes still on their way from the reader's thread draw nothing: the
    // prompt would come back after the shutdown line.
    guard isTerminal, !finished else { return }
    switch input {
    case .editing(let before, let after):
      typed = (before, after)
      emit(Self.clearLine + bottomLine())
    case .submitted(let text):
      typed = ("", "")
      emit(Self.clearLine + Self.prompt + text + "\n" + bottomLine())
    case .closed:
      // Nothing more is read: no prompt that would take keys in vain.
      typed = nil
      emit(Self.clearLine + bottomLine())
    }
  }

  /// The window changed size: reads its width again and redraws the last line to fit. A terminal
  /// that rewraps its lines (tmux, VTE, kitty …) may have split the old line at the new width and
  /// put the cursor on a lower row of it; the redraw goes up to the row the old line began on and
  /// clears from there, so no piece of it is left behind.
  package func displayResize() {
    guard isTerminal else { return }
    columns = readColumns()
    var text = "\r"
    if let columns, columns > 0, cursorColumn >= columns {
      text += "\u{1B}[\(cursorColumn / columns)A"
    }
    emit(text + "\u{1B}[J" + bottomLine())
  }

  /// The process is about to stop (^Z): clears the last line and resets colours, so the shell's
  /// prompt starts on a clean line.
  package func displaySuspend() {
    guard isTerminal else { return }
    cursorColumn = 0
    emit(Self.clearLine + (useColor ? Self.reset : ""))
  }

  /// The process continued (`fg`): reads the width again (it may have changed meanwhile) and draws
  /// the last line again.
  package func displayContinue() {
    guard isTerminal else { return }
    columns = readColumns()
    emit(Self.clearLine + bottomLine())
  }

  /// Clears the status line rather than printing it again: the last event (`shutdown`) already says
  /// where playback ended, and a copy of the line after it would only disagree with it.
  package func displayFinish() {
    guard isTerminal else { return }
    finished = true
    var text = Self.clearLine
    if useColor { text += Self.reset }
    statusForms = nil
    typed = nil
    cursorColumn = 0
    emit(text)
  }

  // MARK: - Terminal mechanics

  static let clearLine = "\r\u{1B}[2K"
  static let prompt = StatusLineLayout.prompt

  /// The last line of the screen, fitted to the width: the status line, then the command being typed
  /// (if vpk edits it), with the cursor put where the typing happens.
  private func bottomLine() -> String {
    let layout = StatusLineLayout(forms: statusForms, typed: typed, width: columns)
    let endColumn = DisplayWidth.columns(layout.text)
    cursorColumn = layout.cursorColumn
    guard layout.cursorColumn < endColumn else { return layout.text }
    return layout.text + "\r" + (layout.cursorColumn > 0 ? "\u{1B}[\(layout.cursorColumn)C" : "")
  }
  static let red = "\u{1B}[31m"
  static let bold = "\u{1B}[1m"
  static let reset = "\u{1B}[0m"

  private func painted(_ event: EventViewModel) -> String {
    guard useColor else { return event.text }
    switch event.severity {
    case .info: return event.text
    case .notice: return Self.bold + event.text + Self.reset
    case .error: return Self.red + event.text + Self.reset
    }
  }

  private func emit(_ text: String) {
    guard !closed, !text.isEmpty else { return }
    if !output.write(text) {
      closed = true
      onClosed()
    }
  }
}

// TextStatusView: shows the presenter's text. On a terminal, one status line redrawn in place
// with events printed above it; elsewhere, one line per event and no status line.
//
// It shows what the presenter formatted and adds only terminal mechanics: carriage returns,
// line clearing, fitting the last line to the window's width (see `StatusLineLayout`), laying
// out help's tables for that width (see `EventTextLayout`), and colour (red errors, bold
// notices) when colour is allowed.

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
  /// The columns the last draw of the last line took.
  private var lineColumns = 0
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
    let start = lineStart()
    emit(start + painted(event, text: EventTextLayout.wrapped(event.text, width: columns)) + "\n" + bottomLine())
  }

  package func displayStatusLine(_ status: StatusLineViewModel) {
    guard isTerminal, status.forms != statusForms else { return }
    statusForms = status.forms
    emit(lineStart() + bottomLine())
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
      emit(lineStart() + bottomLine())
    case .submitted(let text):
      typed = ("", "")
      emit(lineStart() + Self.prompt + text + "\n" + bottomLine())
    case .closed:
      // Nothing more is read: no prompt that would take keys in vain.
      typed = nil
      emit(lineStart() + bottomLine())
    }
  }

  /// Shows the first prompt (an empty line being typed), with a line above it that says what it takes. Only on a
  /// terminal.
  package func displayFirstPrompt() {
    guard isTerminal, !finished else { return }
    typed = ("", "")
    emit(lineStart() + Self.hint + "\n" + bottomLine())
  }

  /// The window changed size: redraws the last line to fit the new width (see `lineStart()`).
  package func displayResize() {
    guard isTerminal else { return }
    emit(lineStart() + bottomLine())
  }

  /// The process is about to stop (^Z): clears the last line and resets colours, so the shell's
  /// prompt starts on a clean line.
  package func displaySuspend() {
    guard isTerminal else { return }
    let start = lineStart()
    cursorColumn = 0
    lineColumns = 0
    emit(start + (useColor ? Self.reset : ""))
  }

  /// The process continued (`fg`): reads the width again (it may have changed meanwhile) and draws
  /// the last line again.
  package func displayContinue() {
    guard isTerminal else { return }
    emit(lineStart() + bottomLine())
  }

  /// Clears the status line rather than printing it again: the last event (`shutdown`) already says
  /// where playback ended, and a copy of the line after it would only disagree with it.
  package func displayFinish() {
    guard isTerminal else { return }
    finished = true
    var text = lineStart()
    if useColor { text += Self.reset }
    statusForms = nil
    typed = nil
    cursorColumn = 0
    lineColumns = 0
    emit(text)
  }

  // MARK: - Terminal mechanics

  static let clearLine = "\r\u{1B}[2K"
  /// Autowrap off (DECAWM) while the last line is drawn, and on again after it.
  static let noWrap = "\u{1B}[?7l"
  static let wrap = "\u{1B}[?7h"

  /// Where every draw of the last line starts: the width is read again (a draw can come before the
  /// resize is reported), and the last line is cleared. When the width changed since the last draw, a
  /// terminal that rewraps its lines (tmux, VTE, kitty, iTerm2 …) has split the old line into rows of
  /// the new width with the cursor on one of them: the draw goes up to the row the old line began on
  /// and clears to the end of the screen, so no piece of it is left above, on screen or in the
  /// scrollback.
  private func lineStart() -> String {
    let now = readColumns()
    guard now != columns else { return Self.clearLine }
    columns = now
    guard let now, now > 0 else { return "\r\u{1B}[J" }
    // A cursor after the last character of a line that fills its last row stays on that row.
    let row = cursorColumn > 0 && cursorColumn == lineColumns ? (cursorColumn - 1) / now : cursorColumn / now
    return "\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J"
  }
  static let prompt = StatusLineLayout.prompt
  /// Shown above the first prompt (`displayFirstPrompt()`).
  static let hint = "type a command, or ? for keys"

  /// The last line of the screen, fitted to the width: the status line, then the command being typed
  /// (if vpk edits it), with the cursor put where the typing happens. It is drawn with autowrap off:
  /// should the window have narrowed since the width was read, the line is cut at the window's edge
  /// rather than wrapped onto rows that would scroll and that the next draw would not clear.
  private func bottomLine() -> String {
    let layout = StatusLineLayout(forms: statusForms, typed: typed, width: columns)
    let endColumn = DisplayWidth.columns(layout.text)
    cursorColumn = layout.cursorColumn
    lineColumns = endColumn
    guard !layout.text.isEmpty else { return "" }
    let line = Self.noWrap + layout.text + Self.wrap
    guard layout.cursorColumn < endColumn else { return line }
    return line + "\r" + (layout.cursorColumn > 0 ? "\u{1B}[\(layout.cursorColumn)C" : "")
  }
  static let red = "\u{1B}[31m"
  static let bold = "\u{1B}[1m"
  static let reset = "\u{1B}[0m"

  private func painted(_ event: EventViewModel, text: String) -> String {
    guard useColor else { return text }
    switch event.severity {
    case .info: return text
    case .notice: return Self.bold + text + Self.reset
    case .error: return Self.red + text + Self.reset
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

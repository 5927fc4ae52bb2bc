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
  /// Runs an action after a delay, on the main actor (see `ResizeHold`).
  private let after: @MainActor (_ delay: Duration, _ action: @escaping @MainActor () -> Void) -> Void
  /// Draws held while the window's width changes (see `holdsForResize()`).
  private var hold = ResizeHold()

  /// - Parameters:
  ///   - isTerminal: redraw a status line in place and print events above it; when false, write
  ///     one line per event and ignore status lines.
  ///   - useColor: colour errors and notices (only used on a terminal).
  ///   - columns: the terminal's width now (nil: unknown, nothing is cut); read again on `displayResize()`.
  ///   - onClosed: called once, when a write first fails (the reader went away).
  ///   - after: runs an action after a delay (tests give one whose delays they end themselves).
  package init(
    output: any TextOutput, isTerminal: Bool, useColor: Bool, columns: @escaping @MainActor () -> Int? = { nil },
    onClosed: @escaping @MainActor () -> Void,
    after: @escaping @MainActor (_ delay: Duration, _ action: @escaping @MainActor () -> Void) -> Void =
      ResizeHold.afterDelay
  ) {
    self.output = output
    self.after = after
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
    let text = painted(event, text: EventTextLayout.wrapped(event.text, width: columns)) + "\n"
    guard !holdsForResize() else { return hold.held += text }
    emit(lineStart() + text + bottomLine())
  }

  package func displayStatusLine(_ status: StatusLineViewModel) {
    guard isTerminal, status.forms != statusForms else { return }
    statusForms = status.forms
    draw()
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
      draw()
    case .submitted(let text):
      typed = ("", "")
      draw(above: Self.prompt + text + "\n")
    case .closed:
      // Nothing more is read: no prompt that would take keys in vain.
      typed = nil
      draw()
    }
  }

  /// Shows the first prompt (an empty line being typed), with a line above it that says what it takes. Only on a
  /// terminal.
  package func displayFirstPrompt() {
    guard isTerminal, !finished else { return }
    typed = ("", "")
    draw(above: Self.hint + "\n")
  }

  /// The window changed size: the last line is drawn again to fit the new width once the width has been still for a
  /// while (see `holdsForResize()`).
  package func displayResize() {
    guard isTerminal else { return }
    startHolding()
  }

  /// The process is about to stop (^Z): clears the last line and resets colours, so the shell's
  /// prompt starts on a clean line.
  package func displaySuspend() {
    guard isTerminal else { return }
    let start = lineStart() + endHolding()
    cursorColumn = 0
    lineColumns = 0
    emit(start + (useColor ? Self.reset : ""))
  }

  /// The process continued (`fg`): reads the width again (it may have changed meanwhile) and draws
  /// the last line again.
  package func displayContinue() {
    guard isTerminal else { return }
    draw()
  }

  /// Clears the status line rather than printing it again: the last event (`shutdown`) already says
  /// where playback ended, and a copy of the line after it would only disagree with it.
  package func displayFinish() {
    guard isTerminal else { return }
    finished = true
    var text = lineStart() + endHolding()
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
  ///
  /// How many rows that is depends on the width when the terminal reads the draw, which a window's edge being dragged
  /// can change after vpk read it: too many rows up would clear events printed above, too few would leave a piece of
  /// the old line. So while the width changes, draws are held (see `holdsForResize()`).
  ///
  /// - Parameter rowsAt: the width to count the old line's rows at, when it is not the width read (the widest the
  ///   window may have: fewer rows up rather than too many).
  private func lineStart(rowsAt: Int? = nil) -> String {
    let now = readColumns()
    guard now != columns else { return Self.clearLine }
    columns = now
    guard let now, now > 0 else { return "\r\u{1B}[J" }
    let width = max(now, rowsAt ?? now)
    // A cursor after the last character of a line that fills its last row stays on that row.
    let row = cursorColumn > 0 && cursorColumn == lineColumns ? (cursorColumn - 1) / width : cursorColumn / width
    return "\r" + (row > 0 ? "\u{1B}[\(row)A" : "") + "\u{1B}[J"
  }

  /// Draws the last line, after `above` (events, a submitted command), or holds them while the width changes.
  private func draw(above: String = "") {
    guard !holdsForResize() else { return hold.held += above }
    emit(lineStart() + above + bottomLine())
  }

  /// Whether draws are held because the window's width is changing: it is read, and when it differs from what the last
  /// draw read, holding starts. A terminal that rewraps its lines rewraps the old line at every resize, and rejoins it
  /// when the window widens again, so the line left alone is where a draw can find it. Once the width has been still
  /// for `ResizeHold.settleDelay` (or the hold has lasted `ResizeHold.longest`, so a long drag does not hold output for
  /// ever), what was held is written under one draw of the line that reads the width once.
  private func holdsForResize() -> Bool {
    if hold.isHolding { return true }
    let now = readColumns()
    guard now != columns else { return false }
    startHolding(reading: now)
    return true
  }

  /// Starts holding, or starts the wait for the width to settle again.
  private func startHolding(reading now: Int?? = nil) {
    let started = hold.start(from: columns, now: now ?? readColumns())
    let number = hold.number
    if started.startedHold != nil {
      after(ResizeHold.longest) { [weak self] in self?.release(hold: number, wait: nil) }
    }
    after(ResizeHold.settleDelay) { [weak self] in self?.release(hold: number, wait: started.wait) }
  }

  /// Ends hold `hold` when it is still on and (for a wait, not the longest hold) no later wait began: writes what was
  /// held and draws the line.
  private func release(hold number: Int, wait: Int?) {
    guard hold.ends(number, wait: wait), !finished else { return }
    // Past the longest hold the width may still be changing, and a terminal may rewrap at a width before it reports
    // it: the rows are counted at the widest width seen.
    let widest = wait == nil ? hold.widest : nil
    let held = hold.end()
    emit(lineStart(rowsAt: widest) + held + bottomLine())
  }

  /// Stops holding and gives what was held, to be written now.
  private func endHolding() -> String { hold.end() }

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

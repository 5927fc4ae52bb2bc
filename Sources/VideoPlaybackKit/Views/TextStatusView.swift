// TextStatusView: shows the presenter's text. On a terminal, one status line redrawn in place
// with events printed above it; elsewhere, one line per event and no status line.
//
// It shows what the presenter formatted and adds only terminal mechanics: carriage returns,
// line clearing, and colour (red errors, bold notices) when colour is allowed.

@MainActor
public final class TextStatusView: PlaybackView {
  private let output: any TextOutput
  private let isTerminal: Bool
  private let useColor: Bool
  private let onClosed: @MainActor () -> Void
  /// The status line on screen (terminal only), redrawn under every event.
  private var statusLine: String?
  /// The command being typed, when vpk edits the terminal's input line (shown after the status line).
  private var typed: String?
  private var closed = false

  /// - Parameters:
  ///   - isTerminal: redraw a status line in place and print events above it; when false, write
  ///     one line per event and ignore status lines.
  ///   - useColor: colour errors and notices (only used on a terminal).
  ///   - onClosed: called once, when a write first fails (the reader went away).
  public init(
    output: any TextOutput, isTerminal: Bool, useColor: Bool,
    onClosed: @escaping @MainActor () -> Void
  ) {
    self.output = output
    self.isTerminal = isTerminal
    self.useColor = isTerminal && useColor
    self.onClosed = onClosed
  }

  /// Whether output to a descriptor that is (or is not) a terminal gets in-place redraw and colour.
  nonisolated public static func terminalTraits(isTTY: Bool, environment: [String: String]) -> (
    isTerminal: Bool, useColor: Bool
  ) {
    let isTerminal = isTTY && environment["TERM"] != "dumb"
    let useColor = isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    return (isTerminal, useColor)
  }

  // MARK: - PlaybackView

  public func displayEvent(_ event: EventViewModel) {
    guard isTerminal else {
      emit(event.text + "\n")
      return
    }
    // The status line redrawn in place shows progress; printing it too would only scroll.
    guard !event.isTransient else { return }
    emit(Self.clearLine + painted(event) + "\n" + bottomLine)
  }

  public func displayStatusLine(_ status: StatusLineViewModel) {
    guard isTerminal, status.text != statusLine else { return }
    statusLine = status.text
    emit(Self.clearLine + bottomLine)
  }

  /// Shows what is being typed after the status line, and each submitted command above it, so the
  /// screen keeps a record of what was asked. Only on a terminal.
  public func displayTypedInput(_ input: TypedInput) {
    guard isTerminal else { return }
    switch input {
    case .editing(let text):
      typed = text
      emit(Self.clearLine + bottomLine)
    case .submitted(let text):
      typed = ""
      emit(Self.clearLine + Self.prompt + text + "\n" + bottomLine)
    }
  }

  public func displayFinish() {
    guard isTerminal else { return }
    var text = ""
    if let statusLine { text += Self.clearLine + statusLine + "\n" }
    if useColor { text += Self.reset }
    statusLine = nil
    emit(text)
  }

  // MARK: - Terminal mechanics

  static let clearLine = "\r\u{1B}[2K"
  static let prompt = "› "

  /// The last line of the screen: the status line, then the command being typed (if vpk edits it).
  private var bottomLine: String {
    guard let typed else { return statusLine ?? "" }
    return (statusLine.map { $0 + "  " } ?? "") + Self.prompt + typed
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

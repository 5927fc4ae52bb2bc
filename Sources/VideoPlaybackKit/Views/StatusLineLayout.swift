// StatusLineLayout: what the last line of a terminal shows when it must fit the window: the status
// line in the longest form that fits, then the prompt and the typed command scrolled within its field.

/// Lays out the terminal's last line. Pure, so tests give it any width.
///
/// It never takes more than `width - 1` columns: a line that reached the last column would leave
/// the cursor pending a wrap, and some terminals would scroll at the next write.
package struct StatusLineLayout: Sendable, Equatable {
  /// The text to draw (no control characters).
  package var text: String
  /// The column (from 0) where the cursor belongs: after the text, or on the typed command's cursor.
  package var cursorColumn: Int

  /// Columns of the field the typed command keeps at least (when it is that long) before the status
  /// line gives up a longer form for a shorter one.
  package static let minimumField = 16
  package static let prompt = "› "
  static let gap = "  "

  /// - Parameters:
  ///   - forms: the status line, longest first (nil: none yet).
  ///   - typed: the command being typed, before and after its cursor (nil: no prompt).
  ///   - width: the window's columns (nil: unknown, nothing is cut).
  package init(forms: [String]?, typed: (before: String, after: String)?, width: Int?) {
    let limit = width.map { max(0, $0 - 1) } ?? Int.max
    guard let typed else {
      let forms = forms ?? [""]
      let chosen =
        forms.first { DisplayWidth.columns($0) <= limit }
        ?? String(DisplayWidth.prefix(forms.last ?? "", fitting: limit))
      self.text = chosen
      self.cursorColumn = DisplayWidth.columns(chosen)
      return
    }
    let promptColumns = DisplayWidth.columns(Self.prompt)
    let beforeColumns = DisplayWidth.columns(typed.before)
    let afterColumns = DisplayWidth.columns(typed.after)
    // The whole command and a cell for the cursor after it, or at least `minimumField` of it.
    let wanted = min(beforeColumns + afterColumns + 1, Self.minimumField)
    let gapColumns = DisplayWidth.columns(Self.gap)
    let status = (forms ?? []).first {
      DisplayWidth.columns($0) + gapColumns + promptColumns + wanted <= limit
    }
    var head = status.map { $0 + Self.gap } ?? ""
    if promptColumns < limit { head += Self.prompt }
    let headColumns = DisplayWidth.columns(head)
    let field = max(0, limit - headColumns)
    var shownBefore = Substring(typed.before)
    var shownAfter = Substring(typed.after)
    if beforeColumns + afterColumns + 1 > field {
      // Too long: scroll so the cursor stays in view, with some of what follows it when there is any.
      let ahead = min(afterColumns, field / 4)
      shownBefore = DisplayWidth.suffix(shownBefore, fitting: max(0, field - 1 - ahead))
      let rest = field - DisplayWidth.columns(shownBefore)
      shownAfter = DisplayWidth.prefix(typed.after, fitting: rest)
    }
    self.text = head + shownBefore + shownAfter
    self.cursorColumn = min(headColumns + DisplayWidth.columns(shownBefore), limit)
  }
}

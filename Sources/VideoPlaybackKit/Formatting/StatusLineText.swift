// StatusLineText: the one-line status a terminal shows in place, and the glyph for each state.

package enum StatusLineText {

  /// `▶ 00:01:23.456 / 00:05:00.000  27.8%  [█████░░░░░░░░░░░░░]`; with no known (or a zero)
  /// duration, `▶ 00:01:23.456 / --:--:--.---` and no percentage or bar.
  package static func line(
    state: PlaybackState, position: MediaTime, duration: MediaTime?
  ) -> String {
    let head = "\(glyph(state)) \(NumberText.clock(position.seconds)) / "
    guard let duration, duration.seconds.isFinite, duration.seconds > 0 else {
      return head + NumberText.unknownClock
    }
    var line = head + NumberText.clock(duration.seconds)
    let percentText = NumberText.fixed(position.seconds / duration.seconds * 100, decimals: 1)
    guard let percent = Double(percentText), percent.isFinite else { return line }
    let filled = min(max(Int((percent / 100 * Double(barCells)).rounded(.down)), 0), barCells)
    line += "  \(percentText)%  ["
    line +=
      String(repeating: "█", count: filled) + String(repeating: "░", count: barCells - filled) + "]"
    return line
  }

  package static let barCells = 18

  /// The status line in every form, longest first, for a view to pick the longest that fits its
  /// width: the full line; without the bar; without the percentage; the glyph and the position.
  /// Shorter forms that would repeat a longer one are left out.
  package static func forms(
    state: PlaybackState, position: MediaTime, duration: MediaTime?
  ) -> [String] {
    let full = line(state: state, position: position, duration: duration)
    var forms = [full]
    if let bar = full.range(of: "  [") { forms.append(String(full[..<bar.lowerBound])) }
    let times =
      "\(glyph(state)) \(NumberText.clock(position.seconds)) / "
      + (duration.map { NumberText.clock($0.seconds) } ?? NumberText.unknownClock)
    if let duration, duration.seconds.isFinite, duration.seconds > 0, !forms.contains(times) {
      forms.append(times)
    }
    forms.append("\(glyph(state)) \(NumberText.clock(position.seconds))")
    return forms
  }

  package static func glyph(_ state: PlaybackState) -> String {
    switch state {
    case .playing: "▶"
    case .paused: "⏸"
    case .ended: "■"
    case .loading: "…"
    case .idle: "○"
    }
  }

  /// The last component of a path (the path itself when it has none).
  package static func fileName(_ path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
    return name ?? path
  }
}

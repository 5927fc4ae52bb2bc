// StatusLineText: the one-line status a terminal shows in place, and the glyph for each state.

package enum StatusLineText {

  /// `▶ 00:01:23.456 / 00:05:00.000   27.8%  [█████░░░░░░░░░░░░░]`; with no known (or a zero)
  /// duration, `▶ 00:01:23.456 / --:--:--.---` and no percentage or bar. A speed other than 1 shows
  /// after the times as `x2.00` (`x-1.00` backward, where playing shows `◀`). The percentage takes five
  /// columns (`  5.0`, ` 27.8`, `100.0`), so what follows the line does not move as it grows.
  package static func line(
    state: PlaybackState, position: MediaTime, duration: MediaTime?, rate: Double = 1
  ) -> String {
    let head = "\(glyph(state, rate: rate)) \(NumberText.clock(position.seconds)) / "
    let speed = speedText(rate).map { "  " + $0 } ?? ""
    guard let duration, duration.seconds.isFinite, duration.seconds > 0 else {
      return head + NumberText.unknownClock + speed
    }
    var line = head + NumberText.clock(duration.seconds) + speed
    let percentText = NumberText.fixed(position.seconds / duration.seconds * 100, decimals: 1)
    guard let percent = Double(percentText), percent.isFinite else { return line }
    let filled = min(max(Int((percent / 100 * Double(barCells)).rounded(.down)), 0), barCells)
    line += "  " + String(repeating: " ", count: max(0, percentColumns - percentText.count)) + "\(percentText)%  ["
    line +=
      String(repeating: "█", count: filled) + String(repeating: "░", count: barCells - filled) + "]"
    return line
  }

  package static let barCells = 18
  /// The columns the percentage's number takes, padded on the left (`100.0`).
  package static let percentColumns = 5

  /// The status line in every form, longest first, for a view to pick the longest that fits its
  /// width: the full line; without the bar; without the percentage; the glyph, the position and the
  /// speed; the glyph and the position. Shorter forms that would repeat a longer one are left out.
  /// `entry`: the queue's entry playing (`2/3 ep2.mp4`), shown after each form before the forms without it.
  package static func forms(
    state: PlaybackState, position: MediaTime, duration: MediaTime?, rate: Double = 1, entry: String? = nil
  ) -> [String] {
    let full = line(state: state, position: position, duration: duration, rate: rate)
    var forms = [full]
    if let bar = full.range(of: "%  [") {
      let percent = full[..<bar.lowerBound].range(of: "  ", options: .backwards)
      forms.append(String(full[..<bar.lowerBound]) + "%")
      if let percent {
        // The padding before the percentage goes with it.
        var end = percent.lowerBound
        while end > full.startIndex, full[full.index(before: end)] == " " { end = full.index(before: end) }
        forms.append(String(full[..<end]))
      }
    }
    let position = "\(glyph(state, rate: rate)) \(NumberText.clock(position.seconds))"
    if let speed = speedText(rate) { forms.append(position + "  " + speed) }
    forms.append(position)
    if let entry { forms = forms.map { $0 + "  " + entry } + forms }
    var unique: [String] = []
    for form in forms where !unique.contains(form) { unique.append(form) }
    return unique
  }

  /// `x2.00`, `x0.91`, `x-1.00`; nil at the usual speed, 1.
  package static func speedText(_ rate: Double) -> String? {
    guard rate != 1, rate.isFinite else { return nil }
    return "x" + (rate < 0 ? "-" : "") + NumberText.fixed(abs(rate), decimals: 2)
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

  /// The glyph for a state at a rate: playing backward shows `◀`.
  package static func glyph(_ state: PlaybackState, rate: Double) -> String {
    state == .playing && rate < 0 ? "◀" : glyph(state)
  }

  /// The last component of a path (the path itself when it has none).
  package static func fileName(_ path: String) -> String {
    let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init)
    return name ?? path
  }
}

extension StatusLineText {
  /// The queue's entry as the status line shows it: `2/3 ep2.mp4`.
  package static func entry(_ entry: EntryStarted) -> String {
    "\(entry.index)/\(entry.count) \(TextQuoting.escapingControls(fileName(entry.path)))"
  }
}

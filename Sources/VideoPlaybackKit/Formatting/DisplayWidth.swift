// DisplayWidth: how many terminal columns text takes, so the status line can be cut to the window.

/// Terminal columns of text, counted per character (grapheme cluster) the way terminals lay it out:
/// control and zero-width characters (combining marks, format characters, variation selectors)
/// take none; East Asian wide and fullwidth characters and emoji shown as emoji take two;
/// everything else one. Characters of ambiguous width, such as the status line's glyphs
/// (`▶ ⏸ ■ … ○`) and bar blocks (`█ ░`), count as one, as terminals outside CJK locales draw them.
package enum DisplayWidth {
  /// The columns `text` takes.
  package static func columns(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + columns(of: $1) }
  }

  /// The columns one character takes: 0, 1 or 2.
  package static func columns(of character: Character) -> Int {
    var width = 0
    for scalar in character.unicodeScalars {
      // A variation selector 16 asks for emoji presentation: two columns.
      if scalar.value == 0xFE0F { return 2 }
      width = max(width, columns(of: scalar))
    }
    return width
  }

  /// The columns one scalar takes on its own.
  package static func columns(of scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x20 || (0x7F..<0xA0).contains(value) { return 0 }
    if value < 0x300 { return 1 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }
    if scalar.properties.isEmojiPresentation || isWide(value) { return 2 }
    return 1
  }

  /// The longest prefix of `text` that fits in `limit` columns.
  package static func prefix(_ text: String, fitting limit: Int) -> Substring {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = columns(of: text[index])
      if used + width > limit { break }
      used += width
      end = text.index(after: index)
    }
    return text[..<end]
  }

  /// The longest suffix of `text` that fits in `limit` columns.
  package static func suffix(_ text: Substring, fitting limit: Int) -> Substring {
    var used = 0
    var start = text.endIndex
    while start > text.startIndex {
      let previous = text.index(before: start)
      let width = columns(of: text[previous])
      if used + width > limit { break }
      used += width
      start = previous
    }
    return text[start...]
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's East Asian Width property.
  private static func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}

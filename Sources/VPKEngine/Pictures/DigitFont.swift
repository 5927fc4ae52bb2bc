// DigitFont: a 5x7 bitmap font of the characters a time needs (0-9, `:` and `.`), drawn into RGB pictures. Built in,
// so labels need no font file and no libfreetype, and look the same on every machine.

struct DigitFont {
  static let glyphWidth = 5
  static let glyphHeight = 7

  /// Each glyph as 7 rows of 5 cells, `#` for ink.
  private static let glyphs: [Character: [String]] = [
    "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
    "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
    "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
    "3": ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "],
    "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
    "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
    "6": ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "],
    "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
    "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
    "9": [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "],
    ":": ["     ", "  #  ", "  #  ", "     ", "  #  ", "  #  ", "     "],
    ".": ["     ", "     ", "     ", "     ", "     ", " ##  ", " ##  "],
  ]

  /// Pixels per cell.
  var scale: Int

  /// The width of `text` drawn: one blank cell between glyphs.
  func width(of text: String) -> Int {
    text.isEmpty ? 0 : (text.count * (Self.glyphWidth + 1) - 1) * scale
  }

  var height: Int { Self.glyphHeight * scale }

  /// Draws `text` with its top left corner at (x, y), clipped to the picture. Characters the font lacks are left
  /// blank.
  func draw(_ text: String, x: Int, y: Int, colour: (UInt8, UInt8, UInt8), into image: inout RGBImage) {
    for (index, character) in text.enumerated() {
      guard let rows = Self.glyphs[character] else { continue }
      let left = x + index * (Self.glyphWidth + 1) * scale
      for (row, cells) in rows.enumerated() {
        for (column, cell) in cells.enumerated() where cell == "#" {
          for dy in 0..<scale {
            for dx in 0..<scale {
              image.set(x: left + column * scale + dx, y: y + row * scale + dy, to: colour)
            }
          }
        }
      }
    }
  }
}

// EventTextLayout: the rows of a many-line event (help's tables) laid out for the terminal's width, so the terminal
// never wraps them in the middle of a word.

/// Wraps the indented rows of an event's text at word boundaries to fit `width` columns. Pure, so tests give it any
/// width.
///
/// Only rows that begin with a space (the rows of a table, as `help` prints them) are wrapped: the first row, an
/// event's `name #id field=…` line, is left whole for the terminal, so copying it gives the event as it is. A row
/// too long goes on in rows indented to its last column (what follows the last run of two or more spaces: help's
/// summaries), or four columns in from its own indent when that column leaves too little room. A word longer than
/// a row is cut.
package enum EventTextLayout {
  /// The fewest columns a continued row keeps for its words before the indent gives way (and at most four are left
  /// to words however narrow the terminal).
  static let minimumRoom = 16

  package static func wrapped(_ text: String, width: Int?) -> String {
    guard let width, width > 0 else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
      guard line.first == " " else { return [String(line)] }
      return rows(line, width: width)
    }.joined(separator: "\n")
  }

  static func rows(_ line: Substring, width: Int) -> [String] {
    guard DisplayWidth.columns(line) > width else { return [String(line)] }
    let leading = line.prefix { $0 == " " }.count
    var hang = lastColumn(line)
    if hang == nil || width - hang! < minimumRoom { hang = leading + 4 }
    let indent = String(repeating: " ", count: min(hang!, max(0, width - 4)))
    var rows: [String] = []
    var rest = line
    var prefix = ""
    while DisplayWidth.columns(prefix) + DisplayWidth.columns(rest) > width {
      let room = max(1, width - DisplayWidth.columns(prefix))
      var used = 0
      var cut = rest.startIndex
      var lastSpace: Substring.Index?
      var seenWord = false
      for index in rest.indices {
        let columns = DisplayWidth.columns(of: rest[index])
        if used + columns > room { break }
        if rest[index] == " " {
          if seenWord { lastSpace = index }
        } else {
          seenWord = true
        }
        used += columns
        cut = rest.index(after: index)
      }
      if cut == rest.startIndex { cut = rest.index(after: cut) }
      let end = cut == rest.endIndex || rest[cut] == " " ? cut : lastSpace ?? cut
      var row = prefix + rest[..<end]
      while row.last == " " { row.removeLast() }
      rows.append(row)
      rest = rest[end...].drop { $0 == " " }
      prefix = indent
    }
    if !rest.isEmpty { rows.append(prefix + rest) }
    return rows
  }

  /// The column where a row's last column begins: after its last run of two or more spaces (nil: none).
  private static func lastColumn(_ line: Substring) -> Int? {
    var column = 0
    var spaces = 0
    var seenWord = false
    var found: Int?
    for character in line {
      if character == " " {
        spaces += 1
      } else {
        if seenWord && spaces >= 2 { found = column }
        seenWord = true
        spaces = 0
      }
      column += DisplayWidth.columns(of: character)
    }
    return found
  }
}

// TextQuoting: how vpk shows text it did not write itself (paths, typed input, values) so that a
// line stays one line and a terminal stays safe. Two rules, one place:
// - `value`: an event field after `key=`: bare when safe, else double-quoted with escapes.
// - `excerpt`: a piece of input quoted in a message: single-quoted, cut short, controls replaced.

package enum TextQuoting {

  /// A string as it appears after `key=` in an event line: bare when it is safe to, else double-quoted with
  /// `\"`, `\\`, `\n`, `\r`, `\t` and `\u{XX}` escapes.
  package static func value(_ value: String) -> String {
    let needsQuotes =
      value.isEmpty
      || value.unicodeScalars.contains { scalar in
        scalar.properties.isWhitespace || scalar == "\"" || scalar == "=" || scalar == "\\"
          || isControl(scalar)
      }
    guard needsQuotes else { return value }
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      default: result += escaped(scalar)
      }
    }
    return result + "\""
  }

  /// `value` with its control characters escaped (`\n`, `\t`, `\u{1B}` …) and nothing else changed:
  /// safe to write to a terminal.
  package static func escapingControls(_ value: String) -> String {
    guard value.unicodeScalars.contains(where: isControl) else { return value }
    return value.unicodeScalars.map(escaped).joined()
  }

  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case _ where isControl(scalar):
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
    default: return String(scalar)
    }
  }

  /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
  }

  /// `'text'`: a piece of input as a message quotes it, cut to `maxCharacters` (then `…`), with
  /// control, format and line-separator characters replaced by `?`, so a hostile line cannot make a
  /// huge or multi-line message.
  package static func excerpt(_ text: String, maxCharacters: Int) -> String {
    var result = String.UnicodeScalarView()
    var count = 0
    for scalar in text.unicodeScalars {
      if count == maxCharacters {
        result.append("…")
        break
      }
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
        result.append("?")
      default:
        result.append(scalar)
      }
      count += 1
    }
    return "'" + String(result) + "'"
  }
}

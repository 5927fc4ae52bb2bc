// MPVPropertyTable+Docs: the property table of docs/control-socket.md, written from the table of properties
// (MPVPropertyTableTests checks the docs hold exactly this block).

extension MPVPropertyTable {
  static let docsBegin = "<!-- mpv-properties:begin -->"
  static let docsEnd = "<!-- mpv-properties:end -->"

  /// The docs' table of properties, its markers included, one row per property and one for every other name.
  static var docsBlock: String {
    var lines = [
      docsBegin,
      "| mpv property | type | access | value | unavailable | from | test |",
      "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for spec in all {
      var access = ["read"]
      if spec.write != nil { access.append("write") }
      if spec.cycle != nil { access.append("cycle") }
      if spec.add != nil { access.append("add") }
      access.append("observe")
      let cells = [
        "`\(spec.name)`", spec.kind.rawValue, access.joined(separator: ", "),
        spec.docs.note.isEmpty ? "—" : spec.docs.note, spec.docs.unavailable,
        spec.docs.from, spec.docs.tests,
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    lines.append(
      "| every other property (`volume`, `aid`, `sid`, `chapter` …) | — | none: `property not found` | — | — | — "
        + "| MPVCommandTranslatorTests.properties |")
    lines.append(docsEnd)
    return lines.joined(separator: "\n")
  }
}

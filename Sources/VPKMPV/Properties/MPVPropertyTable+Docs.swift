// MPVPropertyTable+Docs: the property table of docs/control-socket.md, written from the table of properties
// (MPVPropertyTableTests checks the docs hold exactly this block).

extension MPVPropertyTable {
  static let docsBegin = "<!-- mpv-properties:begin -->"
  static let docsEnd = "<!-- mpv-properties:end -->"

  /// The docs' tables of properties, its markers included: one row per property served, then mpv's other
  /// properties by the reason vpk does not serve them.
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
    // Every other property of mpv's, grouped by why vpk does not serve it, in mpv's order.
    lines += [
      "",
      "Every other property of mpv 0.35's answers `property not found` (`get_property_string`: success with `data` "
        + "null, as mpv's IPC answers a name it does not know; MPVCommandTranslatorTests.properties, "
        + "MPVPresenterTests.stringFormWhenUnavailable); "
        + "observing it is accepted, and the observer is told once that it is unavailable (a `property-change` "
        + "without `data`, as mpv tells the observer of a name it does not know; MPVPresenterTests.observeUnknown):",
      "",
      "| why vpk does not serve it | mpv properties |",
      "| --- | --- |",
    ]
    let served = Set(MPVProperty.allCases.map(\.rawValue))
    for entry in MPVPropertyCatalog.unservedReasons {
      let names = MPVPropertyCatalog.mpvNames.filter {
        !served.contains($0) && MPVPropertyCatalog.reason($0) == entry.reason
      }
      guard !names.isEmpty else { continue }
      lines.append("| \(entry.reason) | " + names.map { "`\($0)`" }.joined(separator: ", ") + " |")
    }
    lines.append(docsEnd)
    return lines.joined(separator: "\n")
  }
}

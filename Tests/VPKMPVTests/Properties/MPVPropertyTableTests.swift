import Foundation
import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The table of mpv properties, and what comes from it.
@Suite("mpv property table")
struct MPVPropertyTableTests {
  /// docs/control-socket.md, found from this file's path.
  private static let docsURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../docs/control-socket.md").standardized

  @Test("docs/control-socket.md holds the property table as the table of properties writes it")
  func docsTable() throws {
    // Given the docs and the block the table writes
    let docs = try String(contentsOf: Self.docsURL, encoding: .utf8)
    let expected = MPVPropertyTable.docsBlock
    // When the block between the markers is read
    let begin = try #require(docs.range(of: MPVPropertyTable.docsBegin), "no \(MPVPropertyTable.docsBegin) in the docs")
    let end = try #require(docs.range(of: MPVPropertyTable.docsEnd), "no \(MPVPropertyTable.docsEnd) in the docs")
    let found = String(docs[begin.lowerBound..<end.upperBound])
    // Then it is that block (VPK_WRITE_DOCS=1 writes it into the docs instead)
    if found != expected, ProcessInfo.processInfo.environment["VPK_WRITE_DOCS"] == "1" {
      try docs.replacingCharacters(in: begin.lowerBound..<end.upperBound, with: expected)
        .write(to: Self.docsURL, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      found == expected,
      """
      docs/control-socket.md's property table is not the table's; put this between its markers (or run the test \
      with VPK_WRITE_DOCS=1):
      \(expected)
      """
    )
  }

  @Test("property-list names every entry but the sub-properties, in the table's order; each entry is its own")
  func propertyList() {
    let names = MPVPropertyTable.all.map(\.name).filter { !$0.contains("/") }
    #expect(MPVPropertyTable.spec(.propertyList).read(MPVReadings()) == .array(names.map { .string($0) }))
    #expect(MPVProperty.allCases.allSatisfy { MPVPropertyTable.spec($0).property == $0 })
  }

  @Test("the translator refuses set, add and cycle exactly where the table has no write, add or cycle")
  func translatorFollowsTheTable() {
    let translator = MPVCommandTranslator()
    for spec in MPVPropertyTable.all {
      let set = translator.translate(#"{"command": ["set_property", "\#(spec.name)", "x"]}"#).command
      #expect((set == .failure(MPVRequestError(.propertyAccess))) == (spec.write == nil), "\(spec.name)")
      let add = translator.translate(#"{"command": ["add", "\#(spec.name)", 1]}"#).command
      #expect((add == .success(.add(spec.property, 1))) == (spec.add != nil), "\(spec.name)")
      let cycle = translator.translate(#"{"command": ["cycle", "\#(spec.name)"]}"#).command
      #expect((cycle == .success(.cycle(spec.property))) == (spec.cycle != nil), "\(spec.name)")
    }
  }

  @Test("every property of mpv 0.35's is in the docs' table once: served, or with the reason it is not")
  func everyMPVPropertyIsInTheDocs() {
    // Given mpv's list and the names vpk serves
    let served = Set(MPVProperty.allCases.map(\.rawValue))
    let mpvNames = MPVPropertyCatalog.mpvNames
    // Then every name vpk lists is one of mpv's, and mpv names each once
    #expect(MPVProperty.listed.allSatisfy { mpvNames.contains($0.rawValue) })
    #expect(Set(mpvNames).count == mpvNames.count)
    // And every name it does not serve has a reason
    #expect(mpvNames.filter { !served.contains($0) && MPVPropertyCatalog.reason($0) == nil } == [])
    // And the docs' block names each of mpv's properties exactly once: a served row's first cell, or in the list of
    // the reason it is not served
    var named: [String] = []
    for row in MPVPropertyTable.docsBlock.split(separator: "\n") where row.hasPrefix("| ") {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let listed = cells.count == 2 ? cells[1] : cells[0]
      named += listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix("`") }.map { String($0.dropFirst().dropLast()) }
    }
    #expect(named.sorted() == (mpvNames + ["filename/no-ext"]).sorted())
  }
}

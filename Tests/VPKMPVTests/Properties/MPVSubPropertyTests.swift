import Testing

@testable import VPKMPV

/// Paths into a property's value, read as mpv reads them.
@Suite("mpv sub-properties")
struct MPVSubPropertyTests {
  private let list = MPVValue.array([
    .object([MPVMember("id", .integer(1)), MPVMember("type", .string("video"))]),
    .object([MPVMember("id", .integer(1)), MPVMember("type", .string("audio"))]),
  ])
  private let tags = MPVValue.object([MPVMember("title", .string("A film")), MPVMember("ENCODER", .string("Lavf"))])

  private func read(_ value: MPVValue, _ property: MPVProperty, _ path: String) -> Result<MPVValue, MPVRequestError> {
    MPVSubProperty.read(value, of: property, path: path)
  }

  @Test("a list: count, an element by its index, a member of an element; what it has not is not found")
  func lists() {
    #expect(read(list, .trackList, "count") == .success(.integer(2)))
    #expect(read(list, .trackList, "1/type") == .success(.string("audio")))
    #expect(read(list, .trackList, "0") == .success(list.arrayElement(0)))
    for missing in ["2/type", "-1", "x", "0/nope", "count/x"] {
      #expect(read(list, .trackList, missing) == .failure(MPVRequestError(.propertyNotFound)), "\(missing)")
    }
  }

  @Test("a map: its members; metadata also by-key (ignoring case) and as list/N/key|value")
  func maps() {
    let params = MPVValue.object([MPVMember("w", .integer(320))])
    #expect(read(params, .videoParams, "w") == .success(.integer(320)))
    #expect(read(params, .videoParams, "W") == .failure(MPVRequestError(.propertyNotFound)))
    #expect(read(tags, .metadata, "by-key/encoder") == .success(.string("Lavf")))
    #expect(read(tags, .metadata, "TITLE") == .success(.string("A film")))
    #expect(read(tags, .metadata, "list/count") == .success(.integer(2)))
    #expect(read(tags, .metadata, "list/1/key") == .success(.string("ENCODER")))
    #expect(read(tags, .metadata, "list/0/value") == .success(.string("A film")))
    #expect(read(tags, .metadata, "by-key/nope") == .failure(MPVRequestError(.propertyNotFound)))
  }

  @Test("below a value that has no parts: error accessing property")
  func scalars() {
    #expect(read(.number(100), .volume, "x") == .failure(MPVRequestError(.propertyAccess)))
    #expect(read(list, .trackList, "0/id/x") == .failure(MPVRequestError(.propertyAccess)))
  }

  @Test("the translator reads a path into a served property; a served name with a slash stays itself")
  func translation() {
    let translator = MPVCommandTranslator()
    #expect(
      translator.translate(#"{"command": ["get_property", "track-list/count"]}"#).command
        == .success(.subProperty(.trackList, path: "count", asString: false, observe: nil)))
    #expect(
      translator.translate(#"{"command": ["observe_property_string", 4, "metadata/by-key/title"]}"#).command
        == .success(.subProperty(.metadata, path: "by-key/title", asString: true, observe: 4)))
    #expect(
      translator.translate(#"{"command": ["get_property", "filename/no-ext"]}"#).command
        == .success(.getProperty(.filenameNoExt, asString: false)))
    #expect(
      translator.translate(#"{"command": ["get_property", "aid/x"]}"#).command
        == .failure(MPVRequestError(.propertyNotFound)))
  }
}

extension MPVValue {
  fileprivate func arrayElement(_ index: Int) -> MPVValue {
    if case .array(let values) = self { values[index] } else { .null }
  }
}

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
    // An index as mpv's strtol reads it (checked against mpv 0.35.1): blanks and a sign before it, an empty one
    // followed by a part is 0, and a trailing slash after it is the entry
    #expect(read(list, .trackList, " 1/type") == .success(.string("audio")))
    #expect(read(list, .trackList, "+1/type") == .success(.string("audio")))
    #expect(read(list, .trackList, "/type") == .success(.string("video")))
    #expect(read(list, .trackList, "0/") == .success(list.arrayElement(0)))
    for missing in ["2/type", "-1", "x", "0/nope", "count/x", "", "1//", "1x/type", "count/"] {
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

  @Test("below a property that has no parts: error accessing property; below a part, not found, as mpv answers")
  func scalars() {
    #expect(read(.number(100), .volume, "x") == .failure(MPVRequestError(.propertyAccess)))
    // (mpv's time properties take no path: not found, checked against mpv 0.35.1)
    for time in [MPVProperty.timePos, .playbackTime, .duration, .timeRemaining, .playtimeRemaining] {
      #expect(read(.number(5), time, "x") == .failure(MPVRequestError(.propertyNotFound)), "\(time)")
      #expect(read(.number(5), time, "full") == .success(.number(5)), "\(time)")
    }
    // (and property-list and command-list are read whole, as mpv's)
    #expect(read(.array([.string("pause")]), .propertyList, "0") == .failure(MPVRequestError(.propertyAccess)))
    #expect(read(.array([]), .commandList, "count") == .failure(MPVRequestError(.propertyAccess)))
    #expect(read(list, .trackList, "0/id/x") == .failure(MPVRequestError(.propertyNotFound)))
    #expect(read(tags, .metadata, "by-key/title/x") == .failure(MPVRequestError(.propertyNotFound)))
    #expect(read(tags, .metadata, "list/0/key/x") == .failure(MPVRequestError(.propertyNotFound)))
  }

  @Test("a field mpv's entries have that this one leaves out is unavailable; one they never have is not found")
  func fieldsLeftOut() {
    // Given a track without a language, a playlist entry without a title, video parameters without colours
    // When those fields are read (checked against mpv 0.35.1 on the same file)
    // Then they are unavailable, where a name mpv's entries never have is not found
    let unavailable = Result<MPVValue, MPVRequestError>.failure(MPVRequestError(.propertyUnavailable))
    let notFound = Result<MPVValue, MPVRequestError>.failure(MPVRequestError(.propertyNotFound))
    #expect(read(list, .trackList, "0/lang") == unavailable)
    #expect(read(list, .trackList, "1/replaygain-track-gain") == unavailable)
    #expect(read(list, .trackList, "0/codec-profile") == notFound)
    #expect(read(list, .trackList, "0/lang/x") == notFound)
    let playlist = MPVValue.array([.object([MPVMember("filename", .string("a.mp4"))])])
    #expect(read(playlist, .playlist, "0/title") == unavailable)
    #expect(read(playlist, .playlist, "0/playlist-path") == notFound)
    let params = MPVValue.object([MPVMember("w", .integer(320))])
    #expect(read(params, .videoParams, "colormatrix") == unavailable)
    #expect(read(params, .videoParams, "nosuch") == notFound)
    #expect(read(.object([]), .audioParams, "hr-channels") == unavailable)
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

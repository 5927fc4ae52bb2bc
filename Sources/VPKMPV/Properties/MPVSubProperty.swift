// MPVSubProperty: mpv's paths into a property's value (`playlist/count`, `track-list/0/type`, `video-params/w`,
// `metadata/by-key/title`, `metadata/list/0/key`), read from the value as mpv 0.35 reads them.

package enum MPVSubProperty {
  /// The part of `value` (`property`'s) that `path` names (its `/`-separated parts), or mpv's error: `property not
  /// found` for a count, index or key the value does not have, `property unavailable` for a key mpv's value has
  /// but this one leaves out (a track without a `lang`), `error accessing property` below a value that has no parts.
  static func read(_ value: MPVValue, of property: MPVProperty, path: String) -> Result<MPVValue, MPVRequestError> {
    // mpv's time properties take one path, `full` (the value at full precision, which vpk's always is): anything
    // else is not found, where `pause/x` is an error of access.
    if timeProperties.contains(property) {
      return path == "full" ? .success(value) : .failure(MPVRequestError(.propertyNotFound))
    }
    // mpv's lists of names are read whole: a path into them is an error of access.
    if property == .propertyList || property == .commandList { return .failure(MPVRequestError(.propertyAccess)) }
    return read(
      value, metadata: property == .metadata, keys: keys[property],
      path.split(separator: "/", omittingEmptySubsequences: false)[...])
  }

  /// The properties mpv serves as times (its `property_time`), which know no path into their value.
  static let timeProperties: Set<MPVProperty> = [
    .timePos, .playbackTime, .duration, .timeRemaining, .playtimeRemaining,
  ]

  /// An index into a list as mpv reads it (C's `strtol`): blanks before it and a sign are taken, and an empty index
  /// followed by a further part (`track-list//type`) is 0; nil when it is not one.
  private static func listIndex(_ text: Substring, followed: Bool) -> Int? {
    let digits = text.drop { $0 == " " || ("\t"..."\r").contains($0) }
    if digits.isEmpty { return followed ? 0 : nil }
    return Int(digits)
  }

  /// Every key mpv 0.35's value of these properties has (for a list, each entry's), given or not: reading one
  /// that is left out is `property unavailable`; any other key is `property not found` (checked against mpv).
  static let keys: [MPVProperty: Set<String>] = [
    .trackList: [
      "id", "type", "src-id", "title", "lang", "audio-channels", "image", "albumart", "default", "forced", "dependent",
      "visual-impaired", "hearing-impaired", "external", "selected", "main-selection", "external-filename", "ff-index",
      "decoder-desc", "codec", "demux-w", "demux-h", "demux-channel-count", "demux-channels", "demux-samplerate",
      "demux-fps", "demux-bitrate", "demux-rotation", "demux-par", "replaygain-track-peak", "replaygain-track-gain",
      "replaygain-album-peak", "replaygain-album-gain",
    ],
    .playlist: ["filename", "current", "playing", "title", "id"],
    .chapterList: ["title", "time"],
    .videoParams: [
      "pixelformat", "hw-pixelformat", "average-bpp", "w", "h", "dw", "dh", "aspect", "par", "colormatrix",
      "colorlevels", "primaries", "gamma", "sig-peak", "light", "chroma-location", "rotate", "stereo-in", "alpha",
    ],
    .audioParams: ["format", "samplerate", "channels", "channel-count", "hr-channels"],
  ]

  private static func read(
    _ value: MPVValue, metadata: Bool, keys: Set<String>?, _ path: ArraySlice<Substring>
  ) -> Result<MPVValue, MPVRequestError> {
    guard let first = path.first else { return .success(value) }
    let rest = path.dropFirst()
    switch value {
    case .array(let elements):
      if first == "count" {
        return rest.isEmpty ? .success(.integer(elements.count)) : .failure(MPVRequestError(.propertyNotFound))
      }
      guard let index = listIndex(first, followed: !rest.isEmpty), elements.indices.contains(index) else {
        return .failure(MPVRequestError(.propertyNotFound))
      }
      // `track-list/0/`: the entry itself.
      if rest.count == 1, rest.first == "" { return .success(elements[index]) }
      return read(elements[index], metadata: false, keys: keys, rest)
    case .object(let members):
      if metadata {
        // A map of tags: `by-key/KEY` or `KEY` (keys compared ignoring case, as mpv looks tags up), `list/…` as a list
        // of `{key, value}`.
        if first == "list" {
          let list = MPVValue.array(
            members.map { .object([MPVMember("key", .string($0.key)), MPVMember("value", $0.value)]) })
          return read(list, metadata: false, keys: nil, rest)
        }
        let key = first == "by-key" ? rest.first : first
        let after = first == "by-key" ? rest.dropFirst() : rest
        guard let key, let member = members.first(where: { $0.key.lowercased() == key.lowercased() }) else {
          return .failure(MPVRequestError(.propertyNotFound))
        }
        return read(member.value, metadata: false, keys: nil, after)
      }
      // mpv names an entry's field by the whole rest of the path: nothing may follow a known key.
      if keys != nil, !rest.isEmpty { return .failure(MPVRequestError(.propertyNotFound)) }
      guard let member = members.first(where: { $0.key == first }) else {
        let known = keys?.contains(String(first)) == true
        return .failure(MPVRequestError(known ? .propertyUnavailable : .propertyNotFound))
      }
      return read(member.value, metadata: false, keys: nil, rest)
    default:
      // A path into a property whose value has no parts is an error of access; below a part (the slice starts past
      // the first), a name the value has not.
      return .failure(MPVRequestError(path.startIndex == 0 ? .propertyAccess : .propertyNotFound))
    }
  }
}

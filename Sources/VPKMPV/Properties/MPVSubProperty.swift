// MPVSubProperty: mpv's paths into a property's value (`playlist/count`, `track-list/0/type`, `video-params/w`,
// `metadata/by-key/title`, `metadata/list/0/key`), read from the value as mpv 0.35 reads them.

package enum MPVSubProperty {
  /// The part of `value` (`property`'s) that `path` names (its `/`-separated parts), or mpv's error: `property not
  /// found` for a count, index or key the value does not have, `error accessing property` below a value that has no
  /// parts.
  static func read(_ value: MPVValue, of property: MPVProperty, path: String) -> Result<MPVValue, MPVRequestError> {
    read(value, metadata: property == .metadata, path.split(separator: "/", omittingEmptySubsequences: false)[...])
  }

  private static func read(_ value: MPVValue, metadata: Bool, _ path: ArraySlice<Substring>) -> Result<
    MPVValue, MPVRequestError
  > {
    guard let first = path.first else { return .success(value) }
    let rest = path.dropFirst()
    switch value {
    case .array(let elements):
      if first == "count" {
        return rest.isEmpty ? .success(.integer(elements.count)) : .failure(MPVRequestError(.propertyNotFound))
      }
      guard let index = Int(first), elements.indices.contains(index) else {
        return .failure(MPVRequestError(.propertyNotFound))
      }
      return read(elements[index], metadata: false, rest)
    case .object(let members):
      if metadata {
        // A map of tags: `by-key/KEY` or `KEY` (keys compared ignoring case, as mpv looks tags up), `list/…` as a list
        // of `{key, value}`.
        if first == "list" {
          let list = MPVValue.array(
            members.map { .object([MPVMember("key", .string($0.key)), MPVMember("value", $0.value)]) })
          return read(list, metadata: false, rest)
        }
        let key = first == "by-key" ? rest.first : first
        let after = first == "by-key" ? rest.dropFirst() : rest
        guard let key, let member = members.first(where: { $0.key.lowercased() == key.lowercased() }) else {
          return .failure(MPVRequestError(.propertyNotFound))
        }
        return read(member.value, metadata: false, after)
      }
      guard let member = members.first(where: { $0.key == first }) else {
        return .failure(MPVRequestError(.propertyNotFound))
      }
      return read(member.value, metadata: false, rest)
    default:
      return .failure(MPVRequestError(.propertyAccess))
    }
  }
}

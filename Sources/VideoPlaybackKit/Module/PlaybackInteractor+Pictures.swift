// The interactor's pictures: `snapshot` (which file, and the errors) and the picture a failed `expect frame.*` keeps
// when the session's options say where (`vpk test`). The manager converts, encodes and writes.

extension PlaybackInteractor {
  /// `snapshot [path]`: the frame on screen as a PNG. The path is named as written (relative to the session's folder);
  /// none, or a folder (`shots/`), takes the default name `<file name>-<position>.png` (`clip-12.500.png`).
  func writeSnapshot(to path: String?, id: Int, info: MediaInfo, source: SourceLine?) {
    guard info.video != nil else {
      reportError(PlaybackError(.noVideoForSnapshot), commandID: id, source: source)
      return
    }
    var named = path ?? ""
    if named.isEmpty || named.hasSuffix("/") { named += defaultSnapshotName() }
    do {
      guard var picture = try manager?.writePicture(to: resolved(named)) else {
        reportError(PlaybackError(.noFrameYet), commandID: id, source: source)
        return
      }
      picture.path = named
      emit(.snapshot(picture), answering: id)
    } catch {
      reportError(error, commandID: id, source: source)
    }
  }

  /// `<file name without extension>-<position>.png`, with characters that are awkward in file names replaced by `_`.
  func defaultSnapshotName() -> String {
    var stem = String((path ?? "vpk").split(separator: "/").last ?? "vpk")
    if let dot = stem.lastIndex(of: "."), dot > stem.startIndex { stem = String(stem[..<dot]) }
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
    let safe = String(stem.prefix(64).map { allowed.contains($0) ? $0 : "_" })
    return "\(safe.isEmpty ? "vpk" : safe)-\(NumberText.seconds(expectedPosition().seconds)).png"
  }

  /// A failed `expect frame.*` in a session that keeps pictures of failures (`vpk test`): the frame on screen as a
  /// PNG, so a tester sees what was there. Returns where it was written; nil when there is no frame or it could not be
  /// written (the check's failure is reported all the same).
  func saveFailurePicture(_ numbered: NumberedCommand) -> String? {
    guard let naming = options.failurePictures, info?.video != nil, let manager else { return nil }
    let path = naming.path(for: numbered.source, commandID: numbered.id)
    guard let picture = try? manager.writePicture(to: path) else { return nil }
    return picture.path
  }
}

// MPVCommandTranslator+Playlist: mpv's playlist commands read as mpv 0.35 reads them (`loadfile` with its flags,
// `loadlist`, `playlist-next` …), and the flags later mpv versions added to `loadfile` (`insert-next`,
// `insert-next-play`, `insert-at`, `insert-at-play`), which 0.35 refuses.

import VideoPlaybackKit

extension MPVCommandTranslator {
  /// The playlist commands vpk serves, as `command-list` names them.
  static let playlistCommandNames = [
    "loadlist", "playlist-next", "playlist-prev", "playlist-play-index", "playlist-clear", "playlist-remove",
    "playlist-move", "playlist-shuffle", "playlist-unshuffle",
  ]

  /// `loadfile <url> [<flags> [<options>]]`, and `loadfile <url> insert-at[-play] <index> [<options>]`.
  func loadFile(_ args: [MPVValue]) -> Result<MPVCommand, MPVRequestError> {
    // An empty path is taken, and fails to open, as mpv answers it.
    guard let path = args.first?.string.map(Self.localPath) else { return invalid }
    var rest = args.dropFirst()
    var mode = MPVLoadMode.replace
    if let flag = rest.first {
      guard let text = flag.string, let read = Self.loadMode(text, allowsInsert: true) else { return invalid }
      mode = read
      rest = rest.dropFirst()
      if text.hasPrefix("insert-at") {
        guard let index = rest.first.flatMap(Self.integer) else { return invalid }
        mode = .add(at: .index(index), play: text == "insert-at-play")
        rest = rest.dropFirst()
      }
    }
    guard rest.count <= 1, let options = rest.first.map(Self.perFileOptions) ?? [:] else { return invalid }
    return .success(.loadFile(path, Self.fileOptions(options), mode))
  }

  /// `loadlist <url> [<flags>]`: `replace`, `append` or `append-play`.
  func loadList(_ args: [MPVValue]) -> Result<MPVCommand, MPVRequestError> {
    guard (1...2).contains(args.count), let path = args[0].string.map(Self.localPath) else { return invalid }
    var mode = MPVLoadMode.replace
    if args.count == 2 {
      guard let text = args[1].string, let read = Self.loadMode(text, allowsInsert: false) else { return invalid }
      mode = read
    }
    return .success(.loadList(path, mode))
  }

  /// A `loadfile` or `loadlist` flag; `insert-at` and `insert-at-play` are read with their index by `loadFile`.
  private static func loadMode(_ text: String, allowsInsert: Bool) -> MPVLoadMode? {
    switch text {
    case "replace": .replace
    case "append": .add(at: .end, play: false)
    case "append-play": .add(at: .end, play: true)
    case "insert-next" where allowsInsert: .add(at: .afterCurrent, play: false)
    case "insert-next-play" where allowsInsert: .add(at: .afterCurrent, play: true)
    case "insert-at" where allowsInsert, "insert-at-play" where allowsInsert: .add(at: .index(0), play: false)
    default: nil
    }
  }

  /// The other playlist commands (`playlistCommandNames`); nil for a name that is none of them.
  func playlistCommand(_ name: String, _ args: [MPVValue]) -> Result<MPVCommand, MPVRequestError>? {
    switch name {
    case "loadlist": return loadList(args)
    case "playlist-next", "playlist-prev":
      guard args.count <= 1 else { return invalid }
      var force = false
      if let flag = args.first {
        guard let text = flag.string, text == "weak" || text == "force" else { return invalid }
        force = text == "force"
      }
      return .success(name == "playlist-next" ? .playlistNext(force: force) : .playlistPrev(force: force))
    case "playlist-play-index":
      guard args.count == 1, let index = Self.playlistIndex(args[0], allowsNone: true) else { return invalid }
      return .success(.playlistPlayIndex(index))
    case "playlist-remove":
      guard args.count == 1, let index = Self.playlistIndex(args[0], allowsNone: false) else { return invalid }
      return .success(.playlistRemove(index))
    case "playlist-move":
      guard args.count == 2, let from = Self.integer(args[0]), let to = Self.integer(args[1]) else { return invalid }
      return .success(.playlistMove(from, to))
    case "playlist-clear", "playlist-shuffle", "playlist-unshuffle":
      guard args.isEmpty else { return invalid }
      return .success(
        name == "playlist-clear" ? .playlistClear : name == "playlist-shuffle" ? .playlistShuffle : .playlistUnshuffle)
    default: return nil
    }
  }

  /// An index as mpv's integer arguments take it: a JSON integer, or text holding one.
  static func integer(_ value: MPVValue) -> Int? {
    if let integer = value.integer { return integer }
    guard let text = value.string else { return nil }
    return Int(text.drop { $0 == " " || $0 == "\t" })
  }

  /// `playlist-play-index`'s and `playlist-remove`'s argument: an index, `current`, or (`allowsNone`) `none`.
  private static func playlistIndex(_ value: MPVValue, allowsNone: Bool) -> MPVPlaylistIndex? {
    switch value.string {
    case "current": return .current
    case "none" where allowsNone: return MPVPlaylistIndex.none
    default: return integer(value).map { .index($0) }
    }
  }

  private var invalid: Result<MPVCommand, MPVRequestError> { .failure(MPVRequestError(.invalidParameter)) }
}

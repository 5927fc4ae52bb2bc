import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// mpv's playlist commands as the translator reads them (checked against Debian's mpv 0.35.1 where it serves them).
@Suite("mpv's JSON IPC: reading the playlist's commands")
struct MPVCommandTranslatorPlaylistTests {
  let translator = MPVCommandTranslator()

  private func command(_ words: String) -> Result<MPVCommand, MPVRequestError> {
    translator.translate(#"{"command": \#(words)}"#).command
  }

  @Test("loadfile's flags say where the entry goes and whether it plays; insert-at takes an index before the options")
  func loadfileFlags() {
    // Given loadfile lines with each flag, When read, Then each is its mode
    let cases: [(String, MPVLoadMode)] = [
      (#"["loadfile", "a.mp4"]"#, .replace), (#"["loadfile", "a.mp4", "replace"]"#, .replace),
      (#"["loadfile", "a.mp4", "append"]"#, .add(at: .end, play: false)),
      (#"["loadfile", "a.mp4", "append-play"]"#, .add(at: .end, play: true)),
      (#"["loadfile", "a.mp4", "insert-next"]"#, .add(at: .afterCurrent, play: false)),
      (#"["loadfile", "a.mp4", "insert-next-play"]"#, .add(at: .afterCurrent, play: true)),
      (#"["loadfile", "a.mp4", "insert-at", 2]"#, .add(at: .index(2), play: false)),
      (#"["loadfile", "a.mp4", "insert-at-play", "-1"]"#, .add(at: .index(-1), play: true)),
    ]
    for (words, mode) in cases {
      #expect(command(words) == .success(.loadFile("a.mp4", MPVFileOptions(), mode)), "\(words)")
    }
    // And the options follow the flag (or insert-at's index)
    #expect(
      command(#"["loadfile", "a.mp4", "insert-at", 0, "start=5"]"#)
        == .success(.loadFile("a.mp4", MPVFileOptions(start: .time(.seconds(5))), .add(at: .index(0), play: false))))
    // And a flag mpv does not have, insert-at without its index, or a word too many is refused
    for words in [
      #"["loadfile", "a.mp4", "prepend"]"#, #"["loadfile", "a.mp4", "insert-at"]"#,
      #"["loadfile", "a.mp4", "insert-at", "x"]"#, #"["loadfile", "a.mp4", "append", "start=1", "x"]"#,
    ] {
      #expect(command(words) == .failure(MPVRequestError(.invalidParameter)), "\(words)")
    }
  }

  @Test("loadlist, and the playlist's moves and edits with the arguments mpv takes; others refused as mpv refuses them")
  func playlistCommands() {
    // Given the playlist's commands, When read, Then each is its request
    let cases: [(String, MPVCommand)] = [
      (#"["loadlist", "l.m3u"]"#, .loadList("l.m3u", .replace)),
      (#"["loadlist", "l.m3u", "append-play"]"#, .loadList("l.m3u", .add(at: .end, play: true))),
      (#"["playlist-next"]"#, .playlistNext(force: false)),
      (#"["playlist-next", "force"]"#, .playlistNext(force: true)),
      (#"["playlist-prev", "weak"]"#, .playlistPrev(force: false)),
      (#"["playlist-play-index", 2]"#, .playlistPlayIndex(.index(2))),
      (#"["playlist-play-index", "current"]"#, .playlistPlayIndex(.current)),
      (#"["playlist-play-index", "none"]"#, .playlistPlayIndex(MPVPlaylistIndex.none)),
      (#"["playlist-remove", "1"]"#, .playlistRemove(.index(1))),
      (#"["playlist-remove", "current"]"#, .playlistRemove(.current)),
      (#"["playlist-move", 0, 3]"#, .playlistMove(0, 3)),
      (#"["playlist-clear"]"#, .playlistClear), (#"["playlist-shuffle"]"#, .playlistShuffle),
      (#"["playlist-unshuffle"]"#, .playlistUnshuffle),
    ]
    for (words, expected) in cases { #expect(command(words) == .success(expected), "\(words)") }
    for words in [
      #"["loadlist", "l.m3u", "insert-next"]"#, #"["playlist-next", "hard"]"#, #"["playlist-remove", "none"]"#,
      #"["playlist-move", 0]"#, #"["playlist-clear", 1]"#, #"["playlist-play-index"]"#,
    ] {
      #expect(command(words) == .failure(MPVRequestError(.invalidParameter)), "\(words)")
    }
    // And every one is an input command (`async` answers it in mpv's asynchronous form)
    #expect(MPVCommand.playlistClear.isInputCommand)
    #expect(MPVCommandTranslator.commandNames.contains("playlist-play-index"))
  }
}

// PlaylistText: m3u and pls lists as queue entries: which format a list is, pls's keys, numbering, titles and count,
// the paths resolved against the list's folder, URLs kept as written, and the lists that give no queue.

import Foundation
import Testing

@testable import VideoPlaybackKit

@Suite struct PlaylistTextTests {
  @Test func aPLSListIsItsFileLinesInTheOrderOfTheirNumbersWithTheirTitles() throws {
    // Given a pls list whose entries are out of order, with a gap, a title, a length and a count
    let text = """
      [playlist]
      File3=c.mp4
      Title3=The C
      File1=a.mp4
      Length1=-1
      NumberOfEntries=2
      Version=2

      """
    // When it is read in the folder /lists
    let entries = try PlaylistText.entries(text, format: .pls, folder: "/lists")
    // Then its files come by their numbers, resolved against the folder, each with the title its number gives
    #expect(entries == [.init(path: "/lists/a.mp4"), .init(path: "/lists/c.mp4", title: "The C")])
  }

  @Test func plsKeysAreCaseInsensitiveALaterOneWinsAndOtherLinesAreSkipped() throws {
    // Given a pls list with CRLF lines, a byte order mark, spaces, odd keys, comments and a title with no file
    let text =
      "\u{FEFF}[Playlist]\r\n; a comment\r\nfile1 = /abs/a.mp4\r\nFILE1=/abs/b.mp4\r\ntitle1=  B  \r\n"
      + "File0=zero.mp4\r\nFilex=x.mp4\r\nFile-2=minus.mp4\r\nFile99999999999999999999=huge.mp4\r\nTitle7=none\r\n"
      + "garbage\r\nFile2=\r\n"
    // When it is read
    let entries = try PlaylistText.entries(text, format: .pls, folder: "/lists")
    // Then only File1, the later of its two lines, is an entry, with its title trimmed; the rest name nothing
    #expect(entries == [.init(path: "/abs/b.mp4", title: "B")])
  }

  @Test func urlsStayAsWrittenAndAListInTheWorkingDirectoryKeepsItsPaths() throws {
    // Given lists naming a URL and a relative file
    let pls = "[playlist]\nFile1=http://example.com/x.mp4\nFile2=sub/a.mp4\n"
    let m3u = "#EXTM3U\n#EXTINF:1,two\nhttp://example.com/x.mp4\nsub/a.mp4\n"
    // When they are read in a folder, and in the working directory
    // Then the URL stays as written, to be refused as a single URL is; the relative path is the folder's
    for (text, format) in [(pls, PlaylistText.Format.pls), (m3u, .m3u)] {
      #expect(
        try PlaylistText.entries(text, format: format, folder: "/lists").map(\.path) == [
          "http://example.com/x.mp4", "/lists/sub/a.mp4",
        ])
      #expect(try PlaylistText.entries(text, format: format, folder: "").map(\.path).last == "sub/a.mp4")
    }
  }

  @Test func anEXTINFLineGivesTheTitleOfTheM3UEntryThatFollowsIt() throws {
    // Given an extended m3u list whose first two entries have titles, the third none, and a control character's line
    let m3u = "#EXTM3U\n#EXTINF:123,Pilot\nep1.mp4\n#extinf:-1, The Return \nep2.mp4\nep3.mp4\nbad\u{1B}line\n"
    // When it is read
    let entries = try PlaylistText.entries(m3u, format: .m3u, folder: "")
    // Then each title goes with the entry after it, and the control character's line names nothing
    #expect(
      entries == [
        .init(path: "ep1.mp4", title: "Pilot"), .init(path: "ep2.mp4", title: "The Return"), .init(path: "ep3.mp4"),
      ])
  }

  @Test func theFormatIsThePLSNameOrHeaderElseM3U() {
    #expect(PlaylistText.format(name: "/x/list.PLS", text: "") == .pls)
    #expect(PlaylistText.format(name: "/x/list.txt", text: "\n  [playlist]\nFile1=a.mp4\n") == .pls)
    #expect(PlaylistText.format(name: "/x/list.m3u", text: "#EXTM3U\na.mp4\n") == .m3u)
    #expect(PlaylistText.format(name: "/x/list", text: "a.mp4\n") == .m3u)
  }

  @Test func aListThatNamesNoFileOrAPLSWithoutItsHeaderIsRefusedWithWhatToDo() {
    #expect(throws: PlaylistText.Problem.noEntries) {
      try PlaylistText.entries("[playlist]\nNumberOfEntries=2\nTitle1=a\n", format: .pls, folder: "")
    }
    #expect(throws: PlaylistText.Problem.noEntries) {
      try PlaylistText.entries("#EXTM3U\n\n# nothing\n", format: .m3u, folder: "")
    }
    #expect(throws: PlaylistText.Problem.noPLSHeader) {
      try PlaylistText.entries("File1=a.mp4\n", format: .pls, folder: "")
    }
    #expect(PlaylistText.Problem.noPLSHeader.message(path: "x.pls").contains("[playlist]"))
  }

  @Test func aQueueEntryNamesAListByItsNameAndAnHLSStreamIsNotReadAsOne() throws {
    // Given list names, a URL, and three files: a plain m3u8 list, an HLS media playlist and a list naming nothing
    #expect(PlaylistText.namesList("a/B.M3U") && PlaylistText.namesList("x.m3u8") && PlaylistText.namesList("y.pls"))
    #expect(!PlaylistText.namesList("http://host/x.m3u8") && !PlaylistText.namesList("clip.mp4"))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-lists-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = folder.appendingPathComponent("plain.m3u8").path
    let hls = folder.appendingPathComponent("stream.m3u8").path
    let empty = folder.appendingPathComponent("empty.m3u").path
    try "#EXTM3U\n#EXTINF:5,One\none.mp4\n".write(toFile: plain, atomically: true, encoding: .utf8)
    try "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg0.ts\n#EXT-X-ENDLIST\n".write(
      toFile: hls, atomically: true, encoding: .utf8)
    try "#EXTM3U\n".write(toFile: empty, atomically: true, encoding: .utf8)
    // Then the plain list gives its file, with its title; the HLS stream, the list naming nothing and a missing file
    // give none (each opens as a file instead)
    #expect(
      PlaylistText.entriesOfListEntry(plain)
        == [PlaylistText.Entry(path: folder.appendingPathComponent("one.mp4").path, title: "One")])
    #expect(PlaylistText.entriesOfListEntry(hls) == nil)
    #expect(PlaylistText.entriesOfListEntry(empty) == nil)
    #expect(PlaylistText.entriesOfListEntry(folder.appendingPathComponent("missing.pls").path) == nil)
    // And `--playlist` still reads an HLS file's lines as it did
    #expect(try PlaylistText.entries(ofFile: hls).map(\.path) == [folder.appendingPathComponent("seg0.ts").path])
  }
}

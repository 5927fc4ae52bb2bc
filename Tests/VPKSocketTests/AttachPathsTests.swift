// What `vpk attach` sends for a line that names a file: a relative path made absolute from attach's folder.

import Testing

@testable import VPKSocket

@Suite struct AttachPathsTests {
  @Test(arguments: [
    ("open clip.mp4", #"open "/home/me/clip.mp4""#),
    ("  open ./a b.mp4 # note", #"open "/home/me/a b.mp4""#),
    (#"open "say \"hi\".mp4""#, #"open "/home/me/say \"hi\".mp4""#),
    ("snapshot shots/one.png", #"snapshot "/home/me/shots/one.png""#),
  ])
  func aRelativePathIsMadeAbsolute(line: String, sent: String) {
    // Given attach run in /home/me, When a line names a file by a relative path, Then it is sent absolute, quoted
    #expect(AttachPaths.resolvingRelativePaths(in: line, from: "/home/me") == sent)
  }

  @Test(arguments: [
    "open /abs/clip.mp4", "open https://example.invalid/a.mp4", "snapshot", "status", "opener", "open",
    #"{"command":"open","args":["clip.mp4"]}"#,
  ])
  func everyOtherLineGoesAsItIs(line: String) {
    #expect(AttachPaths.resolvingRelativePaths(in: line, from: "/home/me") == line)
  }

  @Test func piecesOfInputAreSentByWholeLines() {
    // Given input that comes in pieces that cut lines
    var input = AttachInputLines(directory: "/d")
    // When the pieces come, Then each line goes once it is whole, its path resolved; the rest waits
    #expect(input.take(Array("stat".utf8)[...]).isEmpty)
    #expect(
      String(decoding: input.take(Array("us\nopen a.mp4\nsc".utf8)[...]), as: UTF8.self)
        == "status\nopen \"/d/a.mp4\"\n")
    // and a last line without its newline is ended at the end of the input
    #expect(String(decoding: input.finish(), as: UTF8.self) == "sc\n")
  }

  @Test func aLineTooLongToHoldPassesAsItComes() {
    // Given a line longer than attach holds
    var input = AttachInputLines(directory: "/d")
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: AttachInputLines.maxHeldBytes + 1)
    // When it comes in pieces, Then it is passed on as it comes, and the line after it is read as a line again
    #expect(input.take(long[...]).count == long.count)
    #expect(
      String(decoding: input.take(Array("xx\nopen a.mp4\n".utf8)[...]), as: UTF8.self) == "xx\nopen \"/d/a.mp4\"\n")
    #expect(input.finish().isEmpty)
  }
}

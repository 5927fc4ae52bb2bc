// The control socket's line framing, on NIO's EmbeddedChannel: the same lines and limits as standard input.

import NIOCore
import NIOEmbedded
import Testing
import VideoPlaybackKit

@testable import VPKSocket

@Suite struct CommandLineDecoderTests {
  private func decode(_ chunks: [[UInt8]], maxLineBytes: Int = 16, close: Bool = false) throws -> [InputLine] {
    let channel = EmbeddedChannel(handler: ByteToMessageHandler(CommandLineDecoder(maxLineBytes: maxLineBytes)))
    for chunk in chunks { try channel.writeInbound(ByteBuffer(bytes: chunk)) }
    if close { _ = try? channel.finish() }
    var lines: [InputLine] = []
    while let line: InputLine = try channel.readInbound() { lines.append(line) }
    return lines
  }

  @Test func linesSplitAcrossReadsComeOutWhole() throws {
    let lines = try decode([Array("sta".utf8), Array("tus\r\npla".utf8), Array("y\n".utf8)])
    #expect(lines == [.text("status"), .text("play")])
  }

  @Test func aLineOverTheLimitIsReportedWithItsLengthAndTheNextOneIsFine() throws {
    let lines = try decode([Array(repeating: UInt8(ascii: "x"), count: 40) + Array("\nhelp\n".utf8)])
    #expect(lines == [.tooLong(byteCount: 40), .text("help")])
  }

  @Test func bytesThatAreNotUTF8AreReported() throws {
    let lines = try decode([[0xFF, 0xFE, 0x0A] + Array("quit\n".utf8)])
    #expect(lines == [.invalidUTF8, .text("quit")])
  }

  @Test func aLastLineWithoutANewlineCountsWhenTheClientCloses() throws {
    let lines = try decode([Array("status\nquit".utf8)], close: true)
    #expect(lines == [.text("status"), .text("quit")])
  }
}

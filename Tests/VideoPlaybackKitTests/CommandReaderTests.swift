import Foundation
import Testing

@testable import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - LineSplitter

@Suite struct LineSplitterTests {
  /// Feeds `chunks` one after another, then finishes.
  func split(_ chunks: [[UInt8]], maxLineBytes: Int = 65_536) -> [InputLine] {
    var splitter = LineSplitter(maxLineBytes: maxLineBytes)
    var lines: [InputLine] = []
    for chunk in chunks { lines += splitter.feed(chunk) }
    return lines + splitter.finish()
  }

  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// Input that exercises every rule at once, with a limit of 8 bytes: CRLF, an empty line, a line
  /// of exactly the limit (plus CR), over-long lines with and without CR, invalid UTF-8 and NUL,
  /// multi-byte characters, and a last line without `\n`.
  static let mixedInput: [UInt8] =
    Array("play\r\n\nskip +5\n01234567\r\n0123456789\r\n012345678\n".utf8) + [0xFF, 0x0A]
    + Array("é😀\n".utf8) + [0x61, 0x00, 0x62, 0x0A] + Array("last\r".utf8)
  static let mixedLines: [InputLine] = [
    .text("play"), .text(""), .text("skip +5"), .text("01234567"), .tooLong(byteCount: 10),
    .tooLong(byteCount: 9),
    .invalidUTF8, .text("é😀"), .invalidUTF8, .text("last"),
  ]

  @Test func splitsLinesAndAppliesEveryRule() {
    // Given the mixed input in one chunk, When split, Then each line comes out as the rules say.
    #expect(split([Self.mixedInput], maxLineBytes: 8) == Self.mixedLines)
  }

  @Test func chunkBoundariesNeverMatter() {
    // Given the mixed input cut into two or three chunks at every possible pair of places,
    // When split, Then the lines are always the same.
    let input = Self.mixedInput
    for first in 0...input.count {
      #expect(
        split([Array(input[..<first]), Array(input[first...])], maxLineBytes: 8) == Self.mixedLines)
      for second in first...input.count {
        let chunks = [
          Array(input[..<first]), Array(input[first..<second]), Array(input[second...]),
        ]
        let lines = split(chunks, maxLineBytes: 8)
        if lines != Self.mixedLines {
          Issue.record("cut at \(first) and \(second): \(lines)")
          return
        }
      }
    }
  }

  @Test func byteAtATimeGivesTheSameLines() {
    #expect(split(Self.mixedInput.map { [$0] }, maxLineBytes: 8) == Self.mixedLines)
  }

  @Test func crlfLinesLoseTheirCR() {
    // Given CRLF line ends, When split, Then the CRs are gone; only one CR is removed.
    #expect(split([bytes("play\r\npause\r\n")]) == [.text("play"), .text("pause")])
    #expect(split([bytes("a\r\r\n")]) == [.text("a\r")])
    #expect(split([bytes("a\rb\n")]) == [.text("a\rb")])
  }

  @Test func lastLineWithoutNewlineIsStillALine() {
    #expect(split([bytes("play\nquit")]) == [.text("play"), .text("quit")])
    #expect(split([bytes("play\n")]) == [.text("play")])
    #expect(split([]) == [])
    #expect(split([bytes("\n")]) == [.text("")])
  }

  @Test func finishResetsTheSplitter() {
    // Given a finished splitter, When fed again, Then it starts a fresh line.
    var splitter = LineSplitter(maxLineBytes: 4)
    #expect(splitter.feed(bytes("toolong")) == [])
    #expect(splitter.finish() == [.tooLong(byteCount: 7)])
    #expect(splitter.finish() == [])
    #expect(splitter.feed(bytes("ok\n")) == [.text("ok")])
  }

  @Test func overLongLineThenAGoodLine() {
    // Given a line over the limit followed by a good one, When split, Then the long line is
    // reported with its full length and the next line is intact.
    let long = String(repeating: "x", count: 100)
    #expect(
      split([bytes(long + "\nplay\n")], maxLineBytes: 10) == [
        .tooLong(byteCount: 100), .text("play"),
      ])
  }

  @Test func invalidUTF8ThenValid() {
    // Given ill-formed UTF-8 of each kind, When split, Then those lines are invalid and the lines
    // after them are intact (nothing is repaired).
    let invalid: [[UInt8]] = [
      [0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
      [0xE2, 0x82],
      [0x80], [0x70, 0x6C, 0x61, 0x79, 0xC3],
    ]
    for sequence in invalid {
      #expect(
        split([sequence + [0x0A] + bytes("play\n")]) == [.invalidUTF8, .text("play")], "\(sequence)"
      )
    }
    // A truncated sequence at the very end is invalid too.
    #expect(split([bytes("ok\n") + [0xE2, 0x82]]) == [.text("ok"), .invalidUTF8])
  }

  @Test func nulByteMakesTheLineInvalid() {
    #expect(split([bytes("play") + [0] + bytes("\nplay\n")]) == [.invalidUTF8, .text("play")])
  }

  @Test func megabyteLine() {
    // Given a 1 MB line, When split with the default limit, Then it is too long with its full size;
    // When split with a larger limit, Then it is a line.
    let line = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
    let chunks = stride(from: 0, to: line.count, by: 65_536).map { Array(line[$0..<$0 + 65_536]) }
    #expect(split(chunks + [[0x0A]]) == [.tooLong(byteCount: 1 << 20)])
    #expect(
      split(chunks + [bytes("\r\n")], maxLineBytes: 2 << 20) == [
        .text(String(repeating: "a", count: 1 << 20))
      ])
  }

  @Test func hugeLineIsCountedWithoutBeingKept() {
    // Given a 64 MB line fed in 64 KB chunks with a 1 KB limit, When split, Then it is counted
    // exactly (the splitter keeps only the limit's worth of it) and the next line is intact.
    var splitter = LineSplitter(maxLineBytes: 1024)
    let chunk = [UInt8](repeating: UInt8(ascii: "z"), count: 65_536)
    for _ in 0..<1024 { #expect(splitter.feed(chunk).isEmpty) }
    #expect(splitter.feed(bytes("\r\nplay\n")) == [.tooLong(byteCount: 64 << 20), .text("play")])
  }

  @Test func hugeLimitDoesNotOverflow() {
    // Given the largest possible limit, When lines are split, Then nothing overflows.
    var splitter = LineSplitter(maxLineBytes: .max)
    #expect(splitter.feed(bytes("play\nquit")) == [.text("play")])
    #expect(splitter.finish() == [.text("quit")])
  }

  @Test func nonContiguousInputIsSplitToo() {
    // Given bytes in a collection with no contiguous storage, When fed, Then lines are the same.
    var splitter = LineSplitter(maxLineBytes: 8)
    let lines = splitter.feed(Self.mixedInput.lazy.map { $0 }) + splitter.finish()
    #expect(lines == Self.mixedLines)
  }
}

// MARK: - CommandReader over a pipe

/// A pipe whose write end the test drives.
private struct TestPipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws {
    var fds: [Int32] = [0, 0]
    try #require(pipe(&fds) == 0)
    readEnd = fds[0]
    writeEnd = fds[1]
  }

  /// Writes all of `bytes` (blocking while the pipe is full).
  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      precondition(count > 0, "write failed")
      offset += count
    }
  }

  func send(_ text: String) { send(Array(text.utf8)) }
  func closeWriteEnd() { close(writeEnd) }
  func closeReadEnd() { close(readEnd) }
}

/// Records what the reader forwards, in order.
@MainActor
private final class ViewEventHandlerSpy: PlaybackViewEventHandler {
  var events: [String] = []
  var lines: [InputLine] = []

  func onStart() { events.append("start") }
  func onInputLine(_ line: InputLine) {
    lines.append(line)
    events.append("line")
  }
  func onInputEnded() { events.append("ended") }
  func onSignal(_ signal: TerminationSignal) { events.append("signal \(signal.rawValue)") }
  func onOutputClosed() { events.append("output closed") }
}

// The time limit only catches a reader that hangs. It is generous: with the whole suite in parallel on two cores,
// the tests that block while they wait for a process hold the cooperative threads, and the 10,000 resumptions of
// the burst test below once took over a minute to get a thread.
@Suite(.timeLimit(.minutes(10))) struct CommandReaderTests {
  func collect(_ reader: CommandReader) async -> [InputLine] {
    var lines: [InputLine] = []
    for await line in reader.lines() { lines.append(line) }
    return lines
  }

  @Test func readsLinesInOrderAndFinishesAtEndOfInput() async throws {
    // Given a pipe holding some lines and then closed, When read, Then every line arrives in order
    // (the last one without `\n` too) and the stream finishes.
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    pipe.send("play\r\nscrub 1:30\n\n")
    pipe.send([0xFF, 0x0A])
    pipe.send("quit")
    pipe.closeWriteEnd()
    let reader = CommandReader(fileDescriptor: pipe.readEnd)
    #expect(
      await collect(reader) == [
        .text("play"), .text("scrub 1:30"), .text(""), .invalidUTF8, .text("quit"),
      ])
  }

  @Test func emptyInputFinishesAtOnce() async throws {
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    pipe.closeWriteEnd()
    #expect(await collect(CommandReader(fileDescriptor: pipe.readEnd)) == [])
  }

  @Test func readErrorCountsAsEndOfInput() async throws {
    // Given a descriptor that is not open (EBADF), When read, Then the stream just finishes.
    #expect(await collect(CommandReader(fileDescriptor: -1)) == [])
  }

  @Test func linesCanBeTakenOnlyOnce() async throws {
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    pipe.send("play\n")
    pipe.closeWriteEnd()
    let reader = CommandReader(fileDescriptor: pipe.readEnd)
    let first = reader.lines()
    // Given a reader whose lines were already taken, When asked again, Then that stream is empty.
    var second: [InputLine] = []
    for await line in reader.lines() { second.append(line) }
    #expect(second == [])
    var all: [InputLine] = []
    for await line in first { all.append(line) }
    #expect(all == [.text("play")])
  }

  @Test func burstOfTenThousandLinesArrivesInOrder() async throws {
    // Given 10,000 lines written by another thread faster than they are consumed (more than the
    // pipe and the reader's queue hold), When read, Then all arrive, in order.
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    let writer = Thread { [pipe] in
      var text = ""
      for index in 1...10_000 { text += "skip +\(index)\n" }
      pipe.send(text)
      pipe.closeWriteEnd()
    }
    writer.start()
    var count = 0
    var inOrder = true
    for await line in CommandReader(fileDescriptor: pipe.readEnd).lines() {
      count += 1
      if line != .text("skip +\(count)") { inOrder = false }
      if count % 1000 == 0 { try await Task.sleep(for: .milliseconds(1)) }
    }
    #expect(count == 10_000)
    #expect(inOrder)
  }

  @Test func nonBlockingDescriptorIsWaitedOnNotSpunOn() async throws {
    // Given a non-blocking pipe that gets its input later, When read, Then the lines still arrive.
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    let flags = fcntl(pipe.readEnd, F_GETFL)
    try #require(fcntl(pipe.readEnd, F_SETFL, flags | O_NONBLOCK) == 0)
    let writer = Thread { [pipe] in
      usleep(50_000)
      pipe.send("pause\n")
      usleep(50_000)
      pipe.send("status\n")
      pipe.closeWriteEnd()
    }
    writer.start()
    #expect(
      await collect(CommandReader(fileDescriptor: pipe.readEnd)) == [
        .text("pause"), .text("status"),
      ])
  }

  @Test func overLongLineOverThePipe() async throws {
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    let writer = Thread { [pipe] in
      pipe.send([UInt8](repeating: UInt8(ascii: "x"), count: 300_000) + [0x0A])
      pipe.send("play\n")
      pipe.closeWriteEnd()
    }
    writer.start()
    let lines = await collect(CommandReader(fileDescriptor: pipe.readEnd, maxLineBytes: 1000))
    #expect(lines == [.tooLong(byteCount: 300_000), .text("play")])
  }

  @Test func droppedStreamDoesNotBufferInputWithoutBound() async throws {
    // Given a reader whose stream was taken and dropped, When input keeps coming, Then the reader
    // stops taking it: the pipe fills up instead of the reader buffering without bound.
    let pipe = try TestPipe()
    // The read end stays open (see cancellingTheRunStopsWithoutReportingTheEnd).
    defer { pipe.closeWriteEnd() }
    do {
      let reader = CommandReader(fileDescriptor: pipe.readEnd)
      _ = reader.lines()
    }
    let flags = fcntl(pipe.writeEnd, F_GETFL)
    try #require(fcntl(pipe.writeEnd, F_SETFL, flags | O_NONBLOCK) == 0)
    let line = Array("status\n".utf8)
    var written = 0
    var full = false
    while !full && written < 16 << 20 {
      let count = line.withUnsafeBytes { write(pipe.writeEnd, $0.baseAddress, $0.count) }
      if count > 0 {
        written += count
      } else if errno == EAGAIN {
        // Full. Give a reader that is still running the chance to drain it, then look again.
        try await Task.sleep(for: .milliseconds(20))
        full = line.withUnsafeBytes { write(pipe.writeEnd, $0.baseAddress, $0.count) } < 0
      }
    }
    #expect(full)
    #expect(written < 1 << 20)
  }

  @Test @MainActor func runForwardsEveryLineThenTheEndOnce() async throws {
    // Given a spy handler and a pipe with three lines, When the reader runs, Then the spy gets the
    // lines in order and then exactly one end of input.
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    pipe.send("play\nskip +10\nquit\n")
    pipe.closeWriteEnd()
    let spy = ViewEventHandlerSpy()
    await CommandReader(fileDescriptor: pipe.readEnd).run(forwardingTo: spy)
    #expect(spy.lines == [.text("play"), .text("skip +10"), .text("quit")])
    #expect(spy.events == ["line", "line", "line", "ended"])
  }

  @Test @MainActor func runWaitsForInputThatComesLater() async throws {
    // Given input that arrives while the reader is waiting, When it runs, Then the lines come as
    // they arrive and the end only after the pipe closes.
    let pipe = try TestPipe()
    defer { pipe.closeReadEnd() }
    let spy = ViewEventHandlerSpy()
    let reader = CommandReader(fileDescriptor: pipe.readEnd)
    let running = Task { @MainActor in await reader.run(forwardingTo: spy) }
    pipe.send("play\n")
    while spy.lines.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    #expect(spy.events == ["line"])
    pipe.send("pause\n")
    pipe.closeWriteEnd()
    await running.value
    #expect(spy.events == ["line", "line", "ended"])
  }

  @Test @MainActor func cancellingTheRunStopsWithoutReportingTheEnd() async throws {
    // Given a running reader on a pipe that stays open, When its task is cancelled, Then the run
    // returns and does not claim the input ended.
    let pipe = try TestPipe()
    // The read end stays open: the reading thread may still be about to read it, and a closed
    // descriptor number could be reused by a test running in parallel.
    defer { pipe.closeWriteEnd() }
    let spy = ViewEventHandlerSpy()
    let reader = CommandReader(fileDescriptor: pipe.readEnd)
    let running = Task { @MainActor in await reader.run(forwardingTo: spy) }
    pipe.send("play\n")
    while spy.lines.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
    running.cancel()
    await running.value
    #expect(spy.events == ["line"])
  }
}

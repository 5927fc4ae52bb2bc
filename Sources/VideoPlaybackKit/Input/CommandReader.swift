// CommandReader: the view's input side. Reads standard input (or any file descriptor) on a thread
// of its own with blocking read(2), splits it into lines, and hands them to the presenter in order.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines from a file descriptor (standard input by default) and forwards them in order.
///
/// A dedicated thread (not Swift's cooperative pool) blocks in `read(2)`, so reading costs nothing
/// while no input arrives. `EINTR` is retried; on a non-blocking descriptor it waits in `poll(2)`;
/// any other read error (`EBADF`, `EIO` …) counts as the end of input. The thread hands lines over
/// through a queue of at most `queueCapacity` lines and stops reading while the queue is full, so a
/// burst of input costs bounded memory (lines are at most `maxLineBytes` each).
package final class CommandReader: Sendable {
  /// How many lines may wait for the consumer before the reading thread pauses.
  package static let queueCapacity = 256
  /// How many bytes one `read(2)` asks for.
  static let readSize = 16_384

  private let fileDescriptor: Int32
  private let maxLineBytes: Int
  private let channel: LineChannel
  /// Set when vpk edits lines itself because the input is a terminal.
  private let terminalMode: TerminalMode?
  private let history: CommandHistory?

  /// - Parameter editsTerminal: when true and the input is a terminal, the terminal's echo and line
  ///   editing are turned off at once and vpk edits the line itself (see `TerminalLineEditor`),
  ///   reporting what is typed to the `onTyped` given when reading starts. Call `restoreTerminal()`
  ///   before leaving.
  /// - Parameter history: where the lines typed at a terminal are kept between sessions (nil: nowhere).
  package init(
    fileDescriptor: Int32 = 0, maxLineBytes: Int = 65_536, editsTerminal: Bool = false,
    history: CommandHistory? = nil
  ) {
    self.fileDescriptor = fileDescriptor
    self.history = history
    self.maxLineBytes = maxLineBytes
    self.channel = LineChannel(capacity: Self.queueCapacity)
    self.terminalMode = editsTerminal ? TerminalMode(fileDescriptor: fileDescriptor) : nil
  }

  /// Whether vpk edits the input line itself (`editsTerminal` was asked for and the input is a terminal).
  package var editsTerminalInput: Bool { terminalMode != nil }

  /// Puts the terminal's settings back as they were (no effect when they were not changed).
  package func restoreTerminal() {
    terminalMode?.restore()
  }

  /// Puts vpk's own terminal settings back, after the process was stopped and continued (`fg`).
  package func reapplyTerminal() {
    terminalMode?.reapply()
  }

  /// The lines of the input, in order; the stream finishes at the end of input. Reading starts with
  /// the first call. Call it once: later calls return a stream that is already finished.
  /// If the consumer stops (its task is cancelled, or it drops the stream), the reading thread
  /// stops after its current `read(2)` returns.
  /// - Parameter onTyped: while vpk edits a terminal's line, what is typed (called on the reading thread).
  package func lines(onTyped: (@Sendable (TypedInput) -> Void)? = nil) -> AsyncStream<InputLine> {
    guard channel.claim() else { return AsyncStream { $0.finish() } }
    let channel = self.channel
    let fileDescriptor = self.fileDescriptor
    let maxLineBytes = self.maxLineBytes
    let editsTerminal = terminalMode != nil
    let history = self.history
    let thread = Thread {
      if editsTerminal {
        Self.editLoop(
          fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes, history: history, onTyped: onTyped,
          into: channel)
      } else {
        Self.readLoop(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes, into: channel)
      }
    }
    thread.name = "vpk.input"
    thread.start()
    // The token lives as long as the stream: when the stream is dropped, the reader stops.
    let token = ConsumerToken(channel: channel)
    return AsyncStream(
      unfolding: { await token.channel.receive() }, onCancel: { token.channel.cancel() })
  }

  /// Forwards every line to `handler`, in order, then tells it the input ended (once). If the
  /// calling task is cancelled first, it stops forwarding and does not report the end of input.
  /// `echo` sees each line just before the handler does (a terminal view shows what was typed), and
  /// `onTyped` what is being typed (see `lines(onTyped:)`).
  @MainActor
  package func run(
    forwardingTo handler: any PlaybackViewEventHandler, echo: (@MainActor (InputLine) -> Void)? = nil,
    onTyped: (@Sendable (TypedInput) -> Void)? = nil
  ) async {
    for await line in lines(onTyped: onTyped) {
      echo?(line)
      handler.onInputLine(line)
    }
    if !Task.isCancelled {
      handler.onInputEnded()
    }
  }

  /// The reading thread's body.
  private static func readLoop(fileDescriptor: Int32, maxLineBytes: Int, into channel: LineChannel) {
    var splitter = LineSplitter(maxLineBytes: maxLineBytes)
    var buffer = [UInt8](repeating: 0, count: readSize)
    while !channel.isCancelled {
      let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        guard channel.send(splitter.feed(buffer[0..<count])) else { break }
        continue
      }
      if count < 0 {
        let error = errno
        if error == EINTR { continue }
        if (error == EAGAIN || error == EWOULDBLOCK) && waitUntilReadable(fileDescriptor) {
          continue
        }
      }
      // End of input, or a read error, which ends the input too; a last line without `\n` still counts.
      _ = channel.send(splitter.finish())
      break
    }
    channel.finish()
  }

  /// The reading thread's body when vpk edits a terminal's lines itself.
  private static func editLoop(
    fileDescriptor: Int32, maxLineBytes: Int, history: CommandHistory?, onTyped: (@Sendable (TypedInput) -> Void)?,
    into channel: LineChannel
  ) {
    var editor = TerminalLineEditor(maxLineBytes: maxLineBytes, history: history?.load() ?? [])
    var lastKept = editor.history.last
    // However the input ends, the view stops showing a prompt nobody reads.
    defer { onTyped?(.closed) }
    var buffer = [UInt8](repeating: 0, count: 256)
    reading: while !channel.isCancelled {
      let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      for output in editor.feed(buffer[0..<count]) {
        switch output {
        case .line(let line):
          // Each line the editor keeps goes to the file as it is entered (a repeat of the last one is not kept).
          if case .text(let text) = line, let history, editor.history.last == text, text != lastKept {
            history.append(text)
            lastKept = text
          }
          guard channel.send(line) else { break reading }
        case .typed(let typed): onTyped?(typed)
        case .endOfInput: break reading
        }
      }
    }
    channel.finish()
  }

  /// Blocks until a non-blocking descriptor has input (or has hung up). False if it cannot wait.
  private static func waitUntilReadable(_ fileDescriptor: Int32) -> Bool {
    var request = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let result = poll(&request, 1, -1)
      if result >= 0 { return true }
      if errno != EINTR { return false }
    }
  }
}

/// Keeps the channel open while the stream that reads it exists; cancels it when the stream goes.
private final class ConsumerToken: Sendable {
  let channel: LineChannel
  init(channel: LineChannel) { self.channel = channel }
  deinit { channel.cancel() }
}

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

// MARK: - Line splitting

/// Splits a byte stream into lines. Pure: it owns no file and no thread, so tests feed it bytes in
/// any chunking they like.
///
/// - Lines end at `\n`; one `\r` before it (or before the end of input) is dropped.
/// - A last line without `\n` is still a line (it comes out of `finish()`).
/// - A line longer than `maxLineBytes` (not counting its `\n` or dropped `\r`) comes out as
///   `.tooLong(byteCount:)` with its full length; only `maxLineBytes + 1` of its bytes are ever
///   held, so a line of any size costs O(limit) memory.
/// - A line that is not strictly valid UTF-8 (overlong forms, surrogates, truncated sequences,
///   bytes above U+10FFFF) comes out as `.invalidUTF8`; nothing is repaired.
/// - A line holding a NUL byte is reported as `.invalidUTF8` too: NUL is valid UTF-8 but never part
///   of a command, and passing it on would let a C-string consumer see a different line than the
///   parser did.
public struct LineSplitter: Sendable {
  public let maxLineBytes: Int
  /// The current line's bytes while it is within the limit (at most `maxLineBytes + 1` of them,
  /// the extra one being a possible `\r`).
  private var buffer: [UInt8] = []
  /// Set once the current line has outgrown the limit: its length so far; its bytes are dropped.
  private var overflowLength: Int?
  /// Whether the dropped line's last byte so far is `\r`.
  private var overflowEndsWithCR = false

  public init(maxLineBytes: Int = 65_536) {
    self.maxLineBytes = max(0, maxLineBytes)
  }

  /// Takes the next bytes of input and returns the lines they complete, in order.
  public mutating func feed(_ bytes: some Collection<UInt8>) -> [InputLine] {
    var lines: [InputLine] = []
    let contiguous: Void? = bytes.withContiguousStorageIfAvailable { append($0, to: &lines) }
    if contiguous == nil {
      // Not contiguous (rare): copy through a small buffer, so memory stays bounded.
      var chunk: [UInt8] = []
      chunk.reserveCapacity(16_384)
      for byte in bytes {
        chunk.append(byte)
        if chunk.count == 16_384 {
          chunk.withUnsafeBufferPointer { append($0, to: &lines) }
          chunk.removeAll(keepingCapacity: true)
        }
      }
      chunk.withUnsafeBufferPointer { append($0, to: &lines) }
    }
    return lines
  }

  /// The input has ended: returns the last line if it had no `\n`, and resets the splitter.
  public mutating func finish() -> [InputLine] {
    guard !buffer.isEmpty || overflowLength != nil else { return [] }
    return [endLine()]
  }

  private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, to lines: inout [InputLine]) {
    guard let base = bytes.baseAddress else { return }
    var start = 0
    // memchr, not a byte loop: a long line is scanned at memory speed.
    while start < bytes.count,
      let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
    {
      let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      take(bytes[start..<newline])
      lines.append(endLine())
      start = newline + 1
    }
    take(bytes[start...])
  }

  /// Adds part of the current line, dropping bytes beyond the limit.
  private mutating func take(_ part: Slice<UnsafeBufferPointer<UInt8>>) {
    guard let last = part.last else { return }
    if let length = overflowLength {
      overflowLength = Self.saturatingAdd(length, part.count)
      overflowEndsWithCR = last == UInt8(ascii: "\r")
      return
    }
    let count = part.count
    // Keeps at most maxLineBytes + 1 bytes (written so that no limit, however large, overflows).
    if count - 1 <= maxLineBytes - buffer.count {
      buffer.append(contentsOf: part)
    } else {
      overflowLength = Self.saturatingAdd(buffer.count, count)
      overflowEndsWithCR = last == UInt8(ascii: "\r")
      buffer.removeAll(keepingCapacity: true)
    }
  }

  /// Ends the current line and says what it was.
  private mutating func endLine() -> InputLine {
    defer {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
      overflowLength = nil
      overflowEndsWithCR = false
    }
    if let length = overflowLength {
      return .tooLong(byteCount: overflowEndsWithCR ? length - 1 : length)
    }
    var line = buffer[...]
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if line.count > maxLineBytes { return .tooLong(byteCount: line.count) }
    return Self.decode(line)
  }

  /// Strict UTF-8 validation: the standard library's decoder reports every ill-formed sequence.
  static func decode(_ bytes: ArraySlice<UInt8>) -> InputLine {
    if bytes.contains(0) { return .invalidUTF8 }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: break loop
      case .error: return .invalidUTF8
      }
    }
    return .text(String(decoding: bytes, as: UTF8.self))
  }

  static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
  }
}

// MARK: - Reader

/// Reads lines from a file descriptor (standard input by default) and forwards them in order.
///
/// A dedicated thread (not Swift's cooperative pool) blocks in `read(2)`, so reading costs nothing
/// while no input arrives. `EINTR` is retried; on a non-blocking descriptor it waits in `poll(2)`;
/// any other read error (`EBADF`, `EIO` …) counts as the end of input. The thread hands lines over
/// through a queue of at most `queueCapacity` lines and stops reading while the queue is full, so a
/// burst of input costs bounded memory (lines are at most `maxLineBytes` each).
public final class CommandReader: Sendable {
  /// How many lines may wait for the consumer before the reading thread pauses.
  public static let queueCapacity = 256
  /// How many bytes one `read(2)` asks for.
  static let readSize = 16_384

  private let fileDescriptor: Int32
  private let maxLineBytes: Int
  private let channel: LineChannel
  /// Set when vpk edits lines itself because the input is a terminal.
  private let terminalMode: TerminalMode?
  private let onTyped: (@Sendable (TypedInput) -> Void)?

  /// - Parameter onTyped: when given and the input is a terminal, the terminal's echo and line
  ///   editing are turned off and vpk edits the line itself (see `TerminalLineEditor`), reporting
  ///   what is typed here so the view can show it. Call `restoreTerminal()` before leaving.
  public init(
    fileDescriptor: Int32 = 0, maxLineBytes: Int = 65_536, onTyped: (@Sendable (TypedInput) -> Void)? = nil
  ) {
    self.fileDescriptor = fileDescriptor
    self.maxLineBytes = maxLineBytes
    self.channel = LineChannel(capacity: Self.queueCapacity)
    self.terminalMode = onTyped == nil ? nil : TerminalMode(fileDescriptor: fileDescriptor)
    self.onTyped = terminalMode == nil ? nil : onTyped
  }

  /// Whether vpk edits the input line itself (the input is a terminal and `onTyped` was given).
  public var editsTerminalInput: Bool { terminalMode != nil }

  /// Puts the terminal's settings back as they were (no effect when they were not changed).
  public func restoreTerminal() {
    terminalMode?.restore()
  }

  /// The lines of the input, in order; the stream finishes at the end of input. Reading starts with
  /// the first call. Call it once: later calls return a stream that is already finished.
  /// If the consumer stops (its task is cancelled, or it drops the stream), the reading thread
  /// stops after its current `read(2)` returns.
  public func lines() -> AsyncStream<InputLine> {
    guard channel.claim() else { return AsyncStream { $0.finish() } }
    let channel = self.channel
    let fileDescriptor = self.fileDescriptor
    let maxLineBytes = self.maxLineBytes
    let onTyped = self.onTyped
    let thread = Thread {
      if let onTyped {
        Self.editLoop(fileDescriptor: fileDescriptor, maxLineBytes: maxLineBytes, onTyped: onTyped, into: channel)
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
  /// `echo` sees each line just before the handler does (a terminal view shows what was typed).
  @MainActor
  public func run(
    forwardingTo handler: any PlaybackViewEventHandler, echo: (@MainActor (InputLine) -> Void)? = nil
  ) async {
    for await line in lines() {
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
    fileDescriptor: Int32, maxLineBytes: Int, onTyped: @Sendable (TypedInput) -> Void, into channel: LineChannel
  ) {
    var editor = TerminalLineEditor(maxLineBytes: maxLineBytes)
    var buffer = [UInt8](repeating: 0, count: 256)
    reading: while !channel.isCancelled {
      let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      for output in editor.feed(buffer[0..<count]) {
        switch output {
        case .line(let line): guard channel.send(line) else { break reading }
        case .typed(let typed): onTyped(typed)
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

/// A bounded single-producer, single-consumer queue between the reading thread and the task that
/// consumes the lines. The producer blocks while it is full; the consumer suspends while it is
/// empty. Every field is guarded by `condition`.
private final class LineChannel: @unchecked Sendable {
  private let condition = NSCondition()
  private let capacity: Int
  private var queue: [InputLine] = []
  private var head = 0
  private var waiter: CheckedContinuation<InputLine?, Never>?
  private var producerWaiting = false
  private var claimed = false
  private var finished = false
  private var cancelled = false

  init(capacity: Int) { self.capacity = max(1, capacity) }

  /// True the first time only.
  func claim() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if claimed { return false }
    claimed = true
    return true
  }

  var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Producer: hands over lines in order. False once the consumer is gone.
  func send(_ lines: [InputLine]) -> Bool {
    for line in lines {
      guard send(line) else { return false }
    }
    return true
  }

  /// Producer: hands over a line, waiting while the queue is full. False once the consumer is gone.
  func send(_ line: InputLine) -> Bool {
    condition.lock()
    if queue.count - head >= capacity && !cancelled {
      // Full: sleep until the consumer has drained half of it, so the two sides do not wake each
      // other for every line.
      producerWaiting = true
      while queue.count - head > capacity / 2 && !cancelled { condition.wait() }
      producerWaiting = false
    }
    if cancelled {
      condition.unlock()
      return false
    }
    if let waiter {
      self.waiter = nil
      condition.unlock()
      waiter.resume(returning: line)
    } else {
      queue.append(line)
      condition.unlock()
    }
    return true
  }

  /// Producer: there will be no more lines.
  func finish() {
    condition.lock()
    finished = true
    let waiter = self.waiter
    self.waiter = nil
    condition.unlock()
    waiter?.resume(returning: nil)
  }

  /// Consumer: stop; wakes both sides.
  func cancel() {
    condition.lock()
    cancelled = true
    let waiter = self.waiter
    self.waiter = nil
    queue.removeAll()
    head = 0
    condition.broadcast()
    condition.unlock()
    waiter?.resume(returning: nil)
  }

  /// Consumer: the next line, or nil at the end of input (or once cancelled).
  func receive() async -> InputLine? {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<InputLine?, Never>) in
        condition.lock()
        if cancelled {
          condition.unlock()
          continuation.resume(returning: nil)
        } else if head < queue.count {
          let line = queue[head]
          head += 1
          if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
          } else if head >= 64 && head * 2 >= queue.count {
            queue.removeFirst(head)
            head = 0
          }
          if producerWaiting && queue.count - head <= capacity / 2 { condition.signal() }
          condition.unlock()
          continuation.resume(returning: line)
        } else if finished {
          condition.unlock()
          continuation.resume(returning: nil)
        } else {
          waiter = continuation
          condition.unlock()
        }
      }
    } onCancel: {
      cancel()
    }
  }
}

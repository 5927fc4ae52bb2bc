// LineSplitter: splits a byte stream into lines of the command language, with the limits and checks
// every input path shares (standard input, the terminal line editor, scripts read from disk).

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
package struct LineSplitter: Sendable {
  package let maxLineBytes: Int
  /// The current line's bytes while it is within the limit (at most `maxLineBytes + 1` of them,
  /// the extra one being a possible `\r`).
  private var buffer: [UInt8] = []
  /// Set once the current line has outgrown the limit: its length so far; its bytes are dropped.
  private var overflowLength: Int?
  /// Whether the dropped line's last byte so far is `\r`.
  private var overflowEndsWithCR = false

  package init(maxLineBytes: Int = 65_536) {
    self.maxLineBytes = max(0, maxLineBytes)
  }

  /// Takes the next bytes of input and returns the lines they complete, in order.
  package mutating func feed(_ bytes: some Collection<UInt8>) -> [InputLine] {
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
  package mutating func finish() -> [InputLine] {
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

// AttachInputLines: standard input as `vpk attach` forwards it when not on a terminal: bytes as they come, held only
// until their line is whole, so a relative path in it can be made absolute (AttachPaths). A line longer than the
// daemon takes is passed on as it comes (the daemon refuses it), never held whole.

struct AttachInputLines {
  let directory: String
  /// The start of a line whose end has not come yet.
  private var pending: [UInt8] = []
  /// The rest of a line that was too long to hold passes as it comes, up to its end.
  private var passingLongLine = false
  /// Bytes held for one line at most: past this a line is passed on as it comes.
  static let maxHeldBytes = 1 << 17

  init(directory: String) {
    self.directory = directory
  }

  /// What to send now, given the bytes just read.
  mutating func take(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    var bytes = bytes
    var out: [UInt8] = []
    if passingLongLine {
      guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return Array(bytes) }
      out += bytes[...end]
      bytes = bytes[(end + 1)...]
      passingLongLine = false
    }
    pending += bytes
    if let lastEnd = pending.lastIndex(of: UInt8(ascii: "\n")) {
      out += AttachPaths.resolvingRelativePaths(inLines: pending[...lastEnd], from: directory)
      pending.removeSubrange(...lastEnd)
    }
    if pending.count > Self.maxHeldBytes {
      out += pending
      pending.removeAll()
      passingLongLine = true
    }
    return out
  }

  /// What is left at the end of the input: a last line without its `\n`, ended.
  mutating func finish() -> [UInt8] {
    defer { pending.removeAll() }
    if passingLongLine { return [UInt8(ascii: "\n")] }
    guard !pending.isEmpty else { return [] }
    return AttachPaths.resolvingRelativePaths(inLines: pending[...] + [UInt8(ascii: "\n")], from: directory)
  }
}

// ResidentMemory: the process's resident set size (what `VmRSS` in /proc/self/status says), read from
// /proc/self/statm, and the largest of the readings taken while a script runs.

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

package enum ResidentMemory {
  /// The process's resident bytes now, or nil where /proc/self/statm cannot be read.
  package static func current() -> Int? {
    let file = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return residentBytes(
      statm: String(decoding: buffer[0..<count], as: UTF8.self), pageSize: Int(sysconf(Int32(_SC_PAGESIZE))))
  }

  /// The bytes of the second field of a /proc/self/statm line (resident pages), or nil if it has none.
  package static func residentBytes(statm: String, pageSize: Int) -> Int? {
    let fields = statm.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 2, let pages = Int(fields[1]) else { return nil }
    return pages * pageSize
  }
}

/// The largest resident size seen by `sample()`: a script's peak, sampled at its start, at each event it writes and at
/// its end. The process is shared by the jobs running at once, so the peak is the whole process's.
@MainActor
package final class ResidentPeak {
  package private(set) var bytes: Int?

  package init() {}

  package func sample() {
    guard let now = ResidentMemory.current() else { return }
    bytes = max(bytes ?? 0, now)
  }
}

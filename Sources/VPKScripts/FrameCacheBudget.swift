// FrameCacheBudget: the bytes of decoded frames one `vpk test` run may keep. The run has one budget; each of the jobs
// that run at once gets an equal share of it, so the run's caches together stay within the budget whatever --jobs is.

import Foundation

package enum FrameCacheBudget {
  /// The most the default budget is: one session's cache in `vpk play`.
  package static let defaultCap = 256 << 20
  /// The default budget is this fraction (1/16) of the machine's physical memory, up to `defaultCap`.
  package static let memoryDivisor: UInt64 = 16

  /// The run's budget when `--frame-cache` is not given: 1/16 of `physicalMemory`, at most 256 MiB.
  package static func defaultTotal(physicalMemory: UInt64) -> Int {
    Int(min(physicalMemory / memoryDivisor, UInt64(defaultCap)))
  }

  /// The budget of this machine, from its physical memory.
  package static var machineDefault: Int { defaultTotal(physicalMemory: ProcessInfo.processInfo.physicalMemory) }

  /// What each of `jobs` jobs running at once may keep of `total` bytes: an equal share, rounded down.
  package static func share(of total: Int, jobs: Int) -> Int {
    max(0, total) / max(1, jobs)
  }
}

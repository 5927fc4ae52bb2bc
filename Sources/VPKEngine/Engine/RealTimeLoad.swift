// RealTimeLoad: whether one decoder thread keeps up with the wall clock. It adds up the thread's CPU time and the
// media time it decoded, and once a second of media is in, compares CPU per media second, times the rate, with the
// limit. Above it, a run of hard frames would leave too little margin to keep them on time.

import Foundation

struct RealTimeLoad {
  /// The share of real time one decoder thread may use.
  let limit: Double
  private var cpu = 0.0
  private var media = 0.0
  /// One thread could not keep up at this rate: playing uses FFmpeg's threads until the rate changes.
  private(set) var isTooSlow = false

  init(limit: Double) { self.limit = limit }

  /// Adds a decoded frame: the CPU seconds it took and the media seconds it lasts. `rate` is read only when a
  /// second of media is in.
  mutating func record(cpu: Double, media: Double, rate: @autoclosure () -> Double) {
    self.cpu += cpu
    self.media += media
    guard self.media >= 1 else { return }
    let share = self.cpu * rate() / self.media
    if share > limit { isTooSlow = true }
    self.cpu = 0
    self.media = 0
  }

  /// Starts measuring again, as at a new rate.
  mutating func reset() {
    isTooSlow = false
    cpu = 0
    media = 0
  }

  /// CPU seconds of the calling thread (the engine thread, which runs a one-thread decoder itself).
  static func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / nanosecondsPerSecond
  }
}

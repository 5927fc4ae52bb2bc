// EngineClock: maps host time to media time. `wall` runs at the rate in real time; `free` never
// waits and is simply where the newest frame is. The engine reads it under its lock.

import Foundation
import VideoPlaybackKit

/// Monotonic host time in nanoseconds.
func hostNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

struct EngineClock {
  let kind: ClockKind
  var rate = 1.0
  private(set) var isRunning = false
  private var anchorMedia = 0.0
  private var anchorHost: UInt64 = 0

  init(kind: ClockKind) { self.kind = kind }

  /// Media time now.
  func position(at now: UInt64) -> Double {
    guard isRunning, kind == .wall else { return anchorMedia }
    return anchorMedia + Double(now &- anchorHost) / 1e9 * rate
  }

  mutating func start(at now: UInt64) {
    guard !isRunning else { return }
    anchorHost = now
    isRunning = true
  }

  mutating func pause(at now: UInt64) {
    anchorMedia = position(at: now)
    isRunning = false
  }

  /// Puts the clock at `media` (after a seek, or as the free clock follows its frames).
  mutating func jump(to media: Double, at now: UInt64) {
    anchorMedia = media
    anchorHost = now
  }

  /// Host seconds until media time `media` is due: 0 when due now, nil while stopped.
  func delay(until media: Double, at now: UInt64) -> Double? {
    guard isRunning else { return nil }
    guard kind == .wall else { return 0 }
    return max(0, (media - position(at: now)) / rate)
  }
}

// EngineClock: maps clock time to timeline time. `wall` runs at the rate in real (monotonic) time;
// `virtual` runs at the rate in a time that only the engine moves, when a wait asks it to; `free`
// never waits and is simply where the newest frame is. It lives in EngineSharedState, under its lock: any thread
// reads it, the engine thread moves it.
//
// Timeline time is media time plus, when looping, the length of the passes already played, so the
// clock never jumps back at a loop.

import Foundation
import VideoPlaybackKit

/// Monotonic host time in nanoseconds.
func hostNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Nanoseconds in a second and in a millisecond, for the host's clocks.
let nanosecondsPerSecond = 1e9
let nanosecondsPerMillisecond = 1e6

/// Monotonic host time in seconds.
func hostSeconds() -> Double { Double(hostNanoseconds()) / nanosecondsPerSecond }

struct EngineClock {
  let kind: ClockKind
  private(set) var rate = 1.0
  private(set) var isRunning = false
  private var anchorTimeline = 0.0
  private var anchorTime = 0.0

  init(kind: ClockKind) { self.kind = kind }

  /// Timeline time at clock time `now`.
  func position(at now: Double) -> Double {
    guard isRunning, kind != .free else { return anchorTimeline }
    return anchorTimeline + (now - anchorTime) * rate
  }

  mutating func start(at now: Double) {
    guard !isRunning else { return }
    anchorTime = now
    isRunning = true
  }

  mutating func pause(at now: Double) {
    anchorTimeline = position(at: now)
    isRunning = false
  }

  /// Puts the clock at `timeline` (after a seek, or as the free clock follows its frames).
  mutating func jump(to timeline: Double, at now: Double) {
    anchorTimeline = timeline
    anchorTime = now
  }

  mutating func setRate(_ newRate: Double, at now: Double) {
    anchorTimeline = position(at: now)
    anchorTime = now
    rate = newRate
  }

  /// The clock time at which timeline time `timeline` is due: -infinity on the free clock (always
  /// due), nil while stopped.
  func dueTime(of timeline: Double) -> Double? {
    guard isRunning else { return nil }
    guard kind != .free else { return -.infinity }
    return anchorTime + (timeline - anchorTimeline) / rate
  }
}

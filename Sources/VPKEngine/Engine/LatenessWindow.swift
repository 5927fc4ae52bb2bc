// LatenessWindow: how late frames were shown playing on the wall clock, the newest samples kept in a ring, for the
// 99th percentile that `status` reports. It lives in EngineSharedState: the engine thread records, `status` reads.

struct LatenessWindow {
  /// Samples kept; older ones are overwritten.
  let capacity: Int
  private var samples: [Double] = []
  /// The slot the next sample overwrites once the ring is full.
  private var nextSlot = 0

  init(capacity: Int = 4096) { self.capacity = capacity }

  var isEmpty: Bool { samples.isEmpty }

  /// Adds how late (in seconds) a frame was shown.
  mutating func record(_ late: Double) {
    if samples.count < capacity {
      samples.append(late)
    } else {
      samples[nextSlot] = late
      nextSlot = (nextSlot + 1) % capacity
    }
  }

  /// Forgets the samples (a seek, a new rate). The ring starts again from its first slot, so once it is full again the
  /// oldest sample is the one overwritten.
  mutating func removeAll() {
    samples.removeAll()
    nextSlot = 0
  }

  /// The 99th percentile in milliseconds (nearest rank), nil with no samples.
  var p99Milliseconds: Double? {
    guard !samples.isEmpty else { return nil }
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)] * 1000
  }
}

// LatenessWindow: how late frames were shown playing on the wall clock, the newest samples kept in a ring, for the
// 99th percentile that `status` reports. It lives in EngineSharedState: the engine thread records, `status` reads.
//
// The samples are also kept in order as they come (a binary search and one move of at most `capacity` values), so
// reading the percentile is a lookup: every `snapshot()` reads it under the engine's lock (a client polling the
// position too), where sorting a full window would hold the lock, and the engine thread waiting on it, for the sort.

struct LatenessWindow {
  /// Samples kept; older ones are overwritten.
  let capacity: Int
  /// The samples in the order they came, a ring once full.
  private var samples: [Double] = []
  /// The same samples, in increasing order.
  private var sorted: [Double] = []
  /// The slot the next sample overwrites once the ring is full.
  private var nextSlot = 0

  init(capacity: Int = 4096) { self.capacity = capacity }

  var isEmpty: Bool { samples.isEmpty }

  /// Adds how late (in seconds) a frame was shown.
  mutating func record(_ late: Double) {
    if samples.count < capacity {
      samples.append(late)
    } else {
      sorted.remove(at: Self.firstIndex(notBelow: samples[nextSlot], in: sorted))
      samples[nextSlot] = late
      nextSlot = (nextSlot + 1) % capacity
    }
    sorted.insert(late, at: Self.firstIndex(notBelow: late, in: sorted))
  }

  /// Forgets the samples (a seek, a new rate). The ring starts again from its first slot, so once it is full again the
  /// oldest sample is the one overwritten.
  mutating func removeAll() {
    samples.removeAll(keepingCapacity: true)
    sorted.removeAll(keepingCapacity: true)
    nextSlot = 0
  }

  /// The 99th percentile in milliseconds (nearest rank), nil with no samples.
  var p99Milliseconds: Double? {
    guard !sorted.isEmpty else { return nil }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)] * 1000
  }

  /// The first index of `ordered` whose value is not below `value` (its count when there is none).
  private static func firstIndex(notBelow value: Double, in ordered: [Double]) -> Int {
    var low = 0
    var high = ordered.count
    while low < high {
      let middle = (low + high) / 2
      if ordered[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

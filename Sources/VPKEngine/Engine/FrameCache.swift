// FrameCache: decoded frames kept around the position, bounded by bytes, so that a seek or a backward step to a
// frame held here shows it without decoding. Inter-frame codecs decode only forward: going back one frame costs a
// decode from the keyframe, unless the frames passed on the way were kept.
//
// Identity: the cache belongs to one engine, so to one file (`open` and `close` make a new engine), and holds frames
// of one decoder generation only (`MediaSource.decoderGeneration`, which moves on a change of decoder or a decode
// error). A frame of another generation empties it first, and the engine checks the generation before every
// lookup: no frame of another file or of a stale decoder is ever shown.
//
// Order: a frame knows the frame the decoder gave just before it (`follows`); the cache keeps, for each frame it holds,
// the frames the decoder gave just before it (in any pass) and just after it (`previous`, `next`). A seek needs the frame whose display interval contains its
// target, which is known only with the start of the next frame; a backward step walks the `follows` links.
//
// Eviction: when a frame does not fit, the frame farthest from the focus goes first. The focus is the frame on
// screen, or where a seek or a backward step is heading while it decodes. Frames after the focus count twice their
// distance: a user moving around the position goes back, which costs a decode from the keyframe, more than forward,
// which decodes on cheaply. So playing keeps the last frames shown, and a backward step's pass from the keyframe keeps
// the frames just before where it is heading (the last of the pass, as many as the budget holds): when the budget
// cannot hold a whole GOP, each pass keeps a segment, and the cost per frame shown stays the GOP's length over the
// segment's. A frame farther than all that is held is not stored. Distance grows away from the focus on both sides,
// so the farthest frame is always the first or the last by time.
//
// Owned by the engine thread's PlaybackEngine and touched only there; other threads see its figures as published
// (`FrameCacheReading` in EngineSharedState).

/// What the cache needs of a frame.
protocol CacheableFrame: AnyObject {
  var pts: Int64 { get }
  /// Presentation time in seconds (increasing with `pts`).
  var time: Double { get }
  var follows: Int64? { get }
  var byteCount: Int { get }
  /// The frame before it had its same timestamp; this one takes that frame's place.
  var hidesPrevious: Bool { get }
}

extension CacheableFrame {
  var hidesPrevious: Bool { false }
}

extension DecodedFrame: CacheableFrame {}

struct FrameCache<Frame: CacheableFrame> {
  private struct Entry {
    var frame: Frame
    var bytes: Int
    /// The frames the decoder gave right before and right after this one, if they are known.
    var previous: Int64?
    var next: (pts: Int64, time: Double)?
  }

  /// How far after the focus a frame counts, per second, against one second before it.
  static var aheadWeight: Double { 2 }

  /// The most bytes of frames held; 0 turns the cache off.
  let budget: Int
  private(set) var bytes = 0
  /// Lookups that found their frame, and lookups that decoded instead.
  private(set) var hits = 0
  private(set) var misses = 0
  /// The decoder generation of the frames held.
  private(set) var generation: Int?
  private var entries: [Int64: Entry] = [:]
  /// The pts of the frames held, in order.
  private var order: [Int64] = []
  /// Where a seek or a backward step is heading while it decodes: the focus then (nil: the frame on screen, which the
  /// owner gives with each frame).
  private(set) var heading: Double?

  init(budget: Int) { self.budget = max(0, budget) }

  var isEnabled: Bool { budget > 0 }
  var count: Int { order.count }

  /// Empties the cache if its frames are of another decoder generation than `generation`.
  mutating func admit(generation: Int) {
    guard generation != self.generation else { return }
    removeAll()
    self.generation = generation
  }

  mutating func removeAll() {
    entries.removeAll()
    order.removeAll()
    bytes = 0
  }

  /// Sets `heading` and returns the one it replaces.
  mutating func replaceHeading(with time: Double?) -> Double? {
    defer { heading = time }
    return heading
  }

  mutating func recordHit() { hits += 1 }
  mutating func recordMiss() { misses += 1 }

  /// Keeps a frame the decoder just gave (of decoder generation `generation`), evicting what is farther from `focus`.
  mutating func insert(_ frame: Frame, generation: Int, focus: Double) {
    guard isEnabled else { return }
    admit(generation: generation)
    if let previous = frame.follows, entries[previous] != nil {
      entries[previous]!.next = (frame.pts, frame.time)
    }
    if let held = entries[frame.pts] {
      if frame.hidesPrevious && held.frame !== frame {
        // Its twin with the same timestamp is held: this frame is the one shown at that time, and takes its place.
        bytes += frame.byteCount - held.bytes
        entries[frame.pts]!.frame = frame
        entries[frame.pts]!.bytes = frame.byteCount
      }
      // Held already (the same frame): what this pass says about the frame before it is kept too.
      if let previous = frame.follows { entries[frame.pts]!.previous = previous }
      return
    }
    let size = frame.byteCount
    guard size <= budget else { return }
    let distance = Self.distance(of: frame.time, from: focus)
    while bytes + size > budget {
      guard let first = order.first, let last = order.last else { return }
      let firstDistance = Self.distance(of: entries[first]!.frame.time, from: focus)
      let lastDistance = Self.distance(of: entries[last]!.frame.time, from: focus)
      guard distance < max(firstDistance, lastDistance) else { return }  // it would be the first to go
      remove(firstDistance >= lastDistance ? first : last)
    }
    var entry = Entry(frame: frame, bytes: size, previous: frame.follows, next: nil)
    let index = insertionIndex(of: frame.time)
    if index < order.count, let after = entries[order[index]], after.previous == frame.pts {
      entry.next = (after.frame.pts, after.frame.time)
    }
    entries[frame.pts] = entry
    order.insert(frame.pts, at: index)
    bytes += size
  }

  /// The frame whose display interval contains `time` (it starts at most `tolerance` after it, and the next frame
  /// starts later), or nil if that is not known here.
  func frame(containing time: Double, tolerance: Double) -> Frame? {
    let index = insertionIndex(of: time + tolerance) - 1
    guard index >= 0, let entry = entries[order[index]], let next = entry.next, next.time > time + tolerance else {
      return nil
    }
    return entry.frame
  }

  /// The frame the decoder gave just before `frame`, if it is held.
  func frame(before frame: Frame) -> Frame? {
    (entries[frame.pts]?.previous ?? frame.follows).flatMap { entries[$0]?.frame }
  }

  /// The frame the decoder gave just after `frame`, if it is held.
  func frame(after frame: Frame) -> Frame? {
    entries[frame.pts]?.next.flatMap { entries[$0.pts]?.frame }
  }

  /// How far a frame at `time` is from the focus, weighing the time after it (see the file's comment).
  private static func distance(of time: Double, from focus: Double) -> Double {
    time >= focus ? (time - focus) * aheadWeight : focus - time
  }

  /// Where a frame at `time` goes in `order`: after every frame that starts at or before it.
  private func insertionIndex(of time: Double) -> Int {
    var low = 0
    var high = order.count
    while low < high {
      let middle = (low + high) / 2
      if entries[order[middle]]!.frame.time <= time { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private mutating func remove(_ pts: Int64) {
    guard let entry = entries.removeValue(forKey: pts) else { return }
    bytes -= entry.bytes
    order.removeAll { $0 == pts }
  }
}

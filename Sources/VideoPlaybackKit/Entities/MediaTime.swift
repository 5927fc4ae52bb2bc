// Times on the media timeline, and times as a user writes them.

/// A point or span on the media timeline, in seconds from the start of the media.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var seconds: Double

  public init(seconds: Double) { self.seconds = seconds }
  public static let zero = MediaTime(seconds: 0)

  public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool { lhs.seconds < rhs.seconds }
  public static func + (lhs: MediaTime, rhs: Double) -> MediaTime { MediaTime(seconds: lhs.seconds + rhs) }
  public static func - (lhs: MediaTime, rhs: MediaTime) -> Double { lhs.seconds - rhs.seconds }

  /// This time limited to `0...duration` (or to `0...` when the duration is unknown).
  public func clamped(to duration: MediaTime?) -> MediaTime {
    var value = max(0, seconds)
    if let duration { value = min(value, duration.seconds) }
    return MediaTime(seconds: value)
  }

  public var description: String { String(seconds) }
}

/// A time as a user writes it: seconds from the start, or a percentage of the duration.
public enum TimeSpec: Sendable, Equatable {
  case seconds(Double)
  case percent(Double)

  /// The media time this names, for media of the given duration.
  public func resolved(duration: MediaTime?) -> MediaTime {
    switch self {
    case .seconds(let value): return MediaTime(seconds: value)
    case .percent(let value): return MediaTime(seconds: (duration?.seconds ?? 0) * value / 100)
    }
  }
}

/// Where a file opens: a time as a user writes it, or a time before the end.
package enum FileStart: Sendable, Equatable {
  case time(TimeSpec)
  /// Seconds before the end of the media (`--start -5`).
  case beforeEnd(Double)

  /// The media time this names, for media of the given duration (the start when the duration is unknown).
  package func resolved(duration: MediaTime?) -> MediaTime {
    switch self {
    case .time(let spec): return spec.resolved(duration: duration)
    case .beforeEnd(let seconds): return MediaTime(seconds: max(0, (duration?.seconds ?? seconds) - seconds))
    }
  }
}

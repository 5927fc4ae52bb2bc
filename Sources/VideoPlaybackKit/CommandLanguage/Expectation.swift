// Expectation: what `expect <field> <op> <value> [±tol]` asserts, and how a value is compared.
// Plain values and pure comparison: the interactor reads the actual value, this decides.

/// The fields `expect` can check, with the kind of value each holds.
package enum ExpectField: String, Sendable, CaseIterable {
  case state, position, duration, rate, loops, error, container, path
  case framesDecoded = "frames_decoded"
  case decodeErrors = "decode_errors"
  case cacheFrames = "cache.frames"
  case cacheBytes = "cache.bytes"
  case cacheHits = "cache.hits"
  case cacheMisses = "cache.misses"
  case framePTS = "frame.pts"
  case frameTime = "frame.time"
  case frameMD5 = "frame.md5"
  case frameKey = "frame.key"
  case frameWidth = "frame.width"
  case frameHeight = "frame.height"
  case framePixelFormat = "frame.pix_fmt"
  case videoCodec = "video.codec"
  case videoWidth = "video.width"
  case videoHeight = "video.height"
  case videoFPS = "video.fps"
  case videoPixelFormat = "video.pix_fmt"
  case audioCodec = "audio.codec"
  case audioSampleRate = "audio.sample_rate"
  case audioChannels = "audio.channels"
  /// The queue's current entry (from 1), and how many entries it holds.
  case entry
  case queueCount = "queue.count"

  package enum Kind: Sendable { case time, number, string, bool }

  package var kind: Kind {
    switch self {
    case .position, .duration, .frameTime: .time
    case .rate, .loops, .framesDecoded, .decodeErrors, .cacheFrames, .cacheBytes, .cacheHits, .cacheMisses, .framePTS,
      .frameWidth, .frameHeight, .videoWidth,
      .videoHeight, .videoFPS, .audioSampleRate, .audioChannels, .entry, .queueCount:
      .number
    case .state, .error, .container, .path, .frameMD5, .framePixelFormat, .videoCodec, .videoPixelFormat,
      .audioCodec:
      .string
    case .frameKey: .bool
    }
  }

  /// A field of the frame on screen (`frame.md5` …): a failed check on one keeps a picture of the frame (`vpk test`).
  package var isFrameField: Bool { rawValue.hasPrefix("frame.") }
}

/// The comparison `expect` makes.
package enum ExpectOperator: String, Sendable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  /// Within ± the tolerance.
  case approximately = "~"

  /// Whether it orders values (numbers and times only).
  package var isOrdering: Bool { self != .equal && self != .notEqual }
}

/// A value `expect` compares: what the user wrote (after reading it for the field's kind), or
/// what the session holds. `none` is a field with no value (no video, no frame yet).
package enum ExpectValue: Sendable, Equatable {
  case number(Double)
  case string(String)
  case bool(Bool)
  case none
}

/// The value as written: times may be percentages, resolved against the media's duration.
package enum ExpectOperand: Sendable, Equatable {
  case time(TimeSpec)
  case value(ExpectValue)

  package func resolved(duration: MediaTime?) -> ExpectValue {
    switch self {
    case .time(let spec): .number(spec.resolved(duration: duration).seconds)
    case .value(let value): value
    }
  }
}

package struct Expectation: Sendable, Equatable {
  /// Numbers and times closer than this are equal: the microsecond that JSON events carry.
  package static let equalityTolerance = 1e-6
  /// The tolerance of `~` when the line gives none: the millisecond that text events show.
  package static let defaultApproximateTolerance = 1e-3

  package var field: ExpectField
  package var op: ExpectOperator
  package var expected: ExpectOperand
  package var tolerance: Double?

  package init(field: ExpectField, op: ExpectOperator, expected: ExpectOperand, tolerance: Double? = nil) {
    self.field = field
    self.op = op
    self.expected = expected
    self.tolerance = tolerance
  }

  /// Whether `actual` satisfies this expectation against `expected` (already resolved).
  package func holds(actual: ExpectValue, expected: ExpectValue) -> Bool {
    switch (actual, expected) {
    case (.number(let a), .number(let e)):
      let slack =
        op == .approximately ? (tolerance ?? Self.defaultApproximateTolerance) : (tolerance ?? Self.equalityTolerance)
      switch op {
      case .equal, .approximately: return abs(a - e) <= slack
      case .notEqual: return abs(a - e) > slack
      case .less: return a < e - Self.equalityTolerance
      case .lessOrEqual: return a <= e + Self.equalityTolerance
      case .greater: return a > e + Self.equalityTolerance
      case .greaterOrEqual: return a >= e - Self.equalityTolerance
      }
    case (.string(let a), .string(let e)):
      return op == .notEqual ? a != e : (op == .equal && a == e)
    case (.bool(let a), .bool(let e)):
      return op == .notEqual ? a != e : (op == .equal && a == e)
    default:
      // `none` against a value, or values of different kinds: only `!=` holds.
      if actual == expected { return op == .equal }
      return op == .notEqual
    }
  }
}

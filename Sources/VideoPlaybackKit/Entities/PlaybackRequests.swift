// The work the interactor hands the playback manager (seeks, steps, waits) and how each ended.

/// One absolute seek, as the interactor hands it to the playback manager.
public struct SeekRequest: Sendable, Equatable {
  public var id: Int
  public var target: MediaTime
  public var mode: SeekMode

  package init(id: Int, target: MediaTime, mode: SeekMode) {
    self.id = id
    self.target = target
    self.mode = mode
  }
}

/// How a seek ended, as the playback manager reports it.
public struct SeekResult: Sendable, Equatable {
  public var id: Int
  public var target: MediaTime
  /// Where playback now is: the target for exact seeks, the keyframe's time for keyframe seeks.
  public var position: MediaTime
  public var mode: SeekMode
  /// Wall-clock time from the request to the landing, in milliseconds.
  public var milliseconds: Double

  public init(id: Int, target: MediaTime, position: MediaTime, mode: SeekMode, milliseconds: Double) {
    self.id = id
    self.target = target
    self.position = position
    self.mode = mode
    self.milliseconds = milliseconds
  }
}

/// One frame step, as the interactor hands it to the playback manager: pause and show the frame
/// `count` frames after (positive) or before (negative) the one on screen.
public struct StepRequest: Sendable, Equatable {
  public var id: Int
  public var count: Int

  package init(id: Int, count: Int) {
    self.id = id
    self.count = count
  }
}

/// How a step ended: how far it got (fewer frames than asked at either end of the media) and where.
public struct StepResult: Sendable, Equatable {
  public var id: Int
  public var requested: Int
  public var moved: Int
  /// The shown frame's start time, which is now the position.
  public var position: MediaTime

  public init(id: Int, requested: Int, moved: Int, position: MediaTime) {
    self.id = id
    self.requested = requested
    self.moved = moved
    self.position = position
  }
}

/// What a `wait` waits for, as the user wrote it.
public enum WaitCondition: Sendable, Equatable {
  /// `wait <seconds>`: that much clock time passes (media time on the virtual and free clocks).
  case duration(Double)
  /// `wait ended`: playback reaches the end of the media (each pass counts when looping).
  case ended
  /// `wait paused`: playback is not moving (paused, or stopped at the end).
  case paused
  /// `wait seeked`: every seek sent so far has landed.
  case seeked
  /// `wait position >= T`.
  case position(TimeSpec)
  /// `wait position <= T`: playing backward (a negative rate).
  case positionAtMost(TimeSpec)
  /// `wait entry N`: the queue's entry N (from 1) has started and is ready.
  case entry(Int)

  /// The condition as the command language writes it (`ended`, `position >= 12.5`, `2.5`).
  public var description: String {
    switch self {
    case .duration(let seconds): "\(Self.number(seconds)) s"
    case .ended: "ended"
    case .paused: "paused"
    case .seeked: "seeked"
    case .position(.seconds(let seconds)): "position >= \(Self.number(seconds))"
    case .position(.percent(let percent)): "position >= \(Self.number(percent))%"
    case .positionAtMost(.seconds(let seconds)): "position <= \(Self.number(seconds))"
    case .positionAtMost(.percent(let percent)): "position <= \(Self.number(percent))%"
    case .entry(let number): "entry \(number)"
    }
  }

  /// `2`, `2.5`: whole numbers without a point.
  private static func number(_ value: Double) -> String {
    NumberText.wholeNumber(value).map { String($0) } ?? String(value)
  }
}

/// A wait the playback manager carries out on its clock.
public struct PlaybackWait: Sendable, Equatable {
  public enum Until: Sendable, Equatable {
    /// This many seconds of clock time pass.
    case elapsed(Double)
    /// The position reaches this time.
    case position(MediaTime)
    /// The position comes down to this time (playing backward).
    case positionAtMost(MediaTime)
    /// The end of the media is reached.
    case ended
  }

  public var id: Int
  public var until: Until
  /// Seconds of clock time after which the wait gives up; nil for none.
  public var timeout: Double?

  package init(id: Int, until: Until, timeout: Double?) {
    self.id = id
    self.until = until
    self.timeout = timeout
  }
}

/// Which way playback goes: backward at a negative rate, where the end it reaches is the start.
public enum PlaybackDirection: String, Sendable, Equatable {
  case forward
  case backward
}

/// How a wait ended.
public enum WaitOutcome: Sendable, Equatable {
  case satisfied
  case timedOut
  /// Playback is not moving, so nothing can change while the wait holds up the commands after it.
  case notPlaying
  /// The end of the media came first (and playback does not loop).
  case endedFirst
  /// A whole pass of a looping file went by without it.
  case neverInLoop
}

public struct WaitResult: Sendable, Equatable {
  public var id: Int
  public var outcome: WaitOutcome
  public var position: MediaTime

  public init(id: Int, outcome: WaitOutcome, position: MediaTime) {
    self.id = id
    self.outcome = outcome
    self.position = position
  }
}

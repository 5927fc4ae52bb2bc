// SessionSettings: the pause and rate the session plays with, in two layers. The session's layer outlives its files, as
// mpv's options do: with nothing loaded, `play`, `pause`, `toggle` and `rate` set what the next file opens with, and a
// file that goes leaves them as it had them. A file opened with a pause or rate of its own sets them for itself; what
// they replaced is kept with the file (`LoadedFile.replaced`) and given back as it goes.

struct SessionSettings: Equatable {
  /// Whether the next file (opened with nothing loaded, or replacing the one loaded) opens paused.
  var opensPaused: Bool
  /// The rate there is: the loaded file's, and what the next file opens with.
  var rate: Double

  /// What a file's own settings replaced (nil: it had none of its own).
  struct Replaced: Equatable {
    var opensPaused: Bool?
    var rate: Double?
  }

  /// A file's own pause (nil: none) takes the place of the session's; returns what it replaced.
  mutating func setPause(ofFile paused: Bool?) -> Bool? {
    guard let paused else { return nil }
    defer { opensPaused = paused }
    return opensPaused
  }

  /// A file's own speed takes the place of the session's rate, in the direction there is; returns what it replaced.
  mutating func setSpeed(ofFile speed: Double) -> Double {
    defer { rate = rate < 0 ? -speed : speed }
    return rate
  }

  /// The settings a file leaves as it goes: the pause it replaced, or else `pausedAfter` (what the file did decides
  /// it); the rate it replaced, if any. Returns true when the rate changed.
  mutating func fileWent(replaced: Replaced, pausedAfter: Bool) -> Bool {
    opensPaused = replaced.opensPaused ?? pausedAfter
    return giveBackRate(replaced)
  }

  /// The rate a file's own replaced is the session's again; true when that changed it.
  mutating func giveBackRate(_ replaced: Replaced) -> Bool {
    guard let before = replaced.rate, before != rate else { return false }
    rate = before
    return true
  }
}

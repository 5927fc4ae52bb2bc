// ResizeHold: what a terminal view holds back while the window's width is changing (a window's edge being dragged),
// and which of its timers still count.

/// Holding draws while the width changes: whether a hold is on, which hold and which wait for the width to settle are
/// the latest (a timer of an earlier one does nothing), and the text held meanwhile (events, submitted commands).
struct ResizeHold {
  /// How long the width stays the same before a resize is taken to be over. Longer than a terminal may take to report
  /// a width it rewrapped at: in tmux, with resizes 0.1–0.3 s apart, 0.2 s was too short (draws made then cleared rows
  /// at a width tmux no longer had) and 0.4 s is not.
  static let settleDelay: Duration = .milliseconds(400)
  /// The longest a hold lasts, however long the width goes on changing.
  static let longest: Duration = .seconds(5)

  private(set) var isHolding = false
  /// The number of the latest hold.
  private(set) var number = 0
  /// The number of the latest wait for the width to settle.
  private var wait = 0
  /// What would have been written above the last line meanwhile.
  var held = ""
  /// The widest of the widths read during the hold and the width of the last draw before it (nil: unknown).
  private(set) var widest: Int?

  /// Starts a wait for the width to settle, and a hold when none is on. Gives the wait's number, and the hold's when
  /// this started it.
  /// - Parameters:
  ///   - last: the width the last draw read.
  ///   - now: the width read now.
  mutating func start(from last: Int?, now: Int?) -> (wait: Int, startedHold: Int?) {
    wait += 1
    guard !isHolding else {
      widest = Self.wider(widest, now)
      return (wait, nil)
    }
    isHolding = true
    number += 1
    widest = Self.wider(last, now)
    return (wait, number)
  }

  private static func wider(_ a: Int?, _ b: Int?) -> Int? {
    guard let a, let b else { return a ?? b }
    return max(a, b)
  }

  /// Whether a timer of hold `hold` ends it: the hold is still on, and `wait` (nil: the hold's longest) is the latest.
  func ends(_ hold: Int, wait: Int?) -> Bool {
    isHolding && hold == number && (wait.map { $0 == self.wait } ?? true)
  }

  /// Ends the hold and gives what it held.
  mutating func end() -> String {
    isHolding = false
    defer { held = "" }
    return held
  }

  /// Runs `action` on the main actor after `delay`.
  static func afterDelay(_ delay: Duration, _ action: @escaping @MainActor () -> Void) {
    Task { @MainActor in
      try? await Task.sleep(for: delay)
      action()
    }
  }
}

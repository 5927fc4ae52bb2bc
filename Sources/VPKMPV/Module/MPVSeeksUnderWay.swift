// MPVSeeksUnderWay: the seeks an mpv client's readings mirror knows to be under way (mpv's `seeking` is true while
// any is): this client's, by their ordinals among its commands, and other views' whose start was shown, by the
// session's command ids.

struct MPVSeeksUnderWay {
  /// This client's seeks not yet landed.
  private var own: Set<Int> = []
  /// Those of them whose `seek` event was sent as they started.
  private var announced: Set<Int> = []
  /// Other views' seeks and steps started (their `seek` sent) and not yet landed.
  private var others: Set<Int> = []

  /// Whether any seek is under way (mpv's `seeking`).
  var any: Bool { !own.isEmpty || !others.isEmpty }

  /// This client's seek `number` is submitted; `announced`: its `seek` was sent as it was.
  mutating func submitted(_ number: Int, announced: Bool) {
    if announced { self.announced.insert(number) }
    own.insert(number)
  }

  /// Whether this client's seek `number` was announced as it was sent.
  func isAnnounced(_ number: Int) -> Bool { announced.contains(number) }

  /// This client's seek `number` landed; true when it was announced as it was sent.
  mutating func landed(_ number: Int) -> Bool {
    own.remove(number)
    return announced.remove(number) != nil
  }

  /// This client's seek `number` failed or was replaced.
  mutating func gone(_ number: Int) {
    own.remove(number)
    announced.remove(number)
  }

  /// Another view's seek, command `id`, started and was shown.
  mutating func othersStarted(_ id: Int) {
    others.insert(id)
  }

  /// A seek or step, command `id`, landed (`mine`: this client's); true when it is another view's whose start was
  /// shown. Seeks and steps land in the order they were sent: the older ones (anyone's) landed or were replaced, and
  /// are forgotten with it.
  mutating func landed(id: Int, mine: Bool) -> Bool {
    let started = !mine && others.contains(id)
    others = others.filter { $0 > id }
    return started
  }

  /// The file went: other views' seeks are forgotten.
  mutating func forgetOthers() {
    others = []
  }
}

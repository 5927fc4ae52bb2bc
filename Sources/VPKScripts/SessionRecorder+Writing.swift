// SessionRecorder's writing: each command's lines, the expectations it meets, and the waits that bring the replay to
// where the session was when the next command came.

import VideoPlaybackKit

extension SessionRecorder {
  /// Writes the entries at the front that have all they need, in order.
  func flush() {
    while let first = entries.first, first.isComplete {
      entries.removeFirst()
      write(lines(for: first))
    }
  }

  func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    _ = output.write(lines.map { $0 + "\n" }.joined())
  }

  func lines(for entry: Entry) -> [String] {
    switch entry.kind {
    case .invalid(let text, let error):
      return [text, "expect error == \(error.code.rawValue)"]
    case .initialOpen:
      return openLines(entry)
    case .joined:
      return joinedLines(entry)
    case .ended where entry.followedByEntry:
      // The list went on to its next entry, whose `wait entry N` replays the end.
      atEnd = false
      return []
    case .entryStarted(let started, let afterCommand):
      return entryLines(entry, started, afterCommand: afterCommand)
    case .ended(let end):
      // An end the engine reached just as a pause came (the pause ran first, the end was told after it): the replay,
      // paused before the end, plays on to it.
      let playsOn = paused ? ["# the end came just after the pause: the replay plays on to it", "play"] : []
      here = end.position.seconds
      atEnd = true
      paused = false
      return playsOn + ["wait ended"] + expectations(of: entry.after, position: here)
    case .command(let text, let command):
      let lines = lines(for: command, text: text, entry)
      // A command refused at run time (a `play` with nothing loaded): the replay is told it was meant.
      guard let error = entry.error, !command.isOpen || movesInReplayedList(command), !command.isWait else {
        return lines
      }
      return lines + ["expect error == \(error.code.rawValue)"]
    }
  }

  func lines(for command: Command, text: String, _ entry: Entry) -> [String] {
    let pauses: Bool =
      switch command {
      case .pause: true
      case .toggle: entry.before?.state == .playing
      default: false
      }
    // A pause lands where playback stopped (the mark after it); anything else where playback was when it came. A
    // pause's wait is exact, so that the replay stands where the session stood for whatever comes next (a skip to a
    // keyframe from there lands on the keyframe it landed on).
    let wait: String?
    if case .step = command, let stepped = entry.stepped, let frameDuration {
      // A step while playing moves on from the frame on screen when it runs, which may lie past the one the mark
      // before it saw (playback went on between the two): the replay is brought into the frame the step left.
      let left = stepped.position.seconds - Double(stepped.moved) * frameDuration + frameDuration / 2
      wait = waitLine(state: entry.before, toward: left)
    } else if case .skip(let delta, _) = command, let base = entry.seeked.flatMap({ skipBase($0.result, delta) }) {
      // The session counted the skip from `base` (its target less the distance), which may lie a little off the mark
      // before it (the wall clock moves between the two): the replay is brought exactly there.
      wait = waitLine(state: entry.before, toward: base)
    } else {
      wait = waitLine(
        state: entry.before, at: pauses ? entry.after : entry.before, exactly: command.isRelative || pauses)
    }
    var lines = wait.map { [$0] } ?? []
    switch command {
    case .wait:
      return ["# \(text)  (typed; the waits around it replay its time)"]
    case .open:
      return lines + openLines(entry)
    case .next, .previous, .goto:
      guard queuesEntries else {
        // The replay has no queue: the entry the command loaded is opened by its path.
        let note = entry.error.map { "refused: \($0.code.rawValue)" } ?? "the replay opens the entry it loaded"
        return lines + ["# \(text)  (\(note))"] + openLines(entry)
      }
      // The replay's list moves as the session's did, to the same entry.
      guard entry.error == nil else { return lines + [text] }
      let load = [text] + (entry.started.map { ["expect entry == \($0.index)"] } ?? [])
      return lines + openLines(entry, loading: load)
    case .queue(.shuffle) where queuesEntries:
      return lines + ["# \(text)  (replayed as the moves that give the order it made)"] + shuffleMoves(entry)
    case .queue where queuesEntries:
      return lines + [text]
    case .queue:
      return lines + ["# \(text)  (the replay has no queue: what the queue did is recorded as the files it opened)"]
    case .play, .toggle:
      paused = pauses
      guard !pauses else {
        lines.append(text)
        lines += expectations(of: entry.after, position: here)
        break
      }
      if atEnd {
        here = entry.before?.rate ?? 1 < 0 ? duration?.seconds ?? 0 : 0
        atEnd = false
      }
      lines.append(text)
    case .pause:
      paused = true
      lines.append(text)
      lines += expectations(of: entry.after, position: here)
    case .scrub:
      lines.append(text)
      if let seeked = entry.seeked {
        here = seeked.result.position.seconds
        atEnd = false
        guard !endsAtOnce(entry) else { break }
        lines += catchUp(to: entry.after)
        lines += expectations(of: entry.after, position: here)
      }
    case .skip(let delta, _):
      lines.append(text)
      if let seeked = entry.seeked {
        // An exact skip lands on its target, relative to where the replay is (which may lie a little off the
        // session's position, where the wall clock showed a frame late); one past either end where the session's
        // landed (the media's first or last frame); a skip to a keyframe on the keyframe.
        let target = here + delta
        here =
          seeked.result.mode == .exact && clamped(target) == target ? target : seeked.result.position.seconds
        atEnd = false
        guard !endsAtOnce(entry) else { break }
        lines += catchUp(to: entry.after)
        lines += expectations(of: entry.after, position: here)
      }
    case .step:
      lines.append(text)
      if entry.error == nil { paused = true }
      if let stepped = entry.stepped {
        // A step forward that could not move (on the last frame) leaves the position where the step found it, which in
        // the replay is `here`; any other step stands on the start of the frame it shows.
        if stepped.moved != 0 || stepped.requested < 0 { here = stepped.position.seconds }
        // A step forward at the end of a file kept there leaves the session at its end (a `play` starts over).
        atEnd = entry.after?.state == .ended
        lines += expectations(of: entry.after, position: here)
      }
    case .mark:
      lines.append(text)
      if let state = entry.before?.state { lines.append("expect state == \(state.rawValue)") }
      lines += expectations(of: entry.before, position: here)
    case .close:
      lines.append(text)
      here = 0
      atEnd = false
      duration = nil
    case .rate, .scaleRate:
      lines.append(text)
      setsRate = true
    default:
      lines.append(text)
    }
    return lines
  }

  /// Whether the replay queues the list the session started with, and moves through it as the session did.
  var queuesEntries: Bool { startingList != nil }

  /// `next`, `prev` or `goto` in a replay that queues the list: written as typed, not as the file they opened.
  func movesInReplayedList(_ command: Command) -> Bool {
    switch command {
    case .next, .previous, .goto: queuesEntries
    default: false
    }
  }

  /// The lines of a file that opened: `loading`, the lines that load it in the replay (nil: `open <path>`), then the
  /// pause, rate and start it opened with.
  func openLines(_ entry: Entry, loading: [String]? = nil) -> [String] {
    guard let path = entry.loadingPath, let ready = entry.ready else {
      return entry.loadingPath.map { ["# open \(scriptPath($0))  (did not open)"] } ?? []
    }
    var lines: [String] = []
    if !wroteHeader {
      wroteHeader = true
      lines += RecordedScriptText.header(
        version: version, path: scriptPath(path), bytes: fileSize(path), duration: ready.info.duration)
    }
    lines += loading ?? ["open \(scriptPath(path))"]
    here = ready.position.seconds
    atEnd = false
    // A replay's `open` starts each file playing: one the session opened paused (as `loading` said, else as the
    // session starts its files) is paused after it.
    paused = entry.opensPaused ?? !startsPlaying
    if paused { lines.append("pause") }
    // A file that opened at another rate than 1 (its own, or one the session kept) gets it after its open; once the
    // script sets rates, every open says its own.
    if let rate = entry.opensAtRate, rate != 1 || setsRate {
      lines.append(RecordedScriptText.line(for: .rate(rate)))
      setsRate = true
    }
    if let start = ready.start {
      // The session's own seek to where the file starts (`--start`, or a start given with the open), as a scrub:
      // exact, it lands on its target; to a keyframe, on the frame the mark after it saw (an open's mark after it
      // waits for that seek).
      let target = clamped(start.seconds)
      here = seekMode == .exact ? target : entry.after?.frame?.time.seconds ?? target
      lines.append(namingSeekMode("scrub \(RecordedScriptText.time(target))", .scrub(.seconds(target), nil)))
      lines += expectations(of: entry.after, position: here)
    }
    return lines
  }

  /// An entry the list started by itself: the first (the replay queues the list and goes to it), the next after an
  /// end (the replay's list goes on too: it waits for it), or the one after an entry removed while it played (the
  /// replay's `queue remove` started it).
  func entryLines(_ entry: Entry, _ started: EntryStarted, afterCommand: Bool) -> [String] {
    guard entry.ready != nil else {
      return entry.loadingPath.map { ["# entry \(started.index): \(scriptPath($0)) did not open"] } ?? []
    }
    if !wroteHeader, let list = startingList {
      let loops = startingListLoops ? ["queue loop yes"] : []
      return openLines(
        entry, loading: list.map { "queue add \(scriptPath($0))" } + loops + ["goto \(started.index)"])
    }
    if afterCommand { return openLines(entry, loading: ["expect entry == \(started.index)"]) }
    return openLines(entry, loading: ["wait entry \(started.index)"])
  }

  /// `queue shuffle` as `queue move` lines that turn the list before it into the order it made.
  func shuffleMoves(_ entry: Entry) -> [String] {
    guard let before = entry.listings.before, let after = entry.listings.after else { return [] }
    var order = before.entries.map(\.id)
    var lines: [String] = []
    for (number, id) in after.entries.map(\.id).enumerated() {
      guard let from = order.firstIndex(of: id), from != number else { continue }
      lines.append("queue move \(from + 1) \(number + 1)")
      order.insert(order.remove(at: from), at: number)
    }
    return lines
  }

  /// A replay brought to where the session was when the recorder joined it: its file, rate, position and state.
  func joinedLines(_ entry: Entry) -> [String] {
    guard let path = entry.loadingPath, let ready = entry.ready, let mark = entry.after else {
      wroteHeader = true
      return RecordedScriptText.header(version: version, path: nil, bytes: nil, duration: nil)
    }
    wroteHeader = true
    var lines = RecordedScriptText.header(
      version: version, path: scriptPath(path), bytes: fileSize(path), duration: ready.info.duration)
    lines.append("open \(scriptPath(path))")
    paused = mark.state != .playing
    if paused { lines.append("pause") }
    if mark.rate != 1 {
      lines.append(RecordedScriptText.line(for: .rate(mark.rate)))
      setsRate = true
    }
    here = mark.position.seconds
    atEnd = false
    lines.append("scrub \(RecordedScriptText.time(here))")
    if mark.state != .playing { lines += expectations(of: mark, position: here) }
    return lines
  }

  /// `expect` lines for the frame `mark` saw, with the replay at `position`.
  func expectations(of mark: SessionMark?, position: Double) -> [String] {
    var lines = ["expect position == \(RecordedScriptText.time(position))"]
    if let frame = mark?.frame { lines.append("expect frame.md5 == \(frame.md5)") }
    return lines
  }

  /// While playing, the mark after a seek may have seen a later frame than the one the seek landed on (playback went
  /// on between the two, across a frame's edge); the replay, on the virtual clock, would still show the first. A
  /// `wait` then brings the replay to where the mark saw playback, so the expectations are what the person saw.
  func catchUp(to mark: SessionMark?) -> [String] {
    guard let mark, mark.state == .playing, let frame = mark.frame, let frameDuration else { return [] }
    let start = frame.time.seconds
    guard here < start - 1e-6 || here >= start + frameDuration - 1e-6 else { return [] }
    return waitLine(state: mark, at: mark, exactly: true).map { [$0] } ?? []
  }

  /// The exact `wait` that brings the replay from `here` to `target` at the rate `state` played at (nil when it was
  /// not moving, or the target lies behind).
  func waitLine(state: SessionMark?, toward target: Double) -> String? {
    guard let state, state.state == .playing, state.rate != 0 else { return nil }
    let seconds = RecordedScriptText.rounded((target - here) / state.rate, decimals: 6)
    guard seconds > 0 else { return nil }
    here += state.rate * seconds
    return "wait \(RecordedScriptText.time(seconds))"
  }

  /// A seek that lands at the end playback runs toward (the start while playing backward, the end while playing
  /// forward) ends the file at once: the replay meets that end before the next line, the session maybe after it, so
  /// the landing gets no `expect` of its own; the `wait ended` after it checks where the end left the session.
  func endsAtOnce(_ entry: Entry) -> Bool {
    guard let before = entry.before, before.state == .playing, before.rate != 0 else { return false }
    if before.rate < 0 { return here <= 1e-6 }
    guard let end = duration?.seconds else { return false }
    return here >= end - 1e-6
  }

  /// Where a skip of `delta` counted from, when its target lies inside the media (one past an end was clamped, and
  /// says nothing of where it counted from).
  func skipBase(_ result: SeekResult, _ delta: Double) -> Double? {
    let target = result.target.seconds
    guard target > 1e-6, target < (duration?.seconds ?? .infinity) - 1e-6 else { return nil }
    return target - delta
  }

  func clamped(_ position: Double) -> Double {
    min(max(position, 0), duration?.seconds ?? .infinity)
  }

  /// The `wait` that brings the replay from `here` to where `mark` saw playback (nil when it was not moving), landing
  /// inside the frame on screen then: at the position the session reported when that lies inside the frame, else in
  /// the frame's middle (the wall clock showed the frame late). `exactly`: six decimals, so the replay stands where the
  /// session stood (before a command relative to the position, and where a pause stopped).
  func waitLine(state: SessionMark?, at mark: SessionMark?, exactly: Bool) -> String? {
    guard let state, state.state == .playing, state.rate != 0, let mark else { return nil }
    let rate = state.rate
    var target = mark.position.seconds
    var frameSpan: ClosedRange<Double>?
    if let frame = mark.frame, let frameDuration {
      let start = frame.time.seconds
      let margin = min(1e-4, frameDuration / 4)
      let atStart = abs(target - start) <= 1e-6
      if !atStart && (target < start + margin || target > start + frameDuration - margin) {
        target = start + frameDuration / 2
      }
      frameSpan = (start + 1e-5)...(start + frameDuration - 1e-5)
    }
    let seconds = (target - here) / rate
    var chosen = RecordedScriptText.rounded(seconds, decimals: 3)
    var text = String(format: "%.3f", chosen)
    if exactly || chosen <= 0 || !(frameSpan?.contains(here + rate * chosen) ?? true) {
      chosen = RecordedScriptText.rounded(seconds, decimals: 6)
      text = RecordedScriptText.time(chosen)
    }
    guard chosen > 0 else { return nil }
    here += rate * chosen
    return "wait \(text)"
  }
}

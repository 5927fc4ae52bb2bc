// SessionRecorder: writes what a person does in a session as a playback test script (`vpk play --record FILE`), so
// `vpk test` can replay it on the virtual clock.
//
// It is one more view of the session: attached to the fan-out as a presenter, it sees every typed event; as the
// fan-out's submission observer, it sees every command any view sends, with its line. Around each command it submits
// a `mark` of its own (invisible to the other views): the one before says where playback was when the command came,
// the one after what the command put on screen. From these it writes, in order:
//
// - `open <path>` for each file that opened (relative to the script's folder when they share a folder);
// - before each command, while playing, a `wait` for the media time that passed since the last line, rounded so the
//   replay lands on the frame that was on screen (the wall clock may have shown it late);
// - each command as it was written;
// - after each command that shows a new frame (scrub, skip, step, pause, the end) and each `mark`, the `expect` lines
//   that pin it: the position the replay will be at and the MD5 of the frame the person saw.
//
// It keeps the replay's position as the script will produce it (`here`), so the waits and the expected positions are
// the replay's own, exact on the virtual clock.

import VideoPlaybackKit

@MainActor
package final class SessionRecorder: PlaybackInteractorOutput, PlaybackSubmissionObserver {
  /// The recorder's own view: its `mark`s are sent as it, and answered only to it.
  package let viewID: ViewID
  /// Where the recorder submits its `mark`s (the fan-out's port for its view), set once by the Builder.
  package var interactor: (any PlaybackInteractorInput)?

  private let output: any TextOutput
  /// The path a script in the recording's folder opens for a path as the session names it.
  private let scriptPath: (String) -> String
  /// The size of the file the session names `path`, in bytes (nil: unknown).
  private let fileSize: (String) -> Int?
  /// The session's rate now (its status board's).
  private let rateNow: () -> Double
  /// Whether the session starts each file playing (a replay does; a recording that starts paused writes `pause`).
  private let startsPlaying: Bool
  /// The session's seek mode for a `scrub` or `skip` that names none (a replay's is `exact`).
  private let seekMode: SeekMode
  private let version: String
  /// Client ids of commands a client sends for itself, not for the person (`vpk attach`'s markers): not recorded.
  private let unrecordedClientIDs: Set<String>

  /// A command (or the end of the media) whose lines are written once what they need has come.
  private final class Entry {
    enum Kind {
      case command(text: String, Command)
      case invalid(text: String, PlaybackError)
      /// The file the session opened by itself (the command line's).
      case initialOpen
      /// The session as the recorder found it, joining it while it ran (`vpk attach --record`).
      case joined
      case ended(EndReached)
    }
    let kind: Kind
    let sender: CommandSender?
    /// Every mark it asked for has been requested (the command was sent).
    var submitted = false
    var marksAwaited = 0
    var before: SessionMark?
    var after: SessionMark?
    var loadingPath: String?
    /// Whether the file opens paused, as `loading` said (a replaced file's pause, or one of its own).
    var opensPaused: Bool?
    /// The session's rate as the file was ready (its own, one the session kept, or 1).
    var opensAtRate: Double?
    /// `start`: where the session seeks the file to as it opens (its `--start`, or a start given with the open).
    var ready: (info: MediaInfo, position: MediaTime, start: MediaTime?)?
    var seeked: SeekOutcome?
    var stepped: StepResult?
    /// The error the command was answered with.
    var error: PlaybackError?

    init(_ kind: Kind, sender: CommandSender? = nil) {
      self.kind = kind
      self.sender = sender
    }

    var isOpen: Bool {
      switch kind {
      case .command(_, .open), .initialOpen: true
      default: false
      }
    }

    var isComplete: Bool { submitted && marksAwaited == 0 }
  }

  private var entries: [Entry] = []
  /// The recorder's own marks not yet answered: which entry asked, and whether before its command.
  private var awaited: [Int: (entry: Entry, before: Bool)] = [:]
  /// The recorder's own `info` not yet answered, and the entry that asked.
  private var awaitedInfo: (number: Int, entry: Entry)?
  private var ownCount = 0
  private var closed = false
  private var wroteHeader = false

  // The replay, as the script written so far leaves it.
  /// Its position.
  private var here = 0.0
  /// It stopped at an end of the media.
  private var atEnd = false
  /// It is paused (a pause, a step, a file opened paused): playback cannot reach an end until a `play`.
  private var paused = false
  /// The script has set a rate: from then on every open says the rate its file opened at (a replay's `open` starts a
  /// file at 1 beside another, and keeps the rate there was with none).
  private var setsRate = false
  private var duration: MediaTime?
  /// One frame's duration (from the frame rate), to land a wait inside the frame that was on screen.
  private var frameDuration: Double?

  package init(
    viewID: ViewID, output: any TextOutput, version: String, startsPlaying: Bool,
    seekMode: SeekMode = .exact, unrecordedClientIDs: Set<String> = [], scriptPath: @escaping (String) -> String,
    fileSize: @escaping (String) -> Int?, rateNow: @escaping () -> Double = { 1 }
  ) {
    self.rateNow = rateNow
    self.viewID = viewID
    self.output = output
    self.version = version
    self.startsPlaying = startsPlaying
    self.seekMode = seekMode
    self.unrecordedClientIDs = unrecordedClientIDs
    self.scriptPath = scriptPath
    self.fileSize = fileSize
  }

  /// Starts recording a session that is running: asks where it is (`info`, and a mark), and writes the `open`,
  /// `rate` and `scrub` that bring a replay there. Call once, after the recorder is attached.
  package func join() {
    let entry = Entry(.joined)
    entries.append(entry)
    ownCount += 1
    entry.marksAwaited += 1
    awaitedInfo = (ownCount, entry)
    interactor?.submit(.info, source: nil, from: CommandSender(view: viewID, number: ownCount))
    requestMark(for: entry, before: false)
    entry.submitted = true
    flush()
  }

  /// Writes what it has and records no more (the session ended, or the recording was stopped).
  package func finish() {
    guard !closed else { return }
    closed = true
    for entry in entries {
      entry.submitted = true
      entry.marksAwaited = 0
    }
    flush()
    if !wroteHeader { write(RecordedScriptText.header(version: version, path: nil, bytes: nil, duration: nil)) }
  }

  // MARK: - PlaybackSubmissionObserver

  package func observe(_ submission: CommandSubmission, send: () -> Int) -> Int {
    guard submission.view != viewID, !closed else { return send() }
    if case .string(let id)? = submission.sender?.clientID, unrecordedClientIDs.contains(id) { return send() }
    let text =
      submission.source?.text.trimmingSpaces ?? submission.command.map(RecordedScriptText.line(for:)) ?? ""
    guard let command = submission.command else {
      let entry = Entry(
        .invalid(text: text, submission.error ?? PlaybackError(.badInput, text)), sender: submission.sender)
      entry.submitted = true
      entries.append(entry)
      let id = send()
      flush()
      return id
    }
    // `quit` ends the script where it is; a typed `wait` is replayed by the waits before the next command.
    if command == .quit { return send() }
    let entry = Entry(.command(text: namingSeekMode(text, command), command), sender: submission.sender)
    entries.append(entry)
    if case .wait = command {
      entry.submitted = true
      return send()
    }
    requestMark(for: entry, before: true)
    let id = send()
    if Self.showsNewFrame(command) || command.isOpen { requestMark(for: entry, before: false) }
    entry.submitted = true
    flush()
    return id
  }

  /// `text` with the session's seek mode named when it is not the replay's (`--seek keyframe`) and the seek names none.
  private func namingSeekMode(_ text: String, _ command: Command) -> String {
    guard seekMode != .exact, !text.hasPrefix("{") else { return text }
    switch command {
    case .scrub(_, nil), .skip(_, nil): return text + " " + seekMode.rawValue
    default: return text
    }
  }

  /// Commands after which the recorder pins the frame on screen.
  private static func showsNewFrame(_ command: Command) -> Bool {
    switch command {
    case .scrub, .skip, .step, .pause, .toggle: true
    default: false
    }
  }

  /// `reserved`: the entry already counts this mark as awaited.
  private func requestMark(for entry: Entry, before: Bool, reserved: Bool = false) {
    guard !closed else { return }
    ownCount += 1
    if !reserved { entry.marksAwaited += 1 }
    awaited[ownCount] = (entry, before)
    interactor?.submit(.mark, source: nil, from: CommandSender(view: viewID, number: ownCount))
  }

  package func observe(reply: SessionEvent, origin: CommandOrigin?) {
    guard !closed, case .error(let error) = reply, let entry = entry(answering: origin) else { return }
    entry.error = error
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    guard !closed else { return }
    switch event {
    case .mark(let mark):
      guard let sender = origin?.sender, sender.view == viewID,
        let (entry, before) = awaited.removeValue(forKey: sender.number)
      else { break }
      if before { entry.before = mark } else { entry.after = mark }
      entry.marksAwaited -= 1
    case .info(let info) where origin?.sender?.view == viewID:
      guard let (number, entry) = awaitedInfo, origin?.sender?.number == number else { break }
      awaitedInfo = nil
      duration = info.duration
      frameDuration = info.video?.frameRate.flatMap { $0 > 0 ? 1 / $0 : nil }
      entry.loadingPath = info.path
      entry.ready = (info, .zero, nil)
      entry.marksAwaited -= 1
    case .error where origin?.sender?.view == viewID:
      // Nothing loaded: the recorder's `info` is refused.
      guard let (number, entry) = awaitedInfo, origin?.sender?.number == number else { break }
      awaitedInfo = nil
      entry.marksAwaited -= 1
    case .loading(let path, let paused):
      let entry =
        entries.first(where: { $0.isOpen && $0.loadingPath == nil && $0.ready == nil })
        ?? {
          let entry = Entry(.initialOpen)
          entries.append(entry)
          return entry
        }()
      entry.loadingPath = path
      entry.opensPaused = paused
    case .ready(let info, let position, let start):
      duration = info.duration
      frameDuration = info.video?.frameRate.flatMap { $0 > 0 ? 1 / $0 : nil }
      if let entry = entries.first(where: { $0.isOpen && $0.loadingPath != nil && $0.ready == nil }) {
        entry.ready = (info, position, start)
        entry.opensAtRate = rateNow()
        if case .initialOpen = entry.kind {
          if start != nil {
            // Where the session's own seek to `--start` (the start `ready` names) landed: the mark is sent once that
            // seek is under way (it starts after `ready`), so it is answered when it lands.
            entry.marksAwaited += 1
            Task { @MainActor [weak self] in self?.requestMark(for: entry, before: false, reserved: true) }
          }
          entry.submitted = true
        }
      }
    case .seeked(let outcome):
      entry(answering: origin)?.seeked = outcome
    case .stepped(let result, _):
      entry(answering: origin)?.stepped = result
    case .ended(let end):
      let entry = Entry(.ended(end))
      entries.append(entry)
      requestMark(for: entry, before: false)
      entry.submitted = true
    case .shutdown:
      finish()
      return
    default:
      break
    }
    flush()
  }

  private func entry(answering origin: CommandOrigin?) -> Entry? {
    guard let sender = origin?.sender else { return nil }
    return entries.first { $0.sender == sender }
  }

  // MARK: - Writing

  /// Writes the entries at the front that have all they need, in order.
  private func flush() {
    while let first = entries.first, first.isComplete {
      entries.removeFirst()
      write(lines(for: first))
    }
  }

  private func write(_ lines: [String]) {
    guard !lines.isEmpty else { return }
    _ = output.write(lines.map { $0 + "\n" }.joined())
  }

  private func lines(for entry: Entry) -> [String] {
    switch entry.kind {
    case .invalid(let text, let error):
      return [text, "expect error == \(error.code.rawValue)"]
    case .initialOpen:
      return openLines(entry)
    case .joined:
      return joinedLines(entry)
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
      guard let error = entry.error, !command.isOpen, !command.isWait else { return lines }
      return lines + ["expect error == \(error.code.rawValue)"]
    }
  }

  private func lines(for command: Command, text: String, _ entry: Entry) -> [String] {
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
    case .open, .replace:
      return lines + openLines(entry)
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

  private func openLines(_ entry: Entry) -> [String] {
    guard let path = entry.loadingPath, let ready = entry.ready else {
      return entry.loadingPath.map { ["# open \(scriptPath($0))  (did not open)"] } ?? []
    }
    var lines: [String] = []
    if !wroteHeader {
      wroteHeader = true
      lines += RecordedScriptText.header(
        version: version, path: scriptPath(path), bytes: fileSize(path), duration: ready.info.duration)
    }
    lines.append("open \(scriptPath(path))")
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

  /// A replay brought to where the session was when the recorder joined it: its file, rate, position and state.
  private func joinedLines(_ entry: Entry) -> [String] {
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
  private func expectations(of mark: SessionMark?, position: Double) -> [String] {
    var lines = ["expect position == \(RecordedScriptText.time(position))"]
    if let frame = mark?.frame { lines.append("expect frame.md5 == \(frame.md5)") }
    return lines
  }

  /// While playing, the mark after a seek may have seen a later frame than the one the seek landed on (playback went
  /// on between the two, across a frame's edge); the replay, on the virtual clock, would still show the first. A
  /// `wait` then brings the replay to where the mark saw playback, so the expectations are what the person saw.
  private func catchUp(to mark: SessionMark?) -> [String] {
    guard let mark, mark.state == .playing, let frame = mark.frame, let frameDuration else { return [] }
    let start = frame.time.seconds
    guard here < start - 1e-6 || here >= start + frameDuration - 1e-6 else { return [] }
    return waitLine(state: mark, at: mark, exactly: true).map { [$0] } ?? []
  }

  /// The exact `wait` that brings the replay from `here` to `target` at the rate `state` played at (nil when it was
  /// not moving, or the target lies behind).
  private func waitLine(state: SessionMark?, toward target: Double) -> String? {
    guard let state, state.state == .playing, state.rate != 0 else { return nil }
    let seconds = RecordedScriptText.rounded((target - here) / state.rate, decimals: 6)
    guard seconds > 0 else { return nil }
    here += state.rate * seconds
    return "wait \(RecordedScriptText.time(seconds))"
  }

  /// A seek that lands at the end playback runs toward (the start while playing backward, the end while playing
  /// forward) ends the file at once: the replay meets that end before the next line, the session maybe after it, so
  /// the landing gets no `expect` of its own; the `wait ended` after it checks where the end left the session.
  private func endsAtOnce(_ entry: Entry) -> Bool {
    guard let before = entry.before, before.state == .playing, before.rate != 0 else { return false }
    if before.rate < 0 { return here <= 1e-6 }
    guard let end = duration?.seconds else { return false }
    return here >= end - 1e-6
  }

  /// Where a skip of `delta` counted from, when its target lies inside the media (one past an end was clamped, and
  /// says nothing of where it counted from).
  private func skipBase(_ result: SeekResult, _ delta: Double) -> Double? {
    let target = result.target.seconds
    guard target > 1e-6, target < (duration?.seconds ?? .infinity) - 1e-6 else { return nil }
    return target - delta
  }

  private func clamped(_ position: Double) -> Double {
    min(max(position, 0), duration?.seconds ?? .infinity)
  }

  /// The `wait` that brings the replay from `here` to where `mark` saw playback (nil when it was not moving), landing
  /// inside the frame on screen then: at the position the session reported when that lies inside the frame, else in
  /// the frame's middle (the wall clock showed the frame late). `exactly`: six decimals, so the replay stands where the
  /// session stood (before a command relative to the position, and where a pause stopped).
  private func waitLine(state: SessionMark?, at mark: SessionMark?, exactly: Bool) -> String? {
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

extension Command {
  fileprivate var isOpen: Bool {
    switch self {
    case .open, .replace: true
    default: false
    }
  }

  fileprivate var isWait: Bool {
    if case .wait = self { true } else { false }
  }

  /// Its outcome depends on the position it starts from.
  fileprivate var isRelative: Bool {
    if case .skip = self { true } else { false }
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return String(text)
  }
}

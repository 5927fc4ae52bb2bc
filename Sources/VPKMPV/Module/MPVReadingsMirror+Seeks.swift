// MPVReadingsMirror's seeks: this client's and other views' seeks and steps as mpv tells them (`seek`, `seeking`,
// `playback-restart`, where they landed).

import VideoPlaybackKit

extension MPVReadingsMirror {
  // MARK: - This client's seeks

  /// This client's seek, command `number`, is submitted: `seeking` is true from its `seek` until its
  /// `playback-restart`. `announced`: its `seek` was sent as it was sent (with a file loaded).
  func seekSubmitted(_ number: Int, announced: Bool) {
    seeks.submitted(number, announced: announced)
  }

  /// This client's seek `number` failed or was replaced: it is no longer under way.
  func seekGone(_ number: Int) {
    seeks.gone(number)
  }

  // MARK: - Seeks and steps as they start and land

  /// Another view's seek or step started: mpv tells every client `seek` as a seek starts, and `seeking` is true until
  /// its `playback-restart`. This client's own seeks are announced as they are sent (see `seekSubmitted`). mpv's
  /// `frame-step` forward plays one frame and seeks nothing: neither its start nor its landing is shown (see
  /// `stepped`).
  func othersSeekStarted(_ start: SeekStart, id: Int) {
    if case .frames(let count) = start, count > 0 { return }
    seeks.othersStarted(id)
    replies.event("seek")
    seekStarted(start)
  }

  /// This client's seek started: its `seek` was shown as it was sent (when announced); what it changes is told now.
  func ownSeekStarted(_ start: SeekStart, _ commandID: Int) {
    guard seeks.isAnnounced(commandID) else { return }
    seekStarted(start)
  }

  /// As mpv tells a seek as it starts: the position is the target until the seek lands, and observers hear it with
  /// `seeking` true (and `core-idle` true while playing), in the order they were added; a seek from the end of a file
  /// kept open turns `eof-reached` false then too.
  private func seekStarted(_ start: SeekStart) {
    if case .time(let target) = start {
      if readings.state == .ended { readings.state = .paused }
      readings.position = target
    }
    publishChanges()
  }

  /// Whether the seek or step that landed (of `origin`) is another view's whose start was shown. Seeks and steps land
  /// in the order they were sent: the older ones (anyone's) landed or were replaced, and are forgotten with it.
  func landedOthersSeek(_ origin: CommandOrigin?, _ commandID: Int?) -> Bool {
    guard let id = origin?.id else { return false }
    return seeks.landed(id: id, mine: commandID != nil)
  }

  /// `othersSeek`: another view's seek whose `seek` was shown as it started. mpv's order as a seek lands:
  /// `playback-restart`; `seeking` false (`core-idle` false while playing); then where it landed (`time-pos` …), when
  /// that is not the target told as it started, unless a newer seek is under way.
  func seeked(_ position: MediaTime, duration: MediaTime?, _ commandID: Int?, othersSeek: Bool) {
    var announced = othersSeek
    if let commandID { announced = seeks.landed(commandID) }
    if let duration { readings.duration = duration }
    if readings.state == .ended { readings.state = .paused }
    commands.settle(commandID)
    // A seek whose start was not shown (this client's, sent before the file loaded) is seen as it lands.
    if !announced { seekShownAsItLands() }
    replies.event("playback-restart")
    publishChanges()
    // A seek that lands while a newer one is under way leaves the newer one's target told, as mpv keeps it.
    guard readings.seeking == false else { return }
    readings.position = position
    publishChanges()
  }

  /// A seek whose start was not shown, seen as it lands: its `seek`, then `seeking` true until the
  /// `playback-restart`, as mpv tells every client of a seek.
  private func seekShownAsItLands() {
    replies.event("seek")
    let seeking = readings.seeking
    readings.seeking = true
    publishChanges(of: .seeking)
    readings.seeking = seeking
  }

  /// This client's seek `commandID` (when its) was replaced by a newer one: mpv answers it with success, too.
  func superseded(_ commandID: Int?) {
    if let commandID { seekGone(commandID) }
    commands.settle(commandID)
  }

  /// `othersStep`: another view's step whose `seek` was shown as it started; this client's own show theirs after the
  /// reply, as they land. A step forward is mpv's `frame-step`, which plays one frame and seeks nothing: no `seek`,
  /// no `playback-restart`, only the changes. mpv plays that frame by unpausing: from paused, observers are told
  /// `pause` and `core-idle` false, then, with the frame, every change (`time-pos`, `pause` and `core-idle` true …)
  /// in their order; from playing, the frame's changes only.
  /// `moved`: whether the step went to another frame. One forward from the end of a file kept open does nothing, as
  /// mpv's `frame-step` there does nothing.
  func stepped(
    _ position: MediaTime, duration: MediaTime?, _ commandID: Int?, othersStep: Bool, forward: Bool, moved: Bool
  ) {
    if forward && !moved && readings.state == .ended { return commands.settle(commandID) }
    let playsFromPause = forward && readings.state == .paused
    commands.settle(commandID)
    if playsFromPause {
      readings.state = .playing
      publishChanges()
    }
    // This client's back step is a seek, as mpv tells it: `seek` and `seeking` true from where playback was, then
    // `playback-restart`, `seeking` false and where it landed. (Another's was told as it started.)
    if !forward && !othersStep { seekShownAsItLands() }
    readings.position = position
    if let duration { readings.duration = duration }
    readings.state = .paused
    if !forward { replies.event("playback-restart") }
    publishChanges()
  }
}

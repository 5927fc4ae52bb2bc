// The playback commands: those that need a file that opened (play, pause, toggle, scrub, skip, step, rate, info,
// frame, snapshot), and what `play`, `pause`, `toggle` and `rate` do with no file loaded.

extension PlaybackInteractor {
  /// The commands that need media that opened.
  func runPlaybackCommand(_ numbered: NumberedCommand) {
    let id = numbered.id
    let command = numbered.command
    guard phase == .ready, let info, let manager else {
      if phase == .idle, setForNextFile(numbered) { return }
      reportError(
        PlaybackError(.noMedia(verb: command.verb, idle: phase == .idle)), commandID: id, source: numbered.source)
      return
    }
    switch command {
    case .play: play(id: id)
    case .pause: pause(id: id)
    case .toggle: state == .playing ? pause(id: id) : play(id: id)
    case .scrub(.percent, _) where info.duration == nil:
      reportError(PlaybackError(.percentOfUnknownDuration), commandID: id, source: numbered.source)
    case .scrub(let time, let mode):
      seek(to: time.resolved(duration: info.duration), mode: mode ?? options.seekMode, id: id)
    case .skip(let delta, let mode):
      seek(to: expectedPosition() + delta, mode: mode ?? options.seekMode, id: id)
    case .step(let count):
      guard info.video != nil else {
        reportError(PlaybackError(.noVideoToStep), commandID: id, source: numbered.source)
        return
      }
      if state == .playing { manager.pause() }
      // A step forward from the end has nowhere to go: the session stays at its end (as mpv's frame-step there does
      // nothing); any other step leaves it paused.
      let fromEnd = state == .ended && count > 0
      if !fromEnd { state = .paused }
      outstanding.append(.step(id: id, fromEnd: fromEnd))
      // Told before the manager starts it: a step that lands at once is reported after.
      emit(.seekStarted(.frames(count)), answering: id)
      manager.step(StepRequest(id: id, count: count))
    case .scaleRate(let factor):
      runPlaybackCommand(NumberedCommand(id: id, command: .rate(scaledRate(by: factor)), source: numbered.source))
    case .rate(let newRate):
      guard options.clock != .free else {
        reportError(PlaybackError(.rateOnFreeClock), commandID: id, source: numbered.source)
        return
      }
      guard newRate > 0 || info.video != nil else {
        reportError(PlaybackError(.noVideoToReverse), commandID: id, source: numbered.source)
        return
      }
      rate = newRate
      manager.setRate(newRate)
      emit(.rate(newRate), answering: id)
    case .info:
      var info = info
      info.entry = entryPosition
      emit(.info(info), answering: id)
    case .frame:
      reportFrame(id: id, info: info, source: numbered.source)
    case .snapshot(let path):
      writeSnapshot(to: path, id: id, info: info, source: numbered.source)
    case .help, .quit, .open, .close, .status, .mark, .wait, .expect, .next, .previous, .goto, .queue:
      break
    }
  }

  /// The rate there is scaled by `factor`: within what `rate` accepts (as mpv's speed is), in the direction there is.
  func scaledRate(by factor: Double) -> Double {
    let range = PlaybackLimits.rate
    // Rounded to a millionth, so `]` then `[` comes back to the speed there was.
    let speed = min(max((abs(rate) * factor * 1e6).rounded() / 1e6, range.lowerBound), range.upperBound)
    return rate < 0 ? -speed : speed
  }

  /// `play`, `pause`, `toggle` and `rate` with no file loaded: they set what the next file opens with (false: the
  /// command needs a file). The rate is a speed forward: whether a file can play backward is known once it opens.
  func setForNextFile(_ numbered: NumberedCommand) -> Bool {
    let id = numbered.id
    switch numbered.command {
    case .play: opensPaused = false
    case .pause: opensPaused = true
    case .toggle: opensPaused.toggle()
    case .rate where options.clock == .free:
      reportError(PlaybackError(.rateOnFreeClock), commandID: id, source: numbered.source)
      return true
    case .rate(let newRate) where newRate > 0:
      rate = newRate
      emit(.rate(newRate), answering: id)
      return true
    case .scaleRate(let factor) where rate > 0:
      runPlaybackCommand(NumberedCommand(id: id, command: .rate(scaledRate(by: factor)), source: numbered.source))
      return true
    default: return false
    }
    emit(.next(paused: opensPaused), answering: id)
    return true
  }

  func play(id: Int) {
    if state == .ended {
      // Play at the end starts over, as a player's play button does. The seek is the interactor's own: the
      // `state` below is the play's one reply, and the commands after it wait for the seek to land. Playing
      // backward, it starts over from the last frame.
      if rate < 0, let end = info?.duration {
        startSeek(SeekRequest(id: Self.internalSeekID, target: end, mode: .exact))
      } else {
        startSeek(SeekRequest(id: Self.internalSeekID, target: .zero, mode: .keyframe))
      }
    }
    state = .playing
    manager?.play()
    presentState(commandID: id)
  }

  func pause(id: Int) {
    if state == .playing {
      state = .paused
      manager?.pause()
    }
    presentState(commandID: id)
  }

  func seek(to target: MediaTime, mode: SeekMode, id: Int) {
    let duration = info?.duration
    guard target.seconds.isFinite else {
      reportError(PlaybackError(.targetNotFinite), commandID: id, source: nil)
      return
    }
    if state == .ended { state = .paused }
    let clamped = target.clamped(to: duration)
    if clamped != target { commands.requestedBeforeClamp[id] = target }
    startSeek(SeekRequest(id: id, target: clamped, mode: mode), announcing: target)
  }

  /// `announcing`: a command's seek, which every view hears of as it starts (`seekStarted`, with the target as it was
  /// asked for, which may lie outside the media), before the manager starts it, so a seek that lands at once is
  /// reported after.
  func startSeek(_ request: SeekRequest, announcing asked: MediaTime? = nil) {
    endAfterStep = nil
    outstanding.append(.seek(request))
    if let asked { emit(.seekStarted(.time(asked)), answering: request.id) }
    manager?.seek(request)
  }

  var outstandingSeeks: [SeekRequest] {
    outstanding.compactMap { if case .seek(let request) = $0 { request } else { nil } }
  }

  /// Where playback will be once the seeks already sent have landed.
  func expectedPosition() -> MediaTime {
    outstandingSeeks.last?.target ?? manager?.snapshot().position ?? .zero
  }
}

// The interactor's checks: `wait` (what it waits for, and why it can never be satisfied) and `expect` (the value the
// session holds for a field, and the report of what failed).

extension PlaybackInteractor {
  // MARK: - wait

  func wait(for condition: WaitCondition, timeout: Double?, _ numbered: NumberedCommand) {
    let id = numbered.id
    let position = expectedPosition()
    func satisfied() { emit(.waited(condition, position: position), answering: id) }
    func impossible(_ obstacle: WaitObstacle) {
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: obstacle)), commandID: id, source: numbered.source)
    }
    guard phase == .ready, let manager else {
      if case .duration(let seconds) = condition {
        waitWithoutMedia(seconds: seconds, id: id, condition: condition)
      } else if case .seeked = condition {
        satisfied()
      } else {
        impossible(.noMedia)
      }
      return
    }
    let until: PlaybackWait.Until
    switch condition {
    case .seeked:
      satisfied()  // it ran after every earlier seek had landed
      return
    case .duration(let seconds):
      until = .elapsed(seconds)
    case .ended:
      if state == .ended { return satisfied() }
      guard state == .playing else { return impossible(.paused) }
      until = .ended
    case .paused:
      guard state == .playing else { return satisfied() }
      guard options.endAction != .loop else {
        return impossible(.loops)
      }
      until = .ended
    case .position(let spec):
      if case .percent = spec, info?.duration == nil {
        return impossible(.unknownDuration)
      }
      let target = spec.resolved(duration: info?.duration)
      if position.seconds >= target.seconds - Expectation.equalityTolerance { return satisfied() }
      // No position is past the end, whichever way playback goes and whether it loops.
      if let end = info?.duration, target.seconds > end.seconds + Expectation.equalityTolerance {
        return impossible(.pastTheEnd(end))
      }
      guard state == .playing else { return impossible(.pausedAt(position)) }
      until = .position(target)
    case .entry(let number):
      guard (1...max(playlist.count, 1)).contains(number), !playlist.isEmpty else {
        return reportError(
          PlaybackError(
            .noSuchEntry,
            "wait entry \(number): the queue has \(playlist.count) entries, numbered 1 to \(playlist.count)"),
          commandID: id, source: numbered.source)
      }
      if playlist.currentIndex == number - 1 { return satisfied() }
      guard state == .playing else { return impossible(.paused) }
      if let current = playlist.currentIndex, number - 1 < current, !playlist.loops, options.endAction != .loop {
        return impossible(.entryBehind)
      }
      // The entries before it play to their ends: the wait is armed again as each starts (`resumeEntryWaits`).
      until = .ended
    case .positionAtMost(let spec):
      if case .percent = spec, info?.duration == nil {
        return impossible(.unknownDuration)
      }
      let target = spec.resolved(duration: info?.duration)
      if position.seconds <= target.seconds + Expectation.equalityTolerance { return satisfied() }
      guard state == .playing else { return impossible(.pausedAt(position)) }
      until = .positionAtMost(target)
    }
    commands.waitSources[id] = numbered.source
    outstanding.append(.wait(id: id, condition))
    manager.wait(PlaybackWait(id: id, until: until, timeout: timeout))
  }

  /// `wait <seconds>` with nothing loaded: on the wall clock real time passes; otherwise no time can.
  func waitWithoutMedia(seconds: Double, id: Int, condition: WaitCondition) {
    guard options.clock == .wall, seconds > 0 else {
      emit(.waited(condition, position: .zero), answering: id)
      return
    }
    outstanding.append(.idleWait(id: id))
    Task { @MainActor [weak self] in
      try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
      // Unless it was withdrawn meanwhile.
      guard let self, self.phase != .closed,
        let index = self.outstanding.firstIndex(where: { if case .idleWait(id) = $0 { true } else { false } })
      else { return }
      self.outstanding.remove(at: index)
      self.emit(.waited(condition, position: .zero), answering: id)
      self.drain()
    }
  }

  /// Fails the outstanding waits: the file ended (and goes) before they were satisfied. `keepingEntryWaits`: the
  /// queue's next entry loads, and `wait entry` goes on through it.
  func failWaitsEndedFirst(at position: MediaTime, keepingEntryWaits: Bool = false) {
    func failing(_ operation: Operation) -> Bool {
      guard case .wait(_, let condition) = operation else { return false }
      if case .entry = condition { return !keepingEntryWaits }
      return true
    }
    let waits = outstanding.compactMap {
      if failing($0), case .wait(let id, let condition) = $0 { (id, condition) } else { nil }
    }
    outstanding.removeAll(where: failing)
    for (id, condition) in waits {
      failWait(
        PlaybackError(.waitNeverSatisfied(condition, because: .endedFirst(at: position))), commandID: id,
        source: commands.waitSources.removeValue(forKey: id))
    }
  }

  /// The waits for an entry of the queue: what they wait for, by id.
  var entryWaits: [(id: Int, number: Int)] {
    outstanding.compactMap { if case .wait(let id, .entry(let number)) = $0 { (id, number) } else { nil } }
  }

  /// An entry of the queue is ready: the waits for it are satisfied, the others wait for its end.
  func resumeEntryWaits(position: MediaTime) {
    for (id, number) in entryWaits {
      if playlist.currentIndex == number - 1 {
        outstanding.removeAll { if case .wait(id, _) = $0 { true } else { false } }
        commands.waitSources[id] = nil
        emit(.waited(.entry(number), position: position), answering: id)
      } else if state == .playing, let manager {
        manager.wait(PlaybackWait(id: id, until: .ended, timeout: nil))
      } else {
        outstanding.removeAll { if case .wait(id, _) = $0 { true } else { false } }
        failWait(
          PlaybackError(.waitNeverSatisfied(.entry(number), because: .paused)), commandID: id,
          source: commands.waitSources.removeValue(forKey: id))
      }
    }
  }

  /// The queue ended before the entries waited for: their waits fail.
  func failEntryWaits() {
    for (id, number) in entryWaits {
      outstanding.removeAll { if case .wait(id, _) = $0 { true } else { false } }
      failWait(
        PlaybackError(.waitNeverSatisfied(.entry(number), because: .listEndedFirst)), commandID: id,
        source: commands.waitSources.removeValue(forKey: id))
    }
  }

  func failWait(_ error: PlaybackError, commandID: Int, source: SourceLine?) {
    lastError = (error.code, commandID)
    report.failedChecks.append(
      SessionReport.Failure(commandID: commandID, source: source, error: error))
    emit(.error(error), answering: commandID)
  }

  /// Answers an outstanding `wait ended` / `wait paused` that the end satisfies.
  func answerWaitsSatisfiedByEnd(position: MediaTime) {
    for operation in outstanding {
      guard case .wait(let id, let condition) = operation else { continue }
      let satisfied =
        switch condition {
        case .ended: true
        case .paused: options.endAction != .loop
        default: false
        }
      guard satisfied else { continue }
      outstanding.removeAll { if case .wait(id, _) = $0 { true } else { false } }
      commands.waitSources[id] = nil
      emit(.waited(condition, position: position), answering: id)
    }
  }

  // MARK: - expect

  func check(_ expectation: Expectation, _ numbered: NumberedCommand) {
    report.expectCount += 1
    let actual = actualValue(of: expectation.field)
    let expected = expectation.expected.resolved(duration: info?.duration)
    let held = expectation.holds(actual: actual, expected: expected)
    if expectation.field == .error, held, let lastError, let erroredID = lastError.commandID {
      // `expect error == <code>` that holds acknowledges that error (a rejected command, a wait that
      // timed out): it was the point of the test.
      report.commandErrors.removeAll { $0.commandID == erroredID }
      report.failedChecks.removeAll { $0.commandID == erroredID && $0.code == lastError.code }
    }
    if !held {
      report.failedChecks.append(
        SessionReport.Failure(
          commandID: numbered.id, source: numbered.source,
          error: PlaybackError(.expectFailed(expectation.field, expectation.op)), expected: expected, actual: actual,
          picture: expectation.field.isFrameField ? saveFailurePicture(numbered) : nil))
    }
    emit(
      .expectation(
        ExpectationOutcome(
          expectation: expectation, expected: expected, actual: actual, held: held, source: numbered.source)),
      answering: numbered.id)
  }

  /// What the session holds for `field` now (`none` when the media has no such thing).
  func actualValue(of field: ExpectField) -> ExpectValue {
    func number(_ value: Double?) -> ExpectValue { value.map(ExpectValue.number) ?? .none }
    func number(_ value: Int?) -> ExpectValue { value.map { .number(Double($0)) } ?? .none }
    func string(_ value: String?) -> ExpectValue { value.map(ExpectValue.string) ?? .none }
    let status = currentStatus()
    switch field {
    case .state: return .string(status.state.rawValue)
    case .position: return .number(status.position.seconds)
    case .duration: return number(info?.duration?.seconds)
    case .rate: return .number(rate)
    case .loops: return number(status.loops)
    case .error: return string(lastError?.code.rawValue)
    case .container: return string(info?.container)
    case .path: return string(path)
    case .framesDecoded: return number(status.framesDecoded)
    case .decodeErrors: return number(status.decodeErrors)
    case .cacheFrames: return number(status.frameCache.frames)
    case .cacheBytes: return number(status.frameCache.bytes)
    case .cacheHits: return number(status.frameCache.hits)
    case .cacheMisses: return number(status.frameCache.misses)
    case .videoCodec: return string(info?.video?.codec)
    case .videoWidth: return number(info?.video?.width)
    case .videoHeight: return number(info?.video?.height)
    case .videoFPS: return number(info?.video?.frameRate)
    case .videoPixelFormat: return string(info?.video?.pixelFormat)
    case .audioCodec: return string(info?.audio?.codec)
    case .audioSampleRate: return number(info?.audio?.sampleRate)
    case .audioChannels: return number(info?.audio?.channels)
    case .entry: return number(playlist.currentIndex.map { $0 + 1 })
    case .queueCount: return number(playlist.count)
    case .framePTS, .frameTime, .frameMD5, .frameKey, .frameWidth, .frameHeight, .framePixelFormat:
      guard info?.video != nil, let frame = manager?.currentFrame() else { return .none }
      switch field {
      case .framePTS: return .number(Double(frame.pts))
      case .frameTime: return .number(frame.time.seconds)
      case .frameMD5: return .string(frame.md5)
      case .frameKey: return .bool(frame.isKeyframe)
      case .frameWidth: return .number(Double(frame.width))
      case .frameHeight: return .number(Double(frame.height))
      default: return .string(frame.pixelFormat)
      }
    }
  }
}

// PlaybackEngine+Commands: what the engine thread does with the mailbox between units of work. Play, pause, rate
// and waits apply at once; seeks and steps are handed to the play loop, as `Work`.

import VideoPlaybackKit

extension PlaybackEngine {
  /// What the play loop does next.
  enum Work {
    case seek(PendingSeek)
    case step(StepRequest)
    /// Nothing asked: a turn of the loop (`runOnce`).
    case none
  }

  /// A seek taken from the mailbox, with the host time it was asked at (for its `ms`).
  struct PendingSeek {
    var request: SeekRequest
    var requestedAt: UInt64
    /// A `reopen`: where it lands, `ready` is told in place of the seek's answer.
    var reopens = false
  }

  /// Applies the mailbox: play, pause, rate and waits at once; of several seeks the newest wins and
  /// the others are superseded. A step runs after the seeks before it; what follows it stays in the
  /// mailbox. Returns nil on shutdown.
  func takeMessages() -> Work? {
    let messages = mailbox.takeAll()
    var seek: PendingSeek?
    for (index, message) in messages.enumerated() {
      switch message {
      case .shutdown:
        return nil  // nothing is reported after shutdown
      case .play(let continuing):
        playing = true
        if !atEnd {
          shared.update { [clockKind] in
            let start = Self.clockStart(
              continuing: continuing, now: $0.now(), frameOnScreen: $0.current?.duration, wall: clockKind == .wall)
            $0.clock.start(at: start)
          }
        }
      case .pause:
        playing = false
        shared.update { $0.clock.pause(at: $0.now()) }
        catchUp()
        if !atEnd { standOnTheFrameOnScreen() }
      case .rate(let rate):
        catchUp()  // what was on screen at the old rate is presented before the clock turns
        shared.update {
          $0.clock.setRate(rate, at: $0.now())
          $0.lateness.removeAll()
        }
        realtimeLoad.reset()  // measured again at this rate
      case .wait(let request):
        beginWait(request)
      case .cancelWait(let id):
        waits.cancel(id)
      case .reopen(let requestedAt):
        // As the file was opened: paused, at rate 1, at its first frame. Nothing else comes before its `ready`.
        playing = false
        shared.update {
          $0.clock.pause(at: $0.now())
          $0.clock.setRate(1, at: $0.now())
          $0.lateness.removeAll()
        }
        realtimeLoad.reset()
        let start = SeekRequest(id: 0, target: MediaTime(seconds: startPosition), mode: .exact)
        seek = PendingSeek(request: start, requestedAt: requestedAt, reopens: true)
      case .seek(let request, let requestedAt):
        if let older = seek { emit(.superseded(older.request.id, by: request.id)) }
        seek = PendingSeek(request: request, requestedAt: requestedAt)
      case .step(let request):
        let rest = messages[(index + 1)...]
        if !rest.isEmpty { mailbox.putBack(rest) }
        if let seek {
          // The step goes back in front of what followed it, to run once the seek has landed.
          mailbox.putBack([.step(request)])
          return .seek(seek)
        }
        return .step(request)
      }
    }
    return seek.map(Work.seek) ?? Work.none
  }

  /// The clock time playing starts from: now; or, on the wall clock, `continuing` (when the entry before this one
  /// ended, its last frame's duration over) if that was less than the duration of the frame on screen ago. The frame on
  /// screen then began as the one before it ended, and the frames after it keep that pace, as one file's would: the
  /// time the session took between the two costs no frame its place.
  static func clockStart(continuing: Double?, now: Double, frameOnScreen duration: Double?, wall: Bool) -> Double {
    guard let continuing, wall, let duration, duration > 0, continuing <= now, now - continuing < duration else {
      return now
    }
    return continuing
  }
}

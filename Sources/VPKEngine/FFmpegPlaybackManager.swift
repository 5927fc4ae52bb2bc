// FFmpegPlaybackManager: the PlaybackManager the Builder gets for real playback (`package`: apps reach it through
// `PlaybackBuilder.makePlayer`).
// A main-actor facade over the engine (EngineHandle): calls post to the engine's mailbox; the engine's
// events come back through an AsyncStream (in order) and go out as PlaybackManagerEvents on the main actor.

import CFFmpeg
import VideoPlaybackKit

@MainActor
package final class FFmpegPlaybackManager: ListEntryPlayback {
  package var onEvent: (@MainActor (PlaybackManagerEvent) -> Void)?

  private var engine: EngineHandle?
  private var events: Task<Void, Never>?
  private var isShutDown = false
  private let access: MediaAccess
  package private(set) var endDueTime: Double?
  /// See `PlaybackEngine.realtimeLoadLimit`; tests lower it to see playing give up the one-thread decoder.
  var realtimeLoadLimit = PlaybackEngine.realtimeLoadLimit

  /// - Parameter showsFFmpegWarnings: let FFmpeg write its own warnings and errors to standard error
  ///   (`--verbose`); otherwise only fatal ones, since vpk reports what matters as events.
  /// - Parameter access: what a file may make vpk open besides itself (by default: nothing).
  package init(showsFFmpegWarnings: Bool = false, access: MediaAccess = MediaAccess()) {
    self.access = access
    av_log_set_level(showsFFmpegWarnings ? AV_LOG_WARNING : AV_LOG_FATAL)
  }

  package func prepare(path: String, configuration: PlaybackConfiguration) {
    guard engine == nil, !isShutDown else { return }
    let (stream, continuation) = AsyncStream.makeStream(of: EngineEvent.self)
    let engine = EngineHandle(
      path: path, configuration: configuration, access: access, realtimeLoadLimit: realtimeLoadLimit
    ) { continuation.yield($0) }
    self.engine = engine
    events = Task { @MainActor [weak self] in
      for await event in stream {
        guard let self, !self.isShutDown else { return }
        self.deliver(event)
      }
    }
    engine.start()
  }

  package func play() { engine?.post(.play(continuingFrom: nil)) }
  package func play(continuingFrom time: Double) { engine?.post(.play(continuingFrom: time)) }
  package func reopen() {
    endDueTime = nil
    engine?.post(.reopen(requestedAt: hostNanoseconds()))
  }
  package func pause() {
    engine?.post(.pause)
    engine?.awaitClockStopped()
  }

  package func seek(_ request: SeekRequest) {
    endDueTime = nil
    engine?.post(.seek(request, requestedAt: hostNanoseconds()))
  }

  package func step(_ request: StepRequest) {
    endDueTime = nil
    engine?.post(.step(request))
  }
  package func setRate(_ rate: Double) { engine?.post(.rate(rate)) }
  package func wait(_ request: PlaybackWait) { engine?.post(.wait(request)) }
  package func cancelWait(id: Int) { engine?.post(.cancelWait(id)) }

  package func snapshot() -> PlaybackSnapshot {
    engine?.snapshot() ?? PlaybackSnapshot(position: .zero, framesDecoded: 0, decodeErrors: 0)
  }

  /// The engine's snapshot is taken under the lock of what it publishes, so any thread may read it.
  package func concurrentSnapshot() -> (@Sendable () -> PlaybackSnapshot)? {
    guard let engine else { return nil }
    return { engine.snapshot() }
  }

  package func currentFrame() -> FrameIdentity? { engine?.currentFrame() }

  package func writePicture(to path: String) throws(PlaybackError) -> FramePicture? {
    try engine?.writePicture(to: path)
  }

  /// How many times the engine thread has woken from a sleep (for tests).
  var engineWakeups: Int { engine?.wakeupCount ?? 0 }
  /// How often playing backward held the clock for its first pass, and for how many seconds in all (for tests).
  var firstPassHolds: (count: Int, seconds: Double) { engine?.firstPassHoldReading ?? (0, 0) }
  /// Threads of the engine's decoder (for tests).
  var decoderThreads: Int { engine?.decoderThreadCount ?? 0 }

  package func shutdown() {
    guard !isShutDown else { return }
    isShutDown = true
    events?.cancel()
    engine?.stop()
  }

  private func deliver(_ event: EngineEvent) {
    guard let onEvent else { return }
    switch event {
    case .ready(let info): onEvent(.ready(info))
    case .failedToOpen(let error): onEvent(.failedToOpen(error))
    case .progress(let position): onEvent(.progress(MediaTime(seconds: position)))
    case .seeked(let result): onEvent(.seekFinished(result))
    case .superseded(let id, let newer): onEvent(.seekSuperseded(id: id, by: newer))
    case .stepped(let result): onEvent(.stepFinished(result))
    case .waited(let result): onEvent(.waitFinished(result))
    case .ended(let position, let loops, let direction, let dueAt):
      endDueTime = dueAt
      onEvent(.ended(position: MediaTime(seconds: position), loops: loops, direction: direction))
    case .error(let error): onEvent(.problem(error))
    }
  }
}

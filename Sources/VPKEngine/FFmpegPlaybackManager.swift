// FFmpegPlaybackManager: the PlaybackManager the Builder gets for real playback.
// A main-actor facade over the engine (EngineHandle): calls post to the engine's mailbox; the engine's
// events come back through an AsyncStream (in order) and go to the delegate on the main actor.

import CFFmpeg
import VideoPlaybackKit

@MainActor
public final class FFmpegPlaybackManager: PlaybackManager {
  public weak var delegate: (any PlaybackManagerDelegate)?

  private var engine: EngineHandle?
  private var events: Task<Void, Never>?
  private var isShutDown = false
  private let access: MediaAccess
  /// See `PlaybackEngine.realtimeLoadLimit`; tests lower it to see playing give up the one-thread decoder.
  var realtimeLoadLimit = PlaybackEngine.realtimeLoadLimit

  /// - Parameter showsFFmpegWarnings: let FFmpeg write its own warnings and errors to standard error
  ///   (`--verbose`); otherwise only fatal ones, since vpk reports what matters as events.
  /// - Parameter access: what a file may make vpk open besides itself (by default: nothing).
  public init(showsFFmpegWarnings: Bool = false, access: MediaAccess = MediaAccess()) {
    self.access = access
    av_log_set_level(showsFFmpegWarnings ? AV_LOG_WARNING : AV_LOG_FATAL)
  }

  public func prepare(path: String, configuration: PlaybackConfiguration) {
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

  public func play() { engine?.post(.play) }
  public func pause() {
    engine?.post(.pause)
    engine?.awaitClockStopped()
  }

  public func seek(_ request: SeekRequest) {
    engine?.post(.seek(request, requestedAt: hostNanoseconds()))
  }

  public func step(_ request: StepRequest) { engine?.post(.step(request)) }
  public func setRate(_ rate: Double) { engine?.post(.rate(rate)) }
  public func wait(_ request: PlaybackWait) { engine?.post(.wait(request)) }
  public func cancelWait(id: Int) { engine?.post(.cancelWait(id)) }

  public func snapshot() -> PlaybackSnapshot {
    engine?.snapshot() ?? PlaybackSnapshot(position: .zero, framesDecoded: 0, decodeErrors: 0)
  }

  /// The engine's snapshot is taken under the lock of what it publishes, so any thread may read it.
  public func concurrentSnapshot() -> (@Sendable () -> PlaybackSnapshot)? {
    guard let engine else { return nil }
    return { engine.snapshot() }
  }

  public func currentFrame() -> FrameIdentity? { engine?.currentFrame() }

  public func writePicture(to path: String) throws(PlaybackError) -> FramePicture? {
    try engine?.writePicture(to: path)
  }

  /// How many times the engine thread has woken from a sleep (for tests).
  var engineWakeups: Int { engine?.wakeupCount ?? 0 }
  /// How often playing backward held the clock for its first pass, and for how many seconds in all (for tests).
  var firstPassHolds: (count: Int, seconds: Double) { engine?.firstPassHoldReading ?? (0, 0) }
  /// Threads of the engine's decoder (for tests).
  var decoderThreads: Int { engine?.decoderThreadCount ?? 0 }

  public func shutdown() {
    guard !isShutDown else { return }
    isShutDown = true
    events?.cancel()
    engine?.stop()
  }

  private func deliver(_ event: EngineEvent) {
    guard let delegate else { return }
    switch event {
    case .ready(let info): delegate.playbackManager(self, didBecomeReady: info)
    case .failedToOpen(let error): delegate.playbackManager(self, didFailToOpen: error)
    case .progress(let position): delegate.playbackManager(self, didReachProgress: MediaTime(seconds: position))
    case .seeked(let result): delegate.playbackManager(self, didFinishSeek: result)
    case .superseded(let id, let newer): delegate.playbackManager(self, didSupersedeSeek: id, by: newer)
    case .stepped(let result): delegate.playbackManager(self, didFinishStep: result)
    case .waited(let result): delegate.playbackManager(self, didFinishWait: result)
    case .ended(let position, let loops, let direction):
      delegate.playbackManager(self, didReachEnd: MediaTime(seconds: position), loops: loops, direction: direction)
    case .error(let error): delegate.playbackManager(self, didEncounter: error)
    }
  }
}

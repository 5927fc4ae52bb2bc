// EngineHandle: one file's engine as other threads hold it. It starts the engine thread (which makes its
// PlaybackEngine and never shares it), posts commands to its mailbox, reads what it publishes, and stops it. Any
// thread may use it: it holds only the mailbox, the published state and what stops the thread.

import Dispatch
import Foundation
import Synchronization
import VideoPlaybackKit

final class EngineHandle: Sendable {
  private let path: String
  private let configuration: PlaybackConfiguration
  private let access: MediaAccess
  private let realtimeLoadLimit: Double
  private let emit: @Sendable (EngineEvent) -> Void
  private let mailbox = LockedMailbox()
  private let shared: EngineSharedState
  /// Signalled when the engine thread has finished.
  private let finished = DispatchSemaphore(value: 0)
  /// Interrupts FFmpeg's blocking I/O on shutdown.
  private let stopFlag = StopFlag()
  /// True while the thread is opening the file.
  private let opening = Atomic<Bool>(true)

  init(
    path: String, configuration: PlaybackConfiguration, access: MediaAccess = MediaAccess(),
    realtimeLoadLimit: Double = PlaybackEngine.realtimeLoadLimit, emit: @escaping @Sendable (EngineEvent) -> Void
  ) {
    self.path = path
    self.configuration = configuration
    self.access = access
    self.realtimeLoadLimit = realtimeLoadLimit
    self.emit = emit
    self.shared = EngineSharedState(clock: configuration.clock)
  }

  func start() {
    let thread = Thread { [self] in
      // Linux applies a thread's name only from the thread itself (for top, perf, gdb).
      Thread.current.name = "vpk-engine"
      let engine = PlaybackEngine(
        path: path, configuration: configuration, access: access, realtimeLoadLimit: realtimeLoadLimit,
        mailbox: mailbox, shared: shared, stopFlag: stopFlag, emit: emit)
      engine.run { opening.store(false, ordering: .releasing) }
      finished.signal()
    }
    thread.name = "vpk-engine"
    thread.stackSize = 4 << 20
    thread.start()
  }

  /// Asks the thread to stop and waits until it has released the file. FFmpeg's I/O is interrupted,
  /// so this is prompt; the bound only guards against a decoder that never returns. A thread still
  /// opening the file may sit in the kernel's open(2) (a FIFO with no writer), where no callback
  /// reaches it and it holds no FFmpeg state the process's exit could disturb: that wait is short.
  func stop() {
    stopFlag.set()
    post(.shutdown)
    _ = finished.wait(timeout: .now() + (opening.load(ordering: .acquiring) ? 0.5 : 10))
  }

  func post(_ message: EngineMailbox.Message) {
    mailbox.post(message)
  }

  func snapshot() -> PlaybackSnapshot { shared.snapshot() }

  /// Returns once the engine thread has stopped its clock (after a `pause` was posted), or after `limit` seconds: a
  /// pause then counts from when it was asked for, even if the process stops (^Z) right after. Only the engine thread
  /// changes the shared state; this only reads it.
  func awaitClockStopped(limit: Double = 0.25) {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limit * 1e9)
    while shared.read({ $0.clock.isRunning }) && DispatchTime.now().uptimeNanoseconds < deadline {
      usleep(500)
    }
  }

  /// The frame on screen with its MD5 (computed on the caller's thread), nil with no video frame.
  func currentFrame() -> FrameIdentity? {
    let (frame, timeBase) = frameOnScreen()
    return frame?.identity(timeBase: timeBase)
  }

  /// The frame on screen (nil with no video frame) and the video stream's time base.
  func frameOnScreen() -> (frame: DecodedFrame?, timeBase: (num: Int32, den: Int32)) {
    shared.frameOnScreen()
  }

  /// Writes the frame on screen to `path` as a PNG (made on the caller's thread) and returns it with its identity; nil
  /// with no video frame.
  func writePicture(to path: String) throws(PlaybackError) -> FramePicture? {
    let (frame, timeBase) = frameOnScreen()
    guard let frame else { return nil }
    let picture = try frame.png()
    try PictureEncoder.writeFile(picture.bytes, to: path)
    return FramePicture(path: path, frame: frame.identity(timeBase: timeBase), pixelFormat: picture.format)
  }

  /// How many times the engine thread has woken from a sleep (for tests).
  var wakeupCount: Int { shared.read { $0.wakeups } }

  /// How often playing backward held the clock for its first pass, and for how many seconds in all (for tests).
  var firstPassHoldReading: (count: Int, seconds: Double) { shared.read { $0.firstPassHolds } }

  /// Threads of the decoder, as last published (for tests).
  var decoderThreadCount: Int { shared.read { $0.decoderThreads } }
}

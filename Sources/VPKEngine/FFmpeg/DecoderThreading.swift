// DecoderThreading: how many threads MediaSource's decoder runs on, chosen by the engine for what it is doing.

import Foundation

/// How the decoder uses the CPUs. FFmpeg's frame threads decode fastest flat out; one thread costs less CPU for
/// the same frames when playback only needs real time (no hand-offs between threads, and the reference frames stay
/// in one core's cache).
enum DecoderThreading: Sendable, Equatable {
  /// Playing flat out (the free and virtual clocks): FFmpeg's choice, one thread more than the cores, as the
  /// ffmpeg tool decodes.
  case throughput
  /// Seeking: one frame thread more than FFmpeg's choice. Decoding from a keyframe to the target is a chain of
  /// frames that wait on each other's rows; a frame more in flight keeps the cores busy (docs/benchmarks.md has
  /// the figures). Playing flat out with it would hold one frame thread's memory more than the ffmpeg tool does.
  case seeking
  /// Playing on the wall clock: one thread.
  case realtime

  /// `AVCodecContext.thread_count` (0: FFmpeg chooses).
  var threadCount: Int32 {
    switch self {
    case .throughput: 0
    case .seeking: Int32(min(ProcessInfo.processInfo.activeProcessorCount + 2, 16))  // FFmpeg's own cap is 16
    case .realtime: 1
    }
  }

  /// Whether FFmpeg's frame threads decode.
  var isThreaded: Bool { self != .realtime }
}

// MediaSource: one open media file through libavformat/libavcodec. It demuxes and decodes the
// one stream that drives playback (video if there is one, else audio) and seeks.
// Not thread-safe: the engine thread owns it; only `DecodedFrame` values leave it.
//
// One piece, past 400 lines: opening, reading, seeking and the change of decoder at a keyframe (`Handover`) share
// the demuxer, the decoder and the packet, and the handover runs inside reading (`next`, `receiveFrame`). What needs
// no open source (checking the path, describing the streams) is in MediaSource+Opening.

import CFFmpeg
import Foundation
import Synchronization
import VideoPlaybackKit

/// What reading on gave: the next frame, or the end.
enum DecodeOutcome {
  case frame(DecodedFrame)
  /// The end of the stream: every frame has been returned.
  case endOfStream
}

final class MediaSource {
  /// What the file holds. A pixel format the headers did not give is filled in from the first decoded frame.
  private(set) var info: MediaInfo
  let hasVideo: Bool
  /// Seconds of the container's start time; media times are measured from it.
  let startTime: Double
  private let streamIndex: Int32
  private let timeBase: AVRational
  /// The driving stream's time base, for frame identities.
  var timeBaseParts: (num: Int32, den: Int32) { (timeBase.num, timeBase.den) }
  /// Seconds one frame lasts, as the stream declares its rate; nil when unknown.
  private let nominalFrameDuration: Double?

  private var format: UnsafeMutablePointer<AVFormatContext>?
  /// The I/O context the demuxer reads through; opened and closed here.
  private var io: UnsafeMutablePointer<AVIOContext>?
  private var codec: UnsafeMutablePointer<AVCodecContext>?
  private let decoder: UnsafePointer<AVCodec>?
  private var packet: UnsafeMutablePointer<AVPacket>?
  /// A frame to receive into, reused until a decoded frame is handed out (most packets give none yet).
  private var spareFrame: UnsafeMutablePointer<AVFrame>?
  private var demuxerDrained = false
  private var decoderDrained = false
  /// Where the frame after the newest one should start, in stream ticks (for frames with no timestamp): 0 from the
  /// start, nil after a seek into the stream until a frame has come.
  private var nextExpectedTicks: Int64? = 0

  /// Packets the decoder refused, frames it could not produce or flagged as damaged; playback goes on.
  private(set) var decodeErrors = 0
  private(set) var framesDecoded = 0
  /// The timestamp of the newest frame handed out since the last seek (nil right after one): where the decoder is.
  private(set) var newestFramePTS: Int64?
  /// What the newest frame follows: a frame with its same timestamp takes its place and follows this.
  private var newestFollows: Int64?
  /// Timestamps of packets sent since the last seek with frames nothing references allowed to be dropped, after the
  /// newest frame: a frame handed out next follows the newest one only if none lies between them.
  private var discardedSinceNewest: [Int64] = []
  /// `decodeErrors` when the newest frame was handed out.
  private var errorsAtNewest = 0
  /// Decoders replaced so far (a seek on another threading, a handover, the memory release at the end).
  private var decoderChanges = 0
  /// Changes whenever the frames to come may differ from those handed out before for the same timestamps: a new
  /// decoder, or a decode error. The engine's frame cache holds frames of one generation only.
  var decoderGeneration: Int { decoderChanges + decodeErrors }
  /// The headers gave no pixel format (streams not probed): the first decoded frame fills it in.
  private var pixelFormatPending = false
  /// A read error other than the end of the file, reported once.
  private(set) var readError: PlaybackError?

  /// While seeking exactly, frames that end before this time and that nothing references are
  /// not decoded at all.
  var discardNonReferenceBefore: Double?

  /// How the decoder decodes now.
  private(set) var threading: DecoderThreading
  /// How the engine wants it to decode: a seek changes the decoder at once (it is emptied anyway); while reading
  /// on, a new decoder takes over at the next keyframe (see `Handover`).
  var wantedThreading: DecoderThreading
  /// Threads the decoder runs on, as FFmpeg set them up (for tests).
  var decoderThreadCount: Int { Int(codec?.pointee.thread_count ?? 0) }
  /// A change of decoder under way, and how many have been completed (a diagnostic for tests).
  private var handover: Handover?
  private(set) var handovers = 0
  /// Frames the new decoder gave while it was being fed a handover's packets, in order; returned first.
  private var handedOverFrames: [DecodedFrame] = []
  /// The new decoder's frames before its first keyframe are dropped: the old decoder gave them.
  private var dropFramesBefore: Int64?

  /// A change of decoder at a keyframe. The old decoder goes on decoding the packets from the keyframe on, which
  /// are kept, until it gives a frame at or after the keyframe's time: by then it has given every frame shown
  /// before the keyframe, including an open GOP's leading frames, which follow the keyframe in decode order and
  /// refer to frames before it. The new decoder then decodes the kept packets from the keyframe, and its frames
  /// before the keyframe's time (leading frames it cannot decode right) are dropped. Every frame comes out once,
  /// in order, decoded from all its references.
  private struct Handover {
    let keyPTS: Int64
    let threading: DecoderThreading
    /// Opened when the handover starts, so a decoder that cannot be opened leaves the old one alone.
    let decoder: UnsafeMutablePointer<AVCodecContext>
    var packets: [UnsafeMutablePointer<AVPacket>]
  }
  /// A handover still waiting for the old decoder after this many packets is given up (a stream whose
  /// timestamps never pass the keyframe's); the next keyframe tries again.
  private static let handoverPacketLimit = 64

  /// The flag that interrupts FFmpeg's I/O; the caller keeps it alive as long as this source.
  private let stop: StopFlag

  init(
    path: String, access: MediaAccess = MediaAccess(), threading: DecoderThreading = .throughput, stop: StopFlag
  ) throws(PlaybackError) {
    self.stop = stop
    self.threading = threading
    self.wantedThreading = threading
    let url = try Self.checkSource(path, access: access)

    let interrupt = AVIOInterruptCB(
      callback: StopFlag.interruptCallback, opaque: Unmanaged.passUnretained(stop).toOpaque())
    let (io, probed) = try Self.openInput(url, path: path, access: access, interrupt: interrupt)
    self.io = io

    let format: UnsafeMutablePointer<AVFormatContext>
    do {
      format = try Self.openFormat(url, path: path, io: io, demuxer: probed, access: access, interrupt: interrupt)
    } catch {
      avio_closep(&self.io)
      throw error
    }
    self.format = format

    var decoder: UnsafePointer<AVCodec>? = nil
    var index = Self.findPlayedStream(format, AVMEDIA_TYPE_VIDEO, decoder: &decoder)
    var hasVideo = true
    if index < 0 {
      hasVideo = false
      decoder = nil
      index = Self.findPlayedStream(format, AVMEDIA_TYPE_AUDIO, decoder: &decoder)
    }
    guard index >= 0, let decoder else {
      avformat_close_input(&self.format)
      avio_closep(&self.io)
      if index == vpk_averror_decoder_not_found() {
        throw PlaybackError(.decoderUnavailable, "no decoder for the streams of \(path) in this FFmpeg build")
      }
      throw PlaybackError(.noPlayableStream, "\(path) has neither a video nor an audio stream; nothing to play")
    }
    self.hasVideo = hasVideo
    self.streamIndex = index
    let stream = format.pointee.streams[Int(index)]!
    self.timeBase = stream.pointee.time_base

    // Only the driving stream is demuxed; the others are skipped by the demuxer.
    for i in 0..<Int(format.pointee.nb_streams) where i != Int(index) {
      format.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
    }

    self.decoder = decoder
    do {
      codec = try Self.openDecoder(decoder, for: stream, threading: threading)
    } catch {
      avformat_close_input(&self.format)
      avio_closep(&self.io)
      throw error
    }
    packet = av_packet_alloc()

    self.startTime = Self.startTime(of: format)
    let frameRate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
    self.nominalFrameDuration = frameRate.num > 0 && frameRate.den > 0 ? av_q2d(av_inv_q(frameRate)) : nil
    self.info = Self.describe(format: format, path: path)
    self.pixelFormatPending = hasVideo && info.video?.pixelFormat == "unknown"
  }

  /// A decoder for the stream, opened.
  private static func openDecoder(
    _ decoder: UnsafePointer<AVCodec>, for stream: UnsafeMutablePointer<AVStream>, threading: DecoderThreading
  ) throws(PlaybackError) -> UnsafeMutablePointer<AVCodecContext> {
    guard let codec = avcodec_alloc_context3(decoder) else {
      throw PlaybackError(.decoderUnavailable, "out of memory opening the decoder")
    }
    avcodec_parameters_to_context(codec, stream.pointee.codecpar)
    codec.pointee.thread_count = threading.threadCount
    codec.pointee.pkt_timebase = stream.pointee.time_base
    let result = avcodec_open2(codec, decoder, nil)
    if result < 0 {
      var freed: UnsafeMutablePointer<AVCodecContext>? = codec
      avcodec_free_context(&freed)
      throw PlaybackError(
        .decoderUnavailable,
        "cannot open the \(String(cString: decoder.pointee.name)) decoder (\(ffmpegErrorText(result)))")
    }
    return codec
  }

  /// At the end of the stream, when nothing more will be decoded until a seek: replaces the decoder with a fresh
  /// one, so the frames its pools and threads kept for playing at full speed are given back. The frame on screen
  /// stays valid (it holds its own buffer). Nothing changes if the new decoder cannot be opened.
  func releaseDecoderMemory() {
    guard decoderDrained, let fresh = freshDecoder(wantedThreading) else { return }
    avcodec_free_context(&codec)
    codec = fresh
    threading = wantedThreading
    decoderChanges += 1
  }

  /// A new decoder for the driving stream, or nil if it cannot be opened (the caller keeps the one it has).
  private func freshDecoder(_ threading: DecoderThreading) -> UnsafeMutablePointer<AVCodecContext>? {
    guard let format, let decoder, let stream = format.pointee.streams[Int(streamIndex)] else { return nil }
    return try? Self.openDecoder(decoder, for: stream, threading: threading)
  }

  deinit {
    cancelHandover()
    av_packet_free(&packet)
    av_frame_free(&spareFrame)
    avcodec_free_context(&codec)
    closeInput()
  }

  /// Closes the demuxer, then the I/O context it read through (vpk's own, so libavformat leaves it open).
  private func closeInput() {
    avformat_close_input(&format)
    avio_closep(&io)
  }

  // MARK: - Reading

  /// Decodes until the next frame of the driving stream, or the end.
  func next() -> DecodeOutcome {
    guard let format, let packet else { return .endOfStream }
    while true {
      if !handedOverFrames.isEmpty { return .frame(handedOverFrames.removeFirst()) }
      guard let codec else { return .endOfStream }
      let received = receiveFrame(codec)
      if let received { return .frame(received) }
      if self.codec != codec { continue }  // a handover completed: the new decoder's frames come next
      if decoderDrained { return .endOfStream }
      if demuxerDrained {
        // Everything is sent; the decoder has been told, keep receiving until it says EOF.
        continue
      }
      let result = av_read_frame(format, packet)
      if result < 0 {
        if result != vpk_averror_eof() && readError == nil {
          readError = PlaybackError(
            .readError, "reading stopped early (\(ffmpegErrorText(result))); the file may be damaged")
        }
        demuxerDrained = true
        cancelHandover()  // the old decoder finishes the stream
        avcodec_send_packet(codec, nil)
        continue
      }
      defer { av_packet_unref(packet) }
      guard packet.pointee.stream_index == streamIndex else { continue }
      keepForHandover(packet)
      let discarding = shouldDiscard(packet.pointee)
      codec.pointee.skip_frame = discarding ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
      if discarding { discardedSinceNewest.append(packet.pointee.pts) }
      let sent = avcodec_send_packet(codec, packet)
      if sent < 0 && sent != vpk_averror_eagain() {
        decodeErrors += 1
      }
      // EAGAIN cannot happen here: frames are always received before sending more.
    }
  }

  private func receiveFrame(_ codec: UnsafeMutablePointer<AVCodecContext>) -> DecodedFrame? {
    while !decoderDrained {
      if spareFrame == nil { spareFrame = av_frame_alloc() }
      guard let frame = spareFrame else { return nil }
      let result = avcodec_receive_frame(codec, frame)
      if result >= 0 {
        // A frame's own pts when it has one, as mpv times frames; else FFmpeg's guess (its packet's dts). FFmpeg's
        // `best_effort_timestamp` alone takes the dts for every frame once the decoder has counted a pts out of
        // order (a duplicated one), and keeps that count through a flush: a frame's time would then depend on what
        // the decoder was given before it (an exact seek skips frames, a seek forgets nothing), not on the frame.
        let pts =
          frame.pointee.pts != vpk_nopts_value() ? frame.pointee.pts : frame.pointee.best_effort_timestamp
        if let keyPTS = handover?.keyPTS {
          if pts == vpk_nopts_value() {
            cancelHandover()  // no timestamps to tell the decoders' frames apart: keep the old decoder
          } else if pts >= keyPTS {
            // The old decoder has given every frame before the keyframe; the new one decodes this frame again.
            av_frame_unref(frame)
            completeHandover()
            return nil
          }
        }
        if let dropBefore = dropFramesBefore {
          if pts != vpk_nopts_value() && pts < dropBefore {
            av_frame_unref(frame)  // a leading frame of the keyframe's GOP, given by the old decoder
            continue
          }
          dropFramesBefore = nil
        }
        // A frame with no timestamp right after a seek into the stream has no frame before it to follow (see below):
        // its time is unknown, so it is dropped and the seek goes further back. An MPEG-PS seek lands on any packet,
        // and into the last GOP it can leave only the last frame, whose packet had no pts, flushed with none.
        if pts == vpk_nopts_value() && nextExpectedTicks == nil {
          av_frame_unref(frame)
          continue
        }
        spareFrame = nil  // handed out: the DecodedFrame owns and frees it
        framesDecoded += 1
        if pixelFormatPending {
          info.video?.pixelFormat = pixelFormatName(frame.pointee.format)  // the headers did not say
          pixelFormatPending = false
        }
        // Decoders that conceal damage (H.264) return the frame but flag it.
        if frame.pointee.decode_error_flags != 0 || (frame.pointee.flags & AV_FRAME_FLAG_CORRUPT) != 0 {
          decodeErrors += 1
        }
        // A frame with no timestamp at all (the last one out of some AVI files) follows the one before.
        let ticks = pts != vpk_nopts_value() ? pts : (nextExpectedTicks ?? 0)
        let duration = duration(of: frame)
        let time = Double(ticks) * av_q2d(timeBase) - startTime
        nextExpectedTicks = ticks + max(1, Int64((duration / av_q2d(timeBase)).rounded()))
        // It follows the newest frame unless a frame between them may have been dropped unseen, or lost to an error.
        let follows = newestFramePTS.flatMap { newest in
          decodeErrors != errorsAtNewest || discardedSinceNewest.contains { $0 > newest && $0 < ticks } ? nil : newest
        }
        // The same timestamp as the frame just before: that frame's display interval is empty, and this one takes
        // its place (what a seek to that time shows, whatever the frame cache holds).
        let hidesPrevious = follows != nil && follows == ticks
        discardedSinceNewest.removeAll { $0 <= ticks }
        errorsAtNewest = decodeErrors
        newestFramePTS = ticks
        if !hidesPrevious { newestFollows = follows }
        return DecodedFrame(
          frame: frame, time: time, duration: duration, pts: ticks, follows: hidesPrevious ? newestFollows : follows,
          hidesPrevious: hidesPrevious)
      }
      if result == vpk_averror_eagain() { return nil }
      if result == vpk_averror_eof() {
        decoderDrained = true
        return nil
      }
      // A corrupt packet surfaces here with frame threading: count it and go on.
      decodeErrors += 1
    }
    return nil
  }

  private func duration(of frame: UnsafeMutablePointer<AVFrame>) -> Double {
    if frame.pointee.pkt_duration > 0 { return Double(frame.pointee.pkt_duration) * av_q2d(timeBase) }
    if !hasVideo && frame.pointee.sample_rate > 0 {
      return Double(frame.pointee.nb_samples) / Double(frame.pointee.sample_rate)
    }
    return nominalFrameDuration ?? 0
  }

  private func shouldDiscard(_ packet: AVPacket) -> Bool {
    guard let before = discardNonReferenceBefore, hasVideo, packet.pts != vpk_nopts_value() else { return false }
    let start = Double(packet.pts) * av_q2d(timeBase) - startTime
    let duration = packet.duration > 0 ? Double(packet.duration) * av_q2d(timeBase) : (nominalFrameDuration ?? 0)
    guard duration > 0 else { return false }
    // One frame of margin: packet timestamps need not map one to one onto shown frames (AVI packs a
    // B-frame with the frame after it), and decoding one frame too many costs little.
    return start + 2 * duration <= before
  }

  // MARK: - Changing decoders

  /// Keeps a packet of the driving stream for a handover under way, or starts one at a keyframe when the engine
  /// wants the decoder to decode differently. Not while seeking: a seek changes the decoder itself.
  private func keepForHandover(_ packet: UnsafeMutablePointer<AVPacket>) {
    if handover == nil {
      guard wantedThreading != threading, hasVideo, discardNonReferenceBefore == nil,
        (packet.pointee.flags & AV_PKT_FLAG_KEY) != 0, packet.pointee.pts != vpk_nopts_value(),
        let fresh = freshDecoder(wantedThreading)
      else { return }
      handover = Handover(keyPTS: packet.pointee.pts, threading: wantedThreading, decoder: fresh, packets: [])
    }
    guard handover!.packets.count < Self.handoverPacketLimit, let copy = av_packet_clone(packet) else {
      cancelHandover()
      return
    }
    handover!.packets.append(copy)
  }

  /// The old decoder has given every frame before the keyframe: the new one takes over from the keyframe.
  private func completeHandover() {
    guard let change = handover else { return }
    handover = nil
    avcodec_free_context(&codec)
    codec = change.decoder
    threading = change.threading
    handovers += 1
    decoderChanges += 1
    dropFramesBefore = change.keyPTS
    for packet in change.packets {
      while true {
        let sent = avcodec_send_packet(change.decoder, packet)
        if sent == vpk_averror_eagain(), let frame = receiveFrame(change.decoder) {
          handedOverFrames.append(frame)  // the decoder wants its output taken before more input
          continue
        }
        if sent < 0 { decodeErrors += 1 }
        break
      }
      Self.free(packet)
    }
  }

  /// Gives up a handover: the old decoder goes on, and the new one and the packets kept for it are freed.
  private func cancelHandover() {
    guard let change = handover else { return }
    handover = nil
    var unused: UnsafeMutablePointer<AVCodecContext>? = change.decoder
    avcodec_free_context(&unused)
    change.packets.forEach(Self.free)
  }

  /// Frees a packet kept for a handover.
  private static func free(_ packet: UnsafeMutablePointer<AVPacket>) {
    var freed: UnsafeMutablePointer<AVPacket>? = packet
    av_packet_free(&freed)
  }

  // MARK: - Seeking

  /// The time of the keyframe at or before `seconds` in the container's index (by decode time, as the index keeps
  /// it), or nil when the container has no index entry there (MPEG-TS, raw streams, before the first keyframe).
  func keyframeTime(atOrBefore seconds: Double) -> Double? {
    guard let format, let stream = format.pointee.streams[Int(streamIndex)] else { return nil }
    let index = av_index_search_timestamp(stream, ticks(at: seconds), AVSEEK_FLAG_BACKWARD)
    guard index >= 0, let entry = avformat_index_get_entry(stream, index) else { return nil }
    return Double(entry.pointee.timestamp) * av_q2d(timeBase) - startTime
  }

  /// Media time `seconds` in the driving stream's ticks, rounded down.
  private func ticks(at seconds: Double) -> Int64 {
    av_rescale_q(Int64(((seconds + startTime) * Double(AV_TIME_BASE)).rounded(.down)), vpk_time_base_q(), timeBase)
  }

  /// Moves the demuxer to the keyframe at or before `seconds` (with `forward`, the first one at or after it) and
  /// empties the decoder. At or before the start it rewinds to the first byte where the format allows it: formats
  /// with no index (MPEG-TS) seek by timestamp to any packet, not to a keyframe.
  func seek(to seconds: Double, forward: Bool = false) -> Bool {
    guard let format, codec != nil else { return false }
    newestFramePTS = nil
    discardedSinceNewest.removeAll()
    cancelHandover()
    handedOverFrames.removeAll()
    dropFramesBefore = nil
    var result: Int32 = -1
    let byteSeekable = (format.pointee.iformat.pointee.flags & AVFMT_NO_BYTE_SEEK) == 0
    if seconds <= 0 && byteSeekable && (format.pointee.iformat.pointee.flags & AVFMT_TS_DISCONT) != 0 {
      result = av_seek_frame(format, -1, 0, AVSEEK_FLAG_BYTE)
    }
    if result < 0 && forward {
      let target = ticks(at: seconds)
      result = avformat_seek_file(format, streamIndex, target, target, Int64.max, 0)
    } else if result < 0 {
      let target = ticks(at: seconds)
      result = avformat_seek_file(format, streamIndex, Int64.min, target, target, 0)
      if result < 0 {
        result = av_seek_frame(format, streamIndex, target, AVSEEK_FLAG_BACKWARD)
      }
      if result < 0 && seconds <= 0 && byteSeekable {
        // A raw stream (no timestamps, no index) can still go back to its first byte.
        result = av_seek_frame(format, -1, 0, AVSEEK_FLAG_BYTE)
      }
    }
    if threading != wantedThreading, let fresh = freshDecoder(wantedThreading) {
      // Emptied either way: a new decoder is as good as a flushed one.
      avcodec_free_context(&codec)
      codec = fresh
      threading = wantedThreading
      decoderChanges += 1
    } else {
      avcodec_flush_buffers(codec)
    }
    demuxerDrained = false
    decoderDrained = false
    nextExpectedTicks = seconds <= 0 ? 0 : nil
    return result >= 0
  }

}

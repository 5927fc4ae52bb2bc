// DecodedFrame: a frame out of the decoder, owned by the engine, and its identity (pts, MD5) for `frame`.

import CFFmpeg
import Foundation
import VideoPlaybackKit

/// A decoded frame owned by the engine. Freed when the last reference goes.
final class DecodedFrame: @unchecked Sendable {
  /// Owned AVFrame; never mutated after creation, so it may be read from any thread.
  let frame: UnsafeMutablePointer<AVFrame>
  /// Presentation time in seconds from the start of the media.
  let time: Double
  /// Seconds this frame lasts (its packet's duration, else the stream's nominal frame duration).
  let duration: Double
  let pts: Int64
  /// The pts of the frame shown just before this one, when the decoder gave that frame just before it (no frame
  /// between them dropped or lost); nil after a seek, and for the first frame.
  let follows: Int64?
  /// The decoder gave a frame with this same timestamp just before it (a broken encoder's file). That frame's display
  /// interval is empty, so it is never shown: this one takes its place, following what it followed.
  let hidesPrevious: Bool

  init(
    frame: UnsafeMutablePointer<AVFrame>, time: Double, duration: Double, pts: Int64, follows: Int64? = nil,
    hidesPrevious: Bool = false
  ) {
    self.frame = frame
    self.time = time
    self.duration = duration
    self.pts = pts
    self.follows = follows
    self.hidesPrevious = hidesPrevious
  }

  /// Whether the decoder flagged it a keyframe.
  var isKeyframe: Bool { frame.pointee.key_frame != 0 }

  /// Bytes of the buffers the frame holds (its planes, or its samples).
  var byteCount: Int {
    withUnsafeBytes(of: frame.pointee.buf) { buffers in
      buffers.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self).reduce(0) { $0 + Int($1?.pointee.size ?? 0) }
    }
  }

  deinit {
    var pointer: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&pointer)
  }
}

extension DecodedFrame {
  /// The frame's identity with the MD5 of its pixels packed with no padding, as
  /// `ffmpeg -f framemd5` computes it. Reads the frame only, so any thread may call it.
  func identity(timeBase: (num: Int32, den: Int32)) -> FrameIdentity {
    let width = frame.pointee.width
    let height = frame.pointee.height
    let format = AVPixelFormat(rawValue: frame.pointee.format)
    let size = av_image_get_buffer_size(format, width, height, 1)
    var md5 = ""
    if size > 0 {
      var buffer = [UInt8](repeating: 0, count: Int(size))
      var data = frame.pointee.data
      var linesize = frame.pointee.linesize
      let copied = withUnsafePointer(to: &data) { dataTuple in
        dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
          withUnsafePointer(to: &linesize) { linesizeTuple in
            linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
              buffer.withUnsafeMutableBufferPointer {
                av_image_copy_to_buffer($0.baseAddress, size, planes, lines, format, width, height, 1)
              }
            }
          }
        }
      }
      if copied > 0 {
        var digest = [UInt8](repeating: 0, count: 16)
        av_md5_sum(&digest, buffer, Int(copied))
        md5 = digest.map { String(format: "%02x", $0) }.joined()
      }
    }
    return FrameIdentity(
      pts: pts, timeBase: timeBase, time: MediaTime(seconds: time),
      isKeyframe: isKeyframe, width: Int(width), height: Int(height),
      pixelFormat: pixelFormatName(frame.pointee.format), md5: md5)
  }
}

extension DecodedFrame {
  /// The frame as a PNG file's bytes, made as `ffmpeg -i FILE -frames:v 1 out.png` makes it, and the PNG's pixel format.
  func png() throws(PlaybackError) -> (bytes: [UInt8], format: String) {
    try PictureEncoder.png(of: frame)
  }

  /// The frame scaled to `width` pixels wide and converted to RGB, as the ffmpeg tool's scale filter makes it.
  func rgb(width: Int) throws(PlaybackError) -> RGBImage {
    try PictureEncoder.rgb(of: frame, width: width)
  }
}

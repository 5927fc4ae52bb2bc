// PictureEncoder: decoded frames as PNG pictures, made the way `ffmpeg -i FILE -frames:v 1 out.png` makes them, so the
// pixels are the tool's: the PNG pixel format the tool's filter graph picks from the encoder's list for the frame's
// format, libswscale with the tool's scaler flags (bicubic), the colour matrix and range the frame carries (as the
// scale filter's default `in_color_matrix=auto` takes them), and libavcodec's PNG encoder.

import CFFmpeg
import Foundation
import VideoPlaybackKit

enum PictureEncoder {
  /// The scaler flags the ffmpeg tool gives the scale filters it inserts (its `-sws_flags` default).
  static let scalerFlags = SWS_BICUBIC

  /// The PNG of `frame` at its own size, and the name of the pixel format the PNG holds.
  static func png(of frame: UnsafePointer<AVFrame>) throws(PlaybackError) -> (bytes: [UInt8], format: String) {
    let source = AVPixelFormat(rawValue: frame.pointee.format)
    let format = pngFormat(for: source)
    let converted = try convert(frame, to: format, width: frame.pointee.width, height: frame.pointee.height)
    defer { free(converted) }
    return (try encodePNG(converted), pixelFormatName(format.rawValue))
  }

  /// The format the ffmpeg tool converts `source` to for its PNG encoder: the best of the encoder's formats, with
  /// alpha when the source has it (an even number of components, as the filter graph counts it).
  static func pngFormat(for source: AVPixelFormat) -> AVPixelFormat {
    guard let encoder = avcodec_find_encoder(AV_CODEC_ID_PNG), let formats = encoder.pointee.pix_fmts,
      let descriptor = av_pix_fmt_desc_get(source)
    else { return AV_PIX_FMT_RGB24 }
    let hasAlpha: Int32 = descriptor.pointee.nb_components % 2 == 0 ? 1 : 0
    let best = avcodec_find_best_pix_fmt_of_list(formats, source, hasAlpha, nil)
    return best == AV_PIX_FMT_NONE ? AV_PIX_FMT_RGB24 : best
  }

  /// A new frame (free it with `free`) holding `frame` converted to `format` at `width`x`height`.
  static func convert(_ frame: UnsafePointer<AVFrame>, to format: AVPixelFormat, width: Int32, height: Int32)
    throws(PlaybackError) -> UnsafeMutablePointer<AVFrame>
  {
    let source = AVPixelFormat(rawValue: frame.pointee.format)
    guard
      let scaler = sws_getContext(
        frame.pointee.width, frame.pointee.height, source, width, height, format, scalerFlags, nil, nil, nil)
    else {
      throw PlaybackError(
        .cannotWrite,
        "cannot convert \(pixelFormatName(source.rawValue)) pictures to \(pixelFormatName(format.rawValue))")
    }
    defer { sws_freeContext(scaler) }
    applyColourDetails(of: frame, to: scaler)

    guard let converted = av_frame_alloc() else { throw PlaybackError(.cannotWrite, "out of memory for a picture") }
    converted.pointee.format = format.rawValue
    converted.pointee.width = width
    converted.pointee.height = height
    converted.pointee.sample_aspect_ratio = frame.pointee.sample_aspect_ratio
    var status = av_frame_get_buffer(converted, 0)
    if status >= 0 {
      var sourceData = frame.pointee.data
      var sourceLines = frame.pointee.linesize
      var targetData = converted.pointee.data
      var targetLines = converted.pointee.linesize
      status = withPlanes(&sourceData, &sourceLines, as: UnsafePointer<UInt8>?.self) { planes, lines in
        withPlanes(&targetData, &targetLines, as: UnsafeMutablePointer<UInt8>?.self) { targets, targetLineSizes in
          sws_scale(scaler, planes, lines, 0, frame.pointee.height, targets, targetLineSizes)
        }
      }
    }
    guard status >= 0 else {
      free(converted)
      throw PlaybackError(.cannotWrite, "cannot convert the picture: \(ffmpegErrorText(status))")
    }
    return converted
  }

  /// What the scale filter does before each frame with its default options: the frame's colour matrix (BT.601 when
  /// it names none the scaler knows) both ways, and its range when it says which.
  private static func applyColourDetails(of frame: UnsafePointer<AVFrame>, to scaler: OpaquePointer) {
    var inverseTable: UnsafeMutablePointer<Int32>?
    var table: UnsafeMutablePointer<Int32>?
    var sourceFull: Int32 = 0
    var targetFull: Int32 = 0
    var brightness: Int32 = 0
    var contrast: Int32 = 0
    var saturation: Int32 = 0
    sws_getColorspaceDetails(
      scaler, &inverseTable, &sourceFull, &table, &targetFull, &brightness, &contrast, &saturation)
    var colorspace = Int32(frame.pointee.colorspace.rawValue)
    if colorspace < 1 || colorspace > 10 || colorspace == 8 { colorspace = Int32(AVCOL_SPC_BT470BG.rawValue) }
    let coefficients = sws_getCoefficients(colorspace)
    if frame.pointee.color_range != AVCOL_RANGE_UNSPECIFIED {
      sourceFull = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
    }
    sws_setColorspaceDetails(
      scaler, coefficients, sourceFull, coefficients, targetFull, brightness, contrast, saturation)
  }

  /// The PNG file's bytes for a frame in one of the PNG encoder's formats.
  static func encodePNG(_ frame: UnsafeMutablePointer<AVFrame>) throws(PlaybackError) -> [UInt8] {
    guard let encoder = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
      throw PlaybackError(.cannotWrite, "this FFmpeg has no PNG encoder")
    }
    var owned = avcodec_alloc_context3(encoder)
    defer { avcodec_free_context(&owned) }
    guard let context = owned else { throw PlaybackError(.cannotWrite, "out of memory for the PNG encoder") }
    context.pointee.width = frame.pointee.width
    context.pointee.height = frame.pointee.height
    context.pointee.pix_fmt = AVPixelFormat(rawValue: frame.pointee.format)
    context.pointee.time_base = AVRational(num: 1, den: 25)
    context.pointee.sample_aspect_ratio = frame.pointee.sample_aspect_ratio
    var status = avcodec_open2(context, encoder, nil)
    guard status >= 0 else {
      throw PlaybackError(.cannotWrite, "cannot open the PNG encoder: \(ffmpegErrorText(status))")
    }
    var ownedPacket = av_packet_alloc()
    defer { av_packet_free(&ownedPacket) }
    guard let packet = ownedPacket else { throw PlaybackError(.cannotWrite, "out of memory for a picture") }
    status = avcodec_send_frame(context, frame)
    if status >= 0 { status = avcodec_send_frame(context, nil) }
    if status >= 0 { status = avcodec_receive_packet(context, packet) }
    guard status >= 0, let data = packet.pointee.data else {
      throw PlaybackError(.cannotWrite, "cannot encode the PNG: \(ffmpegErrorText(status))")
    }
    return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
  }

  /// `frame` scaled to `width` pixels wide (as high as its display aspect ratio makes it) and converted to RGB24, as the
  /// ffmpeg tool's scale filter does.
  static func rgb(of frame: UnsafePointer<AVFrame>, width: Int) throws(PlaybackError) -> RGBImage {
    let sar = frame.pointee.sample_aspect_ratio
    let pixelAspect = sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : 1
    let displayWidth = Double(frame.pointee.width) * pixelAspect
    let height = max(2, Int((Double(width) * Double(frame.pointee.height) / displayWidth).rounded()))
    let converted = try convert(frame, to: AV_PIX_FMT_RGB24, width: Int32(width), height: Int32(height))
    defer { free(converted) }
    guard let source = converted.pointee.data.0 else { throw PlaybackError(.cannotWrite, "the picture has no pixels") }
    let lineSize = Int(converted.pointee.linesize.0)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    pixels.withUnsafeMutableBufferPointer { target in
      for row in 0..<height {
        (target.baseAddress! + row * width * 3).update(from: source + row * lineSize, count: width * 3)
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// The PNG file's bytes for an RGB picture.
  static func png(of image: RGBImage) throws(PlaybackError) -> [UInt8] {
    guard let frame = av_frame_alloc() else { throw PlaybackError(.cannotWrite, "out of memory for a picture") }
    defer { free(frame) }
    frame.pointee.format = AV_PIX_FMT_RGB24.rawValue
    frame.pointee.width = Int32(image.width)
    frame.pointee.height = Int32(image.height)
    let status = av_frame_get_buffer(frame, 0)
    guard status >= 0, let target = frame.pointee.data.0 else {
      throw PlaybackError(.cannotWrite, "cannot make the picture: \(ffmpegErrorText(status))")
    }
    let lineSize = Int(frame.pointee.linesize.0)
    image.pixels.withUnsafeBufferPointer { source in
      for row in 0..<image.height {
        (target + row * lineSize).update(from: source.baseAddress! + row * image.width * 3, count: image.width * 3)
      }
    }
    return try encodePNG(frame)
  }

  static func free(_ frame: UnsafeMutablePointer<AVFrame>) {
    var pointer: UnsafeMutablePointer<AVFrame>? = frame
    av_frame_free(&pointer)
  }

  /// Writes `bytes` to `path` (made or replaced), with errors that say what to do.
  static func writeFile(_ bytes: [UInt8], to path: String) throws(PlaybackError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw writeError(errno, path) }
    var offset = 0
    var failure: Int32?
    bytes.withUnsafeBytes { buffer in
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    let closed = close(descriptor)
    if let failure { throw writeError(failure, path) }
    if closed != 0 { throw writeError(errno, path) }
  }

  private static func writeError(_ code: Int32, _ path: String) -> PlaybackError {
    let reason = String(cString: strerror(code))
    let advice =
      switch code {
      case ENOENT: "; make the folder first, or name a file in a folder that exists"
      case EISDIR: "; name a file, or end the path with / to write the default name into that folder"
      case EACCES, EPERM, EROFS: "; name a file in a folder you can write to"
      case ENOSPC, EDQUOT: "; free some space"
      default: ""
      }
    return PlaybackError(.cannotWrite, "cannot write \(path): \(reason.lowercased())\(advice)")
  }

  /// The frame's plane pointers and line sizes as the arrays libswscale takes, the planes seen as `Plane`:
  /// `UnsafePointer<UInt8>?` for the source it reads, `UnsafeMutablePointer<UInt8>?` for the target it writes.
  private static func withPlanes<Plane, T>(
    _ data:
      inout (
        UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
        UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?,
        UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?
      ), _ lines: inout (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32), as _: Plane.Type,
    _ body: (UnsafePointer<Plane>, UnsafePointer<Int32>) -> T
  ) -> T {
    withUnsafePointer(to: &data) { dataTuple in
      dataTuple.withMemoryRebound(to: Plane.self, capacity: 8) { planes in
        withUnsafePointer(to: &lines) { linesTuple in
          linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { body(planes, $0) }
        }
      }
    }
  }
}

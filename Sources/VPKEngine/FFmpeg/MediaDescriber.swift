// MediaDescriber: `vpk info`'s description of a file, read by libavformat without playing it: the container, every
// stream, every chapter. It opens the file as playback does (the same checks and the same MediaAccess refusals), probes
// every stream as ffprobe does, and reads each value the way ffprobe prints it, so the two can be compared field by
// field. No decoder is opened and no session runs.

import CFFmpeg
import Foundation
import VideoPlaybackKit

/// Describes media files. Blocking: it returns once the file has been opened, probed and closed.
package enum MediaDescriber {
  /// The description of the file at `path` (or of a URL, when `access` allows it). Throws the same errors, with the
  /// same codes and words, as opening the file to play it.
  /// - Parameter showsFFmpegWarnings: let FFmpeg write its own warnings to standard error (`--verbose`).
  package static func describe(path: String, access: MediaAccess = MediaAccess(), showsFFmpegWarnings: Bool = false)
    throws(PlaybackError) -> MediaDescription
  {
    av_log_set_level(showsFFmpegWarnings ? AV_LOG_WARNING : AV_LOG_FATAL)
    let stop = StopFlag()
    let url = try MediaSource.checkSource(path, access: access)
    let interrupt = AVIOInterruptCB(
      callback: StopFlag.interruptCallback, opaque: Unmanaged.passUnretained(stop).toOpaque())
    let (opened, probed) = try MediaSource.openInput(url, path: path, access: access, interrupt: interrupt)
    var io: UnsafeMutablePointer<AVIOContext>? = opened
    defer { avio_closep(&io) }
    var format: UnsafeMutablePointer<AVFormatContext>? = try MediaSource.openFormat(
      url, path: path, io: opened, demuxer: probed, access: access, interrupt: interrupt, probeStreams: true)
    defer { avformat_close_input(&format) }
    return withExtendedLifetime(stop) { describe(format!, path: path) }
  }

  static func describe(_ format: UnsafeMutablePointer<AVFormatContext>, path: String) -> MediaDescription {
    let context = format.pointee
    var streams: [StreamDescription] = []
    for index in 0..<Int(context.nb_streams) {
      guard let stream = context.streams[index] else { continue }
      streams.append(describe(stream, index: index, in: format))
    }
    var chapters: [ChapterDescription] = []
    for index in 0..<Int(context.nb_chapters) {
      guard let chapter = context.chapters[index]?.pointee else { continue }
      chapters.append(
        ChapterDescription(
          id: chapter.id, timeBase: rational(chapter.time_base), start: chapter.start, end: chapter.end,
          tags: tags(chapter.metadata)))
    }
    let size = context.pb.map { avio_size($0) } ?? -1
    return MediaDescription(
      path: path,
      formatName: context.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
      formatLongName: context.iformat.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
      duration: seconds(context.duration, microseconds),
      startTime: seconds(context.start_time, microseconds),
      bitRate: context.bit_rate > 0 ? Int(context.bit_rate) : nil,
      size: size >= 0 ? size : nil,
      tags: tags(context.metadata), streams: streams, chapters: chapters)
  }

  /// FFmpeg's AV_TIME_BASE_Q: the container's times are in microseconds.
  private static let microseconds = vpk_time_base_q()

  private static func describe(
    _ stream: UnsafeMutablePointer<AVStream>, index: Int, in format: UnsafeMutablePointer<AVFormatContext>
  ) -> StreamDescription {
    let parameters = stream.pointee.codecpar.pointee
    let descriptor = avcodec_descriptor_get(parameters.codec_id)
    var description = StreamDescription(
      index: index, kind: kind(parameters.codec_type),
      codec: descriptor.map { String(cString: $0.pointee.name) },
      codecLongName: descriptor.flatMap { $0.pointee.long_name.map { String(cString: $0) } },
      profile: profile(parameters),
      timeBase: rational(stream.pointee.time_base),
      startTime: seconds(stream.pointee.start_time, stream.pointee.time_base),
      duration: seconds(stream.pointee.duration, stream.pointee.time_base),
      bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil,
      frameCount: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
      disposition: dispositions(stream.pointee.disposition),
      tags: tags(stream.pointee.metadata))
    if let decoder = avcodec_find_decoder(parameters.codec_id)?.pointee {
      let name = String(cString: decoder.name)
      description.decoderDescription = decoder.long_name.map { "\(name) (\(String(cString: $0)))" } ?? name
    }
    switch parameters.codec_type {
    case AVMEDIA_TYPE_VIDEO:
      description.video = video(stream, in: format)
    case AVMEDIA_TYPE_AUDIO:
      description.audio = AudioDescription(
        sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels),
        channelLayout: channelLayout(parameters.ch_layout),
        sampleFormat: av_get_sample_fmt_name(AVSampleFormat(rawValue: parameters.format)).map { String(cString: $0) })
    default:
      break
    }
    return description
  }

  private static func video(_ stream: UnsafeMutablePointer<AVStream>, in format: UnsafeMutablePointer<AVFormatContext>)
    -> VideoDescription
  {
    let parameters = stream.pointee.codecpar.pointee
    // The stream's aspect ratio, else the codec's, as ffprobe reads it; the display ratio from it, reduced as ffprobe
    // reduces it (terms up to 2^20).
    let sar = av_guess_sample_aspect_ratio(format, stream, nil)
    var dar: AVRational?
    if sar.num != 0 {
      var reduced = AVRational()
      av_reduce(
        &reduced.num, &reduced.den, Int64(parameters.width) * Int64(sar.num), Int64(parameters.height) * Int64(sar.den),
        1024 * 1024)
      dar = reduced
    }
    return VideoDescription(
      width: Int(parameters.width), height: Int(parameters.height),
      sampleAspectRatio: sar.num != 0 ? rational(sar) : nil, displayAspectRatio: dar.map(rational),
      rotation: rotation(stream),
      frameRate: knownRate(stream.pointee.r_frame_rate), averageFrameRate: knownRate(stream.pointee.avg_frame_rate),
      pixelFormat: av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.format)).map { String(cString: $0) },
      colorRange: parameters.color_range == AVCOL_RANGE_UNSPECIFIED
        ? nil : av_color_range_name(parameters.color_range).map { String(cString: $0) },
      colorSpace: parameters.color_space == AVCOL_SPC_UNSPECIFIED
        ? nil : av_color_space_name(parameters.color_space).map { String(cString: $0) },
      colorTransfer: parameters.color_trc == AVCOL_TRC_UNSPECIFIED
        ? nil : av_color_transfer_name(parameters.color_trc).map { String(cString: $0) },
      colorPrimaries: parameters.color_primaries == AVCOL_PRI_UNSPECIFIED
        ? nil : av_color_primaries_name(parameters.color_primaries).map { String(cString: $0) },
      fieldOrder: fieldOrder(parameters.field_order))
  }

  // MARK: - Values as ffprobe reads them

  private static func kind(_ type: AVMediaType) -> StreamKind {
    switch type {
    case AVMEDIA_TYPE_VIDEO: .video
    case AVMEDIA_TYPE_AUDIO: .audio
    case AVMEDIA_TYPE_SUBTITLE: .subtitle
    case AVMEDIA_TYPE_DATA: .data
    case AVMEDIA_TYPE_ATTACHMENT: .attachment
    default: .unknown
    }
  }

  /// The profile's name, else its number when the stream has one FFmpeg cannot name.
  private static func profile(_ parameters: AVCodecParameters) -> String? {
    if let name = avcodec_profile_name(parameters.codec_id, parameters.profile) { return String(cString: name) }
    return parameters.profile != FF_PROFILE_UNKNOWN ? String(parameters.profile) : nil
  }

  private static func rational(_ value: AVRational) -> MediaRational {
    MediaRational(Int(value.num), Int(value.den))
  }

  /// A frame rate, or nil when FFmpeg does not know it (`0/0`).
  private static func knownRate(_ value: AVRational) -> MediaRational? {
    value.num != 0 && value.den != 0 ? rational(value) : nil
  }

  private static func seconds(_ ticks: Int64, _ timeBase: AVRational) -> Double? {
    ticks == vpk_nopts_value() ? nil : Double(ticks) * av_q2d(timeBase)
  }

  /// Every disposition flag that is set, by FFmpeg's name, lowest bit first.
  private static func dispositions(_ flags: Int32) -> [String] {
    (0..<31).compactMap { bit -> String? in
      let flag = Int32(1) << Int32(bit)
      guard flags & flag != 0, let name = av_disposition_to_string(flag) else { return nil }
      return String(cString: name)
    }
  }

  /// A metadata dictionary's entries, in the file's order.
  private static func tags(_ dictionary: OpaquePointer?) -> [MediaTag] {
    var result: [MediaTag] = []
    var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
    while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
      result.append(MediaTag(String(cString: next.pointee.key), String(cString: next.pointee.value)))
      entry = next
    }
    return result
  }

  /// Degrees of the stream's display matrix (counter-clockwise), or nil when it has none.
  private static func rotation(_ stream: UnsafeMutablePointer<AVStream>) -> Double? {
    var size: Int = 0
    guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
      size >= 9 * MemoryLayout<Int32>.size
    else { return nil }
    let degrees = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
    guard degrees.isFinite else { return nil }
    return degrees == 0 ? 0 : degrees  // never -0
  }

  private static func channelLayout(_ layout: AVChannelLayout) -> String? {
    guard layout.order != AV_CHANNEL_ORDER_UNSPEC else { return nil }
    var layout = layout
    var buffer = [CChar](repeating: 0, count: 128)
    let written = buffer.withUnsafeMutableBufferPointer {
      av_channel_layout_describe(&layout, $0.baseAddress, $0.count)
    }
    guard written > 0 else { return nil }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  private static func fieldOrder(_ order: AVFieldOrder) -> String? {
    switch order {
    case AV_FIELD_PROGRESSIVE: "progressive"
    case AV_FIELD_TT: "tt"
    case AV_FIELD_BB: "bb"
    case AV_FIELD_TB: "tb"
    case AV_FIELD_BT: "bt"
    default: nil
    }
  }
}

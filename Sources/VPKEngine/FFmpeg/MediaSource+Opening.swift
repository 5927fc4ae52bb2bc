// MediaSource+Opening: what opening a file needs besides the open itself, none of it touching an open source:
// checking the path (with errors that say what to do), and describing the streams from the headers.

import CFFmpeg
import Foundation
import VideoPlaybackKit

extension MediaSource {
  // MARK: - Checking the path and opening the input and the demuxer

  /// Clear errors for the cases where FFmpeg's message would not say what to do. Returns the URL to open: a path
  /// that names an existing file is always that local file (`file:` is put in front, so a name such as
  /// `clip:1.mp4` or `http:x` is not taken for a URL); anything else must be a URL whose protocol is allowed.
  static func checkSource(_ path: String, access policy: MediaAccess) throws(PlaybackError) -> String {
    var status = stat()
    guard stat(path, &status) == 0 else {
      let error = errno
      if let name = avio_find_protocol_name(path).map({ String(cString: $0) }), name != "file" {
        if let refusal = policy.refusal(protocol: name, path: path) { throw refusal }
        return path
      }
      switch error {
      case EACCES: throw PlaybackError(.permissionDenied, "cannot read \(path): permission denied")
      default: throw PlaybackError(.fileNotFound, "no such file: \(path); check the path")
      }
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw PlaybackError(.notAFile, "\(path) is a directory; give a media file")
    }
    if (status.st_mode & S_IFMT) == S_IFREG && status.st_size == 0 {
      throw PlaybackError(.notMedia, "\(path) is empty; give a video or audio file")
    }
    if access(path, R_OK) != 0 {
      throw PlaybackError(.permissionDenied, "cannot read \(path): permission denied")
    }
    return "file:" + path
  }

  /// Opens `url` through an I/O context of vpk's own and probes its demuxer, so the demuxer is known (and refused if
  /// it would open other files or URLs) before it reads anything; libavformat then reads through the same context.
  static func openInput(_ url: String, path: String, access: MediaAccess, interrupt: AVIOInterruptCB)
    throws(PlaybackError) -> (io: UnsafeMutablePointer<AVIOContext>, demuxer: UnsafePointer<AVInputFormat>)
  {
    var interrupt = interrupt
    var options: OpaquePointer? = nil
    av_dict_set(&options, "protocol_whitelist", access.protocolWhitelist, 0)
    var io: UnsafeMutablePointer<AVIOContext>?
    var result = avio_open2(&io, url, AVIO_FLAG_READ, &interrupt, &options)
    av_dict_free(&options)
    guard result >= 0, let opened = io else {
      throw PlaybackError(
        .notMedia, "cannot open \(path) (\(ffmpegErrorText(result))); check that it is a readable file")
    }
    var probed: UnsafePointer<AVInputFormat>? = nil
    result = av_probe_input_buffer2(opened, &probed, url, nil, 0, 0)
    guard result >= 0, let probed else {
      avio_closep(&io)
      throw PlaybackError(
        .notMedia, "cannot read \(path) as media (\(ffmpegErrorText(result))); check that it is a video or audio file")
    }
    if let refusal = access.refusal(demuxer: String(cString: probed.pointee.name), path: path) {
      avio_closep(&io)
      throw refusal
    }
    return (opened, probed)
  }

  /// Opens the demuxer on the probed input and learns its streams (from the headers alone where they say
  /// everything, unless `probeStreams`: describing a file probes every stream, as ffprobe does). On failure the
  /// demuxer is closed; the input stays open for the caller to close.
  static func openFormat(
    _ url: String, path: String, io: UnsafeMutablePointer<AVIOContext>, demuxer probed: UnsafePointer<AVInputFormat>,
    access: MediaAccess, interrupt: AVIOInterruptCB, probeStreams: Bool = false
  ) throws(PlaybackError) -> UnsafeMutablePointer<AVFormatContext> {
    var options: OpaquePointer? = nil
    var format: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
    format?.pointee.interrupt_callback = interrupt
    format?.pointee.pb = io
    format?.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
    // Nested opens (an allowed playlist's segments) inherit both lists; MP4's external data references stay off.
    av_dict_set(&options, "protocol_whitelist", access.protocolWhitelist, 0)
    av_dict_set(&options, "format_whitelist", access.formatWhitelist, 0)
    av_dict_set(&options, "enable_drefs", "0", 0)
    if probeStreams {
      // As the ffmpeg tools open every input: an MPEG-TS demuxer reads every program's table, so the streams are
      // probed on the same packets ffprobe's are (an AAC stream's bit rate comes from the frames probed).
      av_dict_set(&options, "scan_all_pmts", "1", 0)
    }
    var result = avformat_open_input(&format, url, probed, &options)
    av_dict_free(&options)
    guard result >= 0, let opened = format else {
      throw PlaybackError(
        .notMedia,
        "cannot read \(path) as media (\(ffmpegErrorText(result))); check that it is a video or audio file"
          + access.hint(demuxer: String(cString: probed.pointee.name)))
    }
    result = !probeStreams && headersDescribeEverything(opened) ? 0 : avformat_find_stream_info(opened, nil)
    if result < 0 {
      avformat_close_input(&format)
      throw PlaybackError(.notMedia, "cannot find the streams of \(path) (\(ffmpegErrorText(result)))")
    }
    return opened
  }

  // MARK: - Choosing the streams

  /// The stream of `type` that playback reads, chosen as mpv 0.35 chooses a track when no language is asked for: a
  /// forced one before another, then a default one, then the first. Only streams FFmpeg can decode count (and, for
  /// audio, ones that say their rate and channels), where mpv would pick an undecodable one and play nothing of that
  /// kind; -1 when none does. Cover art (an attached picture) is the video only when the file has no other video and
  /// no sound to play: one picture would end the file at once, where the sound's timestamps carry it to its end (mpv
  /// shows the picture and plays the sound; vpk shows no picture), `coverArtBesideSound` then.
  static func playedStreamIndex(_ format: UnsafeMutablePointer<AVFormatContext>, _ type: AVMediaType) -> Int32 {
    var best: (index: Int32, rank: Int)?
    var coverArt: (index: Int32, rank: Int)?
    for index in 0..<Int32(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[Int(index)] else { continue }
      let parameters = stream.pointee.codecpar.pointee
      guard parameters.codec_type == type, avcodec_find_decoder(parameters.codec_id) != nil else { continue }
      if type == AVMEDIA_TYPE_AUDIO, parameters.sample_rate <= 0 || parameters.ch_layout.nb_channels <= 0 { continue }
      let disposition = stream.pointee.disposition
      let rank =
        (disposition & AV_DISPOSITION_FORCED != 0 ? 0 : 2) + (disposition & AV_DISPOSITION_DEFAULT != 0 ? 0 : 1)
      if disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
        if coverArt == nil || rank < coverArt!.rank { coverArt = (index, rank) }
      } else if best == nil || rank < best!.rank {
        best = (index, rank)
      }
    }
    if let best { return best.index }
    guard let coverArt else { return -1 }
    return type == AVMEDIA_TYPE_VIDEO && playedStreamIndex(format, AVMEDIA_TYPE_AUDIO) >= 0
      ? coverArtBesideSound : coverArt.index
  }

  /// `playedStreamIndex`'s answer for video when the only video is cover art and there is sound to play.
  static let coverArtBesideSound: Int32 = -2

  /// The played stream of `type` (`playedStreamIndex`) and its decoder, or FFmpeg's error when there is none
  /// (`AVERROR_DECODER_NOT_FOUND` when the file has streams of that type but no decoder for them).
  static func findPlayedStream(
    _ format: UnsafeMutablePointer<AVFormatContext>, _ type: AVMediaType, decoder: inout UnsafePointer<AVCodec>?
  ) -> Int32 {
    let wanted = playedStreamIndex(format, type)
    if wanted == coverArtBesideSound { return -1 }
    return av_find_best_stream(format, type, wanted, -1, &decoder, 0)
  }

  // MARK: - Describing

  /// Demuxers whose headers give every stream's codec, size, start and duration up front (MP4's moov box). For
  /// them `avformat_find_stream_info`, which decodes several frames to learn what the headers already say (most
  /// of the time it takes to open a 1080p H.264 file), is skipped when every stream is fully described.
  static let headerDescribedDemuxers: Set<String> = ["mov,mp4,m4a,3gp,3g2,mj2"]

  /// Whether the headers alone describe every stream well enough to play and report it: codec, picture size or
  /// sample rate and channels, start time and duration. When anything is missing, the streams are probed.
  static func headersDescribeEverything(_ format: UnsafeMutablePointer<AVFormatContext>) -> Bool {
    guard let demuxer = format.pointee.iformat, headerDescribedDemuxers.contains(String(cString: demuxer.pointee.name)),
      format.pointee.nb_streams > 0
    else { return false }
    for index in 0..<Int(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[index] else { return false }
      let parameters = stream.pointee.codecpar.pointee
      guard parameters.codec_id != AV_CODEC_ID_NONE, stream.pointee.start_time != vpk_nopts_value(),
        stream.pointee.duration > 0, stream.pointee.duration != vpk_nopts_value()
      else { return false }
      switch parameters.codec_type {
      case AVMEDIA_TYPE_VIDEO:
        guard parameters.width > 0, parameters.height > 0 else { return false }
      case AVMEDIA_TYPE_AUDIO:
        guard parameters.sample_rate > 0, parameters.ch_layout.nb_channels > 0 else { return false }
      default:
        continue  // subtitles and data: not played
      }
    }
    return true
  }

  /// Seconds of the file's start: the container's, or (when the streams were not probed) the earliest stream's.
  static func startTime(of format: UnsafeMutablePointer<AVFormatContext>) -> Double {
    if format.pointee.start_time != vpk_nopts_value() {
      return Double(format.pointee.start_time) / Double(AV_TIME_BASE)
    }
    var earliest: Double?
    for index in 0..<Int(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[index], stream.pointee.start_time != vpk_nopts_value() else {
        continue
      }
      let start = Double(stream.pointee.start_time) * av_q2d(stream.pointee.time_base)
      earliest = min(earliest ?? start, start)
    }
    return earliest ?? 0
  }

  /// The container's duration, else the longest stream's, else nil (a raw stream, a file written to a pipe).
  static func duration(of format: UnsafeMutablePointer<AVFormatContext>) -> MediaTime? {
    if format.pointee.duration > 0 && format.pointee.duration != vpk_nopts_value() {
      return MediaTime(seconds: Double(format.pointee.duration) / Double(AV_TIME_BASE))
    }
    var longest = 0.0
    for index in 0..<Int(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[index], stream.pointee.duration > 0,
        stream.pointee.duration != vpk_nopts_value()
      else { continue }
      longest = max(longest, Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base))
    }
    return longest > 0 ? MediaTime(seconds: longest) : nil
  }

  /// The container's bit rate, or (when the streams were not probed) the file's size over its duration, as
  /// libavformat would compute it.
  static func bitRate(of format: UnsafeMutablePointer<AVFormatContext>) -> Int? {
    if format.pointee.bit_rate > 0 { return Int(format.pointee.bit_rate) }
    guard let seconds = duration(of: format)?.seconds, seconds > 0, let io = format.pointee.pb else { return nil }
    let size = avio_size(io)
    return size > 0 ? Int((Double(size) * 8 / seconds).rounded(.down)) : nil
  }

  static func describe(format: UnsafeMutablePointer<AVFormatContext>, path: String) -> MediaInfo {
    var video: VideoStreamInfo?
    var audio: AudioStreamInfo?
    let videoIndex = playedStreamIndex(format, AVMEDIA_TYPE_VIDEO)
    let audioIndex = playedStreamIndex(format, AVMEDIA_TYPE_AUDIO)
    if videoIndex >= 0, let stream = format.pointee.streams[Int(videoIndex)] {
      let parameters = stream.pointee.codecpar.pointee
      let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
      video = VideoStreamInfo(
        codec: String(cString: avcodec_get_name(parameters.codec_id)),
        width: Int(parameters.width), height: Int(parameters.height),
        frameRate: rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil,
        pixelFormat: pixelFormatName(parameters.format),
        bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil)
    }
    if audioIndex >= 0, let stream = format.pointee.streams[Int(audioIndex)] {
      let parameters = stream.pointee.codecpar.pointee
      audio = AudioStreamInfo(
        codec: String(cString: avcodec_get_name(parameters.codec_id)),
        sampleRate: Int(parameters.sample_rate), channels: Int(parameters.ch_layout.nb_channels),
        bitRate: parameters.bit_rate > 0 ? Int(parameters.bit_rate) : nil)
    }
    var info = MediaInfo(
      path: path,
      container: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
      duration: Self.duration(of: format),
      bitRate: Self.bitRate(of: format),
      streamCount: Int(format.pointee.nb_streams), video: video, audio: audio)
    var details = MediaDescriber.describe(format, path: path)
    details.playedVideoIndex = videoIndex >= 0 ? Int(videoIndex) : nil
    details.playedAudioIndex = audioIndex >= 0 ? Int(audioIndex) : nil
    for index in details.streams.indices where details.streams[index].audio != nil {
      details.streams[index].audio = decodedAudio(details.streams[index].audio!, format: format, index: index)
    }
    info.details = details
    return info
  }

  /// An audio stream's samples as its decoder gives them, where the headers leave them unsaid (MP4's headers give
  /// no sample format nor channel layout): the decoder's one sample format, and the default layout of its channel
  /// count.
  private static func decodedAudio(_ audio: AudioDescription, format: UnsafeMutablePointer<AVFormatContext>, index: Int)
    -> AudioDescription
  {
    var audio = audio
    guard let stream = format.pointee.streams[index] else { return audio }
    if audio.sampleFormat == nil, let decoder = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id),
      let formats = decoder.pointee.sample_fmts, formats[0] != AV_SAMPLE_FMT_NONE, formats[1] == AV_SAMPLE_FMT_NONE
    {
      audio.sampleFormat = av_get_sample_fmt_name(formats[0]).map { String(cString: $0) }
    }
    if audio.channelLayout == nil, audio.channels > 0 {
      var layout = AVChannelLayout()
      av_channel_layout_default(&layout, Int32(audio.channels))
      var buffer = [CChar](repeating: 0, count: 128)
      if buffer.withUnsafeMutableBufferPointer({ av_channel_layout_describe(&layout, $0.baseAddress, $0.count) }) > 0 {
        audio.channelLayout = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
      }
      av_channel_layout_uninit(&layout)
    }
    return audio
  }
}

// MPVPropertyTable+File: the entries of the read-only properties of the file (its playlist of one, title, tags,
// chapters, tracks, stream parameters, size) and of the time left, read from what `ready` / `info` said of it
// (MediaInfo and its details) as mpv 0.35 gives them.

import Foundation
import VideoPlaybackKit

extension MPVPropertyTable {
  static func fileSpec(_ property: MPVProperty) -> MPVPropertySpec {
    switch property {
    case .playlistCount:
      return MPVPropertySpec(
        property: property, kind: .integer, read: { .integer($0.playlist.entries.count) },
        changesOn: [.playlistEntry],
        docs: .init(
          note:
            "the entries of the session's queue (an entry stays after its file went, until a `stop` or "
            + "`playlist-clear`, as in mpv)",
          from: loadEvents + ", the queue's edits", tests: playlistTests))
    case .playlistPos, .playlistPos1, .playlistCurrentPos, .playlistPlayingPos:
      let first = property == .playlistPos1 ? 1 : 0
      let settable = property == .playlistPos || property == .playlistPos1
      return MPVPropertySpec(
        property: property, kind: .integer, read: { .integer($0.playlist.playing.map { $0 + first } ?? -1) },
        write: settable ? playlistPositionWrite(first: first) : nil,
        docs: .init(
          note: "the entry loaded or loading, counted from \(first); −1 with none"
            + (settable ? "; setting it plays that entry (−1 or an index with no entry: playback stops)" : ""),
          from: loadEvents, tests: playlistTests))
    case .playlist:
      return MPVPropertySpec(
        property: property, kind: .list,
        read: { readings in
          let (entries, playing) = readings.playlist
          return .array(
            entries.enumerated().map { index, entry in
              var members = [MPVMember("filename", .string(entry.path))]
              if index == playing { members += [MPVMember("current", .bool(true)), MPVMember("playing", .bool(true))] }
              if let title = entry.listTitle { members.append(MPVMember("title", .string(title))) }
              return .object(members + [MPVMember("id", .integer(entry.id))])
            })
        },
        changesOn: [.playlistEntry],
        docs: .init(
          note:
            "the session's queue: each entry's `filename` and `id`, its `title` when its list gave one (an m3u "
            + "`#EXTINF`, a pls `TitleN`), and `current` and `playing` on the one loaded or loading; entries stay "
            + "after their file went, until a `stop` or `playlist-clear`",
          from: loadEvents + ", the queue's edits", tests: playlistTests))
    case .workingDirectory:
      return MPVPropertySpec(
        property: property, kind: .text, read: { _ in .string(FileManager.default.currentDirectoryPath) },
        isConstant: true, docs: .init(note: "vpk's working directory", from: "—", tests: playlistTests))
    case .mediaTitle:
      return MPVPropertySpec(
        property: property, kind: .text,
        read: { readings in
          guard let path = readings.currentPath else { return nil }
          let (entries, playing) = readings.playlist
          return .string(
            readings.info.flatMap { fileTags($0).value(for: "title") } ?? playing.flatMap { entries[$0].listTitle }
              ?? fileName(path))
        },
        docs: .init(
          note: "the container's `title` tag, else the title the entry's list gave, else the file's name",
          unavailable: "nothing loaded or loading",
          from: loadEvents, tests: fileTests))
    case .metadata:
      return MPVPropertySpec(
        property: property, kind: .list,
        read: { readings in
          guard let info = readings.info else { return nil }
          return .object(fileTags(info).map { MPVMember($0.key, .string($0.value)) })
        },
        docs: .init(
          note:
            "the container's tags, as a map (`{}` without any); in a file of one audio stream and no video but cover "
            + "art, with that stream's tags merged in (an Ogg song's tags are its stream's), as mpv merges them",
          unavailable: "nothing loaded",
          from: "`ready`", tests: fileTests))
    case .chapters:
      return MPVPropertySpec(
        property: property, kind: .integer,
        read: { $0.info.map { .integer($0.details?.chapters.count ?? 0) } },
        docs: .init(
          note: "the container's chapters", unavailable: "nothing loaded", from: "`ready`",
          tests: fileTests))
    case .chapter:
      return MPVPropertySpec(
        property: property, kind: .integer,
        read: { readings in
          guard let chapters = readings.info?.details?.chapters, !chapters.isEmpty else { return nil }
          let position = readings.position.seconds
          return .integer((chapters.lastIndex { $0.startTime <= position }) ?? -1)
        },
        docs: .init(
          note: "the chapter the position is in (−1 before the first); read-only here",
          unavailable: "nothing loaded, or no chapters", from: "position, `ready`", tests: fileTests))
    case .chapterList:
      return MPVPropertySpec(
        property: property, kind: .list,
        read: { readings in
          .array(
            (readings.info?.details?.chapters ?? []).map { chapter in
              .object(
                (chapter.title.map { [MPVMember("title", .string($0))] } ?? [])
                  + [MPVMember("time", .number(chapter.startTime))])
            })
        },
        docs: .init(
          note: "`title` (when tagged) and `time` of each chapter; `[]` without any", from: "`ready`",
          tests: fileTests))
    case .trackList:
      return MPVPropertySpec(
        property: property, kind: .list, read: { .array(tracks($0.info)) },
        docs: .init(
          note: "the video, audio and subtitle (`sub`) streams with mpv's fields (`id` per type, `src-id`, "
            + "`ff-index`, `selected` for the video and audio stream vpk reads and the subtitle stream mpv selects, "
            + "`codec`, `decoder-desc`, `demux-*`, dispositions, `lang`/`title` tags); `[]` without a file",
          from: "`ready`", tests: fileTests + ", MPVPropertyTableTests.selectedSubtitle, playedStreamsAreSelected"))
    case .videoParams:
      return MPVPropertySpec(
        property: property, kind: .list, read: { videoParams($0.info) },
        docs: .init(
          note:
            "`pixelformat`, `w`, `h`, `dw`, `dh`, `aspect`, `par`, `rotate` from the stream's headers (mpv's colour "
            + "fields are not given)", unavailable: "nothing loaded, or no video stream", from: "`ready`",
          tests: fileTests))
    case .audioParams:
      return MPVPropertySpec(
        property: property, kind: .list, read: { audioParams($0.info) },
        docs: .init(
          note: "`samplerate`, `channel-count`, `channels`, `hr-channels`, `format` (when the headers say) of the "
            + "audio stream, which vpk does not play", unavailable: "nothing loaded, or no audio stream",
          from: "`ready`", tests: fileTests))
    case .timeRemaining, .playtimeRemaining:
      let bySpeed = property == .playtimeRemaining
      return MPVPropertySpec(
        property: property, kind: .number,
        read: { readings in
          guard readings.info != nil, let duration = readings.duration?.seconds else { return nil }
          let left = duration - readings.positionInFile.seconds
          return .number(bySpeed ? left / max(abs(readings.rate), 1e-9) : left)
        },
        changesOn: [.endOfFile],
        docs: .init(
          note: bySpeed ? "`time-remaining` divided by `speed`" : "duration − position",
          unavailable: "nothing loaded, or no duration", from: "`status`, `progress`, `seeked`, `rate`",
          tests: fileTests))
    case .filenameNoExt:
      return MPVPropertySpec(
        property: property, kind: .text,
        read: { readings in
          readings.currentPath.map { path in
            let name = fileName(path)
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .string(name) }
            return .string(String(name[..<dot]))
          }
        },
        docs: .init(
          note: "`filename` without its extension (not in `property-list`, as in mpv's)",
          unavailable: "nothing loaded or loading", from: loadEvents, tests: fileTests))
    case .fileSize:
      return MPVPropertySpec(
        property: property, kind: .integer,
        read: { $0.info?.details?.size.map { .integer(Int($0)) } },
        docs: .init(
          note: "bytes", unavailable: "nothing loaded, or a size the input does not know",
          from: "`ready`", tests: fileTests))
    case .coreIdle:
      return MPVPropertySpec(
        property: property, kind: .flag, read: { .bool($0.state != .playing || $0.seeking) },
        changesOn: [.endOfFile],
        docs: .init(note: "true unless playing, and while a seek lands", from: "`status`, `state`", tests: fileTests))
    case .seekable:
      return MPVPropertySpec(
        property: property, kind: .flag, read: { $0.info != nil ? .bool(true) : nil },
        docs: .init(
          note: "true: vpk seeks in every file it opens", unavailable: "nothing loaded",
          from: "`ready`", tests: fileTests))
    default:
      return MPVPropertySpec(
        property: property, kind: .flag, read: { $0.info != nil ? .bool(false) : nil },
        docs: .init(
          note: "false (see `seekable`)", unavailable: "nothing loaded", from: "`ready`",
          tests: fileTests))
    }
  }

  private static let loadEvents = "`loading`, `ready`, `closed`"
  /// The file's tags as mpv's `metadata` gives them: the container's, and, in a file whose only sound is one audio
  /// stream and whose only pictures are cover art, that stream's merged in (a key already there, in any case, takes
  /// the stream's value), as mpv's FFmpeg-based demuxer merges them. mpv reads Matroska and WebM with its own
  /// demuxer, which merges nothing.
  static func fileTags(_ info: MediaInfo) -> [MediaTag] {
    var tags = info.details?.tags ?? []
    guard !(info.details?.formatName ?? info.container).contains("matroska") else { return tags }
    let streams = info.details?.streams ?? []
    let audio = streams.filter { $0.kind == .audio }
    let video = streams.filter { $0.kind == .video && !$0.disposition.contains("attached_pic") }
    guard video.isEmpty, audio.count == 1 else { return tags }
    for tag in audio[0].tags {
      if let index = tags.firstIndex(where: { $0.key.lowercased() == tag.key.lowercased() }) {
        tags[index].value = tag.value
      } else {
        tags.append(tag)
      }
    }
    return tags
  }

  /// `playlist-pos` (`first` 0) and `playlist-pos-1` (1): an integer; setting it plays that entry.
  private static func playlistPositionWrite(first: Int) -> MPVPropertySpec.Write {
    MPVPropertySpec.Write(
      accept: { value in
        guard let number = MPVCommandTranslator.integer(value) else {
          return .failure(MPVRequestError(value.string != nil ? .invalidParameter : .unsupportedFormat))
        }
        return .success(.integer(number))
      },
      change: { value, _ in .playIndex((value.integer ?? -1) - first) })
  }

  private static let playlistTests =
    "MPVPresenterTests.playlistProperties, MPVPresenterPlaylistTests, MPVPropertiesTests.everyPropertyAsMPVGivesIt"
  private static let fileTests =
    "MPVPresenterTests.fileDetails, fileWithoutDetails, observersToldAtOnce, MPVPropertiesTests.everyPropertyAsMPVGivesIt, "
    + "observersAsMPVTellsThem"

  static func fileName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "")
  }

  /// The file's streams: its details', else (an engine that gave none) its video and audio stream.
  private static func streams(_ info: MediaInfo) -> [StreamDescription] {
    if let details = info.details { return details.streams }
    var streams: [StreamDescription] = []
    if let video = info.video {
      streams.append(
        StreamDescription(
          index: 0, kind: .video, codec: video.codec, timeBase: MediaRational(1, 1),
          video: VideoDescription(
            width: video.width, height: video.height,
            frameRate: video.frameRate.map { MediaRational(Int($0 * 1000), 1000) },
            pixelFormat: video.pixelFormat)))
    }
    if let audio = info.audio {
      streams.append(
        StreamDescription(
          index: streams.count, kind: .audio, codec: audio.codec, timeBase: MediaRational(1, 1),
          bitRate: audio.bitRate, audio: AudioDescription(sampleRate: audio.sampleRate, channels: audio.channels)))
    }
    return streams
  }

  /// The stream of `kind` (video or audio) that vpk reads: the one the engine chose, else (an engine that did not
  /// say) the first of its kind; none when the file opened with nothing of that kind to read (no decoder for it).
  static func playedStream(_ kind: StreamKind, of info: MediaInfo) -> StreamDescription? {
    guard kind == .video ? info.video != nil : info.audio != nil else { return nil }
    let all = streams(info)
    let index = kind == .video ? info.details?.playedVideoIndex : info.details?.playedAudioIndex
    if let index, let played = all.first(where: { $0.index == index }) { return played }
    return all.first { $0.kind == kind }
  }

  /// The index of the subtitle stream mpv 0.35 selects with its default options (no `--slang`, `--sid=auto`): of the
  /// streams, one without the forced flag before one with it, then a default one before another, then the first; it
  /// is selected only when it is default or forced. Checked against mpv on Matroska and MP4 files with each mix of
  /// the two flags.
  static func selectedSubtitle(of streams: [StreamDescription]) -> Int? {
    let subtitles = streams.filter { $0.kind == .subtitle }
    let pick = subtitles.min { a, b in
      let (aForced, bForced) = (a.disposition.contains("forced"), b.disposition.contains("forced"))
      if aForced != bForced { return !aForced }
      let (aDefault, bDefault) = (a.disposition.contains("default"), b.disposition.contains("default"))
      if aDefault != bDefault { return aDefault }
      return a.index < b.index
    }
    guard let pick, pick.disposition.contains("default") || pick.disposition.contains("forced") else { return nil }
    return pick.index
  }

  /// mpv's `track-list` entries for the video, audio and subtitle streams (mpv's `sub`; vpk shows none, and tells
  /// the one mpv would select).
  private static func tracks(_ info: MediaInfo?) -> [MPVValue] {
    guard let info else { return [] }
    var counts: [StreamKind: Int] = [:]
    let all = streams(info)
    let selectedSubtitle = selectedSubtitle(of: all)
    let selectedIndexes = [
      playedStream(.video, of: info)?.index, playedStream(.audio, of: info)?.index, selectedSubtitle,
    ]
    return all.compactMap { stream -> MPVValue? in
      let type: String
      switch stream.kind {
      case .video, .audio: type = stream.kind.rawValue
      case .subtitle: type = "sub"
      default: return nil
      }
      let id = (counts[stream.kind] ?? 0) + 1
      counts[stream.kind] = id
      let selected = selectedIndexes.contains(stream.index)
      var members = [
        MPVMember("id", .integer(id)), MPVMember("type", .string(type)),
        MPVMember("src-id", .integer(stream.index + 1)),
      ]
      if let title = stream.title { members.append(MPVMember("title", .string(title))) }
      // mpv leaves out the undetermined language.
      if let language = stream.language, language != "und" { members.append(MPVMember("lang", .string(language))) }
      if let audio = stream.audio { members.append(MPVMember("audio-channels", .integer(audio.channels))) }
      let flag = { (name: String) in stream.disposition.contains(name) }
      members += [
        MPVMember("image", .bool(flag("attached_pic"))), MPVMember("albumart", .bool(flag("attached_pic"))),
        MPVMember("default", .bool(flag("default"))), MPVMember("forced", .bool(flag("forced"))),
        MPVMember("dependent", .bool(flag("dependent"))),
        MPVMember("visual-impaired", .bool(flag("visual_impaired"))),
        MPVMember("hearing-impaired", .bool(flag("hearing_impaired"))), MPVMember("external", .bool(false)),
        MPVMember("selected", .bool(selected)),
      ]
      if selected { members.append(MPVMember("main-selection", .integer(0))) }
      members.append(MPVMember("ff-index", .integer(stream.index)))
      if let codec = stream.codec {
        // A decoder is described for the streams that are decoded (the selected video and audio ones), as mpv does.
        if stream.kind != .subtitle, selected {
          // The decoder's names, as mpv gives them; from the codec's when the engine did not say.
          let description = stream.decoderDescription ?? stream.codecLongName.map { "\(codec) (\($0))" } ?? codec
          members.append(MPVMember("decoder-desc", .string(description)))
        }
        members.append(MPVMember("codec", .string(codec)))
      }
      if let video = stream.video {
        members += [MPVMember("demux-w", .integer(video.width)), MPVMember("demux-h", .integer(video.height))]
        if let fps = (video.averageFrameRate ?? video.frameRate)?.value {
          members.append(MPVMember("demux-fps", .number(fps)))
        }
        if let rotate = mpvRotation(video), rotate != 0 {
          members.append(MPVMember("demux-rotation", .integer(rotate)))
        }
        members.append(MPVMember("demux-par", .number(video.sampleAspectRatio?.value ?? 1)))
      }
      if let audio = stream.audio {
        // mpv reads Matroska with a reader of its own, which takes a track's channel count and no layout.
        let layout = info.container.contains("matroska") ? nil : audio.channelLayout
        members += [
          MPVMember("demux-channel-count", .integer(audio.channels)),
          MPVMember("demux-channels", .string(layout ?? "unknown\(audio.channels)")),
          MPVMember("demux-samplerate", .integer(audio.sampleRate)),
        ]
        if let bitRate = stream.bitRate { members.append(MPVMember("demux-bitrate", .integer(bitRate))) }
      }
      return .object(members)
    }
  }

  /// mpv's `video-params` from the headers of the video stream vpk plays.
  private static func videoParams(_ info: MediaInfo?) -> MPVValue? {
    guard let info, let stream = playedStream(.video, of: info), let video = stream.video,
      video.width > 0, video.height > 0
    else { return nil }
    let par = video.sampleAspectRatio?.value ?? 1
    let (dw, dh) =
      par >= 1
      ? (Int((Double(video.width) * par).rounded()), video.height)
      : (video.width, Int((Double(video.height) / par).rounded()))
    let rotate = mpvRotation(video) ?? 0
    var members: [MPVMember] = []
    if let format = video.pixelFormat ?? info.video?.pixelFormat {
      members.append(MPVMember("pixelformat", .string(format)))
    }
    members += [
      MPVMember("w", .integer(video.width)), MPVMember("h", .integer(video.height)), MPVMember("dw", .integer(dw)),
      MPVMember("dh", .integer(dh)), MPVMember("aspect", .number(Double(dw) / Double(dh))),
      MPVMember("par", .number(par)), MPVMember("rotate", .integer(rotate)),
    ]
    return .object(members)
  }

  /// The stream's rotation as mpv gives it: FFmpeg's display matrix turns counter-clockwise, mpv's `rotate` is
  /// clockwise, 0–359. Nil without a matrix.
  private static func mpvRotation(_ video: VideoDescription) -> Int? {
    video.rotation.map { ((-Int($0.rounded())) % 360 + 360) % 360 }
  }

  /// mpv's `audio-params` from the headers of the audio stream vpk reads.
  private static func audioParams(_ info: MediaInfo?) -> MPVValue? {
    guard let info, let audio = playedStream(.audio, of: info)?.audio else { return nil }
    let channels = audio.channelLayout ?? "unknown\(audio.channels)"
    var members = [
      MPVMember("samplerate", .integer(audio.sampleRate)), MPVMember("channel-count", .integer(audio.channels)),
      MPVMember("channels", .string(channels)), MPVMember("hr-channels", .string(channels)),
    ]
    if let format = audio.sampleFormat.flatMap({ mpvSampleFormats[$0] }) {
      members.append(MPVMember("format", .string(format)))
    }
    return .object(members)
  }

  /// FFmpeg's sample format names to mpv's.
  private static let mpvSampleFormats = [
    "u8": "u8", "s16": "s16", "s32": "s32", "s64": "s64", "flt": "float", "dbl": "double", "u8p": "u8p",
    "s16p": "s16p", "s32p": "s32p", "s64p": "s64p", "fltp": "floatp", "dblp": "doublep",
  ]
}

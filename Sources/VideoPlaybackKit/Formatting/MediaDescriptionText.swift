// MediaDescriptionText: how `vpk info` shows a MediaDescription. For people, a short block of aligned lines in
// sections (General, one per stream, Chapters), as mediainfo prints; for programs, one JSON object whose names are
// ffprobe's where ffprobe has one (schema/vpk-info.schema.json). Times are seconds rounded to the microsecond in
// JSON (ffprobe prints six decimals) and shown to the millisecond in text.

/// The text block and the JSON object of a media description.
package enum MediaDescriptionText {
  // MARK: - Text

  /// The description as aligned `label  value` lines under section headings, ending with a newline.
  package static func block(_ description: MediaDescription) -> String {
    var sections: [(title: String, lines: [(String, String)])] = []
    sections.append(("General", general(description)))
    for stream in description.streams {
      sections.append(("Stream #\(stream.index): \(stream.kind.rawValue)", lines(of: stream)))
    }
    if !description.chapters.isEmpty {
      let chapters = description.chapters.map { chapter in
        (
          "#\(chapter.id)",
          NumberText.clock(chapter.startTime) + " - " + NumberText.clock(chapter.endTime)
            + (chapter.title.map { "  " + clean($0) } ?? "")
        )
      }
      sections.append(("Chapters", chapters))
    }
    let width = sections.flatMap { $0.lines.map(\.0.count) }.max() ?? 0
    var text = ""
    for (number, section) in sections.enumerated() {
      if number > 0 { text += "\n" }
      text += section.title + "\n"
      for (label, value) in section.lines {
        text += "  " + label + String(repeating: " ", count: width - label.count + 2) + value + "\n"
      }
    }
    return text
  }

  private static func general(_ description: MediaDescription) -> [(String, String)] {
    var lines: [(String, String)] = [("File", clean(description.path))]
    lines.append(
      ("Container", description.formatName + (description.formatLongName.map { " (\($0))" } ?? "")))
    if let title = description.title { lines.append(("Title", clean(title))) }
    lines.append(("Duration", description.duration.map(NumberText.clock) ?? "unknown"))
    if let start = description.startTime { lines.append(("Start time", NumberText.seconds(start) + " s")) }
    if let bitRate = description.bitRate { lines.append(("Bit rate", bitRateText(bitRate))) }
    if let size = description.size { lines.append(("Size", "\(size) bytes")) }
    lines.append(("Streams", "\(description.streams.count)"))
    if !description.chapters.isEmpty { lines.append(("Chapters", "\(description.chapters.count)")) }
    lines += tagLines(description.tags, except: ["title"])
    return lines
  }

  private static func lines(of stream: StreamDescription) -> [(String, String)] {
    var lines: [(String, String)] = []
    lines.append(("Codec", (stream.codec ?? "unknown") + (stream.codecLongName.map { " - \($0)" } ?? "")))
    if let profile = stream.profile { lines.append(("Profile", profile)) }
    if let language = stream.language { lines.append(("Language", clean(language))) }
    if let title = stream.title { lines.append(("Title", clean(title))) }
    if !stream.disposition.isEmpty { lines.append(("Disposition", stream.disposition.joined(separator: ", "))) }
    if let video = stream.video {
      lines.append(("Size", "\(video.width)x\(video.height)"))
      if let sar = video.sampleAspectRatio, let dar = video.displayAspectRatio {
        lines.append(("Aspect ratio", "SAR \(ratio(sar, ":")), DAR \(ratio(dar, ":"))"))
      }
      if let rotation = video.rotation { lines.append(("Rotation", NumberText.trimmed(rotation, decimals: 2) + "°")) }
      if let rate = video.averageFrameRate ?? video.frameRate, let fps = rate.value {
        var text = NumberText.trimmed(fps, decimals: 3) + " fps"
        let exact = [
          video.frameRate.map { "r \(ratio($0, "/"))" }, video.averageFrameRate.map { "avg \(ratio($0, "/"))" },
        ]
        text += " (" + exact.compactMap { $0 }.joined(separator: ", ") + ")"
        lines.append(("Frame rate", text))
      }
      if let format = video.pixelFormat { lines.append(("Pixel format", format)) }
      let colour = [
        video.colorRange.map { "range \($0)" }, video.colorSpace.map { "space \($0)" },
        video.colorTransfer.map { "transfer \($0)" }, video.colorPrimaries.map { "primaries \($0)" },
      ].compactMap { $0 }
      if !colour.isEmpty { lines.append(("Colour", colour.joined(separator: ", "))) }
      if let order = video.fieldOrder { lines.append(("Field order", order)) }
    }
    if let audio = stream.audio {
      lines.append(("Sample rate", "\(audio.sampleRate) Hz"))
      lines.append(("Channels", "\(audio.channels)" + (audio.channelLayout.map { " (\($0))" } ?? "")))
      if let format = audio.sampleFormat { lines.append(("Sample format", format)) }
    }
    if let start = stream.startTime { lines.append(("Start time", NumberText.seconds(start) + " s")) }
    if let duration = stream.duration { lines.append(("Duration", NumberText.clock(duration))) }
    if let bitRate = stream.bitRate { lines.append(("Bit rate", bitRateText(bitRate))) }
    if let frames = stream.frameCount { lines.append(("Frames", "\(frames)")) }
    lines += tagLines(stream.tags, except: ["language", "title"])
    return lines
  }

  /// One line per tag, `Tag <key>`, except the ones shown on lines of their own.
  private static func tagLines(_ tags: [MediaTag], except shown: Set<String>) -> [(String, String)] {
    tags.filter { !shown.contains($0.key.lowercased()) }.map { ("Tag " + clean($0.key), clean($0.value)) }
  }

  /// `334 kb/s` (kilo is 1000), or `N b/s` below 1 kb/s.
  static func bitRateText(_ bitsPerSecond: Int) -> String {
    bitsPerSecond < 1000
      ? "\(bitsPerSecond) b/s" : NumberText.trimmed(Double(bitsPerSecond) / 1000, decimals: 0) + " kb/s"
  }

  private static func ratio(_ value: MediaRational, _ separator: String) -> String {
    "\(value.num)\(separator)\(value.den)"
  }

  /// Text from the file as one line: control characters escaped, as every value vpk prints from input.
  private static func clean(_ text: String) -> String {
    TextQuoting.escapingControls(text)
  }

  // MARK: - JSON

  /// The description as one JSON object on one line (no newline at its end).
  package static func json(_ description: MediaDescription) -> String {
    let format: [(String, JSON)] = [
      ("format_name", .string(description.formatName)),
      ("format_long_name", string(description.formatLongName)),
      ("duration", time(description.duration)),
      ("start_time", time(description.startTime)),
      ("bit_rate", integer(description.bitRate)),
      ("size", integer(description.size.map { Int($0) })),
      ("nb_streams", .integer(description.streams.count)),
      ("nb_chapters", .integer(description.chapters.count)),
      ("title", string(description.title)),
      ("tags", tags(description.tags)),
    ]
    let root: JSON = .object([
      ("path", .string(description.path)),
      ("format", .object(format)),
      ("streams", .array(description.streams.map(json))),
      ("chapters", .array(description.chapters.map(json))),
    ])
    return root.encoded
  }

  private static func json(_ stream: StreamDescription) -> JSON {
    var members: [(String, JSON)] = [
      ("index", .integer(stream.index)),
      ("codec_type", .string(stream.kind.rawValue)),
      ("codec_name", string(stream.codec)),
      ("codec_long_name", string(stream.codecLongName)),
      ("profile", string(stream.profile)),
      ("language", string(stream.language)),
      ("title", string(stream.title)),
      ("disposition", .array(stream.disposition.map { .string($0) })),
      ("time_base", .string(ratio(stream.timeBase, "/"))),
      ("start_time", time(stream.startTime)),
      ("duration", time(stream.duration)),
      ("bit_rate", integer(stream.bitRate)),
      ("nb_frames", integer(stream.frameCount)),
    ]
    if let video = stream.video {
      members += [
        ("width", .integer(video.width)),
        ("height", .integer(video.height)),
        ("sample_aspect_ratio", rational(video.sampleAspectRatio, ":")),
        ("display_aspect_ratio", rational(video.displayAspectRatio, ":")),
        ("rotation", video.rotation.map { .number(NumberText.rounded($0, decimals: 6)) } ?? .null),
        ("r_frame_rate", rational(video.frameRate, "/")),
        ("avg_frame_rate", rational(video.averageFrameRate, "/")),
        ("pix_fmt", string(video.pixelFormat)),
        ("color_range", string(video.colorRange)),
        ("color_space", string(video.colorSpace)),
        ("color_transfer", string(video.colorTransfer)),
        ("color_primaries", string(video.colorPrimaries)),
        ("field_order", string(video.fieldOrder)),
      ]
    }
    if let audio = stream.audio {
      members += [
        ("sample_rate", .integer(audio.sampleRate)),
        ("channels", .integer(audio.channels)),
        ("channel_layout", string(audio.channelLayout)),
        ("sample_fmt", string(audio.sampleFormat)),
      ]
    }
    members.append(("tags", tags(stream.tags)))
    return .object(members)
  }

  private static func json(_ chapter: ChapterDescription) -> JSON {
    .object([
      ("id", .integer(Int(chapter.id))),
      ("time_base", .string(ratio(chapter.timeBase, "/"))),
      ("start", .integer(Int(chapter.start))),
      ("start_time", time(chapter.startTime)),
      ("end", .integer(Int(chapter.end))),
      ("end_time", time(chapter.endTime)),
      ("title", string(chapter.title)),
      ("tags", tags(chapter.tags)),
    ])
  }

  private static func string(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }
  private static func integer(_ value: Int?) -> JSON { value.map { .integer($0) } ?? .null }
  private static func rational(_ value: MediaRational?, _ separator: String) -> JSON {
    value.map { .string(ratio($0, separator)) } ?? .null
  }
  /// Seconds rounded to the microsecond, as ffprobe prints them; null when unknown (or not finite).
  private static func time(_ value: Double?) -> JSON {
    guard let value, value.isFinite else { return .null }
    return .number(NumberText.rounded(value, decimals: 6))
  }

  /// Tags as an object in the file's order; a key given twice keeps its first value (JSON keys are unique).
  private static func tags(_ tags: [MediaTag]) -> JSON {
    var seen = Set<String>()
    return .object(tags.filter { seen.insert($0.key).inserted }.map { ($0.key, .string($0.value)) })
  }

  /// A JSON value whose object members keep their order.
  private indirect enum JSON {
    case object([(String, JSON)])
    case array([JSON])
    case string(String)
    case number(Double)
    case integer(Int)
    case null

    var encoded: String {
      switch self {
      case .object(let members):
        "{" + members.map { JSONLinesView.encode($0.0) + ":" + $0.1.encoded }.joined(separator: ",") + "}"
      case .array(let values): "[" + values.map(\.encoded).joined(separator: ",") + "]"
      case .string(let string): JSONLinesView.encode(string)
      case .number(let number): JSONLinesView.encode(number)
      case .integer(let integer): String(integer)
      case .null: "null"
      }
    }
  }
}

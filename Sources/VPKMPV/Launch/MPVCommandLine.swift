// MPVCommandLine: the options a client passes when it starts mpv itself (`mpv --idle --input-ipc-server=PATH …`),
// read as mpv 0.35 reads its command line, for `vpk mpv` and for vpk run under the name `mpv`.
//
// `--opt=value` everywhere; `--opt value` is refused for an option that takes a value, with mpv's message; mpv's old
// form `-opt value` is taken. A flag is `--flag`, `--flag=yes|no` or `--no-flag`. `--` ends the options. Options vpk
// cannot honour (a window, sound, subtitles, the terminal) are taken and ignored; an option mpv does not have is
// refused with mpv's words, on standard output as mpv writes them, and exit status 1.

import VideoPlaybackKit

package struct MPVCommandLine: Sendable, Equatable {
  /// `--idle`: with no file, wait for one (`yes`), only at the start (`once`), or leave (`no`).
  package enum Idle: String, Sendable, CaseIterable { case no, once, yes }
  /// `--keep-open`: at the end of a file, stay paused on its last frame (`yes`, `always`) or go on (`no`).
  package enum KeepOpen: String, Sendable, CaseIterable { case no, yes, always }

  package var idle = Idle.no
  /// `--input-ipc-server=PATH`; nil when not given or given empty (mpv: no socket).
  package var inputIPCServer: String?
  package var pause = false
  /// `--start=`; nil when not given or `none`.
  package var start: FileStart?
  package var keepOpen = KeepOpen.no
  /// `--loop-file=inf|yes` (or bare).
  package var loopsFile = false
  package var speed = 1.0
  /// `--playlist-start=N`: the entry played first (0-based); nil for `auto` or not given.
  package var playlistStart: Int?
  /// `--loop-playlist[=inf|force|N]`: after the last entry comes the first (vpk loops without end for any count over
  /// 1); `no` and 1 do not loop.
  package var loopPlaylist: MPVValue = .bool(false)
  /// `--shuffle`: the entries in a random order.
  package var shuffle = false
  /// `--playlist=FILE`: an m3u list whose entries follow the files given.
  package var playlist: String?
  package var hrSeek = MPVHRSeek.default
  /// `--no-video` (`--video=no`, `--vid=no`): taken; vpk plays the video all the same.
  package var video = true
  package var terminal = true
  package var reallyQuiet = false
  /// `--msg-level` turned every module off (`all=no`).
  package var messagesOff = false
  /// `--no-config`: vpk reads no mpv configuration either way.
  package var loadsConfig = true
  package var files: [String] = []
  /// The options taken and ignored, as written, in order.
  package var ignored: [String] = []
  package var showsVersion = false
  package var showsHelp = false

  /// Whether mpv would print nothing: `--no-terminal`, `--really-quiet` or `--msg-level=all=no`.
  package var isQuiet: Bool { !terminal || reallyQuiet || messagesOff }

  /// A command line mpv refuses: what mpv prints (on standard output) and its exit status.
  package struct Refusal: Error, Sendable, Equatable {
    package var lines: [String]
    /// Whether the command line also silences mpv (so nothing is printed).
    package var isQuiet: Bool
    package var exitStatus: Int32 = 1
  }

  package init() {}

  // MARK: - The options

  /// How an option takes its value.
  package enum Kind: Sendable, Equatable {
    /// yes or no; bare is yes; `--no-NAME` is no.
    case flag
    /// One of `choices` (or, with `range`, a whole number in it); bare is `bare`; `--no-NAME` is `no`.
    case choice([String], bare: String, range: ClosedRange<Int>? = nil)
    /// A value after `=`, required.
    case value
    /// Anything or nothing, and `--no-NAME` (an ignored option of a family such as `sub-`).
    case anything
    /// An option of mpv's that vpk neither honours nor may ignore (it changes what plays): refused.
    case notTaken
  }

  /// The options read; every other one mpv has that vpk ignores is in `ignoredOptions` or a family of
  /// `ignoredPrefixes`.
  static let honoured: [String: Kind] = [
    "idle": .choice(["no", "once", "yes"], bare: "yes"),
    "input-ipc-server": .value,
    "pause": .flag,
    "start": .value,
    "keep-open": .choice(["no", "yes", "always"], bare: "yes"),
    "loop-file": .choice(["no", "inf", "yes"], bare: "inf", range: 0...10_000),
    "loop": .choice(["no", "inf", "yes"], bare: "inf", range: 0...10_000),
    "speed": .value,
    "playlist-start": .value,
    "loop-playlist": .choice(["no", "inf", "yes", "force"], bare: "inf", range: 0...10_000),
    "shuffle": .flag,
    "playlist": .value,
    "hr-seek": .choice(["no", "absolute", "yes", "always", "default"], bare: "yes"),
    "video": .choice(["no", "auto"], bare: "auto"),
    "vid": .choice(["no", "auto"], bare: "auto", range: 0...8190),
    "terminal": .flag,
    "really-quiet": .flag,
    "msg-level": .value,
    "config": .flag,
    "version": .flag,
    "help": .anything,
    "h": .anything,
  ]

  /// mpv's options that only change what vpk does not have (a window, sound, subtitles, the terminal, scripts):
  /// taken and ignored.
  package static let ignoredOptions: [String: Kind] = [
    "vo": .value, "ao": .value, "force-window": .choice(["no", "yes", "immediate"], bare: "yes"),
    "fullscreen": .flag, "fs": .flag, "geometry": .value, "autofit": .value, "osc": .flag, "border": .flag,
    "ontop": .flag, "title": .value, "wid": .value, "x11-name": .value, "gpu-context": .value, "gpu-api": .value,
    "hwdec": .value, "input-terminal": .flag, "input-default-bindings": .flag, "input-vo-keyboard": .flag,
    "input-cursor": .flag, "input-conf": .value, "quiet": .flag, "msg-color": .flag, "msg-module": .flag,
    "msg-time": .flag, "log-file": .value, "volume": .value, "volume-max": .value, "mute": .anything,
    "audio": .anything, "aid": .anything, "alang": .value, "sid": .anything, "slang": .value, "sub": .anything,
    "audio-display": .anything, "ytdl": .flag, "ytdl-format": .value, "load-scripts": .flag, "script": .value,
    "scripts": .value, "script-opts": .value, "osd-level": .value, "osd-bar": .flag, "keep-open-pause": .flag,
    "save-position-on-quit": .flag, "resume-playback": .flag, "image-display-duration": .value,
    "cache": .anything, "video-sync": .value, "interpolation": .flag, "user-agent": .value,
    "stop-screensaver": .anything, "keepaspect": .flag, "keepaspect-window": .flag, "player-operation-mode": .value,
    "snap-window": .flag, "native-keyrepeat": .flag, "hidpi-window-scale": .flag, "focus-on-open": .flag,
    "alpha": .anything, "background": .value, "screen": .value, "fs-screen": .value, "audio-client-name": .value,
    "hwdec-codecs": .value, "vd-lavc-threads": .value, "watch-later-directory": .value,
    "write-filename-in-watch-later-config": .flag, "load-stats-overlay": .flag, "load-osd-console": .flag,
    "load-auto-profiles": .anything, "reset-on-next-file": .value,
  ]

  /// Families of mpv's options, all ignored (those of their names mpv has): subtitles, the OSD, screenshots, sound,
  /// the demuxer's cache and buffers, youtube-dl, scripts, the window, the video and audio outputs and their
  /// backends, the terminal, input bindings.
  package static let ignoredPrefixes = [
    "sub-", "osd-", "screenshot-", "audio-", "demuxer-", "cache-", "ytdl-", "script-", "window-", "vo-", "ao-",
    "gpu-", "opengl-", "vulkan-", "wayland-", "x11-", "drm-", "term-", "cursor-", "input-", "msg-", "pulse-", "alsa-",
    "jack-", "pipewire-", "oss-", "sdl-", "opensles-", "coreaudio-", "wasapi-", "macos-", "cocoa-", "egl-", "vaapi-",
    "vdpau-", "d3d11-", "spirv-", "swapchain-", "glsl-", "icc-", "tone-mapping", "target-", "watch-later-",
  ]

  /// How `name` is taken, and whether it is ignored; nil when mpv has no such option.
  static func kind(of name: String) -> (kind: Kind, ignored: Bool)? {
    if let kind = honoured[name] { return (kind, false) }
    if let kind = ignoredOptions[name] { return (kind, true) }
    guard mpvOptionNames.contains(name) else { return nil }
    if ignoredPrefixes.contains(where: { name.hasPrefix($0) }) { return (.anything, true) }
    return (.notTaken, false)
  }

  // MARK: - Reading

  /// Reads `arguments` (the words after the program's name) as mpv does.
  package static func parse(_ arguments: [String]) -> Result<MPVCommandLine, Refusal> {
    var line = MPVCommandLine()
    var index = 0
    var onlyFiles = false
    do {
      while index < arguments.count {
        let argument = arguments[index]
        index += 1
        if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
          line.files.append(MPVCommandTranslator.localPath(argument))
          continue
        }
        if argument == "--" {
          onlyFiles = true
          continue
        }
        let oldStyle = !argument.hasPrefix("--")
        let body = argument.dropFirst(oldStyle ? 1 : 2)
        var name = String(body)
        var value: String?
        if let equals = body.firstIndex(of: "=") {
          name = String(body[..<equals])
          value = String(body[body.index(after: equals)...])
        }
        var negated = false
        var found = kind(of: name)
        if found == nil, name.hasPrefix("no-"), let plain = kind(of: String(name.dropFirst(3))) {
          switch plain.kind {
          case .flag, .choice, .anything, .notTaken:
            negated = true
            found = plain
            name = String(name.dropFirst(3))
          case .value: break
          }
        }
        guard let (kind, ignored) = found else {
          throw Refusal(lines: unknown(name, value: value), isQuiet: false)
        }
        if oldStyle, value == nil, kind == .value, index < arguments.count {
          value = arguments[index]
          index += 1
        }
        try line.apply(name, kind: kind, value: value, negated: negated, written: argument)
        if ignored { line.ignored.append(argument) }
      }
    } catch let refusal as Refusal {
      return .failure(Refusal(lines: refusal.lines, isQuiet: quietens(arguments)))
    } catch {
      preconditionFailure("only refusals are thrown")
    }
    return .success(line)
  }

  /// The value `name` takes: `value` checked against `kind`, or mpv's refusal.
  private static func checked(_ name: String, _ kind: Kind, _ value: String?, negated: Bool) throws -> String? {
    if negated, kind != .notTaken {
      guard value == nil else {
        throw Refusal(
          lines: [
            "Error parsing option \(name) (option doesn't take a parameter)",
            "Setting commandline option --no-\(name)=\(value ?? "") failed.", "Exiting... (Fatal error)",
          ], isQuiet: false)
      }
      return "no"
    }
    switch kind {
    case .flag:
      guard let value else { return "yes" }
      guard value == "yes" || value == "no" else {
        throw Refusal(
          lines: [
            "Invalid parameter for \(name) flag: \(value)", "Valid values are:", "    yes", "    no",
            "    (passing nothing)",
          ] + cannotParse(name, value), isQuiet: false)
      }
      return value
    case .choice(let choices, let bare, let range):
      guard let value else { return bare }
      if choices.contains(value) { return value }
      if let range, let number = Int(value), range.contains(number) { return value }
      throw Refusal(
        lines: ["Invalid value for option \(name): \(value)", "Valid values are:"] + choices.map { "    " + $0 }
          + (range.map { ["    \($0.lowerBound)-\($0.upperBound) (integer range)"] } ?? []) + cannotParse(name, value),
        isQuiet: false)
    case .value:
      guard let value else {
        throw Refusal(
          lines: [
            "Error parsing commandline option \(name): option requires parameter",
            "Make sure you're using e.g. '--\(name)=value' instead of '--\(name) value'.", "Exiting... (Fatal error)",
          ], isQuiet: false)
      }
      return value
    case .anything:
      return value
    case .notTaken:
      throw Refusal(
        lines: [
          "vpk mpv: --\(negated ? "no-" : "")\(name) is an option of mpv's that vpk does not take: it changes what"
            + " plays, and vpk ignores only options of output it has not got (see vpk mpv --help)",
          "Exiting... (Fatal error)",
        ], isQuiet: false)
    }
  }

  private mutating func apply(_ name: String, kind: Kind, value raw: String?, negated: Bool, written: String) throws {
    let value = try Self.checked(name, kind, raw, negated: negated)
    switch name {
    case "idle": idle = Idle(rawValue: value ?? "yes") ?? .yes
    case "input-ipc-server": inputIPCServer = value?.isEmpty == false ? value : nil
    case "pause": pause = value == "yes"
    case "start": start = try Self.startTime(value ?? "")
    case "keep-open": keepOpen = KeepOpen(rawValue: value ?? "yes") ?? .yes
    case "loop-file", "loop":
      switch value {
      case "no", "0": loopsFile = false
      case "inf", "yes", nil: loopsFile = true
      default:
        // A count: vpk loops without end or not at all.
        throw Refusal(
          lines: [
            "vpk mpv: --\(name)=\(value ?? "") (a number of loops) is not supported: vpk loops a file without end"
              + " (--\(name)=inf) or not at all (--\(name)=no)", "Exiting... (Fatal error)",
          ], isQuiet: false)
      }
    case "speed": speed = try Self.speed(value ?? "")
    case "playlist-start":
      guard let text = value, text == "auto" || (Int(text).map { $0 >= 0 } ?? false) else {
        throw Refusal(
          lines: ["Invalid value for option playlist-start: \(value ?? "")", "Valid values are:", "    auto"]
            + Self.cannotParse(name, value ?? ""), isQuiet: false)
      }
      playlistStart = Int(text)
    case "loop-playlist":
      switch value {
      case "no", "1": loopPlaylist = .bool(false)
      case "inf", "yes", nil: loopPlaylist = .string("inf")
      case "force": loopPlaylist = .string("force")
      default: loopPlaylist = .integer(Int(value ?? "") ?? 0)
      }
    case "shuffle": shuffle = value == "yes"
    case "playlist": playlist = value
    case "hr-seek": hrSeek = MPVHRSeek(rawValue: value ?? "yes") ?? .yes
    case "video", "vid": video = value != "no"
    case "terminal": terminal = value == "yes"
    case "really-quiet": reallyQuiet = value == "yes"
    case "msg-level": messagesOff = try Self.turnsMessagesOff(value ?? "")
    case "config": loadsConfig = value == "yes"
    case "version": showsVersion = value == "yes"
    case "help", "h": showsHelp = true
    default: break
    }
  }

  // MARK: - Values

  /// `--start=`: seconds, [[hh:]mm:]ss, `+` before either, N%, a time before the end (`-` before seconds or
  /// [[hh:]mm:]ss), or `none`. A chapter (`#3`) is refused: vpk has no chapter seeking. As mpv reads it, the `-`
  /// belongs to the first field only, and a time that is not below 0 counts from the start (`-0:03` is 3 s in,
  /// `-1:30` 30 s before the end).
  static func startTime(_ text: String) throws -> FileStart? {
    if text == "none" { return nil }
    func invalid(naming shown: String) -> Refusal {
      Refusal(
        lines: ["Option start: invalid time or position: '\(shown)'"] + cannotParse("start", text), isQuiet: false)
    }
    if text.hasPrefix("#") {
      guard text.count > 1 else { throw invalid(naming: text) }
      throw Refusal(
        lines: [
          "vpk mpv: --start=\(text) (a chapter) is not supported; give the time from the start (--start=83.5,"
            + " --start=1:23.5) or a percentage (--start=50%)", "Exiting... (Fatal error)",
        ], isQuiet: false)
    }
    if text.hasPrefix("-") {
      let time = String(text.dropFirst())
      // mpv takes no share before the end, and names nothing when it refuses one.
      if time.hasSuffix("%") { throw invalid(naming: "") }
      let fields = time.split(separator: ":", omittingEmptySubsequences: false)
      guard !time.isEmpty, !time.hasPrefix("+"), !time.hasPrefix("-"),
        case .success(.seconds(let total)) = CommandParser.parseTime(time, for: "--start"),
        let first = Double(fields[0])
      else { throw invalid(naming: text) }
      let firstField = first * [1.0, 60, 3600][min(fields.count, 3) - 1]
      let seconds = total - 2 * firstField
      return seconds >= 0 ? .time(.seconds(seconds)) : .beforeEnd(-seconds)
    }
    let plain = text.hasPrefix("+") ? String(text.dropFirst()) : text
    guard !plain.isEmpty, !plain.hasPrefix("+"), !plain.hasPrefix("-"),
      case .success(let time) = CommandParser.parseTime(plain, for: "--start")
    else { throw invalid(naming: text) }
    return .time(time)
  }

  /// `--speed=`: a number or a ratio (`1:2`, `1/2`), from 0.01 to 100.
  static func speed(_ text: String) throws -> Double {
    var number: Double?
    if let separator = text.firstIndex(where: { $0 == ":" || $0 == "/" }) {
      if let numerator = Double(text[..<separator]), let denominator = Double(text[text.index(after: separator)...]),
        denominator != 0
      {
        number = numerator / denominator
      }
    } else {
      number = Double(text)
    }
    guard let number, number.isFinite else {
      throw Refusal(
        lines: ["The speed option must be a floating point number or a ratio (numerator[:/]denominator): \(text)"]
          + cannotParse("speed", text), isQuiet: false)
    }
    guard number >= 0.01 && number <= 100 else {
      throw Refusal(
        lines: [
          "The speed option is out of range: \(text)",
          "Error parsing option speed (parameter is outside values allowed for option)",
          "Setting commandline option --speed=\(text) failed.", "Exiting... (Fatal error)",
        ], isQuiet: false)
    }
    return number
  }

  /// `--msg-level=module=level,…`: whether it turns every module off (the last `all=` is `no`).
  static func turnsMessagesOff(_ text: String) throws -> Bool {
    var off = false
    for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw Refusal(lines: ["Expected '=' and a value."] + cannotParse("msg-level", text), isQuiet: false)
      }
      if parts[0] == "all" { off = parts[1] == "no" }
    }
    return off
  }

  // MARK: - mpv's words

  static func unknown(_ name: String, value: String?) -> [String] {
    [
      "Error parsing option \(name) (option not found)", "Setting commandline option --\(name)=\(value ?? "") failed.",
      "Exiting... (Fatal error)",
    ]
  }

  static func cannotParse(_ name: String, _ value: String) -> [String] {
    [
      "Error parsing option \(name) (option parameter could not be parsed)",
      "Setting commandline option --\(name)=\(value) failed.", "Exiting... (Fatal error)",
    ]
  }

  /// Whether `arguments` silence mpv, wherever they stand (mpv reads the terminal's options first): the last
  /// `--terminal`, `--really-quiet` and `--msg-level=all=` decide.
  static func quietens(_ arguments: [String]) -> Bool {
    var terminal = true
    var reallyQuiet = false
    var messagesOff = false
    for argument in arguments {
      if argument == "--" { break }
      switch argument {
      case "--terminal", "--terminal=yes": terminal = true
      case "--no-terminal", "--terminal=no": terminal = false
      case "--really-quiet", "--really-quiet=yes": reallyQuiet = true
      case "--no-really-quiet", "--really-quiet=no": reallyQuiet = false
      default:
        if argument.hasPrefix("--msg-level="),
          let off = try? turnsMessagesOff(String(argument.dropFirst("--msg-level=".count)))
        {
          messagesOff = off
        }
      }
    }
    return !terminal || reallyQuiet || messagesOff
  }
}

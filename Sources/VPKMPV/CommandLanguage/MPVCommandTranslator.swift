// MPVCommandTranslator: reads mpv's JSON IPC lines (`{"command": ["seek", 10, "absolute+exact"], "request_id": 1}`)
// and its text lines (input.conf syntax: `seek 10 absolute`, read by MPVTextCommandParser) into the requests the mpv
// dialect's presenter serves, checking their shape and arguments as mpv does and answering with mpv's error strings.
// It knows mpv's names (commands, properties, seek flags); what they do is the module's commands, which the presenter
// submits.

import VideoPlaybackKit

package struct MPVCommandTranslator: Sendable {
  /// The version `get_version` answers: mpv's client API version (2.0) whose IPC this dialect follows.
  package static let clientAPIVersion = 0x2_0000
  /// The deepest nesting a request may have (mpv's own commands need 2; loadfile's options 3).
  static let maxDepth = 8

  /// The mpv commands vpk serves, as `command-list` names them.
  package static let commandNames =
    [
      "loadfile", "stop", "seek", "frame-step", "frame-back-step", "set", "add", "cycle", "get_property",
      "get_property_string", "set_property", "set_property_string", "observe_property", "observe_property_string",
      "unobserve_property", "client_name", "get_version", "enable_event", "disable_event", "request_log_messages",
      "get_time_us", "show-text", "show-progress", "print-text", "osd-overlay", "quit", "quit-watch-later",
    ] + playlistCommandNames

  /// The event names mpv 0.35's `enable_event` and `disable_event` know (its client API's table; `tick`, off until
  /// enabled, is one vpk never sends). `shutdown` may be enabled, not disabled.
  package static let eventNames: Set<String> = [
    "none", "shutdown", "log-message", "get-property-reply", "set-property-reply", "command-reply", "start-file",
    "end-file", "file-loaded", "idle", "tick", "client-message", "video-reconfig", "audio-reconfig", "seek",
    "playback-restart", "property-change", "hook",
  ]

  /// mpv's log levels, as `request_log_messages` takes them.
  static let logLevels: Set<String> = [
    "no", "fatal", "error", "warn", "info", "status", "v", "debug", "trace", "terminal-default",
  ]

  /// mpv 0.35's input commands (`mpv --input-cmdlist`): a text line naming one is mpv's.
  static let inputCommandNames: Set<String> = [
    "ignore", "seek", "revert-seek", "quit", "quit-watch-later", "stop", "frame-step", "frame-back-step",
    "playlist-next", "playlist-prev", "playlist-play-index", "playlist-shuffle", "playlist-unshuffle", "sub-step",
    "sub-seek", "print-text", "show-text", "expand-text", "expand-path", "show-progress", "sub-add", "audio-add",
    "video-add", "sub-remove", "audio-remove", "video-remove", "sub-reload", "audio-reload", "video-reload",
    "rescan-external-files", "screenshot", "screenshot-to-file", "screenshot-raw", "loadfile", "loadlist",
    "playlist-clear", "playlist-remove", "playlist-move", "run", "subprocess", "set", "change-list", "add", "cycle",
    "multiply", "cycle-values", "enable-section", "disable-section", "define-section", "ab-loop", "drop-buffers", "af",
    "vf", "af-command", "vf-command", "ao-reload", "script-binding", "script-message", "script-message-to",
    "overlay-add", "overlay-remove", "osd-overlay", "write-watch-later-config", "delete-watch-later-config", "mouse",
    "keybind", "keypress", "keydown", "keyup", "apply-profile", "load-script", "dump-cache", "ab-loop-dump-cache",
    "ab-loop-align-cache",
  ]

  package init() {}

  /// True when `line`, the first of a connection, is a text line of mpv's input.conf syntax rather than one of vpk's
  /// own commands: mpv can read it, and it starts with one of mpv's prefixes (`no-osd` …) or its first command is one
  /// of mpv's input commands (`cycle pause`, `seek 20 absolute`, `set pause yes`). `quit`, which both languages have,
  /// is left to vpk's.
  package static func isMPVTextLine(_ line: String) -> Bool {
    let trimmed = trimmingBlanks(line)
    guard !trimmed.hasPrefix("{"), let first = MPVTextCommandParser.commands(String(trimmed))?.first?.first else {
      return false
    }
    let firstWord = trimmed.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
    if MPVTextCommandParser.prefixes.contains(String(firstWord)) { return true }
    let name = first.replacingOccurrences(of: "_", with: "-")
    return name != "quit" && inputCommandNames.contains(name)
  }

  /// True when `line` is mpv's JSON IPC rather than vpk's own JSON: an object whose `command` is an array.
  /// (vpk's own JSON commands name the command as a string.)
  package static func isMPVRequest(_ line: String) -> Bool {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    guard trimmed.hasPrefix("{"), let value = MPVValue.parse(String(trimmed), maxDepth: maxDepth),
      case .array = value["command"]
    else { return false }
    return true
  }

  /// Reads one line: a JSON request, or text commands as mpv's `input.conf` writes them (run unanswered), all of
  /// them or, when mpv would refuse the line, none.
  package func read(_ line: String) -> [MPVRequest] {
    let trimmed = Self.trimmingBlanks(line)
    if trimmed.hasPrefix("{") { return [translate(line)] }
    // Only mpv's input commands: the IPC's own (`get_property` …) are not commands of the text syntax. Any part vpk
    // cannot run makes the whole line nothing, as mpv's parser refuses a line with a part it cannot read.
    var requests: [MPVRequest] = []
    for words in MPVTextCommandParser.commands(String(trimmed)) ?? [] {
      switch command(words.map { MPVValue.string($0) }, ipc: false) {
      case .success(let command):
        requests.append(MPVRequest(requestID: .integer(0), command: .success(command), wantsReply: false))
      case .failure: return []
      }
    }
    return requests
  }

  /// Reads one JSON request line (anything else is `invalid parameter`, answered).
  package func translate(_ line: String) -> MPVRequest {
    let trimmed = Self.trimmingBlanks(line)
    guard trimmed.hasPrefix("{"), let value = MPVValue.parse(String(trimmed), maxDepth: Self.maxDepth),
      case .object = value
    else {
      return MPVRequest(requestID: .integer(0), command: .failure(MPVRequestError(.invalidParameter)))
    }
    // mpv reads `async` before the request's id: a value other than a flag is refused with id 0.
    var isAsync = false
    if let async = value["async"] {
      guard case .bool(let flag) = async else {
        return MPVRequest(requestID: .integer(0), command: .failure(MPVRequestError(.invalidParameter)))
      }
      isAsync = flag
    }
    let requestID = value["request_id"] ?? .integer(0)
    guard case .array(let words) = value["command"] else {
      return MPVRequest(requestID: requestID, command: .failure(MPVRequestError(.invalidParameter)))
    }
    return MPVRequest(requestID: requestID, command: command(words), isAsync: isAsync)
  }

  /// A file's options by name (the last of a name counts): `name=value` pairs separated by commas, or a JSON object
  /// of strings. Nil, as mpv refuses them (`invalid parameter`), for a pair without `=` or any other value.
  static func perFileOptions(_ options: MPVValue) -> [String: String]? {
    var values: [String: String] = [:]
    switch options {
    case .string(let list):
      for pair in list.split(separator: ",", omittingEmptySubsequences: true) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        values[String(parts[0])] = String(parts[1])
      }
    case .object(let members):
      for member in members {
        guard let value = member.value.string else { return nil }
        values[member.key] = value
      }
    default: return nil
    }
    return values
  }

  /// The options of `options` vpk serves for one file. Like mpv, a value it cannot read is ignored (the file opens as
  /// without it); so are the options vpk does not serve (see the mpv page's differences).
  static func fileOptions(_ options: [String: String]) -> MPVFileOptions {
    var served = MPVFileOptions(
      start: options["start"].flatMap(perFileStart), paused: options["pause"].flatMap(perFileFlag))
    if let text = options["speed"],
      case .success(let speed) = MPVPropertyTable.spec(.speed).write?.accept(.string(text))
    {
      served.speed = speed.number
    }
    for property in MPVStoredOptions.properties {
      guard let text = options[property.rawValue],
        case .success(let value) = MPVPropertyTable.spec(property).write?.accept(.string(text))
      else { continue }
      served.stored[property] = value
    }
    return served
  }

  /// The per-file `start`: seconds, [[hh:]mm:]ss, N%, or a time before the end (`-5`); nil (ignored) for anything
  /// else.
  static func perFileStart(_ value: String) -> FileStart? {
    (try? MPVCommandLine.startTime(value)) ?? nil
  }

  /// A per-file flag (`pause=yes`): yes or no; nil (ignored) for anything else.
  static func perFileFlag(_ value: String) -> Bool? {
    switch value {
    case "yes": true
    case "no": false
    default: nil
    }
  }

  /// The IPC's own commands, known by these exact names on JSON lines only.
  static let ipcCommandNames: Set<String> = [
    "get_property", "get_property_string", "set_property", "set_property_string", "observe_property",
    "observe_property_string", "unobserve_property", "client_name", "get_version", "enable_event", "disable_event",
    "request_log_messages", "get_time_us",
  ]

  /// `line` without the blanks at either end: what Foundation's `CharacterSet.whitespaces` holds (a tab, Unicode's
  /// space separators, and the zero-width space), written out here: Foundation's trimming cost a read a fifth of its
  /// time.
  static func trimmingBlanks(_ line: String) -> Substring {
    // Most lines start and end with a printable ASCII byte: nothing to trim.
    if let first = line.utf8.first, let last = line.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
      return line[...]
    }
    let isBlank: (Unicode.Scalar) -> Bool = {
      $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator
    }
    let scalars = line.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) })
    else { return line[line.endIndex...] }
    return line[first...last]
  }

  /// The command `words` name (name first, then its arguments). An input command may follow mpv's prefixes
  /// (`no-osd` …, dropped) and be written with `_` for `-` (`frame_step`); the IPC's own commands (`ipc`: a JSON
  /// line) are known by their exact names.
  func command(_ words: [MPVValue], ipc: Bool = true) -> Result<MPVCommand, MPVRequestError> {
    guard let first = words.first?.string else { return .failure(MPVRequestError(.invalidParameter)) }
    var words = words[...]
    var name = first
    if !(ipc && Self.ipcCommandNames.contains(first)) {
      while let word = words.first?.string, MPVTextCommandParser.prefixes.contains(word) { words = words.dropFirst() }
      guard let input = words.first?.string else { return invalid }
      // The IPC's names hold `_`: after a prefix or on a text line, they name no command.
      name = input.utf8.contains(UInt8(ascii: "_")) ? String(input.map { $0 == "_" ? "-" : $0 }) : input
    }
    let args = Array(words.dropFirst())
    switch name {
    case "loadfile": return loadFile(args)
    case "stop":
      guard args.isEmpty || (args.count == 1 && ["keep-playlist", ""].contains(args[0].string)) else { return invalid }
      return .success(.stop(keepPlaylist: args.first?.string == "keep-playlist"))
    case "seek": return seek(args)
    case "frame-step", "frame-back-step":
      guard args.isEmpty else { return invalid }
      return .success(name == "frame-step" ? .frameStep : .frameBackStep)
    case "get_property", "get_property_string":
      guard args.count == 1, let property = args[0].string else { return invalid }
      if let (known, path) = Self.subProperty(property) {
        return .success(.subProperty(known, path: path, asString: name == "get_property_string", observe: nil))
      }
      if name == "get_property_string", MPVProperty(rawValue: property) == nil { return .success(.getUnknownString) }
      return self.property(property).map { .getProperty($0, asString: name == "get_property_string") }
    case "set_property", "set_property_string", "set":
      // `set` takes its value as text, as mpv's command does (a JSON number is refused).
      guard args.count == 2, let property = args[0].string, name != "set" || args[1].string != nil else {
        return invalid
      }
      // (`set_property_string` given a value that is not text takes it as `set_property` does, as mpv's.)
      let value = args[1]
      let byCommand = name == "set"
      return self.property(property)
        .mapError { byCommand ? MPVRequestError(.commandFailed) : $0 }
        .flatMap { property in
          Self.settable(property, value).map { .setProperty(property, $0, byCommand: byCommand) }
            .mapError { byCommand ? MPVRequestError(.commandFailed) : $0 }
        }
    case "add":
      guard (1...2).contains(args.count), let property = args[0].string else { return invalid }
      let delta = args.count == 2 ? Self.number(args[1]) : 1
      guard let delta else { return invalid }
      guard let known = MPVProperty(rawValue: property), known.spec.add != nil else {
        return .failure(MPVRequestError(.commandFailed))
      }
      return .success(.add(known, delta))
    case "cycle":
      guard (1...2).contains(args.count), let property = args[0].string,
        args.count == 1 || args[1].string.map({ $0 == "up" || $0 == "down" || Double($0) != nil }) == true
      else { return invalid }
      guard let known = MPVProperty(rawValue: property), known.spec.cycle != nil else {
        return .failure(MPVRequestError(.commandFailed))
      }
      return .success(.cycle(known))
    case "observe_property", "observe_property_string":
      guard args.count == 2, let id = args[0].integer, let property = args[1].string else { return invalid }
      if let (known, path) = Self.subProperty(property) {
        return .success(.subProperty(known, path: path, asString: name == "observe_property_string", observe: id))
      }
      guard let known = MPVProperty(rawValue: property) else {
        return .success(.observeUnknown(id: id, name: property))
      }
      return .success(.observe(id: id, known, asString: name == "observe_property_string"))
    case "unobserve_property":
      guard args.count == 1, let id = args[0].integer else { return invalid }
      return .success(.unobserve(id: id))
    case "client_name": return .success(.clientName)
    case "get_version": return .success(.getVersion)
    case "enable_event", "disable_event":
      let enabled = name == "enable_event"
      guard args.count == 1, let event = args[0].string,
        event == "all" || Self.eventNames.contains(event), enabled || event != "shutdown"
      else { return invalid }
      return .success(.requestEvent(event, enabled: enabled))
    case "request_log_messages":
      guard args.count == 1, let level = args[0].string, Self.logLevels.contains(level) else { return invalid }
      return .success(.requestLogMessages)
    case "get_time_us":
      // mpv takes (and ignores) arguments after it.
      return .success(.getTimeMicroseconds)
    case "show-text":
      // The text, then a duration in ms and a level, both integers.
      guard (1...3).contains(args.count), args[0].string != nil,
        args.dropFirst().allSatisfy({ Self.number($0).map { $0.rounded() == $0 } ?? false })
      else { return invalid }
      return .success(.drawOnly(data: .null))
    case "show-progress":
      guard args.isEmpty else { return invalid }
      return .success(.drawOnly(data: .null))
    case "print-text":
      guard args.count == 1, args[0].string != nil else { return invalid }
      return .success(.drawOnly(data: .null))
    case "osd-overlay":
      // mpv answers it with an empty object.
      guard args.count >= 3 else { return invalid }
      return .success(.drawOnly(data: .object([])))
    case "quit", "quit-watch-later":
      // mpv's optional exit code is accepted; vpk leaves with its own status for `quit`. vpk keeps no watch-later
      // state: `quit-watch-later` quits.
      guard args.count <= 1, args.first.map({ Self.number($0) != nil }) ?? true else { return invalid }
      return .success(.quit)
    default:
      // mpv answers a command it does not know with this too.
      return playlistCommand(name, args) ?? invalid
    }
  }

  private var invalid: Result<MPVCommand, MPVRequestError> { .failure(MPVRequestError(.invalidParameter)) }

  /// `name` as a path into a property vpk serves (`track-list/0/type`: `track-list` and `0/type`); nil for a
  /// property's own name (`filename/no-ext` is one) or a path into one vpk does not serve.
  static func subProperty(_ name: String) -> (MPVProperty, String)? {
    guard MPVProperty(rawValue: name) == nil, let slash = name.firstIndex(of: "/"),
      let base = MPVProperty(rawValue: String(name[..<slash]))
    else { return nil }
    return (base, String(name[name.index(after: slash)...]))
  }

  private func property(_ name: String) -> Result<MPVProperty, MPVRequestError> {
    MPVProperty(rawValue: name).map { .success($0) } ?? .failure(MPVRequestError(.propertyNotFound))
  }

  /// `value` as `property` takes it (its entry's `write` says how); read-only properties cannot be set.
  static func settable(_ property: MPVProperty, _ value: MPVValue) -> Result<MPVValue, MPVRequestError> {
    guard let write = property.spec.write else { return .failure(MPVRequestError(.propertyAccess)) }
    return write.accept(value)
  }

  /// A number, or a string holding one (mpv's text commands pass every argument as a string), read as mpv reads a
  /// number option: as strtod reads it (blanks before it skipped, nothing after it), or a ratio `a:b` or `a/b`.
  static func number(_ value: MPVValue) -> Double? {
    if let number = value.number { return number }
    guard let text = value.string else { return nil }
    if let split = text.firstIndex(where: { $0 == ":" || $0 == "/" }) {
      guard let numerator = strtod(text[..<split]), let denominator = strtod(text[text.index(after: split)...]) else {
        return nil
      }
      return numerator / denominator
    }
    return strtod(Substring(text))
  }

  /// A time, or a string holding one as mpv 0.35 reads a time option: `[[hh:]mm:]ss[.ms]`, each part as scanf reads
  /// it (hours and minutes whole, signed: `-0:01` is +1 s, `-1:30` is -30 s; no part limited to 60), or a number of
  /// seconds.
  static func time(_ value: MPVValue) -> Double? {
    if let number = value.number { return number }
    guard let text = value.string else { return nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count <= 3, let seconds = strtod(parts[parts.count - 1]), seconds.isFinite else { return nil }
    let units = parts.dropLast().compactMap { Int($0.drop { Self.strtodBlanks.contains($0) }) }
    guard units.count == parts.count - 1 else { return nil }
    return units.reduce(0.0) { $0 * 60 + Double($1) } * 60 + seconds
  }

  /// `text` as strtod reads a whole string: blanks before the number skipped, nothing after it.
  private static func strtod(_ text: Substring) -> Double? {
    Double(text.drop { Self.strtodBlanks.contains($0) })
  }

  /// A `file://` URL as mpv opens it: what follows `file://`, percent-decoded (`file:///a%20b.mp4` is `/a b.mp4`,
  /// `file://clip.mp4` the relative `clip.mp4`); any other path as it is.
  package static func localPath(_ path: String) -> String {
    guard path.lowercased().hasPrefix("file://") else { return path }
    // mpv's unescaping: each %XX is its byte, a % without two hex digits stays as it is, and the name ends at a NUL.
    var bytes: [UInt8] = []
    let rest = Array(path.utf8.dropFirst("file://".count))
    var index = 0
    while index < rest.count {
      if rest[index] == UInt8(ascii: "%"), index + 2 < rest.count, let high = hexValue(rest[index + 1]),
        let low = hexValue(rest[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(rest[index])
        index += 1
      }
    }
    if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// What strtod skips before a number (C's isspace).
  private static let strtodBlanks: Set<Character> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}"]

  /// `seek <target> [<flags>] [<legacy precision>]`: flags are `+`-joined (relative, absolute, absolute-percent,
  /// relative-percent; exact, keyframes).
  private func seek(_ args: [MPVValue]) -> Result<MPVCommand, MPVRequestError> {
    guard (1...3).contains(args.count), let target = Self.time(args[0]), target.isFinite else { return invalid }
    var reference = MPVSeekReference.relative
    var mode: SeekMode?
    var flags: [Substring] = []
    if args.count >= 2 {
      guard let text = args[1].string else { return invalid }
      flags = text.split(separator: "+")
    }
    if args.count == 3 {
      guard let legacy = args[2].string else { return invalid }
      flags.append(Substring(legacy))
    }
    // One flag of each group at most, as mpv's flag lists take them (`exact+exact`, `keyframes+exact` are refused).
    var referenced = false
    var precise = false
    for flag in flags {
      switch flag {
      case "relative", "absolute", "absolute-percent", "relative-percent":
        guard !referenced else { return invalid }
        referenced = true
        reference = MPVSeekReference(rawValue: String(flag)) ?? .relative
      case "exact", "keyframes", "default-precise":
        guard !precise else { return invalid }
        precise = true
        mode = flag == "exact" ? .exact : flag == "keyframes" ? .keyframe : nil
      default: return invalid
      }
    }
    return .success(.seek(target, reference, mode))
  }
}

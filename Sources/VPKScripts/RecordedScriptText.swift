// RecordedScriptText: the lines of a playback test script as a session recorder writes them: the header, `open`,
// `wait` and `expect` lines, with times written so a replay on the virtual clock lands where the recording says.

import Foundation
import VideoPlaybackKit

enum RecordedScriptText {
  /// The comment that opens a recorded script: who wrote it, and the file it was recorded on.
  static func header(version: String, path: String?, bytes: Int?, duration: MediaTime?) -> [String] {
    var lines = ["# Recorded by vpk \(version); replay with: vpk test <this file>"]
    if let path {
      var media = "# Media: \(path)"
      if let bytes { media += ", \(bytes) bytes" }
      if let duration { media += ", duration \(NumberText.seconds(duration.seconds)) s" }
      lines.append(media)
    }
    return lines
  }

  /// A command sent as a value, with no line (an mpv client's, the `Player`'s), as a script writes it; a comment for
  /// one a script line cannot say as it was sent.
  static func line(for command: Command) -> String {
    func mode(_ mode: SeekMode?) -> String { mode.map { " " + $0.rawValue } ?? "" }
    switch command {
    case .scrub(.seconds(let seconds), let seekMode): return "scrub \(time(seconds))" + mode(seekMode)
    case .scrub(.percent(let percent), let seekMode): return "scrub \(number(percent))%" + mode(seekMode)
    case .skip(let delta, let seekMode): return "skip \(delta < 0 ? "-" : "+")\(time(abs(delta)))" + mode(seekMode)
    case .step(let count): return "step \(count)"
    case .rate(let rate): return "rate \(number(rate))"
    case .open(let path): return "open \(path)"
    case .goto(let number): return "goto \(number)"
    case .queue(let edit): return queueLine(edit)
    case .snapshot(let path): return path.map { "snapshot \($0)" } ?? "snapshot"
    case .wait, .expect: return "# \(command.verb) (sent as a value, not a line)"
    default: return command.verb
    }
  }

  /// A `queue` command as a script line: an entry's options before its path, which is quoted when it would not be
  /// read back as written.
  private static func queueLine(_ edit: QueueEdit) -> String {
    /// Double-quoted, with `\` and `"` escaped, as the parser reads a quoted path or title.
    func quoted(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    func path(_ path: String) -> String {
      let plain =
        !path.isEmpty && !path.contains(where: { $0 == "\"" || $0 == "#" || $0 == "\\" })
        && path.first != " " && path.last != " " && !path.contains("=")
      return plain ? path : quoted(path)
    }
    switch edit {
    case .list: return "queue"
    case .add(let file): return "queue add \(path(file))"
    case .addNext(let file): return "queue add-next \(path(file))"
    case .insert(let file, let slot, let options):
      var words: [String]
      switch slot {
      case .end: words = ["queue add"]
      case .afterCurrent: words = ["queue add-next"]
      case .number(let number): words = ["queue insert \(number)"]
      }
      switch options.start {
      case .time(.seconds(let seconds))?: words.append("start=\(time(seconds))")
      case .time(.percent(let percent))?: words.append("start=\(number(percent))%")
      // A time before the end has no form in the script language: the entry opens at the session's start.
      case .beforeEnd?, nil: break
      }
      if let paused = options.paused { words.append("pause=\(paused ? "yes" : "no")") }
      if let rate = options.rate { words.append("rate=\(number(rate))") }
      if let title = options.title { words.append("title=" + quoted(title)) }
      return (words + [path(file)]).joined(separator: " ")
    case .remove(let number): return "queue remove \(number)"
    case .move(let from, let to): return "queue move \(from) \(to)"
    case .clear: return "queue clear"
    case .shuffle: return "queue shuffle"
    case .unshuffle: return "queue unshuffle"
    case .loop(let loops): return "queue loop \(loops ? "yes" : "no")"
    }
  }

  /// A plain number: as few decimals as it needs, up to six.
  private static func number(_ value: Double) -> String {
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }

  /// `seconds` with six decimals, trailing zeros dropped down to three (`2.5` → `2.500`, `1.9666667` → `1.966667`).
  static func time(_ seconds: Double) -> String {
    var text = String(format: "%.6f", seconds == 0 ? 0 : seconds)
    while text.hasSuffix("0"), let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) > 4 {
      text.removeLast()
    }
    return text == "-0.000" ? "0.000" : text
  }

  /// `seconds` rounded to `decimals` places.
  static func rounded(_ seconds: Double, decimals: Int) -> Double {
    let scale = pow(10, Double(decimals))
    return (seconds * scale).rounded() / scale
  }

  /// `path` (as the session names it: relative to `workingDirectory`, or absolute) as a script in `scriptDirectory`
  /// opens it: relative to the script's folder when it lies below it, or beside it under a common folder other than
  /// `/` (`../media/movie.mp4`); else absolute.
  static func mediaPath(_ path: String, workingDirectory: String, scriptDirectory: String) -> String {
    let file = components(path.hasPrefix("/") ? path : join(workingDirectory, path))
    let folder = components(scriptDirectory.hasPrefix("/") ? scriptDirectory : join(workingDirectory, scriptDirectory))
    let shared = zip(file.dropLast(), folder).prefix { $0 == $1 }.count
    guard shared > 0 else { return "/" + file.joined(separator: "/") }
    let up = Array(repeating: "..", count: folder.count - shared)
    return (up + file.dropFirst(shared)).joined(separator: "/")
  }

  private static func join(_ folder: String, _ path: String) -> String {
    (folder.hasSuffix("/") ? folder : folder + "/") + path
  }

  /// The folders and name of an absolute `path`, with `.` and `..` resolved and repeated slashes removed.
  private static func components(_ path: String) -> [String] {
    var parts: [String] = []
    for part in path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(String(part))
      }
    }
    return parts
  }
}

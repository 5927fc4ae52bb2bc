// AttachPaths: a relative path typed into `vpk attach` names a file from attach's folder, not the daemon's. Lines that
// open or write a file by a relative path are sent with that path made absolute; every other line goes as it came.

import Foundation
import VideoPlaybackKit

enum AttachPaths {
  /// `line` as attach sends it from `directory` (an absolute folder): `open clip.mp4` becomes
  /// `open "/folder/clip.mp4"`, and so does `snapshot`'s path; a URL, an absolute path and every other line are kept.
  static func resolvingRelativePaths(in line: String, from directory: String) -> String {
    let start = line.drop { $0 == " " || $0 == "\t" }
    guard start.hasPrefix("open") || start.hasPrefix("snapshot") else { return line }
    let verb: String
    let path: String
    switch CommandParser().parse(line) {
    case .command(.open(let written)):
      verb = "open"
      path = written
    case .command(.snapshot(let written?)):
      verb = "snapshot"
      path = written
    default:
      return line
    }
    guard !path.hasPrefix("/"), !path.contains("://") else { return line }
    let folder = directory.hasSuffix("/") ? directory : directory + "/"
    let absolute = folder + (path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
    let quoted = absolute.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return "\(verb) \"\(quoted)\""
  }

  /// The bytes of complete lines (each ending in `\n`) as attach sends them from `directory`.
  static func resolvingRelativePaths(inLines bytes: ArraySlice<UInt8>, from directory: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast() {
      if let text = String(validating: line, as: UTF8.self) {
        out += Array(resolvingRelativePaths(in: text, from: directory).utf8)
      } else {
        out += line
      }
      out.append(UInt8(ascii: "\n"))
    }
    return out
  }
}

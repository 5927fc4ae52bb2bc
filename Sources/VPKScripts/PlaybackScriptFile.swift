// PlaybackScriptFile: a playback test script as read from disk, and what running it gave.

import Foundation
import VideoPlaybackKit

/// A script as read from disk: its lines, or why it could not be read.
package struct PlaybackScriptFile: Sendable, Equatable {
  /// The path as the user gave it (shown in results).
  package var path: String
  package var lines: [String]?
  package var unreadable: String?

  package init(path: String, lines: [String]?, unreadable: String? = nil) {
    self.path = path
    self.lines = lines
    self.unreadable = unreadable
  }

  /// The largest script read, in bytes.
  package static let maxBytes = 16 << 20

  /// Reads `path` as UTF-8 text, split into lines (`\n`, with a `\r` before it dropped).
  package static func load(_ path: String) -> PlaybackScriptFile {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "no such file")
    }
    guard !isDirectory.boolValue else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "a folder, not a script")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "cannot be opened (permissions?)")
    }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: maxBytes + 1) ?? Data() else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "cannot be read")
    }
    guard data.count <= maxBytes else {
      return PlaybackScriptFile(path: path, lines: nil, unreadable: "larger than \(maxBytes >> 20) MiB")
    }
    var splitter = LineSplitter()
    var lines: [String] = []
    for line in splitter.feed(data) + splitter.finish() {
      switch line {
      case .text(let text): lines.append(text)
      case .tooLong, .invalidUTF8:
        return PlaybackScriptFile(
          path: path, lines: nil, unreadable: "line \(lines.count + 1) is not UTF-8 text of at most 64 KiB")
      }
    }
    return PlaybackScriptFile(path: path, lines: lines)
  }

  /// The folder relative `open` paths resolve against.
  var folder: String {
    let url = URL(fileURLWithPath: path)
    return url.deletingLastPathComponent().path
  }
}

/// What one script did.
package struct PlaybackScriptResult: Sendable {
  package var script: PlaybackScriptFile
  package var report: SessionReport
  package var exitCode: Int32
  /// Every event of the session, as the chosen view wrote it.
  package var transcript: String
  package var seconds: Double
  package var timedOut: Bool
  /// The process's largest resident size (bytes) sampled while the script ran: at its start, at each event of its
  /// session and at its end. Jobs share the process, so this counts the scripts running beside it too.
  package var peakResidentBytes: Int? = nil

  /// Of the frame cache's lookups (seeks and steps), the fraction it answered without decoding; nil with none.
  package var frameCacheHitRate: Double? {
    let lookups = report.frameCacheHits + report.frameCacheMisses
    return lookups == 0 ? nil : Double(report.frameCacheHits) / Double(lookups)
  }

  package var passed: Bool {
    script.unreadable == nil && !timedOut && report.failedChecks.isEmpty && report.commandErrors.isEmpty
      && (exitCode == SessionExitCode.success || exitCode == SessionExitCode.checksFailed)
  }

  /// The failures in the order their lines come.
  package var failures: [SessionReport.Failure] {
    (report.failedChecks + report.commandErrors).sorted {
      ($0.source?.number ?? Int.max, $0.commandID ?? Int.max) < ($1.source?.number ?? Int.max, $1.commandID ?? Int.max)
    }
  }
}

// `vpk thumbnails`: a contact sheet of a file, to glance at it before writing a script. The engine makes it (exact
// seeks, pictures as the ffmpeg tool makes them); this writes it and says where each tile lies and what it shows.

import ArgumentParser
import Foundation
import VPKEngine
import VideoPlaybackKit

struct ThumbnailsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "thumbnails",
    abstract: "Write a contact sheet: a grid of evenly spaced frames of a file with their times, as one PNG.",
    discussion: """
      Splits the duration into as many equal parts as the grid has tiles and
      shows, for each, the exact frame playback shows at the middle of its
      part (the same frame scrub T exact shows), scaled to the tile width, with
      the frame's time (HH:MM:SS.mmm) in a strip below it. Tiles are 8 pixels
      apart. Then prints one line for the sheet and one per tile:
        sheet path=sheet.png width=1320 height=1080 tile_width=320 tile_height=240
        tile #1 x=8 y=8 target=0.313 time=0.300 pts=4608

      Exit status: 0 written; 1 the file has no video or no known duration, or
      the sheet cannot be written; 3 the file cannot be opened; 64 bad usage.

      Examples:
        vpk thumbnails movie.mp4
        vpk thumbnails movie.mp4 --grid 6x3 --tile-width 240 -o sheet.png
      """)

  @Argument(help: "The media file.", completion: .file())
  var file: String

  @Option(name: .long, help: "Columns x rows of tiles, each from 1 to \(ContactSheet.maxTilesPerSide).")
  var grid: String = "4x4"

  @Option(name: [.short, .customLong("output")], help: "The PNG to write (default: <file name>-thumbnails.png).")
  var output: String?

  @Option(
    name: .customLong("tile-width"),
    help:
      "Width of each tile in pixels, \(ContactSheet.tileWidths.lowerBound) to \(ContactSheet.tileWidths.upperBound).")
  var tileWidth: Int = 320

  @Flag(name: .long, help: "Write FFmpeg's own warnings to standard error.")
  var verbose = false

  @OptionGroup var access: AccessOptions

  /// `CxR` as (columns, rows).
  static func parseGrid(_ text: String) throws -> (columns: Int, rows: Int) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let limit = ContactSheet.maxTilesPerSide
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]), (1...limit).contains(columns),
      (1...limit).contains(rows)
    else {
      throw ValidationError("--grid takes columns x rows, each from 1 to \(limit), such as 4x4 or 6x3")
    }
    return (columns, rows)
  }

  func validate() throws {
    _ = try Self.parseGrid(grid)
    guard ContactSheet.tileWidths.contains(tileWidth) else {
      throw ValidationError(
        "--tile-width takes a width in pixels from \(ContactSheet.tileWidths.lowerBound) to \(ContactSheet.tileWidths.upperBound)"
      )
    }
    if let output, output.isEmpty { throw ValidationError("-o needs a file name") }
  }

  /// `<file name without extension>-thumbnails.png` in the working directory.
  static func defaultOutput(for file: String) -> String {
    let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
    return (name.isEmpty ? "vpk" : name) + "-thumbnails.png"
  }

  func run() async throws {
    signal(SIGPIPE, SIG_IGN)
    let (columns, rows) = try Self.parseGrid(grid)
    let path = output ?? Self.defaultOutput(for: file)
    let sheet: ContactSheet
    do {
      sheet = try ContactSheet.make(
        path: file, columns: columns, rows: rows, tileWidth: tileWidth, access: access.mediaAccess,
        showsFFmpegWarnings: verbose)
    } catch {
      StandardStreams.writeError("vpk: \(error.message) (\(error.code.rawValue))")
      throw ExitCode(error.code == .unavailable ? 1 : SessionExitCode.mediaUnreadable)
    }
    do {
      try sheet.write(to: path)
    } catch {
      StandardStreams.writeError("vpk: \(error.message) (\(error.code.rawValue))")
      throw ExitCode.failure
    }
    var lines = [
      "sheet path=\(TextQuoting.value(path)) width=\(sheet.width) height=\(sheet.height)"
        + " tile_width=\(sheet.tileWidth) tile_height=\(sheet.tileHeight)"
    ]
    for (index, tile) in sheet.tiles.enumerated() {
      lines.append(
        "tile #\(index + 1) x=\(tile.x) y=\(tile.y) target=\(NumberText.seconds(tile.target.seconds))"
          + " time=\(NumberText.seconds(tile.time.seconds)) pts=\(tile.pts)")
    }
    guard StandardStreams.writeOutput(lines.joined(separator: "\n") + "\n") else { throw ExitCode.failure }
  }
}

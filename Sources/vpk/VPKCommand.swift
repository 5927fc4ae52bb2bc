// The `vpk` command: parses the command line, then hands everything to the Builder. One file per
// subcommand (PlayCommand, TestCommand, InfoCommand, ThumbnailsCommand, AttachCommand, MPVCommand); the options they share are
// in SharedOptions, and running one session is Session.swift. Run under the name `mpv`, vpk is `vpk mpv`.

import ArgumentParser
import Foundation
import VideoPlaybackKit

@main
struct VPKCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "vpk",
    abstract: "A headless, scriptable video-playback controller built on FFmpeg.",
    discussion: """
      vpk plays a media file by its clock and takes commands on standard input,
      one per line (or as JSON objects):

      """
        + CommandVerbs.all.map { "  " + $0.usage }.joined(separator: "\n") + "\n"
          + """
          (`help` in a session says what each does.)

          Events go to standard output: text for people (one line per event when
          not on a terminal), or JSON lines with --json. Diagnostics go to stderr.

          Exit status: 0 done (quit, end of media, or input ended while paused);
          1 an expect or wait failed; 3 the media could not be opened; 64 bad
          usage; 73 the --socket path cannot be used; 129 SIGHUP; 130 SIGINT;
          143 SIGTERM.

          Examples:
            vpk play movie.mp4
            vpk play movie.mp4 --paused --start 1:30
            printf 'scrub 30\\nframe\\nquit\\n' | vpk play movie.mp4 --paused
            vpk test checks/*.vpk --junit report.xml
            vpk info movie.mp4
            vpk thumbnails movie.mp4 --grid 4x4 -o sheet.png
            vpk play --idle --socket /tmp/vpk.sock &   # a daemon; then:
            printf 'open movie.mp4\\nstatus\\n' | vpk attach /tmp/vpk.sock
            vpk mpv --idle --input-ipc-server=/tmp/mpv.sock   # as mpv's clients start mpv
          """,
    version: VideoPlaybackKitVersion.current,
    subcommands: [
      PlayCommand.self, InfoCommand.self, TestCommand.self, ThumbnailsCommand.self, AttachCommand.self,
      MPVCommand.self,
    ],
    defaultSubcommand: PlayCommand.self
  )

  /// `vpk` alone shows this overview; anything else is parsed as usual (`vpk movie.mp4` is `vpk play movie.mp4`).
  /// Under the name `mpv`, and as `vpk mpv`, the command line is mpv's, read by MPVCommand.
  static func main() async {
    let arguments = CommandLine.arguments
    if URL(fileURLWithPath: arguments.first ?? "").lastPathComponent == "mpv" {
      Foundation.exit(await MPVCommand.run(Array(arguments.dropFirst())))
    }
    if arguments.count > 1 && arguments[1] == "mpv" {
      Foundation.exit(await MPVCommand.run(Array(arguments.dropFirst(2))))
    }
    if CommandLine.arguments.count <= 1 {
      print(helpMessage())
      return
    }
    if let word = arguments.dropFirst().first, let suggestion = misspelledSubcommand(word) {
      FileHandle.standardError.write(
        Data("vpk: '\(word)' is neither a vpk command nor a file: did you mean '\(suggestion)'? (vpk --help)\n".utf8))
      Foundation.exit(64)
    }
    do {
      var command = try parseAsRoot()
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      exit(withError: error)
    }
  }
}

extension VPKCommand {
  /// The subcommand `word` is a slip for, when the first word of the command line names no subcommand and no file
  /// but lies within two edits of a subcommand's name or begins one (`plya`, `inf`, `thumb`): nil otherwise, and the
  /// command line is parsed as usual (`vpk movie.mp4` plays the file).
  static func misspelledSubcommand(_ word: String) -> String? {
    let names = configuration.subcommands.map { $0._commandName }
    guard word.count >= 2, !word.hasPrefix("-"), !names.contains(word), !word.contains("/"), !word.contains("."),
      !FileManager.default.fileExists(atPath: word)
    else { return nil }
    let scalars = Array(word.unicodeScalars.prefix(12))
    return names.first { $0.hasPrefix(word) }
      ?? names.first { CommandVerbs.editDistance(scalars, Array($0.unicodeScalars)) <= 2 }
  }
}

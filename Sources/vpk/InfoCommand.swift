// `vpk info`: describes a file and exits. No playback session runs: the engine's describer opens and probes the file,
// the formatter writes its description (a text block, or one JSON object with --json) to standard output, and a file
// that cannot be opened is one line on standard error and exit status 3.

import ArgumentParser
import Foundation
import VPKEngine
import VideoPlaybackKit

struct InfoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Describe a media file (container, tags, chapters, every stream) and exit.",
    discussion: """
      Prints what ffprobe -show_format -show_streams -show_chapters reads, for
      people (an aligned block) or, with --json, as one JSON object (see
      schema/vpk-info.schema.json). A file that cannot be opened is one line
      on standard error and exit status 3.
      """)

  @Argument(help: "The media file to describe.", completion: .file())
  var file: String

  @Flag(name: .long, help: "Write the description as one JSON object instead of text.")
  var json = false

  @Flag(name: .long, help: "Write FFmpeg's own warnings to standard error.")
  var verbose = false

  @OptionGroup var access: AccessOptions

  func run() async throws {
    signal(SIGPIPE, SIG_IGN)
    let description: MediaDescription
    do {
      description = try MediaDescriber.describe(
        path: file, access: access.mediaAccess, showsFFmpegWarnings: verbose)
    } catch {
      StandardStreams.writeError("vpk: \(error.message) (\(error.code.rawValue))")
      throw ExitCode(SessionExitCode.mediaUnreadable)
    }
    let text = json ? MediaDescriptionText.json(description) + "\n" : MediaDescriptionText.block(description)
    guard StandardStreams.writeOutput(text) else { throw ExitCode.failure }
  }
}

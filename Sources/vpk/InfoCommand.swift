// `vpk info`: describes a file and exits.

import ArgumentParser
import VideoPlaybackKit

struct InfoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Report what a media file holds (container, duration, streams) and exit.")

  @Argument(help: "The media file to describe.", completion: .file())
  var file: String

  @OptionGroup var output: OutputOptions
  @OptionGroup var access: AccessOptions

  func run() async throws {
    let options = PlaybackOptions(autoplay: false, clock: .free, progressInterval: nil)
    let code = await runSession(
      file: file, options: options, output: output, access: access.mediaAccess, scriptedInput: ["info", "quit"])
    throw ExitCode(code)
  }
}

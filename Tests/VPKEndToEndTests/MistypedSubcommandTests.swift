// End to end: a first word that names neither a subcommand nor a file, but is close to a subcommand's name, is
// blamed as the slip it is (`did you mean 'info'?`, status 64), not the words after it; a file's name still plays.

import Foundation
import Testing
import VPKTestSupport

@Suite struct MistypedSubcommandTests {
  @Test(arguments: [
    (["plya", "x"], "play"), (["inf", "clip.mp4"], "info"), (["plya"], "play"), (["tset", "a.vpk"], "test"),
    (["thumb", "clip.mp4"], "thumbnails"), (["atach", "/tmp/s"], "attach"),
  ])
  func aSlipOfASubcommandSaysWhichWasMeant(arguments: [String], meant: String) throws {
    // Given a command line whose first word is a slip for a subcommand (and no file of that name)
    // When vpk runs it
    let result = try VPKProcess.run(arguments)
    // Then it names the word and the subcommand meant, in one line, with the usage status
    #expect(result.status == 64, "\(result.stderr)")
    #expect(
      result.stderr == "vpk: '\(arguments[0])' is neither a vpk command nor a file: did you mean '\(meant)'? "
        + "(vpk --help)\n")
    #expect(result.stdout.isEmpty)
  }

  @Test func aFileNamedLikeASubcommandSlipStillPlays() throws {
    // Given a clip saved under a name one edit from `info`
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-slip-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: try TestMedia.url(for: .mpeg4), to: folder.appendingPathComponent("inf"))
    // When vpk is given that name, in that folder
    let process = Process()
    process.executableURL = try VPKProcess.executableURL()
    process.arguments = ["inf", "--paused"]
    process.currentDirectoryURL = folder
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data("status\nquit\n".utf8))
    try input.fileHandleForWriting.close()
    let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // Then it plays the file
    #expect(process.terminationStatus == 0)
    #expect(stdout.contains("ready path=inf "), "\(stdout)")
  }
}

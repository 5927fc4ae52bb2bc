import ArgumentParser

@main
struct VPKCommand: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "vpk")
  func run() throws {}
}

import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

@MainActor
@Suite struct PlaybackBuilderTests {
  /// Builds a module over a fake manager and a captured output, fed these lines.
  private func build(
    format: OutputFormat, isTerminal: Bool = false, options: PlaybackOptions = PlaybackOptions(autoplay: false),
    lines: [String]
  ) -> (module: PlaybackModule, manager: FakePlaybackManager, output: CapturedTextOutput, exits: ExitSpy) {
    let manager = FakePlaybackManager()
    let output = CapturedTextOutput()
    let exits = ExitSpy()
    let module = PlaybackBuilder.build(
      path: "clip.mp4", options: options, format: format, input: .lines(lines), output: output,
      isTerminal: isTerminal, useColor: false, makeManager: { manager },
      onClose: { code, _ in exits.codes.append(code) })
    return (module, manager, output, exits)
  }

  @Test func wiresInputThroughInteractorAndPresenterToTheView() {
    // Given a text module fed a status, a bad line and quit
    let (module, manager, output, exits) = build(format: .text, lines: ["status", "jump", "quit"])
    // When it starts and the file becomes ready
    module.start()
    #expect(manager.calls.first == "prepare clip.mp4")
    manager.becomeReady()
    // Then every command came through in order, to the view, and the session closed with 0
    let names = output.text.split(separator: "\n").map { $0.split(separator: " ")[0] }
    #expect(names == ["ready", "status", "error", "shutdown"])
    #expect(exits.codes == [0])
    #expect(manager.onEvent != nil)
  }

  @Test func jsonFormatWritesJSONLines() {
    let (module, manager, output, _) = build(format: .json, lines: ["quit"])
    module.start()
    manager.becomeReady()
    #expect(output.text.hasPrefix(#"{"event":"hello""#))
    #expect(output.text.contains(#"{"event":"shutdown","id":1"#))
  }

  @Test func aTerminalGetsASmoothStatusLineWhateverTheProgressOption() {
    // Given --progress off, on a terminal and on a pipe
    let options = PlaybackOptions(autoplay: false, progressInterval: nil)
    let terminal = build(format: .text, isTerminal: true, options: options, lines: [])
    let pipe = build(format: .text, isTerminal: false, options: options, lines: [])
    terminal.module.start()
    pipe.module.start()
    // Then only the terminal's engine is asked for frequent progress (shown in place, never as lines)
    #expect(terminal.manager.configuration?.progressInterval == PlaybackBuilder.terminalRefreshInterval)
    #expect(pipe.manager.configuration?.progressInterval == nil)
  }
}

@MainActor
final class ExitSpy {
  var codes: [Int32] = []
}

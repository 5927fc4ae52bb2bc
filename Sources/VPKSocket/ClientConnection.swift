// ClientConnection: one control-socket client on the main actor: the view input side of the client (its lines go
// to its presenter, in order) and the owner of its place in the session (the PlaybackClient the Builder made).
//
// The first line may choose how events are written to the client: `format text` switches it from JSON lines (the
// default, which greet it with `hello` as it connects) to the text lines `vpk play` prints (what `vpk attach` shows
// piped), `format display` to what `vpk play` shows on a terminal, as display lines (`vpk attach` on a terminal).

import Foundation
import NIOCore
import VideoPlaybackKit

@MainActor
final class ClientConnection {
  /// Makes the client's view and presenter in the session (the app calls the Builder).
  typealias Attach = @MainActor (OutputFormat, any TextOutput) -> PlaybackClient

  let output: ChannelTextOutput
  private let attach: Attach
  private var client: PlaybackClient
  private let lineHandled: @Sendable () -> Void
  private var sawFirstLine = false

  init(channel: any Channel, attach: @escaping Attach, lineHandled: @escaping @Sendable () -> Void) {
    output = ChannelTextOutput(channel: channel)
    self.attach = attach
    self.lineHandled = lineHandled
    client = attach(.json, output)
  }

  func receive(_ line: InputLine) {
    defer { lineHandled() }
    if !sawFirstLine {
      sawFirstLine = true
      if case .text(let text) = line, let format = Self.format(chosenBy: text) {
        client.detach()
        client = attach(format, output)
        return
      }
    }
    client.eventHandler.onInputLine(line)
  }

  /// The format a first line `format text` or `format display` chooses.
  private static func format(chosenBy line: String) -> OutputFormat? {
    switch line.trimmingCharacters(in: .whitespaces).lowercased() {
    case "format text": .text
    case "format display": .display
    default: nil
    }
  }

  /// Tells the client why it is being disconnected, then closes the connection once that is written.
  func disconnect(_ reason: PlaybackError) {
    client.disconnect(reason)
    output.finish()
  }

  /// The client sends no more: it gets the replies to what it sent, then the connection is closed.
  func inputEnded() {
    client.inputEnded { [output] in output.finish() }
  }

  /// The client left: what its commands still cause is dropped.
  func detach() {
    client.detach()
  }
}

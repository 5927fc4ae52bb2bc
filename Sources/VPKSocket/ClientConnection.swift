// ClientConnection: one control-socket client on the main actor: the view input side of the client (its lines go
// to its presenter, in order) and the owner of its place in the session (the PlaybackClient the Builder made).
//
// The first line may choose how events are written to the client: `format text` switches it from JSON lines (the
// default, which greet it with `hello` as it connects) to the text lines `vpk play` prints (what `vpk attach` shows);
// a first line in mpv's JSON IPC (`{"command": ["get_property", "pause"]}`) makes the connection speak mpv's dialect
// from then on, and is served as the first command of it.

import Foundation
import NIOCore
import VideoPlaybackKit

@MainActor
final class ClientConnection {
  /// Makes the client's view and presenter in the session (the app calls the Builder).
  typealias Attach = @MainActor (OutputFormat, any TextOutput) -> PlaybackClient
  /// Makes the view and presenter of a client speaking mpv's JSON IPC.
  typealias AttachMPV = @MainActor (any TextOutput) -> PlaybackClient

  let output: ChannelTextOutput
  private let attach: Attach
  private let attachMPV: AttachMPV?
  private var client: PlaybackClient
  private let lineHandled: @Sendable () -> Void
  private var sawFirstLine = false
  private var speaksMPV = false

  init(
    channel: any Channel, attach: @escaping Attach, attachMPV: AttachMPV? = nil,
    lineHandled: @escaping @Sendable () -> Void
  ) {
    output = ChannelTextOutput(channel: channel)
    self.attach = attach
    self.attachMPV = attachMPV
    self.lineHandled = lineHandled
    client = attach(.json, output)
  }

  func receive(_ line: InputLine) {
    defer { lineHandled() }
    if !sawFirstLine {
      sawFirstLine = true
      if case .text(let text) = line, text.trimmingCharacters(in: .whitespaces).lowercased() == "format text" {
        client.detach()
        client = attach(.text, output)
        return
      }
      if case .text(let text) = line, let attachMPV, MPVCommandTranslator.isMPVRequest(text) {
        client.detach()
        client = attachMPV(output)
        speaksMPV = true
      }
    }
    client.eventHandler.onInputLine(line)
  }

  /// The client sends no more. An mpv client is then closed on once its replies have been sent, as mpv does (its
  /// client libraries wait for that to end their reading); vpk's own clients stay until they close.
  func inputEnded() {
    guard speaksMPV else { return }
    closeWhenAnswered(deadline: .now() + Self.answerGrace)
  }

  /// How long a client that ended its input may wait for its replies before it is closed on anyway.
  static let answerGrace: DispatchTimeInterval = .seconds(30)

  private func closeWhenAnswered(deadline: DispatchTime) {
    guard client.owesReplies, DispatchTime.now() < deadline else {
      output.finish()
      return
    }
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(20)) { [weak self] in
      MainActor.assumeIsolated { self?.closeWhenAnswered(deadline: deadline) }
    }
  }

  /// Tells the client why it is being disconnected, then closes the connection once that is written.
  func disconnect(_ reason: PlaybackError) {
    client.disconnect(reason)
    output.finish()
  }

  /// The client left: what its commands still cause is dropped.
  func detach() {
    client.detach()
  }
}

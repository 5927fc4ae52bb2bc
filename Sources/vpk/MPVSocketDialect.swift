// MPVSocketDialect: mpv's JSON IPC as a dialect of the control socket: which first lines are mpv's, and the mpv
// client the Builder makes for a connection, as the socket drives it (its reads and its seek's reply answered on the
// socket's event loop). Given to the socket's server by `runSession`; VPKSocket knows no dialect of its own but vpk's.

import VPKMPV
import VPKSocket
import VideoPlaybackKit

struct MPVSocketDialect: SocketDialect {
  /// Attaches an mpv client to the session (the Builder's `attachMPVClient`).
  let attachClient: @MainActor @Sendable (any TextOutput) -> MPVClient

  /// A line in mpv's JSON IPC (`{"command": ["get_property", "pause"]}`), or one of mpv's text commands that vpk's
  /// language does not have (`cycle pause`, `seek 20 absolute`).
  func isSpoken(by line: String) -> Bool {
    MPVCommandTranslator.isMPVRequest(line) || MPVCommandTranslator.isMPVTextLine(line)
  }

  @MainActor func attach(output: any TextOutput) -> any SocketDialectClient {
    MPVSocketClient(attachClient(output))
  }
}

/// An mpv client as its connection drives it.
@MainActor
private final class MPVSocketClient: SocketDialectClient {
  private let client: MPVClient
  nonisolated let quickAnswer: (@Sendable (String) -> QuickAnswer?)?

  init(_ client: MPVClient) {
    self.client = client
    quickAnswer = { [quickReads = client.quickReads] line in quickReads.quickAnswer(line) }
  }

  func receive(_ line: InputLine) { client.receive(line) }
  func linesTogether(_ started: Bool) { client.linesTogether(started) }
  var owesReplies: Bool { client.owesReplies }
  func disconnect(_ reason: PlaybackError) { client.disconnect(reason) }
  func detach() { client.detach() }
}

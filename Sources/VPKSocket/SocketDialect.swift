// SocketDialect: a dialect of the control socket besides vpk's own, given to the server by the app (the vpk target
// gives mpv's JSON IPC). VPKSocket knows no dialect but vpk's: it serves every client with the same SwiftNIO channel
// and handler (ClientChannelHandler, under the same bounds), and a dialect only says which first lines are its own
// and makes the client's side in the session. A socket either lets a client's first line choose (`--socket`) or
// serves the dialect alone from the first byte (`--input-ipc-server`, ControlSocketServer.Options.dialectOnly).

import VideoPlaybackKit

/// A dialect the control socket serves besides vpk's own.
package protocol SocketDialect: Sendable {
  /// Whether `line`, a client's first on a socket where the first line chooses, is of this dialect.
  func isSpoken(by line: String) -> Bool
  /// Makes a client of this dialect in the session, writing to `output`.
  @MainActor func attach(output: any TextOutput) -> any SocketDialectClient
}

/// A client of a SocketDialect, as its connection drives it on the main actor.
@MainActor
package protocol SocketDialectClient: AnyObject {
  /// Answers a line on the socket's event loop when it can be answered without the main actor (the dialect's
  /// property reads, its seek's reply); nil when every line goes to the main actor. Asked only while no earlier line
  /// of the client's waits there, so replies keep the requests' order.
  nonisolated var quickAnswer: (@Sendable (String) -> QuickAnswer?)? { get }
  /// Takes the client's next line.
  func receive(_ line: InputLine)
  /// The lines that follow came together, in one read of the connection (true), or have all been received (false).
  func linesTogether(_ started: Bool)
  /// Whether a request of the client's still owes it a reply: once the client has ended its input, its connection
  /// closes when none does.
  var owesReplies: Bool { get }
  /// Tells the client why it is being disconnected, and removes it from the session.
  func disconnect(_ reason: PlaybackError)
  /// The client left: what its requests still cause is dropped.
  func detach()
}

// PlayerDemo: plays a file to its end with a view of its own, then prints the last frame's MD5.
//
// Usage: PlayerDemo FILE
//
// The player is made by the Builder with the FFmpeg engine; the view below is an app's own PlaybackView, attached to
// the player's session, which receives the presenter's view models and shows them its own way.

import Foundation
import VPKEngine
import VideoPlaybackKit

/// Shows each event as `[name] key=value …`, leaving out the progress ticks.
@MainActor
final class BracketView: PlaybackView {
  func displayEvent(_ event: EventViewModel) {
    guard !event.isTransient else { return }
    let fields = event.fields.map { "\($0.key)=\(Self.text($0.value))" }
    print((["[\(event.event)]"] + fields).joined(separator: " "))
  }

  /// The status line is for terminals; this view shows events only.
  func displayStatusLine(_ status: StatusLineViewModel) {}
  func displayFinish() {}

  private static func text(_ value: EventViewModel.Value) -> String {
    switch value {
    case .string(let string): string
    case .number(let number): String(number)
    case .integer(let integer): String(integer)
    case .bool(let bool): String(bool)
    case .null: "none"
    case .list(let values): values.map(text).joined(separator: ",")
    }
  }
}

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: PlayerDemo FILE\n".utf8))
  exit(2)
}
// The free clock plays as fast as the file decodes: a demo need not take the clip's own time.
var options = PlaybackBuilder.playerOptions
options.clock = .free
let player = await PlaybackBuilder.makePlayer(options: options)
let view = BracketView()
let client = PlaybackBuilder.attach(view, to: player)
do {
  try await player.open(CommandLine.arguments[1])
  try await player.play()
  try await player.wait(.ended)
  let frame = try await player.currentFrame()
  print("last frame: pts \(frame.pts) md5 \(frame.md5)")
  try await player.close()
  client.detach()
} catch let error as PlaybackError {
  FileHandle.standardError.write(Data("PlayerDemo: \(error.code.rawValue): \(error.message)\n".utf8))
  exit(1)
}

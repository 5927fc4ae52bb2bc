// ContactSheet: `vpk thumbnails`. A grid of evenly spaced frames of a file, each found by the engine's exact seek (so
// each tile is the frame playback shows at its time), scaled as the ffmpeg tool scales (bicubic), with the frame's
// time written in a strip below it, so the picture itself is untouched. One PNG.
//
// Layout: a margin of `gap` pixels around and between the tiles; below each tile a strip of `labelHeight` pixels
// with its time, centred.

import Foundation
import VideoPlaybackKit

/// A contact sheet made from a file, and where its tiles lie.
package struct ContactSheet: Sendable {
  /// One tile: where its picture lies on the sheet and the frame it shows.
  package struct Tile: Sendable, Equatable {
    package var x: Int
    package var y: Int
    /// The time the tile was taken at (the exact seek's target).
    package var target: MediaTime
    /// The frame's own time and pts: the frame whose display interval holds the target.
    package var time: MediaTime
    package var pts: Int64
  }

  package var width: Int
  package var height: Int
  package var tileWidth: Int
  package var tileHeight: Int
  package var tiles: [Tile]
  /// The PNG file's bytes.
  package var png: [UInt8]

  /// Pixels around and between tiles.
  package static let gap = 8
  /// The most tiles across or down.
  package static let maxTilesPerSide = 16
  /// The narrowest and widest tile, in pixels (the narrowest still fits its time label).
  package static let tileWidths = 80...1920

  static let background: UInt8 = 24
  static let ink: (UInt8, UInt8, UInt8) = (240, 240, 240)

  /// The font that labels tiles `width` pixels wide: larger when it fits.
  static func font(forTileWidth width: Int) -> DigitFont { DigitFont(scale: width >= 200 ? 2 : 1) }

  /// Height of the strip below each tile that holds its time.
  package static func labelHeight(forTileWidth width: Int) -> Int { font(forTileWidth: width).height + 6 }

  /// Makes the sheet of `columns` x `rows` frames of the file at `path`, taken at the middle of equal parts of its
  /// duration, each `tileWidth` pixels wide (and as high as the picture's display aspect ratio makes it).
  /// `showsFFmpegWarnings`: let FFmpeg write its own warnings to standard error (otherwise only fatal errors).
  package static func make(
    path: String, columns: Int, rows: Int, tileWidth: Int, access: MediaAccess = MediaAccess(),
    showsFFmpegWarnings: Bool = false
  ) throws(PlaybackError) -> ContactSheet {
    setFFmpegLogLevel(showsWarnings: showsFFmpegWarnings)
    let inbox = EngineInbox()
    let engine = EngineHandle(
      path: path, configuration: PlaybackConfiguration(clock: .virtual, progressInterval: nil), access: access
    ) { inbox.post($0) }
    engine.start()
    defer { engine.stop() }

    let info: MediaInfo
    switch inbox.next(where: { if case .ready = $0 { true } else if case .failedToOpen = $0 { true } else { false } }) {
    case .ready(let ready): info = ready
    case .failedToOpen(let error): throw error
    default: throw PlaybackError(.notMedia, "\(path): the engine stopped before the file was open")
    }
    guard info.video != nil else {
      throw PlaybackError(.unavailable, "\(path) has no video stream; thumbnails shows video frames")
    }
    guard let duration = info.duration?.seconds, duration > 0 else {
      throw PlaybackError(
        .unavailable, "\(path) does not say how long it is, so its frames cannot be spread over it")
    }

    let count = columns * rows
    var tiles: [Tile] = []
    var sheet = RGBImage(width: 0, height: 0)
    var tileHeight = 0
    let labelHeight = Self.labelHeight(forTileWidth: tileWidth)
    let font = Self.font(forTileWidth: tileWidth)
    for index in 0..<count {
      let target = duration * (Double(index) + 0.5) / Double(count)
      engine.post(
        .seek(
          SeekRequest(id: index + 1, target: MediaTime(seconds: target), mode: .exact), requestedAt: hostNanoseconds()))
      _ = inbox.next(where: { if case .seeked(let result) = $0 { result.id == index + 1 } else { false } })
      guard let shown = engine.frameOnScreen().frame else {
        throw PlaybackError(.unavailable, "\(path): no video frame at \(NumberText.seconds(target)) s")
      }
      let picture = try shown.rgb(width: tileWidth)
      if index == 0 {
        tileHeight = picture.height
        sheet = RGBImage(
          width: gap + columns * (tileWidth + gap), height: gap + rows * (tileHeight + labelHeight + gap),
          grey: background)
      }
      let x = gap + (index % columns) * (tileWidth + gap)
      let y = gap + (index / columns) * (tileHeight + labelHeight + gap)
      sheet.place(picture, x: x, y: y)
      let label = NumberText.clock(shown.time)
      font.draw(
        label, x: x + max(0, (tileWidth - font.width(of: label)) / 2), y: y + tileHeight + 3, colour: ink,
        into: &sheet)
      tiles.append(
        Tile(x: x, y: y, target: MediaTime(seconds: target), time: MediaTime(seconds: shown.time), pts: shown.pts))
    }
    return ContactSheet(
      width: sheet.width, height: sheet.height, tileWidth: tileWidth, tileHeight: tileHeight, tiles: tiles,
      png: try PictureEncoder.png(of: sheet))
  }

  /// Writes the sheet's PNG to `path` (made or replaced).
  package func write(to path: String) throws(PlaybackError) {
    try PictureEncoder.writeFile(png, to: path)
  }
}

/// The engine's events, for a caller that waits for them on its own thread instead of the main actor.
final class EngineInbox: @unchecked Sendable {
  private let condition = NSCondition()
  private var events: [EngineEvent] = []

  func post(_ event: EngineEvent) {
    condition.lock()
    events.append(event)
    condition.signal()
    condition.unlock()
  }

  /// Waits for the first event that matches, dropping the ones before it.
  func next(where matches: (EngineEvent) -> Bool) -> EngineEvent {
    condition.lock()
    defer { condition.unlock() }
    while true {
      while events.isEmpty { condition.wait() }
      let event = events.removeFirst()
      if matches(event) { return event }
    }
  }
}

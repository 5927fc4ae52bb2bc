// The contact sheet's pieces that need no media (the RGB picture, the digit font, the layout), and a sheet of a real
// clip: its size, tile places and frames.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct ContactSheetTests {
  @Test func placingAPictureClipsItToTheSheet() {
    // Given a 4x2 black picture, When a 2x2 white one is placed with its right half outside, Then only the left half
    // lands, in the last column
    var sheet = RGBImage(width: 4, height: 2)
    sheet.place(RGBImage(width: 2, height: 2, grey: 255), x: 3, y: 0)
    let white = (0..<2).map { row in sheet.pixels[(row * 4 + 3) * 3] }
    #expect(white == [255, 255])
    #expect(sheet.pixels.filter { $0 == 255 }.count == 2 * 3)
    // And pixels set outside are ignored
    sheet.set(x: -1, y: 0, to: (1, 2, 3))
    sheet.set(x: 4, y: 1, to: (1, 2, 3))
    #expect(!sheet.pixels.contains(1))
  }

  @Test func theFontDrawsEveryTimeCharacterWithinItsBox() {
    // Given a time label in the font at scale 2
    let font = DigitFont(scale: 2)
    let label = "01:23:45.678"
    #expect(font.width(of: label) == (12 * 6 - 1) * 2 && font.height == 14)
    var image = RGBImage(width: font.width(of: label), height: font.height)
    // When it is drawn, Then every character put ink down, and all of it lies in the box (nothing was clipped)
    font.draw(label, x: 0, y: 0, colour: (255, 255, 255), into: &image)
    for index in 0..<label.count {
      let left = index * 6 * 2
      let inked = (0..<image.height).contains { y in
        (left..<(left + 10)).contains { x in image.pixels[(y * image.width + x) * 3] == 255 }
      }
      #expect(inked, "character \(index) drew nothing")
    }
    var bigger = RGBImage(width: image.width + 4, height: image.height + 4)
    font.draw(label, x: 2, y: 2, colour: (255, 255, 255), into: &bigger)
    #expect(bigger.pixels.filter { $0 == 255 }.count == image.pixels.filter { $0 == 255 }.count)
  }

  @Test func aSheetHasItsTilesWhereItSaysAndEachIsTheExactFrame() throws {
    // Given a 10 s clip and ffmpeg's frames
    let url = try TestMedia.url(for: .h264BFrames)
    let reference = try FrameMD5.entries(of: url, streamTimeBase: true)
    // When a 4x3 sheet of 160-pixel tiles is made
    let sheet = try ContactSheet.make(path: url.path, columns: 4, rows: 3, tileWidth: 160)
    // Then its size follows from the layout, and the tiles are in reading order at the middle of 12 equal parts
    let label = ContactSheet.labelHeight(forTileWidth: 160)
    #expect(sheet.tileWidth == 160 && sheet.tileHeight == 120)
    #expect(sheet.width == 8 + 4 * (160 + 8) && sheet.height == 8 + 3 * (120 + label + 8))
    #expect(sheet.tiles.count == 12)
    for (index, tile) in sheet.tiles.enumerated() {
      #expect(tile.x == 8 + (index % 4) * 168 && tile.y == 8 + (index / 4) * (128 + label))
      #expect(abs(tile.target.seconds - 10 * (Double(index) + 0.5) / 12) < 1e-9)
      let expected = reference.entry(containing: tile.target.seconds)
      #expect(tile.pts == expected.pts, "tile \(index)")
      #expect(abs(tile.time.seconds - expected.time) < 1e-6)
    }
    #expect(Array(sheet.png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
  }

  @Test func mediaWithoutPicturesToSpreadIsUnavailable() {
    #expect {
      try ContactSheet.make(path: TestMedia.url(for: .audioOnly).path, columns: 2, rows: 2, tileWidth: 160)
    } throws: { ($0 as? PlaybackError)?.code == .unavailable }
    #expect {
      try ContactSheet.make(path: "/nonexistent/clip.mp4", columns: 2, rows: 2, tileWidth: 160)
    } throws: { ($0 as? PlaybackError)?.code == .fileNotFound }
  }
}

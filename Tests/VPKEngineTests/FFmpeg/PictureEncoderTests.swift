// PictureEncoder on real frames: the PNG's pixel format is the one the ffmpeg tool picks for the frame's format, the
// PNG decodes to ffmpeg's own picture of the frame, and files that cannot be written say why.

import Foundation
import Testing
import VPKTestSupport
import VideoPlaybackKit

@testable import VPKEngine

@Suite struct PictureEncoderTests {
  /// The first frame of a clip, as the engine decodes it.
  private func firstFrame(_ clip: TestClip) throws -> DecodedFrame {
    let source = try MediaSource(path: TestMedia.url(for: clip).path, stop: StopFlag())
    guard case .frame(let frame) = source.next() else { throw TestSupportError("\(clip) has no frame") }
    return frame
  }

  @Test(arguments: [
    (TestClip.h264BFrames, "rgb24"), (.h264FullRange444, "rgb24"), (.h264TenBit, "rgb48be"), (.mpeg4, "rgb24"),
  ])
  func thePNGFormatIsTheOneFFmpegPicks(clip: TestClip, format: String) throws {
    let picture = try firstFrame(clip).png()
    #expect(picture.format == format)
    // A PNG file: its 8-byte signature.
    #expect(Array(picture.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  }

  @Test func thePNGDecodesToFFmpegsPictureOfTheFrame() throws {
    // Given the first frame of a clip written as a PNG, and ffmpeg's PNG of the same frame
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-png-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let mine = folder.appendingPathComponent("mine.png")
    let theirs = folder.appendingPathComponent("theirs.png")
    try PictureEncoder.writeFile(try firstFrame(.h264BFrames).png().bytes, to: mine.path)
    try Pictures.ffmpegPNG(of: TestMedia.url(for: .h264BFrames), frameIndex: 0, to: theirs)
    // Then both decode to the same pixels
    #expect(try Pictures.rgb(of: mine) == Pictures.rgb(of: theirs))
  }

  @Test func scaledPicturesKeepTheDisplayAspectRatio() throws {
    // Given a 4:3 frame, When it is scaled to 160 pixels wide, Then it is 120 high, 3 bytes a pixel
    let image = try firstFrame(.h264BFrames).rgb(width: 160)
    #expect(image.width == 160 && image.height == 120 && image.pixels.count == 160 * 120 * 3)
    // Given the Matroska clip shown at 16:9 (352x288 with SAR 16:11), Then 320 wide is 180 high
    #expect(try firstFrame(.describedMKV).rgb(width: 320).height == 180)
  }

  @Test func filesThatCannotBeWrittenSayWhatToDo() {
    let bytes: [UInt8] = [1, 2, 3]
    #expect {
      try PictureEncoder.writeFile(bytes, to: "/nonexistent-\(UUID().uuidString)/a.png")
    } throws: { error in
      let error = error as? PlaybackError
      return error?.code == .cannotWrite && error?.message.contains("make the folder first") == true
    }
    #expect {
      try PictureEncoder.writeFile(bytes, to: FileManager.default.temporaryDirectory.path)
    } throws: { error in
      (error as? PlaybackError)?.message.contains("is a directory") == true
    }
  }
}

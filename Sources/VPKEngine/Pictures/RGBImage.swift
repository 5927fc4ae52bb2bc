// RGBImage: a picture as packed RGB24 in Swift memory (3 bytes a pixel, rows one after the other), for composing
// pictures (the contact sheet) without FFmpeg types. FFmpeg/PictureEncoder converts frames to it and encodes it.

struct RGBImage: Sendable, Equatable {
  let width: Int
  let height: Int
  var pixels: [UInt8]

  init(width: Int, height: Int, grey: UInt8 = 0) {
    self.width = width
    self.height = height
    pixels = [UInt8](repeating: grey, count: width * height * 3)
  }

  init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(pixels.count == width * height * 3, "an RGB24 picture needs 3 bytes a pixel")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// Copies `image` with its top left corner at (x, y), clipped to this picture.
  mutating func place(_ image: RGBImage, x: Int, y: Int) {
    let columns = max(0, min(image.width, width - x))
    guard columns > 0, x >= 0 else { return }
    for row in 0..<image.height where y + row >= 0 && y + row < height {
      let source = row * image.width * 3
      let target = ((y + row) * width + x) * 3
      pixels.replaceSubrange(target..<(target + columns * 3), with: image.pixels[source..<(source + columns * 3)])
    }
  }

  /// Sets one pixel; outside the picture, nothing.
  mutating func set(x: Int, y: Int, to colour: (UInt8, UInt8, UInt8)) {
    guard x >= 0, x < width, y >= 0, y < height else { return }
    let offset = (y * width + x) * 3
    pixels[offset] = colour.0
    pixels[offset + 1] = colour.1
    pixels[offset + 2] = colour.2
  }
}

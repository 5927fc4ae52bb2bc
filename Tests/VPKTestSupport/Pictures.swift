// Reference pictures from the ffmpeg tool, and pictures decoded by it, to check vpk's PNGs pixel for pixel.
import Foundation

/// A picture's pixels as packed RGB24 (3 bytes a pixel, rows one after the other, no padding).
public struct RGBPicture: Sendable, Equatable {
  public var width: Int
  public var height: Int
  public var bytes: Data

  public init(width: Int, height: Int, bytes: Data) {
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// The `width`x`height` part whose top left corner is at (x, y).
  public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBPicture {
    var part = Data(capacity: width * height * 3)
    for row in y..<(y + height) {
      let start = bytes.startIndex + (row * self.width + x) * 3
      part.append(bytes[start..<(start + width * 3)])
    }
    return RGBPicture(width: width, height: height, bytes: part)
  }

  /// How many bytes differ from `other`'s (both the same size), and by how much at most.
  public func difference(from other: RGBPicture) -> (count: Int, largest: Int) {
    var count = 0
    var largest = 0
    for (a, b) in zip(bytes, other.bytes) where a != b {
      count += 1
      largest = max(largest, abs(Int(a) - Int(b)))
    }
    return (count, largest)
  }
}

public enum Pictures {
  /// The picture in a file ffmpeg can read (a PNG), decoded by ffmpeg to RGB24.
  public static func rgb(of url: URL) throws -> RGBPicture {
    let (width, height, _) = try size(of: url)
    let result = try Tool.run(
      "ffmpeg",
      ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
    guard result.status == 0, result.stdout.count == width * height * 3 else {
      throw TestSupportError(
        "ffmpeg could not decode \(url.path) to rgb24 (status \(result.status)):\n\(result.stderr)")
    }
    return RGBPicture(width: width, height: height, bytes: result.stdout)
  }

  /// A picture's width, height and pixel format, as ffprobe reads them.
  public static func size(of url: URL) throws -> (width: Int, height: Int, pixelFormat: String) {
    let result = try Tool.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0",
        url.path,
      ])
    let fields = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      .split(separator: ",")
    guard result.status == 0, fields.count == 3, let width = Int(fields[0]), let height = Int(fields[1]) else {
      throw TestSupportError("ffprobe could not read the size of \(url.path):\n\(result.stderr)")
    }
    return (width, height, String(fields[2]))
  }

  /// What `ffmpeg -i MEDIA -frames:v 1 out.png` writes for the frame at `index` in display order (the select filter
  /// picks it, as `-ss` alone is not frame-exact), into `output`.
  public static func ffmpegPNG(of media: URL, frameIndex index: Int, to output: URL) throws {
    let result = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", media.path, "-map", "0:v:0", "-vf",
        "select=eq(n\\,\(index))", "-fps_mode", "passthrough", "-frames:v", "1", output.path,
      ])
    guard result.status == 0 else {
      throw TestSupportError("ffmpeg could not write frame \(index) of \(media.path) as PNG:\n\(result.stderr)")
    }
  }

  /// The frame at `index` in display order as ffmpeg converts it to RGB24, scaled to `width`x`height` when given
  /// (ffmpeg's scale filter with the tool's default flags).
  public static func ffmpegRGB(of media: URL, frameIndex index: Int, scaledTo scaled: (width: Int, height: Int)? = nil)
    throws -> RGBPicture
  {
    var filters = "select=eq(n\\,\(index))"
    if let scaled { filters += ",scale=\(scaled.width):\(scaled.height)" }
    let result = try Tool.run(
      "ffmpeg",
      [
        "-nostdin", "-hide_banner", "-loglevel", "error", "-i", media.path, "-map", "0:v:0", "-vf", filters,
        "-fps_mode", "passthrough", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
      ])
    guard result.status == 0, !result.stdout.isEmpty else {
      throw TestSupportError("ffmpeg could not convert frame \(index) of \(media.path):\n\(result.stderr)")
    }
    let (width, height) = try scaled ?? dimensions(of: media)
    guard result.stdout.count == width * height * 3 else {
      throw TestSupportError("ffmpeg gave \(result.stdout.count) bytes for a \(width)x\(height) frame")
    }
    return RGBPicture(width: width, height: height, bytes: result.stdout)
  }

  private static func dimensions(of media: URL) throws -> (width: Int, height: Int) {
    let probed = try size(of: media)
    return (probed.width, probed.height)
  }

  /// Parses an XML file with Python's xml.etree (the parser CI tools' own scripts commonly use) and returns the
  /// text of every testcase's <system-out>, by the testcase's name. Throws when the file is not well-formed XML.
  public static func junitSystemOut(_ report: URL) throws -> [String: String] {
    let script = """
      import json, sys, xml.etree.ElementTree as ET
      root = ET.parse(sys.argv[1]).getroot()
      out = {}
      for case in root.iter('testcase'):
          node = case.find('system-out')
          out[case.get('name')] = node.text if node is not None and node.text else ''
      print(json.dumps(out))
      """
    let result = try Tool.run("python3", ["-c", script, report.path])
    guard result.status == 0,
      let object = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: String]
    else {
      throw TestSupportError("xml.etree could not parse \(report.path):\n\(result.stderr)")
    }
    return object
  }
}

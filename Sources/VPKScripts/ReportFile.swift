// ReportFile: how `vpk test` writes a report or transcript file. A regular file (or a new one) is replaced
// atomically, so a reader never sees half a report; anything else (/dev/null, /dev/stdout, a FIFO) is written in
// place. Replacing it would put a regular file where the device or pipe was: `--junit /dev/null` run as root
// turned /dev/null into a regular file.

import Foundation

package enum ReportFile {
  package static func write(_ text: String, toFile path: String) throws {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    let type = exists ? (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) : nil
    if !exists || type == .typeRegular {
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      return
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    try handle.write(contentsOf: Data(text.utf8))
  }
}

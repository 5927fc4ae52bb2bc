// A player used from code that is not on the main actor: a nonisolated test and detached tasks make it, read its
// options and call it, and the calls hop to the main actor themselves.

import Foundation
import Testing
import VPKEngine
import VPKTestSupport
import VideoPlaybackKit

@Suite("Player from any isolation")
struct PlayerIsolationTests {
  @Test func theReadmeExampleRunsInANonisolatedTest() async throws {
    // Given a clip, in a test that is not on the main actor
    let path = try TestMedia.url(for: .mpeg4).path
    // When README's example runs here as written
    var options = PlaybackBuilder.playerOptions
    options.clock = .virtual
    let player = await PlaybackBuilder.makePlayer(options: options)
    let info = try await player.open(path)
    try await player.play()
    let waited = try await player.wait(.position(.seconds(2)))
    let seek = try await player.scrub(to: MediaTime(seconds: 1.23), mode: .exact)
    let frame = try await player.currentFrame()
    // Then every call answered as on the main actor
    #expect(info.video != nil)
    #expect(waited.seconds >= 2)
    #expect(seek.position == MediaTime(seconds: 1.23))
    #expect(frame.time.seconds <= 1.23)
  }

  @Test func detachedTasksShareOnePlayer() async throws {
    // Given a player made in a detached task
    let path = try TestMedia.url(for: .mpeg4).path
    let player = await Task.detached { await PlaybackBuilder.makePlayer() }.value
    // When another detached task opens the file and steps, and this one reads the status
    try await Task.detached {
      try await player.open(path)
      try await player.step(3)
    }.value
    let status = try await player.status()
    // Then the status shows the step taken there: paused on the fourth frame, as ffmpeg decodes the clip
    let frames = try FrameMD5.entries(of: URL(fileURLWithPath: path), streamTimeBase: true)
    #expect(status.state == .paused)
    #expect(abs(status.position.seconds - frames[3].time) < 1e-6, "\(status.position.seconds)")
    #expect(try await player.currentFrame().md5 == frames[3].hash)
  }

  @Test func aPositionWaitAnswersAtTheStartOfTheFrameThatReachesIt() async throws {
    // Given a 25 fps clip playing on the virtual clock (frames start at 2.48 and 2.52)
    let path = try TestMedia.url(for: .mpeg4).path
    var options = PlaybackBuilder.playerOptions
    options.clock = .virtual
    let player = await PlaybackBuilder.makePlayer(options: options)
    try await player.open(path)
    try await player.play()
    // When it waits for 2.5 s
    let position = try await player.wait(.position(.seconds(2.5)))
    // Then it answers at 2.52, the start of the first frame at or past 2.5
    #expect(abs(position.seconds - 2.52) < 1e-6, "\(position)")
  }

  @Test func aSnapshotWithNoPathTakesTheDefaultNameInTheBaseDirectory() async throws {
    // Given a player whose base directory is a fresh folder, paused at 1 s of a clip
    let path = try TestMedia.url(for: .mpeg4).path
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vpk-snapshot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let player = await PlaybackBuilder.makePlayer(baseDirectory: folder.path)
    try await player.open(path)
    try await player.scrub(to: MediaTime(seconds: 1), mode: .exact)
    // When it takes a snapshot with no argument
    let picture = try await player.snapshot()
    // Then it is named <file>-<position>.png, written in the base directory
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + "-1.000.png"
    #expect(picture.path.hasSuffix(name), "\(picture.path)")
    #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path))
  }
}

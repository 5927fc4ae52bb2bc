// A player used from code that is not on the main actor: a nonisolated test and detached tasks make it, read its
// options and call it, and the calls hop to the main actor themselves.

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
    // Then the status shows the step taken there
    #expect(status.state == .paused)
    #expect(status.position.seconds > 0)
  }
}

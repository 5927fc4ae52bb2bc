// Players made by the Builder over the real FFmpeg engine, in this process: two players on different files share
// nothing, a cancelled seek leaves its player usable, and a dropped player lets its engine go. Descriptors, threads and
// memory over a thousand open/close cycles are counted in a process of their own (VPKLeakCheck --player-cycles), so
// the tests running beside it do not disturb the counts.

import Foundation
import Testing
import VPKEngine
import VPKTestSupport
import VideoPlaybackKit

@MainActor
@Suite("Player over the FFmpeg engine")
struct PlaybackBuilderFFmpegTests {
  @Test func twoPlayersOnDifferentFilesShareNoState() async throws {
    // Given two players, each with a file of its own
    let h264 = try TestMedia.url(for: .h264BFrames)
    let mpeg4 = try TestMedia.url(for: .mpeg4)
    let h264Frames = try await Task.detached { try FrameMD5.entries(of: h264, streamTimeBase: true) }.value
    let mpeg4Frames = try await Task.detached { try FrameMD5.entries(of: mpeg4, streamTimeBase: true) }.value
    let first = await PlaybackBuilder.makePlayer()
    let second = await PlaybackBuilder.makePlayer()
    async let firstInfo = first.open(h264.path)
    async let secondInfo = second.open(mpeg4.path)
    let (a, b) = try await (firstInfo, secondInfo)
    // When both scrub exactly at the same time, to different places
    async let firstSeek = first.scrub(to: MediaTime(seconds: 2.5), mode: .exact)
    async let secondSeek = second.scrub(to: MediaTime(seconds: 4.1), mode: .exact)
    _ = try await (firstSeek, secondSeek)
    // Then each shows its own file's frame there, as ffmpeg decodes it, and reports its own media
    #expect(a.video?.width == 320 && b.video?.width == 640)
    #expect(try await first.currentFrame().md5 == h264Frames.entry(containing: 2.5).hash)
    #expect(try await second.currentFrame().md5 == mpeg4Frames.entry(containing: 4.1).hash)
    #expect(try await first.status().duration != second.status().duration)
    // And closing one leaves the other playing on
    try await first.close()
    try await second.step(1)
    #expect(try await second.currentFrame().md5 == mpeg4Frames.entry(containing: 4.1 + 1.0 / 25).hash)
    await #expect(throws: PlaybackError.self) { try await first.currentFrame() }
  }

  @Test func cancellingATaskAwaitingASeekLeavesThePlayerUsable() async throws {
    // Given a player with a file open
    let url = try TestMedia.url(for: .h264BFrames)
    let frames = try await Task.detached { try FrameMD5.entries(of: url, streamTimeBase: true) }.value
    let player = await PlaybackBuilder.makePlayer()
    try await player.open(url.path)
    // When tasks awaiting seeks are cancelled, some before they are sent and some after
    for target in [7.0, 8.0, 9.0] {
      let task = Task { try await player.scrub(to: MediaTime(seconds: target), mode: .exact) }
      if target != 7 { await Task.yield() }
      task.cancel()
      _ = await task.result
    }
    // Then the next seek lands exactly, and the frame is the one ffmpeg decodes there
    let seek = try await player.scrub(to: MediaTime(seconds: 3.31), mode: .exact)
    let frame = try await player.currentFrame()
    #expect(seek.position == MediaTime(seconds: 3.31))
    #expect(frame.pts == frames.entry(containing: 3.31).pts)
    #expect(frame.md5 == frames.entry(containing: 3.31).hash)
  }

  @Test func aCancelledWaitStopsInTheEngineSoTheNextCallIsAnsweredBeforeTheEnd() async throws {
    // Given a player playing a 10 s clip on the wall clock at the slowest rate, so that it cannot reach the end while
    // the test runs (1,000 s of wall time: a ThreadSanitizer run beside a build has starved the main actor for over
    // the 200 s that rate 0.05 gave). A wait left running in the engine would hold the pause behind it until the end,
    // and the pause would answer 10 s there.
    let url = try TestMedia.url(for: .h264BFrames)
    let player = await PlaybackBuilder.makePlayer()
    try await player.open(url.path)
    try await player.setRate(0.01)
    try await player.play()
    let codes = Task { () -> [PlaybackError.Code] in
      var codes: [PlaybackError.Code] = []
      for await event in player.events {
        if case .error(let error) = event.event { codes.append(error.code) }
        // The reply to `pause()` (a call of the player's), whatever state it reports (not the reply to `play()`).
        if case .state(let state, _, _) = event.event, state != .playing, event.callNumber != nil { break }
      }
      return codes
    }
    // When a task awaiting `wait(.ended)` is cancelled once the wait was sent
    let waiting = Task { try await player.wait(.ended) }
    await Task.yield()
    waiting.cancel()
    let outcome = await waiting.result
    // Then the task ends with CancellationError, and `pause()` is answered where playback is, not at the end
    #expect(throws: CancellationError.self) { try outcome.get() }
    let paused = try await player.pause()
    #expect(paused.seconds < 10, "\(paused.seconds): the pause waited for the end")
    #expect(try await player.status().state == .paused)
    // And the session answered the wait with `cancelled`
    #expect(await codes.value == [.cancelled])
  }

  @Test func aPlayerPlaysAQueueOfFilesOneAfterTheOther() async throws {
    // Given a player on the virtual clock, and three files
    let h264 = try TestMedia.url(for: .h264BFrames)
    let mpeg4 = try TestMedia.url(for: .mpeg4)
    var options = PlaybackBuilder.playerOptions
    options.clock = .virtual
    let player = await PlaybackBuilder.makePlayer(options: options)
    // When it opens the three as its queue and plays until the first ends
    let first = try await player.open([h264.path, mpeg4.path, h264.path])
    try await player.play()
    try await player.wait(.ended)
    // Then the second entry plays on by itself, from its start
    let second = try await player.info()
    let status = try await player.status()
    #expect(first.video?.width == 320 && second.video?.width == 640)
    #expect(status.entry == QueuePosition(index: 2, count: 3))
    #expect(status.state == .playing && status.position < MediaTime(seconds: 1))
    // And going to the last, to its end, leaves nothing after it
    let third = try await player.go(to: 3)
    try await player.play()
    try await player.wait(.ended)
    #expect(third.path == h264.path)
    #expect(try await player.queue().current == 3)
    let end = await #expect(throws: PlaybackError.self) { try await player.next() }
    #expect(end?.code == .queueEnd)
  }

  @Test func aPlayerDroppedWithoutCloseReleasesItsEngine() async throws {
    // Given a player with a file open, whose engine is watched weakly
    let url = try TestMedia.url(for: .mpeg4)
    final class Watch { weak var manager: FFmpegPlaybackManager? }
    let watch = Watch()
    var player: Player? = await PlaybackBuilder.makePlayer(options: PlaybackBuilder.playerOptions) {
      let manager = FFmpegPlaybackManager()
      watch.manager = manager
      return manager
    }
    try await player?.open(url.path)
    try await player?.play()
    #expect(watch.manager != nil)
    // When it is dropped without close()
    player = nil
    // Then its engine is gone (shut down, its thread joined: VPKLeakCheck counts the threads)
    #expect(watch.manager == nil)
  }

  @Test func aThousandOpenCloseCyclesLeaveNoDescriptorsThreadsOrMemoryBehind() async throws {
    // Given the leak driver, built beside vpk
    // When it runs a thousand open/close cycles of one player, then a thousand players opened and dropped (awaited
    // off the main actor: this suite's other tests, and every other suite's on the main actor, go on meanwhile)
    let result = try await VPKProcess.runBeside(
      "VPKLeakCheck",
      [try TestMedia.url(for: .mpeg4).path, "--scrubs", "1", "--cycles", "0", "--player-cycles", "1000"])
    // Then descriptors and threads are back to their counts and memory stayed within its bound (the driver fails
    // with a message when not)
    #expect(result.succeeded, "\(result.stdout)\(result.stderr)")
    // (a sanitized build runs 100 of each, see VPKLeakCheck)
    #expect(result.stdout.contains("00 player open/close cycles"), "\(result.stdout)")
    #expect(result.stdout.contains("00 players dropped"), "\(result.stdout)")
  }

}

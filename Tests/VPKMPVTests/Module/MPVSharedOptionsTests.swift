import Testing
import VPKTestSupport

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The session's stored mpv properties: a file's own values, set once as it starts loading and given back as it goes,
/// and the clients' names.
@MainActor
@Suite("mpv shared options")
struct MPVSharedOptionsTests {
  private let sender = CommandSender(view: .primary, number: 4)

  @Test("a file's own values are set once as its file starts loading, whoever asks first, and given back as it goes")
  func fileOwnValues() {
    // Given the session's volume at 80, and a loadfile that gave volume=50 and mute=yes for its file
    let shared = MPVSharedOptions()
    shared.store(.number(80), as: .volume)
    shared.register([.volume: .number(50), .mute: .bool(true)], for: sender)
    // When its file starts loading, told by the listener and by two presenters
    let origin = CommandOrigin(id: 9, sender: sender)
    shared.present(.loading(path: "/media/b.mp4", paused: true), origin: origin)
    shared.fileStarting(origin)
    shared.fileStarting(origin)
    // Then the file's values hold, set once
    #expect(shared.values.value(of: .volume) == .number(50) && shared.values.value(of: .mute) == .bool(true))
    // When a value is set for the file, and the file goes
    shared.store(.number(30), as: .volume)
    shared.present(.closed(nextPaused: true), origin: nil)
    // Then the values before the file are back, whatever was set meanwhile; a second give-back changes nothing
    #expect(shared.values.value(of: .volume) == .number(80) && shared.values.value(of: .mute) == .bool(false))
    #expect(!shared.restoreBeforeThisFile())
  }

  @Test("the next file's loading gives back the last file's values first, then sets its own; a failure gives them back")
  func nextFileAndFailure() {
    // Given a file loaded with volume=50 of its own
    let shared = MPVSharedOptions()
    shared.register([.volume: .number(50)], for: sender)
    shared.present(.loading(path: "/media/b.mp4", paused: true), origin: CommandOrigin(id: 9, sender: sender))
    // When another file, with mute=yes of its own, replaces it
    let next = CommandSender(view: .primary, number: 5)
    shared.register([.mute: .bool(true)], for: next)
    shared.present(.loading(path: "/media/c.mp4", paused: true), origin: CommandOrigin(id: 10, sender: next))
    // Then the volume is the session's again and the mute the new file's
    #expect(shared.values.value(of: .volume) == .number(100) && shared.values.value(of: .mute) == .bool(true))
    // When that file fails to open (the session goes idle)
    shared.present(.state(.idle, position: .zero, duration: nil), origin: nil)
    // Then its mute is given back
    #expect(shared.values.value(of: .mute) == .bool(false))
  }

  @Test("a loadfile that never starts loading is forgotten: the next file keeps the session's values")
  func forgotten() {
    // Given a loadfile with volume=50 that was refused before its file started loading
    let shared = MPVSharedOptions()
    shared.register([.volume: .number(50)], for: sender)
    shared.forget(sender)
    // When a file from vpk's own dialect starts loading
    shared.present(.loading(path: "/media/c.mp4", paused: true), origin: CommandOrigin(id: 3, sender: nil))
    // Then it has the session's volume
    #expect(shared.values.value(of: .volume) == .number(100))
  }

  @Test("clients are named ipc_0, ipc_1 … in the order they connect, as mpv names them")
  func clientNames() {
    let shared = MPVSharedOptions()
    #expect(
      [shared.nextClientName(), shared.nextClientName(), shared.nextClientName()] == ["ipc_0", "ipc_1", "ipc_2"])
  }
}

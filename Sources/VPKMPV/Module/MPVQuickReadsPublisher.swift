// MPVQuickReadsPublisher: hands an mpv client's MPVQuickReads the readings its answers are made from, as they change
// on the main actor: nothing while a command of the client's is under way, and nothing in the middle of an event
// being presented.

import VideoPlaybackKit

@MainActor
final class MPVQuickReadsPublisher {
  private let quickReads: MPVQuickReads
  /// The readings to hand over now; nil while a command of the client's is under way (its reply must come first) or
  /// the client has not yet asked for the session's file.
  var current: () -> MPVReadings? = { nil }
  /// True while changes are made that `quickReads` need not be told of.
  private var held = false
  /// True while an event is presented: the readings are handed over once it is done.
  private var presenting = false
  /// Readings to hand over once the event being presented is done.
  private var owed = false

  init(_ quickReads: MPVQuickReads) {
    self.quickReads = quickReads
  }

  /// Makes `change` without telling `quickReads` of it.
  func holding(_ change: () -> Void) {
    held = true
    change()
    held = false
  }

  /// Presents an event (`present`), then hands over the readings it left, if they changed.
  func presenting(_ present: () -> Void) {
    presenting = true
    defer {
      presenting = false
      if owed {
        owed = false
        publish()
      }
    }
    present()
  }

  /// Hands `quickReads` the readings now (see `current`). Nothing is handed over at once, but readings wait until the
  /// event being presented has shown all its lines: an answer on the socket's thread then comes after them (a seek
  /// sent as `playback-restart` arrives is answered after the `property-change` that follows it).
  func publish() {
    guard !held else { return }
    let readings = current()
    if readings != nil && presenting {
      owed = true
      return
    }
    quickReads.publish(readings)
  }
}

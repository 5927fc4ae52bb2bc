// EngineMailbox: the commands posted to the engine thread, in order. It lives in LockedMailbox, under the condition
// the thread sleeps on, so posting a message wakes it. The thread takes them all at once between units of work,
// and a running seek looks in it between packets for what would end it.

import VideoPlaybackKit

struct EngineMailbox {
  enum Message {
    /// Plays; the clock starts now, or from `continuingFrom` (see `PlaybackEngine.clockStart`).
    case play(continuingFrom: Double?)
    case pause
    case seek(SeekRequest, requestedAt: UInt64)
    case step(StepRequest)
    case rate(Double)
    case wait(PlaybackWait)
    /// Stop this wait if it is the one running, reporting nothing.
    case cancelWait(Int)
    /// Back to the start, paused at rate 1, and `ready` told again (`PlaybackEngine.tellReady`).
    case reopen(requestedAt: UInt64)
    case shutdown
  }

  /// What ends a running seek.
  enum Interruption: Equatable {
    case none
    /// A newer seek, by the newest one's id.
    case newerSeek(Int)
    case shutdown
  }

  private var messages: [Message] = []

  var isEmpty: Bool { messages.isEmpty }

  mutating func post(_ message: Message) { messages.append(message) }

  /// Every message, oldest first; the mailbox is left empty.
  mutating func takeAll() -> [Message] {
    let taken = messages
    messages.removeAll(keepingCapacity: true)
    return taken
  }

  /// Puts messages taken but not yet applied back in front of any posted since.
  mutating func putBack(_ taken: some Collection<Message>) { messages.insert(contentsOf: taken, at: 0) }

  /// Whether the mailbox holds something that ends a running seek. It stays in the mailbox.
  func interruption() -> Interruption {
    if messages.contains(where: { if case .shutdown = $0 { true } else { false } }) { return .shutdown }
    for message in messages.reversed() {
      if case .seek(let request, _) = message { return .newerSeek(request.id) }
    }
    return .none
  }
}

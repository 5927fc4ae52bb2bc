// InteractorSpy: a stand-in for the interactor that records what a presenter submits, with the sender of each.

import VideoPlaybackKit

/// Records what a presenter asks of the interactor (the text, JSON and mpv presenters' tests share it).
@MainActor
package final class InteractorSpy: PlaybackInteractorInput {
  package enum Call: Equatable {
    case start
    case submit(Command)
    case submitInvalid(PlaybackError)
    case inputEnded
    case terminate(TerminationSignal)
    case outputClosed
    case withdraw(Int)
  }

  package init() {}

  package var calls: [Call] = []
  /// The source line each submission carried, in order.
  package var sources: [SourceLine?] = []
  /// The sender each submission named, by the id it was given.
  package var senders: [Int: CommandSender] = [:]
  /// The id the last submission was given.
  package private(set) var lastID = 0

  /// The origin of command `id` as the interactor would give it: with its sender, when it was submitted here.
  package func origin(_ id: Int) -> CommandOrigin { CommandOrigin(id: id, sender: senders[id]) }

  package func start() { calls.append(.start) }
  package func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int {
    calls.append(.submit(command))
    sources.append(source)
    lastID += 1
    senders[lastID] = sender
    return lastID
  }
  package func submitInvalid(_ error: PlaybackError, source: SourceLine?, from sender: CommandSender?) -> Int {
    calls.append(.submitInvalid(error))
    sources.append(source)
    lastID += 1
    senders[lastID] = sender
    return lastID
  }
  package func withdraw(_ id: Int) { calls.append(.withdraw(id)) }
  package func inputEnded() { calls.append(.inputEnded) }
  package func terminate(_ signal: TerminationSignal) { calls.append(.terminate(signal)) }
  package func outputClosed() { calls.append(.outputClosed) }
  package func suspend() {}
  package func resumeAfterSuspend() {}
  /// What `currentStatus()` answers.
  package var status = PlaybackStatus(
    state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)
  package func currentStatus() -> PlaybackStatus { status }
}

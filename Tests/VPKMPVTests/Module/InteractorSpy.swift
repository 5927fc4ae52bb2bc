import VideoPlaybackKit

/// Records what the mpv presenter asks of the interactor (as VideoPlaybackKitTests' spy of the same name does).
@MainActor
final class InteractorSpy: PlaybackInteractorInput {
  enum Call: Equatable {
    case start
    case submit(Command)
    case submitInvalid(PlaybackError)
    case inputEnded
    case terminate(TerminationSignal)
    case outputClosed
  }

  var calls: [Call] = []
  /// The source line each submission carried, in order.
  var sources: [SourceLine?] = []
  /// The sender each submission named, by the id it was given.
  var senders: [Int: CommandSender] = [:]
  /// The id the last submission was given.
  private(set) var lastID = 0

  /// The origin of command `id` as the interactor would give it: with its sender, when it was submitted here.
  func origin(_ id: Int) -> CommandOrigin { CommandOrigin(id: id, sender: senders[id]) }

  func start() { calls.append(.start) }
  func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int {
    calls.append(.submit(command))
    sources.append(source)
    lastID += 1
    senders[lastID] = sender
    return lastID
  }
  func submitInvalid(_ error: PlaybackError, source: SourceLine?, from sender: CommandSender?) -> Int {
    calls.append(.submitInvalid(error))
    sources.append(source)
    lastID += 1
    senders[lastID] = sender
    return lastID
  }
  func inputEnded() { calls.append(.inputEnded) }
  func terminate(_ signal: TerminationSignal) { calls.append(.terminate(signal)) }
  func outputClosed() { calls.append(.outputClosed) }
  func suspend() {}
  func resumeAfterSuspend() {}
}

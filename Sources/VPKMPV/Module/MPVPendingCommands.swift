// MPVPendingCommands: the module's commands an mpv client has submitted, and what each still owes the client (a
// reply, a read's answer, an observer's first value …) until the session reports its outcome. It also holds back the
// requests that come while an `add` or `cycle` waits for the value it changes.

import VideoPlaybackKit

@MainActor
final class MPVPendingCommands {
  typealias Ticket = MPVReplyQueue.Ticket

  /// What a command of this client's still owes it, by the session's command id.
  enum Pending {
    /// A reply once the command's outcome is reported: with `data: null` (mpv's commands) or without (`set_property`).
    case reply(Ticket, withData: Bool)
    /// `get_property`, answered from a `status`.
    case get(Ticket, MPVProperty, asString: Bool, path: String?)
    /// `add` / `cycle`, which need the value now: a `status` first, then the command that sets it (nil: a text line,
    /// unanswered).
    case adjust(Ticket?, MPVProperty, by: Double?)
    /// A command that changes nothing at the end of a file kept open, sent while this client's commands before it are
    /// under way: a `status` first, then the command unless the session is at the end; what it owes either way.
    indirect case unlessEnded(Command, then: Pending)
    /// `observe_property`: its first `property-change` is the value now, from a `status`.
    case observe(Ticket, id: Int, MPVProperty, path: String?, asString: Bool)
    /// `loadfile` (mpv's number for the file; nil: the entry that starts loading), answered at once; a failure to
    /// open is reported as `end-file` with reason `error`.
    case load(Int?)
    /// A queue command whose listing (the queue as it left it) the readings take, answering nothing.
    case listing
    /// `playlist-next`, `playlist-prev`, `playlist-play-index` (`next`, `prev`, `goto`): answered as its entry starts
    /// loading, which makes it a `load`; with no entry to go to, refused, or (`force`) playback stops.
    case playlistGo(Ticket?, force: Bool, withData: Bool = true)
    /// A `queue insert` of this client's: as `listing`, and its entry is no longer one the queue has not listed.
    case added
    /// A command run without a reply (a text line).
    case silent
    /// The `info` asked for before this client's first command: the file the session had before it connected.
    case learn

    /// Whether a reply owed carries `data` (mpv's commands) or not (`set_property`).
    var withData: Bool {
      if case .reply(_, let withData) = self { withData } else { true }
    }
  }

  private let interactor: any PlaybackInteractorInput
  private let replies: MPVReplyQueue
  /// This client's view, named as the sender of the commands it submits.
  private let viewID: ViewID
  /// How many commands this client has submitted: `pending` and the readings' seeks know them by this ordinal.
  private var ownCommandCount = 0
  /// What each command of this client's still owes it, by the command's ordinal among this client's.
  private(set) var pending: [Int: Pending] = [:] { didSet { changed() } }
  /// Whether an `add` or `cycle` of this client's waits for the value it changes.
  private(set) var adjusting = false
  /// What came while an `add` or `cycle` waited for the value it changes: run once its change is submitted,
  /// so they follow it as they follow it in mpv (a read right behind `add speed 0.25` says the new speed).
  private var deferred: [() -> Void] = []
  /// Called as `pending` changes.
  var changed: () -> Void = {}

  init(interactor: any PlaybackInteractorInput, viewID: ViewID, replies: MPVReplyQueue) {
    self.interactor = interactor
    self.viewID = viewID
    self.replies = replies
  }

  /// The ordinal the next command submitted gets.
  var nextNumber: Int { ownCommandCount + 1 }

  /// The sender the next command submitted is known by.
  var nextSender: CommandSender { CommandSender(view: viewID, number: nextNumber) }

  /// The sender of this client's command `number`.
  func sender(_ number: Int) -> CommandSender { CommandSender(view: viewID, number: number) }

  /// Whether nothing of this client's under way can move playback: only reads of the session (`get_property`, an
  /// observer's first value, the session's file) and the queue's listings and insertions.
  var onlyReadsPending: Bool {
    pending.values.allSatisfy {
      switch $0 {
      case .get, .observe, .learn, .listing, .added: true
      case .reply, .adjust, .unlessEnded, .load, .playlistGo, .silent: false
      }
    }
  }

  /// Whether nothing of this client's is under way but loads (answered already) and the queue's listings.
  var onlyLoadsPending: Bool {
    pending.values.allSatisfy {
      switch $0 {
      case .load, .listing, .added: true
      default: false
      }
    }
  }

  /// Whether nothing of this client's is under way but `queue` commands whose listings the readings take (none
  /// answers the client).
  var onlyListingsPending: Bool {
    pending.values.allSatisfy {
      switch $0 {
      case .listing, .added: true
      default: false
      }
    }
  }

  /// Submits `command`, noting what it owes first: some commands are answered within `submit`.
  func submit(_ command: Command, _ owed: Pending) {
    ownCommandCount += 1
    pending[ownCommandCount] = owed
    interactor.submit(command, source: nil, from: CommandSender(view: viewID, number: ownCommandCount))
  }

  /// What command `commandID` owes, which it no longer owes; nil when it is not this client's or owes nothing.
  @discardableResult
  func take(_ commandID: Int?) -> Pending? {
    guard let commandID else { return nil }
    return pending.removeValue(forKey: commandID)
  }

  /// Command `commandID` now owes `owed` instead.
  func replace(_ commandID: Int, with owed: Pending) {
    pending[commandID] = owed
  }

  /// Answers command `commandID` if it is this client's and owes a plain reply.
  func settle(_ commandID: Int?, _ error: MPVError = .success) {
    guard let commandID, let owed = pending.removeValue(forKey: commandID) else { return }
    if case .reply(let ticket, let withData) = owed {
      replies.reply(ticket, error, data: withData && error == .success ? .null : nil)
    }
  }

  /// An `add` or `cycle` waits for the value it changes: the requests that follow wait for it.
  func startAdjusting() {
    adjusting = true
  }

  /// Runs `work` once the `add` or `cycle` under way has submitted its change.
  func runLater(_ work: @escaping () -> Void) {
    deferred.append(work)
  }

  /// Runs the requests that waited for an `add` or `cycle`, up to the next of them.
  func runDeferred() {
    adjusting = false
    var waiting = deferred[...]
    deferred = []
    while !adjusting, let next = waiting.popFirst() { next() }
    deferred.append(contentsOf: waiting)
  }
}

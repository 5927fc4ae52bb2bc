// Player+Queue: the session's queue through the Player, as typed calls: each sends the command `vpk play` takes
// (`queue`, `queue add`, `next`, `prev`, `goto N`) as a value and returns the payload of its answer. The queue's rules
// (which entry plays, what an edit does) stay in the interactor.

extension Player {
  /// The queue: its entries (id, path, title) in the order they play, and which one is current.
  public func queue() async throws -> QueueListing {
    try await listing(.list)
  }

  /// Adds `path` at the end of the queue; returns the queue as it leaves it. Once the queue has been edited, each
  /// entry that starts is told in `events` as `.entry`.
  @discardableResult
  public func add(_ path: String) async throws -> QueueListing {
    try await listing(.add(path))
  }

  /// Plays the queue's next entry (the first again after the last when it loops); returns once it is ready. Throws
  /// `queue_end` after the last entry, `queue_empty` when there is none.
  @discardableResult
  public func next() async throws -> MediaInfo {
    try await entry(.next)
  }

  /// Plays the queue's previous entry; returns once it is ready. Throws `queue_end` before the first.
  @discardableResult
  public func previous() async throws -> MediaInfo {
    try await entry(.previous)
  }

  /// Plays the queue's entry numbered `number` (1-based, as `queue()` lists them); returns once it is ready. Throws
  /// `no_such_entry` outside the list.
  @discardableResult
  public func go(to number: Int) async throws -> MediaInfo {
    try await entry(.goto(number))
  }

  /// Makes `paths` the queue, in this order, and plays the first; returns once it is ready. When it ends (or fails to
  /// open), the next one plays, as `vpk play A B C` does. The queue's edits answer in `events` as `queue` events.
  @discardableResult
  public func open(_ paths: [String]) async throws -> MediaInfo {
    _ = try await listing(.clear)
    for path in paths { _ = try await listing(.add(path)) }
    return try await entry(.goto(1))
  }

  private func listing(_ edit: QueueEdit) async throws -> QueueListing {
    guard case .queue(let listing) = try await call(.queue(edit)) else { throw PlayerClosed() }
    return listing
  }

  private func entry(_ command: Command) async throws -> MediaInfo {
    guard case .ready(let info, _, _) = try await call(command) else { throw PlayerClosed() }
    return info
  }
}

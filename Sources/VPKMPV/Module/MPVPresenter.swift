// MPVPresenter: the presenter of a control-socket client that speaks mpv's JSON IPC. It turns the client's mpv
// commands (read by MPVCommandTranslator) into the module's commands, submitted through its fan-out port like any
// view's, and formats what the interactor reports as mpv's replies (`{"request_id": N, "error": "success", "data": …}`)
// and events (`start-file`, `file-loaded`, `seek`, `playback-restart`, `end-file`, `idle`,
// `property-change`). Lines the client sent together (one read of its connection) are all answered before the events
// they cause go out, as mpv answers them.
//
// It decides nothing about playback, and does little itself: it hands each line and each of the session's events to
// the parts that deal with them. MPVCommandSubmitter carries out the requests, MPVPendingCommands keeps what each
// command still owes, MPVReadingsMirror keeps the readings (MPVReadings) from the session's events, MPVObserverNotifier
// tells the observers, MPVReplyQueue orders what is written, and MPVQuickReadsPublisher hands the readings to
// MPVQuickReads, which answers reads on the socket's thread. Property values are read from the readings by the
// property's entry in MPVPropertyTable.

import Dispatch
import VideoPlaybackKit

@MainActor
package final class MPVPresenter: PlaybackViewEventHandler, PlaybackInteractorOutput {
  private let interactor: any PlaybackInteractorInput
  private let translator: MPVCommandTranslator
  /// This client's view, named as the sender of the commands it submits.
  private let viewID: ViewID
  private let sharedOptions: MPVSharedOptions
  private let replies: MPVReplyQueue
  private let commands: MPVPendingCommands
  private let mirror: MPVReadingsMirror
  private let submitter: MPVCommandSubmitter
  private let publisher: MPVQuickReadsPublisher
  /// Answers this client's property reads off the main actor while nothing of the client's is under way.
  package nonisolated let quickReads: MPVQuickReads

  /// The view: a back-reference, held weakly (the client's handle owns it), set once by the Builder.
  package var view: (any MPVView)? {
    get { replies.view }
    set { replies.view = newValue }
  }

  /// Whether a request of this client's still owes it a reply.
  package var owesReplies: Bool { replies.owesReplies }

  /// - Parameters:
  ///   - statusBoard: the interactor's status, readable from any thread; with it, `quickReads` answers `get_property`
  ///     on the socket's event loop (nil: every read goes through the interactor).
  ///   - startsPlaying: whether the session plays the first file it loads (its options' autoplay).
  ///   - hrSeek: mpv's `--hr-seek`: which seeks are exact when the command names no precision.
  ///   - sharedOptions: the stored properties shared with the session's other mpv clients (nil: a set of its own).
  ///   - clockMicroseconds: what `get_time_us` answers (the host's monotonic clock).
  package init(
    interactor: any PlaybackInteractorInput, clientName: String, viewID: ViewID,
    translator: MPVCommandTranslator = .init(), statusBoard: PlaybackStatusBoard? = nil, startsPlaying: Bool = false,
    hrSeek: MPVHRSeek = .default, sharedOptions: MPVSharedOptions? = nil,
    clockMicroseconds: @escaping @Sendable () -> Int = { Int(DispatchTime.now().uptimeNanoseconds / 1000) }
  ) {
    let sharedOptions = sharedOptions ?? MPVSharedOptions()
    let quickReads = MPVQuickReads(statusBoard: statusBoard, translator: translator)
    let replies = MPVReplyQueue()
    let observers = MPVObserverNotifier(replies: replies)
    let commands = MPVPendingCommands(interactor: interactor, viewID: viewID, replies: replies)
    let publisher = MPVQuickReadsPublisher(quickReads)
    let mirror = MPVReadingsMirror(
      replies: replies, observers: observers, commands: commands, publisher: publisher, sharedOptions: sharedOptions,
      statusBoard: statusBoard, startsPlaying: startsPlaying)
    let submitter = MPVCommandSubmitter(
      replies: replies, observers: observers, commands: commands, mirror: mirror, publisher: publisher,
      quickReads: quickReads, sharedOptions: sharedOptions, hrSeek: hrSeek, clientName: clientName,
      clockMicroseconds: clockMicroseconds)
    // The quick reads are handed the readings while nothing of the client's is under way and it has asked for the
    // session's file, each time the readings, the commands under way or that question change.
    publisher.current = { [unowned mirror, unowned commands, unowned submitter] in
      commands.onlyListingsPending && submitter.askedForFile ? mirror.readings : nil
    }
    commands.changed = { [unowned publisher] in publisher.publish() }
    self.interactor = interactor
    self.translator = translator
    self.viewID = viewID
    self.sharedOptions = sharedOptions
    self.replies = replies
    self.commands = commands
    self.mirror = mirror
    self.submitter = submitter
    self.publisher = publisher
    self.quickReads = quickReads
    sharedOptions.add(self)
  }

  /// Another client's `stop` (or this one's) cleared the playlist's kept entry: its observers are not told, as mpv's
  /// are not.
  func keptEntryCleared() {
    mirror.keptEntryCleared()
  }

  /// The stored properties changed (this client or another set one): observers are told.
  func storedOptionsChanged(_ values: MPVStoredOptions) {
    mirror.storedOptionsChanged(values)
  }

  // MARK: - PlaybackViewEventHandler

  package func onStart() {
    interactor.start()
  }

  package func onInputLine(_ line: InputLine) {
    switch line {
    case .text(let text):
      // Taken for this line whatever it turns out to be, so it can never pass to the next.
      let answeredSeek = quickReads.takeAnsweredSeek()
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return }
      for request in translator.read(text) { submitter.run(request, answeredSeek: answeredSeek) }
    case .tooLong, .invalidUTF8:
      submitter.rejectLine { [unowned self] in onInputLine(line) }
    }
  }

  package func onInputEnded() {
    interactor.inputEnded()
  }

  package func onSignal(_ signal: TerminationSignal) {
    interactor.terminate(signal)
  }

  package func onOutputClosed() {
    interactor.outputClosed()
  }

  /// The lines that follow came in one read of the client's connection, sent together.
  package func linesTogetherStarted() {
    replies.linesTogetherStarted()
  }

  /// The lines sent together have all come: the events they caused follow their replies.
  package func linesTogetherEnded() {
    replies.linesTogetherEnded()
  }

  /// Asks for the session's file, once: a client that connects to a session with its file open saw no `ready`, and
  /// `info` tells it the file. The Builder calls this as the client is attached; its first request does otherwise.
  package func learnSessionFile() {
    submitter.learnSessionFile()
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    publisher.presenting { dispatch(event, origin: origin) }
  }

  /// An entry of the queue starts loading (its `loading` follows): its file is numbered with the entry's id. A `next`,
  /// `prev` or `goto` of this client's is answered as its entry starts. When the listing the readings hold does not
  /// have the entry where it is, the queue is listed again.
  func entryStarted(_ entry: EntryStarted, origin: CommandOrigin?) {
    if !mirror.entryStarted(entry) { commands.submit(.queue(.list), .listing) }
    submitter.entryStarting(mine(origin))
  }

  /// The queue as a `queue` command left it: this client's command is answered, and the playlist's readings (this
  /// client's and the session's other mpv clients') take it.
  func queueChanged(_ listing: QueueListing, origin: CommandOrigin?) {
    submitter.queueChanged(listing, mine(origin))
    sharedOptions.queueChanged(listing, by: self)
  }

  /// Another mpv client's `queue` command left the queue so.
  func othersQueueChanged(_ listing: QueueListing) {
    publisher.presenting { mirror.queueChanged(listing, added: false) }
  }

  /// The ordinal of this client's command that `origin` names; nil for another view's, or none.
  private func mine(_ origin: CommandOrigin?) -> Int? {
    origin?.sender.flatMap { $0.view == viewID ? $0.number : nil }
  }

  /// Hands `event` to the part that deals with it.
  private func dispatch(_ event: SessionEvent, origin: CommandOrigin?) {
    // This client's own commands are known by their ordinal; another view's cause only the shared changes.
    let mine = mine(origin)
    switch event {
    case .loading(let path, let paused):
      submitter.entryStarting(mine)
      mirror.loading(path, paused: paused, origin: origin)
    case .ready(let info, let position, let start):
      mirror.ready(info, position: start ?? position, seeks: start != nil, mine)
    case .state(let state, let position, let duration):
      mirror.changed(state, position: position, duration: duration, mine)
    case .progress(let mark): mirror.progress(mark)
    case .seekStarted(let start):
      if let mine {
        mirror.ownSeekStarted(start, mine)
      } else if let origin {
        mirror.othersSeekStarted(start, id: origin.id)
      }
    case .seeked(let outcome):
      mirror.seeked(
        outcome.result.position, duration: outcome.duration, mine,
        othersSeek: mirror.landedOthersSeek(origin, mine))
    case .superseded: mirror.superseded(mine)
    case .stepped(let result, let duration):
      mirror.stepped(
        result.position, duration: duration, mine, othersStep: mirror.landedOthersSeek(origin, mine),
        forward: result.requested > 0, moved: result.moved != 0)
    case .rate(let rate): mirror.rateChanged(rate, mine)
    case .next(let paused): mirror.nextChanged(paused: paused, mine)
    case .ended(let end): mirror.ended(end)
    case .error(let error): submitter.failed(error, mine)
    case .status(let status): submitter.answer(status, mine)
    case .info(let info): mirror.learned(info, mine)
    case .frame, .mark, .snapshot, .help, .waited, .expectation: commands.take(mine)
    // Closed by no command: the file ended, with `--at-end idle` (mpv's `--idle`).
    case .closed(let nextPaused):
      mirror.closed(
        mine, atEnd: origin == nil, keepsEntry: sharedOptions.keepsEntry(closedBy: origin), nextPaused: nextPaused)
    // The mpv dialect shows no playlist: an entry that starts tells its clients nothing beyond its file's own events,
    // and none of its commands asks for the `queue` listing.
    case .entry(let entry): entryStarted(entry, origin: origin)
    case .expanded(let list, let firstID, let count): mirror.listRead(list, firstID: firstID, count: count)
    case .queue(let listing): queueChanged(listing, origin: origin)
    case .shutdown(let shutdown): mirror.shutDown(shutdown.reason, mine)
    }
  }
}

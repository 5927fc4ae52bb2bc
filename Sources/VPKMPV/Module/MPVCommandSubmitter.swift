// MPVCommandSubmitter: carries out an mpv client's requests (read by MPVCommandTranslator): mpv's commands become the
// module's, submitted through the client's fan-out port like any view's; the IPC's own (reads, observers, the
// client's name …) are answered from the readings. It answers what the session reports of them: a command's failure,
// and the `status` a read, an observer's first value, an `add` or a `cycle` waited for.

import VideoPlaybackKit

@MainActor
final class MPVCommandSubmitter {
  typealias Ticket = MPVReplyQueue.Ticket
  typealias Pending = MPVPendingCommands.Pending

  let replies: MPVReplyQueue
  let observers: MPVObserverNotifier
  let commands: MPVPendingCommands
  let mirror: MPVReadingsMirror
  private let publisher: MPVQuickReadsPublisher
  private let quickReads: MPVQuickReads
  let sharedOptions: MPVSharedOptions
  /// `--hr-seek`: the precision of seeks that name none.
  private let hrSeek: MPVHRSeek
  /// What `client_name` answers.
  private let clientName: String
  /// What `get_time_us` answers: a monotonic clock in microseconds.
  private let clockMicroseconds: @Sendable () -> Int
  /// Whether the session's file (opened before this client connected) has been asked for.
  private(set) var askedForFile = false { didSet { publisher.publish() } }

  init(
    replies: MPVReplyQueue, observers: MPVObserverNotifier, commands: MPVPendingCommands, mirror: MPVReadingsMirror,
    publisher: MPVQuickReadsPublisher, quickReads: MPVQuickReads, sharedOptions: MPVSharedOptions, hrSeek: MPVHRSeek,
    clientName: String, clockMicroseconds: @escaping @Sendable () -> Int
  ) {
    self.replies = replies
    self.observers = observers
    self.commands = commands
    self.mirror = mirror
    self.publisher = publisher
    self.quickReads = quickReads
    self.sharedOptions = sharedOptions
    self.hrSeek = hrSeek
    self.clientName = clientName
    self.clockMicroseconds = clockMicroseconds
  }

  var readings: MPVReadings { mirror.readings }

  /// Asks for the session's file, once: a client that connects to a session with its file open saw no `ready`, and
  /// `info` tells it the file.
  func learnSessionFile() {
    guard !askedForFile else { return }
    askedForFile = true
    // The session's queue, as mpv's playlist, then its file.
    commands.submit(.queue(.list), .listing)
    commands.submit(.info, .learn)
  }

  /// A line too long, or not UTF-8: mpv's invalid parameter.
  func rejectLine(_ retry: @escaping () -> Void) {
    guard !commands.adjusting else { return commands.runLater(retry) }
    replies.reply(replies.takeTicket(.integer(0)), .invalidParameter)
  }

  /// `answeredSeek`: the line is a seek the socket's thread answered as it arrived (`quickReads`).
  func run(_ request: MPVRequest, answeredSeek: Bool = false) {
    guard !commands.adjusting else {
      return commands.runLater { [unowned self] in run(request, answeredSeek: answeredSeek) }
    }
    // A seek answered as it arrived: carried out, not answered again.
    if answeredSeek, case .success(.seek(let target, let reference, let mode)) = request.command {
      return seek(target, reference, mode, pending: .silent, announced: true)
    }
    learnSessionFile()
    // A text line runs like its JSON form, unanswered.
    let ticket =
      request.wantsReply ? replies.takeTicket(request.requestID, isAsync: request.repliesAsynchronously) : nil
    let command: MPVCommand
    switch request.command {
    case .failure(let failure):
      if let ticket { replies.reply(ticket, failure.error) }
      return
    case .success(let success): command = success
    }
    let answer: (Bool) -> Pending = { withData in ticket.map { .reply($0, withData: withData) } ?? .silent }
    switch command {
    case .loadFile(let path, let options, let mode):
      loadFile(path, options, mode, ticket: ticket)
    case .loadList(let path, let mode):
      loadList(path, mode, ticket: ticket)
    case .playlistNext(let force), .playlistPrev(let force):
      let next = if case .playlistNext = command { true } else { false }
      commands.submit(next ? .next : .previous, .playlistGo(ticket, force: force))
    case .playlistPlayIndex(let index):
      playIndex(index, ticket: ticket)
    case .playlistClear, .playlistRemove, .playlistMove, .playlistShuffle, .playlistUnshuffle:
      editPlaylist(command, ticket: ticket)
    case .stop(let keepPlaylist):
      guard mirror.hasFile else {
        // Nothing loaded: mpv stops nothing, and says so with success. A plain `stop` clears the playlist (an entry
        // it kept, for every client, untold to the observers).
        if !keepPlaylist {
          sharedOptions.clearKeptEntry()
          commands.submit(.queue(.clear), .listing)
        }
        if let ticket { replies.reply(ticket, .success, data: .null) }
        return
      }
      // mpv's `stop` empties the playlist; `keep-playlist` keeps it.
      if !keepPlaylist { commands.submit(.queue(.clear), .listing) }
      if keepPlaylist { sharedOptions.keepPlaylistStop = commands.nextSender }
      commands.submit(.close, answer(true))
    case .seek(let target, let reference, let mode):
      seek(target, reference, mode, pending: answer(true))
    case .frameStep: commands.submit(.step(1), answer(true))
    case .frameBackStep: commands.submit(.step(-1), answer(true))
    case .setProperty(let property, let value, let byCommand):
      set(property, to: value, pending: answer(byCommand))
    case .add(let property, let delta):
      commands.startAdjusting()
      commands.submit(.status, .adjust(ticket, property, by: delta))
    case .cycle(let property):
      commands.startAdjusting()
      commands.submit(.status, .adjust(ticket, property, by: nil))
    case .quit: commands.submit(.quit, answer(true))
    default:
      // The IPC's own commands come on JSON lines only, each with its ticket.
      if let ticket { runIPCCommand(command, ticket: ticket) }
    }
  }

  /// The IPC's own commands: reads, observers, the client's name and the version.
  private func runIPCCommand(_ command: MPVCommand, ticket: Ticket) {
    switch command {
    case .getProperty(let property, let asString):
      // Answered here and now when the value needs no status, or while a file opens; else from the status (see
      // MPVQuickReads for the reads answered on the socket's thread instead).
      if property.spec.isConstant || readsWhileOpening {
        replies.deliver(ticket, [readings.replyToRead(property, asString: asString, requestID: ticket.requestID)])
      } else {
        commands.submit(.status, .get(ticket, property, asString: asString, path: nil))
      }
    case .observe(let observerID, let property, let asString):
      if readsWhileOpening {
        startObserving(ticket, id: observerID, property, path: nil, asString: asString)
      } else {
        commands.submit(.status, .observe(ticket, id: observerID, property, path: nil, asString: asString))
      }
    case .subProperty(let property, let path, let asString, let observerID):
      if let observerID, readsWhileOpening {
        startObserving(ticket, id: observerID, property, path: path, asString: asString)
      } else if let observerID {
        commands.submit(.status, .observe(ticket, id: observerID, property, path: path, asString: asString))
      } else if property.spec.isConstant || readsWhileOpening {
        replies.deliver(
          ticket, [readings.replyToRead(property, path: path, asString: asString, requestID: ticket.requestID)])
      } else {
        commands.submit(.status, .get(ticket, property, asString: asString, path: path))
      }
    case .getUnknownString:
      replies.reply(ticket, .success, data: .null)
    case .observeUnknown(let observerID, let name):
      observers.observeUnknown(ticket, id: observerID, name: name)
    case .unobserve(let observerID):
      observers.unobserve(id: observerID)
      replies.reply(ticket, .success)
    case .clientName: replies.reply(ticket, .success, data: .string(clientName))
    case .getVersion: replies.reply(ticket, .success, data: .integer(MPVCommandTranslator.clientAPIVersion))
    case .requestEvent(let name, let enabled):
      let names: Set<String> = name == "all" ? MPVCommandTranslator.eventNames.subtracting(["shutdown"]) : [name]
      replies.setEvents(names, enabled: enabled)
      quickReads.sendsSeekEvent = replies.sends("seek")
      replies.reply(ticket, .success)
    case .requestLogMessages: replies.reply(ticket, .success)
    case .getTimeMicroseconds: replies.reply(ticket, .success, data: .integer(clockMicroseconds()))
    case .drawOnly(let data): replies.reply(ticket, .success, data: data)
    default: break
    }
  }

  /// Adds an observer told its value now, from the readings (after a `status`, or while a file opens).
  private func startObserving(_ ticket: Ticket, id: Int, _ property: MPVProperty, path: String?, asString: Bool) {
    observers.startObserving(ticket, id: id, property, path: path, asString: asString, readings: readings)
  }

  /// While a file opens, with nothing of this client's under way but loads (answered already), a read is answered
  /// from the readings at once, as mpv answers it then (the file's `path` and `filename`, `duration` and `time-pos`
  /// unavailable …): a `status` would wait for the open to end, which a slow source can make long.
  private var readsWhileOpening: Bool {
    guard readings.loadingPath != nil, readings.info == nil, !commands.adjusting else { return false }
    return commands.onlyLoadsPending
  }

  /// `precisionAs`: the reference whose precision the seek takes, when not its own (a property's `add`).
  private func seek(
    _ target: Double, _ reference: MPVSeekReference, _ mode: SeekMode?, precisionAs: MPVSeekReference? = nil,
    pending owed: Pending, announced: Bool = false
  ) {
    var owed = owed
    var announces = false
    if announced {
      // Its reply and `seek` were written by `quickReads`; with the file gone since, it lands unannounced.
      announces = readings.info != nil
    } else if readings.info != nil {
      // With a file loaded, mpv answers a seek as soon as it is queued and sends `seek` as it starts;
      // `playback-restart` follows when it lands. (Without one, mpv refuses it; vpk runs it once a file loads.)
      let seekEvent = replies.sends("seek") ? [MPVValue.object([MPVMember("event", .string("seek"))])] : []
      if case .reply(let ticket, let withData) = owed {
        replies.deliver(ticket, [ticket.reply(.success, data: withData ? .null : nil)] + seekEvent)
        owed = .silent
      } else {
        for event in seekEvent { replies.show(event) }
      }
      announces = true
    }
    // mpv's precision (see MPVHRSeek): by default exact for absolute seeks, keyframes for the others, the first one
    // at or after the target for a relative seek forward.
    let precision = hrSeek.mode(for: precisionAs ?? reference, amount: target, flag: mode)
    // mpv's `seek` command reads a negative absolute time from the end (`seek -3 absolute`); its setters do not.
    let fromEnd = reference == .absolute && target < 0 && precisionAs == nil
    let command: Command =
      switch reference {
      case .absolute where fromEnd: .scrub(.seconds(max(0, (readings.duration?.seconds ?? 0) + target)), precision)
      case .absolute: .scrub(.seconds(target), precision)
      case .absolutePercent: .scrub(.percent(target), precision)
      case .relative: .skip(target, precision)
      case .relativePercent: .skip((readings.duration?.seconds ?? 0) * target / 100, precision)
      }
    // The ordinal `submit` is about to give it; `seeking` is true from its `seek` until its `playback-restart`, and is
    // told with the target as the seek starts (`seekStarted`).
    mirror.seekSubmitted(commands.nextNumber, announced: announces)
    commands.submit(command, owed)
  }

  /// Sets `property` to `value` (accepted by its entry's `write`) as its entry says.
  private func set(_ property: MPVProperty, to value: MPVValue, pending owed: Pending) {
    guard let write = property.spec.write else {
      if case .reply(let ticket, _) = owed { replies.reply(ticket, .propertyAccess) }
      return
    }
    perform(write.change(value, readings), on: property, pending: owed)
  }

  private func perform(_ change: MPVPropertySpec.Change, on property: MPVProperty, pending owed: Pending) {
    switch change {
    case .submit(let command): commands.submit(command, owed)
    case .submitUnlessEnded(let command):
      if !commands.onlyReadsPending {
        // Where the session will stand once the commands before it have run is known from a `status` after them.
        commands.startAdjusting()
        commands.submit(.status, .unlessEnded(command, then: owed))
      } else if readings.state == .ended {
        answerUnchanged(owed)
      } else {
        commands.submit(command, owed)
      }
    case .seek(let target, let reference):
      // mpv's setters (`add` too) seek to a time (`time-pos`, `playback-time`) or a share (`percent-pos`): absolute.
      let absolute: MPVSeekReference =
        switch reference {
        case .relative, .absolute: .absolute
        case .relativePercent, .absolutePercent: .absolutePercent
        }
      seek(target, reference, nil, precisionAs: absolute, pending: owed)
    case .set(let value): set(property, to: value, pending: owed)
    case .store(let value), .storeAndSubmit(let value, _):
      // Answered at once, before observers hear of it, as mpv does.
      if case .reply(let ticket, let withData) = owed { replies.reply(ticket, .success, data: withData ? .null : nil) }
      sharedOptions.store(value, as: property)
      if case .storeAndSubmit(_, let command) = change { commands.submit(command, .silent) }
    case .playIndex(let index):
      // (`set_property` answers without data, the `set` command with null: the ticket says which.)
      var ticket: Ticket?
      if case .reply(let owedTicket, _) = owed { ticket = owedTicket }
      playIndex(index < 0 ? .none : .index(index), ticket: ticket, withData: owed.withData)
    }
  }

  /// A change that changes nothing: its reply, at once.
  private func answerUnchanged(_ owed: Pending) {
    if case .reply(let ticket, let withData) = owed { replies.reply(ticket, .success, data: withData ? .null : nil) }
  }

  /// `add` / `cycle` once the value now is known: what the property's entry says, as `set` would do it.
  private func adjust(_ property: MPVProperty, by delta: Double?, ticket: Ticket?) {
    let owed = ticket.map { Pending.reply($0, withData: true) } ?? .silent
    let spec = property.spec
    let fail = { if let ticket { self.replies.reply(ticket, .commandFailed) } }
    guard let current = readings.value(of: property) else { return fail() }
    if let delta, let add = spec.add {
      perform(add(current, delta), on: property, pending: owed)
    } else if delta == nil, let next = spec.cycle?(current) {
      set(property, to: next, pending: owed)
    } else {
      fail()
    }
  }

  // MARK: - What the session reports

  /// Command `commandID` of this client's failed: what it owed is answered with mpv's error for it.
  func failed(_ error: PlaybackError, _ commandID: Int?) {
    guard let commandID, let owed = commands.take(commandID) else { return }
    mirror.seekGone(commandID)
    switch owed {
    case .reply(let ticket, let withData):
      // A property set (`set_property`, no data) that cannot be served is mpv's unavailable property; a command's
      // failure is its command error.
      let unavailable = error.code == .notReady || error.code == .unavailable
      replies.reply(ticket, unavailable && !withData ? .propertyUnavailable : .commandFailed)
    case .get(let ticket, _, _, _): replies.reply(ticket, .propertyUnavailable)
    case .adjust(let ticket, _, _):
      if let ticket { replies.reply(ticket, .commandFailed) }
      commands.runDeferred()
    case .unlessEnded(_, let then):
      if case .reply(let ticket, _) = then { replies.reply(ticket, .commandFailed) }
      commands.runDeferred()
    case .observe(let ticket, _, _, _, _): replies.reply(ticket, .commandFailed)
    case .load(let entry):
      mirror.loadFailed(fileError: Self.fileError(error), entry: entry ?? mirror.fileNumber, commandID)
    case .playlistGo(let ticket, let force, let withData):
      playlistGoFailed(error, ticket: ticket, force: force, withData: withData)
    case .silent, .learn, .listing, .added: break
    }
  }

  /// A `status` came: into the readings, and to what command `commandID` of this client's asked for it.
  func answer(_ status: PlaybackStatus, _ commandID: Int?) {
    mirror.readings.read(status)
    guard let commandID, let owed = commands.pending[commandID] else { return }
    if case .unlessEnded(let command, let then) = owed {
      publisher.holding {
        commands.take(commandID)
        if status.state == .ended { answerUnchanged(then) } else { commands.submit(command, then) }
        commands.runDeferred()
      }
      return publisher.publish()
    }
    if case .adjust(let ticket, let property, let delta) = owed {
      // Its change, then the requests that came behind it, before any quick read is answered.
      publisher.holding {
        commands.take(commandID)
        adjust(property, by: delta, ticket: ticket)
        commands.runDeferred()
      }
      return publisher.publish()
    }
    commands.take(commandID)
    switch owed {
    case .get(let ticket, let property, let asString, let path):
      replies.deliver(
        ticket, [readings.replyToRead(property, path: path, asString: asString, requestID: ticket.requestID)])
    case .adjust, .unlessEnded:
      break
    case .observe(let ticket, let observerID, let property, let path, let asString):
      startObserving(ticket, id: observerID, property, path: path, asString: asString)
    case .reply, .load, .silent, .learn, .listing, .added, .playlistGo: break
    }
  }

  /// mpv's `file_error` for a file that could not be opened: its error string for the kind of failure.
  static func fileError(_ error: PlaybackError) -> String {
    switch error.code {
    case .notMedia: "unrecognized file format"
    case .noPlayableStream, .decoderUnavailable, .decodeError: "no audio or video data played"
    default: "loading failed"
    }
  }
}

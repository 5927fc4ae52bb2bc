// MPVPresenter: the presenter of a control-socket client that speaks mpv's JSON IPC. It turns the client's mpv
// commands (read by MPVCommandTranslator) into the module's commands, submitted through its fan-out port like any
// view's, and formats what the interactor reports as mpv's replies (`{"request_id": N, "error": "success", "data": …}`)
// and events (`start-file`, `file-loaded`, `seek`, `playback-restart`, `end-file`, `idle`,
// `property-change`). Lines the client sent together (one read of its connection) are all answered before the events
// they cause go out, as mpv answers them.
//
// It decides nothing about playback. Property values are read from its MPVReadings, by the property's entry in
// MPVPropertyTable: `get_property` of a playing position asks for a `status` and answers from it; the rest (the
// file's path, size, codec …) and what observers are told come from the session's events, kept in the readings.

import Dispatch
import VideoPlaybackKit

@MainActor
package final class MPVPresenter: PlaybackViewEventHandler, PlaybackInteractorOutput {
  /// The view: a back-reference, held weakly (the client's handle owns it), set once by the Builder.
  package weak var view: (any MPVView)?
  private let interactor: any PlaybackInteractorInput
  private let translator: MPVCommandTranslator
  /// `--hr-seek`: the precision of seeks that name none.
  private let hrSeek: MPVHRSeek
  /// What `client_name` answers.
  private let clientName: String
  /// This client's view, named as the sender of the commands it submits.
  private let viewID: ViewID
  /// How many commands this client has submitted: `pending` and `seekIDs` know them by this ordinal.
  private var ownCommandCount = 0

  /// A request's place among this client's replies, which go out in the order of the requests, and its `request_id`.
  private struct Ticket {
    var number: Int
    var requestID: MPVValue
    /// Answered in mpv's asynchronous form (`MPVRequest.repliesAsynchronously`).
    var isAsync = false

    /// The reply to this ticket's request.
    func reply(_ error: MPVError, data: MPVValue? = nil) -> MPVValue {
      isAsync ? .asyncReply(requestID, error, data: data) : .reply(requestID, error, data: data)
    }
  }
  /// How many tickets were given, and how many of them have had their replies written.
  private var ticketsGiven = 0
  private var ticketsAnswered = 0
  /// Replies made for tickets still behind an earlier, unanswered one.
  private var heldReplies: [Int: [MPVValue]] = [:]
  /// Whether lines sent together (one read of the socket) are coming.
  private var linesTogether = false
  /// How many tickets the last lines sent together had given: their events wait for their replies.
  private var togetherTickets = 0
  /// Events held until the replies to lines sent together are written: mpv answers every line it read at once, then
  /// sends the events queued meanwhile. Held: what comes while the lines are read, what their answers cause (the
  /// first values of observers, a seek's `seek`), and whatever follows those.
  private var heldEvents: [MPVValue] = []

  /// What a command of this client's still owes it, by the session's command id.
  private enum Pending {
    /// A reply once the command's outcome is reported: with `data: null` (mpv's commands) or without (`set_property`).
    case reply(Ticket, withData: Bool)
    /// `get_property`, answered from a `status`.
    case get(Ticket, MPVProperty, asString: Bool, path: String?)
    /// `add` / `cycle`, which need the value now: a `status` first, then the command that sets it (nil: a text line,
    /// unanswered).
    case adjust(Ticket?, MPVProperty, by: Double?)
    /// `observe_property`: its first `property-change` is the value now, from a `status`.
    case observe(Ticket, id: Int, MPVProperty, path: String?, asString: Bool)
    /// `loadfile` (mpv's number for the file), answered at once; a failure to open is reported as `end-file` with
    /// reason `error`.
    case load(Int)
    /// A command run without a reply (a text line).
    case silent
    /// The `info` asked for before this client's first command: the file the session had before it connected.
    case learn
  }
  /// What each command of this client's still owes it, by the command's ordinal among this client's.
  private var pending: [Int: Pending] = [:] { didSet { publishQuickReads() } }

  /// Whether a request of this client's still owes it a reply.
  package var owesReplies: Bool { ticketsAnswered < ticketsGiven }

  /// View state: what the session's events and statuses said last, for reads, observers and the file's own
  /// properties.
  private var readings = MPVReadings() { didSet { publishQuickReads() } }
  /// This client's seeks not yet landed (mpv's `seeking`), by their ordinals.
  private var seekIDs: Set<Int> = [] { didSet { readings.seeking = !seekIDs.isEmpty || !othersSeeks.isEmpty } }
  /// Those of them whose `seek` event was sent as they started.
  private var announcedSeeks: Set<Int> = []
  /// Other views' seeks and steps started (their `seek` sent) and not yet landed (mpv's `seeking` too), by the
  /// session's command ids.
  private var othersSeeks: Set<Int> = [] { didSet { readings.seeking = !seekIDs.isEmpty || !othersSeeks.isEmpty } }

  /// Observed properties: mpv's observer id, and the value the client was last told (nil: not yet told).
  private struct Observer {
    var id: Int
    var property: MPVProperty
    /// A path into the property's value (`track-list/count`'s `count`); nil: the whole.
    var path: String?
    /// `observe_property_string`: told the values in their string form.
    var asString: Bool
    var told: MPVValue??

    var name: String { property.rawValue + (path.map { "/" + $0 } ?? "") }
  }

  /// What `observer` is told now: the value, or nil (unavailable, or a path the value does not have).
  private func observedValue(_ observer: Observer) -> MPVValue? {
    try? readings.value(of: observer.property, path: observer.path).get()
  }
  private var observers: [Observer] = []
  /// Whether a `stop` in idle cleared the playlist's kept entry, untold: mpv tells the playlist's observers nothing
  /// of it, and compares with what they were told when the next file is added (`loading`).
  private var playlistClearedUntold = false
  /// What a `stop` in idle changes by clearing the kept entry.
  private static let playlistCleared: Set<MPVProperty> = [.playlistCount, .playlist]
  /// What came while an `add` or `cycle` waited for the value it changes: run once its change is submitted,
  /// so they follow it as they follow it in mpv (a read right behind `add speed 0.25` says the new speed).
  private var deferred: [() -> Void] = []
  /// Whether an `add` or `cycle` of this client's waits for the value it changes.
  private var adjusting = false
  /// mpv numbers the files it loads (`playlist_entry_id`).
  private var fileNumber: Int {
    get { readings.entryID }
    set { readings.entryID = newValue }
  }
  /// The stored properties (`volume`, `mute` …) the session's mpv clients share (this client's own when it was given
  /// none).
  private let sharedOptions: MPVSharedOptions
  /// Whether the session's file (opened before this client connected) has been asked for.
  private var askedForFile = false { didSet { publishQuickReads() } }
  /// Answers this client's property reads off the main actor while nothing of the client's is under way.
  package nonisolated let quickReads: MPVQuickReads
  /// The interactor's status, readable at once: the session's rate as a file starts loading and as it goes.
  private let statusBoard: PlaybackStatusBoard?
  /// The events this client asked not to be sent (`disable_event`); `property-change` is sent all the same, as mpv
  /// sends it.
  private var disabledEvents: Set<String> = [] {
    didSet { quickReads.sendsSeekEvent = !disabledEvents.contains("seek") }
  }
  /// What `get_time_us` answers: a monotonic clock in microseconds.
  private let clockMicroseconds: @Sendable () -> Int

  /// - Parameters:
  ///   - statusBoard: the interactor's status, readable from any thread; with it, `quickReads` answers `get_property`
  ///     on the client's own thread (nil: every read goes through the interactor).
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
    self.clockMicroseconds = clockMicroseconds
    readings.pauseOption = !startsPlaying
    self.hrSeek = hrSeek
    let sharedOptions = sharedOptions ?? MPVSharedOptions()
    self.sharedOptions = sharedOptions
    self.interactor = interactor
    self.clientName = clientName
    self.viewID = viewID
    self.translator = translator
    quickReads = MPVQuickReads(statusBoard: statusBoard, translator: translator)
    self.statusBoard = statusBoard
    readings.stored = sharedOptions.values
    // A client that connects later numbers the files as the others do, and sees the playlist's kept entry.
    readings.entryID = sharedOptions.entriesStarted
    readings.keptEntry = sharedOptions.keptEntry
    sharedOptions.add(self)
  }

  /// Another client's `stop` (or this one's) cleared the playlist's kept entry: its observers are not told, as mpv's
  /// are not (see `playlistClearedUntold`).
  func keptEntryCleared() {
    guard readings.keptEntry != nil else { return }
    readings.keptEntry = nil
    playlistClearedUntold = true
    publishQuickReads()
  }

  /// The stored properties changed (this client or another set one): observers are told.
  func storedOptionsChanged(_ values: MPVStoredOptions) {
    readings.stored = values
    publishChanges()
  }

  /// True while changes are made that `quickReads` need not be told of.
  private var quickReadsHeld = false

  private func holdingQuickReads(_ change: () -> Void) {
    quickReadsHeld = true
    change()
    quickReadsHeld = false
  }

  /// True while an event is presented: the readings are handed over once it is done.
  private var presenting = false
  /// Readings to hand over once the event being presented is done.
  private var quickReadsOwed = false

  /// Hands `quickReads` the readings its answers are made from, or nothing while a command of the client's is under
  /// way (its reply must come first) or the client has not yet asked for the session's file. Nothing is handed over
  /// at once, but readings wait until the event being presented has shown all its lines: an answer on the socket's
  /// thread then comes after them (a seek sent as `playback-restart` arrives is answered after the `property-change`
  /// that follows it).
  private func publishQuickReads() {
    guard !quickReadsHeld else { return }
    let idle = pending.isEmpty && askedForFile
    if idle && presenting {
      quickReadsOwed = true
      return
    }
    quickReads.publish(idle ? readings : nil)
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
      for request in translator.read(text) { run(request, answeredSeek: answeredSeek) }
    case .tooLong, .invalidUTF8:
      guard !adjusting else { return deferred.append { [unowned self] in onInputLine(line) } }
      reply(takeTicket(.integer(0)), .invalidParameter)
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
    linesTogether = true
  }

  /// The lines sent together have all come: the events they caused follow their replies.
  package func linesTogetherEnded() {
    linesTogether = false
    togetherTickets = ticketsGiven
    releaseEvents()
  }

  // MARK: - Commands

  /// Asks for the session's file, once: a client that connects to a session with its file open saw no `ready`, and
  /// `info` tells it the file. The Builder calls this as the client is attached; its first request does otherwise.
  package func learnSessionFile() {
    guard !askedForFile else { return }
    askedForFile = true
    submit(.info, .learn)
  }

  /// `answeredSeek`: the line is a seek the socket's thread answered as it arrived (`quickReads`).
  private func run(_ request: MPVRequest, answeredSeek: Bool = false) {
    guard !adjusting else {
      return deferred.append { [unowned self] in run(request, answeredSeek: answeredSeek) }
    }
    // A seek answered as it arrived: carried out, not answered again.
    if answeredSeek, case .success(.seek(let target, let reference, let mode)) = request.command {
      return seek(target, reference, mode, pending: .silent, announced: true)
    }
    learnSessionFile()
    // A text line runs like its JSON form, unanswered.
    let ticket = request.wantsReply ? takeTicket(request.requestID, isAsync: request.repliesAsynchronously) : nil
    let command: MPVCommand
    switch request.command {
    case .failure(let failure):
      if let ticket { reply(ticket, failure.error) }
      return
    case .success(let success): command = success
    }
    let answer: (Bool) -> Pending = { withData in ticket.map { .reply($0, withData: withData) } ?? .silent }
    switch command {
    case .loadFile(let path, let options):
      // mpv answers at once, before `start-file`; a file that cannot be opened ends in `end-file` (error).
      if let ticket {
        reply(ticket, .success, data: .object([MPVMember("playlist_entry_id", .integer(fileNumber + 1))]))
      }
      // mpv drops the file it plays first: a file that cannot be opened leaves it idle.
      // Its own stored values are set as its file starts loading (`loading`); its speed is a size, as the setter's.
      sharedOptions.register(options.stored, for: CommandSender(view: viewID, number: ownCommandCount + 1))
      submit(
        .replace(path, start: options.start, paused: options.paused, rate: options.speed), .load(fileNumber + 1))
    case .stop(let keepPlaylist):
      guard readings.info != nil || readings.loadingPath != nil else {
        // Nothing loaded: mpv stops nothing, and says so with success. A plain `stop` clears an entry the playlist
        // kept, for every client.
        if !keepPlaylist { sharedOptions.clearKeptEntry() }
        if let ticket { reply(ticket, .success, data: .null) }
        return
      }
      if keepPlaylist { sharedOptions.keepPlaylistStop = CommandSender(view: viewID, number: ownCommandCount + 1) }
      submit(.close, answer(true))
    case .seek(let target, let reference, let mode):
      seek(target, reference, mode, pending: answer(true))
    case .frameStep: submit(.step(1), answer(true))
    case .frameBackStep: submit(.step(-1), answer(true))
    case .setProperty(let property, let value, let byCommand):
      set(property, to: value, pending: answer(byCommand))
    case .add(let property, let delta):
      adjusting = true
      submit(.status, .adjust(ticket, property, by: delta))
    case .cycle(let property):
      adjusting = true
      submit(.status, .adjust(ticket, property, by: nil))
    case .quit: submit(.quit, answer(true))
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
        deliver(ticket, [readings.replyToRead(property, asString: asString, requestID: ticket.requestID)])
      } else {
        submit(.status, .get(ticket, property, asString: asString, path: nil))
      }
    case .observe(let observerID, let property, let asString):
      if readsWhileOpening {
        startObserving(ticket, id: observerID, property, path: nil, asString: asString)
      } else {
        submit(.status, .observe(ticket, id: observerID, property, path: nil, asString: asString))
      }
    case .subProperty(let property, let path, let asString, let observerID):
      if let observerID, readsWhileOpening {
        startObserving(ticket, id: observerID, property, path: path, asString: asString)
      } else if let observerID {
        submit(.status, .observe(ticket, id: observerID, property, path: path, asString: asString))
      } else if property.spec.isConstant || readsWhileOpening {
        deliver(ticket, [readings.replyToRead(property, path: path, asString: asString, requestID: ticket.requestID)])
      } else {
        submit(.status, .get(ticket, property, asString: asString, path: path))
      }
    case .getUnknownString:
      reply(ticket, .success, data: .null)
    case .observeUnknown(let observerID, let name):
      // Accepted, and its value is unavailable from the start: a `property-change` without `data`, after the reply.
      let change = MPVValue.object(
        [MPVMember("event", .string("property-change"))] + Self.observerIDField(observerID)
          + [MPVMember("name", .string(name))])
      deliver(ticket, [.reply(ticket.requestID, .success), change])
    case .unobserve(let observerID):
      observers.removeAll { $0.id == observerID }
      reply(ticket, .success)
    case .clientName: reply(ticket, .success, data: .string(clientName))
    case .getVersion: reply(ticket, .success, data: .integer(MPVCommandTranslator.clientAPIVersion))
    case .requestEvent(let name, let enabled):
      let names: Set<String> = name == "all" ? MPVCommandTranslator.eventNames.subtracting(["shutdown"]) : [name]
      if enabled { disabledEvents.subtract(names) } else { disabledEvents.formUnion(names) }
      reply(ticket, .success)
    case .requestLogMessages: reply(ticket, .success)
    case .getTimeMicroseconds: reply(ticket, .success, data: .integer(clockMicroseconds()))
    case .drawOnly(let data): reply(ticket, .success, data: data)
    default: break
    }
  }

  /// Submits `command`, noting what it owes first: some commands are answered within `submit`.
  private func submit(_ command: Command, _ owed: Pending) {
    ownCommandCount += 1
    pending[ownCommandCount] = owed
    interactor.submit(command, source: nil, from: CommandSender(view: viewID, number: ownCommandCount))
  }

  /// `precisionAs`: the reference whose precision the seek takes, when not its own (a property's `add`).
  private func seek(
    _ target: Double, _ reference: MPVSeekReference, _ mode: SeekMode?, precisionAs: MPVSeekReference? = nil,
    pending owed: Pending, announced: Bool = false
  ) {
    var owed = owed
    if announced {
      // Its reply and `seek` were written by `quickReads`; with the file gone since, it lands unannounced.
      if readings.info != nil { announcedSeeks.insert(ownCommandCount + 1) }
    } else if readings.info != nil {
      // With a file loaded, mpv answers a seek as soon as it is queued and sends `seek` as it starts;
      // `playback-restart` follows when it lands. (Without one, mpv refuses it; vpk runs it once a file loads.)
      let seekEvent = disabledEvents.contains("seek") ? [] : [MPVValue.object([MPVMember("event", .string("seek"))])]
      if case .reply(let ticket, let withData) = owed {
        deliver(ticket, [ticket.reply(.success, data: withData ? .null : nil)] + seekEvent)
        owed = .silent
      } else {
        for event in seekEvent { show(event) }
      }
      announcedSeeks.insert(ownCommandCount + 1)
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
    seekIDs.insert(ownCommandCount + 1)
    submit(command, owed)
  }

  /// Sets `property` to `value` (accepted by its entry's `write`) as its entry says.
  private func set(_ property: MPVProperty, to value: MPVValue, pending owed: Pending) {
    guard let write = property.spec.write else {
      if case .reply(let ticket, _) = owed { reply(ticket, .propertyAccess) }
      return
    }
    perform(write.change(value, readings), on: property, pending: owed)
  }

  private func perform(_ change: MPVPropertySpec.Change, on property: MPVProperty, pending owed: Pending) {
    switch change {
    case .submit(let command): submit(command, owed)
    case .seek(let target, let reference):
      // mpv's setters (`add` too) seek to a time (`time-pos`, `playback-time`) or a share (`percent-pos`): absolute.
      let absolute: MPVSeekReference =
        switch reference {
        case .relative, .absolute: .absolute
        case .relativePercent, .absolutePercent: .absolutePercent
        }
      seek(target, reference, nil, precisionAs: absolute, pending: owed)
    case .set(let value): set(property, to: value, pending: owed)
    case .store(let value):
      // Answered at once, before observers hear of it, as mpv does.
      if case .reply(let ticket, let withData) = owed { reply(ticket, .success, data: withData ? .null : nil) }
      sharedOptions.store(value, as: property)
    }
  }

  // MARK: - Replies and events

  private func takeTicket(_ requestID: MPVValue, isAsync: Bool = false) -> Ticket {
    ticketsGiven += 1
    return Ticket(number: ticketsGiven - 1, requestID: requestID, isAsync: isAsync)
  }

  /// Shows `lines`, the answer to `ticket`'s request (its reply, then the events it causes), once every earlier
  /// request's answer has been shown: mpv answers in the order of the requests.
  private func deliver(_ ticket: Ticket, _ lines: [MPVValue]) {
    heldReplies[ticket.number] = lines
    while let next = heldReplies.removeValue(forKey: ticketsAnswered) {
      ticketsAnswered += 1
      guard let reply = next.first else { continue }
      view?.display(reply)
      for line in next.dropFirst() { show(line, answering: true) }
    }
    releaseEvents()
  }

  /// Whether the replies to lines sent together are all written.
  private var togetherAnswered: Bool { !linesTogether && ticketsAnswered >= togetherTickets }

  /// Shows an event, or holds it behind the replies to lines sent together (and behind the events held before it).
  /// `answering`: the event is part of a request's answer.
  private func show(_ line: MPVValue, answering: Bool = false) {
    if linesTogether || (answering && !togetherAnswered) || !heldEvents.isEmpty {
      heldEvents.append(line)
      releaseEvents()
    } else {
      view?.display(line)
    }
  }

  /// Shows the events held, once the replies to the lines sent together are all shown.
  private func releaseEvents() {
    guard togetherAnswered, !heldEvents.isEmpty else { return }
    let events = heldEvents
    heldEvents = []
    // An event disabled by a line read with the one that caused it is not sent: mpv's client checks its mask as the
    // event goes out, after its IPC thread has run every line it read.
    for line in events {
      if case .string(let name)? = line["event"], name != "property-change", disabledEvents.contains(name) { continue }
      view?.display(line)
    }
  }

  private func reply(_ ticket: Ticket, _ error: MPVError, data: MPVValue? = nil) {
    deliver(ticket, [ticket.reply(error, data: data)])
  }

  /// Sends event `name` unless the client disabled it.
  private func event(_ name: String, _ fields: [MPVMember] = []) {
    guard !disabledEvents.contains(name) else { return }
    show(.object([MPVMember("event", .string(name))] + fields))
  }

  /// Answers command `commandID` if it is this client's and owes a plain reply.
  private func settle(_ commandID: Int?, _ error: MPVError = .success) {
    guard let commandID, let owed = pending.removeValue(forKey: commandID) else { return }
    if case .reply(let ticket, let withData) = owed {
      reply(ticket, error, data: withData && error == .success ? .null : nil)
    }
  }

  /// Adds an observer told its value now, from the readings (after a `status`, or while a file opens).
  private func startObserving(_ ticket: Ticket, id: Int, _ property: MPVProperty, path: String?, asString: Bool) {
    var observer = Observer(id: id, property: property, path: path, asString: asString, told: nil)
    let value = observedValue(observer)
    observer.told = .some(value)
    observers.append(observer)
    // Its first value follows the reply, whenever that goes out.
    deliver(ticket, [.reply(ticket.requestID, .success), propertyChange(observer, value)])
  }

  /// While a file opens, with nothing of this client's under way but loads (answered already), a read is answered
  /// from the readings at once, as mpv answers it then (the file's `path` and `filename`, `duration` and `time-pos`
  /// unavailable …): a `status` would wait for the open to end, which a slow source can make long.
  private var readsWhileOpening: Bool {
    guard readings.loadingPath != nil, readings.info == nil, !adjusting else { return false }
    return pending.values.allSatisfy { if case .load = $0 { true } else { false } }
  }

  /// Tells each observer whose property changed (of `property`'s, when given) its new value.
  private func publishChanges(of property: MPVProperty? = nil) {
    publishChanges(of: property.map { [$0] })
  }

  /// Tells each observer whose property changed (of one of `properties`, when given) its new value.
  private func publishChanges(of properties: Set<MPVProperty>?) {
    publishChanges { properties?.contains($0) ?? true }
  }

  /// Tells each observer of a property other than `excluded` whose value changed its new value.
  private func publishChanges(except excluded: MPVProperty) {
    publishChanges { $0 != excluded }
  }

  private func publishChanges(where included: (MPVProperty) -> Bool) {
    for index in observers.indices where included(observers[index].property) {
      if playlistClearedUntold, Self.playlistCleared.contains(observers[index].property) { continue }
      let value = observedValue(observers[index])
      guard observers[index].told != .some(value) else { continue }
      observers[index].told = .some(value)
      tellObserver(observers[index], value)
    }
  }

  private func tellObserver(_ observer: Observer, _ value: MPVValue?) {
    show(propertyChange(observer, value))
  }

  /// A `property-change`'s `id`: the observer's, left out when it is 0, as mpv leaves out a zero reply id.
  private static func observerIDField(_ id: Int) -> [MPVMember] {
    id == 0 ? [] : [MPVMember("id", .integer(id))]
  }

  private func propertyChange(_ observer: Observer, _ value: MPVValue?) -> MPVValue {
    var fields = Self.observerIDField(observer.id) + [MPVMember("name", .string(observer.name))]
    if let value {
      fields.append(MPVMember("data", observer.asString ? .string(MPVProperty.stringForm(value)) : value))
    }
    return .object([MPVMember("event", .string("property-change"))] + fields)
  }

  // MARK: - PlaybackInteractorOutput

  package func present(_ event: SessionEvent, origin: CommandOrigin?) {
    presenting = true
    defer {
      presenting = false
      if quickReadsOwed {
        quickReadsOwed = false
        publishQuickReads()
      }
    }
    // This client's own commands are known by their ordinal; another view's cause only the shared changes.
    let mine = origin?.sender.flatMap { $0.view == viewID ? $0.number : nil }
    switch event {
    case .loading(let path, let paused): loading(path, paused: paused, origin: origin)
    case .ready(let info, let position, let start): ready(info, position: start ?? position, seeks: start != nil, mine)
    case .state(let state, let position, let duration): changed(state, position: position, duration: duration, mine)
    case .progress(let mark): progress(mark)
    case .seekStarted(let start):
      if let mine {
        ownSeekStarted(start, mine)
      } else if let origin {
        othersSeekStarted(start, id: origin.id)
      }
    case .seeked(let outcome):
      seeked(outcome.result.position, duration: outcome.duration, mine, othersSeek: landedOthersSeek(origin, mine))
    case .superseded:
      if let mine {
        seekIDs.remove(mine)
        announcedSeeks.remove(mine)
      }
      // mpv answers a seek that a newer one replaced with success, too.
      settle(mine)
    case .stepped(let result, let duration):
      stepped(
        result.position, duration: duration, mine, othersStep: landedOthersSeek(origin, mine),
        forward: result.requested > 0, moved: result.moved != 0)
    case .rate(let rate):
      readings.rate = rate
      settle(mine)
      publishChanges()
    case .next(let paused):
      readings.pauseOption = paused
      settle(mine)
      publishChanges()
    case .ended(let end):
      readings.position = end.position
      if let duration = end.duration { readings.duration = duration }
      // Only a file kept at its end stands there paused (mpv's `--keep-open`): one that loops plays on, and one that
      // is closed next (mpv's `--idle`) or ends the session goes without a `pause` or `eof-reached` change.
      if end.action == .pause {
        readings.state = .ended
        // mpv tells where it stopped first (`eof-reached`, the position's properties, `core-idle`), each observer in
        // the order it was added, and `pause` after them, as its loop pauses once the end has been told.
        publishChanges(except: .pause)
      }
      publishChanges()
    case .error(let error): failed(error, mine)
    case .status(let status): answer(status, mine)
    case .info(let info): learned(info, mine)
    case .frame, .mark, .snapshot, .help, .waited, .expectation:
      if let mine { pending.removeValue(forKey: mine) }
    // Closed by no command: the file ended, with `--at-end idle` (mpv's `--idle`).
    case .closed(let nextPaused):
      closed(
        mine, atEnd: origin == nil, keepsEntry: sharedOptions.keepsEntry(closedBy: origin), nextPaused: nextPaused)
    case .shutdown(let shutdown): shutDown(shutdown.reason, mine)
    }
  }

  /// `paused`: whether the file opens paused, as the interactor decided; `pause` reads it while the file loads.
  /// The session's rate (from the status board) and the stored values of `origin` (the command that opens it): a
  /// file's own values, or those its own replaced, told after `start-file` in one round, as mpv sets and restores a
  /// file's options.
  private func loading(_ path: String, paused: Bool, origin: CommandOrigin?) {
    readings.pauseOption = paused
    if let rate = statusBoard?.rateNow() { readings.rate = rate }
    if readings.info != nil {
      event("end-file", [MPVMember("reason", .string("stop")), MPVMember("playlist_entry_id", .integer(fileNumber))])
    }
    othersSeeks = []
    readings.info = nil
    readings.duration = nil
    readings.loadingPath = path
    readings.keptEntry = nil
    playlistClearedUntold = false
    readings.state = .loading
    fileNumber += 1
    event("start-file", [MPVMember("playlist_entry_id", .integer(fileNumber))])
    sharedOptions.fileStarting(origin)
    readings.stored = sharedOptions.values
    publishChanges()
  }

  /// mpv's order: `file-loaded`; `seek` when the file opens at a start position (`--start`, `seeks`); `seeking` true
  /// with the file's values (position, duration …); `playback-restart`; `seeking` false.
  private func ready(_ info: MediaInfo, position: MediaTime, seeks: Bool, _ commandID: Int?) {
    if let commandID { pending.removeValue(forKey: commandID) }
    readings.info = info
    readings.loadingPath = nil
    readings.duration = info.duration
    readings.position = position
    // A file that opens playing starts right after `ready`: `pause` does not flip on the way.
    readings.state = readings.pauseOption ? .paused : .playing
    event("file-loaded")
    if seeks { event("seek") }
    let seeking = readings.seeking
    readings.seeking = true
    publishChanges()
    readings.seeking = seeking
    event("playback-restart")
    publishChanges()
  }

  private func changed(_ state: PlaybackState, position: MediaTime, duration: MediaTime?, _ commandID: Int?) {
    if state == .idle, readings.loadingPath != nil {
      // Another client's file failed to open (this client's own failure is told with its error, before): mpv tells
      // every client `end-file` (error) and `idle`. The error goes to the client that loaded it; when that was an mpv
      // client, it left its `file_error` with the shared options, else mpv's usual reason stands for any.
      readings.keptEntry = readings.loadingPath
      readings.loadingPath = nil
      readings.info = nil
      readings.state = .idle
      event(
        "end-file",
        [
          MPVMember("reason", .string("error")), MPVMember("playlist_entry_id", .integer(fileNumber)),
          MPVMember("file_error", .string(sharedOptions.failedFileError ?? "loading failed")),
        ])
      event("idle")
      readValuesAfterFile()
    }
    readings.state = state
    if state == .playing || state == .paused { readings.pauseOption = state == .paused }
    readings.position = position
    if let duration { readings.duration = duration }
    settle(commandID)
    publishChanges()
  }

  private func progress(_ mark: ProgressMark) {
    // This comes at every mark, to every client: the quick reads take position, state and rate from the status, so
    // they are told only of a new duration.
    let durationChanged = mark.duration != nil && mark.duration != readings.duration
    holdingQuickReads {
      readings.position = mark.position
      if let duration = mark.duration { readings.duration = duration }
      readings.state = mark.state
      readings.rate = mark.rate
    }
    if durationChanged { publishQuickReads() }
    publishChanges()
  }

  /// Another view's seek or step started: mpv tells every client `seek` as a seek starts, and `seeking` is true until
  /// its `playback-restart`. This client's own seeks are announced as they are sent (see `seek`). mpv's `frame-step`
  /// forward plays one frame and seeks nothing: neither its start nor its landing is shown (see `stepped`).
  private func othersSeekStarted(_ start: SeekStart, id: Int) {
    if case .frames(let count) = start, count > 0 { return }
    othersSeeks.insert(id)
    event("seek")
    seekStarted(start)
  }

  /// This client's seek started: its `seek` was shown as it was sent (when announced); what it changes is told now.
  private func ownSeekStarted(_ start: SeekStart, _ commandID: Int) {
    guard announcedSeeks.contains(commandID) else { return }
    seekStarted(start)
  }

  /// As mpv tells a seek as it starts: the position is the target until the seek lands, and observers hear it with
  /// `seeking` true (and `core-idle` true while playing), in the order they were added; a seek from the end of a file
  /// kept open turns `eof-reached` false then too.
  private func seekStarted(_ start: SeekStart) {
    if case .time(let target) = start {
      if readings.state == .ended { readings.state = .paused }
      readings.position = target
    }
    publishChanges()
  }

  /// Whether the seek or step that landed (of `origin`) is another view's whose start was shown. Seeks and steps land
  /// in the order they were sent: the older ones (anyone's) landed or were replaced, and are forgotten with it.
  private func landedOthersSeek(_ origin: CommandOrigin?, _ commandID: Int?) -> Bool {
    guard let id = origin?.id else { return false }
    let started = commandID == nil && othersSeeks.contains(id)
    othersSeeks = othersSeeks.filter { $0 > id }
    return started
  }

  /// `othersSeek`: another view's seek whose `seek` was shown as it started. mpv's order as a seek lands:
  /// `playback-restart`; `seeking` false (`core-idle` false while playing); then where it landed (`time-pos` …), when
  /// that is not the target told as it started, unless a newer seek is under way.
  private func seeked(_ position: MediaTime, duration: MediaTime?, _ commandID: Int?, othersSeek: Bool) {
    var announced = othersSeek
    if let commandID {
      seekIDs.remove(commandID)
      announced = announcedSeeks.remove(commandID) != nil
    }
    if let duration { readings.duration = duration }
    if readings.state == .ended { readings.state = .paused }
    settle(commandID)
    if !announced {
      // A seek whose start was not shown (this client's, sent before the file loaded) is seen as it lands: its
      // `seek`, then `seeking` true until the `playback-restart`, as mpv tells every client of a seek.
      event("seek")
      let seeking = readings.seeking
      readings.seeking = true
      publishChanges(of: .seeking)
      readings.seeking = seeking
    }
    event("playback-restart")
    publishChanges()
    // A seek that lands while a newer one is under way leaves the newer one's target told, as mpv keeps it.
    guard readings.seeking == false else { return }
    readings.position = position
    publishChanges()
  }

  /// `othersStep`: another view's step whose `seek` was shown as it started; this client's own show theirs after the
  /// reply, as they land. A step forward is mpv's `frame-step`, which plays one frame and seeks nothing: no `seek`,
  /// no `playback-restart`, only the changes. mpv plays that frame by unpausing: from paused, observers are told
  /// `pause` and `core-idle` false, then, with the frame, every change (`time-pos`, `pause` and `core-idle` true …)
  /// in their order; from playing, the frame's changes only.
  /// `moved`: whether the step went to another frame. One forward from the end of a file kept open does nothing, as
  /// mpv's `frame-step` there does nothing.
  private func stepped(
    _ position: MediaTime, duration: MediaTime?, _ commandID: Int?, othersStep: Bool, forward: Bool, moved: Bool
  ) {
    if forward && !moved && readings.state == .ended { return settle(commandID) }
    let playsFromPause = forward && readings.state == .paused
    settle(commandID)
    if playsFromPause {
      readings.state = .playing
      publishChanges()
    }
    if !forward && !othersStep {
      // This client's back step is a seek, as mpv tells it: `seek` and `seeking` true from where playback was, then
      // `playback-restart`, `seeking` false and where it landed. (Another's was told as it started.)
      event("seek")
      let seeking = readings.seeking
      readings.seeking = true
      publishChanges(of: .seeking)
      readings.seeking = seeking
    }
    readings.position = position
    if let duration { readings.duration = duration }
    readings.state = .paused
    if !forward { event("playback-restart") }
    publishChanges()
  }

  private func failed(_ error: PlaybackError, _ commandID: Int?) {
    guard let commandID, let owed = pending.removeValue(forKey: commandID) else { return }
    seekIDs.remove(commandID)
    announcedSeeks.remove(commandID)
    switch owed {
    case .reply(let ticket, let withData):
      // A property set (`set_property`, no data) that cannot be served is mpv's unavailable property; a command's
      // failure is its command error.
      let unavailable = error.code == .notReady || error.code == .unavailable
      reply(ticket, unavailable && !withData ? .propertyUnavailable : .commandFailed)
    case .get(let ticket, _, _, _): reply(ticket, .propertyUnavailable)
    case .adjust(let ticket, _, _):
      if let ticket { reply(ticket, .commandFailed) }
      runDeferred()
    case .observe(let ticket, _, _, _, _): reply(ticket, .commandFailed)
    case .load(let entry):
      sharedOptions.forget(CommandSender(view: viewID, number: commandID))
      sharedOptions.failedFileError = Self.fileError(error)
      // The playlist keeps the entry of a file that failed to open, as mpv's does until a `stop`.
      if readings.info == nil { readings.keptEntry = readings.loadingPath }
      readings.loadingPath = nil
      readings.state = readings.info == nil ? .idle : readings.state
      event(
        "end-file",
        [
          MPVMember("reason", .string("error")), MPVMember("playlist_entry_id", .integer(entry)),
          MPVMember("file_error", .string(Self.fileError(error))),
        ])
      if readings.info == nil { event("idle") }
      // The other clients tell the values back after their own `idle`, as the session goes idle.
      readValuesAfterFile()
      publishChanges()
    case .silent, .learn: break
    }
  }

  private func answer(_ status: PlaybackStatus, _ commandID: Int?) {
    readings.read(status)
    guard let commandID, let owed = pending[commandID] else { return }
    if case .adjust(let ticket, let property, let delta) = owed {
      // Its change, then the requests that came behind it, before any quick read is answered.
      holdingQuickReads {
        pending.removeValue(forKey: commandID)
        adjust(property, by: delta, ticket: ticket)
        runDeferred()
      }
      return publishQuickReads()
    }
    pending.removeValue(forKey: commandID)
    switch owed {
    case .get(let ticket, let property, let asString, let path):
      deliver(ticket, [readings.replyToRead(property, path: path, asString: asString, requestID: ticket.requestID)])
    case .adjust:
      break
    case .observe(let ticket, let observerID, let property, let path, let asString):
      startObserving(ticket, id: observerID, property, path: path, asString: asString)
    case .reply, .load, .silent, .learn: break
    }
  }

  /// mpv's `file_error` for a file that could not be opened: its error string for the kind of failure.
  private static func fileError(_ error: PlaybackError) -> String {
    switch error.code {
    case .notMedia: "unrecognized file format"
    case .noPlayableStream, .decoderUnavailable, .decodeError: "no audio or video data played"
    default: "loading failed"
    }
  }

  /// Runs the requests that waited for an `add` or `cycle`, up to the next of them.
  private func runDeferred() {
    adjusting = false
    var waiting = deferred[...]
    deferred = []
    while !adjusting, let next = waiting.popFirst() { next() }
    deferred.append(contentsOf: waiting)
  }

  /// `add` / `cycle` once the value now is known: what the property's entry says, as `set` would do it.
  private func adjust(_ property: MPVProperty, by delta: Double?, ticket: Ticket?) {
    let owed = ticket.map { Pending.reply($0, withData: true) } ?? .silent
    let spec = property.spec
    let fail = { if let ticket { self.reply(ticket, .commandFailed) } }
    guard let current = readings.value(of: property) else { return fail() }
    if let delta, let add = spec.add {
      perform(add(current, delta), on: property, pending: owed)
    } else if delta == nil, let next = spec.cycle?(current) {
      set(property, to: next, pending: owed)
    } else {
      fail()
    }
  }

  private func learned(_ info: MediaInfo, _ commandID: Int?) {
    guard let commandID, case .learn = pending.removeValue(forKey: commandID) else { return }
    readings.info = info
    readings.duration = info.duration
    if readings.state == .idle { readings.state = .paused }
    // mpv counts the files it loads from 1: the session's file is the first.
    if fileNumber == 0 { fileNumber = 1 }
    sharedOptions.noteEntryNumbered(fileNumber)
  }
  /// What mpv's observers hear change as a file that played to its end stops playing, before its `end-file`: the
  /// position and the picture's size go, and `core-idle` turns true. The file's own (`duration`, `path` …) go after
  /// `idle`.
  private static let goneBeforeEndFile: Set<MPVProperty> = [
    .eofReached, .timePos, .playbackTime, .percentPos, .timeRemaining, .playtimeRemaining, .width, .height, .coreIdle,
  ]

  /// `keepsEntry`: the playlist keeps the file's entry (it played to its end, or `stop keep-playlist` closed it).
  /// `nextPaused`: whether the next file opens paused, as the interactor decided; `pause` reads it with no file.
  private func closed(_ commandID: Int?, atEnd: Bool, keepsEntry: Bool, nextPaused: Bool) {
    guard readings.info != nil || readings.loadingPath != nil else {
      // Nothing was loaded (a `stop` that waited behind a file that then failed to open, which told its `end-file`
      // and `idle`, or one that clears the entry kept): mpv stops nothing and says nothing more, not even to the
      // playlist's observers, who hear of the playlist again when the next file is added.
      if !keepsEntry, readings.keptEntry != nil {
        readings.keptEntry = nil
        playlistClearedUntold = true
      }
      settle(commandID)
      return
    }
    othersSeeks = []
    let path = readings.currentPath
    readings = MPVReadings(
      rate: readings.rate, seeking: readings.seeking, stored: readings.stored, entryID: readings.entryID,
      pauseOption: nextPaused)
    if keepsEntry { readings.keptEntry = path }
    settle(commandID)
    // A file that played to its end loses its position's properties before `end-file`, as mpv's do.
    if atEnd { publishChanges(of: Self.goneBeforeEndFile) }
    event(
      "end-file",
      [MPVMember("reason", .string(atEnd ? "eof" : "stop")), MPVMember("playlist_entry_id", .integer(fileNumber))])
    event("idle")
    readValuesAfterFile()
    publishChanges()
  }

  /// After a file's `idle`: the values a file's own replaced are back (the shared options give them back once,
  /// whoever asks first), and so is the rate (the status board's), told in one round as mpv restores a file's options.
  private func readValuesAfterFile() {
    sharedOptions.restoreBeforeThisFile()
    readings.stored = sharedOptions.values
    if let rate = statusBoard?.rateNow() { readings.rate = rate }
  }

  private func shutDown(_ reason: ShutdownReason, _ commandID: Int?) {
    settle(commandID)
    // A file loaded, or still opening (a quit that interrupted its open), ends with the session.
    if readings.info != nil || readings.loadingPath != nil {
      let why = reason == .ended ? "eof" : "quit"
      if reason == .ended {
        // A file that played to its end loses its position's properties before `end-file`, as when it goes idle.
        readings = MPVReadings(
          rate: readings.rate, seeking: readings.seeking, stored: readings.stored, entryID: readings.entryID,
          pauseOption: readings.pauseOption)
        publishChanges(of: Self.goneBeforeEndFile)
      }
      event("end-file", [MPVMember("reason", .string(why)), MPVMember("playlist_entry_id", .integer(fileNumber))])
    }
    // mpv tells its clients no `shutdown`: the connection closes after the last event.
    // Nothing is answered any more: what was held goes out before the end.
    togetherTickets = 0
    linesTogether = false
    releaseEvents()
    view?.displayFinish()
  }
}

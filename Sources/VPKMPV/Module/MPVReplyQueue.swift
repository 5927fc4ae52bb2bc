// MPVReplyQueue: the order of what an mpv client is written. Replies go out in the order of the requests (one made
// early waits for the earlier ones); events wait behind the replies to lines sent together, as mpv answers every line
// it read at once and then sends the events queued meanwhile; and the events the client disabled are not sent.

import VideoPlaybackKit

@MainActor
final class MPVReplyQueue {
  /// A request's place among this client's replies, which go out in the order of the requests, and its `request_id`.
  struct Ticket {
    var number: Int
    var requestID: MPVValue
    /// Answered in mpv's asynchronous form (`MPVRequest.repliesAsynchronously`).
    var isAsync = false

    /// The reply to this ticket's request.
    func reply(_ error: MPVError, data: MPVValue? = nil) -> MPVValue {
      isAsync ? .asyncReply(requestID, error, data: data) : .reply(requestID, error, data: data)
    }
  }

  /// The view: a back-reference, held weakly (the client's handle owns it), set once by the Builder.
  weak var view: (any MPVView)?
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
  /// The events this client asked not to be sent (`disable_event`); `property-change` is sent all the same, as mpv
  /// sends it.
  private var disabledEvents: Set<String> = []

  /// Whether a request of this client's still owes it a reply.
  var owesReplies: Bool { ticketsAnswered < ticketsGiven }

  /// Whether event `name` is sent (the client has not disabled it).
  func sends(_ name: String) -> Bool { !disabledEvents.contains(name) }

  /// `request_event`: the events of `names` are sent from now on (`enabled`), or not.
  func setEvents(_ names: Set<String>, enabled: Bool) {
    if enabled { disabledEvents.subtract(names) } else { disabledEvents.formUnion(names) }
  }

  /// The lines that follow came in one read of the client's connection, sent together.
  func linesTogetherStarted() {
    linesTogether = true
  }

  /// The lines sent together have all come: the events they caused follow their replies.
  func linesTogetherEnded() {
    linesTogether = false
    togetherTickets = ticketsGiven
    releaseEvents()
  }

  /// Nothing is answered any more (the session ends): what was held goes out.
  func releaseAll() {
    togetherTickets = 0
    linesTogether = false
    releaseEvents()
  }

  func takeTicket(_ requestID: MPVValue, isAsync: Bool = false) -> Ticket {
    ticketsGiven += 1
    return Ticket(number: ticketsGiven - 1, requestID: requestID, isAsync: isAsync)
  }

  /// Shows `lines`, the answer to `ticket`'s request (its reply, then the events it causes), once every earlier
  /// request's answer has been shown: mpv answers in the order of the requests.
  func deliver(_ ticket: Ticket, _ lines: [MPVValue]) {
    heldReplies[ticket.number] = lines
    while let next = heldReplies.removeValue(forKey: ticketsAnswered) {
      ticketsAnswered += 1
      guard let reply = next.first else { continue }
      view?.display(reply)
      for line in next.dropFirst() { show(line, answering: true) }
    }
    releaseEvents()
  }

  func reply(_ ticket: Ticket, _ error: MPVError, data: MPVValue? = nil) {
    deliver(ticket, [ticket.reply(error, data: data)])
  }

  /// Sends event `name` unless the client disabled it.
  func event(_ name: String, _ fields: [MPVMember] = []) {
    guard !disabledEvents.contains(name) else { return }
    show(.object([MPVMember("event", .string(name))] + fields))
  }

  /// Whether the replies to lines sent together are all written.
  private var togetherAnswered: Bool { !linesTogether && ticketsAnswered >= togetherTickets }

  /// Shows an event, or holds it behind the replies to lines sent together (and behind the events held before it).
  /// `answering`: the event is part of a request's answer.
  func show(_ line: MPVValue, answering: Bool = false) {
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
}

// MPVObserverNotifier: an mpv client's observers (`observe_property`) and when they hear of a change. Each is told
// its value as it starts observing, then each new value when the presenter's readings change, in the order the
// observers were added, as `property-change` events.

import VideoPlaybackKit

@MainActor
final class MPVObserverNotifier {
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

    /// What it is told now: the value, or nil (unavailable, or a path the value does not have).
    func value(in readings: MPVReadings) -> MPVValue? {
      try? readings.value(of: property, path: path).get()
    }
  }

  private let replies: MPVReplyQueue
  private var observers: [Observer] = []
  /// Whether a `stop` in idle cleared the playlist's kept entry, untold: mpv tells the playlist's observers (those of
  /// the properties that change on `playlistEntry`) nothing of it, and compares with what they were told when the
  /// next file is added (`loading`).
  private var playlistClearedUntold = false

  init(replies: MPVReplyQueue) {
    self.replies = replies
  }

  /// The playlist's kept entry was cleared (a `stop` in idle): its observers are not told, as mpv's are not.
  func keptEntryClearedUntold() {
    playlistClearedUntold = true
  }

  /// A file is added: the playlist's observers hear of it again.
  func fileAdded() {
    playlistClearedUntold = false
  }

  /// Adds an observer told its value now, from `readings` (after a `status`, or while a file opens).
  func startObserving(
    _ ticket: MPVReplyQueue.Ticket, id: Int, _ property: MPVProperty, path: String?, asString: Bool,
    readings: MPVReadings
  ) {
    var observer = Observer(id: id, property: property, path: path, asString: asString, told: nil)
    let value = observer.value(in: readings)
    observer.told = .some(value)
    observers.append(observer)
    // Its first value follows the reply, whenever that goes out.
    replies.deliver(ticket, [.reply(ticket.requestID, .success), Self.propertyChange(observer, value)])
  }

  /// Observing a name vpk does not serve: accepted, and its value is unavailable from the start (a
  /// `property-change` without `data`, after the reply).
  func observeUnknown(_ ticket: MPVReplyQueue.Ticket, id: Int, name: String) {
    let change = MPVValue.object(
      [MPVMember("event", .string("property-change"))] + Self.observerIDField(id) + [MPVMember("name", .string(name))])
    replies.deliver(ticket, [.reply(ticket.requestID, .success), change])
  }

  /// `unobserve_property`: the observers of `id` are told nothing more.
  func unobserve(id: Int) {
    observers.removeAll { $0.id == id }
  }

  /// Tells each observer whose property changed (of `property`'s, when given) its new value in `readings`, read as
  /// each is told.
  func publishChanges(_ readings: @autoclosure () -> MPVReadings, of property: MPVProperty? = nil) {
    publishChanges(readings) { property == nil || $0 == property }
  }

  /// Tells each observer of a property whose row in MPVPropertyTable says it changes on `moment` its new value in
  /// `readings`, if it changed.
  func publishChanges(_ readings: @autoclosure () -> MPVReadings, on moment: MPVPropertySpec.ChangeMoment) {
    publishChanges(readings) { $0.spec.changesOn.contains(moment) }
  }

  /// Tells each observer of a property whose row does not say it changes on `moment` its new value, if it changed.
  func publishChanges(_ readings: @autoclosure () -> MPVReadings, notOn moment: MPVPropertySpec.ChangeMoment) {
    publishChanges(readings) { !$0.spec.changesOn.contains(moment) }
  }

  private func publishChanges(_ readings: () -> MPVReadings, where included: (MPVProperty) -> Bool) {
    for index in observers.indices where included(observers[index].property) {
      if playlistClearedUntold, observers[index].property.spec.changesOn.contains(.playlistEntry) { continue }
      let value = observers[index].value(in: readings())
      guard observers[index].told != .some(value) else { continue }
      observers[index].told = .some(value)
      replies.show(Self.propertyChange(observers[index], value))
    }
  }

  /// A `property-change`'s `id`: the observer's, left out when it is 0, as mpv leaves out a zero reply id.
  private static func observerIDField(_ id: Int) -> [MPVMember] {
    id == 0 ? [] : [MPVMember("id", .integer(id))]
  }

  private static func propertyChange(_ observer: Observer, _ value: MPVValue?) -> MPVValue {
    var fields = observerIDField(observer.id) + [MPVMember("name", .string(observer.name))]
    if let value {
      fields.append(MPVMember("data", observer.asString ? .string(MPVProperty.stringForm(value)) : value))
    }
    return .object([MPVMember("event", .string("property-change"))] + fields)
  }
}

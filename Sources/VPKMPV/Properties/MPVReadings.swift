// MPVReadings: what an mpv client's presenter knows of the session (from the session's events and from a `status`),
// as one value. Every property's value is read from it (MPVPropertyTable), and every `get_property` reply is made by
// `replyToRead` from it, on the main actor (MPVPresenter) and on the socket's thread (MPVQuickReads) alike.

import VideoPlaybackKit

package struct MPVReadings: Sendable, Equatable {
  var state: PlaybackState = .idle
  /// Where playback is; while a seek is under way, its target as it was asked for (which may lie past an end, as mpv's
  /// `time-pos` tells it).
  var position: MediaTime = .zero
  var duration: MediaTime?
  var rate: Double = 1
  var info: MediaInfo?
  /// The file being loaded (start-file … file-loaded).
  var loadingPath: String?
  /// Whether a seek of this client's has not landed yet (mpv's `seeking`).
  var seeking = false
  /// The properties kept without acting on them, shared by the session's mpv clients.
  var stored = MPVStoredOptions()
  /// mpv's number for the file loaded or loading (`playlist_entry_id`, the playlist entry's `id`).
  var entryID = 0
  /// mpv's `pause` option: what `pause` reads with no file loaded (or while one loads), and whether the next file opens
  /// paused.
  var pauseOption = false

  /// The entry mpv's playlist keeps once its file has gone without a `stop` that clears it (the file played to its end
  /// into idle, failed to open, or was stopped with `keep-playlist`): listed, neither current nor playing, until a
  /// `stop` or the next file.
  var keptEntry: String?

  /// The session's queue, mpv's playlist, as its last listing said (nil: not known yet; the playlist is then the file
  /// loaded, or the entry kept).
  var queue: QueueListing?

  /// The file loaded, or being loaded.
  var currentPath: String? { info?.path ?? loadingPath }

  /// The playlist's one entry: the file loaded or loading, else the one kept.
  var playlistPath: String? { currentPath ?? keptEntry }

  /// The playlist's entries with the one loaded or loading (mpv's current and playing entry, nil with none): from the
  /// queue when known, else the file loaded as a playlist of one, or the entry kept.
  var playlist: (entries: [QueueListing.Entry], playing: Int?) {
    if let queue {
      let playing = currentPath != nil ? queue.entries.firstIndex { $0.id == entryID } : nil
      return (queue.entries, playing)
    }
    if let path = currentPath { return ([QueueListing.Entry(id: entryID, path: path)], 0) }
    return (keptEntry.map { [QueueListing.Entry(id: entryID, path: $0)] } ?? [], nil)
  }

  /// Whether the queue goes on to another entry when the one playing ends (mpv's `loop-playlist` loops it).
  var hasNextEntry: Bool {
    let (entries, playing) = playlist
    guard let playing else { return false }
    let loops = stored.value(of: .loopPlaylist).map { $0 != .bool(false) } ?? false
    return playing + 1 < entries.count || (loops && !entries.isEmpty)
  }

  /// `position` within the file (mpv's `playback-time`, and what `time-remaining` counts from).
  var positionInFile: MediaTime { position.clamped(to: duration) }

  /// What a `status` says, over what the events said.
  mutating func read(_ status: PlaybackStatus) {
    state = status.state
    position = status.position
    duration = status.duration ?? duration
    rate = status.rate
    if let opensPaused = status.opensPaused { pauseOption = opensPaused }
  }

  /// `property`'s value; nil when it is unavailable (nothing loaded, or not known for this file).
  func value(of property: MPVProperty) -> MPVValue? {
    MPVPropertyTable.spec(property).read(self)
  }

  /// The part of `property`'s value that `path` names (nil: the whole), or mpv's error for it: `property
  /// unavailable` when the value is.
  func value(of property: MPVProperty, path: String?) -> Result<MPVValue, MPVRequestError> {
    guard let value = value(of: property) else { return .failure(MPVRequestError(.propertyUnavailable)) }
    guard let path else { return .success(value) }
    return MPVSubProperty.read(value, of: property, path: path)
  }

  /// The reply to `get_property` (or `get_property_string`) of `property` (or of `path` into it): the one answer to a
  /// read, whichever path serves it. An error is mpv's, or for the string form success with `data` null, as mpv's
  /// IPC answers it.
  func replyToRead(_ property: MPVProperty, path: String? = nil, asString: Bool, requestID: MPVValue) -> MPVValue {
    let value: MPVValue
    switch self.value(of: property, path: path) {
    case .success(let found): value = found
    case .failure(let error):
      return asString ? .reply(requestID, .success, data: .null) : .reply(requestID, error.error)
    }
    return .reply(requestID, .success, data: asString ? .string(MPVProperty.stringForm(value)) : value)
  }
}

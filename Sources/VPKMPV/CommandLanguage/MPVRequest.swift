// MPVRequest: an mpv request as the mpv dialect reads it (MPVCommandTranslator makes them): the command with its
// typed arguments, the request's id and flags, and mpv's answers (`success` or one of its error strings).

import VideoPlaybackKit

/// mpv's answer to a request: `success`, or one of its error strings.
package enum MPVError: String, Sendable, Equatable, CaseIterable {
  case success = "success"
  case invalidParameter = "invalid parameter"
  case propertyNotFound = "property not found"
  case propertyUnavailable = "property unavailable"
  case unsupportedFormat = "unsupported format for accessing property"
  case propertyAccess = "error accessing property"
  case commandFailed = "error running command"
}

/// Where an mpv seek's target is measured from.
package enum MPVSeekReference: String, Sendable, Equatable {
  case relative, absolute
  case absolutePercent = "absolute-percent"
  case relativePercent = "relative-percent"
}

/// The per-file options given with `loadfile` (`loadfile a.mp4 replace start=10,pause=yes,speed=2`) that vpk serves;
/// nil (or none stored) without them. Each holds for that file only: the values they replaced come back as it goes.
package struct MPVFileOptions: Sendable, Equatable {
  var start: FileStart?
  var paused: Bool?
  var speed: Double?
  /// Stored properties (MPVStoredOptions: `volume` …), as their entries took them.
  var stored: [MPVProperty: MPVValue] = [:]

  init(start: FileStart? = nil, paused: Bool? = nil, speed: Double? = nil, stored: [MPVProperty: MPVValue] = [:]) {
    self.start = start
    self.paused = paused
    self.speed = speed
    self.stored = stored
  }
}

/// Where `loadfile` and `loadlist` put what they add to the playlist, and whether it plays.
package enum MPVLoadMode: Sendable, Equatable {
  /// `replace`: the playlist becomes what is added, and it plays.
  case replace
  /// `append`, `append-play` (`play`: it plays when nothing is playing); `insert-next`, `insert-next-play` after the
  /// current entry; `insert-at N`, `insert-at-play N` as entry N (0-based; a negative N or one past the end appends).
  case add(at: Slot, play: Bool)

  package enum Slot: Sendable, Equatable {
    case end
    case afterCurrent
    case index(Int)
  }
}

/// A playlist entry as `playlist-play-index` and `playlist-remove` name it: an index (0-based), `current`, or (for
/// `playlist-play-index`) `none`.
package enum MPVPlaylistIndex: Sendable, Equatable {
  case index(Int)
  case current
  case none
}

/// What an mpv command asks for, its arguments checked.
package enum MPVCommand: Sendable, Equatable {
  case loadFile(String, MPVFileOptions = MPVFileOptions(), MPVLoadMode = .replace)
  /// `loadlist`: a playlist file's entries (an m3u list read as `vpk play --playlist` reads it).
  case loadList(String, MPVLoadMode)
  /// `playlist-next`, `playlist-prev`; `force`: with no entry there, playback stops (`weak`: nothing happens).
  case playlistNext(force: Bool)
  case playlistPrev(force: Bool)
  case playlistPlayIndex(MPVPlaylistIndex)
  case playlistClear
  case playlistRemove(MPVPlaylistIndex)
  /// `playlist-move A B`: entry A takes the place of entry B (0-based), which moves on.
  case playlistMove(Int, Int)
  case playlistShuffle
  case playlistUnshuffle
  /// `keepPlaylist`: `stop keep-playlist`, which leaves the file's entry in the playlist.
  case stop(keepPlaylist: Bool)
  /// `mode`: the precision the flags name (`exact`, `keyframes`); nil: mpv's default (see MPVHRSeek).
  case seek(Double, MPVSeekReference, SeekMode?)
  case frameStep
  case frameBackStep
  case getProperty(MPVProperty, asString: Bool)
  /// `get_property_string` of a property vpk does not serve: mpv's IPC answers success with `data` null.
  case getUnknownString
  /// A path into a property's value (`playlist/count`, `track-list/0/type`): read, or observed (`observe` not nil: its
  /// id).
  case subProperty(MPVProperty, path: String, asString: Bool, observe: Int?)
  /// `set_property` (no data in the reply) or, `byCommand`, the `set` command (data null).
  case setProperty(MPVProperty, MPVValue, byCommand: Bool)
  case add(MPVProperty, Double)
  case cycle(MPVProperty)
  /// `asString`: `observe_property_string`, told the values in their string form.
  case observe(id: Int, MPVProperty, asString: Bool = false)
  /// An observer of a property vpk does not serve: accepted, and told once that it is unavailable, as mpv tells an
  /// observer of a name it does not know.
  case observeUnknown(id: Int, name: String)
  case unobserve(id: Int)
  case clientName
  case getVersion
  /// `enable_event` / `disable_event`: an event name of mpv's (`MPVCommandTranslator.eventNames`) or `all`.
  case requestEvent(String, enabled: Bool)
  /// `request_log_messages`: one of mpv's log levels; accepted, and vpk has no mpv log messages to send.
  case requestLogMessages
  /// `get_time_us`: the player's clock, in microseconds.
  case getTimeMicroseconds
  /// A command that only draws on mpv's screen or terminal (`show-text`, `show-progress`, `print-text`,
  /// `osd-overlay`): answered as mpv answers it, with `data`, and vpk, which has no screen, draws nothing.
  case drawOnly(data: MPVValue)
  case quit
}

/// One line of the mpv dialect, read.
package struct MPVRequest: Sendable, Equatable {
  /// Echoed in the reply: the client's `request_id` (any JSON value), 0 when it gave none, as mpv does.
  package var requestID: MPVValue
  /// The command, or the error mpv answers it with.
  package var command: Result<MPVCommand, MPVRequestError>
  /// False for a plain text line, which mpv runs without answering.
  package var wantsReply: Bool
  /// `"async": true`: an input command (`MPVCommand.isInputCommand`) is answered in mpv's asynchronous form once it
  /// has run (`MPVValue.asyncReply`); the IPC's own commands answer as ever, as mpv's do.
  package var isAsync: Bool

  package init(
    requestID: MPVValue, command: Result<MPVCommand, MPVRequestError>, wantsReply: Bool = true, isAsync: Bool = false
  ) {
    self.requestID = requestID
    self.command = command
    self.wantsReply = wantsReply
    self.isAsync = isAsync
  }

  /// Whether the reply takes mpv's asynchronous form (`MPVValue.asyncReply`): an async input command that was read,
  /// or one mpv read and then failed to run (`error running command`); a request mpv could not read is answered in
  /// the usual form.
  package var repliesAsynchronously: Bool {
    guard isAsync else { return false }
    switch command {
    case .success(let command): return command.isInputCommand
    case .failure(let failure): return failure.error == .commandFailed
    }
  }
}

extension MPVCommand {
  /// An input command (mpv's command table) rather than one of the IPC's own (`get_property`, `observe_property`,
  /// `client_name` …): the only ones `"async"` changes.
  package var isInputCommand: Bool {
    switch self {
    case .loadFile, .stop, .seek, .frameStep, .frameBackStep, .add, .cycle, .quit, .loadList, .playlistNext,
      .playlistPrev, .playlistPlayIndex, .playlistClear, .playlistRemove, .playlistMove, .playlistShuffle,
      .playlistUnshuffle:
      true
    case .setProperty(_, _, let byCommand): byCommand
    default: false
    }
  }
}

/// An mpv error answering a request, as an Error.
package struct MPVRequestError: Error, Sendable, Equatable {
  package var error: MPVError
  package init(_ error: MPVError) { self.error = error }
}

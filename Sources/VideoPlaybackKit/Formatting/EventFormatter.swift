// EventFormatter: a session event as one line of text and one JSON object (an `EventViewModel`), the same values
// in the same order. The text and JSON presenters show these; the `Player` keeps each event's line beside it.
//
// Every event's `text` is one stable, greppable line: `<event>[ #<id>] key=value key=value …`. Times are seconds
// with exactly three decimals; strings that are empty or hold whitespace, `"`, `=`, `\` or control characters are
// double-quoted with backslash escapes, so a value never spans lines.

import Foundation

enum EventFormatter {
  /// How a view names the commands in its events: by its own number (or the client's id), or not at all.
  struct Naming {
    /// The number (or the client's id) of `origin` in this view's events; nil: shown with no id.
    var name: (CommandOrigin) -> (number: Int?, clientID: ClientID?)

    /// Names a command by its sender's number when it is `view`'s own; another view's with the session's id, or
    /// (`sharesSession`) with none.
    static func of(_ view: ViewID, sharesSession: Bool) -> Naming {
      Naming { origin in
        if let sender = origin.sender, sender.view == view { return (sender.number, sender.clientID) }
        return (sharesSession ? nil : origin.id, nil)
      }
    }
  }

  /// The view model of `event` as `naming` names its command; nil for an event with no line (`loading` shows only on
  /// the status line; `seekStarted` shows only in the mpv dialect).
  static func model(_ event: SessionEvent, origin: CommandOrigin?, naming: Naming) -> EventViewModel? {
    func builder(_ severity: EventViewModel.Severity = .info) -> EventBuilder {
      let named = origin.map(naming.name)
      return EventBuilder(
        event: event.name, commandID: named?.number, clientID: named?.clientID, severity: severity)
    }
    switch event {
    case .loading, .seekStarted:
      return nil
    case .ready(let info, _, _):
      var line = builder()
      describe(info, into: &line, withBitRates: false)
      return line.model
    case .state(let state, let position, let duration):
      var line = builder()
      line.string("state", state.rawValue)
      line.time("position", position)
      if let duration { line.time("duration", duration) }
      return line.model
    case .progress(let mark):
      var line = EventBuilder(event: event.name, commandID: nil)
      line.time("position", mark.position)
      if let duration = mark.duration { line.time("duration", duration) }
      if let duration = mark.duration, duration.seconds != 0 {
        line.decimal("percent", mark.position.seconds / duration.seconds * 100, decimals: 1)
      }
      line.string("state", mark.state.rawValue)
      line.decimal("rate", mark.rate, decimals: 3, trimmed: true)
      var model = line.model
      model.isTransient = true
      return model
    case .seeked(let outcome):
      var line = builder()
      line.time("target", outcome.result.target)
      // Only a clamped seek carries these.
      if let requested = outcome.requested {
        line.time("requested", requested)
        line.bool("clamped", true)
      }
      line.time("position", outcome.result.position)
      line.string("mode", outcome.result.mode.rawValue)
      // Wall-clock figures would make a virtual-clock transcript differ from run to run.
      if outcome.showsTiming { line.decimal("ms", outcome.result.milliseconds, decimals: 1, jsonDecimals: 3) }
      return line.model
    case .superseded(let newer):
      var line = builder()
      if let newer {
        let named = naming.name(newer)
        if let client = named.clientID {
          line.clientID("by", client)
        } else if let number = named.number {
          line.integer("by", number)
        } else {
          // Another client's seek replaced it: its ids mean nothing here.
          line.string("reason", "other_client")
        }
      } else {
        line.string("reason", "shutdown")
      }
      return line.model
    case .stepped(let result, _):
      var line = builder()
      line.time("position", result.position)
      line.integer("moved", result.moved)
      line.integer("requested", result.requested)
      return line.model
    case .rate(let rate):
      var line = builder()
      line.decimal("rate", rate, decimals: 3, trimmed: true)
      return line.model
    case .next(let paused):
      var line = builder()
      line.bool("paused", paused)
      return line.model
    case .ended(let end):
      // A forward ending keeps its shape; playing backward, `direction=backward` says the end reached is the start.
      var line = EventBuilder(event: event.name, commandID: nil, severity: .notice)
      line.time("position", end.position)
      if let duration = end.duration { line.time("duration", duration) }
      line.integer("loops", end.loops)
      if end.direction == .backward { line.string("direction", end.direction.rawValue) }
      return line.model
    case .waited(let condition, let position):
      var line = builder()
      line.string("condition", condition.description)
      line.time("position", position)
      return line.model
    case .expectation(let outcome):
      var line = builder(outcome.held ? .info : .error)
      line.string("result", outcome.held ? "pass" : "fail")
      line.string("field", outcome.expectation.field.rawValue)
      line.string("op", outcome.expectation.op.rawValue)
      line.expectValue("expected", outcome.expected)
      line.expectValue("actual", outcome.actual)
      if let tolerance = outcome.expectation.tolerance {
        line.decimal("tolerance", tolerance, decimals: 6, trimmed: true)
      }
      if !outcome.held, let source = outcome.source {
        line.integer("line", source.number)
        line.string("source", source.text.trimmingCharacters(in: .whitespaces))
      }
      return line.model
    case .closed:
      return builder().model
    case .error(let error):
      var line = builder(.error)
      line.string("code", error.code.rawValue)
      line.string("message", error.message)
      return line.model
    case .status(let status):
      var line = builder()
      line.string("state", status.state.rawValue)
      line.time("position", status.position)
      if let duration = status.duration { line.time("duration", duration) }
      line.decimal("rate", status.rate, decimals: 3, trimmed: true)
      line.integer("frames_decoded", status.framesDecoded)
      line.integer("decode_errors", status.decodeErrors)
      line.integer("loops", status.loops)
      line.integer("cache_frames", status.frameCache.frames)
      line.integer("cache_bytes", status.frameCache.bytes)
      line.integer("cache_hits", status.frameCache.hits)
      line.integer("cache_misses", status.frameCache.misses)
      if let lateness = status.latenessP99 { line.decimal("late_p99_ms", lateness, decimals: 3) }
      describe(status.entry, into: &line)
      return line.model
    case .info(let info):
      var line = builder()
      describe(info, into: &line, withBitRates: true)
      describe(info.entry, into: &line)
      return line.model
    case .frame(let frame):
      var line = builder()
      line.integer("pts", Int(frame.pts))
      line.string("time_base", "\(frame.timeBase.num)/\(frame.timeBase.den)")
      line.time("time", frame.time)
      line.bool("key", frame.isKeyframe)
      line.integer("width", frame.width)
      line.integer("height", frame.height)
      line.string("pix_fmt", frame.pixelFormat)
      line.string("md5", frame.md5)
      return line.model
    case .mark(let mark):
      var line = builder()
      line.string("state", mark.state.rawValue)
      line.time("position", mark.position)
      line.decimal("rate", mark.rate, decimals: 3, trimmed: true)
      if let frame = mark.frame {
        line.integer("pts", Int(frame.pts))
        line.time("time", frame.time)
        line.string("md5", frame.md5)
      } else {
        line.none("md5")
      }
      if let source = mark.source { line.integer("line", source.number) }
      return line.model
    case .snapshot(let picture):
      var line = builder()
      line.string("path", picture.path)
      line.integer("width", picture.frame.width)
      line.integer("height", picture.frame.height)
      line.string("format", picture.pixelFormat)
      line.integer("pts", Int(picture.frame.pts))
      line.time("time", picture.frame.time)
      line.string("md5", picture.frame.md5)
      return line.model
    case .help:
      var line = builder()
      line.string("commands", CommandVerbs.names.joined(separator: " "))
      var model = line.model
      // The header line, then one indented line per command with its usage and what it does.
      // Then the keys that act at once on an empty line at a terminal.
      model.text =
        ([line.header] + CommandVerbs.usageLines() + ["keys, on an empty line at a terminal:"]
        + TerminalKeys.usageLines()).joined(separator: "\n")
      return model
    case .entry(let entry):
      var line = builder(.notice)
      describe(entry, into: &line)
      return line.model
    case .expanded(let list, let firstID, let count):
      var line = builder(.notice)
      describe(list, into: &line)
      line.integer("entries", count)
      line.integer("first_entry_id", firstID)
      return line.model
    case .queue(let listing):
      return model(listing, line: builder())
    case .shutdown(let shutdown):
      var line = builder(.notice)
      line.string("reason", shutdown.reason.text)
      if shutdown.openInterrupted { line.string("open", "interrupted") }
      line.string("state", shutdown.status.state.rawValue)
      line.time("position", shutdown.status.position)
      if let duration = shutdown.status.duration { line.time("duration", duration) }
      line.integer("frames_decoded", shutdown.status.framesDecoded)
      line.integer("decode_errors", shutdown.status.decodeErrors)
      return line.model
    }
  }

  /// The fields `ready` and `info` share; `info` adds the bit rates that are known.
  private static func describe(_ info: MediaInfo, into event: inout EventBuilder, withBitRates: Bool) {
    event.string("path", info.path)
    if let duration = info.duration { event.time("duration", duration) }
    event.string("container", info.container)
    if withBitRates, let bitRate = info.bitRate { event.integer("bitrate", bitRate) }
    event.integer("streams", info.streamCount)
    if let video = info.video {
      event.string("video", video.codec)
      event.integer("width", video.width)
      event.integer("height", video.height)
      if let frameRate = video.frameRate {
        event.decimal("fps", frameRate, decimals: 3, trimmed: true)
      }
      event.string("pix_fmt", video.pixelFormat)
      if withBitRates, let bitRate = video.bitRate { event.integer("video_bitrate", bitRate) }
    } else {
      event.none("video")
    }
    if let audio = info.audio {
      event.string("audio", audio.codec)
      event.integer("sample_rate", audio.sampleRate)
      event.integer("channels", audio.channels)
      if withBitRates, let bitRate = audio.bitRate { event.integer("audio_bitrate", bitRate) }
    } else {
      event.none("audio")
    }
  }
}

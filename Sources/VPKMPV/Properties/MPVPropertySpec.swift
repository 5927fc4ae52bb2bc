// MPVPropertySpec: everything vpk knows about one mpv property: its type, how its value is read, whether and how it
// is set, what `cycle` and `add` do to it, when its observers hear of a change, and what the docs say of it. The
// entries are in MPVPropertyTable.

import VideoPlaybackKit

package struct MPVPropertySpec: Sendable {
  /// The value's type, for setting it from a string and for its string form.
  package enum Kind: String, Sendable {
    case flag, number, integer, text = "string", list
  }

  /// What a write, `cycle` or `add` asks the presenter to do.
  package enum Change: Sendable, Equatable {
    /// Submit this command of the module's.
    case submit(Command)
    /// Seek as mpv's `seek <target> <reference>` does, at mpv's default precision.
    case seek(Double, MPVSeekReference)
    /// Submit this command, unless the session stands at the end of a file kept open once the commands before it
    /// have run: there it changes nothing (mpv's `--keep-open`, where unpausing at the end stays there).
    case submitUnlessEnded(Command)
    /// Set the property to this value, as `set` does.
    case set(MPVValue)
    /// Keep this value as the property's (a stored property: MPVStoredOptions), for every mpv client.
    case store(MPVValue)
    /// Keep this value, as `store` does, and submit this command of the module's, which answers nothing.
    case storeAndSubmit(MPVValue, Command)
    /// Play the playlist's entry at this index (0-based), as `playlist-play-index` does.
    case playIndex(Int)
  }

  /// A moment at which mpv tells the observers of some properties apart from the others (MPVObserverNotifier).
  package enum ChangeMoment: Sendable {
    /// A file that played to its end stops playing: its observers hear of it before `end-file`, with the other
    /// properties of the position and the picture; the file's own (`duration`, `path` …) after `idle`.
    case endOfFile
    /// A file stops at its end kept open (`--keep-open`): its observers hear of it after those of where it stopped,
    /// as mpv's loop pauses once the end has been told.
    case pauseAtEnd
    /// The playlist's entry: a `stop` in idle that clears the entry kept is not told to its observers (mpv tells
    /// them nothing), who compare with what they were told when the next file is added.
    case playlistEntry
  }

  /// What a property vpk keeps without acting on it (MPVStoredOptions) is kept as.
  package struct Stored: Sendable {
    /// Its value at start (mpv 0.35's default).
    let initial: MPVValue
    /// The property its value is kept as: itself, or the one it is another name of (`loop`'s is `loop-file`'s).
    let key: MPVProperty
  }

  /// How a property is set (`set_property`, `set_property_string`, `set`).
  package struct Write: Sendable {
    /// The value as the property takes it (its string form too), or mpv's error for it.
    let accept: @Sendable (MPVValue) -> Result<MPVValue, MPVRequestError>
    /// What setting an accepted value asks, given the readings now.
    let change: @Sendable (MPVValue, MPVReadings) -> Change
  }

  /// What the docs' table says of it besides what the entry itself shows.
  package struct Docs: Sendable {
    /// What the value is, when its name does not say it all ("" for nothing).
    var note = ""
    /// When `read` gives nothing: mpv's `property unavailable` (observers are told the change without `data`).
    var unavailable = "never"
    /// The session's events (or status) the value comes from.
    var from: String
    /// The tests that show it.
    var tests: String
  }

  let property: MPVProperty
  let kind: Kind
  /// The value from the readings; nil when it is unavailable.
  let read: @Sendable (MPVReadings) -> MPVValue?
  /// The value does not depend on the readings (the lists): a read of it is answered without a `status`.
  var isConstant = false
  /// nil: read-only (`error accessing property`).
  var write: Write?
  /// `cycle`: the value after the one now (nil from it: `error running command`); nil: cannot be cycled.
  var cycle: (@Sendable (MPVValue) -> MPVValue?)?
  /// `add`: what adding a delta to the value now asks; nil: cannot be added to.
  var add: (@Sendable (MPVValue, Double) -> Change)?
  /// The moments its observers hear of a change apart from the rest; empty: only with every other property.
  var changesOn: Set<ChangeMoment> = []
  /// Set for a property vpk keeps without acting on it (MPVStoredOptions); nil for the others.
  var stored: Stored?
  let docs: Docs

  var name: String { property.rawValue }
}

extension MPVPropertySpec.Write {
  /// A flag: true/false, or yes/no as a string. As mpv answers (checked value type by value type): other text is
  /// `unsupported format`; a value of another JSON type (null, a list, a map, and a number unless `numbersAreText`)
  /// is `error accessing property`.
  static func flag(
    numbersAreText: Bool = false, _ change: @escaping @Sendable (Bool, MPVReadings) -> MPVPropertySpec.Change
  ) -> Self {
    Self(
      accept: { value in
        switch value {
        case .bool(let flag): .success(.bool(flag))
        // (mpv reads an empty flag as yes.)
        case .string("yes"), .string(""): .success(.bool(true))
        case .string("no"): .success(.bool(false))
        case .string: .failure(MPVRequestError(.unsupportedFormat))
        case .integer, .number: .failure(MPVRequestError(numbersAreText ? .unsupportedFormat : .propertyAccess))
        default: .failure(MPVRequestError(.propertyAccess))
        }
      },
      change: { value, readings in change(value == .bool(true), readings) })
  }

  /// A stored flag (MPVStoredOptions), set as it is given.
  static let storedFlag = flag { flag, _ in .store(.bool(flag)) }
  /// `mute`, which mpv reads as a choice: a number is text it does not know.
  static let storedChoiceFlag = flag(numbersAreText: true) { flag, _ in .store(.bool(flag)) }

  /// A finite number (or its text), within `range` when given. As mpv answers: text that is not a number, or one out
  /// of range, is `unsupported format`; a value of another JSON type (null, a flag, a list, a map) is `error
  /// accessing property`.
  /// `time`: text is read as a time (`[[hh:]mm:]ss`), as mpv reads a time property's.
  static func number(
    in range: ClosedRange<Double>? = nil, time: Bool = false,
    _ change: @escaping @Sendable (Double, MPVReadings) -> MPVPropertySpec.Change
  ) -> Self {
    Self(
      accept: { value in
        switch value {
        case .integer, .number, .string: break
        default: return .failure(MPVRequestError(.propertyAccess))
        }
        guard let number = time ? MPVCommandTranslator.time(value) : MPVCommandTranslator.number(value),
          number.isFinite,
          range.map({ $0.contains(number) }) ?? true
        else { return .failure(MPVRequestError(.unsupportedFormat)) }
        return .success(.number(number))
      },
      change: { value, readings in change(value.number ?? 0, readings) })
  }

  /// One of `words` as itself, or another spelling of one (`aliases`: spelling to word).
  static func word(
    _ words: [String], aliases: [String: String] = [:],
    _ change: @escaping @Sendable (String, MPVReadings) -> MPVPropertySpec.Change
  ) -> Self {
    Self(
      accept: { value in
        guard let text = value.string, let word = words.contains(text) ? text : aliases[text] else {
          return .failure(MPVRequestError(.unsupportedFormat))
        }
        return .success(.string(word))
      },
      change: { value, readings in change(value.string ?? "", readings) })
  }
}

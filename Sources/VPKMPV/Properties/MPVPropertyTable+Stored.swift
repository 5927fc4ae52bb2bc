// MPVPropertyTable+Stored: the entries of the properties vpk keeps without acting on them (MPVStoredOptions):
// settable, cycled, added to and observed as mpv's, shared by the session's mpv clients, and changing nothing else.

import VideoPlaybackKit

extension MPVPropertyTable {
  static func storedSpec(_ property: MPVProperty) -> MPVPropertySpec {
    // `loop` is mpv's other name for `loop-file`: the same stored value.
    let key: MPVProperty = property == .loop ? .loopFile : property
    let read: @Sendable (MPVReadings) -> MPVValue? = { $0.stored[key] }
    let stored = { (initial: MPVValue) in MPVPropertySpec.Stored(initial: initial, key: key) }
    switch property {
    case .volume:
      return MPVPropertySpec(
        property: property, kind: .number, read: read,
        write: .number(in: volumeRange) { volume, _ in .store(.number(volume)) },
        add: { volume, delta in
          .set(.number(min(max((volume.number ?? volumeAtStart) + delta, 0), volumeMax)))
        },
        stored: stored(.number(volumeAtStart)),
        docs: .init(
          note: "stored and shared by every mpv client, changes nothing: vpk plays no sound; set takes −1–1000, "
            + "`add` stops at 0 and 130 (mpv's `--volume-max`); 100 at start",
          from: "the clients' sets", tests: storedTests))
    case .mute:
      return MPVPropertySpec(
        property: property, kind: .flag, read: read, write: .storedChoiceFlag, cycle: toggle,
        stored: stored(.bool(false)),
        docs: .init(
          note: "stored and shared, changes nothing: vpk plays no sound", from: "the clients' sets",
          tests: storedTests))
    case .loopFile, .loop:
      return MPVPropertySpec(
        property: property, kind: .text, read: read, write: loopWrite,
        cycle: { value in
          switch value {
          case .bool(false): .integer(1)
          case .integer(let count): .integer(count + 1)
          default: .bool(false)
          }
        },
        add: { value, delta in
          let count = max((value.integer ?? 0) + Int(delta), 0)
          return .set(count == 0 ? .bool(false) : .integer(count))
        },
        stored: stored(.bool(false)),
        docs: .init(
          note: property == .loop
            ? "mpv's other name for `loop-file`: the same stored value"
            : "`false` (mpv's `no`), `\"inf\"` or a count, as mpv gives it; stored and shared: vpk's session does "
              + "not loop a file for it (`--loop` / `loop` do)",
          from: "the clients' sets", tests: storedTests))
    case .loopPlaylist:
      return MPVPropertySpec(
        property: property, kind: .text, read: read, write: loopPlaylistWrite,
        stored: stored(.bool(false)),
        docs: .init(
          note: "`false` (mpv's `no`), `\"inf\"`, `\"force\"` or a count, as mpv gives it; shared; setting it "
            + "loops the session's queue (`queue loop`), without end for any value but `no` and 1",
          from: "the clients' sets", tests: storedTests))
    case .fullscreen:
      return MPVPropertySpec(
        property: property, kind: .flag, read: read, write: .storedFlag, cycle: toggle,
        stored: stored(.bool(false)),
        docs: .init(
          note: "stored and shared, changes nothing: vpk has no window", from: "the clients' sets", tests: storedTests
        ))
    default:
      return MPVPropertySpec(
        property: property, kind: .flag, read: read, write: .storedFlag, cycle: toggle,
        stored: stored(.bool(true)),
        docs: .init(
          note: "stored and shared (true at start), changes nothing: vpk shows no subtitles",
          from: "the clients' sets", tests: storedTests))
    }
  }

  /// mpv's `--volume` at start, a percentage.
  private static let volumeAtStart = 100.0
  /// mpv's `--volume-max` default: the top of `add volume`.
  private static let volumeMax = 130.0
  /// What mpv's `--volume` option takes from `set_property`.
  private static let volumeRange = -1.0...1000.0

  /// `loop-file` as mpv takes it: `inf`/`yes`/true loop forever, `no`/false/0 not at all, N ≥ 1 that many times.
  private static let loopWrite = MPVPropertySpec.Write(
    accept: { value in
      switch value {
      case .bool(let flag): return .success(flag ? .string("inf") : .bool(false))
      case .string("inf"), .string("yes"): return .success(.string("inf"))
      case .string("no"): return .success(.bool(false))
      default:
        guard let number = MPVCommandTranslator.number(value), number >= 0, number.rounded() == number,
          number < 1e9
        else { return .failure(MPVRequestError(.unsupportedFormat)) }
        return .success(number == 0 ? .bool(false) : .integer(Int(number)))
      }
    },
    change: { value, _ in .store(value) })

  /// `loop-playlist` as mpv takes it: as `loop-file`, and `force`.
  private static let loopPlaylistWrite = MPVPropertySpec.Write(
    accept: { value in value == .string("force") ? .success(value) : loopWrite.accept(value) },
    change: { value, _ in .storeAndSubmit(value, .queue(.loop(loopsPlaylist(value)))) })

  /// Whether a `loop-playlist` value loops the queue: `inf`, `force` or a count over 1 (vpk loops without end).
  package static func loopsPlaylist(_ value: MPVValue) -> Bool {
    value != .bool(false) && value != .integer(1) && value != .string("1")
  }

  private static let storedTests =
    "MPVPresenterTests.storedProperties, storedPropertiesAreShared, MPVPropertiesTests.everyPropertyAsMPVGivesIt, observersAsMPVTellsThem"
}

// MPVPropertyTable: the one table of the mpv properties vpk serves. `get_property`, `set_property`, `cycle`, `add`,
// `observe_property`, `property-list` and the property table in docs/control-socket.md all come from it.

import VideoPlaybackKit

package enum MPVPropertyTable {
  /// Every entry: `property-list`'s order, then the sub-properties.
  static var all: [MPVPropertySpec] { MPVProperty.allCases.map(spec) }

  /// `property`'s entry.
  static func spec(_ property: MPVProperty) -> MPVPropertySpec {
    switch property {
    case .pause:
      MPVPropertySpec(
        property: property, kind: .flag, read: { .bool($0.info != nil ? $0.state != .playing : $0.pauseOption) },
        write: .flag { pause, _ in pause ? .submit(.pause) : .submitUnlessEnded(.play) }, cycle: toggle,
        changesOn: [.pauseAtEnd],
        docs: .init(
          note: "true while not playing; without a file, whether the next file opens paused",
          from: "`status`, `state`, `next`",
          tests: "MPVPresenterTests.setPause, fileProperties, MPVPresenterIdleOptionsTests"))
    case .timePos, .playbackTime:
      // `time-pos` is where playback is, or the target of a seek under way as it was asked for (past an end too);
      // `playback-time` is that within the file.
      MPVPropertySpec(
        property: property, kind: .number,
        read: { readings in
          guard readings.info != nil else { return nil }
          return .number(property == .timePos ? readings.position.seconds : readings.positionInFile.seconds)
        },
        write: .number(time: true) { seconds, _ in .seek(seconds, .absolute) },
        add: { _, delta in .seek(delta, .relative) },
        changesOn: [.endOfFile],
        docs: .init(
          note: property == .timePos
            ? "setting it is an absolute seek, `add` a relative one; while a seek is under way, its target as asked"
            : "`time-pos` within the file; setting it is an absolute seek, `add` a relative one",
          unavailable: "nothing loaded", from: "`status`, `progress`, `seeked`, `stepped`",
          tests: "MPVPresenterTests.getPropertyFromStatus, observers, seekPastTheEndTellsTheTargetAsAsked"))
    case .percentPos:
      MPVPropertySpec(
        property: property, kind: .number,
        read: { readings in
          guard readings.info != nil, let duration = readings.duration?.seconds, duration > 0 else { return nil }
          return .number(min(max(readings.position.seconds / duration * 100, 0), 100))
        },
        write: .number(in: 0...100) { percent, _ in .seek(percent, .absolutePercent) },
        add: { _, delta in .seek(delta, .relativePercent) },
        changesOn: [.endOfFile],
        docs: .init(
          unavailable: "nothing loaded, or no duration", from: "position / duration",
          tests: "MPVPresenterTests.fileProperties, MPVIPCTests.pythonClientLibrarySeesWhatItSeesWithMPV"))
    case .duration:
      MPVPropertySpec(
        property: property, kind: .number, read: { $0.duration.map { .number($0.seconds) } },
        docs: .init(unavailable: "nothing loaded, or no duration", from: "`ready`", tests: fileTests))
    case .speed:
      MPVPropertySpec(
        property: property, kind: .number, read: { .number(abs($0.rate)) },
        // The direction stays as it is: mpv's speed is a size, vpk's rate is signed.
        write: .number(in: speedRange) { speed, readings in .submit(.rate(speed * (readings.rate < 0 ? -1 : 1))) },
        add: { speed, delta in
          .set(.number(min(max((speed.number ?? 1) + delta, speedRange.lowerBound), speedRange.upperBound)))
        },
        docs: .init(
          note: "the size of vpk's rate, \(speedRangeText); `add` stops at its ends; kept for the next file",
          from: "`status`, `rate`",
          tests:
            "MPVPresenterTests.cycleAndAdd, MPVIPCTests.eventsAndRepliesOverOneConnection, MPVPresenterIdleOptionsTests.setWithNoFile"
        ))
    case .playDir:
      MPVPropertySpec(
        property: property, kind: .text, read: { .string($0.rate < 0 ? "backward" : "forward") },
        write: .word(["forward", "backward"], aliases: ["+": "forward", "-": "backward"]) { direction, readings in
          .submit(.rate(abs(readings.rate) * (direction == "backward" ? -1 : 1)))
        },
        cycle: { $0.string.map { .string($0 == "forward" ? "backward" : "forward") } },
        docs: .init(
          note: "`forward`/`backward` (set as `+`/`-` too): the sign of vpk's rate, while `speed` is its size",
          from: "`status`, `rate`", tests: "MPVPresenterTests.playDirection"))
    case .path:
      MPVPropertySpec(
        property: property, kind: .text, read: { ($0.info?.path ?? $0.loadingPath).map { .string($0) } },
        docs: .init(unavailable: "nothing loaded or loading", from: "`loading`, `ready`", tests: fileTests))
    case .filename:
      MPVPropertySpec(
        property: property, kind: .text,
        read: { ($0.info?.path ?? $0.loadingPath).map { .string(String($0.split(separator: "/").last ?? "")) } },
        docs: .init(unavailable: "nothing loaded or loading", from: "`loading`, `ready`", tests: fileTests))
    case .fileFormat:
      MPVPropertySpec(
        property: property, kind: .text, read: { $0.info.map { .string($0.container) } },
        docs: .init(note: "vpk's `container`", unavailable: "nothing loaded", from: "`ready`", tests: fileTests))
    case .eofReached:
      MPVPropertySpec(
        property: property, kind: .flag, read: { $0.info != nil ? .bool($0.state == .ended) : nil },
        changesOn: [.endOfFile],
        docs: .init(
          unavailable: "nothing loaded", from: "`ended` (with `--at-end pause`), `status`",
          tests: stateTests + ", MPVPresenterEndTests"))
    case .idleActive:
      MPVPropertySpec(
        property: property, kind: .flag, read: { .bool($0.state == .idle) },
        docs: .init(from: "`status`, `state`, `ready`, `closed`", tests: stateTests))
    case .seeking:
      MPVPropertySpec(
        property: property, kind: .flag, read: { $0.info != nil ? .bool($0.seeking) : nil },
        docs: .init(
          note: "true from a seek's `seek` to its `playback-restart`", unavailable: "nothing loaded",
          from: "this client's seeks; another client's as it starts and lands",
          tests: stateTests + ", MPVPresenterTests.seekingOfOwnSeek, othersSeekShownAsItStarts, othersSupersededSeek,"
            + " othersStepShownAsItStarts"))
    case .width:
      MPVPropertySpec(
        property: property, kind: .integer, read: { $0.info?.video.map { .integer($0.width) } },
        changesOn: [.endOfFile],
        docs: .init(unavailable: "nothing loaded, or no video stream", from: "`ready`", tests: fileTests))
    case .height:
      MPVPropertySpec(
        property: property, kind: .integer, read: { $0.info?.video.map { .integer($0.height) } },
        changesOn: [.endOfFile],
        docs: .init(unavailable: "nothing loaded, or no video stream", from: "`ready`", tests: fileTests))
    case .containerFPS:
      MPVPropertySpec(
        property: property, kind: .number, read: { $0.info?.video?.frameRate.map { .number($0) } },
        docs: .init(unavailable: "nothing loaded, or no frame rate", from: "`ready`", tests: fileTests))
    case .videoCodec:
      MPVPropertySpec(
        property: property, kind: .text, read: { $0.info?.video.map { .string($0.codec) } },
        docs: .init(
          note: "FFmpeg's short name (`h264`)", unavailable: "nothing loaded, or no video stream", from: "`ready`",
          tests: fileTests))
    case .estimatedFrameNumber:
      MPVPropertySpec(
        property: property, kind: .integer,
        read: { readings in
          guard readings.info != nil, let fps = readings.info?.video?.frameRate else { return nil }
          return .integer(Int((readings.positionInFile.seconds * fps).rounded()))
        },
        docs: .init(
          unavailable: "nothing loaded, or no frame rate", from: "position × frame rate",
          tests: "MPVPresenterTests.fileProperties"))
    case .estimatedFrameCount:
      MPVPropertySpec(
        property: property, kind: .integer,
        read: { readings in
          guard let fps = readings.info?.video?.frameRate, let duration = readings.duration?.seconds else { return nil }
          return .integer(Int((duration * fps).rounded()))
        },
        docs: .init(unavailable: "nothing loaded, or no frame rate or duration", from: "`ready`", tests: fileTests))
    case .volume, .mute, .loopFile, .loop, .loopPlaylist, .fullscreen, .subVisibility:
      storedSpec(property)
    case .playlistCount, .playlistPos, .playlistPos1, .playlistCurrentPos, .playlistPlayingPos, .playlist,
      .workingDirectory, .mediaTitle, .metadata, .chapter,
      .chapters, .chapterList, .trackList, .videoParams, .audioParams, .timeRemaining, .playtimeRemaining,
      .filenameNoExt, .fileSize, .coreIdle, .seekable, .partiallySeekable:
      fileSpec(property)
    case .propertyList:
      MPVPropertySpec(
        property: property, kind: .list, read: { _ in .array(MPVProperty.listed.map { .string($0.rawValue) }) },
        isConstant: true,
        docs: .init(
          note: "the properties served (every row marked so in this table but `filename/no-ext`)", from: "—",
          tests: "MPVPresenterTests.constants, MPVIPCTests.pythonClientLibrarySeesWhatItSeesWithMPV"))
    case .commandList:
      MPVPropertySpec(
        property: property, kind: .list,
        read: { _ in
          .array(
            MPVCommandTranslator.commandNames.map {
              .object([
                MPVMember("name", .string($0)), MPVMember("args", .array([])), MPVMember("vararg", .bool(false)),
              ])
            })
        },
        isConstant: true,
        docs: .init(
          note: "the commands vpk serves", from: "—",
          tests: "MPVPresenterTests.constants, MPVIPCTests.pythonClientLibrarySeesWhatItSeesWithMPV"))
    }
  }

  /// mpv's range for its speed option: vpk's for the size of its rate.
  private static let speedRange = PlaybackLimits.rate
  private static var speedRangeText: String {
    "\(PlaybackLimits.text(speedRange.lowerBound))–\(PlaybackLimits.text(speedRange.upperBound))"
  }

  private static let fileTests =
    "MPVPresenterTests.fileProperties, MPVIPCTests.pythonClientLibrarySeesWhatItSeesWithMPV"
  private static let stateTests = "MPVPresenterTests.fileProperties, MPVIPCTests.eventsAndRepliesOverOneConnection"

  /// `cycle` of a flag.
  static let toggle: @Sendable (MPVValue) -> MPVValue? = {
    if case .bool(let flag) = $0 { .bool(!flag) } else { nil }
  }
}

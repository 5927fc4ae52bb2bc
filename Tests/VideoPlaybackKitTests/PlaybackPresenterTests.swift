import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

/// Records what the presenter asks the view to show.
@MainActor
final class ViewSpy: PlaybackView {
  var events: [EventViewModel] = []
  var statusLines: [String] = []
  var finishCount = 0

  var texts: [String] { events.map(\.text) }

  func displayEvent(_ event: EventViewModel) { events.append(event) }
  func displayStatusLine(_ status: StatusLineViewModel) { statusLines.append(status.text) }
  func displayFinish() { finishCount += 1 }
}

/// A presenter wired to spies; holds the view, which the presenter only references weakly.
@MainActor
struct PresenterHarness {
  let presenter: PlaybackPresenter
  let view = ViewSpy()
  let interactor = InteractorSpy()

  init(maxLineBytes: Int = 65_536) {
    presenter = PlaybackPresenter(interactor: interactor, maxLineBytes: maxLineBytes, viewID: .primary)
    presenter.view = view
  }
}

private let mp4 = "mov,mp4,m4a,3gp,3g2,mj2"

private func sampleVideo(frameRate: Double? = 30, bitRate: Int? = nil) -> VideoStreamInfo {
  VideoStreamInfo(
    codec: "h264", width: 1920, height: 1080, frameRate: frameRate, pixelFormat: "yuv420p",
    bitRate: bitRate)
}

private func sampleAudio(bitRate: Int? = nil) -> AudioStreamInfo {
  AudioStreamInfo(codec: "aac", sampleRate: 44100, channels: 2, bitRate: bitRate)
}

private func sampleInfo(
  path: String = "clip.mp4", duration: Double = 60, bitRate: Int? = nil, streams: Int = 2,
  video: VideoStreamInfo? = sampleVideo(), audio: AudioStreamInfo? = sampleAudio()
) -> MediaInfo {
  MediaInfo(
    path: path, container: mp4, duration: MediaTime(seconds: duration), bitRate: bitRate,
    streamCount: streams,
    video: video, audio: audio)
}

private func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }

private func status(
  _ state: PlaybackState = .paused, position: Double = 30, duration: Double? = 60, rate: Double = 1,
  frames: Int = 123, errors: Int = 0
) -> PlaybackStatus {
  PlaybackStatus(
    state: state, position: time(position), duration: duration.map(time), rate: rate,
    framesDecoded: frames,
    decodeErrors: errors)
}

private let emptyBar = String(repeating: "░", count: 18)
private let fullBar = String(repeating: "█", count: 18)

@MainActor
@Suite("Presenter events")
struct PlaybackPresenterEventTests {
  @Test func readyWithVideoAndAudio() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the media is ready
    harness.presenter.present(.ready(sampleInfo(), position: .zero), origin: nil)
    // Then one `ready` line with every stream field, and typed JSON fields
    let event = harness.view.events[0]
    #expect(
      event.text
        == "ready path=clip.mp4 duration=60.000 container=mov,mp4,m4a,3gp,3g2,mj2 streams=2 video=h264 width=1920 "
        + "height=1080 fps=30 pix_fmt=yuv420p audio=aac sample_rate=44100 channels=2")
    #expect(event.event == "ready")
    #expect(event.commandID == nil)
    #expect(event.severity == .info)
    #expect(
      event.fields == [
        .init("path", .string("clip.mp4")), .init("duration", .number(60)),
        .init("container", .string(mp4)),
        .init("streams", .integer(2)), .init("video", .string("h264")),
        .init("width", .integer(1920)),
        .init("height", .integer(1080)), .init("fps", .number(30)),
        .init("pix_fmt", .string("yuv420p")),
        .init("audio", .string("aac")), .init("sample_rate", .integer(44100)),
        .init("channels", .integer(2)),
      ])
  }

  @Test func readyVideoOnly() {
    // Given a presenter
    let harness = PresenterHarness()
    // When media with no audio is ready
    harness.presenter.present(.ready(sampleInfo(streams: 1, audio: nil), position: .zero), origin: nil)
    // Then audio=none, with no audio fields, and null in JSON
    #expect(
      harness.view.texts == [
        "ready path=clip.mp4 duration=60.000 container=mov,mp4,m4a,3gp,3g2,mj2 streams=1 video=h264 width=1920 "
          + "height=1080 fps=30 pix_fmt=yuv420p audio=none"
      ])
    #expect(harness.view.events[0].fields.last == .init("audio", .null))
  }

  @Test func readyAudioOnly() {
    // Given a presenter
    let harness = PresenterHarness()
    // When media with no video is ready
    harness.presenter.present(
      .ready(sampleInfo(path: "song.m4a", duration: 187.5, streams: 1, video: nil), position: .zero), origin: nil)
    // Then video=none and no width, height, fps or pix_fmt
    #expect(
      harness.view.texts == [
        "ready path=song.m4a duration=187.500 container=mov,mp4,m4a,3gp,3g2,mj2 streams=1 video=none audio=aac "
          + "sample_rate=44100 channels=2"
      ])
    #expect(
      harness.view.events[0].fields.map(\.key) == [
        "path", "duration", "container", "streams", "video", "audio", "sample_rate", "channels",
      ])
  }

  @Test(
    arguments: [
      (30000.0 / 1001, "fps=29.97", 29.97), (24000.0 / 1001, "fps=23.976", 23.976),
      (25.0, "fps=25", 25.0),
      (59.94, "fps=59.94", 59.94),
    ] as [(Double, String, Double)])
  func readyFrameRates(rate: Double, text: String, json: Double) {
    // Given a presenter
    let harness = PresenterHarness()
    // When a video with this frame rate is ready
    harness.presenter.present(.ready(sampleInfo(video: sampleVideo(frameRate: rate)), position: .zero), origin: nil)
    // Then fps has up to three decimals, trailing zeros trimmed, and the same rounding in JSON
    #expect(harness.view.texts[0].contains(" \(text) pix_fmt="))
    #expect(harness.view.events[0].fields.contains(.init("fps", .number(json))))
  }

  @Test func readyUnknownFrameRateOmitsFPS() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the video's frame rate is unknown
    harness.presenter.present(.ready(sampleInfo(video: sampleVideo(frameRate: nil)), position: .zero), origin: nil)
    // Then fps is left out
    #expect(harness.view.texts[0].contains("height=1080 pix_fmt=yuv420p"))
    #expect(!harness.view.events[0].fields.contains { $0.key == "fps" })
  }

  @Test func readyQuotesAPathWithSpacesAndQuotes() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the path holds spaces, a quote, an equals sign and a backslash
    harness.presenter.present(
      .ready(sampleInfo(path: #"/media/my "best" a=b\clip.mp4"#, video: nil, audio: nil), position: .zero), origin: nil)
    // Then the text quotes and escapes it, and the JSON field keeps it raw
    #expect(
      harness.view.texts[0]
        == #"ready path="/media/my \"best\" a=b\\clip.mp4" duration=60.000 container=mov,mp4,m4a,3gp,3g2,mj2 "#
        + "streams=2 video=none audio=none")
    #expect(
      harness.view.events[0].fields[0] == .init("path", .string(#"/media/my "best" a=b\clip.mp4"#)))
  }

  @Test func stateWithAndWithoutID() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a command pauses, autoplay starts, and a state is reported with no duration known
    harness.presenter.present(
      .state(.paused, position: time(12.345), duration: time(60)), origin: harness.interactor.origin(3))
    harness.presenter.present(.state(.playing, position: .zero, duration: time(60)), origin: nil)
    harness.presenter.present(.state(.playing, position: time(1), duration: nil), origin: harness.interactor.origin(4))
    // Then the id shows only when there is one, and an unknown duration is left out
    #expect(
      harness.view.texts == [
        "state #3 state=paused position=12.345 duration=60.000",
        "state state=playing position=0.000 duration=60.000",
        "state #4 state=playing position=1.000",
      ])
    #expect(harness.view.events.map(\.commandID) == [3, nil, 4])
    #expect(
      harness.view.events[0].fields == [
        .init("state", .string("paused")), .init("position", .number(12.345)),
        .init("duration", .number(60)),
      ])
  }

  @Test func progress() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback crosses progress marks, with a known, an unknown and a zero duration
    harness.presenter.present(
      .progress(ProgressMark(position: time(12), duration: time(60), state: .playing, rate: 1)), origin: nil)
    harness.presenter.present(
      .progress(ProgressMark(position: time(5), duration: nil, state: .playing, rate: 1)), origin: nil)
    harness.presenter.present(
      .progress(ProgressMark(position: time(5), duration: .zero, state: .playing, rate: 1)), origin: nil)
    // Then percent has one decimal and is left out when it cannot be known
    #expect(
      harness.view.texts == [
        "progress position=12.000 duration=60.000 percent=20.0 state=playing rate=1",
        "progress position=5.000 state=playing rate=1",
        "progress position=5.000 duration=0.000 state=playing rate=1",
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("position", .number(12)), .init("duration", .number(60)),
        .init("percent", .number(20)),
        .init("state", .string("playing")), .init("rate", .number(1)),
      ])
    // and progress is transient: a terminal's status line shows it in place
    #expect(harness.view.events.allSatisfy { $0.isTransient })
  }

  @Test func aViewThatShowsNoStatusLineTextIsGivenAnEmptyLineAndTheSameEvents() {
    // Given two presenters, one for a view that shows no status line text (JSON lines)
    let shown = PresenterHarness()
    let blank = PresenterHarness()
    blank.presenter.showsStatusLineText = false
    // When the same events come, a queue entry among them
    for harness in [shown, blank] {
      harness.presenter.present(.entry(EntryStarted(index: 2, count: 3, id: 2, path: "b.mp4")), origin: nil)
      harness.presenter.present(
        .progress(ProgressMark(position: time(12), duration: time(60), state: .playing, rate: 1)), origin: nil)
    }
    // Then both get the same events and as many status lines, the second's empty
    #expect(blank.view.texts == shown.view.texts)
    #expect(shown.view.statusLines.count == 1 && shown.view.statusLines[0].contains("b.mp4"))
    #expect(blank.view.statusLines == [""])
  }

  @Test func progressPercentRoundsToOneDecimal() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback is at 83.456 of 300 seconds
    harness.presenter.present(
      .progress(ProgressMark(position: time(83.456), duration: time(300), state: .playing, rate: 1)), origin: nil)
    // Then percent is 27.8 in text and JSON
    #expect(
      harness.view.texts == ["progress position=83.456 duration=300.000 percent=27.8 state=playing rate=1"]
    )
    #expect(harness.view.events[0].fields[2] == .init("percent", .number(27.8)))
  }

  @Test func aClampedSeekCarriesTheTimeAskedForInTextAndJSON() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a seek that was clamped lands
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(id: 2, target: time(30), position: time(30), mode: .exact, milliseconds: 1),
          requested: time(65), duration: time(30), showsTiming: false)), origin: harness.interactor.origin(2))
    // Then it says what was asked for and that it was clamped, after the target
    #expect(harness.view.texts == ["seeked #2 target=30.000 requested=65.000 clamped=true position=30.000 mode=exact"])
    #expect(
      harness.view.events[0].fields == [
        .init("target", .number(30)), .init("requested", .number(65)), .init("clamped", .bool(true)),
        .init("position", .number(30)), .init("mode", .string("exact")),
      ])
  }

  @Test func seeked() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a seek lands
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(id: 4, target: time(30), position: time(30), mode: .exact, milliseconds: 12.3456),
          requested: nil, duration: time(60), showsTiming: true)), origin: harness.interactor.origin(4))
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(
            id: 5, target: time(31.5), position: time(30.0333333), mode: .keyframe, milliseconds: 0.04), requested: nil,
          duration: time(60), showsTiming: true)), origin: harness.interactor.origin(5))
    // Then its id, target, position, mode and time taken; ms to a microsecond in JSON
    #expect(
      harness.view.texts == [
        "seeked #4 target=30.000 position=30.000 mode=exact ms=12.3",
        "seeked #5 target=31.500 position=30.033 mode=keyframe ms=0.0",
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("target", .number(30)), .init("position", .number(30)),
        .init("mode", .string("exact")),
        .init("ms", .number(12.346)),
      ])
    #expect(harness.view.events[1].fields[1] == .init("position", .number(30.033333)))
  }

  @Test func superseded() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a newer seek replaces seek 4
    harness.presenter.present(.superseded(newer: harness.interactor.origin(5)), origin: harness.interactor.origin(4))
    // Then the older id is the event's, and `by` is an integer
    #expect(harness.view.texts == ["superseded #4 by=5"])
    #expect(harness.view.events[0].commandID == 4)
    #expect(harness.view.events[0].fields == [.init("by", .integer(5))])
    // and a seek the session's end cut short says so instead
    harness.presenter.present(.superseded(newer: nil), origin: harness.interactor.origin(6))
    #expect(harness.view.texts.last == "superseded #6 reason=shutdown")
  }

  @Test func endedIsANotice() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback reaches the end, with and without a known duration
    harness.presenter.present(.ended(EndReached(position: time(60), duration: time(60), loops: 1)), origin: nil)
    harness.presenter.present(.ended(EndReached(position: time(61.2), duration: nil, loops: 1)), origin: nil)
    // Then `ended` lines, with notice severity
    #expect(
      harness.view.texts == ["ended position=60.000 duration=60.000 loops=1", "ended position=61.200 loops=1"])
    #expect(harness.view.events.map(\.severity) == [.notice, .notice])
  }

  @Test func endedBackwardSaysItsDirection() {
    // Given a presenter, When playing backward reaches the start, Then `ended` says so (a forward end keeps its shape)
    let harness = PresenterHarness()
    harness.presenter.present(
      .ended(EndReached(position: time(0), duration: time(60), loops: 1, direction: .backward)), origin: nil)
    harness.presenter.present(
      .ended(EndReached(position: time(60), duration: time(60), loops: 2, direction: .forward)), origin: nil)
    #expect(
      harness.view.texts == [
        "ended position=0.000 duration=60.000 loops=1 direction=backward",
        "ended position=60.000 duration=60.000 loops=2",
      ])
  }

  @Test func errorWithAndWithoutID() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a command fails, and the file fails to open
    harness.presenter.present(
      .error(PlaybackError(.unknownCommand, "no such command \"jump\"; type help for the list")),
      origin: harness.interactor.origin(6))
    harness.presenter.present(.error(PlaybackError(.fileNotFound, "no file at x.mp4")), origin: nil)
    // Then error lines with the code and the quoted message, with error severity
    #expect(
      harness.view.texts == [
        #"error #6 code=unknown_command message="no such command \"jump\"; type help for the list""#,
        #"error code=file_not_found message="no file at x.mp4""#,
      ])
    #expect(harness.view.events.map(\.severity) == [.error, .error])
    #expect(
      harness.view.events[0].fields == [
        .init("code", .string("unknown_command")),
        .init("message", .string("no such command \"jump\"; type help for the list")),
      ])
  }

  @Test func errorMessageNeverSpansLines() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a message holds a newline, a tab and an escape character
    harness.presenter.present(.error(PlaybackError(.decodeError, "bad\npacket\there\u{1B}[31m")), origin: nil)
    // Then they are escaped, and the text is one line
    #expect(
      harness.view.texts == [#"error code=decode_error message="bad\npacket\there\u{1B}[31m""#])
    #expect(!harness.view.texts[0].contains("\n"))
  }

  @Test func statusReport() {
    // Given a presenter
    let harness = PresenterHarness()
    // When status is reported, with rates of 1, 1.25 and a third, and with no duration
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(7))
    harness.presenter.present(
      .status(status(.playing, rate: 1.25, frames: 9, errors: 2)), origin: harness.interactor.origin(8))
    harness.presenter.present(
      .status(status(.idle, position: 0, duration: nil, rate: 1.0 / 3, frames: 0)), origin: harness.interactor.origin(9)
    )
    // Then the rate has up to three decimals and the counters are integers
    #expect(
      harness.view.texts == [
        "status #7 state=paused position=30.000 duration=60.000 rate=1 frames_decoded=123 decode_errors=0 loops=0 cache_frames=0 cache_bytes=0 cache_hits=0 cache_misses=0",
        "status #8 state=playing position=30.000 duration=60.000 rate=1.25 frames_decoded=9 decode_errors=2 loops=0 cache_frames=0 cache_bytes=0 cache_hits=0 cache_misses=0",
        "status #9 state=idle position=0.000 rate=0.333 frames_decoded=0 decode_errors=0 loops=0 cache_frames=0 cache_bytes=0 cache_hits=0 cache_misses=0",
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("state", .string("paused")), .init("position", .number(30)),
        .init("duration", .number(60)),
        .init("rate", .number(1)), .init("frames_decoded", .integer(123)),
        .init("decode_errors", .integer(0)), .init("loops", .integer(0)), .init("cache_frames", .integer(0)),
        .init("cache_bytes", .integer(0)), .init("cache_hits", .integer(0)), .init("cache_misses", .integer(0)),
      ])
  }

  @Test func infoWithBitRates() {
    // Given a presenter
    let harness = PresenterHarness()
    // When info is asked of media whose bit rates are known
    let info = sampleInfo(
      bitRate: 1_234_567, video: sampleVideo(bitRate: 1_000_000),
      audio: sampleAudio(bitRate: 128_000))
    harness.presenter.present(.info(info), origin: harness.interactor.origin(8))
    // Then the ready fields, each bit rate next to what it measures
    #expect(
      harness.view.texts == [
        "info #8 path=clip.mp4 duration=60.000 container=mov,mp4,m4a,3gp,3g2,mj2 bitrate=1234567 streams=2 "
          + "video=h264 width=1920 height=1080 fps=30 pix_fmt=yuv420p video_bitrate=1000000 audio=aac "
          + "sample_rate=44100 channels=2 audio_bitrate=128000"
      ])
    let fields = harness.view.events[0].fields
    #expect(fields.contains(.init("bitrate", .integer(1_234_567))))
    #expect(fields.contains(.init("video_bitrate", .integer(1_000_000))))
    #expect(fields.contains(.init("audio_bitrate", .integer(128_000))))
  }

  @Test func infoWithoutBitRatesIsTheReadyLine() {
    // Given a presenter
    let harness = PresenterHarness()
    // When info is asked of media whose bit rates are unknown
    harness.presenter.present(.ready(sampleInfo(), position: .zero), origin: nil)
    harness.presenter.present(.info(sampleInfo()), origin: harness.interactor.origin(2))
    // Then the info line is the ready line with the id
    #expect(
      harness.view.texts[1] == harness.view.texts[0].replacingPrefix("ready ", with: "info #2 "))
  }

  @Test func frame() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the frame on screen is reported
    let frame = FrameIdentity(
      pts: 460_800, timeBase: (1, 15360), time: time(30), isKeyframe: false, width: 1920,
      height: 1080,
      pixelFormat: "yuv420p", md5: "0123456789abcdef0123456789abcdef")
    harness.presenter.present(.frame(frame), origin: harness.interactor.origin(9))
    // Then its identity, with pts as an integer and key as a boolean
    #expect(
      harness.view.texts == [
        "frame #9 pts=460800 time_base=1/15360 time=30.000 key=false width=1920 height=1080 pix_fmt=yuv420p "
          + "md5=0123456789abcdef0123456789abcdef"
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("pts", .integer(460_800)), .init("time_base", .string("1/15360")),
        .init("time", .number(30)),
        .init("key", .bool(false)), .init("width", .integer(1920)), .init("height", .integer(1080)),
        .init("pix_fmt", .string("yuv420p")),
        .init("md5", .string("0123456789abcdef0123456789abcdef")),
      ])
  }

  @Test func mark() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a mark from a script's line 12 is reported, and one with no frame
    let frame = FrameIdentity(
      pts: 460_800, timeBase: (1, 15360), time: time(30), isKeyframe: false, width: 1920, height: 1080,
      pixelFormat: "yuv420p", md5: "0123456789abcdef0123456789abcdef")
    harness.presenter.present(
      .mark(
        SessionMark(
          state: .paused, position: time(30.01), rate: -1, frame: frame, source: SourceLine(number: 12, text: "mark"))),
      origin: harness.interactor.origin(9))
    harness.presenter.present(
      .mark(SessionMark(state: .idle, position: .zero, rate: 1, frame: nil)), origin: harness.interactor.origin(10))
    // Then each is one line: state, position, rate, the frame's pts, time and md5 (none without one), the line
    #expect(
      harness.view.texts == [
        "mark #9 state=paused position=30.010 rate=-1 pts=460800 time=30.000 md5=0123456789abcdef0123456789abcdef "
          + "line=12",
        "mark #10 state=idle position=0.000 rate=1 md5=none",
      ])
  }

  @Test func snapshot() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a picture of the frame on screen was written
    let frame = FrameIdentity(
      pts: 460_800, timeBase: (1, 15360), time: time(30), isKeyframe: false, width: 1920, height: 1080,
      pixelFormat: "yuv420p", md5: "0123456789abcdef0123456789abcdef")
    harness.presenter.present(
      .snapshot(FramePicture(path: "shots/my clip.png", frame: frame, pixelFormat: "rgb24")),
      origin: harness.interactor.origin(4))
    // Then the path (quoted, as it holds a space), size, PNG format, and the frame's pts, time and MD5
    #expect(
      harness.view.texts == [
        #"snapshot #4 path="shots/my clip.png" width=1920 height=1080 format=rgb24 pts=460800 time=30.000 "#
          + "md5=0123456789abcdef0123456789abcdef"
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("path", .string("shots/my clip.png")), .init("width", .integer(1920)), .init("height", .integer(1080)),
        .init("format", .string("rgb24")), .init("pts", .integer(460_800)), .init("time", .number(30)),
        .init("md5", .string("0123456789abcdef0123456789abcdef")),
      ])
  }

  @Test func help() {
    // Given a presenter
    let harness = PresenterHarness()
    // When help is asked for
    harness.presenter.present(.help, origin: harness.interactor.origin(10))
    // Then a header line and one indented line per command, then the keys; the verbs as a field
    let event = harness.view.events[0]
    #expect(event.event == "help")
    #expect(event.commandID == 10)
    #expect(
      event.text == """
        help #10
          play                                                   start or resume playback
          pause                                                  pause playback
          toggle                                                 switch between playing and paused
          scrub <time> [exact|keyframe]                          seek to a time: 83.5, 1:23.5, 1:02:03.25 or 50%
          skip <±seconds> [exact|keyframe]                       seek from where playback is: +10, -5
          step [±N]                                              pause and show the Nth next (or previous) frame
          rate <±x> | *<f> | /<f>                                playback speed: 2, 0.5; negative plays backward: -1; *1.1 faster (wall and virtual clocks)
          status                                                 report state, position and counters
          info                                                   report the media: container, duration, streams, codecs
          frame                                                  report the frame on screen: pts, time, key flag, md5
          mark                                                   report state, position and the frame on screen (md5) at once
          snapshot [path]                                        write the frame on screen as a PNG (default: <file>-<position>.png)
          open <path>                                            load another file
          close                                                  unload the file and go idle
          next                                                   play the queue's next entry
          prev                                                   play the queue's entry before
          goto <N>                                               play the queue's entry N (from 1)
          queue [add|add-next|insert|remove|move|clear|…]        list the queue, or edit it: add <path>, add-next <path>, insert <N> <path>, remove <N>, move <N> <M>, clear, shuffle, unshuffle, loop yes|no
          wait <s> | ended | paused | seeked | position >= <t>   let time pass, or until… [timeout <s>]
          expect <field> <op> <value> [±tol]                     check state, position, frame.md5 …
          help                                                   show this list and the keys
          quit                                                   leave
        keys, on an empty line at a terminal:
          Space   toggle      play or pause
          Left    skip -5     back 5 seconds
          Right   skip +5     forward 5 seconds
          ,       step -1     the frame before
          .       step +1     the frame after
          [       rate /1.1   slower (speed ÷ 1.1)
          ]       rate *1.1   faster (speed × 1.1)
          =       mark        pin the frame on screen (in a --record script: its expect lines)
          ?       help        this list
        """)
    #expect(
      event.fields == [
        .init(
          "commands",
          .string(
            "play pause toggle scrub skip step rate status info frame mark snapshot open close next prev goto queue wait "
              + "expect help quit"))
      ])
  }

  @Test func shutdown() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the session ends by quit, by input ending, and by a signal with no duration known
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .quit, status: status())), origin: harness.interactor.origin(11))
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .inputEnded, status: status(.ended, position: 60))), origin: nil)
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .signal(.interrupt), status: status(.idle, position: 0, duration: nil))),
      origin: nil)
    // Then shutdown lines, with notice severity
    #expect(
      harness.view.texts == [
        "shutdown #11 reason=quit state=paused position=30.000 duration=60.000 frames_decoded=123 decode_errors=0",
        #"shutdown reason="input ended" state=ended position=60.000 duration=60.000 frames_decoded=123 decode_errors=0"#,
        "shutdown reason=SIGINT state=idle position=0.000 frames_decoded=123 decode_errors=0",
      ])
    #expect(harness.view.events.map(\.severity) == [.notice, .notice, .notice])
    // and the view is asked to leave the output clean each time
    #expect(harness.view.finishCount == 3)
  }
  @Test func shutdownWhileOpeningSaysTheOpenWasInterrupted() {
    // Given a presenter, When the session ends on a quit while its file is still opening
    let harness = PresenterHarness()
    harness.presenter.present(
      .shutdown(
        SessionShutdown(reason: .quit, status: status(.loading, position: 0, duration: nil), openInterrupted: true)),
      origin: harness.interactor.origin(1))
    // Then the line says the open was interrupted, in text and as a JSON field
    #expect(
      harness.view.texts == [
        "shutdown #1 reason=quit open=interrupted state=loading position=0.000 frames_decoded=123 decode_errors=0"
      ])
    #expect(harness.view.events.first?.fields.contains(.init("open", .string("interrupted"))) == true)
  }

  @Test func timesInJSONAreRoundedToMicroseconds() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a position carries binary noise
    harness.presenter.present(
      .state(.paused, position: time(12.345000000001), duration: time(59.99999949)),
      origin: harness.interactor.origin(1))
    // Then JSON gets 12.345 and 59.9999995 rounded to the microsecond
    #expect(
      harness.view.events[0].fields == [
        .init("state", .string("paused")), .init("position", .number(12.345)),
        .init("duration", .number(59.999999)),
      ])
    #expect(harness.view.texts == ["state #1 state=paused position=12.345 duration=60.000"])
  }

  @Test func negativeZeroShowsAsZero() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a position is negative zero
    harness.presenter.present(
      .progress(ProgressMark(position: time(-0.0), duration: time(10), state: .playing, rate: 1)), origin: nil)
    // Then it reads 0.000, and JSON carries a positive zero
    #expect(
      harness.view.texts == ["progress position=0.000 duration=10.000 percent=0.0 state=playing rate=1"])
    guard case .number(let position) = harness.view.events[0].fields[0].value else {
      Issue.record("position is not a number")
      return
    }
    #expect(position == 0 && position.sign == .plus)
  }

  @Test func loadingShowsOnlyAStatusLine() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a file starts loading
    harness.presenter.present(.loading(path: "/media/films/clip one.mp4", paused: true), origin: nil)
    // Then no event, and a status line naming the file
    #expect(harness.view.events.isEmpty)
    #expect(harness.view.statusLines == ["… loading clip one.mp4"])
  }

  @Test func anEntryShowsItsLineAndTheStatusLineNamesIt() {
    // Given a presenter
    let harness = PresenterHarness()
    // When an entry of a list starts, then plays
    harness.presenter.present(
      .entry(EntryStarted(index: 2, count: 3, id: 2, path: "/media/ep2.mp4")), origin: nil)
    harness.presenter.present(.state(.playing, position: time(1), duration: time(10)), origin: nil)
    // Then the entry has its line, and the status line names it after the times
    #expect(harness.view.texts.first == "entry index=2 count=3 entry_id=2 path=/media/ep2.mp4")
    #expect(harness.view.statusLines.last?.hasSuffix("]  2/3 ep2.mp4") == true)
    // When the file closes (`close`, or `queue remove` of the last entry playing), the idle line names no entry
    harness.presenter.present(.closed(nextPaused: false), origin: nil)
    #expect(harness.view.statusLines.last?.contains("ep2.mp4") == false)
  }

  @Test func loadingEscapesControlCharactersInTheName() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the file's name holds an escape sequence and a newline
    harness.presenter.present(.loading(path: "evil\u{1B}[2J\nname.mp4", paused: true), origin: nil)
    // Then the status line shows them escaped, safe for a terminal
    #expect(harness.view.statusLines == [#"… loading evil\u{1B}[2J\nname.mp4"#])
  }

  @Test func withNoViewNothingBreaks() {
    // Given a presenter whose view has gone
    let presenter = PlaybackPresenter(interactor: InteractorSpy(), viewID: .primary)
    // When it presents
    presenter.present(.ready(sampleInfo(), position: .zero), origin: nil)
    presenter.present(.help, origin: CommandOrigin(id: 1, sender: nil))
    // Then nothing happens (and nothing crashes)
    #expect(presenter.view == nil)
  }
}

@MainActor
@Suite("Presenter status line")
struct PlaybackPresenterStatusLineTests {
  @Test func readyShowsPausedAtTheStart() {
    // Given a presenter that showed loading
    let harness = PresenterHarness()
    harness.presenter.present(.loading(path: "clip.mp4", paused: true), origin: nil)
    // When the media is ready
    harness.presenter.present(.ready(sampleInfo(), position: .zero), origin: nil)
    // Then the status line shows paused at 0 of 60 seconds, 0% and an empty bar
    #expect(harness.view.statusLines.last == "⏸ 00:00:00.000 / 00:01:00.000    0.0%  [\(emptyBar)]")
  }

  @Test func readyShowsTheFirstFramesPositionWhenItIsNotZero() {
    // Given a presenter, When media whose first frame is at 0.014 s is ready
    let harness = PresenterHarness()
    harness.presenter.present(.ready(sampleInfo(), position: time(0.014)), origin: nil)
    // Then the status line shows that position, as state and status will
    #expect(harness.view.statusLines.last?.hasPrefix("⏸ 00:00:00.014 / 00:01:00.000") == true)
  }

  @Test func theDesignExample() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback passes 83.456 seconds of 300
    harness.presenter.present(
      .progress(ProgressMark(position: time(83.456), duration: time(300), state: .playing, rate: 1)), origin: nil)
    // Then the documented status line
    #expect(
      harness.view.statusLines == ["▶ 00:01:23.456 / 00:05:00.000   27.8%  [█████░░░░░░░░░░░░░]"])
  }

  @Test func endedIsFull() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback reaches the end
    harness.presenter.present(.ended(EndReached(position: time(60), duration: time(60), loops: 1)), origin: nil)
    // Then 100% and a full bar, with the ended glyph
    #expect(harness.view.statusLines == ["■ 00:01:00.000 / 00:01:00.000  100.0%  [\(fullBar)]"])
  }

  @Test func barFollowsTheShownPercentage() {
    // Given a presenter
    let harness = PresenterHarness()
    // When playback is a hair short of the end, and at half way
    harness.presenter.present(
      .progress(ProgressMark(position: time(59.99), duration: time(60), state: .playing, rate: 1)), origin: nil)
    harness.presenter.present(
      .progress(ProgressMark(position: time(30), duration: time(60), state: .playing, rate: 1)), origin: nil)
    // Then 100.0% shows a full bar, 50% shows nine cells
    #expect(
      harness.view.statusLines == [
        "▶ 00:00:59.990 / 00:01:00.000  100.0%  [\(fullBar)]",
        "▶ 00:00:30.000 / 00:01:00.000   50.0%  [█████████░░░░░░░░░]",
      ])
  }

  @Test func unknownOrZeroDuration() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the duration is unknown, then zero
    harness.presenter.present(.state(.playing, position: time(12.345), duration: nil), origin: nil)
    harness.presenter.present(
      .progress(ProgressMark(position: time(13), duration: .zero, state: .playing, rate: 1)), origin: nil)
    // Then dashes for the duration and no percentage or bar
    #expect(
      harness.view.statusLines == [
        "▶ 00:00:12.345 / --:--:--.---",
        "▶ 00:00:13.000 / --:--:--.---",
      ])
  }

  @Test func aRateRedrawsTheLineWithTheSpeedAndProgressKeepsIt() {
    // Given a presenter showing paused playback
    let harness = PresenterHarness()
    harness.presenter.present(.state(.paused, position: time(10), duration: nil), origin: harness.interactor.origin(1))
    // When the rate becomes 1.1, then playback reports progress backward at speed 2
    harness.presenter.present(.rate(1.1), origin: harness.interactor.origin(2))
    harness.presenter.present(
      .progress(ProgressMark(position: time(9), duration: nil, state: .playing, rate: -2)), origin: nil)
    // Then the line shows each speed where it is, and the left glyph backward
    #expect(
      harness.view.statusLines == [
        "⏸ 00:00:10.000 / --:--:--.---",
        "⏸ 00:00:10.000 / --:--:--.---  x1.10",
        "◀ 00:00:09.000 / --:--:--.---  x-2.00",
      ])
  }

  @Test func seekedKeepsTheShownState() {
    // Given a presenter showing paused playback
    let harness = PresenterHarness()
    harness.presenter.present(
      .state(.paused, position: time(10), duration: time(60)), origin: harness.interactor.origin(1))
    // When a seek lands
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(id: 2, target: time(45), position: time(45), mode: .exact, milliseconds: 3),
          requested: nil, duration: time(60), showsTiming: true)), origin: harness.interactor.origin(2))
    // Then the line shows the new position, still paused
    #expect(
      harness.view.statusLines.last == "⏸ 00:00:45.000 / 00:01:00.000   75.0%  [█████████████░░░░░]")
  }

  @Test func everyGlyph() {
    // Given the status line's states
    // When each is formatted
    let glyphs = PlaybackState.allCases.map { state in
      StatusLineText.line(state: state, position: .zero, duration: nil).prefix(1)
    }
    // Then each has its glyph
    #expect(glyphs == ["○", "…", "▶", "⏸", "■"])
  }

  @Test func onlyPlaybackEventsRedrawIt() {
    // Given a presenter that has drawn its status line
    let harness = PresenterHarness()
    harness.presenter.present(.loading(path: "clip.mp4", paused: true), origin: nil)
    harness.view.statusLines.removeAll()
    // When events that do not move playback arrive
    harness.presenter.present(.superseded(newer: harness.interactor.origin(2)), origin: harness.interactor.origin(1))
    harness.presenter.present(.error(PlaybackError(.badArgument, "x")), origin: harness.interactor.origin(3))
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(4))
    harness.presenter.present(.info(sampleInfo()), origin: harness.interactor.origin(5))
    harness.presenter.present(.help, origin: harness.interactor.origin(6))
    harness.presenter.present(
      .shutdown(SessionShutdown(reason: .quit, status: status())), origin: harness.interactor.origin(7))
    // Then the status line is never redrawn
    #expect(harness.view.statusLines.isEmpty)
    #expect(harness.view.events.count == 6)
  }

  @Test func aViewThatJoinedARunningSessionGetsItsStatusLineFromItsFirstStatus() {
    // Given a presenter that has drawn nothing (a client that joined a running session)
    let harness = PresenterHarness()
    // When its first status comes, then a second
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(1))
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(2))
    // Then the first draws the status line, the second leaves it to the playback events
    #expect(harness.view.statusLines == ["⏸ 00:00:30.000 / 00:01:00.000   50.0%  [█████████░░░░░░░░░]"])
    #expect(harness.view.events.count == 2)
  }

  @Test func aViewThatJoinsARunningSessionDrawsItsStatusLineWithoutACommand() {
    // Given a presenter that has drawn nothing, and a session paused half-way
    let harness = PresenterHarness()
    harness.interactor.status = status()
    // When it joins the session
    harness.presenter.showJoinedSession()
    // Then it draws the session's status line at once, shows no event and submits no command
    #expect(harness.view.statusLines == ["⏸ 00:00:30.000 / 00:01:00.000   50.0%  [█████████░░░░░░░░░]"])
    #expect(harness.view.events.isEmpty)
    #expect(harness.interactor.calls.isEmpty)
  }

  @Test func longTimes() {
    // Given times past 99 hours and below zero
    // When formatted as a status line
    let line = StatusLineText.line(
      state: .playing, position: time(-1.5), duration: time(360_000.5))
    // Then hours grow to three digits and the sign shows
    #expect(line == "▶ -00:00:01.500 / 100:00:00.500    0.0%  [\(emptyBar)]")
  }
}

@Suite("Presenter formatting helpers")
struct PlaybackPresenterFormattingTests {
  @Test(
    arguments: [
      (12.345, "12.345"), (0, "0.000"), (60, "60.000"), (59.9995, "60.000"), (59.9994, "59.999"),
      (1.0005, "1.001"),
      (0.0005, "0.001"), (0.0004999, "0.000"), (12.3456, "12.346"), (-1.5, "-1.500"),
      (-0.0, "0.000"),
      (-0.0004, "0.000"), (-0.0005, "-0.001"), (1e-7, "0.000"), (123_456_789.125, "123456789.125"),
      (1e20, "100000000000000000000.000"), (9.9999999, "10.000"),
    ] as [(Double, String)])
  func seconds(value: Double, text: String) {
    // Given a number of seconds
    // When it is formatted
    // Then it has exactly three decimals, rounded half away from zero on its decimal form
    #expect(NumberText.seconds(value) == text)
  }

  @Test(
    arguments: [
      (0, "00:00:00.000"), (83.456, "00:01:23.456"), (59.9995, "00:01:00.000"),
      (3723.25, "01:02:03.250"),
      (359_999.999, "99:59:59.999"), (360_000, "100:00:00.000"),
      (3_600_000 * 1.5, "1500:00:00.000"),
      (-0.0, "00:00:00.000"), (-0.0001, "00:00:00.000"), (-61.5, "-00:01:01.500"),
    ] as [(Double, String)])
  func clock(value: Double, text: String) {
    // Given a number of seconds
    // When it is formatted as a clock
    // Then HH:MM:SS.mmm, rounded as `seconds` rounds
    #expect(NumberText.clock(value) == text)
  }

  @Test func roundingAgreesBetweenSecondsAndClock() {
    // Given values near a rounding boundary
    for value in [59.9995, 0.0005, 3599.9995, 1.0005, 2.675] {
      // When formatted both ways
      let seconds = NumberText.seconds(value)
      let clock = NumberText.clock(value)
      // Then the clock's seconds and milliseconds match the seconds' text
      let secondsPart = Double(seconds)!.truncatingRemainder(dividingBy: 60)
      #expect(
        clock.hasSuffix(NumberText.fixed(secondsPart, decimals: 3).leftPadded(to: 6)),
        "\(value)")
    }
  }

  @Test func nonFiniteValues() {
    // Given values that are not finite
    // When formatted
    // Then seconds names them and the clock shows dashes
    #expect(NumberText.seconds(.nan) == "nan")
    #expect(NumberText.seconds(.infinity) == "inf")
    #expect(NumberText.seconds(-.infinity) == "-inf")
    #expect(NumberText.clock(.nan) == "--:--:--.---")
    #expect(NumberText.clock(.infinity) == "--:--:--.---")
    #expect(NumberText.clock(1e300) == "--:--:--.---")
    #expect(NumberText.rounded(.infinity, decimals: 6) == .infinity)
    #expect(
      StatusLineText.line(state: .playing, position: time(.nan), duration: time(60))
        == "▶ --:--:--.--- / 00:01:00.000")
  }

  @Test(
    arguments: [
      (30.0, "30"), (30000.0 / 1001, "29.97"), (24000.0 / 1001, "23.976"), (0.5, "0.5"),
      (1.0 / 3, "0.333"),
      (0.0001, "0"), (2.0005, "2.001"), (-0.0, "0"), (100, "100"),
    ] as [(Double, String)])
  func trimmedDecimals(value: Double, text: String) {
    // Given a rate
    // When it is formatted with up to three decimals
    // Then trailing zeros and a bare point are gone
    #expect(NumberText.trimmed(value, decimals: 3) == text)
  }

  @Test func roundedForJSON() {
    // Given numbers with binary noise
    // When rounded for JSON
    // Then they print in their short form
    #expect(NumberText.rounded(12.345000000001, decimals: 6).description == "12.345")
    #expect(NumberText.rounded(0.1 + 0.2, decimals: 6).description == "0.3")
    #expect(NumberText.rounded(-0.0, decimals: 6).sign == .plus)
    #expect(NumberText.rounded(27.777777, decimals: 1) == 27.8)
  }

  @Test(
    arguments: [
      ("clip.mp4", "clip.mp4"), ("", #""""#), ("a b", #""a b""#), (#"say "hi""#, #""say \"hi\"""#),
      (#"C:\x"#, #""C:\\x""#), ("a=b", #""a=b""#), ("one\ntwo", #""one\ntwo""#),
      ("tab\there", #""tab\there""#),
      ("cr\r", #""cr\r""#), ("esc\u{1B}", #""esc\u{1B}""#), ("del\u{7F}", #""del\u{7F}""#),
      ("nul\u{0}", #""nul\u{00}""#), ("c1\u{85}", #""c1\u{85}""#),
      ("line\u{2028}sep", #""line\u{2028}sep""#),
      ("nbsp\u{A0}x", "\"nbsp\u{A0}x\""), ("héllo☃😀", "héllo☃😀"), ("mov,mp4", "mov,mp4"),
      ("#5", "#5"),
    ] as [(String, String)])
  func quoting(value: String, text: String) {
    // Given a string value
    // When it is written after `key=`
    // Then it is bare when safe, else quoted with escapes, and never spans lines
    let quoted = TextQuoting.value(value)
    #expect(quoted == text)
    #expect(!quoted.contains("\n") && !quoted.contains("\r"))
  }

  @Test(
    arguments: [
      ("clip.mp4", "clip.mp4"), ("/media/a/clip.mp4", "clip.mp4"), ("dir/", "dir"), ("/", "/"),
      ("", ""),
    ] as [(String, String)])
  func fileNames(path: String, name: String) {
    // Given a path
    // When its file name is taken
    // Then the last component, or the path itself when it has none
    #expect(StatusLineText.fileName(path) == name)
  }
}

@MainActor
@Suite("Presenter input routing")
struct PlaybackPresenterInputTests {
  @Test func startStartsTheInteractor() {
    // Given a presenter
    let harness = PresenterHarness()
    // When the view starts
    harness.presenter.onStart()
    // Then the interactor starts
    #expect(harness.interactor.calls == [.start])
  }

  @Test func linesFollowTheParsersVerdict() {
    // Given a presenter and the parser it uses
    let harness = PresenterHarness()
    let parser = CommandParser()
    let lines = [
      "play", "", "   ", "# a comment", "scrub 1:30 exact", "skip -5", "frobnicate",
      "pause now please",
    ]
    // When each line arrives
    var expected: [InteractorSpy.Call] = []
    for line in lines {
      harness.presenter.onInputLine(.text(line))
      switch parser.parse(line) {
      case .empty: break
      case .command(let command): expected.append(.submit(command))
      case .invalid(let error): expected.append(.submitInvalid(error))
      }
    }
    // Then commands are submitted, invalid lines submitted as errors, and blank lines dropped
    #expect(harness.interactor.calls == expected)
  }

  @Test func commandsAreSubmitted() {
    // Given a presenter
    let harness = PresenterHarness()
    // When command lines arrive, with blank lines and comments among them
    harness.presenter.onInputLine(.text("play"))
    harness.presenter.onInputLine(.text(""))
    harness.presenter.onInputLine(.text("# comment"))
    harness.presenter.onInputLine(.text("status"))
    // Then each command is submitted once, and nothing else
    #expect(harness.interactor.calls == [.submit(.play), .submit(.status)])
  }

  @Test func unknownVerbIsSubmittedAsInvalid() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a line names no command
    harness.presenter.onInputLine(.text("frobnicate"))
    // Then it is submitted as an invalid line with the parser's error
    guard case .submitInvalid(let error) = harness.interactor.calls.first else {
      Issue.record("not submitted as invalid: \(harness.interactor.calls)")
      return
    }
    #expect(error.code == .unknownCommand)
    #expect(harness.interactor.calls.count == 1)
  }

  @Test func tooLongLineIsBadInput() {
    // Given a presenter whose reader takes lines of up to 65536 bytes
    let harness = PresenterHarness()
    // When a line of 70000 bytes arrives
    harness.presenter.onInputLine(.tooLong(byteCount: 70000))
    // Then a bad_input error that says what to do
    #expect(
      harness.interactor.calls == [
        .submitInvalid(
          PlaybackError(
            .badInput, "line of 70000 bytes is over the 65536-byte limit; send one command per line"
          ))
      ])
  }

  @Test func tooLongLineNamesTheReadersLimit() {
    // Given a presenter whose reader takes lines of up to 100 bytes
    let harness = PresenterHarness(maxLineBytes: 100)
    // When a longer line arrives
    harness.presenter.onInputLine(.tooLong(byteCount: 101))
    // Then the error names that limit
    #expect(
      harness.interactor.calls == [
        .submitInvalid(
          PlaybackError(
            .badInput, "line of 101 bytes is over the 100-byte limit; send one command per line"))
      ])
  }

  @Test func invalidUTF8IsBadInput() {
    // Given a presenter
    let harness = PresenterHarness()
    // When a line that is not UTF-8 arrives
    harness.presenter.onInputLine(.invalidUTF8)
    // Then a bad_input error that says what to do
    #expect(
      harness.interactor.calls == [
        .submitInvalid(
          PlaybackError(
            .badInput, "line is not valid UTF-8; send commands as UTF-8 text, one per line"))
      ])
  }

  @Test func endOfInputSignalsAndClosedOutput() {
    // Given a presenter
    let harness = PresenterHarness()
    // When input ends, signals arrive and the output closes
    harness.presenter.onInputEnded()
    harness.presenter.onSignal(.interrupt)
    harness.presenter.onSignal(.terminate)
    harness.presenter.onOutputClosed()
    // Then each is forwarded as it is
    #expect(
      harness.interactor.calls == [
        .inputEnded, .terminate(.interrupt), .terminate(.terminate), .outputClosed,
      ])
  }

  @Test func holdsTheViewWeaklyAndTheInteractorStrongly() {
    // Given a presenter given a view and an interactor that nothing else holds
    let presenter: PlaybackPresenter
    weak var interactor: InteractorSpy?
    do {
      let spy = InteractorSpy()
      interactor = spy
      presenter = PlaybackPresenter(interactor: spy, viewID: .primary)
      let view = ViewSpy()
      presenter.view = view
    }
    // When they leave scope
    // Then the view is gone and the interactor stays
    #expect(presenter.view == nil)
    #expect(interactor != nil)
    withExtendedLifetime(presenter) {}
  }
}

extension String {
  fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }

  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

// MARK: - Issue 3 events

@MainActor
@Suite("Presenter events for step, rate, wait, expect, close")
struct PlaybackPresenterNewEventTests {
  private func check(
    _ field: ExpectField, _ op: ExpectOperator, tolerance: Double? = nil
  ) -> VideoPlaybackKit.Expectation {
    VideoPlaybackKit.Expectation(field: field, op: op, expected: .value(.none), tolerance: tolerance)
  }

  @Test func stepped() {
    // Given a presenter, When a step lands (one short at the end), Then position, moved and requested
    let harness = PresenterHarness()
    harness.presenter.present(
      .stepped(StepResult(id: 3, requested: 5, moved: 4, position: time(59.9)), duration: time(60)),
      origin: harness.interactor.origin(3))
    #expect(harness.view.texts == ["stepped #3 position=59.900 moved=4 requested=5"])
    #expect(
      harness.view.events[0].fields == [
        .init("position", .number(59.9)), .init("moved", .integer(4)), .init("requested", .integer(5)),
      ])
    // and the status line shows it paused there
    #expect(harness.view.statusLines.last?.hasPrefix("⏸ 00:00:59.900") == true)
  }

  @Test func rate() {
    let harness = PresenterHarness()
    harness.presenter.present(.rate(2), origin: harness.interactor.origin(4))
    harness.presenter.present(.rate(1.0 / 3), origin: harness.interactor.origin(5))
    #expect(harness.view.texts == ["rate #4 rate=2", "rate #5 rate=0.333"])
    #expect(harness.view.events[1].fields == [.init("rate", .number(0.333))])
  }

  @Test func waited() {
    // Given waits that held, When shown, Then the condition as written (quoted when it has spaces) and where
    let harness = PresenterHarness()
    harness.presenter.present(.waited(.ended, position: time(60)), origin: harness.interactor.origin(1))
    harness.presenter.present(
      .waited(.position(.seconds(12.5)), position: time(12.5)), origin: harness.interactor.origin(2))
    harness.presenter.present(.waited(.duration(2), position: time(4)), origin: harness.interactor.origin(3))
    #expect(
      harness.view.texts == [
        "waited #1 condition=ended position=60.000",
        #"waited #2 condition="position >= 12.5" position=12.500"#,
        #"waited #3 condition="2 s" position=4.000"#,
      ])
    #expect(
      harness.view.events[1].fields == [
        .init("condition", .string("position >= 12.5")), .init("position", .number(12.5)),
      ])
  }

  @Test func expectPass() {
    // Given a check that held, When shown, Then result, field, op, both values and the tolerance, at info
    let harness = PresenterHarness()
    harness.presenter.present(
      .expectation(
        ExpectationOutcome(
          expectation: check(.position, .approximately, tolerance: 0.01), expected: .number(10),
          actual: .number(10.0049999), held: true, source: SourceLine(number: 2, text: "expect position ~ 10 ±0.01"))),
      origin: harness.interactor.origin(6))
    #expect(
      harness.view.texts == [
        "expect #6 result=pass field=position op=~ expected=10 actual=10.005 tolerance=0.01"
      ])
    #expect(
      harness.view.events[0].fields == [
        .init("result", .string("pass")), .init("field", .string("position")), .init("op", .string("~")),
        .init("expected", .number(10)), .init("actual", .number(10.005)), .init("tolerance", .number(0.01)),
      ])
    #expect(harness.view.events[0].severity == .info)
  }

  @Test func expectFailCarriesItsLine() {
    // Given a check that failed on line 7, When shown, Then line= and source= point at it, at error severity
    // (operators holding `=` are quoted, as every value with `=` is)
    let harness = PresenterHarness()
    harness.presenter.present(
      .expectation(
        ExpectationOutcome(
          expectation: check(.state, .equal), expected: .string("playing"), actual: .string("paused"), held: false,
          source: SourceLine(number: 7, text: "  expect state == playing  "))), origin: harness.interactor.origin(8))
    harness.presenter.present(
      .expectation(
        ExpectationOutcome(
          expectation: check(.frameMD5, .notEqual), expected: .none, actual: .none, held: false, source: nil)),
      origin: harness.interactor.origin(9))
    harness.presenter.present(
      .expectation(
        ExpectationOutcome(
          expectation: check(.frameKey, .equal), expected: .bool(true), actual: .bool(false), held: false, source: nil)),
      origin: harness.interactor.origin(10))
    #expect(
      harness.view.texts == [
        #"expect #8 result=fail field=state op="==" expected=playing actual=paused line=7 source="expect state == playing""#,
        #"expect #9 result=fail field=frame.md5 op="!=" expected=none actual=none"#,
        #"expect #10 result=fail field=frame.key op="==" expected=true actual=false"#,
      ])
    #expect(
      harness.view.events[0].fields.suffix(2) == [
        .init("line", .integer(7)), .init("source", .string("expect state == playing")),
      ])
    #expect(harness.view.events[1].fields[3] == .init("expected", .null))
    #expect(harness.view.events[2].fields[4] == .init("actual", .bool(false)))
    #expect(harness.view.events.map(\.severity) == [.error, .error, .error])
  }

  @Test func closed() {
    let harness = PresenterHarness()
    harness.presenter.present(.closed(nextPaused: true), origin: harness.interactor.origin(3))
    #expect(harness.view.texts == ["closed #3"])
    #expect(harness.view.events[0].fields.isEmpty)
    #expect(harness.view.statusLines == ["○ 00:00:00.000 / --:--:--.---"])
  }

  @Test func readyAnsweringAnOpenCarriesItsID() {
    let harness = PresenterHarness()
    harness.presenter.present(
      .ready(sampleInfo(video: nil, audio: nil), position: .zero), origin: harness.interactor.origin(2))
    #expect(harness.view.texts[0].hasPrefix("ready #2 path=clip.mp4 "))
    #expect(harness.view.events[0].commandID == 2)
  }

  @Test func endedCountsLoopsAndStatusShowsLoopsAndLateness() {
    let harness = PresenterHarness()
    harness.presenter.present(.ended(EndReached(position: time(10), duration: time(10), loops: 3)), origin: nil)
    var report = status(.playing, position: 4)
    report.loops = 3
    report.latenessP99 = 1.5
    harness.presenter.present(.status(report), origin: harness.interactor.origin(2))
    #expect(
      harness.view.texts == [
        "ended position=10.000 duration=10.000 loops=3",
        "status #2 state=playing position=4.000 duration=60.000 rate=1 frames_decoded=123 decode_errors=0 loops=3 cache_frames=0 cache_bytes=0 cache_hits=0 cache_misses=0 late_p99_ms=1.500",
      ])
    #expect(harness.view.events[1].fields.last == .init("late_p99_ms", .number(1.5)))
  }

  @Test func progressShowsTheRate() {
    let harness = PresenterHarness()
    harness.presenter.present(
      .progress(ProgressMark(position: time(1), duration: nil, state: .playing, rate: 0.5)), origin: nil)
    #expect(harness.view.texts == ["progress position=1.000 state=playing rate=0.5"])
  }

  @Test func seekedWithoutTimingHasNoMilliseconds() {
    // Given the virtual clock (no wall-clock figures), When a seek lands, Then no ms field
    let harness = PresenterHarness()
    harness.presenter.present(
      .seeked(
        SeekOutcome(
          result: SeekResult(id: 2, target: time(5), position: time(5), mode: .keyframe, milliseconds: 12),
          requested: nil, duration: time(60), showsTiming: false)), origin: harness.interactor.origin(2))
    #expect(harness.view.texts == ["seeked #2 target=5.000 position=5.000 mode=keyframe"])
    #expect(!harness.view.events[0].fields.contains { $0.key == "ms" })
  }
}

// MARK: - Client ids and source lines

@MainActor
@Suite("Presenter client ids and line numbers")
struct PlaybackPresenterClientIDTests {
  @Test(arguments: [
    (#"{"command":"status","id":"a1"}"#, "status #a1", EventViewModel.Value.string("a1")),
    (#"{"command":"status","id":"x y"}"#, #"status #"x y""#, .string("x y")),
    (#"{"command":"status","id":7}"#, "status #7", .integer(7)),
    (#"{"command":"status","id":-3}"#, "status #-3", .integer(-3)),
    (#"{"command":"status","id":2.5}"#, "status #2.5", .number(2.5)),
  ])
  func eventsCarryTheClientsID(line: String, header: String, value: EventViewModel.Value) {
    // Given a JSON command with an id, When its answer is shown, Then the text header names the client's id,
    // and the model carries it next to the ordinal
    let harness = PresenterHarness()
    harness.presenter.onInputLine(.text(line))
    #expect(harness.interactor.calls == [.submit(.status)])
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(1))
    #expect(harness.view.texts[0].hasPrefix(header + " state=paused"))
    #expect(harness.view.events[0].clientID == value)
    #expect(harness.view.events[0].commandID == 1)
  }

  @Test func anInvalidJSONCommandStillCarriesItsID() {
    let harness = PresenterHarness()
    harness.presenter.onInputLine(.text(#"{"command":"scrub","args":["x"],"id":"q9"}"#))
    harness.presenter.present(.error(PlaybackError(.badArgument, "x")), origin: harness.interactor.origin(1))
    #expect(harness.view.texts == [#"error #q9 code=bad_argument message=x"#])
  }

  @Test func commandsWithoutAClientIDKeepTheirOrdinal() {
    let harness = PresenterHarness()
    harness.presenter.onInputLine(.text(#"{"command":"status","id":"a"}"#))
    harness.presenter.onInputLine(.text("status"))
    harness.presenter.present(.status(status()), origin: harness.interactor.origin(2))
    #expect(harness.view.texts[0].hasPrefix("status #2 "))
    #expect(harness.view.events[0].clientID == nil)
  }

  @Test func supersededByAClientsCommandNamesItsID() {
    // Given two JSON scrubs with ids, When the second supersedes the first, Then `by` is the client's id
    let harness = PresenterHarness()
    harness.presenter.onInputLine(.text(#"{"command":"scrub","args":[10],"id":"s1"}"#))
    harness.presenter.onInputLine(.text(#"{"command":"scrub","args":[20],"id":"s2"}"#))
    harness.presenter.present(.superseded(newer: harness.interactor.origin(2)), origin: harness.interactor.origin(1))
    #expect(harness.view.texts == ["superseded #s1 by=s2"])
    #expect(harness.view.events[0].fields == [.init("by", .string("s2"))])
  }

  @Test func lineNumbersCountEveryInputLine() {
    // Given blank, comment, too-long and invalid lines among commands
    let harness = PresenterHarness()
    harness.presenter.onInputLine(.text(""))
    harness.presenter.onInputLine(.text("# comment"))
    harness.presenter.onInputLine(.tooLong(byteCount: 70_000))
    harness.presenter.onInputLine(.invalidUTF8)
    harness.presenter.onInputLine(.text("  status  "))
    harness.presenter.onInputLine(.text("frobnicate"))
    // Then each submission names its line, counting every line before it
    #expect(
      harness.interactor.sources == [
        SourceLine(number: 3, text: ""), SourceLine(number: 4, text: ""), SourceLine(number: 5, text: "  status  "),
        SourceLine(number: 6, text: "frobnicate"),
      ])
  }
}

/// An interactor that answers `help` at once, inside `submit`, as the real one does with nothing pending.
@MainActor
private final class ImmediateInteractor: PlaybackInteractorInput {
  weak var presenter: PlaybackPresenter?
  private var lastID = 0
  func withdraw(_ id: Int) {}
  func start() {}
  func submit(_ command: Command, source: SourceLine?, from sender: CommandSender?) -> Int {
    lastID += 1
    presenter?.present(.help, origin: CommandOrigin(id: lastID, sender: sender))
    return lastID
  }
  func submitInvalid(_ error: PlaybackError, source: SourceLine?, from sender: CommandSender?) -> Int {
    lastID += 1
    presenter?.present(.error(error), origin: CommandOrigin(id: lastID, sender: sender))
    return lastID
  }
  func inputEnded() {}
  func terminate(_ signal: TerminationSignal) {}
  func outputClosed() {}
  func suspend() {}
  func resumeAfterSuspend() {}
  func currentStatus() -> PlaybackStatus {
    PlaybackStatus(state: .idle, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)
  }
}

@MainActor
@Suite("Presenter client ids of immediate answers")
struct PlaybackPresenterImmediateAnswerTests {
  @Test func anAnswerPresentedDuringSubmitCarriesTheClientsID() {
    // Given an interactor that answers before `submit` returns the command's number
    let interactor = ImmediateInteractor()
    let presenter = PlaybackPresenter(interactor: interactor, viewID: .primary)
    let view = ViewSpy()
    presenter.view = view
    interactor.presenter = presenter
    // When JSON commands with ids arrive (one valid, one not), and a text command after them
    presenter.onInputLine(.text(#"{"command":"help","id":"h1"}"#))
    presenter.onInputLine(.text(#"{"command":"frobnicate","id":9}"#))
    presenter.onInputLine(.text("help"))
    // Then each answer names its own command's id
    #expect(view.events.map(\.clientID) == [.string("h1"), .integer(9), nil])
    #expect(view.events.map(\.commandID) == [1, 2, 3])
  }
}

import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

@Suite("mpv's JSON IPC: reading requests")
struct MPVCommandTranslatorTests {
  let translator = MPVCommandTranslator()

  private func command(_ line: String) -> Result<MPVCommand, MPVRequestError> { translator.translate(line).command }
  private func error(_ line: String) -> MPVError? {
    if case .failure(let failure) = command(line) { failure.error } else { nil }
  }

  @Test("an object whose command is an array is mpv's; vpk's own JSON and text lines are not")
  func detectsTheDialect() {
    #expect(MPVCommandTranslator.isMPVRequest(#"{"command": ["get_property", "time-pos"]}"#))
    #expect(MPVCommandTranslator.isMPVRequest(#"  {"command": [], "request_id": 3}"#))
    #expect(!MPVCommandTranslator.isMPVRequest(#"{"command": "scrub", "args": [10]}"#))
    #expect(!MPVCommandTranslator.isMPVRequest("status"))
    #expect(!MPVCommandTranslator.isMPVRequest("{not json"))
  }

  @Test("a text line naming one of mpv's input commands, or starting with its prefix, is mpv's; vpk's verbs are not")
  func detectsMPVTextLines() {
    for line in ["cycle pause", "seek 20 absolute", "set pause yes", "  no-osd seek 1", "frame_step", "show-text hi"] {
      #expect(MPVCommandTranslator.isMPVTextLine(line), "\(line)")
    }
    for line in ["quit", "status", "scrub 20", "pause", "format text", "record /tmp/x", "seek 'broken", "", "# c"] {
      #expect(!MPVCommandTranslator.isMPVTextLine(line), "\(line)")
    }
    #expect(!MPVCommandTranslator.isMPVTextLine(#"{"command": ["seek", 1]}"#))
  }

  @Test("the request_id comes back as the client gave it, 0 when it gave none")
  func requestIDs() {
    #expect(translator.translate(#"{"command": ["get_version"]}"#).requestID == .integer(0))
    #expect(translator.translate(#"{"command": ["get_version"], "request_id": 7}"#).requestID == .integer(7))
    #expect(translator.translate(#"{"command": ["get_version"], "request_id": "a"}"#).requestID == .string("a"))
    // Even a request mpv refuses echoes its id.
    #expect(translator.translate(#"{"command": ["nope"], "request_id": 9}"#).requestID == .integer(9))
  }

  @Test("seek's flags: references, precision, and the legacy third argument")
  func seekFlags() {
    #expect(command(#"{"command": ["seek", 10]}"#) == .success(.seek(10, .relative, nil)))
    #expect(command(#"{"command": ["seek", 2.5, "absolute+exact"]}"#) == .success(.seek(2.5, .absolute, .exact)))
    #expect(command(#"{"command": ["seek", "50", "absolute-percent"]}"#) == .success(.seek(50, .absolutePercent, nil)))
    #expect(
      command(#"{"command": ["seek", -5, "relative-percent+keyframes"]}"#)
        == .success(.seek(-5, .relativePercent, .keyframe)))
    #expect(command(#"{"command": ["seek", 3, "absolute", "exact"]}"#) == .success(.seek(3, .absolute, .exact)))
    #expect(error(#"{"command": ["seek", 3, "sideways"]}"#) == .invalidParameter)
    #expect(error(#"{"command": ["seek", "abc"]}"#) == .invalidParameter)
  }

  @Test("properties: known ones are read and set, unknown ones are not found, read-only ones refused")
  func properties() {
    #expect(command(#"{"command": ["get_property", "time-pos"]}"#) == .success(.getProperty(.timePos, asString: false)))
    #expect(
      command(#"{"command": ["get_property_string", "pause"]}"#) == .success(.getProperty(.pause, asString: true)))
    #expect(command(#"{"command": ["get_property_string", "aid"]}"#) == .success(.getUnknownString))
    #expect(error(#"{"command": ["get_property", "volume-max-nope"]}"#) == .propertyNotFound)
    #expect(
      command(#"{"command": ["set_property", "pause", true]}"#)
        == .success(.setProperty(.pause, .bool(true), byCommand: false)))
    #expect(
      command(#"{"command": ["set_property_string", "pause", "yes"]}"#)
        == .success(.setProperty(.pause, .bool(true), byCommand: false)))
    #expect(
      command(#"{"command": ["set", "speed", "2"]}"#) == .success(.setProperty(.speed, .number(2), byCommand: true)))
    #expect(error(#"{"command": ["set_property", "pause", "x"]}"#) == .unsupportedFormat)
    #expect(error(#"{"command": ["set_property", "speed", -1]}"#) == .unsupportedFormat)
    #expect(error(#"{"command": ["set_property", "duration", 3]}"#) == .propertyAccess)
    #expect(error(#"{"command": ["set", "duration", "3"]}"#) == .commandFailed)
  }

  @Test("add and cycle work on writable numbers and flags; others are command errors")
  func addAndCycle() {
    #expect(command(#"{"command": ["add", "speed", 0.5]}"#) == .success(.add(.speed, 0.5)))
    #expect(command(#"{"command": ["add", "time-pos"]}"#) == .success(.add(.timePos, 1)))
    #expect(command(#"{"command": ["cycle", "pause"]}"#) == .success(.cycle(.pause)))
    #expect(error(#"{"command": ["add", "duration", 1]}"#) == .commandFailed)
    #expect(error(#"{"command": ["cycle", "nonexist"]}"#) == .commandFailed)
  }

  @Test("observers: an id and a name; an unknown property is accepted (and told once that it is unavailable)")
  func observers() {
    #expect(command(#"{"command": ["observe_property", 1, "time-pos"]}"#) == .success(.observe(id: 1, .timePos)))
    #expect(
      command(#"{"command": ["observe_property_string", 1, "pause"]}"#)
        == .success(.observe(id: 1, .pause, asString: true)))
    #expect(
      command(#"{"command": ["observe_property", 2, "nonexist"]}"#)
        == .success(.observeUnknown(id: 2, name: "nonexist")))
    #expect(command(#"{"command": ["unobserve_property", 1]}"#) == .success(.unobserve(id: 1)))
    #expect(error(#"{"command": ["observe_property", "x", "pause"]}"#) == .invalidParameter)
  }

  @Test("unknown commands, empty commands and shapes mpv refuses are invalid parameters, never dropped")
  func refusals() {
    #expect(error(#"{"command": ["frobnicate"]}"#) == .invalidParameter)
    #expect(error(#"{"command": []}"#) == .invalidParameter)
    #expect(error(#"{"command": "get_version"}"#) == .invalidParameter)
    #expect(error(#"{"foo": 1}"#) == .invalidParameter)
    #expect(error("{bad") == .invalidParameter)
    #expect(error(#"{"command": ["loadfile", "a.mp4", "append"]}"#) == .invalidParameter)
    // Not an object: a text line, which mpv runs unanswered (this one names no command: nothing runs).
    #expect(translator.read(String(repeating: "[", count: 20)).isEmpty)
  }

  @Test(
    "loadfile's per-file start and pause options are read from its options, as text or an object; values mpv cannot read and the other options are ignored"
  )
  func loadfileStartOption() {
    func options(_ options: String) -> (start: FileStart?, paused: Bool?)? {
      let line = #"{"command": ["loadfile", "a.mp4", "replace", \#(options)]}"#
      guard case .success(.loadFile(_, let start, let paused)) = command(line) else { return nil }
      return (start, paused)
    }
    #expect(options(#""start=10""#)?.start == .time(.seconds(10)))
    #expect(options(#""pause=yes,start=50%""#)?.start == .time(.percent(50)))
    #expect(options(#""pause=yes,start=50%""#)?.paused == true)
    #expect(options(#""start=1:05""#)?.start == .time(.seconds(65)))
    #expect(options(#"{"start": "-2", "pause": "no"}"#)?.start == .beforeEnd(2))
    #expect(options(#"{"start": "-2", "pause": "no"}"#)?.paused == false)
    for ignored in [
      #""start=abc,pause=maybe""#, #""start=#3""#, #""start=-""#, #""foo=bar""#, #""""#, "{}", #""start=,,pause=""#,
    ] {
      #expect(options(ignored)?.start == nil, "\(ignored)")
      #expect(options(ignored)?.paused == nil, "\(ignored)")
      #expect(options(ignored) != nil, "\(ignored) is still a loadfile")
    }
    // Refused as mpv refuses them: a value that is not text in the object, a pair without `=`, another type.
    for refused in [#"{"start": 7}"#, #"{"pause": false}"#, #""a=1,b""#, #"["start=5"]"#, "3", "null"] {
      #expect(error(#"{"command": ["loadfile", "a.mp4", "replace", \#(refused)]}"#) == .invalidParameter, "\(refused)")
    }
    #expect(command(#"{"command": ["loadfile", "a.mp4"]}"#) == .success(.loadFile("a.mp4", start: nil)))
    #expect(
      translator.read("loadfile a.mp4 replace start=+5,pause=no").map(\.command) == [
        .success(.loadFile("a.mp4", start: .time(.seconds(5)), paused: false))
      ])
  }

  @Test("a text line runs like its JSON form, without a reply; several commands with ;")
  func textLines() {
    let requests = translator.read("seek 5 absolute")
    #expect(
      requests == [MPVRequest(requestID: .integer(0), command: .success(.seek(5, .absolute, nil)), wantsReply: false)])
    #expect(
      translator.read("no-osd cycle pause; add speed 0.1").map(\.command) == [
        .success(.cycle(.pause)), .success(.add(.speed, 0.1)),
      ])
    #expect(translator.read("frame_back_step").map(\.command) == [.success(.frameBackStep)])
    #expect(translator.read(#"loadfile "a \"b\".mp4""#).map(\.command) == [.success(.loadFile(#"a "b".mp4"#))])
  }

  @Test("text lines hold mpv's input commands only; a line with one it refuses runs nothing")
  func textLineRefusals() {
    #expect(translator.read("get_property pause").isEmpty)
    #expect(translator.read("observe_property 1 pause").isEmpty)
    #expect(translator.read("cycle pause; bogus").isEmpty)
    #expect(translator.read("seek 5 sideways").isEmpty)
  }

  @Test("JSON commands may carry mpv's prefixes and the _ spelling of input commands; the IPC's own keep theirs")
  func jsonPrefixesAndSpellings() {
    #expect(command(#"{"command": ["no-osd", "seek", 5, "absolute"]}"#) == .success(.seek(5, .absolute, nil)))
    #expect(command(#"{"command": ["frame_step"]}"#) == .success(.frameStep))
    #expect(command(#"{"command": ["get-property", "pause"]}"#) == .failure(MPVRequestError(.invalidParameter)))
    #expect(
      command(#"{"command": ["async", "get_property", "pause"]}"#) == .failure(MPVRequestError(.invalidParameter)))
  }

  @Test("string forms: flags as yes/no, numbers with six decimals")
  func stringForms() {
    #expect(MPVProperty.stringForm(.bool(true)) == "yes")
    #expect(MPVProperty.stringForm(.number(1.5)) == "1.500000")
    #expect(MPVProperty.stringForm(.integer(64)) == "64")
  }
}

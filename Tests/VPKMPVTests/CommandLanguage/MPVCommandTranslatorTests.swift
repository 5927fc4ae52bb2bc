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

  @Test("text after a request's JSON is not read: the first value is the request, as mpv reads the line")
  func textAfterTheRequest() {
    // Given a request followed by other text, or by a second request, When read, Then the first is run and answered
    let trailing = translator.translate(#"{"command": ["get_property", "pause"], "request_id": 5}xyz"#)
    #expect(trailing.requestID == .integer(5))
    #expect(trailing.command == .success(.getProperty(.pause, asString: false)))
    let two = translator.read(#"{"command": ["get_version"], "request_id": 6} {"command": ["quit"], "request_id": 7}"#)
    #expect(two.map(\.requestID) == [.integer(6)])
    #expect(two.first?.command == .success(.getVersion))
    #expect(MPVCommandTranslator.isMPVRequest(#"{"command": ["get_version"]}]"#))
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
    // (an empty flag is yes, as mpv reads it)
    for name in ["pause", "mute", "fullscreen"] {
      #expect(
        command(#"{"command": ["set_property", "\#(name)", ""]}"#)
          == .success(.setProperty(MPVProperty(rawValue: name)!, .bool(true), byCommand: false)))
    }
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

  @Test("enable_event, disable_event, request_log_messages and get_time_us read as mpv 0.35.1 reads them")
  func eventAndClockRequests() {
    #expect(command(#"{"command": ["disable_event", "all"]}"#) == .success(.requestEvent("all", enabled: false)))
    #expect(command(#"{"command": ["enable_event", "seek"]}"#) == .success(.requestEvent("seek", enabled: true)))
    #expect(
      command(#"{"command": ["enable_event", "shutdown"]}"#) == .success(.requestEvent("shutdown", enabled: true)))
    #expect(command(#"{"command": ["request_log_messages", "terminal-default"]}"#) == .success(.requestLogMessages))
    #expect(command(#"{"command": ["get_time_us"]}"#) == .success(.getTimeMicroseconds))
    #expect(command(#"{"command": ["get_time_us", "x"]}"#) == .success(.getTimeMicroseconds))
    // Refused as mpv refuses them: an unknown or removed event name, `shutdown` disabled, a missing or extra
    // argument, a number, an unknown log level, and the text syntax (these are the IPC's own commands)
    for line in [
      #"{"command": ["enable_event", "nosuch"]}"#, #"{"command": ["enable_event", "ALL"]}"#,
      #"{"command": ["disable_event", "tracks-changed"]}"#, #"{"command": ["disable_event", "shutdown"]}"#,
      #"{"command": ["disable_event"]}"#, #"{"command": ["disable_event", "seek", "x"]}"#,
      #"{"command": ["enable_event", 5]}"#, #"{"command": ["request_log_messages", "bogus"]}"#,
      #"{"command": ["request_log_messages"]}"#, #"{"command": ["no-osd", "get_time_us"]}"#,
    ] {
      #expect(error(line) == .invalidParameter, "\(line)")
    }
    #expect(translator.read("get_time_us").isEmpty)
  }

  @Test("arguments mpv 0.35.1 refuses are refused: extra ones, a second flag of a group, a number where text goes")
  func argumentsMPVRefuses() {
    for line in [
      #"{"command": ["frame-step", 5]}"#, #"{"command": ["frame-back-step", 1]}"#, #"{"command": ["stop", "bogus"]}"#,
      #"{"command": ["loadfile", "b.mp4", "replace", "", "x"]}"#, #"{"command": ["cycle", "pause", 5]}"#,
      #"{"command": ["cycle", "pause", "x"]}"#, #"{"command": ["set", "speed", 1.5]}"#,
      #"{"command": ["seek", 1, "absolute+keyframes+exact"]}"#, #"{"command": ["seek", 1, "exact+exact"]}"#,
      #"{"command": ["seek", 1, "absolute+relative"]}"#, #"{"command": ["seek", 1, "keyframes+exact"]}"#,
    ] {
      #expect(error(line) == .invalidParameter, "\(line)")
    }
    // And the forms mpv takes still are: stop's one flag, cycle's direction, quit-watch-later as a quit
    #expect(command(#"{"command": ["stop", "keep-playlist"]}"#) == .success(.stop(keepPlaylist: true)))
    #expect(command(#"{"command": ["stop", ""]}"#) == .success(.stop(keepPlaylist: false)))
    #expect(
      command(#"{"command": ["set_property_string", "pause", true]}"#)
        == .success(.setProperty(.pause, .bool(true), byCommand: false)))
    #expect(error(#"{"command": ["set_property_string", "pause", null]}"#) == .propertyAccess)
    #expect(command(#"{"command": ["cycle", "pause", "down"]}"#) == .success(.cycle(.pause)))
    #expect(command(#"{"command": ["cycle", "pause", "2.5"]}"#) == .success(.cycle(.pause)))
    #expect(command(#"{"command": ["quit-watch-later", 0]}"#) == .success(.quit))
    #expect(translator.read("frame-step 5").isEmpty)
  }

  @Test("set_property values answered as mpv 0.35.1 answers each JSON type: text it cannot read, out of range")
  func setPropertyValueTypes() {
    // Given values of each JSON type for flags and numbers (each pair checked against mpv on the same lines)
    let cases: [(String, String, MPVError?)] = [
      ("pause", "1", .propertyAccess), ("pause", "null", .propertyAccess), ("pause", #""maybe""#, .unsupportedFormat),
      ("pause", "[1]", .propertyAccess), ("fullscreen", "2", .propertyAccess), ("mute", "1", .unsupportedFormat),
      ("mute", "null", .propertyAccess), ("speed", "null", .propertyAccess), ("speed", "[2]", .propertyAccess),
      ("speed", "true", .propertyAccess), ("speed", #""abc""#, .unsupportedFormat), ("speed", "-1", .unsupportedFormat),
      ("volume", #"{"a":1}"#, .propertyAccess), ("percent-pos", "150", .unsupportedFormat),
      ("percent-pos", "-5", .unsupportedFormat), ("percent-pos", "50", nil), ("speed", #""2""#, nil),
    ]
    for (property, value, expected) in cases {
      // When each is set, Then the answer is mpv's
      let line = #"{"command": ["set_property", "\#(property)", \#(value)]}"#
      #expect(error(line) == expected, "\(property) \(value)")
    }
  }

  @Test("unknown commands, empty commands and shapes mpv refuses are invalid parameters, never dropped")
  func refusals() {
    #expect(error(#"{"command": ["frobnicate"]}"#) == .invalidParameter)
    #expect(error(#"{"command": []}"#) == .invalidParameter)
    #expect(error(#"{"command": "get_version"}"#) == .invalidParameter)
    #expect(error(#"{"foo": 1}"#) == .invalidParameter)
    #expect(error("{bad") == .invalidParameter)
    #expect(error(#"{"command": ["loadfile", "a.mp4", "prepend"]}"#) == .invalidParameter)
    // Not an object: a text line, which mpv runs unanswered (this one names no command: nothing runs).
    #expect(translator.read(String(repeating: "[", count: 20)).isEmpty)
  }

  @Test(
    "numbers in text are read as mpv's strtod reads them: blanks before, nothing after; loadfile takes an empty path")
  func numbersAndPathsAsMPVReadsThem() {
    // Given numbers written as text with blanks around them, When read, Then blanks before are skipped, after refused
    #expect(command(#"{"command": ["seek", " 1"]}"#) == .success(.seek(1, .relative, nil)))
    #expect(command(#"{"command": ["seek", "\t2", "absolute"]}"#) == .success(.seek(2, .absolute, nil)))
    #expect(error(#"{"command": ["seek", "1 "]}"#) == .invalidParameter)
    #expect(error(#"{"command": ["seek", " "]}"#) == .invalidParameter)
    #expect(command(#"{"command": ["set_property_string", "speed", " 2"]}"#).map { _ in true } == .success(true))
    #expect(error(#"{"command": ["set_property_string", "speed", "2 "]}"#) == .unsupportedFormat)
    // And a seek's target, or a time set to time-pos, may be written as a time; other numbers as a ratio
    #expect(command(#"{"command": ["seek", "1:30", "absolute"]}"#) == .success(.seek(90, .absolute, nil)))
    #expect(command(#"{"command": ["seek", "1:02:03.5", "absolute"]}"#) == .success(.seek(3723.5, .absolute, nil)))
    // (each part signed as scanf reads it: mpv 0.35 seeks -0:10 forward, and takes 1:75)
    #expect(command(#"{"command": ["seek", "-0:10"]}"#) == .success(.seek(10, .relative, nil)))
    #expect(command(#"{"command": ["seek", "-1:30"]}"#) == .success(.seek(-30, .relative, nil)))
    #expect(command(#"{"command": ["seek", "1:75"]}"#) == .success(.seek(135, .relative, nil)))
    #expect(error(#"{"command": ["seek", "1:x"]}"#) == .invalidParameter)
    #expect(error(#"{"command": ["seek", "1:2:3:4"]}"#) == .invalidParameter)
    #expect(
      command(#"{"command": ["set_property", "time-pos", "00:12"]}"#)
        == .success(.setProperty(.timePos, .number(12), byCommand: false)))
    #expect(
      command(#"{"command": ["set_property", "speed", "1:2"]}"#)
        == .success(.setProperty(.speed, .number(0.5), byCommand: false)))
    #expect(
      command(#"{"command": ["set_property", "speed", "3/4"]}"#)
        == .success(.setProperty(.speed, .number(0.75), byCommand: false)))
    // And an empty path is a file to load (which then fails to open, as in mpv)
    #expect(command(#"{"command": ["loadfile", ""]}"#) == .success(.loadFile("")))
    // And a file:// URL is the local path it names, percent-decoded, as mpv opens it
    #expect(
      command(#"{"command": ["loadfile", "file:///tmp/a%20b/it%27s%20%C3%B1.mp4"]}"#)
        == .success(.loadFile("/tmp/a b/it's ñ.mp4")))
    #expect(command(#"{"command": ["loadfile", "FILE://clip.mp4"]}"#) == .success(.loadFile("clip.mp4")))
    #expect(command(#"{"command": ["loadfile", "file:///a%20x%zz%.mp4"]}"#) == .success(.loadFile("/a x%zz%.mp4")))
    #expect(command(#"{"command": ["loadfile", "file:///a.mp4%00b"]}"#) == .success(.loadFile("/a.mp4")))
  }

  @Test("async: a flag; an input command then answers in mpv's asynchronous form, the IPC's own commands as ever")
  func asyncRequests() {
    // Given requests with async true
    let seek = translator.translate(#"{"command": ["seek", 1], "request_id": 4, "async": true}"#)
    let read = translator.translate(#"{"command": ["get_property", "pause"], "async": true}"#)
    let unknownSet = translator.translate(#"{"command": ["set", "nope", "1"], "async": true}"#)
    let unreadable = translator.translate(#"{"command": ["seek"], "async": true}"#)
    // Then an input command, or one mpv fails to run, replies asynchronously; a read or one mpv cannot read does not
    #expect(seek.isAsync && seek.repliesAsynchronously)
    #expect(read.isAsync && !read.repliesAsynchronously)
    #expect(unknownSet.repliesAsynchronously)
    #expect(!unreadable.repliesAsynchronously)
    #expect(!translator.translate(#"{"command": ["stop"], "async": false}"#).repliesAsynchronously)
    // And async that is not a flag is refused with request id 0, as mpv reads it before the id
    for value in [#""yes""#, "1", "null"] {
      let refused = translator.translate(#"{"command": ["stop"], "request_id": 9, "async": \#(value)}"#)
      #expect(refused.requestID == .integer(0) && refused.command == .failure(MPVRequestError(.invalidParameter)))
    }
    // And the asynchronous reply names the id, the error, then the data, null when there is none or it failed
    #expect(MPVValue.asyncReply(.integer(4), .success).json == #"{"request_id":4,"error":"success","data":null}"#)
    #expect(
      MPVValue.asyncReply(.integer(4), .commandFailed, data: .integer(1)).json
        == #"{"request_id":4,"error":"error running command","data":null}"#)
  }

  @Test(
    "loadfile's per-file start and pause options are read from its options, as text or an object; values mpv cannot read and the other options are ignored"
  )
  func loadfileStartOption() {
    func options(_ options: String) -> MPVFileOptions? {
      let line = #"{"command": ["loadfile", "a.mp4", "replace", \#(options)]}"#
      guard case .success(.loadFile(_, let options, _)) = command(line) else { return nil }
      return options
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
    #expect(command(#"{"command": ["loadfile", "a.mp4"]}"#) == .success(.loadFile("a.mp4")))
    #expect(
      translator.read("loadfile a.mp4 replace start=+5,pause=no").map(\.command) == [
        .success(.loadFile("a.mp4", MPVFileOptions(start: .time(.seconds(5)), paused: false)))
      ])
  }

  @Test(
    "loadfile's per-file speed and stored options are read as their properties' setters read them; values mpv refuses are ignored"
  )
  func loadfileSpeedAndStoredOptions() {
    func options(_ options: String) -> MPVFileOptions? {
      guard
        case .success(.loadFile(_, let options, _)) = command(
          #"{"command": ["loadfile", "a.mp4", "replace", "\#(options)"]}"#)
      else { return nil }
      return options
    }
    // Given the forms mpv takes (each checked against mpv 0.35.1), when read, then they are the values mpv set.
    #expect(options("speed=2")?.speed == 2)
    #expect(options("speed=2.5e0")?.speed == 2.5)
    #expect(options("speed=0x10")?.speed == 16)
    #expect(options("speed=100")?.speed == 100)
    #expect(
      options("volume=50.5,mute=yes,loop-file=5,fullscreen=yes,sub-visibility=no")?.stored == [
        .volume: .number(50.5), .mute: .bool(true), .loopFile: .integer(5), .fullscreen: .bool(true),
        .subVisibility: .bool(false),
      ])
    #expect(options("loop-file=yes")?.stored == [.loopFile: .string("inf")])
    #expect(options("loop-file=no")?.stored == [.loopFile: .bool(false)])
    // Values mpv ignores (the file still loads, as without them).
    for ignored in [
      "speed=1000", "speed=0", "speed=0.001", "speed=abc", "volume=abc", "volume=2000", "volume=-5",
      "mute=maybe", "loop-file=abc", "loop-file=-1", "fullscreen=1",
    ] {
      #expect(options(ignored) == MPVFileOptions(), "\(ignored)")
    }
    #expect(options("volume=abc,speed=3") == MPVFileOptions(speed: 3))
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
    #expect(translator.read("seek 5 sideways; cycle pause").isEmpty)
  }

  @Test("the commands that only draw are answered as mpv answers them, and their arguments checked as mpv checks them")
  func drawOnlyCommands() {
    // Given mpv 0.35.1's answers to the same requests (success, data null; `osd-overlay` an empty object)
    // When read, Then they draw nothing and answer as mpv does
    #expect(translator.command([.string("show-text"), .string("hello")]) == .success(.drawOnly(data: .null)))
    #expect(
      translator.command([.string("show-text"), .string("a"), .integer(1000), .integer(1)])
        == .success(.drawOnly(data: .null)))
    #expect(translator.command([.string("show-progress")]) == .success(.drawOnly(data: .null)))
    #expect(translator.command([.string("print-text"), .string("x")]) == .success(.drawOnly(data: .null)))
    #expect(
      translator.command([.string("osd-overlay"), .integer(1), .string("none"), .string("")])
        == .success(.drawOnly(data: .object([]))))
    // And the arguments mpv refuses are refused
    #expect(translator.command([.string("show-text")]) == .failure(MPVRequestError(.invalidParameter)))
    #expect(
      translator.command([.string("show-text"), .string("a"), .string("x")])
        == .failure(MPVRequestError(.invalidParameter)))
    #expect(
      translator.command([.string("show-progress"), .string("x")]) == .failure(MPVRequestError(.invalidParameter)))
  }

  @Test("a text line's parts that name mpv commands vpk does not serve are passed over; the others run, as in mpv")
  func textLineWithUnservedCommands() {
    // Given lines joining served commands with mpv commands vpk does not serve (checked against mpv 0.35.1: it ran the
    // served parts of each)
    // When read, Then the served parts run, in order
    #expect(
      translator.read("add volume 1; show-progress").map(\.command) == [
        .success(.add(.volume, 1)), .success(.drawOnly(data: .null)),
      ])
    #expect(
      translator.read("cycle pause; show-text hello").map(\.command) == [
        .success(.cycle(.pause)), .success(.drawOnly(data: .null)),
      ])
    let three = translator.read("set speed 2; playlist-next; no-osd set speed 3").map(\.command)
    #expect(
      three == [
        .success(.setProperty(.speed, .number(2), byCommand: true)), .success(.playlistNext(force: false)),
        .success(.setProperty(.speed, .number(3), byCommand: true)),
      ])
    // And the playlist's commands run as the others do
    #expect(
      translator.read("playlist-next; playlist-prev weak").map(\.command) == [
        .success(.playlistNext(force: false)), .success(.playlistPrev(force: false)),
      ])
    // And one whose unserved part mpv would refuse (missing or extra words, a word it does not take) runs nothing
    for line in [
      "show-text; cycle pause", "no-osd show_text; cycle pause", "show-text x y z w v u; cycle pause",
      "playlist-next foo; cycle pause", "screenshot bogus; cycle pause", "show-text; quit",
    ] {
      #expect(translator.read(line).isEmpty, "\(line)")
    }
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

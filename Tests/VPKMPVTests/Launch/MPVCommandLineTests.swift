import Testing

@testable import VPKMPV
@testable import VideoPlaybackKit

/// The messages below are Debian's mpv 0.35.1's, copied from running it with the same command line.
@Suite("mpv's command line")
struct MPVCommandLineTests {
  private func parsed(_ arguments: String...) throws -> MPVCommandLine {
    try MPVCommandLine.parse(arguments).get()
  }

  private func refusal(_ arguments: String...) -> MPVCommandLine.Refusal? {
    if case .failure(let refusal) = MPVCommandLine.parse(arguments) { return refusal }
    return nil
  }

  @Test("what python-mpv-jsonipc passes: each option read, nothing refused")
  func clientLibraryLine() throws {
    // Given the command line the library builds
    // When it is read
    let line = try parsed(
      "--idle=yes", "--input-ipc-server=/tmp/mpv.sock", "--input-terminal=no", "--terminal=no", "--vo=null",
      "--ao=null", "--config=no", "--keep-open=yes", "--pause=yes")
    // Then each honoured option is set, and the output options are ignored
    #expect(line.idle == .yes)
    #expect(line.inputIPCServer == "/tmp/mpv.sock")
    #expect(line.pause)
    #expect(line.keepOpen == .yes)
    #expect(!line.loadsConfig)
    #expect(!line.terminal && line.isQuiet)
    #expect(line.ignored == ["--input-terminal=no", "--vo=null", "--ao=null"])
    #expect(line.files.isEmpty)
  }

  @Test("flags: bare, =yes, =no and --no-; choices: bare, a value, --no-")
  func flagsAndChoices() throws {
    // Given each form of a flag and of a choice, Then each reads as mpv reads it
    #expect(try parsed("--pause").pause)
    #expect(try parsed("--pause=yes").pause)
    #expect(try !parsed("--pause", "--pause=no").pause)
    #expect(try !parsed("--pause", "--no-pause").pause)
    #expect(try parsed("--idle").idle == .yes)
    #expect(try parsed("--idle=once").idle == .once)
    #expect(try parsed("--idle", "--no-idle").idle == .no)
    #expect(try parsed("--keep-open").keepOpen == .yes)
    #expect(try parsed("--keep-open=always").keepOpen == .always)
    #expect(try parsed("--keep-open", "--keep-open=no").keepOpen == .no)
    #expect(try parsed("--loop-file").loopsFile)
    #expect(try parsed("--loop-file=inf").loopsFile)
    #expect(try parsed("--loop=yes").loopsFile)
    #expect(try !parsed("--loop-file", "--loop-file=no").loopsFile)
    #expect(try !parsed("--loop-file", "--no-loop-file").loopsFile)
    #expect(try !parsed("--loop-file=0").loopsFile)
    #expect(try parsed("--no-config").loadsConfig == false)
    #expect(try parsed("--really-quiet").isQuiet)
    #expect(try !parsed("--really-quiet", "--really-quiet=no").isQuiet)
    #expect(try parsed("--no-terminal").isQuiet)
    #expect(try !parsed("--no-video").video)
    #expect(try !parsed("--vid=no").video)
    #expect(try parsed("--version").showsVersion)
    #expect(try parsed("-h").showsHelp && parsed("--help").showsHelp)
  }

  @Test("--hr-seek: each of mpv's values, and the precision it forces on seeks that name none")
  func hrSeek() throws {
    #expect(try parsed().hrSeek == .default)
    #expect(try parsed("--hr-seek").hrSeek == .yes)
    #expect(try parsed("--hr-seek=no").hrSeek == .no)
    #expect(try parsed("--hr-seek=yes").hrSeek == .yes)
    #expect(try parsed("--hr-seek=always").hrSeek == .always)
    #expect(try parsed("--hr-seek=absolute").hrSeek == .absolute)
    #expect(try parsed("--hr-seek=default").hrSeek == .default)
  }

  @Test("--start: seconds, [[hh:]mm:]ss, +, N%, a time before the end, none")
  func startForms() throws {
    #expect(try parsed("--start=83.5").start == .time(.seconds(83.5)))
    #expect(try parsed("--start=+10").start == .time(.seconds(10)))
    #expect(try parsed("--start=1:23.5").start == .time(.seconds(83.5)))
    #expect(try parsed("--start=1:02:03").start == .time(.seconds(3723)))
    #expect(try parsed("--start=50%").start == .time(.percent(50)))
    // A time before the end: the `-` is the first field's (checked against mpv 0.35.1); not below 0, from the start
    #expect(try parsed("--start=-5").start == .beforeEnd(5))
    #expect(try parsed("--start=-0.5").start == .beforeEnd(0.5))
    #expect(try parsed("--start=-1:00").start == .beforeEnd(60))
    #expect(try parsed("--start=-1:00:00").start == .beforeEnd(3600))
    #expect(try parsed("--start=-1:30").start == .beforeEnd(30))
    #expect(try parsed("--start=-0:03").start == .time(.seconds(3)))
    #expect(try parsed("--start=-0:00:10").start == .time(.seconds(10)))
    #expect(try parsed("--start=-0").start == .time(.seconds(0)))
    #expect(try parsed("--start=5", "--start=none").start == nil)
  }

  @Test("--speed: a number or a ratio; --msg-level: module=level pairs; --input-ipc-server= empty is none")
  func values() throws {
    #expect(try parsed("--speed=1.5").speed == 1.5)
    #expect(try parsed("--speed=1:2").speed == 0.5)
    #expect(try parsed("--speed=3/2").speed == 1.5)
    #expect(try parsed("--msg-level=all=no").isQuiet)
    #expect(try !parsed("--msg-level=ffmpeg=warn,all=v").isQuiet)
    #expect(try parsed("--msg-level=all=no,all=v").isQuiet == false)
    #expect(try parsed("--input-ipc-server=").inputIPCServer == nil)
  }

  @Test("mpv's old form -opt value takes the next word; files, - and everything after -- are files")
  func oldFormAndFiles() throws {
    // Given the old form and files
    let line = try parsed("-input-ipc-server", "/tmp/s", "-start", "5", "a.mp4")
    // Then the next word is the value
    #expect(line.inputIPCServer == "/tmp/s")
    #expect(line.start == .time(.seconds(5)))
    #expect(line.files == ["a.mp4"])
    #expect(try parsed("-", "--", "--pause", "-x").files == ["-", "--pause", "-x"])
    #expect(try !parsed("--", "--pause").pause)
    // And a file:// URL is its local path, as mpv opens it
    #expect(try parsed("file:///tmp/a%20b.mp4").files == ["/tmp/a b.mp4"])
  }

  @Test("output options vpk cannot honour are taken and ignored, with or without a value, families included")
  func ignoredOptions() throws {
    // Given a line of window, sound, subtitle and OSD options
    let written = [
      "--vo=gpu", "--ao=pulse", "--force-window", "--force-window=immediate", "--fullscreen", "--fs", "--no-osc",
      "--geometry=640x360", "--volume=50", "--mute=yes", "--no-audio", "--sub-auto=no", "--sub-visibility=no",
      "--osd-level=0", "--osd-font-size=20", "--no-input-default-bindings", "--screenshot-format=png", "--ytdl=no",
      "--audio-device=null", "--script-opts=a=b", "--hwdec=auto", "--title=x", "--msg-color=no", "--quiet",
      "--stop-screensaver=no", "--keepaspect", "--pulse-buffer=50", "--player-operation-mode=pseudo-gui",
    ]
    // When it is read
    let line = try MPVCommandLine.parse(written).get()
    // Then each is ignored, in order, and changes nothing
    #expect(line.ignored == written)
    var expected = MPVCommandLine()
    expected.ignored = written
    #expect(line == expected)
  }

  @Test("an option mpv does not have: mpv's message, status 1")
  func unknownOption() {
    #expect(
      refusal("--foo")?.lines == [
        "Error parsing option foo (option not found)", "Setting commandline option --foo= failed.",
        "Exiting... (Fatal error)",
      ])
    #expect(refusal("--foo=1")?.lines[1] == "Setting commandline option --foo=1 failed.")
    #expect(refusal("-foo")?.lines[0] == "Error parsing option foo (option not found)")
    #expect(refusal("--no-foo")?.lines[0] == "Error parsing option no-foo (option not found)")
    #expect(refusal("--no-input-ipc-server")?.lines[0] == "Error parsing option no-input-ipc-server (option not found)")
    #expect(refusal("--foo")?.exitStatus == 1)
    #expect(refusal("--foo")?.isQuiet == false)
  }

  @Test("the silencing options silence a refusal wherever they stand; the last one decides")
  func quietRefusal() {
    #expect(refusal("--foo", "--no-terminal")?.isQuiet == true)
    #expect(refusal("--really-quiet", "--foo")?.isQuiet == true)
    #expect(refusal("--msg-level=all=no", "--foo")?.isQuiet == true)
    #expect(refusal("--terminal=no", "--terminal=yes", "--foo")?.isQuiet == false)
  }

  @Test("--opt value for an option that takes a value: mpv's message")
  func valueAsNextWord() {
    #expect(
      refusal("--start", "5")?.lines == [
        "Error parsing commandline option start: option requires parameter",
        "Make sure you're using e.g. '--start=value' instead of '--start value'.", "Exiting... (Fatal error)",
      ])
    #expect(
      refusal("--input-ipc-server", "/tmp/s")?.lines.first?.hasSuffix("input-ipc-server: option requires parameter")
        == true)
    #expect(refusal("--vo")?.lines.first == "Error parsing commandline option vo: option requires parameter")
  }

  @Test("bad values: mpv's messages")
  func badValues() {
    #expect(
      refusal("--pause=maybe")?.lines == [
        "Invalid parameter for pause flag: maybe", "Valid values are:", "    yes", "    no", "    (passing nothing)",
        "Error parsing option pause (option parameter could not be parsed)",
        "Setting commandline option --pause=maybe failed.", "Exiting... (Fatal error)",
      ])
    #expect(
      refusal("--no-pause=yes")?.lines == [
        "Error parsing option pause (option doesn't take a parameter)",
        "Setting commandline option --no-pause=yes failed.", "Exiting... (Fatal error)",
      ])
    #expect(
      refusal("--idle=maybe")?.lines == [
        "Invalid value for option idle: maybe", "Valid values are:", "    no", "    once", "    yes",
        "Error parsing option idle (option parameter could not be parsed)",
        "Setting commandline option --idle=maybe failed.", "Exiting... (Fatal error)",
      ])
    #expect(
      refusal("--loop-file=x")?.lines.prefix(7) == [
        "Invalid value for option loop-file: x", "Valid values are:", "    no", "    inf", "    yes",
        "    0-10000 (integer range)", "Error parsing option loop-file (option parameter could not be parsed)",
      ])
    #expect(refusal("--keep-open=x")?.lines[2...4] == ["    no", "    yes", "    always"])
    #expect(refusal("--hr-seek=x")?.lines[2...6] == ["    no", "    absolute", "    yes", "    always", "    default"])
    #expect(refusal("--start=abc")?.lines.first == "Option start: invalid time or position: 'abc'")
    // A time before the end is `-` and a time: anything else there is refused as mpv refuses it (a share naming
    // nothing, as mpv 0.35.1 does)
    for bad in ["-", "--5", "-+5"] {
      #expect(refusal("--start=\(bad)")?.lines.first == "Option start: invalid time or position: '\(bad)'")
    }
    #expect(
      refusal("--start=-10%")?.lines == [
        "Option start: invalid time or position: ''",
        "Error parsing option start (option parameter could not be parsed)",
        "Setting commandline option --start=-10% failed.", "Exiting... (Fatal error)",
      ])
    #expect(
      refusal("--speed=abc")?.lines.first
        == "The speed option must be a floating point number or a ratio (numerator[:/]denominator): abc")
    #expect(
      refusal("--speed=0")?.lines == [
        "The speed option is out of range: 0",
        "Error parsing option speed (parameter is outside values allowed for option)",
        "Setting commandline option --speed=0 failed.", "Exiting... (Fatal error)",
      ])
    #expect(refusal("--speed=101") != nil)
    #expect(refusal("--msg-level=x")?.lines.first == "Expected '=' and a value.")
    #expect(refusal("--no-config=yes")?.lines.first == "Error parsing option config (option doesn't take a parameter)")
  }

  @Test(
    "an option of mpv's that changes what plays is refused by vpk, not called unknown; a family's name mpv has not got is unknown"
  )
  func mpvOptionsNotTaken() {
    // Given options mpv has that vpk neither honours nor ignores, Then vpk refuses them in its own words
    for option in ["--end=5", "--vf=scale=1:1", "--no-end", "--ab-loop-a=1"] {
      #expect(refusal(option)?.lines.first?.hasPrefix("vpk mpv: --") == true, "\(option)")
      #expect(refusal(option)?.lines.first?.contains("does not take") == true, "\(option)")
    }
    // And a name of an ignored family that mpv does not have is unknown, as mpv says
    #expect(refusal("--sub-nonexistent=1")?.lines.first == "Error parsing option sub-nonexistent (option not found)")
    // And the family's real options are ignored
    #expect(
      (try? MPVCommandLine.parse(["--cursor-autohide=no", "--vo-null-fps=30", "--input-ipc-client=fd://3"]).get())?
        .ignored.count == 3)
  }

  @Test("what mpv takes and vpk cannot do is refused with a message that says what to write")
  func refusedByVPK() {
    #expect(refusal("--loop-file=3")?.lines.first?.contains("--loop-file=inf") == true)
    #expect(refusal("--start=#2")?.lines.first?.contains("a chapter") == true)
    #expect(refusal("--start=#2")?.exitStatus == 1)
  }

  @Test("the playlist's options: --playlist-start, --loop-playlist, --shuffle, --playlist, and several files")
  func playlistOptions() throws {
    // Given an episode tracker's command line, When read, Then the start entry and the files are taken
    let line = try parsed("--playlist-start=2", "--loop-playlist", "--shuffle", "--playlist=/l.m3u", "a.mp4", "dir")
    #expect(line.playlistStart == 2)
    #expect(line.loopPlaylist == .string("inf"))
    #expect(line.shuffle)
    #expect(line.playlist == "/l.m3u")
    #expect(line.files == ["a.mp4", "dir"])
    // And `auto` is no start entry, counts and force are mpv's values, no is false
    #expect(try parsed("--playlist-start=auto").playlistStart == nil)
    #expect(try parsed("--loop-playlist=3").loopPlaylist == .integer(3))
    #expect(try parsed("--loop-playlist=force").loopPlaylist == .string("force"))
    #expect(try parsed("--loop-playlist=no").loopPlaylist == .bool(false))
    // And a start that is not auto or an index is refused with mpv's words
    #expect(
      refusal("--playlist-start=abc")?.lines.prefix(3) == [
        "Invalid value for option playlist-start: abc", "Valid values are:", "    auto",
      ])
    #expect(
      refusal("--playlist")?.lines.first == "Error parsing commandline option playlist: option requires parameter")
  }
}

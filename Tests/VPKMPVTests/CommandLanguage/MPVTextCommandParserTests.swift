import Testing

@testable import VPKMPV

@Suite("mpv's input.conf syntax")
struct MPVTextCommandParserTests {
  private func words(_ line: String) -> [[String]]? { MPVTextCommandParser.commands(line) }

  @Test("words are split at blanks; prefixes before the name are dropped")
  func wordsAndPrefixes() {
    #expect(words("seek 20 absolute") == [["seek", "20", "absolute"]])
    #expect(words("  \tcycle   pause  ") == [["cycle", "pause"]])
    #expect(
      words("no-osd osd-msg-bar async sync raw expand-properties repeatable osd-auto set pause yes") == [
        ["set", "pause", "yes"]
      ])
    // A prefix after the name is an argument (the command then refuses it, as mpv does).
    #expect(words("set no-osd yes") == [["set", "no-osd", "yes"]])
  }

  @Test("double quotes read JSON and C escapes; single and custom quotes are literal")
  func quoting() {
    #expect(words(#"loadfile "a b.mp4""#) == [["loadfile", "a b.mp4"]])
    #expect(words(#"loadfile "q\"\\\/\t\u0041\x42\n""#) == [["loadfile", "q\"\\/\tAB\n"]])
    #expect(words(#"loadfile 'a "b" \n'"#) == [["loadfile", #"a "b" \n"#]])
    #expect(words("loadfile `-it's `a`-`") == [["loadfile", "it's `a`"]])
    #expect(words(#"set speed "1.5"x"#) == [["set", "speed", "1.5", "x"]])
  }

  @Test("; separates commands, # starts a comment; blank lines and comments hold none")
  func separatorsAndComments() {
    #expect(words("cycle pause; seek 5;add speed 1") == [["cycle", "pause"], ["seek", "5"], ["add", "speed", "1"]])
    #expect(words("cycle pause # and a comment") == [["cycle", "pause"]])
    #expect(words("cycle pause;") == [["cycle", "pause"]])
    #expect(words("set speed '#;'") == [["set", "speed", "#;"]])
    #expect(words("# cycle pause") == [])
    #expect(words("   ") == [])
  }

  @Test("what mpv cannot parse is refused whole: broken quotes and escapes, a prefix alone")
  func refusals() {
    #expect(words(#"set speed "1.5"#) == nil)
    #expect(words("set speed '1.5") == nil)
    #expect(words("set speed `x1.5") == nil)
    #expect(words(#"set speed "\q""#) == nil)
    #expect(words(#"set speed "\u12""#) == nil)
    #expect(words("no-osd") == nil)
    #expect(words("cycle pause; no-osd") == nil)
  }
}

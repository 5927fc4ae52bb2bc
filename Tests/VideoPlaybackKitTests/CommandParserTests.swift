import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

// MARK: - Helpers

/// True when the text cannot break a line on any terminal or in any log: no C0/C1 control
/// characters, no Unicode line or paragraph separators.
private func isSingleLine(_ text: String) -> Bool {
  !text.unicodeScalars.contains { scalar in
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}

/// The error a line produced, or nil when it parsed to a command or was empty.
private func parseError(_ line: String) -> PlaybackError? {
  if case .invalid(let error) = CommandParser().parse(line) { return error }
  return nil
}

// MARK: - Verbs

@Suite struct CommandParserVerbTests {
  let parser = CommandParser()

  @Test(arguments: [
    ("play", Command.play), ("pause", .pause), ("toggle", .toggle), ("status", .status),
    ("info", .info),
    ("frame", .frame), ("mark", .mark), ("help", .help), ("quit", .quit), ("exit", .quit),
  ])
  func everyVerbWithoutArgumentsParses(line: String, expected: Command) {
    // Given a verb that takes no arguments, When it is parsed, Then it is that command.
    #expect(parser.parse(line) == .command(expected))
  }

  @Test(arguments: ["play", "pause", "toggle", "status", "info", "frame", "mark", "help", "quit", "exit"])
  func verbWithoutArgumentsRejectsArguments(verb: String) throws {
    // Given a verb that takes none, When it gets an argument, Then the error names the verb.
    let error = try #require(parseError("\(verb) now"))
    #expect(error.code == .badArgument)
    #expect(error.message == "\(verb) takes no arguments; write just '\(verb)'")
  }

  @Test func verbsAreCaseInsensitive() {
    // Given verbs in any mix of case, When parsed, Then they are the lower-case verbs.
    #expect(parser.parse("PLAY") == .command(.play))
    #expect(parser.parse("Pause") == .command(.pause))
    #expect(parser.parse("tOgGlE") == .command(.toggle))
    #expect(parser.parse("EXIT") == .command(.quit))
    #expect(parser.parse("SCRUB 10 EXACT") == .command(.scrub(.seconds(10), .exact)))
    #expect(parser.parse("Skip -5 KeyFrame") == .command(.skip(-5, .keyframe)))
  }

  @Test func caseFoldingIsASCIIOnly() {
    // Given "skip" spelled with the Kelvin sign (which Unicode lower-cases to k), When parsed,
    // Then it is not taken for the verb.
    #expect(parseError("s\u{212A}ip 5")?.code == .unknownCommand)
  }

  @Test func verbListIsTheCanonicalVerbs() {
    #expect(
      CommandVerbs.names == [
        "play", "pause", "toggle", "scrub", "skip", "step", "rate", "status", "info", "frame", "mark", "snapshot",
        "open", "close", "next", "prev", "goto", "queue", "wait", "expect", "help", "quit",
      ])
    // Every listed verb parses (with an argument where one is needed).
    let arguments = [
      "scrub": " 1", "skip": " 1", "rate": " 2", "open": " clip.mp4", "wait": " 1", "expect": " state == paused",
      "goto": " 2",
    ]
    for verb in CommandVerbs.names {
      let line = verb + (arguments[verb] ?? "")
      guard case .command(let command) = parser.parse(line) else {
        Issue.record("\(verb) did not parse")
        continue
      }
      #expect(command.verb == verb)
    }
  }

  @Test func scrubAndSkipTakeAnOptionalMode() {
    #expect(parser.parse("scrub 83.5") == .command(.scrub(.seconds(83.5), nil)))
    #expect(parser.parse("scrub 83.5 exact") == .command(.scrub(.seconds(83.5), .exact)))
    #expect(parser.parse("scrub 50% keyframe") == .command(.scrub(.percent(50), .keyframe)))
    #expect(parser.parse("skip +10") == .command(.skip(10, nil)))
    #expect(parser.parse("skip -5 exact") == .command(.skip(-5, .exact)))
    #expect(parser.parse("skip 10 keyframe") == .command(.skip(10, .keyframe)))
    #expect(parser.parse("skip 10 next-keyframe") == .command(.skip(10, .nextKeyframe)))
    #expect(parser.parse("scrub 1:30 Next-Keyframe") == .command(.scrub(.seconds(90), .nextKeyframe)))
  }
}

// MARK: - Whitespace, comments, blank lines

@Suite struct CommandParserLayoutTests {
  let parser = CommandParser()

  @Test(arguments: [
    "", " ", "\t", "  \t  ", "# a comment", "   # indented comment", "#", "\r", " \t\r", "#play",
  ])
  func blankLinesAndCommentsAreEmpty(line: String) {
    // Given a line with nothing but space or a comment, When parsed, Then it is empty (takes no id).
    #expect(parser.parse(line) == .empty)
  }

  @Test func whitespaceAroundAndBetweenTokensIsIgnored() {
    #expect(parser.parse("  play  ") == .command(.play))
    #expect(parser.parse("\tscrub\t \t1:30 \t exact\t") == .command(.scrub(.seconds(90), .exact)))
  }

  @Test func trailingCarriageReturnIsIgnored() {
    // Given a line from a CRLF file, When parsed, Then the CR makes no difference.
    #expect(parser.parse("play\r") == .command(.play))
    #expect(parser.parse("skip -5\r") == .command(.skip(-5, nil)))
    #expect(parser.parse("skip -5 # back\r") == .command(.skip(-5, nil)))
  }

  @Test func commentEndsTheCommand() {
    // Given a command followed by a comment token, When parsed, Then the comment is ignored.
    #expect(parser.parse("play # and go") == .command(.play))
    #expect(parser.parse("scrub 10 #exact") == .command(.scrub(.seconds(10), nil)))
    #expect(parser.parse("skip +5 exact # five # more") == .command(.skip(5, .exact)))
  }

  @Test func hashInsideATokenIsNotAComment() {
    // Given `#` inside a token, When parsed, Then it belongs to the token.
    #expect(parseError("play#now")?.code == .unknownCommand)
    #expect(parseError("scrub 10#")?.code == .badArgument)
  }

  @Test func leadingByteOrderMarkIsIgnored() {
    // Given the first line of a script saved with a byte-order mark, When parsed, Then the mark is
    // not part of the verb; elsewhere it is an ordinary (invalid) character.
    #expect(parser.parse("\u{FEFF}play") == .command(.play))
    #expect(parser.parse("\u{FEFF}") == .empty)
    #expect(parser.parse("\u{FEFF}# comment") == .empty)
    #expect(parseError("play\u{FEFF}")?.code == .unknownCommand)
  }

  @Test func otherWhitespaceDoesNotSeparateTokens() {
    // Given a no-break space between verb and argument, When parsed, Then it is one unknown token.
    #expect(parseError("scrub\u{00A0}10")?.code == .unknownCommand)
  }
}

// MARK: - Times

@Suite struct CommandParserTimeTests {
  let parser = CommandParser()

  @Test(
    arguments: [
      ("0", 0), ("83.5", 83.5), (".5", 0.5), ("5.", 5), ("+7", 7), ("007", 7), ("0.000", 0),
      ("1:23.5", 83.5), ("1:00", 60), ("0:59", 59), ("59:59.999", 3540 + 59.999), ("1:5", 65),
      ("90:00", 5400),
      ("1:00:00", 3600), ("1:02:03.25", 3723.25), ("100:00:00", 360_000), ("0:00:00.5", 0.5),
      ("-1:30", -90), ("-0", 0), ("-5", -5), ("-0:00:01", -1), ("1:59.", 119), ("1:.5", 60.5),
    ] as [(String, Double)])
  func secondsForms(text: String, seconds: Double) {
    // Given a time in seconds, m:ss or h:mm:ss, When scrubbing to it, Then the target is in seconds.
    #expect(parser.parse("scrub \(text)") == .command(.scrub(.seconds(seconds), nil)))
  }

  @Test(arguments: [
    ("50%", 50.0), ("100%", 100), ("0%", 0), ("12.5%", 12.5), (".5%", 0.5), ("-10%", -10),
    ("250%", 250),
    ("+5%", 5),
  ])
  func percentForms(text: String, percent: Double) {
    // Given a percentage (out-of-range ones are clamped later by the interactor), When parsed,
    // Then it is kept as a percentage.
    #expect(parser.parse("scrub \(text)") == .command(.scrub(.percent(percent), nil)))
  }

  @Test func negativeZeroIsZero() {
    // Given -0 in any form, When parsed, Then it is +0 (so it prints as 0, not -0).
    guard case .command(.scrub(.seconds(let value), _)) = parser.parse("scrub -0:00") else {
      Issue.record("did not parse")
      return
    }
    #expect(value == 0 && value.sign == .plus)
  }

  @Test(arguments: [
    ("+10", 10.0), ("-5", -5), ("10", 10), ("-1:30", -90), ("+0.5", 0.5), ("1:00:00", 3600),
  ])
  func skipForms(text: String, seconds: Double) {
    #expect(parser.parse("skip \(text)") == .command(.skip(seconds, nil)))
  }

  @Test func secondsMayBeJustBelowSixty() {
    // Given a seconds field that Double rounds up to 60, When parsed, Then it is still below 60.
    #expect(parseError("scrub 1:59.99999999999999999") == nil)
  }

  @Test func longestAllowedArgumentParses() {
    // Given an argument of exactly 32 characters, When parsed, Then it is accepted.
    let text = "0." + String(repeating: "5", count: 30)
    #expect(text.utf8.count == 32)
    #expect(parseError("scrub \(text)") == nil)
  }
}

// MARK: - Invalid input

@Suite struct CommandParserErrorTests {
  @Test(arguments: [
    ("scrub", "scrub needs a time: scrub 83.5, scrub 1:23.5 or scrub 50%"),
    ("skip", "skip needs seconds: skip +10, skip -5 or skip -1:30"),
    ("SCRUB   ", "scrub needs a time: scrub 83.5, scrub 1:23.5 or scrub 50%"),
    ("skip # no seconds", "skip needs seconds: skip +10, skip -5 or skip -1:30"),
  ])
  func missingArgumentShowsAnExample(line: String, message: String) throws {
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message == message)
  }

  @Test(arguments: [
    ("scrub abc", "is not a number"),
    ("scrub nan", "is not a number"),
    ("scrub NaN", "is not a number"),
    ("scrub inf", "is not a number"),
    ("scrub -inf", "is not a number"),
    ("scrub infinity", "is not a number"),
    ("scrub 1e999", "is not a number"),
    ("scrub 1e3", "is not a number"),
    ("scrub 0x10", "is not a number"),
    ("scrub 1_000", "is not a number"),
    ("scrub 1,5", "is not a number"),
    ("scrub 1.2.3", "is not a number"),
    ("scrub .", "is not a number"),
    ("scrub -", "is not a number"),
    ("scrub +", "is not a number"),
    ("scrub --5", "is not a number"),
    ("scrub +-5", "is not a number"),
    ("scrub ٣", "is not a number"),
    ("scrub 1:-5", "is not a number"),
    ("scrub 1:+5", "is not a number"),
    ("scrub 5%5", "is not a number"),
    ("scrub 1:99", "seconds must be below 60"),
    ("scrub 1:60", "seconds must be below 60"),
    ("scrub 1:60:00", "minutes must be below 60"),
    ("scrub 1:02:60", "seconds must be below 60"),
    ("scrub 1.5:30", "only the seconds may have a fraction"),
    ("scrub 1:2:3:4", "too many fields"),
    ("scrub 1::2", "empty field"),
    ("scrub :30", "empty field"),
    ("scrub 1:", "empty field"),
    ("scrub 50%%", "is not a percentage"),
    ("scrub %", "is not a percentage"),
    ("scrub 1:30%", "is not a percentage"),
    ("scrub 50 %", "mode '%' is not known; use exact, keyframe or next-keyframe"),
    ("scrub 10 fast", "mode 'fast' is not known; use exact, keyframe or next-keyframe"),
    ("skip 10 precise", "mode 'precise' is not known; use exact, keyframe or next-keyframe"),
    ("skip 50%", "skip takes seconds, not a percentage"),
    ("skip abc", "is not a number"),
    ("skip 1:99", "seconds must be below 60"),
    ("scrub 1 exact now", "scrub takes a time and an optional mode, not 3 arguments"),
    ("skip 1 exact now later", "skip takes seconds and an optional mode, not 4 arguments"),
    ("scrub 1.0000000000000000000000000000000", "too long"),
  ])
  func malformedArgumentsAreBadArguments(line: String, fragment: String) throws {
    // Given a malformed argument, When parsed, Then it is bad_argument and the message says why.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(isSingleLine(error.message))
    #expect(error.message.count <= 200)
    #expect(error.message.first?.isLowercase == true)
  }

  @Test func badNumberMessageQuotesTheArgumentAndTheForms() {
    #expect(
      parseError("scrub abc")?.message
        == "scrub time 'abc' is not a number; write seconds (83.5), m:ss (1:23.5), h:mm:ss (1:02:03.25) or a percentage (50%)"
    )
    #expect(
      parseError("scrub 1:99")?.message
        == "scrub time '1:99': seconds must be below 60, e.g. scrub 1:59.5")
  }

  @Test func unknownVerbSuggestsTheNearestVerb() {
    // Given a misspelt verb, When parsed, Then the error suggests the verb it is closest to.
    #expect(
      parseError("jmp 10")
        == PlaybackError(
          .unknownCommand,
          "unknown command 'jmp' (did you mean 'skip'?); type help for the list of commands"))
    #expect(
      parseError("paly")?.message
        == "unknown command 'paly' (did you mean 'play'?); type help for the list of commands")
    #expect(parseError("scrb 10")?.message.contains("did you mean 'scrub'?") == true)
    #expect(parseError("stauts")?.message.contains("did you mean 'status'?") == true)
    #expect(
      parseError("Qiut")?.message.contains("unknown command 'Qiut' (did you mean 'quit'?)") == true)
    #expect(parseError("seek 10")?.message.contains("did you mean 'scrub'?") == true)
  }

  @Test func unknownVerbFarFromAnyVerbGetsNoSuggestion() {
    #expect(
      parseError("xyzzy")
        == PlaybackError(
          .unknownCommand, "unknown command 'xyzzy'; type help for the list of commands"))
  }

  @Test func hostileVerbIsCutAndCleaned() throws {
    // Given a 1 MB verb full of control characters and line breaks, When parsed, Then the message
    // quotes at most 40 characters of it, on one line.
    let verb = String(repeating: "a\u{1B}[2J\n\u{2028}\u{7}", count: 200_000)
    let error = try #require(parseError(verb))
    #expect(error.code == .unknownCommand)
    #expect(isSingleLine(error.message))
    #expect(error.message.count <= 200)
    #expect(error.message.hasPrefix("unknown command 'a?[2J???a?[2J???"))
    #expect(error.message.contains("…'"))
  }

  @Test func megabyteArgumentIsTooLong() throws {
    // Given a 1 MB time, When parsed, Then it is rejected as too long, briefly.
    let error = try #require(parseError("scrub " + String(repeating: "9", count: 1 << 20)))
    #expect(error.code == .badArgument)
    #expect(
      error.message == "scrub time is too long; write at most 32 characters, e.g. scrub 1:23.5")
  }

  @Test func megabyteModeIsQuotedBriefly() throws {
    let error = try #require(parseError("skip 5 " + String(repeating: "x", count: 1 << 20)))
    #expect(error.code == .badArgument)
    #expect(error.message.count <= 200)
  }

  @Test(arguments: [
    "scrub 1\u{0}0", "scrub \u{1B}[31m", "skip \u{7}", "scrub 10\u{85}", "scrub 1\r5", "play\u{0}",
  ])
  func controlCharactersAreRejectedOnOneLine(line: String) throws {
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument || error.code == .unknownCommand)
    #expect(isSingleLine(error.message))
    #expect(error.message.count <= 200)
  }
}

// MARK: - Properties

@Suite struct CommandParserPropertyTests {
  static let seed: UInt64 = 0x5650_4B5F_5041_5253  // "VPK_PARS"

  static let vocabulary = [
    "play", "PAUSE", "toggle", "scrub", "Skip", "status", "info", "frame", "help", "quit", "exit",
    "exact",
    "keyframe", "#", "# c", "%", ":", "::", "-", "+", ".", "0", "1:30", "-1:30", "50%", "1e9",
    "nan", "inf", "83.5",
    "1:02:03.25", "99999999999999999999999999999999999", "\r", "\n", "\t", " ", "\u{0}", "\u{1B}",
    "\u{2028}",
    "\u{301}", "é", "😀", "\u{FEFF}", "\u{202E}", "skip\u{0}", "1:99", "٣", "１",
  ]

  /// A random line: lossy-decoded random bytes, random scalars, or grammar tokens mixed with junk.
  fileprivate static func randomLine(_ random: inout SplitMix64) -> String {
    switch random.next() % 3 {
    case 0:
      let count = Int(random.next() % 80)
      let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      return String(decoding: bytes, as: UTF8.self)
    case 1:
      var scalars = String.UnicodeScalarView()
      for _ in 0..<(random.next() % 40) {
        let value =
          random.next() % 4 == 0 ? UInt32(random.next() % 0x11_0000) : UInt32(random.next() % 0x80)
        scalars.append(Unicode.Scalar(value) ?? "?")
      }
      return String(scalars)
    default:
      var line = ""
      for _ in 0..<(random.next() % 7) {
        if random.next() % 4 == 0 {
          let junk = (0..<(random.next() % 6)).map { _ in
            Character(Unicode.Scalar(UInt8(random.next() % 128)))
          }
          line += String(junk)
        } else {
          line += vocabulary[Int(random.next() % UInt64(vocabulary.count))]
        }
        line += ["", " ", "\t", "  "][Int(random.next() % 4)]
      }
      return line
    }
  }

  @Test func anyLineGivesACommandOrAShortSingleLineError() {
    // Given 20,000 random lines, When each is parsed, Then none crashes and every error has a stable
    // code and a single-line, lower-case message of at most 300 characters.
    var random = SplitMix64(seed: Self.seed)
    var failures: [String] = []
    for iteration in 0..<20_000 {
      let line = Self.randomLine(&random)
      guard case .invalid(let error) = CommandParser().parse(line) else { continue }
      let message = error.message
      let ok =
        (error.code == .badArgument || error.code == .unknownCommand) && isSingleLine(message)
        && message.unicodeScalars.count <= 300 && message.first?.isLowercase == true
      if !ok {
        failures.append(
          "seed \(Self.seed) iteration \(iteration): \(line.debugDescription) → \(message.debugDescription)"
        )
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
  }

  /// A number with a dyadic fraction (so every rendering of it is exact) and its value.
  fileprivate static func randomSeconds(_ random: inout SplitMix64, maxWhole: UInt64) -> (
    whole: UInt64, fraction: UInt64
  ) {
    (random.next() % maxWhole, random.next() % 4 == 0 ? 0 : random.next() % 1024)
  }

  /// `fraction / 1024` written out exactly, in one of its spellings (`.5`, `.50`, or none when 0).
  fileprivate static func renderFraction(_ fraction: UInt64, _ random: inout SplitMix64) -> String {
    if fraction == 0 { return ["", ".", ".0", ".000"][Int(random.next() % 4)] }
    var digits = String(fraction * 9_765_625)  // fraction / 1024 = fraction * 9765625 / 10^10
    digits = String(repeating: "0", count: 10 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "." + digits + String(repeating: "0", count: Int(random.next() % 3))
  }

  /// Renders seconds as plain seconds, m:ss or h:mm:ss.
  fileprivate static func renderClock(whole: UInt64, fraction: UInt64, _ random: inout SplitMix64)
    -> String
  {
    let fractionText = renderFraction(fraction, &random)
    func pad(_ value: UInt64) -> String {
      random.next() % 2 == 0 && value < 10 ? "0\(value)" : "\(value)"
    }
    switch random.next() % 3 {
    case 0:
      if whole == 0 && fraction != 0 && random.next() % 2 == 0 { return fractionText }
      return "\(whole)" + fractionText
    case 1: return "\(whole / 60):" + pad(whole % 60) + fractionText
    default: return "\(whole / 3600):" + pad(whole / 60 % 60) + ":" + pad(whole % 60) + fractionText
    }
  }

  fileprivate static func randomCase(_ word: String, _ random: inout SplitMix64) -> String {
    String(word.map { random.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
  }

  /// A random valid command and one way of writing it.
  fileprivate static func randomCommand(_ random: inout SplitMix64) -> (Command, [String]) {
    let modes: [SeekMode?] = [nil, .exact, .keyframe, .nextKeyframe]
    let mode = modes[Int(random.next() % 4)]
    let modeTokens = mode.map { [randomCase($0.rawValue, &random)] } ?? []
    switch random.next() % 4 {
    case 0:
      let simple: [(Command, String)] = [
        (.play, "play"), (.pause, "pause"), (.toggle, "toggle"), (.status, "status"),
        (.info, "info"),
        (.frame, "frame"), (.help, "help"), (.quit, "quit"), (.quit, "exit"),
      ]
      let (command, verb) = simple[Int(random.next() % UInt64(simple.count))]
      return (command, [randomCase(verb, &random)])
    case 1:
      let (whole, fraction) = randomSeconds(&random, maxWhole: 1_000)
      let negative = random.next() % 3 == 0
      let value = (Double(whole) + Double(fraction) / 1024) * (negative ? -1 : 1) + 0
      let sign = negative ? "-" : (random.next() % 2 == 0 ? "+" : "")
      let text = sign + "\(whole)" + renderFraction(fraction, &random) + "%"
      return (.scrub(.percent(value), mode), [randomCase("scrub", &random), text] + modeTokens)
    case 2:
      let (whole, fraction) = randomSeconds(&random, maxWhole: 400_000)
      let negative = random.next() % 5 == 0
      let value = (Double(whole) + Double(fraction) / 1024) * (negative ? -1 : 1) + 0
      let text = (negative ? "-" : "") + renderClock(whole: whole, fraction: fraction, &random)
      return (.scrub(.seconds(value), mode), [randomCase("scrub", &random), text] + modeTokens)
    default:
      let (whole, fraction) = randomSeconds(&random, maxWhole: 10_000)
      let negative = random.next() % 2 == 0
      let value = (Double(whole) + Double(fraction) / 1024) * (negative ? -1 : 1) + 0
      let sign = negative ? "-" : (random.next() % 2 == 0 ? "+" : "")
      let text = sign + renderClock(whole: whole, fraction: fraction, &random)
      return (.skip(value, mode), [randomCase("skip", &random), text] + modeTokens)
    }
  }

  @Test func validCommandsRoundTrip() {
    // Given 5,000 random valid commands written with random case and whitespace (and sometimes a
    // comment or a CR), When each is parsed, Then it is the command it was written from.
    var random = SplitMix64(seed: Self.seed &+ 1)
    let spaces = [" ", "\t", "  ", " \t ", "\t\t"]
    func space(_ random: inout SplitMix64) -> String {
      spaces[Int(random.next() % UInt64(spaces.count))]
    }
    var failures: [String] = []
    for iteration in 0..<5_000 {
      let (command, tokens) = Self.randomCommand(&random)
      var line = random.next() % 2 == 0 ? space(&random) : ""
      for (index, token) in tokens.enumerated() {
        if index > 0 { line += space(&random) }
        line += token
      }
      if random.next() % 2 == 0 { line += space(&random) }
      if random.next() % 4 == 0 { line += space(&random) + "# note" }
      if random.next() % 4 == 0 { line += "\r" }
      let parsed = CommandParser().parse(line)
      if parsed != .command(command) {
        failures.append(
          "seed \(Self.seed &+ 1) iteration \(iteration): \(line.debugDescription) → \(parsed), want \(command)"
        )
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
  }
}

/// `Expectation` alone also names Swift Testing's type.
typealias VPKExpectation = VideoPlaybackKit.Expectation

// MARK: - step, rate, open, close

@Suite struct CommandParserPlaybackVerbTests {
  let parser = CommandParser()

  @Test(arguments: [
    ("step", 1), ("step 1", 1), ("step +5", 5), ("step -1", -1), ("STEP -30", -30), ("step 100000", 100_000),
    ("step -100000", -100_000), ("step 007", 7), ("step +1 # next frame", 1),
  ])
  func stepCounts(line: String, count: Int) {
    // Given a step with no count or a signed whole count, When parsed, Then it moves that many frames.
    #expect(parser.parse(line) == .command(.step(count)))
  }

  @Test(arguments: [
    ("step 0", "other than 0"), ("step -0", "other than 0"), ("step +0", "other than 0"),
    ("step 100001", "at most 100000 frames"), ("step 9999999", "at most 100000 frames"),
    ("step 12345678", "is not a whole number"), ("step 1.5", "is not a whole number"),
    ("step 1e3", "is not a whole number"),
    ("step +", "is not a whole number"), ("step --1", "is not a whole number"), ("step abc", "is not a whole number"),
    ("step ٣", "is not a whole number"), ("step 1 2", "step takes one count"),
  ])
  func badStepCounts(line: String, fragment: String) throws {
    // Given a count that is zero, too large, or not a whole number, When parsed, Then bad_argument says why.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
  }

  @Test(arguments: [
    ("rate 1", 1.0), ("rate 0.5", 0.5), ("rate 2", 2), ("rate 0.01", 0.01), ("rate 100", 100), ("RATE .25", 0.25),
    ("rate -1", -1), ("rate -0.01", -0.01), ("rate -100", -100), ("rate -.5", -0.5),
  ])
  func rates(line: String, rate: Double) {
    // Given a rate within 0.01 … 100 or -100 … -0.01, When parsed, Then it is that rate.
    #expect(parser.parse(line) == .command(.rate(rate)))
  }

  @Test(arguments: [
    ("rate", "rate takes one speed"), ("rate 1 2", "rate takes one speed"), ("rate 0", "out of range"),
    ("rate 0.009", "out of range"), ("rate 100.5", "out of range"), ("rate 1000", "out of range"),
    ("rate -0.009", "out of range"), ("rate -101", "out of range"), ("rate --1", "is not a number"),
    ("rate -", "is not a number"), ("rate +1", "is not a number"), ("rate nan", "is not a number"),
    ("rate inf", "is not a number"),
    ("rate 2x", "is not a number"), ("rate 1e1", "is not a number"),
  ])
  func badRates(line: String, fragment: String) throws {
    // Given a rate that is missing, out of range or not a number, When parsed, Then bad_argument says why.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(error.message.contains("between 0.01 and 100"))
  }

  @Test(arguments: [
    ("open clip.mp4", "clip.mp4"), ("open my movie.mp4", "my movie.mp4"),
    ("  OPEN \t media/a b.mkv \t\r", "media/a b.mkv"),
    ("open clip.mp4 # the sample", "clip.mp4"), ("open clip.mp4\t# tab comment", "clip.mp4"),
    ("open take#2.mp4", "take#2.mp4"), ("open /abs/path.mp4", "/abs/path.mp4"),
    (#"open "name with # hash.mp4""#, "name with # hash.mp4"),
    (#"open "say \"hi\" \\ back.mp4""#, #"say "hi" \ back.mp4"#), (#"open "a.mp4" # quoted, then a comment"#, "a.mp4"),
    ("\u{FEFF}open clip.mp4", "clip.mp4"), ("open ünïcödé 😀.mp4", "ünïcödé 😀.mp4"),
  ])
  func openTakesTheRestOfTheLine(line: String, path: String) {
    // Given open and a path (bare to the end of the line, or double-quoted with \" and \\), When parsed,
    // Then the path is kept as written, with a ` #` comment cut off.
    #expect(parser.parse(line) == .command(.open(path)))
  }

  @Test(arguments: [
    ("open", "open needs a file"), ("open   \t ", "open needs a file"), ("open # just a comment", "open needs a file"),
    (#"open """#, "open needs a file"), (#"open "unterminated.mp4"#, "no closing quote"),
    (#"open "a.mp4" b.mp4"#, "takes one path"), ("open a\u{0}b.mp4", "NUL"),
  ])
  func badOpens(line: String, fragment: String) throws {
    // Given open with no path, an unterminated quote, two paths or a NUL, When parsed, Then bad_argument says why.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
  }

  @Test(arguments: [
    ("snapshot shot.png", "shot.png"), ("snapshot my shot.png # a note", "my shot.png"),
    (#"snapshot "name with # hash.png""#, "name with # hash.png"), ("SNAPSHOT shots/", "shots/"),
    ("snapshot /tmp/a.png", "/tmp/a.png"),
  ])
  func snapshotTakesAPathAsOpenDoes(line: String, path: String) {
    // Given snapshot and a path (bare to the end of the line, or double-quoted), When parsed, Then it has that path.
    #expect(parser.parse(line) == .command(.snapshot(path)))
  }

  @Test func snapshotWithoutAPathTakesTheDefaultName() {
    // Given snapshot alone or with only a comment, When parsed, Then it has no path (the session picks the name).
    #expect(parser.parse("snapshot") == .command(.snapshot(nil)))
    #expect(parser.parse("  snapshot  # the frame now") == .command(.snapshot(nil)))
    #expect(parser.parseInput(#"{"command":"snapshot"}"#).line == .command(.snapshot(nil)))
    #expect(
      parser.parseInput(#"{"command":"snapshot","args":["a b #1.png"]}"#).line == .command(.snapshot("a b #1.png")))
  }

  @Test(arguments: [
    (#"snapshot "unterminated.png"#, "no closing quote"), (#"snapshot "a.png" b.png"#, "takes one path"),
    ("snapshot a\u{0}b.png", "NUL"), (#"snapshot """#, "snapshot takes one file"),
  ])
  func badSnapshots(line: String, fragment: String) throws {
    // Given snapshot with an unterminated quote, two paths, a NUL or an empty quoted path, When parsed,
    // Then bad_argument says why.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
  }

  @Test func screenshotSuggestsSnapshot() {
    // Given the word mpv users type for it, When parsed, Then the error points at snapshot.
    #expect(parseError("screenshot")?.message.contains("did you mean 'snapshot'") == true)
  }

  @Test func closeTakesNoArguments() {
    // Given close, with and without an argument, When parsed, Then it closes, or says it takes none.
    #expect(parser.parse("close") == .command(.close))
    #expect(parser.parse("CLOSE # done") == .command(.close))
    #expect(parseError("close now") == PlaybackError(.badArgument, "close takes no arguments; write just 'close'"))
  }
}

// MARK: - wait

@Suite struct CommandParserWaitTests {
  let parser = CommandParser()

  @Test(arguments: [
    ("wait 2.5", WaitCondition.duration(2.5), nil as Double?), ("wait 0", .duration(0), nil),
    ("wait 1:30", .duration(90), nil), ("wait 1:00:00", .duration(3600), nil), ("wait 86400", .duration(86400), nil),
    ("wait ended", .ended, nil), ("WAIT Ended", .ended, nil), ("wait paused", .paused, nil),
    ("wait seeked", .seeked, nil),
    ("wait ended timeout 10", .ended, 10), ("wait paused TIMEOUT 1:30", .paused, 90),
    ("wait seeked timeout 0.5", .seeked, 0.5),
    ("wait position >= 12.5", .position(.seconds(12.5)), nil), ("wait position >= 1:30", .position(.seconds(90)), nil),
    ("wait position >= 50%", .position(.percent(50)), nil), ("wait position >=12.5", .position(.seconds(12.5)), nil),
    ("wait position>=12.5", .position(.seconds(12.5)), nil), ("wait position>= 12.5", .position(.seconds(12.5)), nil),
    ("wait position>=50% timeout 5", .position(.percent(50)), 5),
    ("wait position <= 12.5", .positionAtMost(.seconds(12.5)), nil),
    ("wait position<=1:30 timeout 5", .positionAtMost(.seconds(90)), 5),
    ("wait position <= 50%", .positionAtMost(.percent(50)), nil),
    ("wait position >= 3 timeout 86400", .position(.seconds(3)), 86400), ("wait ended # until the end", .ended, nil),
  ])
  func waitForms(line: String, condition: WaitCondition, timeout: Double?) {
    // Given a wait for a time, a state or a position (with an optional timeout), When parsed, Then it is that wait.
    #expect(parser.parse(line) == .command(.wait(condition, timeout: timeout)))
  }

  @Test(arguments: [
    ("wait", "wait needs a time or a condition"), ("wait soon", "is not a time or a condition"),
    ("wait 2 3", "is not a time or a condition"), ("wait 50%", "is not a time or a condition"),
    ("wait -1", "is negative"), ("wait -0:01", "is negative"), ("wait 86400.5", "over the limit of 86400 seconds"),
    ("wait 100000", "over the limit of 86400 seconds"), ("wait 5 timeout 10", "takes no timeout"),
    ("wait ended timeout", "timeout takes one number"), ("wait ended timeout 1 2", "timeout takes one number"),
    ("wait ended timeout 0", "above 0"), ("wait ended timeout -1", "is negative"),
    ("wait ended timeout 90000", "over the limit of 86400 seconds"), ("wait ended timeout soon", "is not a number"),
    ("wait ended now", "wait ended takes no other words"), ("wait paused 5", "wait paused takes no other words"),
    ("wait seeked please", "wait seeked takes no other words"), ("wait position 12", "takes >= and a time"),
    ("wait position > 12", "takes >= and a time"), ("wait position >=", "takes >= and one time"),
    ("wait position >= 1 2", "takes >= and one time"), ("wait position >= soon", "is not a number"),
  ])
  func badWaits(line: String, fragment: String) throws {
    // Given a malformed wait, When parsed, Then bad_argument says what is wrong and what is accepted.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(isSingleLine(error.message))
  }

  @Test func conditionsDescribeThemselvesAsWritten() {
    // Given each wait condition, When described (for waited events and errors), Then as the language writes it.
    #expect(WaitCondition.duration(2).description == "2 s")
    #expect(WaitCondition.duration(2.5).description == "2.5 s")
    #expect(WaitCondition.ended.description == "ended")
    #expect(WaitCondition.paused.description == "paused")
    #expect(WaitCondition.seeked.description == "seeked")
    #expect(WaitCondition.position(.seconds(12.5)).description == "position >= 12.5")
    #expect(WaitCondition.position(.seconds(90)).description == "position >= 90")
    #expect(WaitCondition.position(.percent(50)).description == "position >= 50%")
    #expect(WaitCondition.positionAtMost(.seconds(12.5)).description == "position <= 12.5")
  }
}

// MARK: - expect

@Suite struct CommandParserExpectTests {
  let parser = CommandParser()

  private func expectation(_ line: String) -> VPKExpectation? {
    if case .command(.expect(let expectation)) = parser.parse(line) { return expectation }
    return nil
  }

  @Test func everyFieldParsesWithAValueOfItsKind() {
    // Given every field, each with a value of its kind, When parsed, Then each is an expectation on it.
    for field in ExpectField.allCases {
      let value =
        switch field.kind {
        case .time: "1:30"
        case .number: "2"
        case .string: "x"
        case .bool: "true"
        }
      let parsed = expectation("expect \(field.rawValue) == \(value)")
      #expect(parsed?.field == field, "\(field)")
    }
  }

  @Test(arguments: [
    ("expect position ~ 10", VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)))),
    (
      "expect position ~ 10 ±0.01",
      VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)), tolerance: 0.01)
    ),
    (
      "expect position ~ 10 +-0.01",
      VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)), tolerance: 0.01)
    ),
    (
      "expect position ~ 10 ± 0.01",
      VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)), tolerance: 0.01)
    ),
    (
      "expect position ~ 10 +- .5",
      VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)), tolerance: 0.5)
    ),
    ("expect position >= 50%", VPKExpectation(field: .position, op: .greaterOrEqual, expected: .time(.percent(50)))),
    ("expect duration == 1:00", VPKExpectation(field: .duration, op: .equal, expected: .time(.seconds(60)))),
    ("expect frame.time < 2.5", VPKExpectation(field: .frameTime, op: .less, expected: .time(.seconds(2.5)))),
    ("expect frames_decoded > 3", VPKExpectation(field: .framesDecoded, op: .greater, expected: .value(.number(3)))),
    ("expect rate <= 2", VPKExpectation(field: .rate, op: .lessOrEqual, expected: .value(.number(2)))),
    ("expect frame.pts != -512", VPKExpectation(field: .framePTS, op: .notEqual, expected: .value(.number(-512)))),
    ("expect loops == +2", VPKExpectation(field: .loops, op: .equal, expected: .value(.number(2)))),
    ("expect state == PLAYING", VPKExpectation(field: .state, op: .equal, expected: .value(.string("playing")))),
    (
      "expect error == Bad_Argument",
      VPKExpectation(field: .error, op: .equal, expected: .value(.string("bad_argument")))
    ),
    (
      "expect container == Matroska",
      VPKExpectation(field: .container, op: .equal, expected: .value(.string("Matroska")))
    ),
    ("expect frame.md5 == none", VPKExpectation(field: .frameMD5, op: .equal, expected: .value(.none))),
    ("expect video.codec != NONE", VPKExpectation(field: .videoCodec, op: .notEqual, expected: .value(.none))),
    ("expect duration == none", VPKExpectation(field: .duration, op: .equal, expected: .value(.none))),
    ("EXPECT FRAME.KEY == TRUE", VPKExpectation(field: .frameKey, op: .equal, expected: .value(.bool(true)))),
    ("expect frame.key != false", VPKExpectation(field: .frameKey, op: .notEqual, expected: .value(.bool(false)))),
    (
      "expect position ~ 10 ±0.01 # close enough",
      VPKExpectation(field: .position, op: .approximately, expected: .time(.seconds(10)), tolerance: 0.01)
    ),
  ])
  func expectForms(line: String, expected: VPKExpectation) {
    // Given an expectation with any operator, value kind or tolerance spelling, When parsed, Then it is that check.
    #expect(parser.parse(line) == .command(.expect(expected)))
  }

  @Test(arguments: [("true", true), ("TRUE", true), ("false", false), ("False", false)])
  func boolSpellings(text: String, value: Bool) {
    // Given true or false in any case, When parsed, Then it is that boolean.
    #expect(expectation("expect frame.key == \(text)")?.expected == .value(.bool(value)))
  }

  @Test(arguments: ["yes", "no", "1", "0", "on"])
  func onlyTrueAndFalseAreBooleans(text: String) throws {
    // Given a boolean spelled as docs/commands.md does not document, When parsed, Then it is refused with bad_argument
    let error = try #require(parseError("expect frame.key == \(text)"))
    #expect(error.code == .badArgument)
    #expect(error.message == "expect frame.key: '\(text)' is not true or false; write true or false")
  }

  @Test func anUnknownFieldHasItsOwnCodeAndListsTheFields() throws {
    // Given a field vpk does not know, When parsed, Then unknown_field names it and lists the known ones.
    let error = try #require(parseError("expect colour == red"))
    #expect(error.code == .unknownField)
    #expect(error.message.hasPrefix("expect: unknown field 'colour'; use state, position, duration"))
    #expect(error.message.count <= 200)
    #expect(error.message.contains("frame.md5") && error.message.contains("audio.*"))
  }

  @Test(arguments: [("postion", "position"), ("frame.md", "frame.md5"), ("decode_error", "decode_errors")])
  func aMistypedFieldIsToldTheNearestOne(typed: String, meant: String) throws {
    // Given a field one or two letters off a known one, When parsed, Then the error asks about the known one
    let error = try #require(parseError("expect \(typed) == 1"))
    #expect(error.code == .unknownField)
    #expect(error.message.hasPrefix("expect: unknown field '\(typed)'; did you mean \(meant)? use state"))
  }

  @Test func aToleranceIsWrittenWithPlusMinusAsWithTheSign() {
    // Given the same check with ±, +- and either apart from the number, When parsed, Then all four are one command
    let forms = ["±0.5", "+-0.5", "± 0.5", "+- 0.5"].map { CommandParser().parse("expect position ~ 3 \($0)") }
    #expect(Set(forms.map { "\($0)" }).count == 1)
    #expect(forms.allSatisfy { if case .command = $0 { true } else { false } })
  }

  @Test(arguments: [
    ("expect", "needs a field, an operator and a value"), ("expect state ==", "needs a field, an operator and a value"),
    ("expect state = paused", "is not an operator"), ("expect position => 1", "is not an operator"),
    ("expect state < paused", "is text: compare it with == or !="), ("expect frame.md5 ~ abc", "is text"),
    ("expect frame.key > true", "is true or false: use == or !="),
    ("expect frame.key == maybe", "is not true or false"),
    ("expect position < none", "none can only be compared with == or !="),
    ("expect state == paused ±1", "a tolerance applies to numbers and times"),
    ("expect position ~ 10 ±abc", "tolerance 'abc' is not a number"), ("expect position ~ 10 ± -1", "is not a number"),
    ("expect position ~ 10 ±", "is not a number"), ("expect position ~ 10 11", "takes one value"),
    ("expect position ~ 10 ± 1 2", "takes one value"), ("expect frames_decoded > many", "is not a number"),
    ("expect frames_decoded > 1e3", "is not a number"), ("expect position > soon", "is not a number"),
    ("expect path == my file.mp4", "takes one value"),
  ])
  func badExpects(line: String, fragment: String) throws {
    // Given a malformed expect, When parsed, Then bad_argument says what is wrong.
    let error = try #require(parseError(line))
    #expect(error.code == .badArgument)
    #expect(error.message.contains(fragment), "\(error.message)")
    #expect(isSingleLine(error.message))
  }
}

// MARK: - JSON command lines

@Suite struct CommandParserJSONTests {
  let parser = CommandParser()

  @Test func aCommandWithArgumentsAndAStringID() {
    // Given a JSON command with args and a string id, When parsed, Then the command and the id.
    let (line, id) = parser.parseInput(#"{"command": "scrub", "args": [10, "exact"], "id": "a1"}"#)
    #expect(line == .command(.scrub(.seconds(10), .exact)))
    #expect(id == .string("a1"))
  }

  @Test func aWholeLineInCommandAndNoID() {
    // Given a whole text line in `command`, with leading space, When parsed, Then the same command, with no id.
    let (line, id) = parser.parseInput(#"  {"command":"skip -5 keyframe"}"#)
    #expect(line == .command(.skip(-5, .keyframe)))
    #expect(id == nil)
  }

  @Test(arguments: [
    (#"{"command":"status","id":7}"#, ClientID.number(7)), (#"{"command":"status","id":-2.5}"#, .number(-2.5)),
    (#"{"command":"status","id":""}"#, .string("")), (#"{"id":"x y","command":"status"}"#, .string("x y")),
  ])
  func numberAndStringIDs(text: String, id: ClientID) {
    // Given ids that are numbers or strings, When parsed, Then they come back as given.
    let parsed = parser.parseInput(text)
    #expect(parsed.line == .command(.status))
    #expect(parsed.clientID == id)
  }

  @Test(arguments: [
    #"{"command":"status","id":null}"#, #"{"command":"status","id":true}"#, #"{"command":"status","id":false}"#,
    #"{"command":"status","id":{"a":1}}"#, #"{"command":"status","id":[1]}"#,
  ])
  func badIDs(text: String) {
    // Given an id that is null, a boolean, an object or an array, When parsed, Then bad_id and no id back.
    let parsed = parser.parseInput(text)
    guard case .invalid(let error) = parsed.line else {
      Issue.record("\(text) → \(parsed.line)")
      return
    }
    #expect(error.code == .badID)
    #expect(parsed.clientID == nil)
  }

  @Test func anOverlongStringIDIsBad() {
    let id = String(repeating: "x", count: 257)
    guard case .invalid(let error) = parser.parseInput(#"{"command":"status","id":"\#(id)"}"#).line else {
      Issue.record("accepted")
      return
    }
    #expect(error.code == .badID)
  }

  @Test(arguments: [
    #"{"command":"status""#, #"{command: status}"#, #"{"command":"status"} trailing"#, "{", "{}}",
    #"{"command":"status","extra":1}"#, #"{"command":7}"#, #"{}"#, #"{"args":[1]}"#, #"{"command":"scrub","args":10}"#,
    #"{"command":"scrub","args":[true]}"#, #"{"command":"scrub","args":[null]}"#,
    #"{"command":"scrub","args":[[1]]}"#, #"{"command":""}"#, #"{"command":"   "}"#, #"{"command":"play\nquit"}"#,
  ])
  func malformedJSONIsBadJSON(text: String) {
    // Given malformed JSON, an unknown key, or a command or args of the wrong shape, When parsed, Then bad_json.
    guard case .invalid(let error) = parser.parseInput(text).line else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(error.code == .badJSON, "\(text): \(error)")
    #expect(isSingleLine(error.message))
  }

  @Test func anUnknownKeyKeepsTheID() {
    // Given a JSON command with an unknown key and an id, When parsed, Then bad_json, and the id comes back for it.
    let parsed = parser.parseInput(#"{"command":"status","id":"q","verb":"x"}"#)
    #expect(
      parsed.line
        == .invalid(PlaybackError(.badJSON, "unknown key 'verb' in a JSON command; the keys are command, args and id")))
    #expect(parsed.clientID == .string("q"))
  }

  @Test func deepNestingIsRejectedWithoutRecursing() {
    // Given 10,000 nested brackets (and 10,000 in args), When parsed, Then bad_json, with no crash.
    let deep = "{" + String(repeating: "[", count: 10_000)
    let deepArgs =
      #"{"command":"scrub","args":"# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
      + "}"
    for text in [deep, deepArgs] {
      guard case .invalid(let error) = parser.parseInput(text).line else {
        Issue.record("accepted")
        continue
      }
      #expect(error.code == .badJSON)
    }
    // while brackets inside strings do not count
    #expect(parser.parseInput(#"{"command":"open","args":["[[[[[[.mp4"]}"#).line == .command(.open("[[[[[[.mp4")))
  }

  @Test func openTakesAPathWithSpacesAsOneArgument() {
    // Given open with a path holding spaces, `#` and quotes, When parsed, Then the path is kept whole.
    #expect(
      parser.parseInput(#"{"command":"open","args":["my clip #2 \"x\".mp4"]}"#).line
        == .command(.open(#"my clip #2 "x".mp4"#)))
    guard case .invalid(let error) = parser.parseInput(#"{"command":"open","args":[""]}"#).line else {
      Issue.record("empty path accepted")
      return
    }
    #expect(error.code == .badArgument)
  }

  @Test(arguments: [
    #"{"command":"scrub","args":["10 exact"]}"#, ##"{"command":"scrub","args":["10","#"]}"##,
    #"{"command":"skip","args":[""]}"#,
  ])
  func argumentsWithSpacesOrHashesAreRejected(text: String) {
    // Given an argument that would split into several words or start a comment, When parsed, Then bad_argument.
    guard case .invalid(let error) = parser.parseInput(text).line else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(error.code == .badArgument)
  }

  @Test func numbersInArgsBecomeTheirShortForm() {
    // Given whole and fractional numbers in args, When parsed, Then they read as the text would.
    #expect(parser.parseInput(#"{"command":"step","args":[-3]}"#).line == .command(.step(-3)))
    #expect(parser.parseInput(#"{"command":"rate","args":[0.5]}"#).line == .command(.rate(0.5)))
    #expect(parser.parseInput(#"{"command":"scrub","args":[12.0]}"#).line == .command(.scrub(.seconds(12), nil)))
  }

  @Test func textLinesStillParseAsText() {
    // Given a line that does not start with `{`, When parsed as input, Then it is a text command with no id.
    #expect(parser.parseInput("scrub 10").line == .command(.scrub(.seconds(10), nil)))
    #expect(parser.parseInput("scrub 10").clientID == nil)
    #expect(
      parser.parseInput(#"["status"]"#).line
        == .invalid(CommandParser.unknownCommand(#"["status"]"#, lowercased: #"["status"]"#)))
  }

  /// A random line built from JSON's pieces, some valid and most not.
  private static func randomJSONish(_ random: inout SplitMix64) -> String {
    let pieces = [
      "{", "}", "[", "]", ":", ",", "\"", "\\", "\"command\"", "\"args\"", "\"id\"", "\"scrub\"", "\"open\"",
      "\"wait\"", "\"expect\"", "\"status\"", "10", "-1.5", "1e308", "1e999", "true", "false", "null", " ", "\t",
      "\"\\u0000\"", "\"\\ud800\"", "\"é😀\"", "\u{0}", "\n", "\u{FEFF}", "#", "position >= 50%", "\"a b\"",
    ]
    var line = random.next() % 4 == 0 ? "" : "{"
    for _ in 0..<(random.next() % 24) {
      line += pieces[Int(random.next() % UInt64(pieces.count))]
    }
    if random.next() % 3 == 0 { line += "}" }
    return line
  }

  @Test func randomJSONishLinesNeverCrash() {
    // Given 20,000 random JSON-ish lines (seeded), When each is parsed, Then each gives a result, and every
    // error has a stable code and a short single-line message.
    let seed: UInt64 = 0x4A53_4F4E_4C49_4E45  // "JSONLINE"
    print("randomJSONishLinesNeverCrash seed \(seed)")
    var random = SplitMix64(seed: seed)
    var failures: [String] = []
    for iteration in 0..<20_000 {
      let text = Self.randomJSONish(&random)
      let (line, _) = parser.parseInput(text)
      if case .invalid(let error) = line,
        !(isSingleLine(error.message) && error.message.unicodeScalars.count <= 300)
      {
        failures.append("seed \(seed) iteration \(iteration): \(text.debugDescription) → \(error)")
      }
    }
    #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
  }
}

// MARK: - Regressions

@Suite struct CommandParserRegressionTests {
  @Test func openWithOnlyACommentHasNoPath() {
    // Given `open # note` (the ` #` after the verb starts a comment, as on every line), When parsed,
    // Then it asks for a file instead of opening a file named "# note".
    #expect(parseError("open # note")?.message.hasPrefix("open needs a file") == true)
  }

  @Test func waitPositionMayGlueTheOperator() {
    // Given `position>=T` and `position>= T`, When parsed, Then the same wait as `position >= T`.
    #expect(CommandParser().parse("wait position>=12.5") == .command(.wait(.position(.seconds(12.5)), timeout: nil)))
    #expect(CommandParser().parse("wait position>= 50%") == .command(.wait(.position(.percent(50)), timeout: nil)))
  }

  @Test func waitTimesOutOfRangeSaySo() {
    // Given a wait that is negative or over a day, When parsed, Then the error says that, not "not a time".
    #expect(parseError("wait -1")?.message == "wait '-1' is negative; write seconds such as 2.5")
    #expect(parseError("wait 100000")?.message == "wait '100000' is over the limit of 86400 seconds")
  }
}

@Suite("rate's relative form")
struct RateFactorParserTests {
  let parser = CommandParser()

  @Test func aFactorScalesTheRateThereIs() {
    // Given `rate *f` and `rate /f`, When parsed, Then they scale the rate by f and 1/f
    #expect(parser.parse("rate *1.1") == .command(.scaleRate(1.1)))
    #expect(parser.parse("rate /2") == .command(.scaleRate(0.5)))
    #expect(parser.parse("rate /1.1") == .command(.scaleRate(1 / 1.1)))
  }

  @Test(arguments: [
    ("rate *", "is not a number"), ("rate *x", "is not a number"), ("rate *-1", "is not a number"),
    ("rate /0", "out of range"), ("rate *1000", "out of range"), ("rate * 2", "rate takes one speed"),
  ])
  func aBadFactorSaysWhy(line: String, message: String) {
    // Given a factor that is missing, not a number or out of range, When parsed, Then bad_argument says why
    guard case .invalid(let error) = parser.parse(line) else {
      Issue.record("\(line) parsed")
      return
    }
    #expect(error.message.contains(message), "\(error.message)")
  }
}

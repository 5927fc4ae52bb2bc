import Testing

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

/// A small, fast, seedable generator (SplitMix64), so a failing property case can be replayed.
private struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

// MARK: - Verbs

@Suite struct CommandParserVerbTests {
  let parser = CommandParser()

  @Test(arguments: [
    ("play", Command.play), ("pause", .pause), ("toggle", .toggle), ("status", .status),
    ("info", .info),
    ("frame", .frame), ("help", .help), ("quit", .quit), ("exit", .quit),
  ])
  func everyVerbWithoutArgumentsParses(line: String, expected: Command) {
    // Given a verb that takes no arguments, When it is parsed, Then it is that command.
    #expect(parser.parse(line) == .command(expected))
  }

  @Test(arguments: ["play", "pause", "toggle", "status", "info", "frame", "help", "quit", "exit"])
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
      CommandParser.verbs == [
        "play", "pause", "toggle", "scrub", "skip", "step", "rate", "status", "info", "frame", "open", "close",
        "wait", "expect", "help", "quit",
      ])
    // Every listed verb parses (with an argument where one is needed).
    let arguments = [
      "scrub": " 1", "skip": " 1", "rate": " 2", "open": " clip.mp4", "wait": " 1", "expect": " state == paused",
    ]
    for verb in CommandParser.verbs {
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
    ("scrub 50 %", "mode '%' is not known; use exact or keyframe"),
    ("scrub 10 fast", "mode 'fast' is not known; use exact or keyframe"),
    ("skip 10 precise", "mode 'precise' is not known; use exact or keyframe"),
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
          "unknown command 'jmp'; did you mean 'skip'? Type help for the list of commands."))
    #expect(
      parseError("paly")?.message
        == "unknown command 'paly'; did you mean 'play'? Type help for the list of commands.")
    #expect(parseError("scrb 10")?.message.contains("did you mean 'scrub'?") == true)
    #expect(parseError("stauts")?.message.contains("did you mean 'status'?") == true)
    #expect(
      parseError("Qiut")?.message.contains("unknown command 'Qiut'; did you mean 'quit'?") == true)
    #expect(parseError("seek 10")?.message.contains("did you mean 'scrub'?") == true)
  }

  @Test func unknownVerbFarFromAnyVerbGetsNoSuggestion() {
    #expect(
      parseError("xyzzy")
        == PlaybackError(
          .unknownCommand, "unknown command 'xyzzy'; type help for the list of commands."))
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
    let modes: [SeekMode?] = [nil, .exact, .keyframe]
    let mode = modes[Int(random.next() % 3)]
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

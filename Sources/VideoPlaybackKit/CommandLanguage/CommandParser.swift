// CommandParser: turns one line of the command language into a Command, or a clear error.
// This file holds the line's shape and the verbs without arguments; the verbs with arguments have a
// file each, by grammar (CommandParser+Times, +Arguments, +Wait, +Expect, +Queue), and JSON lines are
// JSONCommands. The verbs themselves, with their help, are the table in CommandVerbs.
//
//   line     := ws* [ verb (ws+ argument)* ] ws* [ '#' comment ] [CR | LF]*
//   ws       := ' ' | '\t'
//   verb     := a name or alias from CommandVerbs                            (ASCII case-insensitive)
//
// - A byte-order mark (U+FEFF) at the start of the line is ignored.
// - A token that starts with `#` starts a comment: `play # go` is `play`, `play#go` is an unknown verb.
// - Every error message is one line of at most about 200 characters, whatever the input: anything
//   quoted from the input is cut to 40 characters and its control characters are replaced.
// - The parser is total: no input traps, overflows or takes more than linear time.

import Foundation

/// What one input line turned out to be.
package enum ParsedLine: Sendable, Equatable {
  /// A blank line or a comment: not a command, takes no id.
  case empty
  case command(Command)
  /// Not a valid command; it still takes an id and gets an `error` event.
  case invalid(PlaybackError)
}

package struct CommandParser: Sendable {
  /// The most frames one `step` moves.
  static let maxStep = 100_000
  /// The longest `wait` or `timeout`, in seconds (one day).
  static let maxWait = 86_400.0

  /// The longest time argument (in characters) that is looked at; longer ones are too long.
  static let maxArgumentLength = 32
  /// How much of an input token an error message quotes.
  static let maxQuotedLength = 40

  package init() {}

  package func parse(_ line: String) -> ParsedLine {
    let tokens = Self.tokenize(line)
    guard let first = tokens.first else { return .empty }
    let arguments = tokens.dropFirst()
    let word = Self.asciiLowercased(first)
    let verb = CommandVerbs.named(word)?.name ?? word

    switch verb {
    case "play": return noArguments(.play, word, arguments)
    case "pause": return noArguments(.pause, word, arguments)
    case "toggle": return noArguments(.toggle, word, arguments)
    case "status": return noArguments(.status, word, arguments)
    case "info": return noArguments(.info, word, arguments)
    case "frame": return noArguments(.frame, word, arguments)
    case "mark": return noArguments(.mark, word, arguments)
    case "help": return noArguments(.help, word, arguments)
    case "quit": return noArguments(.quit, word, arguments)
    case "close": return noArguments(.close, word, arguments)
    case "scrub": return parseScrub(Array(arguments))
    case "skip": return parseSkip(Array(arguments))
    case "step": return parseStep(Array(arguments))
    case "rate": return parseRate(Array(arguments))
    case "open": return parseOpen(line)
    case "snapshot": return parseSnapshot(line)
    case "wait": return parseWait(Array(arguments))
    case "expect": return parseExpect(Array(arguments))
    case "next": return noArguments(.next, word, arguments)
    case "prev": return noArguments(.previous, word, arguments)
    case "goto": return parseGoto(Array(arguments))
    case "queue": return parseQueue(line, Array(arguments))
    default: return .invalid(Self.unknownCommand(first, lowercased: word))
    }
  }

  // MARK: - Verbs

  func noArguments(_ command: Command, _ word: String, _ arguments: ArraySlice<String>)
    -> ParsedLine
  {
    guard arguments.isEmpty else {
      return .invalid(Self.bad("\(word) takes no arguments; write just '\(word)'"))
    }
    return .command(command)
  }

  // MARK: - Unknown verbs

  static func unknownCommand(_ typed: String, lowercased: String) -> PlaybackError {
    let message =
      if let suggestion = CommandVerbs.suggestion(for: lowercased) {
        "unknown command \(quoted(typed)) (did you mean '\(suggestion)'?); type help for the list of commands"
      } else {
        "unknown command \(quoted(typed)); type help for the list of commands"
      }
    return PlaybackError(.unknownCommand, message)
  }

  // MARK: - Helpers

  static func bad(_ message: String) -> PlaybackError { PlaybackError(.badArgument, message) }

  /// Splits a line into tokens at runs of spaces and tabs, dropping trailing CR/LF and any comment.
  /// Works on Unicode scalars, so a space followed by a combining mark still separates tokens.
  static func tokenize(_ line: String) -> [String] {
    let scalars = line.unicodeScalars
    var end = scalars.endIndex
    while end > scalars.startIndex {
      let before = scalars.index(before: end)
      guard isSeparator(scalars[before]) || scalars[before] == "\r" || scalars[before] == "\n"
      else { break }
      end = before
    }
    var tokens: [String] = []
    var index = scalars.startIndex
    // A byte-order mark (a script saved by some Windows editors starts with one) is not a token.
    if index < end && scalars[index] == "\u{FEFF}" { index = scalars.index(after: index) }
    while index < end {
      if isSeparator(scalars[index]) {
        index = scalars.index(after: index)
        continue
      }
      if scalars[index] == "#" { break }
      let start = index
      while index < end && !isSeparator(scalars[index]) { index = scalars.index(after: index) }
      tokens.append(String(Substring(scalars[start..<index])))
    }
    return tokens
  }

  static func isSeparator(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
  static func isSeparator(_ character: Character) -> Bool { character == " " || character == "\t" }

  /// Lower-cases ASCII letters only, so no Unicode folding (the Kelvin sign, dotted I) can turn a
  /// foreign word into a verb.
  static func asciiLowercased(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if ("A"..."Z").contains(scalar), let lower = Unicode.Scalar(scalar.value + 32) {
        scalars.append(lower)
      } else {
        scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// A piece of the input as a message quotes it (see `TextQuoting.excerpt`).
  static func quoted(_ text: String) -> String {
    TextQuoting.excerpt(text, maxCharacters: maxQuotedLength)
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSeparators() -> String {
    var scalars = Substring(self).unicodeScalars
    while let first = scalars.first, CommandParser.isSeparator(first) { scalars.removeFirst() }
    while let last = scalars.last, CommandParser.isSeparator(last) { scalars.removeLast() }
    return String(scalars)
  }
}

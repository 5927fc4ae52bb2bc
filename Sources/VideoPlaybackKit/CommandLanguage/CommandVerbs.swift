// CommandVerbs: the one table of the command language's verbs. The parser looks verbs up here,
// `help` and `vpk --help` list them from it, "did you mean" suggests from it, and the fuzzer's
// dictionary is made from it, so a verb is added in one place.

/// One verb: how it is written, other spellings accepted for it, and what `help` says of it.
package struct CommandVerb: Sendable, Equatable {
  package let name: String
  /// Other spellings that mean this verb (`exit` for `quit`).
  package let aliases: [String]
  /// The verb with its arguments, as `help` shows it.
  package let usage: String
  /// What it does, in a few words.
  package let summary: String
}

package enum CommandVerbs {
  /// Every verb, in the order `help` lists them.
  package static let all: [CommandVerb] = [
    CommandVerb(name: "play", aliases: [], usage: "play", summary: "start or resume playback"),
    CommandVerb(name: "pause", aliases: [], usage: "pause", summary: "pause playback"),
    CommandVerb(name: "toggle", aliases: [], usage: "toggle", summary: "switch between playing and paused"),
    CommandVerb(
      name: "scrub", aliases: [], usage: "scrub <time> [exact|keyframe]",
      summary: "seek to a time: 83.5, 1:23.5, 1:02:03.25 or 50%"),
    CommandVerb(
      name: "skip", aliases: [], usage: "skip <±seconds> [exact|keyframe]",
      summary: "seek from where playback is: +10, -5"),
    CommandVerb(
      name: "step", aliases: [], usage: "step [±N]", summary: "pause and show the Nth next (or previous) frame"),
    CommandVerb(
      name: "rate", aliases: [], usage: "rate <±x> | *<f> | /<f>",
      summary: "playback speed: 2, 0.5; negative plays backward: -1; *1.1 faster (wall and virtual clocks)"),
    CommandVerb(name: "status", aliases: [], usage: "status", summary: "report state, position and counters"),
    CommandVerb(
      name: "info", aliases: [], usage: "info", summary: "report the media: container, duration, streams, codecs"),
    CommandVerb(
      name: "frame", aliases: [], usage: "frame", summary: "report the frame on screen: pts, time, key flag, md5"),
    CommandVerb(
      name: "mark", aliases: [], usage: "mark",
      summary: "report state, position and the frame on screen (md5) at once"),
    CommandVerb(
      name: "snapshot", aliases: [], usage: "snapshot [path]",
      summary: "write the frame on screen as a PNG (default: <file>-<position>.png)"),
    CommandVerb(name: "open", aliases: [], usage: "open <path>", summary: "load another file"),
    CommandVerb(name: "close", aliases: [], usage: "close", summary: "unload the file and go idle"),
    CommandVerb(name: "next", aliases: [], usage: "next", summary: "play the queue's next entry"),
    CommandVerb(name: "prev", aliases: ["previous"], usage: "prev", summary: "play the queue's entry before"),
    CommandVerb(name: "goto", aliases: [], usage: "goto <N>", summary: "play the queue's entry N (from 1)"),
    CommandVerb(
      name: "queue", aliases: [], usage: "queue [add|add-next|insert|remove|move|clear|…]",
      summary:
        "list the queue, or edit it: add <path>, add-next <path>, insert <N> <path>, remove <N>, move <N> <M>, "
        + "clear, shuffle, unshuffle, loop yes|no"),
    CommandVerb(
      name: "wait", aliases: [], usage: "wait <s> | ended | paused | seeked | position >= <t>",
      summary: "let time pass, or until… [timeout <s>]"),
    CommandVerb(
      name: "expect", aliases: [], usage: "expect <field> <op> <value> [±tol]",
      summary: "check state, position, frame.md5 …"),
    CommandVerb(name: "help", aliases: [], usage: "help", summary: "show this list and the keys"),
    CommandVerb(name: "quit", aliases: ["exit"], usage: "quit", summary: "leave"),
  ]

  /// The verbs' names, in `help` order.
  package static var names: [String] { all.map(\.name) }

  /// Words users of other players type, mapped to the verb that does that here. Only suggested,
  /// never accepted: `seek 10` is an error that points at `scrub`.
  package static let synonyms: [String: String] = [
    "seek": "scrub", "jump": "skip", "jmp": "skip", "forward": "skip", "back": "skip",
    "resume": "play", "start": "play", "unpause": "play", "stop": "pause", "q": "quit", "?": "help",
    "screenshot": "snapshot", "shot": "snapshot", "playlist": "queue",
  ]

  /// The verb a (lower-cased) word names, by its name or an alias.
  package static func named(_ word: String) -> CommandVerb? {
    all.first { $0.name == word || $0.aliases.contains(word) }
  }

  /// Every accepted spelling: names, then aliases.
  static var spellings: [String] { names + all.flatMap(\.aliases).sorted() }

  /// The verb the user most likely meant: a known synonym, else the nearest verb or alias within
  /// edit distance 2 (1 for a word of three letters or fewer; the first in `help` order on a tie).
  package static func suggestion(for word: String) -> String? {
    if let verb = synonyms[word] { return verb }
    let scalars = Array(word.unicodeScalars.prefix(12))
    guard scalars.count <= 10 else { return nil }
    var best: (verb: String, distance: Int)?
    for candidate in spellings {
      let distance = editDistance(scalars, Array(candidate.unicodeScalars))
      // A word of three letters or fewer two edits away keeps one letter of its own: no guess (`foo` is not `goto`).
      if distance <= (scalars.count <= 3 ? 1 : 2), distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.verb
  }

  /// Levenshtein distance; both inputs are short (callers cap them).
  package static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// One line per verb, `indent` + usage padded to a column + summary: the body of `help` and of
  /// `vpk --help`'s command list.
  package static func usageLines(indent: String = "  ") -> [String] {
    let width = all.map(\.usage.count).max() ?? 0
    return all.map { verb in
      indent + verb.usage + String(repeating: " ", count: width - verb.usage.count + 3) + verb.summary
    }
  }
}

// NextText: what a `next` (play, pause or toggle with nothing loaded) means, in words, for a person at a terminal.

/// The words after a `next` line on a terminal. The line itself keeps its fields, as every event's does; the words
/// say why nothing plays and what the command set.
package enum NextText {
  package static func explanation(paused: Bool) -> String {
    " (nothing is loaded: open a file with open <path>; it will start \(paused ? "paused" : "playing"))"
  }
}

// QueueCommandTests: the queue's verbs as the parser reads them (text and JSON), and the queue's events as the
// formatter writes them.

import Testing

@testable import VideoPlaybackKit

@Suite struct QueueCommandTests {
  let parser = CommandParser()

  @Test(arguments: [
    ("next", Command.next), ("prev", .previous), ("previous", .previous), ("goto 3", .goto(3)),
    ("queue", .queue(.list)), ("queue list", .queue(.list)), ("queue add ep 2.mp4", .queue(.add("ep 2.mp4"))),
    ("queue  add-next  \"a # b.mp4\"", .queue(.addNext("a # b.mp4"))), ("queue remove 2", .queue(.remove(2))),
    ("queue move 3 1", .queue(.move(3, 1))), ("QUEUE Clear", .queue(.clear)), ("queue shuffle", .queue(.shuffle)),
    ("queue unshuffle", .queue(.unshuffle)), ("queue loop yes", .queue(.loop(true))),
    ("queue loop NO", .queue(.loop(false))),
    ("queue insert 2 ep 2.mp4", .queue(.insert("ep 2.mp4", .number(2), EntryOptions()))),
    (
      "queue add start=1:30 pause=yes rate=1.5 \"ep 3.mp4\"",
      .queue(.insert("ep 3.mp4", .end, EntryOptions(start: .time(.seconds(90)), paused: true, rate: 1.5)))
    ),
    ("queue add-next pause=no ep4.mp4", .queue(.insert("ep4.mp4", .afterCurrent, EntryOptions(paused: false)))),
    ("queue add ./start=1.mp4", .queue(.add("./start=1.mp4"))),
    ("queue add title=Pilot ep1.mp4", .queue(.insert("ep1.mp4", .end, EntryOptions(title: "Pilot")))),
    (
      "queue add pause=yes title=\"Part #2: \\\"the \\\\ end\\\"\" rate=2 \"ep 2.mp4\"",
      .queue(.insert("ep 2.mp4", .end, EntryOptions(paused: true, rate: 2, title: "Part #2: \"the \\ end\"")))
    ),
    (
      "queue insert 1 TITLE=\"Épisode 3\"\tep3.mp4",
      .queue(.insert("ep3.mp4", .number(1), EntryOptions(title: "Épisode 3")))
    ),
  ])
  func queueVerbsParse(line: String, command: Command) {
    // Given a line of the queue's verbs, Then it parses to its command
    #expect(parser.parse(line) == .command(command))
  }

  @Test(arguments: [
    ("goto", "goto takes one entry number"), ("goto 0", "not a whole number from 1"),
    ("goto -1", "not a whole number from 1"), ("next 2", "next takes no arguments"),
    ("queue move 1", "queue move takes two entry numbers"), ("queue add", "queue add needs a file"),
    ("queue pop", "unknown queue command"), ("queue insert x a.mp4", "not a whole number from 1"),
    ("queue add pause=maybe a.mp4", "is not yes or no"), ("queue add rate=0 a.mp4", "is not a speed"),
    ("queue add start=abc a.mp4", "start"), ("queue loop", "queue loop takes yes or no"),
    ("queue insert 2", "queue insert needs an entry number and a file"),
    ("queue add title=\"Episode 2 a.mp4", "no closing quote"), ("queue add title= a.mp4", "needs a title"),
    ("queue add title=\"\" a.mp4", "needs a title"), ("queue add title=\"A\"b.mp4", "put a space after"),
    ("queue add title=\"a\u{1B}b\" a.mp4", "control characters"), ("queue add title=Pilot", "queue add needs a file"),
  ])
  func badQueueLinesSayWhatToWrite(line: String, message: String) {
    // Given a malformed queue line, Then it is a bad argument whose message says what to write
    guard case .invalid(let error) = parser.parse(line) else {
      Issue.record("\(line) parsed")
      return
    }
    #expect(error.code == .badArgument)
    #expect(error.message.contains(message), "\(error.message)")
  }

  @Test func waitEntryTakesAnEntryNumberAndATimeout() {
    #expect(parser.parse("wait entry 3") == .command(.wait(.entry(3), timeout: nil)))
    #expect(parser.parse("wait entry 2 timeout 5") == .command(.wait(.entry(2), timeout: 5)))
    guard case .invalid(let error) = parser.parse("wait entry 0") else {
      Issue.record("wait entry 0 parsed")
      return
    }
    #expect(error.message.contains("wait entry takes one entry number"))
  }

  @Test func jsonQueueAddTakesItsPathAsItIs() {
    // Given a JSON queue add whose path holds spaces and a #
    let parsed = parser.parseInput(#"{"command": "queue", "args": ["add", "my # clip.mp4"], "id": 7}"#)
    // Then the path is taken whole
    #expect(parsed.line == .command(.queue(.add("my # clip.mp4"))))
    #expect(parser.parseInput(#"{"command": "goto", "args": [2]}"#).line == .command(.goto(2)))
  }

  @Test func expectReadsTheQueuesFields() {
    #expect(
      parser.parse("expect entry == 2")
        == .command(.expect(Expectation(field: .entry, op: .equal, expected: .value(.number(2))))))
    #expect(
      parser.parse("expect queue.count == 3")
        == .command(.expect(Expectation(field: .queueCount, op: .equal, expected: .value(.number(3))))))
  }

  @Test func theEntryEventAndTheQueueListingAreOneLineAndIndentedLines() {
    let naming = EventFormatter.Naming.of(.primary, sharesSession: false)
    // Given an entry that started by itself
    let entry = EventFormatter.model(
      .entry(EntryStarted(index: 2, count: 3, id: 5, path: "my clip.mp4")), origin: nil, naming: naming)
    // Then its line names its number, the count, its id and path
    #expect(entry?.text == #"entry index=2 count=3 entry_id=5 path="my clip.mp4""#)
    // Given the queue as a command left it
    let listing = EventFormatter.model(
      .queue(
        QueueListing(entries: [.init(id: 1, path: "a.mp4", title: "The A"), .init(id: 3, path: "b.mp4")], current: 2)),
      origin: CommandOrigin(id: 4, sender: nil), naming: naming)
    // Then the header counts, and the current entry is marked
    #expect(listing?.text == "queue #4 count=2 current=2\n  1 id=1 path=a.mp4 title=\"The A\"\n> 2 id=3 path=b.mp4")
    #expect(listing?.fields.map(\.key) == ["count", "current", "ids", "paths", "titles"])
  }

  @Test func statusTellsTheEntryOnlyWhenThereIsAList() {
    let naming = EventFormatter.Naming.of(.primary, sharesSession: false)
    var status = PlaybackStatus(
      state: .playing, position: .zero, duration: nil, rate: 1, framesDecoded: 0, decodeErrors: 0)
    let single = EventFormatter.model(.status(status), origin: nil, naming: naming)
    #expect(single?.text.contains("entry") == false)
    status.entry = QueuePosition(index: 2, count: 3)
    let listed = EventFormatter.model(.status(status), origin: nil, naming: naming)
    #expect(listed?.text.hasSuffix("entry=2 entries=3") == true)
  }

  @Test func theStatusLineNamesTheEntryInItsLongerForms() {
    let entry = StatusLineText.entry(EntryStarted(index: 2, count: 3, id: 2, path: "/media/ep2.mp4"))
    #expect(entry == "2/3 ep2.mp4")
    let forms = StatusLineText.forms(state: .playing, position: .zero, duration: nil, entry: entry)
    #expect(forms.first?.hasSuffix("  2/3 ep2.mp4") == true)
    #expect(forms.last?.contains("2/3") == false)
  }
}

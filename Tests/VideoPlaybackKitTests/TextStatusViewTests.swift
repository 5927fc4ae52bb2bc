import Foundation
import Testing
import VPKTestSupport

@testable import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts calls of an `onClosed` callback.
@MainActor
final class ClosedCounter {
  var count = 0
  var callback: @MainActor () -> Void { { self.count += 1 } }
}

private let clear = "\r\u{1B}[2K"
private let red = "\u{1B}[31m"
private let bold = "\u{1B}[1m"
private let reset = "\u{1B}[0m"

/// The last line as the view draws it: with autowrap off.
private func drawn(_ line: String) -> String { "\u{1B}[?7l" + line + "\u{1B}[?7h" }

private func event(
  _ text: String, _ name: String = "state", severity: EventViewModel.Severity = .info
) -> EventViewModel {
  EventViewModel(event: name, commandID: nil, fields: [], text: text, severity: severity)
}

private func status(_ text: String) -> StatusLineViewModel { StatusLineViewModel(text: text) }

@MainActor
@Suite("Text status view")
struct TextStatusViewTests {
  @Test func notATerminalWritesOneLinePerEvent() {
    // Given a view on a pipe
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: false, useColor: false, onClosed: {})
    // When events and status lines arrive, and the session finishes
    view.displayStatusLine(status("… loading clip.mp4"))
    view.displayEvent(event("ready path=clip.mp4", "ready"))
    view.displayStatusLine(status("▶ 00:00:00.000 / 00:01:00.000"))
    view.displayEvent(event("error #2 code=bad_argument message=x", "error", severity: .error))
    view.displayFinish()
    // Then one line per event, nothing for status lines, and nothing at the end
    #expect(output.writes == ["ready path=clip.mp4\n", "error #2 code=bad_argument message=x\n"])
  }

  @Test func transientEventsAreLinesOnAPipeButOnlyTheStatusLineOnATerminal() {
    // Given a progress event, which is transient
    var progress = event("progress position=1.000", "progress")
    progress.isTransient = true
    // When a pipe view and a terminal view show it
    let pipe = CapturedTextOutput()
    TextStatusView(output: pipe, isTerminal: false, useColor: false, onClosed: {}).displayEvent(progress)
    let terminal = CapturedTextOutput()
    TextStatusView(output: terminal, isTerminal: true, useColor: false, onClosed: {}).displayEvent(progress)
    // Then the pipe gets a line and the terminal nothing (its status line is redrawn instead)
    #expect(pipe.writes == ["progress position=1.000\n"])
    #expect(terminal.writes.isEmpty)
  }

  @Test func typedInputFollowsTheStatusLineAndSubmittedCommandsStayAbove() {
    // Given a terminal view showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    view.displayStatusLine(status("▶ 1"))
    // When a command is typed, the status line moves on, then the command is submitted
    view.displayTypedInput(.editing(before: "scr", after: ""))
    view.displayStatusLine(status("▶ 2"))
    view.displayTypedInput(.submitted("scrub 5"))
    view.displayEvent(event("seeked #1", "seeked"))
    // Then the typed text survives the redraw and the command is kept on screen above
    #expect(
      output.writes == [
        clear + drawn("▶ 1"), clear + drawn("▶ 1  › scr"), clear + drawn("▶ 2  › scr"),
        clear + "› scrub 5\n" + drawn("▶ 2  › "), clear + "seeked #1\n" + drawn("▶ 2  › "),
      ])
  }

  @Test func typedInputIsIgnoredOffATerminal() {
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: false, useColor: false, onClosed: {})
    view.displayTypedInput(.submitted("status"))
    #expect(output.writes.isEmpty)
  }

  @Test func notATerminalNeverColours() {
    // Given a view on a pipe asked for colour
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: false, useColor: true, onClosed: {})
    // When an error and a notice arrive
    view.displayEvent(event("error code=x message=y", "error", severity: .error))
    view.displayEvent(event("ended position=1.000", "ended", severity: .notice))
    // Then no escape sequence is written
    #expect(output.text == "error code=x message=y\nended position=1.000\n")
  }

  @Test func multiLineHelpIsWrittenWhole() {
    // Given a view on a pipe
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: false, useColor: false, onClosed: {})
    // When a multi-line event arrives
    view.displayEvent(event("help #1\n  play    start", "help"))
    // Then it is written as it is, ending in a newline
    #expect(output.text == "help #1\n  play    start\n")
  }

  @Test func terminalRedrawsTheStatusLineInPlace() {
    // Given a view on a terminal without colour
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    // When status lines arrive
    view.displayStatusLine(status("… loading clip.mp4"))
    view.displayStatusLine(status("⏸ 00:00:00.000 / 00:01:00.000"))
    // Then each clears the line and draws itself, with no newline
    #expect(
      output.writes == [clear + drawn("… loading clip.mp4"), clear + drawn("⏸ 00:00:00.000 / 00:01:00.000")])
  }

  @Test func terminalSkipsAnUnchangedStatusLine() {
    // Given a view on a terminal showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    view.displayStatusLine(status("▶ 00:00:01.000 / --:--:--.---"))
    // When the same line arrives again
    view.displayStatusLine(status("▶ 00:00:01.000 / --:--:--.---"))
    // Then it is not drawn twice
    #expect(output.writes.count == 1)
  }

  @Test func terminalPrintsEventsAboveTheStatusLine() {
    // Given a view on a terminal showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    view.displayStatusLine(status("▶ 00:00:01.000 / 00:01:00.000"))
    // When an event arrives
    view.displayEvent(event("state state=playing position=1.000"))
    // Then the status line is replaced by the event and redrawn below it, in one write
    #expect(
      output.writes.last == clear + "state state=playing position=1.000\n"
        + drawn("▶ 00:00:01.000 / 00:01:00.000"))
  }

  @Test func terminalEventBeforeAnyStatusLine() {
    // Given a view on a terminal with no status line yet
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    // When an event arrives
    view.displayEvent(event("help #1", "help"))
    // Then it is printed on a cleared line, with nothing after it
    #expect(output.writes == [clear + "help #1\n"])
  }

  @Test func terminalColours() {
    // Given a view on a terminal with colour, showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: true, onClosed: {})
    view.displayStatusLine(status("▶ s"))
    // When an info event, an error and a notice arrive
    view.displayEvent(event("progress position=1.000", "progress"))
    view.displayEvent(event("error code=x message=y", "error", severity: .error))
    view.displayEvent(event("ended position=2.000", "ended", severity: .notice))
    // Then errors are red, notices bold, the rest and the status line plain
    #expect(
      output.writes == [
        clear + drawn("▶ s"),
        clear + "progress position=1.000\n" + drawn("▶ s"),
        clear + red + "error code=x message=y" + reset + "\n" + drawn("▶ s"),
        clear + bold + "ended position=2.000" + reset + "\n" + drawn("▶ s"),
      ])
  }

  @Test func terminalWithoutColourWritesNoColour() {
    // Given a view on a terminal without colour
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    // When an error and a notice arrive and the session finishes
    view.displayEvent(event("error code=x message=y", "error", severity: .error))
    view.displayEvent(event("shutdown reason=quit", "shutdown", severity: .notice))
    view.displayStatusLine(status("■ end"))
    view.displayFinish()
    // Then no colour sequence appears
    #expect(!output.text.contains("\u{1B}[3"))
    #expect(!output.text.contains("\u{1B}[1m"))
    #expect(!output.text.contains(reset))
  }

  @Test func finishLeavesTheTerminalOnACleanLine() {
    // Given a view on a terminal with colour, showing a status line
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: true, onClosed: {})
    view.displayStatusLine(status("■ 00:01:00.000 / 00:01:00.000"))
    // When the session finishes
    view.displayFinish()
    // Then the status line is cleared (the last event says where playback ended) and colours reset
    #expect(output.writes.last == clear + reset)
  }

  @Test func finishWithoutColourOrStatusLine() {
    // Given views on a terminal: one without colour showing a status line, one with colour and none
    let plain = CapturedTextOutput()
    let plainView = TextStatusView(output: plain, isTerminal: true, useColor: false, onClosed: {})
    plainView.displayStatusLine(status("⏸ x"))
    let coloured = CapturedTextOutput()
    let colouredView = TextStatusView(
      output: coloured, isTerminal: true, useColor: true, onClosed: {})
    // When the sessions finish
    plainView.displayFinish()
    colouredView.displayFinish()
    // Then the first clears its status line, the second clears the line and resets colours
    #expect(plain.writes == [clear + drawn("⏸ x"), clear])
    #expect(coloured.writes == [clear + reset])
  }

  @Test func eventsAfterFinishDoNotRedrawTheOldStatusLine() {
    // Given a finished view on a terminal
    let output = CapturedTextOutput()
    let view = TextStatusView(output: output, isTerminal: true, useColor: false, onClosed: {})
    view.displayStatusLine(status("⏸ x"))
    view.displayFinish()
    // When a late event arrives
    view.displayEvent(event("late"))
    // Then it is printed alone
    #expect(output.writes.last == clear + "late\n")
  }

  @Test func onClosedIsCalledOnceAndLaterWritesAreSkipped() {
    // Given a view whose output fails after one write
    let output = CapturedTextOutput(failAfter: 1)
    let closed = ClosedCounter()
    let view = TextStatusView(
      output: output, isTerminal: false, useColor: false, onClosed: closed.callback)
    // When events keep arriving
    view.displayEvent(event("one"))
    view.displayEvent(event("two"))
    view.displayEvent(event("three"))
    view.displayFinish()
    // Then onClosed is called once, and nothing is tried after the failed write
    #expect(closed.count == 1)
    #expect(output.writes == ["one\n"])
    #expect(output.attempts == 2)
  }

  @Test func onClosedOnceOnATerminal() {
    // Given a terminal view whose output fails at once
    let output = CapturedTextOutput(failAfter: 0)
    let closed = ClosedCounter()
    let view = TextStatusView(
      output: output, isTerminal: true, useColor: true, onClosed: closed.callback)
    // When status lines, events and the finish arrive
    view.displayStatusLine(status("a"))
    view.displayStatusLine(status("b"))
    view.displayEvent(event("c"))
    view.displayFinish()
    // Then onClosed is called once
    #expect(closed.count == 1)
    #expect(output.attempts == 1)
  }

  @Test(
    arguments: [
      (false, [:], false, false),
      (true, [:], true, true),
      (true, ["NO_COLOR": "1"], true, false),
      (true, ["NO_COLOR": ""], true, true),
      (true, ["TERM": "xterm-256color"], true, true),
      (true, ["TERM": "dumb"], false, false),
      (false, ["TERM": "xterm"], false, false),
    ] as [(Bool, [String: String], Bool, Bool)])
  func terminalTraits(isTTY: Bool, environment: [String: String], isTerminal: Bool, useColor: Bool) {
    // Given whether stdout is a terminal, and the environment
    // When the view's traits are decided
    let traits = TextStatusView.terminalTraits(isTTY: isTTY, environment: environment)
    // Then in-place redraw only on a real terminal; colour only there, and never with NO_COLOR set
    #expect(traits.isTerminal == isTerminal)
    #expect(traits.useColor == useColor)
  }
}

@MainActor
@Suite("Text status view: file descriptor output", .serialized)
struct TextStatusViewOutputTests {
  init() {
    // A closed pipe must fail the write, not kill the test process.
    signal(SIGPIPE, SIG_IGN)
  }

  private func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    return (fds[0], fds[1])
  }

  private func readAll(_ fd: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count > 0 {
        result += buffer[..<count]
      } else if count < 0, errno == EINTR {
        continue
      } else {
        break
      }
    }
    return result
  }

  @Test func writesWholeStrings() {
    // Given an output on a pipe
    let fds = makePipe()
    let output = FileDescriptorOutput(fileDescriptor: fds.write)
    // When text is written and the pipe closed
    #expect(output.write("ready ☃\n"))
    #expect(output.write(""))
    close(fds.write)
    // Then the reader gets its UTF-8 bytes
    #expect(String(decoding: readAll(fds.read), as: UTF8.self) == "ready ☃\n")
    close(fds.read)
  }

  @Test func writeFailsOnceTheReaderIsGone() {
    // Given an output on a pipe whose reader has closed
    let fds = makePipe()
    close(fds.read)
    let output = FileDescriptorOutput(fileDescriptor: fds.write)
    // When it writes twice
    let first = output.write("x\n")
    let second = output.write("y\n")
    // Then both fail and the output stays closed
    #expect(!first)
    #expect(!second)
    #expect(output.isClosed)
    close(fds.write)
  }

  @Test func largeWritesToANonBlockingPipeArriveWhole() {
    // Given a non-blocking pipe, far smaller than the text, drained by another thread
    let fds = makePipe()
    _ = fcntl(fds.write, F_SETFL, fcntl(fds.write, F_GETFL) | O_NONBLOCK)
    let received = LockedBytes()
    let readFD = fds.read
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(readFD, &buffer, buffer.count)
        if count > 0 {
          received.append(buffer[..<count])
        } else if count < 0, errno == EINTR {
          continue
        } else {
          break
        }
      }
      received.finish()
    }
    reader.start()
    let text = String(repeating: "progress position=1.000 duration=60.000\n", count: 20_000)
    // When the whole text is written at once
    let output = FileDescriptorOutput(fileDescriptor: fds.write)
    let written = output.write(text)
    close(fds.write)
    // Then every byte arrives, in order
    #expect(written)
    #expect(received.waitForFinish() == Array(text.utf8))
    close(fds.read)
  }
}

/// Bytes gathered by a reader thread.
final class LockedBytes: @unchecked Sendable {
  private let condition = NSCondition()
  private var bytes: [UInt8] = []
  private var finished = false

  func append(_ more: ArraySlice<UInt8>) {
    condition.lock()
    bytes += more
    condition.unlock()
  }

  func finish() {
    condition.lock()
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  func waitForFinish() -> [UInt8] {
    condition.lock()
    defer { condition.unlock() }
    while !finished { condition.wait() }
    return bytes
  }
}

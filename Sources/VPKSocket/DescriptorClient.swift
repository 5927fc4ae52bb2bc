// DescriptorClient: one client of a socket that speaks only mpv's dialect (`--input-ipc-server`), served by a thread
// of its own with poll(2), read(2) and send(2), as mpv serves its clients. mpv's clients time a seek's reply, and
// they send it right after a seek has been decoded, with every cache cold: NIO's event loop costs more there than
// mpv's whole reply (docs/benchmarks.md). This thread touches far less: woken by the read, it answers a seek with
// the client's quick answer, writes the reply, yields the processor to the client the reply woke, and only then hands
// the line to the main actor, whose seek takes the cores.
//
// It reports what ClientChannelHandler reports for an NIO client (`ClientChannelEvent`), under the same bounds:
// - in: at most `maxLinesInFlight` lines wait for the main actor; past that the thread stops reading the socket;
// - out: writes never block. A write goes straight to the socket when nothing waits before it, else it waits in
//   this client's buffer for the thread to write once the socket takes more; past `writeBufferBytes` waiting, the
//   client is reported as overflowed (it is then disconnected as slow) and what is written for it is dropped;
// - once the client has ended its input, events written for it are dropped (mpv serves a client only until then)
//   while replies still go out.
//
// Safe from any thread: the state the thread and the writers share is behind one lock.

import CVPKThreadName
import Foundation
import VideoPlaybackKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

final class DescriptorClient: @unchecked Sendable {
  private let descriptor: Int32
  /// A pipe that wakes the thread from poll(2) when a writer left bytes waiting, a line was handled or the client
  /// is finishing: the thread polls `wakeDescriptor`, `wake()` writes to `wakeWriter`.
  private let wakeDescriptor: Int32
  private let wakeWriter: Int32
  private let report: @Sendable (ClientChannelEvent) -> Void
  private let maxLineBytes: Int
  private let writeBufferBytes: Int

  private let lock = NSLock()
  /// Bytes written but not yet taken by the socket, from `waitingStart` on.
  private var waiting: [UInt8] = []
  private var waitingStart = 0
  private var linesInFlight = 0
  private var inputEnded = false
  private var overflowed = false
  /// Nothing more is written; the thread closes the connection once `waiting` is written (or at `finishDeadline`).
  private var finishing = false
  private var finishDeadline: DispatchTime?
  /// The connection failed or is closed: writes are refused.
  private var broken = false
  private var closed = false
  private var whenClosed: [@Sendable () -> Void] = []
  private var quickAnswer: (@Sendable (String) -> QuickAnswer?)?

  /// Takes `descriptor`, a connected stream socket; `start()` starts its thread.
  init(
    descriptor: Int32, maxLineBytes: Int, writeBufferBytes: Int,
    report: @escaping @Sendable (ClientChannelEvent) -> Void
  ) {
    self.descriptor = descriptor
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    wakeDescriptor = ends[0]
    wakeWriter = ends[1]
    // Without a wake pipe (out of descriptors) nothing could wake the thread: the client is closed as it starts.
    broken = ends[0] < 0
    self.maxLineBytes = maxLineBytes
    self.writeBufferBytes = writeBufferBytes
    self.report = report
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
  }

  /// Reports the client connected, then serves it on a thread of its own until it leaves or is closed.
  func start() {
    report(
      .connected(
        output: { [self] in DescriptorTextOutput(client: self) },
        lineHandled: { [self] in lineHandled() },
        answerQuickly: { [self] answer in lock.withLock { quickAnswer = answer } }))
    // Named for the kernel too (`top -H`, /proc/PID/task/*/comm), within its 15 bytes.
    Thread { [self] in
      vpk_name_thread("vpk mpv client")
      serve()
    }.start()
  }

  // MARK: - Writing (any thread)

  /// Writes `text` after everything written before; an event (`isEvent`) is dropped once the client has ended its
  /// input. False once the connection is closed, failed or finishing.
  func write(_ text: String, isEvent: Bool) -> Bool {
    lock.withLock {
      guard !broken, !finishing else { return false }
      guard !overflowed, !(isEvent && inputEnded) else { return true }
      var text = text
      let hadWaiting = waitingStart < waiting.count
      text.withUTF8 { bytes in
        var sent = 0
        if !hadWaiting {
          sent = sendNow(bytes)
          guard sent >= 0 else { return }
        }
        waiting.append(contentsOf: bytes[sent...])
      }
      if broken || (!hadWaiting && waitingStart < waiting.count) { wake() }
      if waiting.count - waitingStart > writeBufferBytes {
        overflowed = true
        report(.overflowed)
      }
      return true
    }
  }

  /// Nothing more is written; the connection closes once what was written has gone out, or after `grace`.
  func finish(grace: DispatchTimeInterval) {
    lock.withLock {
      guard !finishing else { return }
      finishing = true
      finishDeadline = .now() + grace
      wake()
    }
  }

  /// Calls `body` once the connection has closed (at once if it has).
  func whenClosed(_ body: @escaping @Sendable () -> Void) {
    let now = lock.withLock { () -> Bool in
      if closed { return true }
      whenClosed.append(body)
      return false
    }
    if now { body() }
  }

  /// send(2) without blocking, under the lock: how many bytes the socket took, or -1 when the connection failed
  /// (then `broken`).
  private func sendNow(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var sent = 0
    while sent < bytes.count {
      let result = send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      if result >= 0 {
        sent += result
      } else if errno == EINTR {
        continue
      } else if errno == EAGAIN || errno == EWOULDBLOCK {
        break
      } else {
        broken = true
        return -1
      }
    }
    return sent
  }

  /// Under the lock: writes what waits, as far as the socket takes it.
  private func writeWaiting() {
    guard waitingStart < waiting.count, !broken else { return }
    let sent = waiting.withUnsafeBufferPointer { sendNow(UnsafeBufferPointer(rebasing: $0[waitingStart...])) }
    guard sent >= 0 else { return }
    waitingStart += sent
    if waitingStart == waiting.count {
      waiting.removeAll(keepingCapacity: waiting.capacity <= 65_536)
      waitingStart = 0
    }
  }

  /// Under the lock. Never once closed: the descriptor's number may already be another connection's.
  private func wake() {
    guard !closed else { return }
    var one: UInt8 = 1
    _ = Glibc.write(wakeWriter, &one, 1)
  }

  private func lineHandled() {
    lock.withLock {
      linesInFlight -= 1
      if linesInFlight == ClientChannelHandler.maxLinesInFlight - 1 { wake() }
    }
  }

  // MARK: - The client's thread

  private func serve() {
    var splitter = LineSplitter(maxLineBytes: maxLineBytes)
    var buffer = [UInt8](repeating: 0, count: 65_536)
    var reading = true
    while true {
      // What to wait for, and whether to stop.
      let (wantWrite, timeout, stop) = lock.withLock { () -> (Bool, Int32, Bool) in
        let pending = waitingStart < waiting.count
        if broken || (finishing && (!pending || DispatchTime.now() >= finishDeadline!)) { return (false, 0, true) }
        var timeout: Int32 = -1
        if finishing, let deadline = finishDeadline {
          let left = Int64(deadline.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)
          timeout = Int32(clamping: max(1, left / 1_000_000))
        }
        return (pending, timeout, false)
      }
      if stop { break }
      let wantRead = reading && lock.withLock { linesInFlight < ClientChannelHandler.maxLinesInFlight }
      // A socket polled for nothing would still report a hang-up, at once and again: while reading is held back and
      // nothing waits to be written, it is left out (poll(2) skips a negative descriptor) until a line is handled.
      let polled = wantRead || wantWrite || !reading ? descriptor : -1
      var polls = [
        pollfd(
          fd: polled, events: Int16((wantRead ? POLLIN : 0) | (wantWrite ? POLLOUT : 0)), revents: 0),
        pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&polls, 2, timeout)
      if ready < 0 && errno != EINTR { break }
      guard ready > 0 else { continue }
      if polls[1].revents != 0 {
        var drained = [UInt8](repeating: 0, count: 64)
        _ = Glibc.read(wakeDescriptor, &drained, drained.count)
      }
      let events = Int32(polls[0].revents)
      if events & Int32(POLLOUT) != 0 { lock.withLock { writeWaiting() } }
      if wantRead && events & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
        if count > 0 {
          let lines = buffer.withUnsafeBufferPointer { splitter.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
          pass(lines)
        } else if count == 0 {
          // The client ended its input: its last line without `\n` counts, as on standard input.
          pass(splitter.finish())
          reading = false
          lock.withLock { inputEnded = true }
          report(.inputEnded)
        } else if errno != EINTR && errno != EAGAIN {
          break
        }
      } else if events & Int32(POLLERR | POLLNVAL) != 0 || (!reading && events & Int32(POLLHUP) != 0) {
        // Gone both ways: nothing it is sent can reach it.
        break
      }
    }
    close()
  }

  /// Answers what can be answered here, and hands the rest of one read's lines to the main actor, in order.
  private func pass(_ lines: [InputLine]) {
    var answeredAndPassedOn = false
    var passing: [InputLine] = []
    for line in lines {
      let answer = lock.withLock { () -> (@Sendable (String) -> QuickAnswer?)? in
        // Only with no earlier line of the client's waiting for the main actor, so replies keep the requests'
        // order; not for a client past the write buffer's mark (its writes are dropped until it is disconnected).
        linesInFlight == 0 && passing.isEmpty && !overflowed ? quickAnswer : nil
      }
      if let answer, case .text(let text) = line, let quick = answer(text) {
        _ = write(quick.text, isEvent: false)
        // Its event goes out unless the client's input ends right behind the line (as with NIO's clients).
        if let event = quick.event, !inputEndsNext() { _ = write(event, isEvent: true) }
        guard quick.passesLineOn else { continue }
        answeredAndPassedOn = true
      }
      passing.append(line)
    }
    guard !passing.isEmpty else { return }
    // The client the reply woke waits on this processor: let it read the reply before the line's work starts.
    if answeredAndPassedOn { sched_yield() }
    lock.withLock { linesInFlight += passing.count }
    report(.readStarted)
    for line in passing { report(.line(line)) }
    report(.readCompleted)
  }

  /// Whether all the client sent has been read and it ended its input: the next read would return nothing.
  private func inputEndsNext() -> Bool {
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
  }

  private func close() {
    let callbacks = lock.withLock { () -> [@Sendable () -> Void] in
      broken = true
      closed = true
      waiting = []
      defer { whenClosed = [] }
      return whenClosed
    }
    Glibc.close(descriptor)
    if wakeDescriptor >= 0 {
      Glibc.close(wakeDescriptor)
      Glibc.close(wakeWriter)
    }
    report(.disconnected)
    for callback in callbacks { callback() }
  }
}

/// A DescriptorClient as the main actor's view writes to it.
@MainActor
final class DescriptorTextOutput: ClientOutput {
  private let client: DescriptorClient

  init(client: DescriptorClient) {
    self.client = client
  }

  func write(_ text: String) -> Bool {
    client.write(text, isEvent: false)
  }

  func writeEvent(_ text: String) -> Bool {
    client.write(text, isEvent: true)
  }

  func finish() {
    client.finish(grace: .seconds(ClientOutputGrace.seconds))
  }

  func closed() async {
    await withCheckedContinuation { continuation in
      client.whenClosed { continuation.resume() }
    }
  }
}

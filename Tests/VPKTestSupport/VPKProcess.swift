// Runs the built `vpk` executable as a user or a program would: arguments, stdin, stdout, stderr, signals, exit.
import Foundation

/// What `vpk` gets on its standard input.
public enum VPKInput: Sendable {
  /// End of input at once (as `vpk … </dev/null`).
  case closed
  /// This text, then end of input.
  case text(String)
  /// These bytes, then end of input.
  case data(Data)
  /// Kept open: write to it with `VPKSession.send(_:)` and close it with `VPKSession.closeInput()`.
  case open
}

/// How a `vpk` run ended, and everything it printed.
public struct VPKResult: Sendable {
  /// The exit status, or the signal's number when `terminatedBySignal`.
  public var status: Int32
  /// True when vpk died by a signal rather than exiting.
  public var terminatedBySignal: Bool
  /// Standard output as text.
  public var stdout: String
  /// Standard output split into lines, without their line ends (a last line with no newline is included).
  public var stdoutLines: [String]
  /// Standard error as text.
  public var stderr: String
  /// Wall time from start to exit, in seconds.
  public var seconds: Double

  /// The signal that ended vpk, if one did.
  public var signal: Int32? { terminatedBySignal ? status : nil }
  /// True when vpk exited by itself with status 0.
  public var succeeded: Bool { !terminatedBySignal && status == 0 }
}

/// A failure running vpk: not found, did not exit in time, a line that never came. The description carries what vpk
/// printed so far, so a failed test shows why.
public struct VPKProcessError: Error, CustomStringConvertible, Sendable {
  public var description: String
}

public enum VPKProcess {
  /// The `vpk` executable: `$VPK_EXECUTABLE` if set; else `vpk` beside the running test binary (the build folder the
  /// tests were built in, whatever the scratch path or sanitizer); else `<package root>/.build/debug/vpk`.
  public static func executableURL() throws -> URL {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment["VPK_EXECUTABLE"], !path.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: path) else {
        throw VPKProcessError(description: "VPK_EXECUTABLE=\(path) is not an executable file")
      }
      return URL(fileURLWithPath: path)
    }
    var candidates: [URL] = []
    if let testBinary = Bundle.main.executableURL?.resolvingSymlinksInPath() {
      // Linux: …/debug/VideoPlaybackKitPackageTests.xctest; macOS: …/debug/X.xctest/Contents/MacOS/X.
      var folder = testBinary.deletingLastPathComponent()
      for _ in 0..<4 {
        candidates.append(folder.appendingPathComponent("vpk"))
        folder = folder.deletingLastPathComponent()
      }
    }
    let fallback = TestMedia.packageRoot.appendingPathComponent(".build/debug/vpk")
    candidates.append(fallback)
    if let found = candidates.first(where: { isExecutableFile($0) }) { return found }
    throw VPKProcessError(description: "build vpk first: swift build (looked for \(fallback.path))")
  }

  private static func isExecutableFile(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
      && FileManager.default.isExecutableFile(atPath: url.path)
  }

  /// Runs `vpk arguments…` with this input to its end. Kills it and throws "vpk did not exit within N s" after
  /// `timeout` seconds. `environment` entries are added to (and override) this process's environment.
  public static func run(
    _ arguments: [String], input: VPKInput = .closed, environment: [String: String] = [:], timeout: Double = 120
  ) throws -> VPKResult {
    let session = try VPKSession(arguments, input: input, environment: environment)
    return try session.waitForExit(timeout: timeout)
  }

  /// Runs `name` (a program built beside vpk, such as VPKLeakCheck) with `arguments` to its end and returns how it
  /// ended. The wait happens on a thread of its own: a caller on the main actor or the cooperative pool suspends
  /// instead of blocking it, so the tests running beside this one (which need those threads) go on. Kills it and
  /// throws after `timeout` seconds (a hang guard).
  public static func runBeside(
    _ name: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 900
  ) async throws -> VPKResult {
    let program = try executableURL().deletingLastPathComponent().appendingPathComponent(name)
    guard isExecutableFile(program) else {
      throw VPKProcessError(description: "build it first: swift build (looked for \(program.path))")
    }
    return try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(
          with: Result {
            try VPKSession(arguments, input: .closed, environment: environment, executable: program)
              .waitForExit(timeout: timeout)
          })
      }
    }
  }

  /// Starts `vpk arguments…`, waits for a stdout line containing `line`, sends `signal` (SIGINT, SIGTERM …), and
  /// returns how vpk ended. Throws if the line does not come within `timeout` seconds, or vpk does not exit within
  /// `timeout` seconds after the signal. The input stays open (as a terminal would) unless given otherwise.
  public static func run(
    _ arguments: [String], input: VPKInput = .open, environment: [String: String] = [:],
    signal: Int32, afterLine line: String, timeout: Double = 120
  ) throws -> VPKResult {
    let session = try VPKSession(arguments, input: input, environment: environment)
    do {
      _ = try session.waitForLine(containing: line, timeout: timeout)
    } catch {
      session.kill()
      throw error
    }
    session.send(signal: signal)
    return try session.waitForExit(timeout: timeout)
  }
}

/// A running `vpk`: write to its stdin over time, watch its stdout line by line, signal it, collect the result.
/// Every method blocks the calling thread only; reading happens on threads of its own, so the cooperative pool is
/// never needed and a chatty vpk never blocks on a full pipe.
public final class VPKSession: @unchecked Sendable {
  /// The process id, for whatever else a test needs to do to it.
  public var processIdentifier: Int32 { process.processIdentifier }

  private let process = Process()
  private let input: Pipe
  /// Starts vpk and then does every write to its stdin, in order.
  private let inputThread = InputThread()
  private let output: PipeCollector
  private let errors: PipeCollector
  private let started = Date()
  private let arguments: [String]
  /// Guards `termination`; signalled whenever stdout grows or ends, or vpk exits.
  private let state: NSCondition
  /// How vpk ended, once it has: its status and whether that is a signal's number.
  private var termination: (status: Int32, bySignal: Bool)?

  /// Starts `vpk arguments…`. `environment` entries are added to (and override) this process's environment. With
  /// `readsOutput` false, nothing reads vpk's stdout (a reader that stalls: vpk blocks once the pipe is full) until
  /// `startReadingOutput()`. With a `launcher` (a program and its arguments), that program is started with vpk's path
  /// and `arguments` after its own, and is expected to exec vpk (to hand it descriptors, as systemd does). With an
  /// `executable`, that program runs instead of vpk (a driver built beside it, such as VPKLeakCheck).
  public init(
    _ arguments: [String], input: VPKInput = .open, environment: [String: String] = [:], readsOutput: Bool = true,
    launcher: [String] = [], executable: URL? = nil
  ) throws {
    let state = NSCondition()
    self.state = state
    self.arguments = arguments
    self.input = Pipe()
    self.output = PipeCollector(onChunk: { _ in state.withLock { state.broadcast() } })
    self.errors = PipeCollector()
    let vpk = try executable ?? VPKProcess.executableURL()
    if let program = launcher.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = launcher.dropFirst() + [vpk.path] + arguments
    } else {
      process.executableURL = vpk
      process.arguments = arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = self.input
    process.standardOutput = output.pipe
    process.standardError = errors.pipe
    process.terminationHandler = { [weak self] process in
      let ended = (status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal)
      guard let self else { return }
      state.withLock {
        termination = ended
        state.broadcast()
      }
    }
    let process = self.process
    let launch = inputThread.sync { () -> Result<Void, any Error> in
      defer { blockSIGPIPEOnThisThread() }
      return Result { try process.run() }
    }
    if case .failure(let error) = launch ?? .failure(VPKProcessError(description: "the input thread stopped")) {
      inputThread.stop()
      throw VPKProcessError(description: "cannot start vpk: \(error)")
    }
    try? self.input.fileHandleForReading.close()
    if readsOutput { output.start() }
    errors.start()

    switch input {
    case .open: break
    case .closed: closeInput()
    case .text(let text): writeThenClose(Data(text.utf8))
    case .data(let data): writeThenClose(data)
    }
  }

  deinit {
    closeInput()
    kill()
    // Foundation's Process keeps its handler (and what the handler holds) for as long as it lives.
    process.terminationHandler = nil
  }

  // MARK: Input

  /// Writes `line` and a newline to vpk's stdin. Returns false if stdin is closed or vpk stopped reading.
  @discardableResult
  public func send(_ line: String) -> Bool {
    write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
  }

  /// Writes raw bytes to vpk's stdin. Returns false if stdin is closed or vpk stopped reading.
  @discardableResult
  public func write(_ data: Data) -> Bool {
    let handle = input.fileHandleForWriting
    return inputThread.sync { writeAll(handle.fileDescriptor, data) } ?? false
  }

  /// Closes vpk's stdin (end of input) once earlier writes are done. Later writes return false.
  public func closeInput() {
    let handle = input.fileHandleForWriting
    inputThread.async { try? handle.close() }
    inputThread.stop()
  }

  /// Writes without waiting, so a vpk that does not read yet cannot block the test on a full pipe.
  private func writeThenClose(_ data: Data) {
    let handle = input.fileHandleForWriting
    inputThread.async { _ = writeAll(handle.fileDescriptor, data) }
    closeInput()
  }

  // MARK: Output

  /// Starts reading stdout, for a session started with `readsOutput: false`. Call once.
  public func startReadingOutput() { output.start() }

  /// Standard output so far, split into complete lines.
  public var stdoutLines: [String] { Self.lines(output.current, includingPartial: false) }

  /// Standard error so far.
  public var stderr: String { String(decoding: errors.current, as: UTF8.self) }

  /// How many stdout lines the waits have consumed: `waitForLine` looks only at the lines from this index on, and
  /// moves it past the line it returns. A line once matched is never matched again, so a second wait for the same
  /// event waits for a new one, and waits in a row find their lines in the order vpk printed them.
  public var cursor: Int { state.withLock { consumed } }
  private var consumed = 0

  /// Waits for a stdout line after the cursor (see `cursor`) for which `matches` is true, moves the cursor past it
  /// and returns it. Throws if none comes within `timeout` seconds or vpk's stdout ends first.
  public func waitForLine(timeout: Double = 120, where matches: (String) -> Bool) throws -> String {
    let deadline = Date(timeIntervalSinceNow: timeout)
    return try state.withLock {
      func consume() -> String? {
        let all = stdoutLines
        guard consumed < all.count, let index = all[consumed...].firstIndex(where: matches) else { return nil }
        consumed = index + 1
        return all[index]
      }
      while true {
        if let line = consume() { return line }
        if output.hasEnded { throw failure("vpk's stdout ended before the expected line (after line \(consumed))") }
        if !state.wait(until: deadline) {
          if let line = consume() { return line }
          throw failure("no expected stdout line from vpk after line \(consumed) within \(Self.format(timeout)) s")
        }
      }
    }
  }

  /// Waits for a stdout line containing each of `texts`, all after the cursor, in whatever order vpk prints them
  /// (events whose order is not promised, such as `ready` and a reply answered at once); moves the cursor past the
  /// last of them.
  public func waitForLines(containingEach texts: [String], timeout: Double = 120) throws {
    let start = cursor
    var end = start
    for text in texts {
      state.withLock { consumed = start }
      _ = try waitForLine(containing: text, timeout: timeout)
      end = max(end, cursor)
    }
    state.withLock { consumed = end }
  }

  /// Waits for a stdout line containing `text`; see `waitForLine(timeout:where:)`.
  @discardableResult
  public func waitForLine(containing text: String, timeout: Double = 120) throws -> String {
    do {
      return try waitForLine(timeout: timeout) { $0.contains(text) }
    } catch let error as VPKProcessError {
      throw VPKProcessError(description: "waiting for a line containing \"\(text)\": \(error.description)")
    }
  }

  // MARK: Signals and exit

  /// Sends a signal (SIGINT, SIGTERM, …) to vpk, unless it has exited.
  /// Waits until vpk has taken `signal` over (its handler is in place), read from `/proc/PID/status`; a signal sent
  /// before that would kill it with the default action. The timeout is a hang guard.
  public func waitUntilHandling(signal: Int32, timeout: Double = 120) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !hasExited && Date() < deadline {
      if isHandling(signal: signal) { return }
      Thread.sleep(forTimeInterval: 0.02)
    }
    throw VPKProcessError(description: "vpk did not take over signal \(signal) within \(timeout) s")
  }

  /// Whether vpk catches `signal` now (SigCgt in /proc/PID/status). vpk catches it first with a handler that holds
  /// it, and sends it again once libdispatch's signal source has taken it over, so a signal sent from then on is not
  /// lost.
  public func isHandling(signal: Int32) -> Bool {
    let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
    let caught =
      status.split(separator: "\n").first { $0.hasPrefix("SigCgt:") }
      .flatMap { UInt64($0.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
    return caught & (UInt64(1) << UInt64(signal - 1)) != 0
  }

  /// Waits until vpk has changed `signal`'s disposition from the default action in any way (ignored or caught), the
  /// earliest a signal could be sent without the default action ending vpk. The timeout is a hang guard.
  public func waitUntilNotDefault(signal: Int32, timeout: Double = 120) throws {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while !hasExited && Date() < deadline {
      let status = (try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8)) ?? ""
      let bit = UInt64(1) << UInt64(signal - 1)
      for name in ["SigIgn", "SigCgt"] {
        let mask =
          status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
          .flatMap { UInt64($0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) } ?? 0
        if mask & bit != 0 { return }
      }
      usleep(200)
    }
    throw VPKProcessError(description: "vpk did not change the disposition of signal \(signal) within \(timeout) s")
  }

  public func send(signal: Int32) {
    if !hasExited { sendSignal(signal, to: processIdentifier) }
  }

  /// Kills vpk and anything it started at once (SIGKILL to its process group, which `Process` makes for it). Foundation
  /// sees the exit only when every process holding vpk's descriptors is gone, hence the group.
  public func kill() {
    if !hasExited {
      sendSignal(SIGKILL, to: -processIdentifier)
      sendSignal(SIGKILL, to: processIdentifier)
    }
  }

  /// True once vpk has exited (or died).
  public var hasExited: Bool { state.withLock { termination != nil } }

  /// Waits for vpk to exit and its output to end, and returns the result. After `timeout` seconds it kills vpk and
  /// throws "vpk did not exit within N s" with what it printed.
  public func waitForExit(timeout: Double = 120) throws -> VPKResult {
    let deadline = Date(timeIntervalSinceNow: timeout)
    guard let ended = waitForTermination(until: deadline) else {
      kill()
      _ = waitForTermination(until: Date(timeIntervalSinceNow: 10))
      throw failure("vpk did not exit within \(Self.format(timeout)) s; killed it")
    }
    closeInput()
    // The pipes end when vpk exits, unless a child it started still holds them.
    let grace = max(deadline, Date(timeIntervalSinceNow: 5))
    let stdoutData = output.waitForEnd(until: grace)
    let stderrData = errors.waitForEnd(until: grace)
    let stdout = String(decoding: stdoutData, as: UTF8.self)
    return VPKResult(
      status: ended.status,
      terminatedBySignal: ended.bySignal,
      stdout: stdout,
      stdoutLines: Self.lines(stdoutData, includingPartial: true),
      stderr: String(decoding: stderrData, as: UTF8.self),
      seconds: Date().timeIntervalSince(started))
  }

  // MARK: Helpers

  private func waitForTermination(until deadline: Date) -> (status: Int32, bySignal: Bool)? {
    state.withLock {
      while termination == nil && state.wait(until: deadline) {}
      return termination
    }
  }

  private func failure(_ what: String) -> VPKProcessError {
    let stdout = String(decoding: output.current, as: UTF8.self)
    return VPKProcessError(
      description: """
        \(what)
        command: vpk \(arguments.joined(separator: " "))
        --- stdout ---
        \(stdout.suffix(4000))
        --- stderr ---
        \(stderr.suffix(4000))
        """)
  }

  private static func lines(_ data: Data, includingPartial: Bool) -> [String] {
    var text = String(decoding: data, as: UTF8.self)
    if !includingPartial, let lastNewline = text.lastIndex(of: "\n") {
      text = String(text[...lastNewline])
    } else if !includingPartial {
      return []
    }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    if lines.last == "" { lines.removeLast() }
    return lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
  }

  private static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}

/// The thread that starts one vpk and then writes its stdin, one job at a time in order.
///
/// vpk inherits the signal mask of the thread that starts it, and the threads tests run on (Swift's cooperative pool,
/// Dispatch) block SIGINT, SIGTERM and more: started from one of them, vpk would never see the signals a test sends.
/// This thread clears its mask before starting vpk. Afterwards it blocks SIGPIPE, so that writing to a vpk that has
/// gone fails with EPIPE instead of killing the test process (ignoring SIGPIPE process-wide would be inherited by vpk).
private final class InputThread: @unchecked Sendable {
  private let condition = NSCondition()
  private var jobs: [() -> Void] = []
  private var stopping = false

  init() {
    Thread { [self] in
      var none = sigset_t()
      sigemptyset(&none)
      pthread_sigmask(SIG_SETMASK, &none, nil)
      while let job = next() { job() }
    }.start()
  }

  /// Runs `job` on the thread and returns its result; nil once the thread is stopping.
  func sync<T>(_ job: @escaping () -> T) -> T? {
    let done = DispatchSemaphore(value: 0)
    var result: T?
    guard
      async({
        result = job()
        done.signal()
      })
    else { return nil }
    done.wait()
    return result
  }

  /// Queues `job`; false once the thread is stopping.
  @discardableResult
  func async(_ job: @escaping () -> Void) -> Bool {
    condition.withLock {
      guard !stopping else { return false }
      jobs.append(job)
      condition.signal()
      return true
    }
  }

  /// Lets the thread end once the queued jobs are done; no new ones are taken.
  func stop() {
    condition.withLock {
      stopping = true
      condition.signal()
    }
  }

  private func next() -> (() -> Void)? {
    condition.withLock {
      while jobs.isEmpty && !stopping { condition.wait() }
      return jobs.isEmpty ? nil : jobs.removeFirst()
    }
  }
}

private func blockSIGPIPEOnThisThread() {
  var set = sigset_t()
  sigemptyset(&set)
  sigaddset(&set, SIGPIPE)
  pthread_sigmask(SIG_BLOCK, &set, nil)
}

// File-scope wrappers: inside VPKSession the methods `write` and `kill` would shadow the C functions.

/// Writes all of `data` to `fd`; false on an error such as EPIPE (the reader has gone).
private func writeAll(_ fd: Int32, _ data: Data) -> Bool {
  data.withUnsafeBytes { buffer -> Bool in
    guard let base = buffer.baseAddress else { return true }
    var offset = 0
    while offset < buffer.count {
      let written = write(fd, base + offset, buffer.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }
}

private func sendSignal(_ signal: Int32, to pid: Int32) {
  _ = kill(pid, signal)
}

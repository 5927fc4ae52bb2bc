// TmuxTerminal: a real terminal for end-to-end tests. A tmux server of the test's own (its own socket,
// `tmux -S` in a fresh folder) runs a shell in a window of a given size; the test types into it with send-keys, resizes it
// and reads the screen with capture-pane. tmux is a test dependency (scripts/bootstrap installs it):
// when it is missing, creating a terminal throws, so the test fails rather than skips.

import Foundation

public final class TmuxTerminal: @unchecked Sendable {
  /// The server's socket, unique to this terminal.
  public let socket: String
  /// The server, run in the foreground (`tmux -D`) as a child of the test: a daemonising server needs
  /// /dev/null to be a character device, which some sandboxes do not give.
  private let server: Process
  /// A folder of this terminal's own: HOME and XDG_STATE_HOME of the shell point into it.
  public let home: URL
  private let tmux: URL
  private static let counter = Counter()

  /// Starts a tmux server with one window `width`×`height` running `bash` with no profile or rc file,
  /// a plain `$ ` prompt, HOME and XDG_STATE_HOME in a fresh folder, and vpk's folder first on PATH.
  public init(width: Int, height: Int = 24) throws {
    guard let found = Self.locate("tmux") else {
      throw VPKProcessError(description: "tmux not found on PATH: the terminal tests need it (run scripts/bootstrap)")
    }
    tmux = found
    let name = "vpk-test-\(getpid())-\(Self.counter.next())"
    home = URL(fileURLWithPath: "/tmp", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    socket = home.appendingPathComponent("tmux.socket").path
    server = Process()
    server.executableURL = tmux
    server.arguments = ["-D", "-S", socket, "-f", "/dev/null"]
    server.standardInput = FileHandle.nullDevice
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: socket) {
      guard server.isRunning, Date() < deadline else {
        throw VPKProcessError(description: "the tmux server did not start (socket \(socket))")
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    let vpkFolder = try VPKProcess.executableURL().deletingLastPathComponent().path
    let path = vpkFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    // The sanitizer runs' options go through too, so vpk in the terminal runs as in every other end-to-end test
    // (LeakSanitizer's suppressions of the Swift runtime's own allocations among them).
    let environment = ProcessInfo.processInfo.environment
    let sanitizers = ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS"].compactMap { name in
      // (LeakSanitizer's list of suppressions used would print after vpk exits, onto the screen under test.)
      environment[name].map { "\(name)='\($0)\(name == "LSAN_OPTIONS" ? " print_suppressions=0" : "")' " }
    }.joined()
    let shell =
      "env -i TERM=tmux-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME='\(home.path)' \(sanitizers)"
      + "XDG_STATE_HOME='\(home.path)/state' PATH='\(path)' PS1='$ ' bash --norc --noprofile"
    try run([
      "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)", shell, ";",
      "set-option", "-g", "status", "off", ";", "set-option", "-g", "window-size", "manual",
    ])
  }

  deinit {
    // The shell may ignore the SIGHUP that kill-server sends it, when the test runner ignores it (an ignored
    // signal stays ignored across exec), and the server waits for it: it is killed first (with what it runs).
    if let shell = try? run(["display-message", "-p", "-t", "t", "#{pane_pid}"]),
      let pid = Int32(shell.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
    {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
    }
    _ = try? run(["kill-server"])
    let deadline = Date().addingTimeInterval(5)
    while server.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if server.isRunning { kill(server.processIdentifier, SIGKILL) }
    server.waitUntilExit()
    try? FileManager.default.removeItem(at: home)
  }

  /// Types `text` as it is (no key names).
  public func type(_ text: String) throws { try run(["send-keys", "-t", "t", "-l", text]) }

  /// Presses keys by tmux's names: `Enter`, `Left`, `Home`, `C-a`, `C-z` …
  public func press(_ keys: String...) throws { try run(["send-keys", "-t", "t"] + keys) }

  /// Changes the window's width (and height).
  public func resize(width: Int, height: Int = 24) throws {
    try run(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
  }

  /// The screen, one string per row, trailing blanks dropped, and trailing empty rows dropped.
  public func screen() throws -> [String] { Self.rows(try run(["capture-pane", "-p", "-t", "t"])) }

  /// The scrollback (oldest row first) and then the screen, one string per row as `screen()` gives them: every row
  /// the terminal still holds. With `joiningWrappedRows`, the rows a line wrapped onto are joined to it, so each
  /// string is a line as it was written.
  public func screenAndHistory(joiningWrappedRows: Bool = false) throws -> [String] {
    Self.rows(try run(["capture-pane", "-p", "-S", "-"] + (joiningWrappedRows ? ["-J"] : []) + ["-t", "t"]))
  }

  private static func rows(_ text: String) -> [String] {
    var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.reversed().drop { $0 == " " }.reversed())
    }
    while rows.last?.isEmpty == true { rows.removeLast() }
    return rows
  }

  /// Polls the screen until `condition` holds and returns it. The timeout only guards against a hang (it is not
  /// a bound the test asserts): past it, the error shows the last screen.
  @discardableResult
  public func waitForScreen(
    _ what: String, timeout: Double = 120, until condition: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(timeout)
    var rows: [String] = []
    while true {
      rows = try screen()
      if condition(rows) { return rows }
      if Date() > deadline {
        throw VPKProcessError(
          description: "the screen never showed \(what); it shows:\n" + rows.map { "|" + $0 }.joined(separator: "\n"))
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  @discardableResult
  private func run(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = tmux
    process.arguments = ["-S", socket] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw VPKProcessError(
        description: "tmux \(arguments.joined(separator: " ")) failed: "
          + String(decoding: errorData, as: UTF8.self))
    }
    return String(decoding: data, as: UTF8.self)
  }

  private static func locate(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
      lock.withLock {
        value += 1
        return value
      }
    }
  }
}

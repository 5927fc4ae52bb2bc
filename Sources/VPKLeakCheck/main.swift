// VPKLeakCheck: drives the real engine (FFmpegPlaybackManager) through a session for scripts/leaks to run under
// valgrind: N seeded scrubs (exact and keyframe), each waited for, then a play to the end; then M more managers
// opened and shut down. It checks that open descriptors and threads are back to their count before each part.
//
// No dispatchMain(): valgrind 3.19 crashes ("the 'impossible' happened", SIGSEGV) as soon as libdispatch's
// dispatch_main() parks the main thread, which `vpk` itself does. Here the main thread runs RunLoop.main, which
// drains the main queue (and so the main actor) the same way, and the program ends with exit().
//
// With --player-cycles P it then does the same through the embedding API: one Player made by the Builder opens and
// closes the file P times, then P players open it and are dropped without close(); descriptors and threads must be
// back, and the resident memory may grow by at most --rss-growth-mb (default 32) over a warm-up of the same cycles.
//
// Usage: VPKLeakCheck FILE [--scrubs N] [--cycles M] [--seed S] [--player-cycles P] [--rss-growth-mb MB]
//
// VPKLeakCheck --canary leaks on purpose (a retain cycle of two `LeakCanary` objects) and exits: built with
// AddressSanitizer and run under the suite's LeakSanitizer suppressions, it must be reported, which shows that the
// suppressions hide no leak of the project's own objects.

import Foundation
import VPKEngine
import VideoPlaybackKit

/// What the manager told: ready or failed, the seeks that landed (or gave way), and the end.
@MainActor
final class Recorder {
  var ready = false
  var failure: PlaybackError?
  var landed: Set<Int> = []
  var ended = false

  func receive(_ event: PlaybackManagerEvent) {
    switch event {
    case .ready: ready = true
    case .failedToOpen(let error): failure = error
    case .seekFinished(let result): landed.insert(result.id)
    case .seekSuperseded(let id, _): landed.insert(id)
    case .ended: ended = true
    case .progress, .stepFinished, .waitFinished, .problem: break
    }
  }
}

/// Prints a line at once, so a run that a sanitizer ends (it exits without flushing) still shows how far it got.
func say(_ line: String) {
  print(line)
  fflush(nil)
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("VPKLeakCheck: \(message)\n".utf8))
  exit(1)
}

/// Runs the main run loop (and with it the main queue) until `done` or the time limit.
@MainActor
func run(until what: String, seconds: Double = 600, _ done: () -> Bool) {
  let deadline = Date(timeIntervalSinceNow: seconds)
  while !done() {
    if Date() > deadline { fail("timed out waiting for \(what)") }
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
  }
}

/// Resident memory in KiB (`VmRSS` of /proc/self/status).
func residentKiB() -> Int {
  let status = procText("/proc/self/status") ?? ""
  let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
  return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

func count(_ folder: String) -> Int { (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1 }

/// The text of a small file under /proc, read with open(2) and read(2). Foundation's file reader lost its 4 KiB
/// buffer once in a valgrind run reading a thread's `comm` (a thread on its way out), which failed the run.
func procText(_ path: String) -> String? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { break }
    bytes += chunk[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// The names of this process's threads (`/proc/self/task/*/comm`), to tell which one stayed.
func threadNames() -> [String] {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
  return tasks.sorted().map { task in
    let name = procText("/proc/self/task/\(task)/comm") ?? "?"
    return name.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// The threads that count: all but libdispatch's pool workers (named `…qos…`), which libdispatch starts and parks
/// on its own schedule (an idle one lingers for seconds, longer on a loaded machine); vpk's own threads (the engine's,
/// the input reader's) and FFmpeg's are all counted.
func countedThreads() -> Int { threadNames().filter { !$0.contains("qos") }.count }

/// Descriptors and threads, after letting threads that are on their way out finish (up to 30 s: a hang guard, not
/// a bound; on an idle machine they are back at once).
@MainActor
func resources(settling baseline: (fds: Int, threads: Int)? = nil) -> (fds: Int, threads: Int) {
  var now = (fds: count("/proc/self/fd"), threads: countedThreads())
  let deadline = Date(timeIntervalSinceNow: 30)
  while let baseline, now.fds > baseline.fds || now.threads > baseline.threads, Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    now = (count("/proc/self/fd"), countedThreads())
  }
  return now
}

/// The counts once they have held still for a second (threads that finished their work exit a little later).
@MainActor
func settledResources() -> (fds: Int, threads: Int) {
  var now = resources()
  var still = 0
  let deadline = Date(timeIntervalSinceNow: 30)
  while still < 20 && Date() < deadline {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    let next = resources()
    still = next == now ? still + 1 : 0
    now = next
  }
  return now
}

/// A manager preparing `path` on the free clock, run until the file is ready (or failed to open).
@MainActor
func openedManager(_ path: String) -> (manager: FFmpegPlaybackManager, recorder: Recorder) {
  let manager = FFmpegPlaybackManager()
  let recorder = Recorder()
  manager.onEvent = { [weak recorder] in recorder?.receive($0) }
  manager.prepare(path: path, configuration: PlaybackConfiguration(clock: .free, progressInterval: 1))
  run(until: "ready") { recorder.ready || recorder.failure != nil }
  return (manager, recorder)
}

/// The leak `--canary` makes: two objects that hold each other, and nothing else holds.
final class LeakCanary {
  var other: LeakCanary?
  let payload = [UInt8](repeating: 0xCA, count: 4096)
}

/// Makes the canary's cycle and lets go of it (in a function of its own, so no pointer to it stays on the stack).
@inline(never) func leakCanaries() {
  for _ in 0..<8 {
    let first = LeakCanary()
    let second = LeakCanary()
    first.other = second
    second.other = first
  }
}

@MainActor
func main() {
  var arguments = Array(CommandLine.arguments.dropFirst())
  if arguments == ["--canary"] {
    leakCanaries()
    say("VPKLeakCheck: leaked 16 LeakCanary objects on purpose")
    exit(0)
  }
  func option(_ name: String, _ fallback: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let value = Int(arguments[index + 1])
    else { return fallback }
    arguments.removeSubrange(index...index + 1)
    return value
  }
  let scrubs = option("--scrubs", 200)
  let cycles = option("--cycles", 100)
  var seed = UInt64(option("--seed", 1))
  let playerCycles = option("--player-cycles", 0)
  let rssGrowthLimit = option("--rss-growth-mb", 32)
  guard let path = arguments.first else { fail("usage: VPKLeakCheck FILE [--scrubs N] [--cycles M] [--seed S]") }

  // The session: scrubs to seeded targets, each waited for, then play to the end. In a scope of its own, so the
  // manager is gone before the counts (and before exit: valgrind cannot see the Swift runtime's encoded pointer from
  // a live object to its weak-reference side table, and would call the table lost).
  func session(scrubs: Int) {
    let (manager, recorder) = openedManager(path)
    if let failure = recorder.failure { fail("cannot open \(path): \(failure.message)") }
    for id in 1...max(1, scrubs) {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let target = Double(seed >> 11) / Double(1 << 53) * 8.5 - 0.25
      manager.seek(
        SeekRequest(id: id, target: MediaTime(seconds: max(0, target)), mode: id % 3 == 0 ? .keyframe : .exact))
      run(until: "scrub \(id)") { recorder.landed.contains(id) }
    }
    manager.play()
    run(until: "the end") { recorder.ended }
    manager.shutdown()
  }

  // Warm up with the same work, a short session and an open/close: FFmpeg's and the runtime's one-time tables,
  // threads and descriptors (libdispatch makes a timer descriptor the first time it arms a timer of a kind, which
  // under load can come later than the first open). Then the baseline, once the counts have held still.
  session(scrubs: 5)
  openedManager(path).manager.shutdown()
  let baseline = settledResources()

  session(scrubs: scrubs)
  let afterSession = resources(settling: baseline)
  say(
    "VPKLeakCheck: \(scrubs) scrubs and a play to the end; fds \(baseline.fds) -> \(afterSession.fds), "
      + "threads \(baseline.threads) -> \(afterSession.threads)")

  // Open and close again and again.
  for _ in 0..<cycles {
    openedManager(path).manager.shutdown()
  }
  let afterCycles = resources(settling: baseline)
  say(
    "VPKLeakCheck: \(cycles) open/close cycles; fds \(baseline.fds) -> \(afterCycles.fds), "
      + "threads \(baseline.threads) -> \(afterCycles.threads)")
  if afterSession.fds > baseline.fds || afterCycles.fds > baseline.fds { fail("file descriptors leaked") }
  if afterSession.threads > baseline.threads || afterCycles.threads > baseline.threads {
    fail("threads leaked; threads now: \(threadNames().joined(separator: ", "))")
  }
  if playerCycles > 0 {
    // A sanitizer's allocator keeps freed memory in quarantine and slows every cycle many times over: a sanitized
    // build checks descriptors and threads over at most 100 cycles, and leaves memory to the sanitizer.
    let sanitized = isSanitized()
    checkPlayers(
      path, cycles: sanitized ? min(playerCycles, 100) : playerCycles,
      rssGrowthLimit: sanitized ? nil : rssGrowthLimit, baseline: baseline)
  }
  exit(0)
}

/// Whether this build runs under AddressSanitizer or ThreadSanitizer (their runtimes define these symbols).
func isSanitized() -> Bool {
  dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
}

/// What a task on the main actor tells the loop that runs it.
@MainActor
final class Outcome {
  var done = false
  var failure: String?
}

/// Runs `work` as a task on the main actor, and the main run loop until it is done.
@MainActor
func runTask(_ what: String, _ work: @escaping @MainActor () async throws -> Void) {
  let outcome = Outcome()
  Task { @MainActor in
    do { try await work() } catch { outcome.failure = "\(error)" }
    outcome.done = true
  }
  run(until: what) { outcome.done }
  if let failure = outcome.failure { fail("\(what): \(failure)") }
}

/// One player opening and closing the file `cycles` times, then `cycles` players opening it and dropped unclosed.
@MainActor
func checkPlayers(_ path: String, cycles: Int, rssGrowthLimit: Int?, baseline: (fds: Int, threads: Int)) {
  func openClose(_ count: Int) {
    runTask("player open/close cycles") {
      let player = await PlaybackBuilder.makePlayer()
      for _ in 0..<count {
        try await player.open(path)
        try await player.close()
      }
    }
  }
  func dropped(_ count: Int) {
    runTask("players dropped") {
      for _ in 0..<count {
        let player = await PlaybackBuilder.makePlayer()
        try await player.open(path)
      }
    }
  }
  // Warm-up: the allocator's and the runtime's caches grow to their working size before the memory baseline.
  openClose(max(1, cycles / 10))
  dropped(max(1, cycles / 10))
  _ = resources(settling: baseline)
  let rssBefore = residentKiB()
  openClose(cycles)
  let afterCycles = resources(settling: baseline)
  say(
    "VPKLeakCheck: \(cycles) player open/close cycles; fds \(baseline.fds) -> \(afterCycles.fds), "
      + "threads \(baseline.threads) -> \(afterCycles.threads)")
  dropped(cycles)
  let afterDropped = resources(settling: baseline)
  let rssAfter = residentKiB()
  say(
    "VPKLeakCheck: \(cycles) players dropped without close(); fds \(baseline.fds) -> \(afterDropped.fds), "
      + "threads \(baseline.threads) -> \(afterDropped.threads); resident memory \(rssBefore / 1024) MiB -> "
      + "\(rssAfter / 1024) MiB (limit: \(rssGrowthLimit.map { "+\($0) MiB" } ?? "none, sanitized build"))")
  if afterCycles.fds > baseline.fds || afterDropped.fds > baseline.fds { fail("players leaked file descriptors") }
  if afterCycles.threads > baseline.threads || afterDropped.threads > baseline.threads {
    fail("players leaked threads; threads now: \(threadNames().joined(separator: ", "))")
  }
  if let rssGrowthLimit, rssAfter - rssBefore > rssGrowthLimit * 1024 {
    fail("resident memory grew by \((rssAfter - rssBefore) / 1024) MiB over \(2 * cycles) player cycles")
  }
}

MainActor.assumeIsolated { main() }

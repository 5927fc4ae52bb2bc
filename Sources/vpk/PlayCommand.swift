// `vpk play`: one session on a file, a queue of them (several files, a folder, an m3u or pls list) or none (idle),
// steered by standard input and, with --socket, by the clients of a control socket.

import ArgumentParser
import Foundation
import VPKSocket
import VideoPlaybackKit

struct PlayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Play a media file, steered by commands on standard input.",
    discussion: """
      Commands run in order, each with an id (its ordinal: 1, 2, 3 and so on) that
      the events it causes carry. A command sent before the file is ready
      waits for it. A query (status, info, frame) waits for earlier seeks to
      land. When standard input ends, playback goes on to the end (or stops at
      once if paused) and vpk exits.

      Several files, a folder (its media files in natural order) or
      --playlist LIST play one after another: next, prev, goto N and queue
      (add, add-next, remove, move, clear, shuffle) move through and edit the
      list, and --at-end applies at the end of the list.

      With --socket PATH, vpk also listens on a Unix-domain socket there:
      every client sends the same commands and gets JSON lines back (its own
      replies, and what changes for everyone). The session then ends only on
      quit (from any client) or a signal, not when standard input ends.

      With --input-ipc-server PATH (mpv's option), the socket there speaks
      only mpv's JSON IPC, as mpv's does: nothing is written before a client
      asks, a client that only reads gets mpv's events, and text lines are
      mpv's input commands (cycle pause, seek 10 absolute). Both options may
      be given, with two paths.

      With --record SCRIPT, what you do is written to SCRIPT as a playback
      test script as you go: the open, each command as typed, a wait for the
      media time between commands, and after each seek, step, pause, mark
      and the end the expects that pin the position and the frame on screen
      (its MD5). `vpk test SCRIPT` replays it on the virtual clock; with
      --socket, every client's commands are recorded.

      Under systemd: with NOTIFY_SOCKET set, vpk sends READY=1 once the
      control socket listens (Type=notify) and STOPPING=1 on its way out; with
      socket activation (LISTEN_FDS), vpk serves the socket systemd passed as
      descriptor 3 instead of making one (--socket may then be left out).

      Examples:
        vpk play movie.mp4 --start 50%
        printf 'scrub 1:30\\nframe\\n' | vpk play movie.mp4 --paused --clock free
        vpk play movie.mp4 --json --progress 0.5
        vpk play --idle --socket /tmp/vpk.sock </dev/null
        vpk play movie.mp4 --record checks/by-hand.vpk
        vpk play ep1.mp4 ep2.mp4 ep3.mp4 --at-end pause
        vpk play ~/Videos/series --shuffle --loop-playlist
      """)

  @Argument(
    help: "The media files to play one after another, or folders of them (omit them with --idle).",
    completion: .file())
  var files: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp("Play the files an m3u/m3u8 or pls list names (after any given).", valueName: "file"),
    completion: .file())
  var playlist: String?

  @Flag(name: .customLong("loop-playlist"), help: "After the last file, play the first again.")
  var loopPlaylist = false

  @Flag(name: .long, help: "Play the files in a random order.")
  var shuffle = false

  @Option(
    name: .customLong("shuffle-seed"),
    help: "Seed the random order of --shuffle and the queue shuffle command, for an order that repeats.")
  var shuffleSeed: UInt64?

  @Option(name: .customLong("start-entry"), help: "Start with the Nth file of the list (from 1).")
  var startEntry: Int?

  @Flag(name: .long, help: "Start with nothing loaded; load media with the open command.")
  var idle = false

  @Flag(name: .long, help: "Start paused on the first frame instead of playing.")
  var paused = false

  // Unconditional, as --progress: `--start -5` is a time (5 s before the end), not a missing value.
  @Option(
    name: .long, parsing: .unconditional,
    help:
      "Where every file starts: seconds (83.5), m:ss (1:23.5), h:mm:ss, a percentage (50%), or before the end (-5).")
  var start: String?

  @Option(name: .long, help: "The speed playback starts at (0.01 to 100; not with --clock free).")
  var rate: Double?

  @Option(
    name: .long,
    help:
      "The clock that paces playback: wall (real time), free (as fast as decoding allows) or virtual (moved only by wait)."
  )
  var clock: ClockKind = .wall

  // Unconditional: `--progress -1` is a value to refuse with the option's own message, not a missing one.
  @Option(name: .long, parsing: .unconditional, help: "Media seconds between progress events, or 'off'.")
  var progress: String = "1"

  @Option(
    name: .customLong("at-end"),
    help: ArgumentHelp(
      "What to do at the end of the media: exit, pause, loop or idle (close the file and wait for open). Default: pause when standard input and output are a terminal (a person typing), else exit.",
      valueName: "action"))
  var atEnd: EndAction?

  @Option(name: .long, help: "Default seek mode for scrub and skip: exact, keyframe or next-keyframe.")
  var seek: SeekMode = .exact

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Also listen on a Unix-domain control socket at this path (mode 0600); the session then ends on quit or a signal.",
      valueName: "path"))
  var socket: String?

  @Option(
    name: .customLong("input-ipc-server"),
    help: ArgumentHelp(
      "Also listen on a Unix-domain socket at this path (mode 0600) that speaks only mpv's JSON IPC, as mpv's option of this name does.",
      valueName: "path"))
  var inputIPCServer: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Record the session as a playback test script at this path, for vpk test to replay.", valueName: "script"),
    completion: .file())
  var record: String?

  @Option(
    name: .customLong("max-clients"),
    help: "Control-socket clients served at once; one more is told so and disconnected.")
  var maxClients: Int = ControlSocketServer.defaultMaxClients

  @OptionGroup var output: OutputOptions
  @OptionGroup var access: AccessOptions
  @OptionGroup var cache: FrameCacheOptions

  func validate() throws {
    _ = try startTime()
    if let rate {
      guard PlaybackLimits.rate.contains(rate) else {
        throw ValidationError(
          "--rate takes a speed from \(PlaybackLimits.text(PlaybackLimits.rate.lowerBound)) to "
            + "\(PlaybackLimits.text(PlaybackLimits.rate.upperBound)), e.g. --rate 1.5")
      }
      if clock == .free { throw ValidationError("--rate paces a clock; --clock free plays as fast as it decodes") }
    }
    _ = try ProgressOption.interval(progress)
    _ = try cache.bytes
    let given = !files.isEmpty || playlist != nil
    if !given && !idle { throw ValidationError("give a media file to play, or --idle to start with none") }
    if given && idle { throw ValidationError("--idle starts with nothing loaded; leave out the file or --idle") }
    if let startEntry, startEntry < 1 { throw ValidationError("--start-entry takes an entry number from 1") }
    if maxClients < 1 || maxClients > 10_000 { throw ValidationError("--max-clients takes a number from 1 to 10000") }
  }

  /// `--start`: a negative time counts back from each file's end.
  private func startTime() throws -> FileStart? {
    guard let start else { return nil }
    switch CommandParser.parseTime(start, for: "--start") {
    case .success(.seconds(let seconds)) where seconds < 0 || start.hasPrefix("-"): return .beforeEnd(-seconds)
    case .success(let time): return .time(time)
    case .failure(let error): throw ValidationError(error.message)
    }
  }

  /// At the end of the media a person at a terminal stays on the last frame (the session would otherwise end while
  /// they type); scripts and pipes leave.
  static func defaultEndAction() -> EndAction {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 ? .pause : .exit
  }

  /// The session's queue when it plays a list (several files, a folder, --playlist), else nil: one file.
  private func queue() throws -> PlayQueue? {
    let entries = try PlaylistInput.entries(arguments: files, listFile: playlist)
    let isList = entries.count > 1 || entries.count != files.count || playlist != nil
    guard isList else {
      if let startEntry, startEntry > 1 { throw ValidationError("--start-entry \(startEntry): there is one file") }
      return nil
    }
    var queue = PlayQueue(
      paths: entries.map(\.path), loops: loopPlaylist, isList: true,
      seed: shuffleSeed ?? UInt64.random(in: .min ... .max))
    for (entry, listed) in zip(queue.entries, entries) where listed.title != nil {
      queue.setTitle(listed.title, ofID: entry.id)
    }
    if shuffle { queue.shuffle() }
    if let startEntry {
      guard startEntry <= queue.count else {
        throw ValidationError("--start-entry \(startEntry): the list has \(queue.count) files")
      }
      try? queue.select(startEntry - 1)
    }
    return queue
  }

  func run() async throws {
    var options = PlaybackOptions(
      autoplay: !paused, clock: clock, progressInterval: try ProgressOption.interval(progress),
      endAction: atEnd ?? Self.defaultEndAction(), seekMode: seek, frameCacheBytes: try cache.bytes)
    options.fileStart = try startTime()
    options.rate = rate ?? 1
    options.playlist = try queue()
    // systemd's variables are read and unset before anything else, so nothing vpk starts inherits them.
    let systemd = SystemdHandover.take()
    let activated: Int32?
    do {
      activated = try systemd.activatedSocket()
    } catch {
      StandardStreams.writeError("vpk play: socket activation: \(error)")
      throw ExitCode(socketUnusableExitCode)
    }
    // A socket systemd passed takes the place of --socket's path (which then only names it in messages).
    var sockets: [ControlSocketServer.Options] =
      if let activated {
        [
          ControlSocketServer.Options(
            path: socket ?? "the socket systemd passed", activatedDescriptor: activated, maxClients: maxClients)
        ]
      } else {
        socket.map { [ControlSocketServer.Options(path: $0, maxClients: maxClients)] } ?? []
      }
    if let inputIPCServer {
      sockets.append(ControlSocketServer.Options(path: inputIPCServer, maxClients: maxClients, dialectOnly: true))
    }
    let code = await runSession(
      file: options.playlist?.current?.path ?? options.playlist?.entries.first?.path ?? files.first, options: options,
      output: output, access: access.mediaAccess, scriptedInput: nil,
      sockets: sockets, notifier: systemd.notifySocket.map { SystemdNotifier(address: $0) }, record: record)
    throw ExitCode(code)
  }
}

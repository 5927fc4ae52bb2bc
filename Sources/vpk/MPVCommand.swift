// `vpk mpv`, and vpk run under the name `mpv`: a session started with the options clients pass when they start mpv
// themselves (`mpv --idle --input-ipc-server=PATH …`), its socket speaking only mpv's JSON IPC. The command line is
// read by MPVCommandLine as mpv reads it; argument-parser only passes it through.

import ArgumentParser
import Foundation
import VPKEngine
import VPKMPV
import VPKSocket
import VideoPlaybackKit

struct MPVCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mpv",
    abstract: "Start as mpv is started by its clients: mpv's options, mpv's JSON IPC.",
    discussion: """
      Takes the command line a client library passes when it starts mpv
      itself, read as mpv 0.35 reads it, and runs a session whose
      --input-ipc-server socket speaks only mpv's JSON IPC (as
      `vpk play --input-ipc-server PATH` does). Run under the name mpv (a
      symlink to vpk named mpv), vpk behaves as `vpk mpv`:
        ln -s "$(command -v vpk)" ~/bin/mpv

      Options are written --opt=value (mpv refuses --opt value for an option
      that takes a value, and so does vpk; mpv's old form -opt value is
      taken). A flag is --flag, --flag=yes|no or --no-flag. -- ends them.

      Honoured:
        --idle[=yes|once|no]      with no FILE, wait for loadfile
        --input-ipc-server=PATH   the mpv socket (empty: none)
        --pause[=yes|no]          start paused
        --start=TIME              where files start: seconds,
                                  [[hh:]mm:]ss, +TIME, N%, -TIME (before
                                  the end), none
        --keep-open[=yes|always|no]  at the end, stay paused on the last
                                  frame; without it the file ends, and vpk
                                  leaves (no --idle) or goes idle (--idle)
        --loop-file[=inf|yes|no]  loop the file (--loop as well)
        --speed=X                 the rate files start at (0.01 to 100)
        --playlist=FILE           play an m3u list's entries (after the
                                  FILEs); relative entries are relative to
                                  the list's folder
        --playlist-start=N        start with entry N (from 0; auto: the
                                  first)
        --loop-playlist[=inf|force|N|no]  after the last entry play the
                                  first again (any N over 1 loops without
                                  end)
        --shuffle                 play the entries in a random order
        --hr-seek[=yes|no|absolute|always|default]  which seeks that name no
                                  precision are exact (default: absolute)
        --really-quiet, --no-terminal, --msg-level=all=no
                                  write nothing on standard output or error
        --version                 mpv 0.35.1 (vpk VERSION) and leave
        --help, -h                this text

      Taken and ignored (vpk has no window, sound, subtitles, OSD or
      scripts, and reads no mpv configuration): --no-config, --vo=, --ao=,
      --no-video, --force-window, --fullscreen, --fs, --geometry=,
      --autofit=, --osc, --border, --ontop, --title=, --wid=, --hwdec=,
      --terminal, --input-terminal, --input-default-bindings,
      --input-vo-keyboard, --input-conf=, --quiet, --msg-color, --msg-module,
      --msg-time, --log-file=, --volume=, --volume-max=, --mute, --audio,
      --aid, --alang=, --sid, --slang=, --sub, --audio-display, --ytdl,
      --ytdl-format=, --load-scripts, --script=, --scripts=, --script-opts=,
      --osd-level=, --osd-bar, --keep-open-pause, --save-position-on-quit,
      --resume-playback, --image-display-duration=, --cache, --video-sync=,
      --interpolation, --user-agent=, --stop-screensaver, --keepaspect,
      --keepaspect-window, --player-operation-mode=, --snap-window,
      --native-keyrepeat, --hidpi-window-scale, --focus-on-open, --alpha,
      --background=, --screen=, --fs-screen=, --audio-client-name=,
      --hwdec-codecs=, --vd-lavc-threads=, --watch-later-directory=,
      --write-filename-in-watch-later-config, --load-stats-overlay,
      --load-osd-console, --load-auto-profiles, --reset-on-next-file=, and
      every option of mpv's named
      --sub-*, --osd-*, --screenshot-*, --audio-*, --demuxer-*, --cache-*,
      --ytdl-*, --script-*, --window-*, --vo-*, --ao-*, --gpu-*, --opengl-*,
      --vulkan-*, --wayland-*, --x11-*, --drm-*, --term-*, --cursor-*,
      --input-*, --msg-*, the audio and video backends' (--pulse-*,
      --alsa-*, --jack-*, --pipewire-*, --vaapi-*, --egl-* …), --icc-*,
      --tone-mapping*, --target-*, --watch-later-*.

      Refused as mpv refuses them, with mpv's message on standard output and
      exit status 1: an option mpv does not have ("Error parsing option X
      (option not found)"), a bad value, --opt value. Refused by vpk with exit
      status 1: mpv's other options (they change what plays: --end=, --vf=,
      …), --loop-file=N (a count), --start=#N (a chapter).

      Exit status: 0 done (quit, or the end of the file without --idle);
      1 a refused command line; 2 the FILE could not be opened; 4 a signal
      (SIGINT, SIGTERM, SIGHUP) ended it; the rest as vpk play's.

      Without --input-ipc-server nothing can steer the session (standard
      input is not read): with --idle and no FILE, or a FILE --pause'd, it
      has nothing to wait for and exits 0.

      Local files only, as with vpk play, unless the environment says:
        VPK_ALLOW_NETWORK=1       network URLs (vpk play's --allow-network)
        VPK_ALLOW_PLAYLISTS=1     playlists (vpk play's --allow-playlists)

      Examples:
        vpk mpv --idle --input-ipc-server=/tmp/mpv.sock
        vpk mpv --no-config --pause --start=30 --keep-open --input-ipc-server=/tmp/mpv.sock movie.mp4
      """)

  @Argument(
    parsing: .captureForPassthrough,
    help: ArgumentHelp("mpv's options and the media files or folders, as mpv takes them.", valueName: "mpv options"))
  var arguments: [String] = []

  func run() async throws {
    throw ExitCode(await Self.run(arguments))
  }

  /// What `mpv --version` prints first: mpv's version, so that clients that read it go on, then vpk's.
  static var versionLine: String {
    "mpv 0.35.1 (vpk \(VideoPlaybackKitVersion.current), a stand-in speaking mpv's JSON IPC)"
  }

  /// mpv's exit status for a signal (SIGINT, SIGTERM, SIGHUP) that ended it.
  static let signalStatus: Int32 = 4

  /// Runs `arguments` (the words after `vpk mpv`, or after `mpv`) as mpv would; returns the exit status.
  @MainActor
  static func run(_ arguments: [String]) async -> Int32 {
    let line: MPVCommandLine
    switch MPVCommandLine.parse(arguments) {
    case .failure(let refusal):
      if !refusal.isQuiet { StandardStreams.writeOutput(refusal.lines.joined(separator: "\n") + "\n") }
      return refusal.exitStatus
    case .success(let parsed): line = parsed
    }
    if line.showsHelp {
      StandardStreams.writeOutput(helpMessage() + "\n")
      return 0
    }
    if line.showsVersion {
      if !line.isQuiet { StandardStreams.writeOutput(versionLine + "\n") }
      return 0
    }
    // The files, folders (their media files, in natural order) and `--playlist`'s entries, as mpv's playlist.
    let queue: PlayQueue?
    do {
      queue = try playlist(line)
    } catch {
      if !line.isQuiet { StandardStreams.writeOutput("vpk mpv: \(error)\nExiting... (Fatal error)\n") }
      return 1
    }
    let file = queue?.current?.path
    if file == nil && line.idle == .no {
      // mpv with nothing to play says who it is and how to start it, and leaves.
      if !line.isQuiet { StandardStreams.writeOutput(versionLine + "\n" + helpMessage() + "\n") }
      return 0
    }
    if line.isQuiet { silenceStandardStreams() }
    // At the end of the file mpv stays on it (--keep-open), goes idle (--idle=yes) or leaves.
    let endAction: EndAction =
      if line.loopsFile { .loop } else if line.keepOpen != .no { .pause } else if line.idle == .yes { .idle } else {
        .exit
      }
    var options = PlaybackOptions(
      autoplay: !line.pause, clock: .wall, progressInterval: 1, endAction: endAction, seekMode: .exact)
    // mpv's --start and --speed: where every file opens and the speed the session starts at.
    options.fileStart = line.start
    options.rate = line.speed
    options.playlist = queue
    let sockets = line.inputIPCServer.map { [ControlSocketServer.Options(path: $0, dialectOnly: true)] } ?? []
    // vpk's text events, where mpv would write its terminal lines.
    guard let output = try? OutputOptions.parse([]) else { preconditionFailure("OutputOptions has defaults") }
    // Standard input is mpv's terminal, not commands: the session reads none (no lines).
    let code = await runSession(
      file: file, options: options, output: output, access: mediaAccess(ProcessInfo.processInfo.environment),
      scriptedInput: [], sockets: sockets, hrSeek: line.hrSeek, signalExitStatus: { _ in Self.signalStatus })
    switch code {
    // mpv's statuses: a file it could not load; a signal (SIGINT, SIGTERM, SIGHUP) that ended it.
    case SessionExitCode.mediaUnreadable: return 2
    case SessionExitCode.interrupted, SessionExitCode.terminated, SessionExitCode.hungUp: return Self.signalStatus
    default: return code
    }
  }

  /// The session's queue, as mpv's playlist starts: the files given (a folder gives its media files, in natural order;
  /// `--playlist` its list's entries, after them), shuffled with `--shuffle`, looping with `--loop-playlist`, the one
  /// `--playlist-start` names current (the first when it names none there is). Nil without any.
  /// mpv numbers a folder as an entry of its own, which its files take the place of: they are numbered after it.
  static func playlist(_ line: MPVCommandLine) throws -> PlayQueue? {
    var queue = PlayQueue(
      loops: MPVPropertyTable.loopsPlaylist(line.loopPlaylist), seed: UInt64.random(in: .min ... .max))
    for argument in line.files {
      let files = try PlaylistInput.entries(arguments: [argument], listFile: nil).map(\.path)
      if files != [argument] {
        // The folder's own entry, gone once its files are in the list.
        queue.append(argument)
        _ = try? queue.remove(at: queue.count - 1)
      }
      for file in files { queue.append(file) }
    }
    if let list = line.playlist {
      for entry in try PlaylistInput.list(list) { queue.setTitle(entry.title, ofID: queue.append(entry.path).id) }
    }
    guard !queue.isEmpty else { return nil }
    queue.isList = queue.count > 1
    if line.shuffle { queue.shuffle() }
    try? queue.select(min(line.playlistStart ?? 0, queue.count - 1))
    return queue
  }

  /// What `vpk mpv` may open besides local files. Its command line is mpv's (a client library writes it), so vpk's
  /// own `--allow-network` and `--allow-playlists` are given in the environment instead: `VPK_ALLOW_NETWORK=1`,
  /// `VPK_ALLOW_PLAYLISTS=1`.
  static func mediaAccess(_ environment: [String: String]) -> MediaAccess {
    var access = MediaAccess(
      allowsNetwork: environment["VPK_ALLOW_NETWORK"] == "1", allowsPlaylists: environment["VPK_ALLOW_PLAYLISTS"] == "1"
    )
    access.networkFlag = "VPK_ALLOW_NETWORK=1 (an environment variable)"
    access.playlistFlag = "VPK_ALLOW_PLAYLISTS=1 (an environment variable)"
    return access
  }

  /// `--really-quiet` and the like: nothing on standard output or error, as mpv writes nothing.
  private static func silenceStandardStreams() {
    let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
    guard null >= 0 else { return }
    dup2(null, STDOUT_FILENO)
    dup2(null, STDERR_FILENO)
    close(null)
  }
}

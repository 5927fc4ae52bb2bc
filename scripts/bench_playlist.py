"""scripts/bench's playlist figures (issue 36): three 1080p H.264 clips of 5 s played as one list, by vpk and by mpv,
on the wall clock, in the same run. bench.py calls `playlist(bench, tools)`; `tools` gives it bench.py's helpers
(VPK, Lines, now_ns, median, log, rss_kb), so this module imports nothing of bench.py's.

What is measured, per run (alternating vpk and mpv):
- the transition gap: from the arrival of the last frame of one entry to the arrival of the first frame of the next.
  vpk reports each frame as it is shown with `--progress 0.03` (a progress mark at every frame of a 30 fps clip: the
  engine wakes for the frame and emits its `progress` as it presents it; the next entry's first frame is its
  `progress` at 0, told as the entry becomes current). mpv: its last `time-pos` change of the entry, then the next
  entry's `playback-restart` (its first frame shown), over its JSON IPC. Both arrive through a pipe or socket read by
  a thread of this process, timestamped on arrival. The ideal is one frame duration (the last frame's); the interval
  between two frames of one entry, read the same way, shows what this measure makes of one frame duration. The same
  gap with `--frame-cache 0`, which opens nothing ahead, shows what opening the next entry ahead saves.
- the whole list: from writing `play` (mpv: `set pause no`) to the last entry's end (`ended`; mpv's `end-file`).
- the second entry's `late_p99_ms` (its frames' lateness; the third entry opens as it starts) against the same clip
  played alone, and the peak RSS (VmHWM) of the list against the one clip alone.
"""

import os
import socket
import subprocess
import time

# name, lavfi source: three different pictures, so a frame of one entry is never mistaken for another's.
CLIPS = [
    ("playlist-a-1080p30-5s.mp4", "testsrc2=size=1920x1080:rate=30:duration=5"),
    ("playlist-b-1080p30-5s.mp4", "testsrc=size=1920x1080:rate=30:duration=5"),
    ("playlist-c-1080p30-5s.mp4", "smptehdbars=size=1920x1080:rate=30:duration=5"),
]
ENCODE = ["-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
          "-bf", "3", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
FRAME_MS = 1000 / 30
# The session's progress interval: under one frame's duration, so every frame reaches a mark.
PROGRESS = "0.03"


def make_clips(directory, log):
    os.makedirs(directory, exist_ok=True)
    paths = []
    for name, source in CLIPS:
        path = os.path.join(directory, name)
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            log(f"bench: making {path}")
            temporary = f"{path}.{os.getpid()}.tmp.mp4"
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", source,
                       *ENCODE, temporary]
            if subprocess.run(command, stdin=subprocess.DEVNULL).returncode != 0:
                raise SystemExit(f"bench: ffmpeg could not make {path}")
            os.replace(temporary, path)
        paths.append(path)
    return paths


def gaps(frames, count):
    """Milliseconds from each entry's last frame to the next entry's first, from (arrival ns, entry) pairs."""
    result = []
    for entry in range(count - 1):
        last = max(arrival for arrival, e in frames if e == entry)
        first = min(arrival for arrival, e in frames if e == entry + 1)
        result.append((first - last) / 1e6)
    return result


def vpk_list(tools, binary, paths, *options, status_entry=1):
    """One vpk session playing `paths` as a list (with `options` besides): (gaps ms, seconds from play to the last
    ended, the late_p99_ms of entry `status_entry` near its end, peak RSS MiB, the intervals ms between two frames of
    one entry, measured as the gaps are)."""
    session = tools.VPK(binary, paths[0], *paths[1:], "--paused", "--progress", PROGRESS, "--at-end", "pause",
                        *options)
    session.expect("ready", timeout=60)
    # The first entry is ready, paused, and the second is opened ahead meanwhile, as it would be while playing.
    time.sleep(0.5)
    _, start = session.send("play")
    # (the first entry's `entry` came before its `ready`)
    entry, ended, frames, late, status_id = 0, 0, [], None, None
    while ended < len(paths):
        arrival, event, _ = session.events.expect(lambda e: True, timeout=60, what="vpk's next event")
        name = event.get("event")
        if name == "entry":
            entry = event["index"] - 1
        elif name == "progress" and event.get("state") == "playing":
            frames.append((arrival, entry))
            if entry == status_entry and status_id is None and event["position"] >= 4.5:
                status_id, _ = session.send("status")
        elif name == "status" and event.get("id") == status_id:
            late = event.get("late_p99_ms")
        elif name == "ended":
            ended += 1
            last_end = arrival
    if late is None and status_id is not None:
        _, event, _ = session.expect("status", status_id)
        late = event.get("late_p99_ms")
    peak = tools.rss_kb(session.pid, "VmHWM") / 1024
    session.close()
    # The first entry's frames before `play` (its first, shown paused) are not part of the list's playing.
    frames = [(arrival, e) for arrival, e in frames if arrival >= start]
    within = [(b - a) / 1e6 for (a, e), (b, f) in zip(frames, frames[1:]) if e == f]
    return gaps(frames, len(paths)), (last_end - start) / 1e9, late, peak, within


def vpk_alone(tools, binary, path):
    """The same clip played alone: (late_p99_ms near its end, peak RSS MiB)."""
    session = tools.VPK(binary, path, "--paused", "--progress", PROGRESS, "--at-end", "pause")
    session.expect("ready", timeout=60)
    time.sleep(0.5)
    session.send("play")
    session.events.expect(lambda e: e.get("event") == "progress" and e["position"] >= 4.5, 60, "vpk at 4.5 s")
    status_id, _ = session.send("status")
    _, event, _ = session.expect("status", status_id)
    session.expect("ended", timeout=60)
    peak = tools.rss_kb(session.pid, "VmHWM") / 1024
    session.close()
    return event.get("late_p99_ms"), peak


def mpv_list(tools, paths, directory):
    """mpv playing `paths` (`--vo=null --ao=null`): (gaps ms, seconds from unpausing to the last end-file)."""
    socket_path = os.path.join(directory, f"mpv-playlist-{os.getpid()}.sock")
    process = subprocess.Popen(
        ["mpv", "--no-config", "--vo=null", "--ao=null", "--no-audio", "--pause", f"--input-ipc-server={socket_path}",
         "--really-quiet", "--no-terminal", *paths],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tools.LIVE.add(process)
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                client.connect(socket_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError("mpv's IPC socket did not appear")
                time.sleep(0.01)
        events = tools.Lines(client.fileno())
        client.sendall(b'{"command": ["observe_property", 1, "time-pos"]}\n')
        time.sleep(0.5)  # the first file loaded and paused, as vpk's is
        start = tools.now_ns()
        client.sendall(b'{"command": ["set_property", "pause", false]}\n')
        # The first file's start-file came before the client connected: each one after it is the next entry's.
        entry, ended, frames, restarts = 0, 0, [], {}
        while ended < len(paths):
            arrival, event, _ = events.expect(lambda e: True, timeout=60, what="mpv's next event")
            if arrival < start:
                continue
            name = event.get("event")
            if name == "start-file":
                entry += 1
            elif name == "property-change" and event.get("name") == "time-pos" and event.get("data") is not None:
                frames.append((arrival, entry))
            elif name == "playback-restart":
                restarts.setdefault(entry, arrival)
            elif name == "end-file":
                ended += 1
                last_end = arrival
        # An entry's last frame: its last time-pos; the next entry's first: its playback-restart (the first frame shown).
        result = []
        for k in range(len(paths) - 1):
            last = max(arrival for arrival, e in frames if e == k)
            result.append((restarts[k + 1] - last) / 1e6)
        return result, (last_end - start) / 1e9
    finally:
        client.close()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        tools.LIVE.discard(process)
        try:
            os.unlink(socket_path)
        except FileNotFoundError:
            pass


def playlist(bench, tools):
    """The playlist figures, added to bench.results."""
    paths = make_clips(bench.options.media, tools.log)
    reps = bench.reps(5, 3)
    ours, theirs, totals, mpv_totals, late_list, late_alone, peak_list, peak_alone, plain, within = (
        [] for _ in range(10))
    for rep in range(reps):
        for turn in ((0, 1, 2, 3) if rep % 2 == 0 else (3, 2, 1, 0)):
            if turn == 0:
                gap, total, late, peak, intervals = vpk_list(tools, bench.vpk, paths)
                ours += gap
                within += intervals
                totals.append(total)
                late_list.append(late)
                peak_list.append(peak)
            elif turn == 1:
                gap, total = mpv_list(tools, paths, bench.socket_dir)
                theirs += gap
                mpv_totals.append(total)
            elif turn == 3:
                # Nothing opened ahead: a session without a frame cache opens each entry at its turn.
                plain += vpk_list(tools, bench.vpk, paths, "--frame-cache", "0")[0]
            else:
                late, peak = vpk_alone(tools, bench.vpk, paths[1])
                late_alone.append(late)
                peak_alone.append(peak)
    median = tools.median
    gap, mpv_gap = median(ours), median(theirs)
    clip = "3 × 1080p30 H.264 5 s"
    samples = {"vpk_gaps_ms": ours, "mpv_gaps_ms": theirs}
    bench.results.add("playlist transition gap (last frame → next entry's first, wall)", clip, gap, "ms", "<=",
                      FRAME_MS, value=gap,
                      note=f"target: one frame duration (1/30 s); {gap:.2f} ms; {len(ours)} transitions",
                      samples=samples)
    bench.results.add("playlist frame interval within an entry (the same measure, between two frames)", clip,
                      median(within), "ms", "<=", None,
                      note=f"not a target: this measure's reading of one frame duration; {median(within):.2f} ms, "
                           f"{len(within)} intervals", samples={"vpk_intervals_ms": within})
    bench.results.add("playlist transition gap vs mpv", clip, gap, "ms", "<=", 0.5, peer=mpv_gap, peer_name="mpv",
                      ratio=gap / mpv_gap, samples=samples)
    bench.results.add("playlist transition gap, nothing opened ahead (--frame-cache 0)", clip, median(plain), "ms",
                      "<=", None, note="not a target: what opening the next entry ahead saves",
                      samples={"vpk_gaps_ms": plain})
    bench.results.add("playlist played (play → last ended)", clip, median(totals), "s", "<=", 15.1,
                      peer=median(mpv_totals), peer_name="mpv", ratio=median(totals) / median(mpv_totals),
                      value=median(totals), samples={"vpk": totals, "mpv": mpv_totals})
    late_with, late_without = median(late_list), median(late_alone)
    bench.results.add("playlist pacing p99 while the next opens (entry 2, late_p99_ms)", clip, late_with, "ms", "<=", 0,
                      peer=late_without, peer_name="same clip alone", value=late_with - late_without,
                      note="target: no worse than alone", samples={"list": late_list, "alone": late_alone})
    above = median(peak_list) - median(peak_alone)
    bench.results.add("playlist peak RSS above one entry (next entry prepared)", clip, above, "MiB", "<=", 256,
                      peer=median(peak_alone), peer_name="one entry alone", value=above,
                      note=f"list {median(peak_list):.1f} MiB; target: the frame cache's budget, 256 MiB",
                      samples={"list": peak_list, "alone": peak_alone})

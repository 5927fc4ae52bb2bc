"""scripts/bench's playlist figures (issue 36): three 1080p H.264 clips of 5 s played as one list, by vpk and by mpv,
on the wall clock, in the same run. bench.py calls `playlist(bench, tools)`; `tools` gives it bench.py's helpers
(VPK, Lines, now_ns, median, log, rss_kb), so this module imports nothing of bench.py's.

What is measured, per run (alternating vpk and mpv):
- the transition gap: from the last frame of one entry shown to the first frame of the next shown. Each player reports
  every frame as it shows it, with its position: vpk with `--progress 0.03` (a progress mark at every frame of a 30 fps
  clip: the engine wakes for the frame and emits its `progress` as it presents it), mpv with its `time-pos` changes
  over its JSON IPC. Both arrive through a pipe or socket read by a thread of this process, timestamped on arrival.
  When a frame was shown is read from its report and its neighbours': each of the entry's last 11 frames (the next
  entry's frames 2 to 11) says when the entry's last frame (the next's first) was shown, its arrival moved by the
  positions between them, and the median of the 11 (10) is taken. The delay of a report, which is about the same for
  every frame, then falls out of the difference, and so does the noise of a single report. The ideal is one frame
  duration (the last frame's): the next entry's first frame shown as the last one's time is up. The interval between
  two frames of one entry, read from single reports, shows what this measure makes of one frame duration.
- the transition as told: from the arrival of the last frame's report to the arrival of the next entry's first
  (vpk: its `progress` at 0, told after the `ended`, `entry`, `ready` and `state` of the change; mpv: its
  `playback-restart`), and from there to the arrival of the next frame's report: how long the first frame stayed on
  screen. This is the measure of mpv's gap the ratio target names (its `time-pos` and `playback-restart` timings).
  The gap as told adds the time each player takes to tell the change. mpv's clock for the next entry starts before
  its first frame is shown, and it then shows that frame for a few milliseconds: its gap read from its clock (as
  vpk's first figure is read) flatters it, and is given beside it. The gap as told with `--frame-cache 0`, which
  opens nothing ahead, shows what opening the next entry ahead saves.
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


def gaps_told(frames, count):
    """Milliseconds from the arrival of each entry's last frame report to the next entry's first, from
    (arrival ns, entry, position s) triples."""
    result = []
    for entry in range(count - 1):
        last = max(arrival for arrival, e, _ in frames if e == entry)
        first = min(arrival for arrival, e, _ in frames if e == entry + 1)
        result.append((first - last) / 1e6)
    return result


def first_frames_told(frames, count, firsts=None):
    """Milliseconds from the arrival of each next entry's first frame (`firsts[entry]`, by default its first frame
    report) to the arrival of its second frame's report, from (arrival ns, entry, position s) triples."""
    result = []
    for entry in range(1, count):
        reports = sorted(arrival for arrival, e, _ in frames if e == entry)
        first = firsts[entry] if firsts else reports[0]
        result.append((min(arrival for arrival in reports if arrival > first) - first) / 1e6)
    return result


def gaps_shown(frames, count, median):
    """Milliseconds from each entry's last frame shown to the next entry's first shown, from (arrival ns, entry,
    position s) triples: each time read from 11 (10) reports, as the module's comment says."""
    result = []
    for entry in range(count - 1):
        ending = sorted((position, arrival) for arrival, e, position in frames if e == entry)[-11:]
        starting = sorted((position, arrival) for arrival, e, position in frames if e == entry + 1)[:11]
        last_position, first_position = ending[-1][0], starting[0][0]
        last = median([arrival + (last_position - position) * 1e9 for position, arrival in ending])
        first = median([arrival - (position - first_position) * 1e9 for position, arrival in starting[1:]])
        result.append((first - last) / 1e6)
    return result


def vpk_list(tools, binary, paths, *options, status_entry=1):
    """One vpk session playing `paths` as a list (with `options` besides): (gaps shown ms, gaps told ms, seconds from
    play to the last ended, the late_p99_ms of entry `status_entry` near its end, peak RSS MiB, the intervals ms
    between the reports of two frames of one entry)."""
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
            frames.append((arrival, entry, event["position"]))
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
    frames = [frame for frame in frames if frame[0] >= start]
    within = [(b[0] - a[0]) / 1e6 for a, b in zip(frames, frames[1:]) if a[1] == b[1]]
    count = len(paths)
    return (gaps_shown(frames, count, tools.median), gaps_told(frames, count), first_frames_told(frames, count),
            (last_end - start) / 1e9, late, peak, within)


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
    """mpv playing `paths` (`--vo=null --ao=null`): (gaps read from its clock ms, gaps told ms, first frames on screen
    as told ms, seconds from unpausing to the last end-file)."""
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
                frames.append((arrival, entry, event["data"]))
            elif name == "playback-restart":
                restarts.setdefault(entry, arrival)
            elif name == "end-file":
                ended += 1
                last_end = arrival
        # Told: an entry's last time-pos, then the next entry's playback-restart (its first frame shown).
        told = []
        for k in range(len(paths) - 1):
            last = max(arrival for arrival, e, _ in frames if e == k)
            told.append((restarts[k + 1] - last) / 1e6)
        # Its frame reports after its playback-restart (a time-pos of 0 may come before it).
        later = [(arrival, e, position) for arrival, e, position in frames if arrival > restarts.get(e, 0)]
        return (gaps_shown(frames, len(paths), tools.median), told,
                first_frames_told(later, len(paths), restarts), (last_end - start) / 1e9)
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
    (ours, theirs, told, mpv_told, first, mpv_first, totals, mpv_totals, late_list, late_alone, peak_list, peak_alone,
     plain, within) = ([] for _ in range(14))
    for rep in range(reps):
        for turn in ((0, 1, 2, 3) if rep % 2 == 0 else (3, 2, 1, 0)):
            if turn == 0:
                gap, gap_told, first_told, total, late, peak, intervals = vpk_list(tools, bench.vpk, paths)
                ours += gap
                told += gap_told
                first += first_told
                within += intervals
                totals.append(total)
                late_list.append(late)
                peak_list.append(peak)
            elif turn == 1:
                gap, gap_told, first_told, total = mpv_list(tools, paths, bench.socket_dir)
                theirs += gap
                mpv_told += gap_told
                mpv_first += first_told
                mpv_totals.append(total)
            elif turn == 3:
                # Nothing opened ahead: a session without a frame cache opens each entry at its turn.
                plain += vpk_list(tools, bench.vpk, paths, "--frame-cache", "0")[1]
            else:
                late, peak = vpk_alone(tools, bench.vpk, paths[1])
                late_alone.append(late)
                peak_alone.append(peak)
    median = tools.median
    gap, mpv_gap = median(ours), median(theirs)
    clip = "3 × 1080p30 H.264 5 s"
    samples = {"vpk_gaps_ms": ours, "mpv_gaps_ms": theirs}
    bench.results.add("playlist transition gap (last frame shown → next entry's first shown, wall)", clip, gap, "ms",
                      "<=", FRAME_MS, value=gap,
                      note=f"target: one frame duration (1/30 s); {gap:.2f} ms; {len(ours)} transitions",
                      samples={"vpk_gaps_ms": ours})
    bench.results.add("playlist frame interval within an entry (two frames' reports)", clip,
                      median(within), "ms", "<=", None,
                      note=f"not a target: what reports make of one frame duration; {median(within):.2f} ms, "
                           f"{len(within)} intervals", samples={"vpk_intervals_ms": within})
    told_gap, mpv_told_gap = median(told), median(mpv_told)
    bench.results.add("playlist transition gap vs mpv, as told (last frame's report → next entry's first)", clip,
                      told_gap, "ms", "<=", 0.5, peer=mpv_told_gap, peer_name="mpv", ratio=told_gap / mpv_told_gap,
                      note="mpv: its last time-pos to its playback-restart",
                      samples={"vpk_gaps_ms": told, "mpv_gaps_ms": mpv_told})
    bench.results.add("playlist next entry's first frame on screen, as told (its report → the next frame's)", clip,
                      median(first), "ms", "<=", None, peer=median(mpv_first), peer_name="mpv",
                      note="not a target: mpv's runs from its playback-restart",
                      samples={"vpk_ms": first, "mpv_ms": mpv_first})
    bench.results.add("playlist transition gap read from each player's clock, vs mpv", clip, gap, "ms", "<=", None,
                      peer=mpv_gap, peer_name="mpv", ratio=gap / mpv_gap,
                      note="not a target: mpv's clock starts before its first frame is shown", samples=samples)
    bench.results.add("playlist transition as told, nothing opened ahead (--frame-cache 0)", clip, median(plain),
                      "ms", "<=", None, note="not a target: what opening the next entry ahead saves",
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

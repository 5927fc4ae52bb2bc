#!/usr/bin/env python3
"""Measures vpk against ffmpeg, ffprobe and mpv on the same files in the same run (issue 4).

Run it through scripts/bench, which installs the tools and builds vpk first. Python 3 standard library only.
Each figure alternates the programs it compares (A B A B …), reports medians and the ratio of each pair, and
checks the target. Results: a table on stdout, .build/bench/results.json and .build/bench/results.md.
"""

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import types

import bench_playlist

# --------------------------------------------------------------------------------------------------------------
# Media: deterministic lavfi sources, made once and cached under names that carry the recipe.

CLIPS = {
    # name: (file name, ffmpeg arguments after the inputs, description)
    "h264": (
        "h264-1080p30-gop250-60s.mp4",
        ["-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30:duration=60",
         "-f", "lavfi", "-i", "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=60",
         "-map", "0:v", "-map", "1:a",
         "-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
         "-bf", "3", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart"],
        "1920x1080 30 fps 60 s H.264 (x264 veryfast, GOP 250, 3 B-frames) + AAC, MP4",
    ),
    "mpeg4": (
        "mpeg4-360p30-gop250-60s.mp4",
        ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30:duration=60",
         "-c:v", "mpeg4", "-g", "250", "-bf", "2", "-q:v", "4"],
        "640x360 30 fps 60 s MPEG-4 part 2 (GOP 250, 2 B-frames), MP4",
    ),
    "vp9": (
        "vp9-720p30-gop250-60s.webm",
        ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=60",
         "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-row-mt", "1", "-threads", "1",
         "-g", "250", "-b:v", "2M"],
        "1280x720 30 fps 60 s VP9 (libvpx realtime, GOP 250), WebM",
    ),
}

# Exact/keyframe scrub targets (seconds): mid-GOP for a 250-frame GOP at 30 fps (keyframes every 8.333 s),
# 52 to 214 frames after their keyframe. 37.3 s is the reference target.
SCRUB_TARGETS = [37.3, 5.5, 12.1, 18.4, 22.2, 29.6, 45.9, 48.8, 53.7]


LIVE = set()  # sessions still running, ended on the way out (an interrupted run leaves nothing behind)


def log(message):
    print(message, file=sys.stderr, flush=True)


def make_media(directory, names):
    os.makedirs(directory, exist_ok=True)
    paths = {}
    for name in names:
        file_name, arguments, _ = CLIPS[name]
        path = os.path.join(directory, file_name)
        if not os.path.exists(path) or os.path.getsize(path) == 0:
            log(f"bench: making {path}")
            temporary = f"{path}.{os.getpid()}.tmp{os.path.splitext(path)[1]}"
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *arguments, temporary]
            if subprocess.run(command, stdin=subprocess.DEVNULL).returncode != 0:
                sys.exit(f"bench: ffmpeg could not make {path}")
            os.replace(temporary, path)
        paths[name] = path
    return paths


def probe_duration(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
        capture_output=True, text=True, check=True).stdout
    return float(out.strip())


# --------------------------------------------------------------------------------------------------------------
# Process measurements

def now_ns():
    return time.monotonic_ns()


CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def cpu_ticks_ns(pid):
    """utime + stime of the whole process, threads that ended included (clock-tick resolution)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1_000_000_000 // CLOCK_TICK


class ThreadCPU:
    """Nanosecond CPU time of a process, from /proc/PID/task/*/schedstat, polled so that threads that end on the
    way (idle Dispatch workers do) still count up to their last poll. Also counts voluntary context switches
    (wakeups)."""

    def __init__(self, pid):
        self.pid = pid
        self.first = {}
        self.last = {}
        self.poll(initial=True)

    def poll(self, initial=False):
        try:
            tasks = os.listdir(f"/proc/{self.pid}/task")
        except FileNotFoundError:
            return
        for task in tasks:
            try:
                with open(f"/proc/{self.pid}/task/{task}/schedstat") as f:
                    runtime = int(f.read().split()[0])
                with open(f"/proc/{self.pid}/task/{task}/status") as f:
                    switches = next(int(l.split()[1]) for l in f if l.startswith("voluntary_ctxt_switches"))
            except (FileNotFoundError, ProcessLookupError, StopIteration, ValueError):
                continue
            if task not in self.first:
                self.first[task] = (runtime, switches) if initial else (0, 0)
            self.last[task] = (runtime, switches)

    def totals(self):
        """(CPU ns, wakeups, threads seen) since the first poll."""
        cpu = sum(self.last[t][0] - self.first[t][0] for t in self.last)
        wakeups = sum(self.last[t][1] - self.first[t][1] for t in self.last)
        return cpu, wakeups, len(self.last)


def rss_kb(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def run_timed(command):
    """Runs a command to its end: wall seconds, CPU seconds, peak RSS in KiB (wait4's rusage)."""
    start = now_ns()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = (now_ns() - start) / 1e9
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} exited with {process.returncode}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "maxrss_kb": usage.ru_maxrss}


class Lines:
    """Reads lines from a file descriptor on a thread of its own and timestamps each when it arrives."""

    def __init__(self, fd, hook=None):
        self.fd = fd
        self.hook = hook  # called on the reader thread with each parsed object; its result is kept with it
        self.items = []  # (arrival ns, object, hook result)
        self.cursor = 0
        self.closed = False
        self.condition = threading.Condition()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        pending = b""
        while True:
            try:
                data = os.read(self.fd, 1 << 16)
            except OSError:
                data = b""
            arrival = now_ns()
            if not data:
                with self.condition:
                    self.closed = True
                    self.condition.notify_all()
                return
            pending += data
            *complete, pending = pending.split(b"\n")
            parsed = []
            for line in complete:
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                parsed.append((arrival, obj, self.hook(obj) if self.hook else None))
            if parsed:
                with self.condition:
                    self.items.extend(parsed)
                    self.condition.notify_all()

    def expect(self, predicate, timeout=120.0, what="event"):
        """Returns the first (arrival, object, hook result) after the cursor that matches, and moves past it."""
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                while self.cursor < len(self.items):
                    item = self.items[self.cursor]
                    self.cursor += 1
                    if predicate(item[1]):
                        return item
                if self.closed:
                    raise RuntimeError(f"stream closed while waiting for {what}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RuntimeError(f"timed out waiting for {what}")
                self.condition.wait(remaining)


class VPK:
    """A `vpk play FILE --json` session with stdin a pipe."""

    def __init__(self, binary, path, *options, hook=None):
        self.start_ns = now_ns()
        self.process = subprocess.Popen([binary, "play", *([path] if path else []), "--json", *options],
                                        stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.pid = self.process.pid
        LIVE.add(self.process)
        self.events = Lines(self.process.stdout.fileno(), (lambda event: hook(self, event)) if hook else None)
        self.last_id = 0

    def send(self, *commands):
        """Writes the commands in one write; returns (id of the last, ns just before the write)."""
        data = "".join(command + "\n" for command in commands).encode()
        self.last_id += len(commands)
        written_at = now_ns()
        view = memoryview(data)
        while view:
            view = view[os.write(self.process.stdin.fileno(), view):]
        return self.last_id, written_at

    def expect(self, name, command_id=None, timeout=120.0):
        def match(event):
            if event.get("event") == "error" and event.get("id") == command_id and command_id is not None:
                raise RuntimeError(f"vpk answered command #{command_id} with {event}")
            return event.get("event") == name and (command_id is None or event.get("id") == command_id)
        return self.events.expect(match, timeout, f"vpk {name} #{command_id}")

    def scrub(self, target, mode="exact"):
        """One scrub; latency in ms from the write to the `seeked` line, and the engine's own ms."""
        command_id, written = self.send(f"scrub {target:.3f} {mode}")
        arrival, event, _ = self.expect("seeked", command_id)
        return (arrival - written) / 1e6, event.get("ms")

    def close(self):
        try:
            self.send("quit")
            self.process.stdin.close()
            self.process.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        LIVE.discard(self.process)


class MPV:
    """An idle mpv with its JSON IPC on a unix socket, a file loaded and paused."""

    def __init__(self, path, directory):
        self.socket_path = os.path.join(directory, f"mpv-{os.getpid()}-{id(self)}.sock")
        self.process = subprocess.Popen(
            ["mpv", "--no-config", "--idle=yes", f"--input-ipc-server={self.socket_path}", "--vo=null",
             "--ao=null", "--no-audio", "--pause", "--keep-open=always", "--really-quiet", "--no-terminal"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        LIVE.add(self.process)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.socket.connect(self.socket_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError("mpv's IPC socket did not appear")
                time.sleep(0.01)
        self.events = Lines(self.socket.fileno())
        self.request = 0
        self.command("loadfile", path)
        self.expect_event("playback-restart", timeout=60)

    def command(self, *arguments):
        self.request += 1
        data = (json.dumps({"command": list(arguments), "request_id": self.request}) + "\n").encode()
        written_at = now_ns()
        self.socket.sendall(data)
        return written_at

    def expect_event(self, name, timeout=120.0):
        return self.events.expect(lambda e: e.get("event") == name, timeout, f"mpv {name}")

    def seek(self, target, flags):
        written = self.command("seek", target, flags)
        arrival, _, _ = self.expect_event("playback-restart")
        return (arrival - written) / 1e6

    def close(self):
        try:
            self.command("quit")
            self.process.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        LIVE.discard(self.process)
        self.socket.close()
        try:
            os.unlink(self.socket_path)
        except FileNotFoundError:
            pass

class IPCClient:
    """A client of mpv's JSON IPC on a unix socket: the same code drives mpv and vpk (whose control socket speaks
    mpv's dialect to a connection whose first line is mpv's)."""

    def __init__(self, socket_path, timeout=20):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.socket.connect(socket_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{socket_path} did not accept a connection")
                time.sleep(0.01)
        self.events = Lines(self.socket.fileno())
        self.request = 0

    def command(self, *arguments):
        """Sends one request; returns (its request_id, ns just before the write)."""
        self.request += 1
        data = (json.dumps({"command": list(arguments), "request_id": self.request}) + "\n").encode()
        written_at = now_ns()
        self.socket.sendall(data)
        return self.request, written_at

    def reply(self, request_id, timeout=120.0):
        arrival, reply, _ = self.events.expect(lambda e: e.get("request_id") == request_id, timeout,
                                               f"reply {request_id}")
        if reply.get("error") != "success":
            raise RuntimeError(f"request {request_id} answered {reply}")
        return arrival, reply

    def expect_event(self, name, timeout=120.0):
        return self.events.expect(lambda e: e.get("event") == name, timeout, name)

    def round_trip(self, *arguments):
        """ms from the write to the reply."""
        request_id, written = self.command(*arguments)
        arrival, _ = self.reply(request_id)
        return (arrival - written) / 1e6

    def seek(self, target, flags):
        """ms from the write to `playback-restart` (the frame is shown)."""
        _, written = self.command("seek", target, flags)
        arrival, _, _ = self.expect_event("playback-restart")
        return (arrival - written) / 1e6

    def close(self):
        self.socket.close()


class VPKDaemon:
    """`vpk play FILE --socket PATH` with standard input at /dev/null, as a daemon runs."""

    def __init__(self, binary, path, socket_path, *options):
        self.socket_path = socket_path
        self.process = subprocess.Popen([binary, "play", path, "--socket", socket_path, *options],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        LIVE.add(self.process)

    def close(self):
        try:
            client = IPCClient(self.socket_path, timeout=5)
            client.command("quit")
            self.process.wait(timeout=20)
            client.close()
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        LIVE.discard(self.process)


class MPVIPCDaemon:
    """An idle mpv with its JSON IPC on a unix socket, the same options as MPV's."""

    def __init__(self, socket_path):
        self.socket_path = socket_path
        self.process = subprocess.Popen(
            ["mpv", "--no-config", "--idle=yes", f"--input-ipc-server={socket_path}", "--vo=null",
             "--ao=null", "--no-audio", "--pause", "--keep-open=always", "--really-quiet", "--no-terminal"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.pid = self.process.pid
        LIVE.add(self.process)

    def close(self):
        try:
            client = IPCClient(self.socket_path, timeout=5)
            client.command("quit")
            self.process.wait(timeout=20)
            client.close()
        except (OSError, RuntimeError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        LIVE.discard(self.process)


class SocketClient:
    """A client of `vpk play --socket PATH`: JSON lines both ways, text commands numbered by this client (each client's
    commands have ids of its own, from 1)."""

    def __init__(self, path, timeout=60.0):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.socket.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"vpk's control socket {path} did not appear")
                time.sleep(0.01)
        self.events = Lines(self.socket.fileno())
        # vpk writes nothing before a client's first line; `format json` (no command) is answered by `hello`.
        self.socket.sendall(b"format json\n")
        self.events.expect(lambda e: e.get("event") == "hello", timeout, "vpk hello")
        self.last_id = 0

    def send(self, *commands):
        data = "".join(command + "\n" for command in commands).encode()
        self.last_id += len(commands)
        written_at = now_ns()
        self.socket.sendall(data)
        return self.last_id, written_at

    expect = VPK.expect
    scrub = VPK.scrub

    def close(self):
        self.socket.close()


# --------------------------------------------------------------------------------------------------------------
# Results

def median(values):
    return statistics.median(values) if values else None


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


class Results:
    def __init__(self):
        self.rows = []

    def add(self, figure, clip, vpk, unit, target_op, target_value, peer=None, peer_name=None, ratio=None,
            value=None, note="", samples=None):
        """value: what the target is checked on (the ratio when there is a peer)."""
        checked = ratio if value is None else value
        if checked is None or target_value is None:
            passed = None
        elif target_op == "<=":
            passed = checked <= target_value
        else:
            passed = abs(checked) <= target_value
        row = {"figure": figure, "clip": clip, "vpk": vpk, "unit": unit, "peer_name": peer_name, "peer": peer,
               "ratio": ratio, "value": checked, "target": f"{target_op} {target_value:g}" if target_value is not None else "(extra)", "pass": passed,
               "note": note, "samples": samples or {}}
        self.rows.append(row)
        log(f"bench: {format_row(row)}")
        return row


def fmt(value, unit):
    if value is None:
        return "—"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "ms":
        return f"{value:.1f} ms" if value >= 1 else f"{value:.2f} ms"
    if unit == "MiB":
        return f"{value:.1f} MiB"
    if unit == "%":
        return f"{value:+.2f} %"
    return f"{value:g} {unit}".strip()


def format_row(row):
    peer = f"{row['peer_name']} {fmt(row['peer'], row['unit'])}" if row["peer_name"] else ""
    ratio = f"{row['ratio']:.3f}" if row["ratio"] is not None else ""
    result = {True: "pass", False: "FAIL", None: "n/a"}[row["pass"]]
    return (f"{row['figure']} | {row['clip']} | {fmt(row['vpk'], row['unit'])} | {peer} | {ratio} | "
            f"{row['target']} | {result}{' — ' + row['note'] if row['note'] else ''}")


def markdown_table(rows):
    lines = ["| figure | clip | vpk | peer | ratio | target | result |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for row in rows:
        cells = format_row(row).split(" | ")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------------------
# Figures

class Bench:
    def __init__(self, options, media):
        self.options = options
        self.media = media
        self.vpk = options.vpk
        self.results = Results()
        self.durations = {name: probe_duration(path) for name, path in media.items()}
        self.socket_dir = tempfile.mkdtemp(prefix="vpk-bench-")
        self.throughput_runs = {}

    def reps(self, full, quick):
        return quick if self.options.quick else full

    # decode throughput and memory -------------------------------------------------------------------------

    def throughput(self, clip):
        path = self.media[clip]
        commands = {
            "vpk": [self.vpk, "play", path, "--clock", "free", "--progress", "off", "--json"],
            "ffmpeg": ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "0", "-i", path,
                       "-map", "0:v", "-f", "null", "-"],
            "mpv": ["mpv", "--no-config", "--untimed", "--vo=null", "--ao=null", "--no-audio", "--really-quiet",
                    "--no-terminal", path],
        }
        for command in commands.values():  # warm the page cache and the loaders; not counted
            run_timed(command)
        runs = {name: [] for name in commands}
        names = list(commands)
        for rep in range(self.reps(5, 2)):
            order = names[rep % len(names):] + names[:rep % len(names)]  # A B C, B C A, …
            for name in order:
                runs[name].append(run_timed(commands[name]))
        self.throughput_runs[clip] = runs
        wall = {name: [r["wall"] for r in runs[name]] for name in names}
        vpk_time = median(wall["vpk"])
        for peer, target in (("ffmpeg", 1.02), ("mpv", 0.92)):
            peer_time = median(wall[peer])
            self.results.add(f"decode throughput vs {peer}", clip, vpk_time, "s", "<=", target, peer=peer_time,
                             peer_name=peer, ratio=vpk_time / peer_time,
                             note=f"CPU {median([r['cpu'] for r in runs['vpk']]):.2f} s vs "
                                  f"{median([r['cpu'] for r in runs[peer]]):.2f} s",
                             samples={"vpk": wall["vpk"], peer: wall[peer]})
        rss = {name: [r["maxrss_kb"] / 1024 for r in runs[name]] for name in names}
        vpk_rss, ffmpeg_rss = median(rss["vpk"]), median(rss["ffmpeg"])
        self.results.add("memory (peak RSS, whole file)", clip, vpk_rss, "MiB", "<=", 1.0, peer=ffmpeg_rss,
                         peer_name="ffmpeg", ratio=vpk_rss / ffmpeg_rss,
                         note=f"mpv {median(rss['mpv']):.1f} MiB", samples=rss)

    # scrubs -------------------------------------------------------------------------------------------------

    def targets(self, clip):
        duration = self.durations[clip]
        return [t for t in SCRUB_TARGETS if t < duration - 1]

    def scrubs(self, clip):
        path = self.media[clip]
        # Without the frame cache: the targets repeat in each round, and the cache would answer the repeats without
        # decoding. These figures measure decoding; the backsteps figure measures the cache.
        session = VPK(self.vpk, path, "--paused", "--progress", "off", "--frame-cache", "0")
        session.expect("ready", timeout=60)
        mpv = MPV(path, self.socket_dir)
        try:
            for mode, mpv_flags, figure, target_ratio in (
                    ("exact", "absolute+exact", "exact scrub latency", 0.8),
                    ("keyframe", "absolute+keyframes", "keyframe scrub latency", 1.0)):
                # One unmeasured seek each, so that both sessions have seeked once before.
                session.scrub(self.durations[clip] * 0.9, mode)
                mpv.seek(self.durations[clip] * 0.9, mpv_flags)
                ours, theirs, engine = [], [], []
                for rep in range(self.reps(3, 1)):
                    for index, target in enumerate(self.targets(clip)):
                        first_vpk = (rep + index) % 2 == 0
                        for turn in ((0, 1) if first_vpk else (1, 0)):
                            time.sleep(0.05)  # let the previous seek's read-ahead settle
                            if turn == 0:
                                latency, engine_ms = session.scrub(target, mode)
                                ours.append(latency)
                                engine.append(engine_ms)
                            else:
                                theirs.append(mpv.seek(target, mpv_flags))
                ratio = median(ours) / median(theirs)
                self.results.add(f"{figure} (median of {len(ours)})", clip, median(ours), "ms", "<=", target_ratio,
                                 peer=median(theirs), peer_name="mpv", ratio=ratio,
                                 note=f"vpk's own ms {median(engine):.1f}; ratio of medians",
                                 samples={"vpk": ours, "mpv": theirs, "vpk_engine_ms": engine})
                if mode == "exact":
                    exact_median = median(ours)
            self.forward(clip, session, mpv)
            self.burst(clip, session, exact_median)
        finally:
            session.close()
            mpv.close()

    def forward(self, clip, session, mpv):
        """Not one of the issue's figures: an exact scrub 1 s forward from the last, inside the same GOP (the
        common case of dragging a slider forward), where vpk decodes on instead of seeking back."""
        ours, theirs = [], []
        for rep in range(self.reps(2, 1)):
            for index, target in enumerate(self.targets(clip)):
                for turn in ((0, 1) if (rep + index) % 2 == 0 else (1, 0)):
                    time.sleep(0.05)
                    if turn == 0:
                        session.scrub(target)
                        time.sleep(0.05)
                        ours.append(session.scrub(target + 1.0)[0])
                    else:
                        mpv.seek(target, "absolute+exact")
                        time.sleep(0.05)
                        theirs.append(mpv.seek(target + 1.0, "absolute+exact"))
        self.results.add(f"forward exact scrub, +1 s in the GOP (median of {len(ours)})", clip, median(ours), "ms",
                         "<=", None, peer=median(theirs), peer_name="mpv", ratio=median(ours) / median(theirs),
                         note="extra: scrub to T, then to T + 1 s, the second timed",
                         samples={"vpk": ours, "mpv": theirs})

    def burst(self, clip, session, exact_median):
        duration = self.durations[clip]
        generator = random.Random(4 + len(clip))
        bursts, singles, answered = [], [], []
        for _ in range(self.reps(7, 3)):
            targets = [round(generator.uniform(0.5, duration - 1), 3) for _ in range(50)]
            session.scrub(1.0)
            time.sleep(0.05)
            first_id = session.last_id + 1
            last_id, written = session.send(*(f"scrub {t:.3f} exact" for t in targets))
            answers = 0
            while True:
                arrival, event, _ = session.events.expect(
                    lambda e: e.get("event") in ("seeked", "superseded", "error") and e.get("id", 0) >= first_id,
                    60, "burst answers")
                if event["event"] == "error":
                    raise RuntimeError(f"vpk answered a burst scrub with {event}")
                answers += 1
                if event["event"] == "seeked" and event["id"] == last_id:
                    break
            bursts.append((arrival - written) / 1e6)
            answered.append(answers)
            session.scrub(1.0)
            time.sleep(0.05)
            singles.append(session.scrub(targets[-1])[0])
        ratio = median(bursts) / median(singles)
        self.results.add("scrub burst (50 at once, to the last seeked)", clip, median(bursts), "ms", "<=", 1.5,
                         peer=median(singles), peer_name="one exact scrub to the same target", ratio=ratio,
                         note=f"answers per burst {min(answered)}–{max(answered)} of 50; median exact scrub "
                              f"{exact_median:.1f} ms",
                         samples={"burst": bursts, "single": singles})

    # ready --------------------------------------------------------------------------------------------------

    def ready(self, clip):
        path = self.media[clip]
        ours, theirs = [], []
        for rep in range(self.reps(10, 4)):
            for turn in ((0, 1) if rep % 2 == 0 else (1, 0)):
                if turn == 0:
                    session = VPK(self.vpk, path, "--paused", "--progress", "off")
                    arrival, _, _ = session.expect("ready", timeout=60)
                    ours.append((arrival - session.start_ns) / 1e6)
                    session.close()
                else:
                    theirs.append(run_timed(["ffprobe", "-v", "error", "-show_format", "-show_streams", path])["wall"]
                                  * 1e3)
        self.results.add("ready (process start to ready)", clip, median(ours), "ms", "<=", 0.8, peer=median(theirs),
                         peer_name="ffprobe", ratio=median(ours) / median(theirs),
                         samples={"vpk": ours, "ffprobe": theirs})

    # paused cost --------------------------------------------------------------------------------------------

    def paused(self, clips):
        """Every clip's paused vpk and paused mpv at once (all idle), 10 s each."""
        sessions = []
        for clip in clips:
            session = VPK(self.vpk, self.media[clip], "--paused", "--progress", "off")
            sessions.append((clip, session, MPV(self.media[clip], self.socket_dir)))
        for _, session, _ in sessions:
            session.expect("ready", timeout=60)
        time.sleep(1.0)  # settle: the frames decoded ahead after ready
        trackers = [(ThreadCPU(s.pid), cpu_ticks_ns(s.pid), ThreadCPU(m.pid)) for _, s, m in sessions]
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            time.sleep(0.1)
            for ours, _, theirs in trackers:
                ours.poll()
                theirs.poll()
        for (clip, session, mpv), (ours, ticks, theirs) in zip(sessions, trackers):
            cpu, wakeups, threads = ours.totals()
            mpv_cpu, mpv_wakeups, _ = theirs.totals()
            ticks_ms = (cpu_ticks_ns(session.pid) - ticks) / 1e6
            self.results.add("paused cost (CPU over 10 s)", clip, cpu / 1e6, "ms", "<=", 10, peer=mpv_cpu / 1e6,
                             peer_name="mpv", value=cpu / 1e6,
                             note=f"{wakeups} wakeups in {threads} threads (mpv {mpv_wakeups}); utime+stime "
                                  f"{ticks_ms:.0f} ms",
                             samples={"vpk_ms": cpu / 1e6, "mpv_ms": mpv_cpu / 1e6, "vpk_wakeups": wakeups,
                                      "mpv_wakeups": mpv_wakeups})
            session.close()
            mpv.close()

    # the control socket ------------------------------------------------------------------------------------------

    def socket_round_trips(self, clip):
        """The same session answering over its stdin and over its control socket, alternately (A B A B …): the round
        trip of `status`, and an exact scrub, each from the write to its reply line."""
        path = self.media[clip]
        socket_path = os.path.join(self.socket_dir, f"vpk-{clip}.sock")
        session = VPK(self.vpk, path, "--paused", "--progress", "off", "--frame-cache", "0", "--socket", socket_path)
        session.expect("ready", timeout=60)
        client = SocketClient(socket_path)
        try:
            def status(over):
                command_id, written = over.send("status")
                arrival, _, _ = over.expect("status", command_id)
                return (arrival - written) / 1e6
            for over in (session, client):  # warm both ways; not counted
                status(over)
            times = {"stdin": [], "socket": []}
            for rep in range(self.reps(400, 60)):
                for turn in (("stdin", "socket") if rep % 2 == 0 else ("socket", "stdin")):
                    times[turn].append(status(session if turn == "stdin" else client))
            ratio = median(times["socket"]) / median(times["stdin"])
            self.results.add(f"status round trip, socket vs stdin (median of {len(times['socket'])})", clip,
                             median(times["socket"]), "ms", "<=", 1.1, peer=median(times["stdin"]),
                             peer_name="stdin", ratio=ratio, note="the same session; ratio of medians",
                             samples=times)
            session.scrub(self.durations[clip] * 0.9)
            client.scrub(self.durations[clip] * 0.8)
            times = {"stdin": [], "socket": []}
            for rep in range(self.reps(3, 1)):
                for index, target in enumerate(self.targets(clip)):
                    for turn in (("stdin", "socket") if (rep + index) % 2 == 0 else ("socket", "stdin")):
                        time.sleep(0.05)  # let the previous seek's read-ahead settle
                        times[turn].append((session if turn == "stdin" else client).scrub(target)[0])
            ratio = median(times["socket"]) / median(times["stdin"])
            self.results.add(f"exact scrub, socket vs stdin (median of {len(times['socket'])})", clip,
                             median(times["socket"]), "ms", "<=", 1.1, peer=median(times["stdin"]),
                             peer_name="stdin", ratio=ratio,
                             note="the same session, no frame cache; ratio of medians", samples=times)
        finally:
            client.close()
            session.close()

    def idle_daemon(self):
        """`vpk play --idle --socket PATH` with standard input at /dev/null, as a service runs it: its CPU over 10 s
        (utime + stime from /proc/PID/stat, and the threads' nanoseconds), once it listens and has settled."""
        socket_path = os.path.join(self.socket_dir, "vpk-idle.sock")
        process = subprocess.Popen([self.vpk, "play", "--idle", "--socket", socket_path], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        LIVE.add(process)
        try:
            SocketClient(socket_path).close()  # it listens (and has served one client)
            time.sleep(1.0)
            ticks = cpu_ticks_ns(process.pid)
            threads = ThreadCPU(process.pid)
            deadline = time.monotonic() + 10.0
            while time.monotonic() < deadline:
                time.sleep(0.5)
                threads.poll()
            ticks_ms = (cpu_ticks_ns(process.pid) - ticks) / 1e6
            cpu, wakeups, count = threads.totals()
            rss = rss_kb(process.pid)
            # utime+stime counts in clock ticks (10 ms here): the threads' nanosecond clocks are checked too.
            checked = max(ticks_ms, cpu / 1e6)
            self.results.add("idle daemon (CPU over 10 s)", "-", ticks_ms, "ms", "<=", 5, value=checked,
                             note=f"utime+stime; {cpu / 1e6:.2f} ms by the threads' clocks (the larger is checked), "
                                  f"{wakeups} wakeups in {count} threads; RSS {rss / 1024:.1f} MiB",
                             samples={"ticks_ms": ticks_ms, "threads_ms": cpu / 1e6, "wakeups": wakeups,
                                      "rss_kb": rss})
        finally:
            process.terminate()
            process.wait()
            LIVE.discard(process)

    # playing cost and pacing --------------------------------------------------------------------------------

    def playing(self, clip):
        """Playing cost: CPU of `span` s of wall-clock playback against decoding the same span on the free clock,
        both at the default progress interval (1 s), nanosecond CPU from /proc/PID/task/*/schedstat. Pacing: in
        separate wall-clock runs with a progress event per frame (--progress 0.01), how each event's position keeps
        to the wall time it arrives at."""
        path = self.media[clip]
        span = min(20.0, self.durations[clip] - 2)

        def run(clock, progress):
            marks = {}

            def hook(session, event):
                kind = event.get("event")
                if kind == "ready" and "ready" not in marks:
                    marks["ready"] = ThreadCPU(session.pid)
                elif kind == "progress" and event.get("position", 0) >= span and "end" not in marks:
                    marks["ready"].poll()
                    marks["end"] = marks["ready"].totals()[0]
                return None

            session = VPK(self.vpk, path, "--clock", clock, "--progress", progress, hook=hook)
            session.expect("ready", timeout=60)
            session.events.expect(lambda e: e.get("event") == "progress" and e.get("position", 0) >= span,
                                  span + 60, "progress at the end of the span")
            status_id, _ = session.send("status")
            _, status, _ = session.expect("status", status_id)
            progress_events = [(t, e["position"]) for t, e, _ in session.events.items
                               if e.get("event") == "progress" and e["position"] <= span + 1e-6]
            session.close()
            return marks["end"] / 1e9, progress_events, status

        # Five pairs: the MPEG-4 clip's figures are ~0.15 s, and the free-clock runs (frame threads flat out) spread
        # by ±15 % between runs; three pairs left the median at the mercy of one run.
        wall_cpu, free_cpu = [], []
        for rep in range(self.reps(5, 1)):
            for clock in (("wall", "free") if rep % 2 == 0 else ("free", "wall")):
                cpu, _, _ = run(clock, "1")
                (free_cpu if clock == "free" else wall_cpu).append(cpu)
        ratio = median(wall_cpu) / median(free_cpu)
        self.results.add(f"playing cost ({span:g} s wall vs free)", clip, median(wall_cpu), "s", "<=", 1.10,
                         peer=median(free_cpu), peer_name="free clock", ratio=ratio,
                         note="CPU (schedstat) from ready to the progress event at the span's end; default progress "
                              "interval (1 s)",
                         samples={"wall": wall_cpu, "free": free_cpu})

        drifts, lateness_p99, engine_lateness, paced_cpu = [], [], [], []
        for rep in range(self.reps(2, 1)):
            cpu, progress, status = run("wall", "0.01")
            paced_cpu.append(cpu)
            # Each progress event is sent as its frame comes due. offset = arrival - position; lateness = offset
            # above the smallest offset (an upper bound: it includes the pipe and this reader); drift = how the
            # offset moved from the first second to the last.
            offsets = [(t / 1e9 - position, position) for t, position in progress if position >= 0.5]
            base = min(o for o, _ in offsets)
            late = [(o - base) * 1e3 for o, _ in offsets]
            head = [o for o, p in offsets if p < offsets[0][1] + 1]
            tail = [o for o, p in offsets if p > span - 1]
            drifts.append((median(tail) - median(head)) * 1e3)
            lateness_p99.append(percentile(late, 0.99))
            engine_lateness.append({k: v for k, v in status.items() if "late" in k or "drop" in k})
        drift = max(drifts, key=abs)
        self.results.add(f"pacing drift over {span:g} s", clip, drift, "ms", "abs<=", 10, value=drift,
                         note="progress position vs wall time, last second vs first; a progress event per frame "
                              f"(CPU {median(paced_cpu):.3f} s with them)",
                         samples={"drift": drifts, "cpu_with_progress_per_frame": paced_cpu})
        # vpk's own figure: `late_p99_ms` in status, how late frames came due on the wall clock.
        reported = [fields["late_p99_ms"] for fields in engine_lateness
                    if isinstance(fields.get("late_p99_ms"), (int, float))]
        engine_value = max(reported) if reported else None
        external = max(lateness_p99)
        self.results.add("pacing p99 frame lateness", clip, engine_value if engine_value is not None else external,
                         "ms", "<=", 4,
                         value=engine_value if engine_value is not None else external,
                         note=("vpk's status late_p99_ms (worst run)" if engine_value is not None else
                               "measured outside: this status reports no late_p99_ms")
                              + f"; progress events seen from outside (arrival, includes the pipe) {external:.2f} ms",
                         samples={"external_p99": lateness_p99, "status": engine_lateness})

    # mpv's JSON IPC: vpk's control socket against mpv's own, with the same client code ----------------------

    def mpv_ipc(self, clip):
        """Exact scrubs and `get_property time-pos` round trips through IPCClient against a vpk daemon and an mpv,
        alternating; then 64 clients observing time-pos against one while vpk plays on the wall clock."""
        path = self.media[clip]
        vpk_socket = os.path.join(self.socket_dir, f"vpk-{clip}.sock")
        mpv_socket = os.path.join(self.socket_dir, f"mpv-ipc-{clip}.sock")
        # No frame cache, as in the scrub figures: the targets repeat, and the cache would answer the repeats.
        daemon = VPKDaemon(self.vpk, path, vpk_socket, "--paused", "--progress", "off", "--frame-cache", "0")
        mpv = MPVIPCDaemon(mpv_socket)
        try:
            clients = {"vpk": IPCClient(vpk_socket), "mpv": IPCClient(mpv_socket)}
            clients["mpv"].command("loadfile", path)
            clients["mpv"].expect_event("playback-restart", timeout=60)
            clients["vpk"].round_trip("get_property", "duration")  # the file is open once this answers
            targets = [t for t in self.targets(clip)]
            for client in clients.values():  # warm: first seeks fill caches; not counted
                client.seek(self.durations[clip] * 0.9, "absolute+exact")
            scrubs = {"vpk": [], "mpv": []}
            for rep in range(self.reps(3, 1)):
                for target in targets:
                    for name in (("vpk", "mpv") if rep % 2 == 0 else ("mpv", "vpk")):
                        scrubs[name].append(clients[name].seek(target, "absolute+exact"))
            ratio = median(scrubs["vpk"]) / median(scrubs["mpv"])
            self.results.add("mpv IPC exact scrub", clip, median(scrubs["vpk"]), "ms", "<=", 0.9,
                             peer=median(scrubs["mpv"]), peer_name="mpv", ratio=ratio,
                             note="seek absolute+exact to playback-restart, the same client code on both sockets",
                             samples=scrubs)
            trips = {"vpk": [], "mpv": []}
            for rep in range(self.reps(1000, 200)):
                for name in (("vpk", "mpv") if rep % 2 == 0 else ("mpv", "vpk")):
                    trips[name].append(clients[name].round_trip("get_property", "time-pos"))
            ratio = median(trips["vpk"]) / median(trips["mpv"])
            self.results.add("mpv IPC get_property time-pos", clip, median(trips["vpk"]), "ms", "<=", 1.0,
                             peer=median(trips["mpv"]), peer_name="mpv", ratio=ratio,
                             note=f"round trip, write to reply; p99 vpk {percentile(trips['vpk'], 0.99):.3f} ms, "
                                  f"mpv {percentile(trips['mpv'], 0.99):.3f} ms",
                             samples=trips)
            for client in clients.values():
                client.close()
        finally:
            daemon.close()
            mpv.close()
        self.mpv_ipc_observers(clip)

    def mpv_ipc_observers(self, clip):
        """vpk playing on the wall clock for `span` s with 1, then 64 connected clients observing time-pos (a
        property-change per progress mark, --progress 0.04): vpk's CPU, and its own pacing p99 (status
        late_p99_ms, asked over a native connection at the end). Alternated with the same clients on two others, for
        what the extra clients cost without vpk: mpv playing the clip (its own time-pos changes, one a frame), and
        VPKWriteFloor, which only writes the same lines at the same marks through the same stack (SwiftNIO)."""
        path = self.media[clip]
        span = min(self.reps(15.0, 5.0), self.durations[clip] - 2)
        many = self.reps(64, 64)
        interval_ms = 40

        def observe(observers):
            for index, client in enumerate(observers):
                request_id, _ = client.command("observe_property", index + 1, "time-pos")
                client.reply(request_id)

        def changes_seen(observers):
            return min(sum(1 for _, e, _ in c.events.items if e.get("event") == "property-change") for c in observers)

        def play_span(pid, observers):
            """Unpauses through the first observer and waits until it is told time-pos >= span: the CPU of process
            `pid` meanwhile (s), and the fewest changes an observer saw."""
            first = observers[0]
            cpu = ThreadCPU(pid)
            request_id, _ = first.command("set_property", "pause", False)
            first.reply(request_id)
            first.events.expect(lambda e: e.get("event") == "property-change" and (e.get("data") or 0) >= span,
                                span + 60, "time-pos at the span's end")
            cpu.poll()
            return cpu.totals()[0] / 1e9, changes_seen(observers)

        def run_vpk(count):
            socket_path = os.path.join(self.socket_dir, f"vpk-observers-{clip}-{count}.sock")
            daemon = VPKDaemon(self.vpk, path, socket_path, "--paused", "--progress", str(interval_ms / 1000),
                               "--max-clients", str(count + 8))
            observers = [IPCClient(socket_path) for _ in range(count)]
            observe(observers)
            used, changes = play_span(daemon.pid, observers)
            native = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            native.connect(socket_path)
            lines = Lines(native.fileno())
            native.sendall(b"status\n")
            _, status, _ = lines.expect(lambda e: e.get("event") == "status", 30, "status")
            native.close()
            for client in observers:
                client.close()
            daemon.close()
            return used, status.get("late_p99_ms"), changes

        def run_mpv(count):
            socket_path = os.path.join(self.socket_dir, f"mpv-observers-{clip}-{count}.sock")
            mpv = MPVIPCDaemon(socket_path)
            observers = [IPCClient(socket_path) for _ in range(count)]
            first = observers[0]
            request_id, _ = first.command("loadfile", path)
            first.reply(request_id)
            first.expect_event("playback-restart", timeout=60)
            observe(observers)
            used, changes = play_span(mpv.pid, observers)
            for client in observers:
                client.close()
            mpv.close()
            return used, None, changes

        def run_floor(count):
            socket_path = os.path.join(self.socket_dir, f"floor-observers-{clip}-{count}.sock")
            marks = int(span * 1000 / interval_ms)
            process = subprocess.Popen([self.options.write_floor, socket_path, str(count), str(marks),
                                        str(interval_ms)], stdin=subprocess.DEVNULL)
            LIVE.add(process)
            observers = [IPCClient(socket_path) for _ in range(count)]
            first = observers[0]
            cpu = ThreadCPU(process.pid)
            first.socket.sendall(b"go\n")
            first.expect_event("floor-done", timeout=span + 60)
            cpu.poll()
            used = cpu.totals()[0] / 1e9
            changes = changes_seen(observers)
            first.socket.sendall(b"quit\n")
            process.wait(timeout=30)
            LIVE.discard(process)
            for client in observers:
                client.close()
            return used, None, changes

        programs = {"vpk": run_vpk, "floor": run_floor, "mpv": run_mpv}
        cpu = {name: {1: [], many: []} for name in programs}
        p99 = {1: [], many: []}
        changes = {name: {1: [], many: []} for name in programs}
        for rep in range(self.reps(3, 1)):
            for count in ((1, many) if rep % 2 == 0 else (many, 1)):
                order = list(programs)[rep % 3:] + list(programs)[:rep % 3]
                for name in order:
                    used, late, seen = programs[name](count)
                    cpu[name][count].append(used)
                    changes[name][count].append(seen)
                    if name == "vpk":
                        p99[count].append(late)
        one = {name: median(cpu[name][1]) for name in programs}
        extra = {name: median(cpu[name][many]) - one[name] for name in programs}
        ratio = median(cpu["vpk"][many]) / one["vpk"]
        self.results.add(f"mpv IPC {many} observers CPU ({span:g} s wall)", clip, median(cpu["vpk"][many]), "s", "<=",
                         1.2, peer=one["vpk"], peer_name="1 observer", ratio=ratio,
                         note=f"observe_property time-pos, a change every {interval_ms / 1000:g} s; each observer saw "
                              f"at least {min(changes['vpk'][many])} changes",
                         samples={"cpu": cpu, "changes": changes})
        # What the same extra clients cost with nothing of vpk's: the ratio vpk would have if each observer cost it
        # only what the floor's writes cost (the target's floor on this machine), and vpk's extra against that.
        self.results.add(f"mpv IPC {many} observers: the floor's writes on vpk's CPU", clip,
                         one["vpk"] + extra["floor"], "s", "<=", None, peer=one["vpk"], peer_name="1 observer (vpk)",
                         ratio=(one["vpk"] + extra["floor"]) / one["vpk"],
                         note=f"VPKWriteFloor (SwiftNIO, the same lines and marks, nothing else): "
                              f"{one['floor']:.3f} s with 1 client, {median(cpu['floor'][many]):.3f} s with {many}; "
                              f"vpk's extra {extra['vpk']:.3f} s is {extra['vpk'] / extra['floor']:.2f}x the floor's "
                              f"{extra['floor']:.3f} s")
        self.results.add(f"mpv IPC {many} observers CPU, mpv itself", clip, median(cpu["mpv"][many]), "s", "<=", None,
                         peer=one["mpv"], peer_name="1 observer", ratio=median(cpu["mpv"][many]) / one["mpv"],
                         note=f"mpv playing the clip (--vo=null, no audio), a change a frame: each observer saw at "
                              f"least {min(changes['mpv'][many])}; its extra {extra['mpv']:.3f} s is "
                              f"{extra['mpv'] / extra['floor']:.2f}x the floor's")
        worst = {count: max((v for v in values if v is not None), default=None) for count, values in p99.items()}
        if worst[1] is not None and worst[many] is not None:
            self.results.add(f"mpv IPC {many} observers pacing p99", clip, worst[many], "ms", "<=", 1.0,
                             peer=worst[1], peer_name="1 observer", value=worst[many] - worst[1],
                             note="status late_p99_ms, worst run each; the target is on the difference (ms)",
                             samples={"late_p99_ms": p99})

    # an mpv client's figures (issue 23): vpk started as an mpv stand-in against mpv, the same client code ----------

    def mpv_client_players(self, clip, name, cache=True):
        """The command lines of the two players as a client starts them (idle, the socket by mpv's option name)."""
        socket_path = os.path.join(self.socket_dir, f"client-{name}-{clip}.sock")
        if name == "vpk":
            command = [self.vpk, "play", "--idle", "--input-ipc-server", socket_path]
            if not cache:
                command += ["--frame-cache", "0"]
        else:
            command = ["mpv", "--idle=yes", "--vo=null", "--ao=null", "--no-config",
                       f"--input-ipc-server={socket_path}"]
        return command, socket_path

    @staticmethod
    def stop_player(client, process):
        try:
            client.command("quit")
            process.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        LIVE.discard(process)
        client.close()

    @staticmethod
    def client_seek(client, target, flags):
        """Sends `seek target flags` and waits for its reply and for `playback-restart` (in either order): ns from
        the write to the reply, and to playback-restart."""
        request_id, written = client.command("seek", target, flags)
        replied = restarted = None
        while replied is None or restarted is None:
            arrival, event, _ = client.events.expect(
                lambda e: e.get("request_id") == request_id or e.get("event") == "playback-restart", 120, "seek")
            if event.get("request_id") == request_id:
                if event.get("error") != "success":
                    raise RuntimeError(f"seek {target} {flags} answered {event}")
                replied = arrival
            else:
                restarted = arrival
        return replied - written, restarted - written

    @staticmethod
    def client_load(client, path):
        """loadfile, then pause once it has started: returns when the paused first frame is shown."""
        request_id, _ = client.command("loadfile", path)
        client.reply(request_id)
        client.expect_event("playback-restart", timeout=60)
        request_id, _ = client.command("set_property", "pause", True)
        client.reply(request_id)

    def mpv_client(self, clip):
        """Issue 23's figures, vpk (`vpk play --idle --input-ipc-server S`) against mpv (`mpv --idle=yes --vo=null
        --ao=null --no-config --input-ipc-server=S`), one client code (IPCClient) for both, alternating: a seek's
        reply latency (write to reply), an exact seek to playback-restart with vpk's frame cache off (cold), and a
        client's whole scenario (start the player, load, observe, 20 seeks, quit) as wall time."""
        path = self.media[clip]
        duration = self.durations[clip]
        players, clients = {}, {}
        try:
            for name in ("vpk", "mpv"):
                command, socket_path = self.mpv_client_players(clip, name, cache=False)
                players[name] = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL)
                LIVE.add(players[name])
                clients[name] = IPCClient(socket_path)
                self.client_load(clients[name], path)
                self.client_seek(clients[name], duration * 0.9, "absolute+exact")  # warm; not counted
            # (a) reply latency: `seek T absolute` (mpv's default precision, exact for absolute seeks) to spread
            # targets; each seek lands before the next is sent.
            generator = random.Random(23)
            replies = {"vpk": [], "mpv": []}
            for rep in range(self.reps(200, 40)):
                target = round(generator.uniform(0, duration - 1), 3)
                for name in (("vpk", "mpv") if rep % 2 == 0 else ("mpv", "vpk")):
                    replies[name].append(self.client_seek(clients[name], target, "absolute")[0] / 1e6)
            for label, fraction in (("median", 0.5), ("p95", 0.95)):
                vpk_value, mpv_value = percentile(replies["vpk"], fraction), percentile(replies["mpv"], fraction)
                if fraction == 0.5:
                    vpk_value, mpv_value = median(replies["vpk"]), median(replies["mpv"])
                self.results.add(f"mpv client seek reply, {label} of {len(replies['vpk'])}", clip, vpk_value, "ms",
                                 "<=", 1.0, peer=mpv_value, peer_name="mpv", ratio=vpk_value / mpv_value,
                                 note="write of `seek T absolute` to its reply over the JSON IPC socket",
                                 samples=replies if fraction == 0.5 else None)
            # (b) cold exact seeks to playback-restart on the scrub targets (mid-GOP).
            restarts = {"vpk": [], "mpv": []}
            for rep in range(self.reps(3, 1)):
                for target in self.targets(clip):
                    for name in (("vpk", "mpv") if rep % 2 == 0 else ("mpv", "vpk")):
                        restarts[name].append(self.client_seek(clients[name], target, "absolute+exact")[1] / 1e6)
            vpk_value, mpv_value = median(restarts["vpk"]), median(restarts["mpv"])
            self.results.add(f"mpv client exact seek to playback-restart, cold (median of {len(restarts['vpk'])})",
                             clip, vpk_value, "ms", "<=", 0.9, peer=mpv_value, peer_name="mpv",
                             ratio=vpk_value / mpv_value,
                             note=f"vpk --frame-cache 0, mpv's demuxer cache as default; p95 vpk "
                                  f"{percentile(restarts['vpk'], 0.95):.1f} ms, mpv "
                                  f"{percentile(restarts['mpv'], 0.95):.1f} ms",
                             samples=restarts)
        finally:
            for name, process in players.items():
                if name in clients:
                    self.stop_player(clients[name], process)
                else:
                    process.kill()
                    process.wait()
                    LIVE.discard(process)
        # (c) a client's whole scenario, from starting the player to its exit.
        targets = [round(t, 3) for t in random.Random(2023).sample(
            [duration * (i + 0.5) / 40 for i in range(40)], 20)]

        def scenario(name):
            command, socket_path = self.mpv_client_players(clip, name)
            started = now_ns()
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            LIVE.add(process)
            client = IPCClient(socket_path)
            try:
                self.client_load(client, path)
                request_id, _ = client.command("observe_property", 1, "time-pos")
                client.reply(request_id)
                client.events.expect(lambda e: e.get("event") == "property-change" and e.get("id") == 1, 30,
                                     "time-pos observed")
                for target in targets:
                    self.client_seek(client, target, "absolute")
                client.command("quit")
                process.wait(timeout=30)
            except BaseException:
                process.kill()
                process.wait()
                raise
            finally:
                LIVE.discard(process)
                client.close()
            return (now_ns() - started) / 1e9

        walls = {"vpk": [], "mpv": []}
        for rep in range(self.reps(5, 2)):
            for name in (("vpk", "mpv") if rep % 2 == 0 else ("mpv", "vpk")):
                walls[name].append(scenario(name))
        vpk_value, mpv_value = median(walls["vpk"]), median(walls["mpv"])
        self.results.add(f"mpv client scenario wall time (median of {len(walls['vpk'])})", clip, vpk_value, "s",
                         "<=", 1.0, peer=mpv_value, peer_name="mpv", ratio=vpk_value / mpv_value,
                         note="start the player, connect, loadfile, pause, observe time-pos, 20 `seek T absolute` "
                              "each to playback-restart, quit, to the exit; both with their default caches",
                         samples=walls)

    # long run -----------------------------------------------------------------------------------------------

    # backward steps and scrubs: the frame cache --------------------------------------------------------------

    def back_session(self, path, *options):
        session = VPK(self.vpk, path, "--paused", "--progress", "off", *options)
        session.expect("ready", timeout=60)
        return session

    @staticmethod
    def cache_counts(session):
        command_id, _ = session.send("status")
        _, status, _ = session.expect("status", command_id)
        return status.get("cache_hits", 0), status.get("cache_misses", 0)

    @staticmethod
    def vpk_back_steps(session, start, count=20):
        """Exact scrub to `start`, then `count` × `step -1`, each timed from the write to the `stepped` line."""
        session.scrub(start)
        hits, misses = Bench.cache_counts(session)
        times = []
        for _ in range(count):
            time.sleep(0.02)
            command_id, written = session.send("step -1")
            arrival, _, _ = session.expect("stepped", command_id)
            times.append((arrival - written) / 1e6)
        after = Bench.cache_counts(session)
        return times, (after[0] - hits, after[1] - misses)

    @staticmethod
    def mpv_back_steps(mpv, start, count=20):
        mpv.seek(start, "absolute+exact")
        times = []
        for _ in range(count):
            time.sleep(0.02)
            written = mpv.command("frame-back-step")
            arrival, _, _ = mpv.expect_event("playback-restart")
            times.append((arrival - written) / 1e6)
        return times

    def back_steps(self, clip):
        """The frame cache's issue figures: 20 `step -1` from mid-GOP against mpv's `frame-back-step` (steps 2..20),
        the first step against a session with the cache off (today's engine), and a backward exact scrub drag
        (targets 0.2 s apart moving left through the GOP) against mpv's exact seeks."""
        path = self.media[clip]
        start = 37.3 if self.durations[clip] > 40 else self.durations[clip] / 2
        drag = [round(start - 0.2 * k, 3) for k in range(1, 16)]
        cached, off, mpv_steps, first_cached, first_off = [], [], [], [], []
        step_counts = [0, 0]
        drag_ours, drag_theirs, drag_counts = [], [], [0, 0]
        for rep in range(self.reps(3, 1)):
            order = ["cached", "off", "mpv"]
            order = order[rep % 3:] + order[:rep % 3]
            for name in order:
                if name == "mpv":
                    mpv = MPV(path, self.socket_dir)
                    try:
                        mpv_steps += self.mpv_back_steps(mpv, start)[1:]
                        mpv.seek(start, "absolute+exact")
                        for target in drag:
                            time.sleep(0.02)
                            drag_theirs.append(mpv.seek(target, "absolute+exact"))
                    finally:
                        mpv.close()
                    continue
                session = self.back_session(path, *(["--frame-cache", "0"] if name == "off" else []))
                try:
                    times, counts = self.vpk_back_steps(session, start)
                    if name == "off":
                        first_off.append(times[0])
                        off += times[1:]
                        continue
                    first_cached.append(max(times))  # the step that decoded from the keyframe
                    cached += times[1:]
                    step_counts = [step_counts[0] + counts[0], step_counts[1] + counts[1]]
                finally:
                    session.close()
                # The drag in a session of its own: only the scrub to its start has decoded before it.
                session = self.back_session(path)
                try:
                    session.scrub(start)
                    hits, misses = self.cache_counts(session)
                    for target in drag:
                        time.sleep(0.02)
                        drag_ours.append(session.scrub(target)[0])
                    after = self.cache_counts(session)
                    drag_counts = [drag_counts[0] + after[0] - hits, drag_counts[1] + after[1] - misses]
                finally:
                    session.close()

        def rate(counts):
            total = counts[0] + counts[1]
            return f"cache hit rate {counts[0]}/{total}" if total else "no cache lookups"

        self.results.add("back-steps 2..20 (median)", clip, median(cached), "ms", "<=", 0.1, peer=median(mpv_steps),
                         peer_name="mpv frame-back-step", ratio=median(cached) / median(mpv_steps),
                         note=f"{rate(step_counts)} over steps 1..20; cache off: {median(off):.1f} ms",
                         samples={"vpk": cached, "mpv": mpv_steps, "vpk_cache_off": off})
        self.results.add("first back-step (the one that decodes)", clip, median(first_cached), "ms", "<=", 1.1,
                         peer=median(first_off + off), peer_name="vpk --frame-cache 0, every step",
                         ratio=median(first_cached) / median(first_off + off),
                         note="the slowest of each run's 20 steps, against today's steps (1.1: load noise)",
                         samples={"vpk": first_cached, "vpk_cache_off": first_off + off})
        self.results.add("backward exact scrub drag (median)", clip, median(drag_ours), "ms", "<=", 0.3,
                         peer=median(drag_theirs), peer_name="mpv exact seek",
                         ratio=median(drag_ours) / median(drag_theirs), note=rate(drag_counts),
                         samples={"vpk": drag_ours, "mpv": drag_theirs})

    # reverse playback ------------------------------------------------------------------------------------------

    def play_span(self, path, start, end, rate):
        """Plays from `start` to `end` at `rate` on the wall clock, with the default cache: CPU seconds (schedstat,
        polled at each progress event) from `play` to the `waited` of a position wait at `end`, the status there
        (late_p99_ms, cache counts), the peak RSS (VmHWM, KiB) and the start (ms from writing `play` to the `waited`
        of a position wait 0.1 s along, less 0.1 s: how long the clock stood before it moved)."""
        marks = {}

        def hook(session, event):
            if "cpu" in marks and event.get("event") == "progress":
                marks["cpu"].poll()
            return None

        session = VPK(self.vpk, path, "--paused", "--progress", "1", "--at-end", "pause", hook=hook)
        try:
            session.expect("ready", timeout=60)
            session.scrub(start)
            if rate != 1:
                rate_id, _ = session.send(f"rate {rate:g}")
                session.expect("rate", rate_id)
            marks["cpu"] = ThreadCPU(session.pid)
            _, played = session.send("play")
            along = start + 0.1 * (1 if rate > 0 else -1)
            first_id, _ = session.send(f"wait position {'<=' if rate < 0 else '>='} {along:.3f}")
            arrival, _, _ = session.expect("waited", first_id, timeout=120)
            started = (arrival - played) / 1e6 - 100 / abs(rate)
            wait_id, _ = session.send(f"wait position {'<=' if rate < 0 else '>='} {end:.3f}")
            session.expect("waited", wait_id, timeout=abs(end - start) / abs(rate) + 120)
            marks["cpu"].poll()
            cpu = marks["cpu"].totals()[0] / 1e9
            status_id, _ = session.send("status")
            _, status, _ = session.expect("status", status_id)
            peak = rss_kb(session.pid, "VmHWM")
        finally:
            session.close()
        return cpu, status, peak, started

    def reverse(self, clip):
        """Reverse playback at rate -1 on the wall clock over `span` s of media (from 40 s down to 20 s on the 60 s
        clips, across two keyframes of the 250-frame GOP), against playing the same span forward: the p99 lateness
        vpk's status reports (target: one frame duration), the CPU cost against forward, the peak RSS and the cache's
        hit rate (frames queued from the cache against decode passes)."""
        path = self.media[clip]
        duration = self.durations[clip]
        span = min(20.0, duration - 2)
        high = min(40.0, duration - 1)
        low = high - span
        backward, forward = [], []
        for rep in range(self.reps(3, 1)):
            for direction in (("backward", "forward") if rep % 2 == 0 else ("forward", "backward")):
                if direction == "backward":
                    backward.append(self.play_span(path, high, low, -1))
                else:
                    forward.append(self.play_span(path, low, high, 1))
        frame_ms = 1000 / 30
        late = [status.get("late_p99_ms") for _, status, _, _ in backward]
        late = [value for value in late if isinstance(value, (int, float))]
        worst = max(late) if late else None
        cpu_back = median([cpu for cpu, _, _, _ in backward])
        cpu_fwd = median([cpu for cpu, _, _, _ in forward])
        hits = sum(status.get("cache_hits", 0) for _, status, _, _ in backward)
        misses = sum(status.get("cache_misses", 0) for _, status, _, _ in backward)
        peak_back = max(peak for _, _, peak, _ in backward)
        peak_fwd = max(peak for _, _, peak, _ in forward)
        self.results.add(f"reverse playback p99 lateness ({span:g} s at rate -1)", clip, worst, "ms", "<=", frame_ms,
                         value=worst,
                         note=f"vpk's status late_p99_ms, worst of {len(backward)} runs; forward: "
                              + ", ".join(f"{status.get('late_p99_ms')}" for _, status, _, _ in forward)
                              + "; start (clock held for the first pass), ms: "
                              + ", ".join(f"{started:.0f}" for _, _, _, started in backward)
                              + " (forward: " + ", ".join(f"{started:.0f}" for _, _, _, started in forward) + ")",
                         samples={"backward": late,
                                  "forward": [status.get("late_p99_ms") for _, status, _, _ in forward],
                                  "backward_start_ms": [started for _, _, _, started in backward],
                                  "forward_start_ms": [started for _, _, _, started in forward]})
        self.results.add("reverse playback CPU (vs forward)", clip, cpu_back, "s", "<=", None, peer=cpu_fwd,
                         peer_name="forward, same span", ratio=cpu_back / cpu_fwd,
                         note=f"cache hit rate {hits}/{hits + misses} (frames taken from the cache / those plus decode passes); "
                              f"peak RSS {peak_back / 1024:.0f} MiB backward, {peak_fwd / 1024:.0f} MiB forward "
                              "(default 256 MiB cache)",
                         samples={"backward_cpu": [cpu for cpu, _, _, _ in backward],
                                  "forward_cpu": [cpu for cpu, _, _, _ in forward],
                                  "backward_hwm_kb": [peak for _, _, peak, _ in backward],
                                  "forward_hwm_kb": [peak for _, _, peak, _ in forward],
                                  "cache_hits": hits, "cache_misses": misses})

    def long_run(self, clip):
        count = self.options.long_scrubs or self.reps(2000, 300)
        duration = self.durations[clip]
        generator = random.Random(2000)
        session = VPK(self.vpk, self.media[clip], "--paused", "--clock", "free", "--progress", "off",
                      "--at-end", "pause")
        session.expect("ready", timeout=60)
        after_100 = None
        started = time.monotonic()
        for index in range(count):
            mode = "exact" if index % 2 == 0 else "keyframe"
            session.scrub(round(generator.uniform(0, duration), 3), mode)
            if index + 1 == 100:
                after_100 = rss_kb(session.pid)
        play_id, _ = session.send("play")
        session.expect("ended", timeout=600)
        at_end = rss_kb(session.pid)
        peak = rss_kb(session.pid, "VmHWM")
        session.close()
        growth = (at_end / after_100 - 1) * 100
        self.results.add(f"long run ({count} scrubs, then play to the end)", clip, growth, "%", "<=", 5,
                         value=growth,
                         note=f"RSS {after_100 / 1024:.1f} MiB after 100 scrubs, {at_end / 1024:.1f} MiB at the end, "
                              f"peak {peak / 1024:.1f} MiB; {time.monotonic() - started:.0f} s",
                         samples={"rss_after_100_kb": after_100, "rss_end_kb": at_end, "hwm_kb": peak})


    # a test farm's memory ---------------------------------------------------------------------------------

    def farm(self, clip):
        """Peak RSS of `vpk test --jobs 4` over four scripts that scrub 60 targets each (the run's one frame cache
        budget divided among the jobs), against 4 × the peak RSS of one of those scripts alone with the cache off."""
        path = self.media[clip]
        duration = self.durations[clip]
        folder = tempfile.mkdtemp(prefix="vpk-bench-farm-")
        try:
            scripts = []
            for index in range(4):
                generator = random.Random(1000 + index)
                lines = [f"open {path}", "pause"]
                lines += [f"scrub {generator.uniform(0, duration - 1):.3f} exact" for _ in range(60)]
                script = os.path.join(folder, f"scrub{index + 1}.vpk")
                with open(script, "w") as f:
                    f.write("\n".join(lines) + "\n")
                scripts.append(script)
            test = [self.vpk, "test", "--json", "--progress", "off"]
            reps = self.reps(3, 1)
            farm = [run_timed(test + ["--jobs", "4"] + scripts)["maxrss_kb"] / 1024 for _ in range(reps)]
            alone = [run_timed(test + ["--jobs", "1", "--frame-cache", "0", scripts[0]])["maxrss_kb"] / 1024
                     for _ in range(reps)]
            jobs4, one = median(farm), median(alone)
            # The run's default budget, as vpk test reckons it: 1/16 of physical memory, at most 256 MiB. Four jobs
            # in one process should cost no more than four cacheless jobs plus that one budget.
            budget = min(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 16, 256 << 20) / (1 << 20)
            target = round(1 + budget / (4 * one), 2)
            self.results.add("memory (peak RSS, vpk test --jobs 4 over 4 scrub scripts)", clip, jobs4, "MiB", "<=",
                             target, peer=4 * one, peer_name="4 × one job, cache off", ratio=jobs4 / (4 * one),
                             note=f"one job with the cache off {one:.1f} MiB; budget {budget:.0f} MiB; "
                                  f"60 exact scrubs a script",
                             samples={"jobs4": farm, "one_job_cache_off": alone, "budget_mib": budget})
        finally:
            shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------------------------------------------

FIGURES = ["throughput", "scrubs", "ready", "paused", "playing", "longrun", "backsteps", "socket", "mpvipc",
           "mpvclient", "reverse", "farm", "playlist"]


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpus": os.cpu_count(), "nproc": int(subprocess.run(["nproc"], capture_output=True, text=True).stdout),
            "model": model, "kernel": platform.release(), "load_average": os.getloadavg()}


def versions(vpk):
    def first_line(command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "unknown"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    commit = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip()
    return {"vpk": first_line([vpk, "--version"]) + (f" ({commit})" if commit else ""),
            "ffmpeg": first_line(["ffmpeg", "-version"]), "mpv": first_line(["mpv", "--version"])}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vpk", required=True, help="the vpk binary (release build)")
    parser.add_argument("--write-floor", help="the VPKWriteFloor binary (release build), for the mpvipc figures")
    parser.add_argument("--media", required=True, help="folder for the generated clips")
    parser.add_argument("--out", required=True, help="folder for results.json and results.md")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and a shorter long run (~5 min)")
    parser.add_argument("--clips", default=",".join(CLIPS), help=f"comma-separated, of {','.join(CLIPS)}")
    parser.add_argument("--figures", default=",".join(FIGURES), help=f"comma-separated, of {','.join(FIGURES)}")
    parser.add_argument("--long-scrubs", type=int, default=0, help="scrubs in the long run (default 2000, quick 300)")
    options = parser.parse_args()
    clips = [c for c in options.clips.split(",") if c]
    figures = [f for f in options.figures.split(",") if f]
    for name in clips:
        if name not in CLIPS:
            parser.error(f"unknown clip {name}; known: {', '.join(CLIPS)}")
    for name in figures:
        if name not in FIGURES:
            parser.error(f"unknown figure {name}; known: {', '.join(FIGURES)}")
    if "mpvipc" in figures and not (options.write_floor and os.access(options.write_floor, os.X_OK)):
        parser.error("the mpvipc figures need --write-floor, the VPKWriteFloor binary (scripts/bench builds it)")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if set(figures) <= {"playlist"}:
        clips = []  # the playlist figures make clips of their own
    media = make_media(options.media, clips)
    started = datetime.datetime.now(datetime.timezone.utc)
    info = {"date": started.isoformat(timespec="seconds"), "machine": machine(), "versions": versions(options.vpk),
            "quick": options.quick, "clips": {name: CLIPS[name][2] for name in clips}}
    log(f"bench: {info['machine']['nproc']} × {info['machine']['model']}, load {info['machine']['load_average']}")
    bench = Bench(options, media)
    try:
        for clip in clips:
            if "throughput" in figures:
                bench.throughput(clip)
            if "ready" in figures:
                bench.ready(clip)
            if "scrubs" in figures:
                bench.scrubs(clip)
            if "playing" in figures:
                bench.playing(clip)
            if "backsteps" in figures:
                bench.back_steps(clip)
            if "socket" in figures:
                bench.socket_round_trips(clip)
            if "mpvipc" in figures:
                bench.mpv_ipc(clip)
            if "mpvclient" in figures:
                bench.mpv_client(clip)
            if "reverse" in figures:
                bench.reverse(clip)
            if "farm" in figures:
                bench.farm(clip)
        if "paused" in figures:
            bench.paused(clips)
        if "socket" in figures:
            bench.idle_daemon()
        if "playlist" in figures:
            # Its own clips (three 1080p H.264 of 5 s, scripts/bench_playlist.py), whatever --clips says.
            bench_playlist.playlist(bench, types.SimpleNamespace(
                VPK=VPK, Lines=Lines, now_ns=now_ns, median=median, log=log, rss_kb=rss_kb, LIVE=LIVE))
        if "longrun" in figures:
            for clip in clips:
                bench.long_run(clip)
    finally:
        for process in list(LIVE):
            process.kill()
            process.wait()
        shutil.rmtree(bench.socket_dir, ignore_errors=True)
        os.makedirs(options.out, exist_ok=True)
        info["load_average_end"] = os.getloadavg()
        info["seconds"] = round((datetime.datetime.now(datetime.timezone.utc) - started).total_seconds())
        rows = sorted(bench.results.rows, key=lambda r: (FIGURE_ORDER(r["figure"]),
                                                         list(CLIPS).index(r["clip"]) if r["clip"] in CLIPS else -1))
        with open(os.path.join(options.out, "results.json"), "w") as f:
            json.dump({**info, "results": rows}, f, indent=1)
        table = markdown_table(rows)
        machine_line = (f"{info['date'][:10]}, {info['machine']['nproc']} × {info['machine']['model']}, "
                        f"load {info['machine']['load_average'][0]:.2f}→{info['load_average_end'][0]:.2f}, "
                        f"{'quick' if options.quick else 'full'} run, {info['seconds']} s")
        with open(os.path.join(options.out, "results.md"), "w") as f:
            f.write(machine_line + "\n\n" + table + "\n")
        print(machine_line)
        print(table)
        failed = [r for r in rows if r["pass"] is False]
        print(f"{len(rows) - len(failed)} of {len(rows)} figures meet their target; "
              f"results in {os.path.join(options.out, 'results.json')}")
    return 1 if failed else 0


def FIGURE_ORDER(figure):
    order = ["decode throughput vs ffmpeg", "decode throughput vs mpv", "exact scrub latency", "keyframe scrub", "forward exact scrub",
             "scrub burst",
             "ready", "paused", "playing", "pacing drift", "pacing p99", "memory (peak RSS, whole", "memory (peak RSS, vpk test",
             "long run", "back-steps",
             "first back-step", "backward exact scrub", "status round trip", "exact scrub, socket", "idle daemon",
             "mpv IPC", "mpv client", "reverse playback", "playlist"]
    for index, prefix in enumerate(order):
        if figure.startswith(prefix):
            return index
    return len(order)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Media mutation suite: runs vpk on mutated media files and checks that every run ends well.

From small clips of several codecs and containers (made once with ffmpeg's lavfi sources), it makes mutated
files (bit flips, zeroed, duplicated and swapped ranges, truncation, a wrong extension) and runs
`vpk play FILE --json --clock free --paused --at-end pause` on each with seeded random scrubs, skips and queries, then `play` to
the end. A run passes when, within a time limit, vpk exits 0 or 3 by itself (no signal), prints only valid JSON
lines ending in `shutdown`, ends in `ended` (exit 0) or with an `error` event (exit 3), answers every command once
the file is ready, keeps every reported position within the media, and writes nothing to stderr (so no sanitizer
report, Swift runtime trap or FFmpeg assertion).

Every file is made from the run's seed and its index alone, so `--seed S --only I` replays one file exactly. Failed
files are kept in the failures folder with their commands and a replay line.

Standard library only. Called by scripts/torture, which builds vpk and makes sure ffmpeg is there.
"""

import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# The clips mutated: (name, extension, ffmpeg output arguments, with audio). 2 s, tiny frames: fast to decode, so
# thousands of runs fit in minutes. Video from testsrc2, audio from a sine.
CLIPS = [
    ("h264-aac", "mp4", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "12", "-pix_fmt", "yuv420p",
                         "-c:a", "aac", "-b:a", "32k"], True),
    ("h264-faststart", "mp4", ["-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "50", "-pix_fmt",
                               "yuv420p", "-movflags", "+faststart"], False),
    ("hevc", "mkv", ["-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=15",
                     "-pix_fmt", "yuv420p"], False),
    ("vp9-opus", "webm", ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-g", "15", "-b:v",
                          "200k", "-c:a", "libopus", "-b:a", "32k"], True),
    ("av1", "mp4", ["-c:v", "libaom-av1", "-cpu-used", "8", "-usage", "realtime", "-g", "15", "-b:v", "100k"],
     False),
    ("mpeg2-mp2", "ts", ["-c:v", "mpeg2video", "-g", "12", "-bf", "2", "-c:a", "mp2", "-b:a", "64k"], True),
    ("mpeg4", "avi", ["-c:v", "mpeg4", "-g", "12", "-bf", "2", "-q:v", "6"], False),
    ("mjpeg", "mov", ["-c:v", "mjpeg", "-q:v", "8", "-pix_fmt", "yuvj420p"], False),
    ("theora-vorbis", "ogg", ["-c:v", "libtheora", "-g", "12", "-q:v", "5", "-c:a", "libvorbis", "-q:a", "2"],
     True),
    ("flv1", "flv", ["-c:v", "flv", "-g", "12", "-q:v", "6"], False),
    ("aac-only", "m4a", ["-vn", "-c:a", "aac", "-b:a", "32k"], True),
    ("flac-only", "flac", ["-vn", "-c:a", "flac"], True),
]

WRONG_EXTENSIONS = ["mp4", "mkv", "webm", "ts", "avi", "mov", "ogg", "flv", "m4a", "mp3", "wav", "png", "txt",
                    "h264", "mpg", ""]

# What counts as a report from a sanitizer or the runtime (any stderr output fails a run; these name the kind).
SANITIZER_MARKERS = ["AddressSanitizer", "LeakSanitizer", "ThreadSanitizer", "UndefinedBehaviorSanitizer",
                     "runtime error:"]
CRASH_MARKERS = ["Fatal error", "Assertion", "Segmentation", "Illegal instruction", "Aborted"]

STATES = {"idle", "loading", "playing", "paused", "ended"}

# FFmpeg's own messages at its "fatal" level (which its decoders also use for damage they survive, such as MJPEG's
# "No JPEG data found in image") reach stderr in vpk's default mode; they are counted, not failures.
FFMPEG_LINE = re.compile(r"^\[[\w:,.\- ]+ @ 0x[0-9a-f]+\] ")
# When the file given on the command line cannot be opened and stdout is not a terminal, vpk also says so in one
# line on stderr (docs/cli.md, "Exit status"): expected exactly once in a run whose session ended with "open failed".
OPEN_FAILED_LINE = re.compile(r"^vpk: .+ \([a-z_]+\)$")


def unexpected_stderr(text, stdout):
    """Whether stderr holds anything but FFmpeg's own lines and, for an open that failed, vpk's one line saying so."""
    lines = [line for line in text.splitlines() if line.strip() and not FFMPEG_LINE.match(line)]
    if len(lines) == 1 and OPEN_FAILED_LINE.match(lines[0]) and b'"reason":"open failed"' in stdout:
        return False
    return bool(lines)


def log(*parts):
    print("torture:", *parts, flush=True)


# MARK: - Clips


def make_clips(folder):
    """Makes the clips once (cached by name in `folder`); returns [(name, path, duration)]."""
    os.makedirs(folder, exist_ok=True)
    clips = []
    for name, extension, arguments, audio in CLIPS:
        path = os.path.join(folder, f"{name}.{extension}")
        if not os.path.exists(path):
            inputs = ["-f", "lavfi", "-i", "testsrc2=size=176x144:rate=25:duration=2"]
            maps = ["-map", "0:v"]
            if audio:
                inputs += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2"]
                maps = (["-map", "1:a"] if "-vn" in arguments else ["-map", "0:v", "-map", "1:a"])
            if "-vn" in arguments:
                arguments = [a for a in arguments if a != "-vn"]
            temporary = os.path.join(folder, f".{name}.tmp.{extension}")
            command = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + inputs + maps + \
                arguments + ["-shortest", temporary]
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"torture: ffmpeg could not make the {name} clip:\n{' '.join(command)}\n{result.stderr}")
            os.replace(temporary, path)
        clips.append((name, path, 2.0))
    return clips


# MARK: - Mutations


def mutate(data, rng):
    """Returns (mutated bytes, [descriptions]) with one to three mutations."""
    data = bytearray(data)
    done = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        if len(data) < 16:
            break
        kind = rng.choice(["flip", "flip", "zero", "duplicate", "truncate", "swap", "header"])
        size = len(data)
        if kind in ("flip", "header"):
            # "header": flips in the first or last 2 KiB, where containers keep their indexes and codec setup.
            count = rng.choice([1, 2, 4, 8, 32, 128])
            region = (0, min(size, 2048)) if rng.random() < 0.5 else (max(0, size - 2048), size)
            if kind == "flip":
                region = (0, size)
            for _ in range(count):
                offset = rng.randrange(region[0], region[1])
                data[offset] ^= 1 << rng.randrange(8)
            done.append(f"{kind} {count} bits in {region[0]}..{region[1]}")
        elif kind == "zero":
            start = rng.randrange(size)
            length = min(size - start, rng.choice([1, 16, 256, 4096, size // 10 or 1]))
            data[start:start + length] = bytes(length)
            done.append(f"zero {length} at {start}")
        elif kind == "duplicate":
            start = rng.randrange(size)
            length = min(size - start, rng.choice([4, 188, 1024, 8192]))
            at = rng.randrange(size)
            data[at:at] = data[start:start + length]
            done.append(f"duplicate {length} from {start} at {at}")
        elif kind == "truncate":
            # Anywhere, but often very early (inside headers) or very late (the index at the end).
            point = rng.choice([rng.randrange(size), rng.randrange(min(size, 4096)), size - rng.randrange(
                min(size, 4096)) - 1])
            del data[max(1, point):]
            done.append(f"truncate at {max(1, point)}")
        elif kind == "swap":
            length = rng.choice([64, 512, 4096])
            if size < 2 * length + 2:
                continue
            a = rng.randrange(0, size - 2 * length)
            b = rng.randrange(a + length, size - length + 1)
            data[a:a + length], data[b:b + length] = data[b:b + length], data[a:a + length]
            done.append(f"swap {length} at {a} and {b}")
    return bytes(data), done


def commands_for(rng, duration):
    """Seeded scrubs, skips and queries, ending with `play` (playback then runs to the end)."""
    commands = []
    for _ in range(rng.randint(2, 6)):
        kind = rng.random()
        mode = rng.choice(["", " exact", " keyframe"])
        if kind < 0.45:
            target = rng.uniform(-0.5, duration * 1.3)
            commands.append(f"scrub {target:.3f}{mode}")
        elif kind < 0.6:
            commands.append(f"scrub {rng.uniform(0, 110):.1f}%{mode}")
        elif kind < 0.8:
            commands.append(f"skip {rng.uniform(-2, 2):+.3f}{mode}")
        else:
            commands.append(rng.choice(["status", "frame", "info", "toggle", "pause"]))
        if rng.random() < 0.3:
            commands.append("status")
    commands.append("play")
    return commands


# MARK: - Running


class Outcome:
    def __init__(self, index, kind, detail="", seconds=0.0):
        self.index = index
        self.kind = kind  # "ok", "crash", "hang", "sanitizer", "failure"
        self.detail = detail
        self.seconds = seconds


def check(events, status, commands):
    """Returns a problem with a finished run's events, or None."""
    names = [event.get("event") for event in events]
    if not names or names[0] != "hello":
        return "output does not start with hello"
    if names[-1] != "shutdown":
        return f"output does not end with shutdown (last: {names[-1]})"
    if status == 0:
        if "ended" not in names:
            return "exit 0 without an ended event"
    elif status == 3:
        if "error" not in names:
            return "exit 3 without an error event"
    else:
        return f"exit status {status} (expected 0 or 3)"
    duration = None
    for event in events:
        if event.get("event") == "ready":
            duration = event.get("duration")
        state = event.get("state")
        if state is not None and state not in STATES:
            return f"unknown state {state!r}"
        position = event.get("position")
        if isinstance(position, (int, float)):
            if position < 0 or (duration is not None and position > duration + 1e-6):
                return f"position {position} outside 0...{duration}: {event}"
    if "ready" in names:
        answered = {event["id"] for event in events if isinstance(event.get("id"), int)}
        missing = [i for i in range(1, len(commands) + 1) if i not in answered]
        if missing:
            return f"commands not answered: {missing}"
    return None


def run_one(index, seed, clips, vpk, folder, failures, timeout, environment):
    rng = random.Random(f"{seed}:{index}")
    name, path, duration = clips[index % len(clips)]
    with open(path, "rb") as source:
        original = source.read()
    data, mutations = mutate(original, rng)
    extension = os.path.splitext(path)[1][1:]
    if rng.random() < 0.2:
        extension = rng.choice([e for e in WRONG_EXTENSIONS if e != extension])
        mutations.append(f"extension .{extension}")
    commands = commands_for(rng, duration)
    mutated = os.path.join(folder, f"{index}-{name}" + (f".{extension}" if extension else ""))
    with open(mutated, "wb") as target:
        target.write(data)

    started = time.monotonic()
    process = subprocess.Popen(
        [vpk, "play", mutated, "--json", "--clock", "free", "--paused", "--progress", "0.5", "--at-end", "pause"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
        start_new_session=True)
    try:
        stdout, stderr = process.communicate("".join(c + "\n" for c in commands).encode(), timeout=timeout)
        kind = None
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        kind = "hang"
    seconds = time.monotonic() - started
    text = stderr.decode("utf-8", "replace")
    detail = None
    if kind is None:
        if process.returncode < 0:
            kind, detail = "crash", f"killed by signal {-process.returncode}"
        elif any(marker in text for marker in SANITIZER_MARKERS):
            kind = "sanitizer"
        elif any(marker in text for marker in CRASH_MARKERS):
            kind = "crash"
        elif unexpected_stderr(text, stdout):
            kind, detail = "failure", "wrote to stderr"
        else:
            try:
                events = [json.loads(line) for line in stdout.decode("utf-8").splitlines()]
            except (ValueError, UnicodeDecodeError) as error:
                events, detail = None, f"output is not JSON lines: {error}"
            if events is not None:
                detail = check(events, process.returncode, commands)
            kind = "failure" if detail else "ok"
    else:
        detail = f"no exit within {timeout} s"
    if kind != "ok":
        keep = os.path.join(failures, f"{seed}-{index}")
        os.makedirs(keep, exist_ok=True)
        shutil.copy(mutated, keep)
        with open(os.path.join(keep, "report.txt"), "w") as report:
            report.write(f"replay: scripts/torture --seed {seed} --only {index}\n")
            report.write(f"clip: {name}\nmutations: {'; '.join(mutations)}\n")
            report.write(f"kind: {kind}\ndetail: {detail}\nexit: {process.returncode}\n")
            report.write("commands:\n" + "".join(c + "\n" for c in commands))
            report.write("--- stdout ---\n" + stdout.decode("utf-8", "replace")[-20000:])
            report.write("--- stderr ---\n" + text[-20000:])
        summary = detail or (text.strip().splitlines()[0] if text.strip() else kind)
        detail = f"{name} [{'; '.join(mutations)}]: {summary} (kept in {keep})"
    os.unlink(mutated)
    return Outcome(index, kind, detail or "", seconds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vpk", required=True, help="the vpk executable to run")
    parser.add_argument("--count", type=int, default=300, help="mutated files to run (default 300)")
    parser.add_argument("--seed", type=int, help="the run's seed (default: random, printed)")
    parser.add_argument("--only", type=int, action="append", help="run only this file index (repeatable)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="runs at once (default: cores)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds one run may take (default 60)")
    parser.add_argument("--work", default=".build/torture", help="clips, scratch and failures folder")
    arguments = parser.parse_args()

    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(1, 2**31)
    clips = make_clips(os.path.join(arguments.work, "clips"))
    failures = os.path.join(arguments.work, "failures")
    indexes = arguments.only or list(range(arguments.count))
    environment = dict(os.environ)
    log(f"seed {seed}: {len(indexes)} mutated files from {len(clips)} clips, {arguments.jobs} at a time, "
        f"vpk {arguments.vpk} (replay one with --seed {seed} --only INDEX)")

    started = time.monotonic()
    counts = {"ok": 0, "crash": 0, "hang": 0, "sanitizer": 0, "failure": 0}
    slowest = 0.0
    lock = threading.Lock()
    with tempfile.TemporaryDirectory(prefix="vpk-torture-") as scratch:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, arguments.jobs)) as pool:
            futures = [pool.submit(run_one, index, seed, clips, arguments.vpk, scratch, failures,
                                   arguments.timeout, environment) for index in indexes]
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                outcome = future.result()
                with lock:
                    counts[outcome.kind] += 1
                    slowest = max(slowest, outcome.seconds)
                if outcome.kind != "ok":
                    log(f"FAIL #{outcome.index} {outcome.kind}: {outcome.detail}")
                if done % 100 == 0:
                    log(f"{done}/{len(indexes)} run, {done - counts['ok']} failed, "
                        f"{time.monotonic() - started:.0f} s")
    bad = len(indexes) - counts["ok"]
    log(f"seed {seed}: {len(indexes)} mutated files run, {counts['crash']} crashes, {counts['hang']} hangs, "
        f"{counts['sanitizer']} sanitizer reports, {counts['failure']} other failures; slowest run "
        f"{slowest:.1f} s; {time.monotonic() - started:.0f} s in all")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The differential harness: one scenario, run against Debian's mpv and against vpk, compared step by step.

Usage:
  mpvdiff.py [--vpk PATH] [--mpv PATH] [--media PATH] [--include-pending] [--timeout S] [--verbose]
             [--mpv-twice] [SCENARIO ...]

SCENARIO is a name in Tests/MPVDiff/scenarios (without .json) or a path; none means every scenario there. Each
scenario is run against `mpv --idle=yes --vo=null --ao=null --no-config --input-ipc-server=S` and against each vpk
it names in "vpk" (default ["vpk"]): `vpk` is `vpk play --idle --input-ipc-server S` (or `vpk play FILE`), `socket`
the auto-detecting `vpk play --idle --socket S`, `vpk-mpv` is `vpk mpv` with mpv's own command line. Every step
records what a client saw (replies, events, property values); the records are normalized by ALLOWED below (the one
list of differences allowed) and must be equal.

A scenario with "pending": "why" is reported as PENDING and never counted as passing; --include-pending runs it
anyway (and reports PASS or FAIL, marked pending, counted neither way). A scenario with "client": "clients/X.py"
runs that program (a client library from PyPI, unmodified, driving one player: SOCKET MEDIA as arguments, one JSON
object printed) against each player and compares what it prints.

Prints one line per scenario (PASS / FAIL / PENDING) with the per-step diff under a FAIL; exits 1 when any
scenario failed, 0 otherwise. Standard library only. Docs: docs/control-socket.md ("Checked against mpv").
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 30

# The differences allowed between mpv and vpk: the one list (docs/control-socket.md describes it). Every entry says
# why. Anything not listed here must agree exactly.
ALLOWED = {
    # Properties whose values are positions in time: equal within one frame duration of the clip (1/fps), because vpk
    # shows, after an exact seek to T, the frame whose interval contains T and mpv the first frame at or after T, and
    # because a playing clock is read at slightly different moments.
    "within_a_frame": ["time-pos", "playback-time", "time-remaining", "playtime-remaining", "audio-pts"],
    # The same, as a percentage of the duration (one frame / duration * 100).
    "within_a_frame_percent": ["percent-pos"],
    # Frame numbers: within one frame, for the same reason.
    "within_one": ["estimated-frame-number"],
    # Values that name the program or the run, not the playback: never compared (only that both have one).
    # (`working-directory` is compared: both players run in the package's folder with PWD naming it.)
    "any_value": ["mpv-version", "ffmpeg-version", "libass-version", "pid", "client_name"],
    # The two rewrites below apply only to the steps that name them in "allow" (an `event` or `events` step):
    # "allow": ["observer_told_before_start_file"], for example. Every other step compares its events as they came.
    # An observer added while nothing is loaded: vpk tells it the value at once, mpv 0.35 only once the next file
    # starts loading (right after `start-file`). A `property-change` just before a `start-file` is compared as if it
    # came just after it; the value and the count must still agree.
    "observer_told_before_start_file": True,
    # Seeks sent together: mpv runs those queued before its play loop turns as one (one `seek` or one for each, as
    # its loop turns, and one `playback-restart`); vpk may land each before the next arrives (a `seek` and a
    # `playback-restart` each). A `playback-restart` followed by a `seek` is not compared, and `seek` events in a
    # row are compared as one; the last seek's `playback-restart` is.
    "restart_between_seeks": True,
    # Events mpv sends that describe its outputs (audio and video drivers, OSD, tracks), which vpk has none of: vpk
    # plays no sound and shows no window. Never compared: a client library that waits for one of them would see the
    # difference, and none of the three tested here does.
    # mpv writes a JSON number with six decimals (`1.333333`); vpk writes the shortest form that reads back as the
    # same double (`1.3333333333333333`). Numbers that are not integers are equal when they agree to six decimals.
    "six_decimals": True,
    # Fields of a property's value mpv derives from its decoder and video output, which vpk has neither of (it reads
    # the stream's headers): absent in vpk's value, present in mpv's. Listed in docs/control-socket.md.
    "absent_in_vpk": {
        "video-params": ["average-bpp", "chroma-location", "colorlevels", "colormatrix", "gamma", "light",
                         "primaries", "sig-peak", "stereo-in"],
    },
    # mpv started with nothing to play sends `idle` as it enters its idle loop, which it may do after a client has
    # connected (the socket is made first), and, on a busy machine, after the client's first observers were told: the
    # first `idle` on a connection, before any `start-file` on it, is not compared.
    "startup_idle": True,
    # A connection that ends its input right behind a seek (a socat one-liner): mpv and vpk serve a client only until
    # they read the end of its input, so each writes the seek's `seek` event when it happened to read the line before
    # the end, and not when it read both together, as mpv most often does. That `seek` is not compared; everything
    # else such a connection receives is (its replies; no `playback-restart`, nothing another client causes).
    "seek_as_input_ends": True,
    "ignored_events": ["audio-reconfig", "video-reconfig", "tracks-changed", "metadata-update", "chapter-change",
                       "log-message", "client-message", "hook", "get-property-reply", "set-property-reply",
                       "command-reply"],
}
# Not compared because mpv's own answer depends on timing, so no scenario asks it: a position read right behind a
# seek, before its playback-restart (mpv: the old position or the target, as its play loop has run the seek or not;
# vpk: where the seek lands, always).

MEDIA_FPS = 30.0  # the clip below; tolerances are one frame of it
MEDIA_DURATION = 10.0


def make_media(folder):
    """A 10 s 320x240 30 fps H.264 clip with B-frames and a 250-frame GOP (keyframes at 0 and 8.333 s) and AAC sound,
    as Tests/VPKTestSupport/TestMedia.swift's h264BFrames."""
    path = os.path.join(folder, "clip.mp4")
    if os.path.exists(path):
        return path
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-y",
         "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=10",
         "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=10",
         "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast", "-bf", "3", "-g", "250",
         "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-shortest", "-f", "mp4", path + ".part"],
        check=True)
    os.rename(path + ".part", path)
    return path


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------------------------- players

class Player:
    """One player process with its socket at `folder/socket`."""

    def __init__(self, kind, programs, folder, media, start):
        self.kind, self.folder, self.media = kind, folder, media
        os.makedirs(folder, exist_ok=True)
        self.socket = os.path.join(folder, "socket")
        file_args = [media] if start.get("file") else []
        # "files": several files, folders or lists (with @MEDIA@, @MEDIA2@ … as in steps), as mpv's playlist.
        file_args += [substitute(f, media) for f in start.get("files", [])]
        if kind in ("mpv", "vpk-mpv") or programs.get("mpv_twice"):
            # `vpk mpv` takes mpv's own command line.
            program = [programs["vpk"], "mpv"] if kind == "vpk-mpv" and not programs.get("mpv_twice") \
                else [programs["mpv"]]
            args = program + ["--no-config", "--idle=yes", "--vo=null", "--ao=null", "--really-quiet",
                    "--input-ipc-server=" + self.socket]
            args += (["--pause"] if start.get("pause") else []) + file_args
            args += ["--keep-open=yes"] if start.get("keep_open") else []
            args += [f"--speed={start['speed']}"] if "speed" in start else []
            args += [f"--start={start['start']}"] if "start" in start else []
            # "mpv_args": more of mpv's options (`--playlist-start=1`, `--loop-playlist` …), as written.
            args += [substitute(a, media) for a in start.get("mpv_args", [])]
        else:
            if "mpv_args" in start:
                raise Failure("\"mpv_args\" are mpv's options: the scenario runs on `vpk mpv` only (\"vpk\": [\"vpk-mpv\"])")
            # --at-end pause keeps vpk when its file ends, as --idle=yes keeps mpv (which goes idle instead);
            # "at_end": "idle" goes idle there as mpv does; "keep_open": true is --keep-open=yes, vpk's --at-end pause.
            if "speed" in start:
                raise Failure("a start speed is mpv's --speed: the scenario runs on `vpk mpv` only (\"vpk\": [\"vpk-mpv\"])")
            option = "--input-ipc-server" if kind == "vpk" else "--socket"
            args = [programs["vpk"], "play"] + (file_args or ["--idle"])
            args += ["--paused"] if start.get("pause") else []
            # vpk play's --start is for its FILE only; mpv's --start (`vpk mpv`) for every file.
            args += ["--start", str(start["start"])] if "start" in start else []
            args += ["--at-end", start.get("at_end", "pause"), option, self.socket, "--progress", "0.04"]
        self.args = args
        # Both run in the package's folder with PWD naming it, wherever the harness was started: mpv answers
        # `working-directory` from PWD, and the two answers are compared.
        here = os.path.realpath(ROOT)
        self.process = subprocess.Popen(self.args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.PIPE, cwd=here, env=dict(os.environ, PWD=here))
        deadline = time.monotonic() + TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise Failure(f"{kind} exited at start ({self.process.returncode}): "
                              f"{self.process.stderr.read().decode(errors='replace')[-2000:]}")
            try:
                probe = socket.socket(socket.AF_UNIX)
                probe.connect(self.socket)
                probe.close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise Failure(f"{kind}: no socket at {self.socket} within {TIMEOUT} s")
                time.sleep(0.02)

    def explain(self, failure):
        """The failure, with the player's exit status and the end of its stderr when it has exited (a crash, or a
        sanitizer's report under halt_on_error, shows up to a step as a closed connection)."""
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return failure
        tail = self.process.stderr.read().decode(errors="replace")[-4000:]
        return Failure(f"{failure}\n    {self.kind} exited ({self.process.returncode}); its stderr ends:\n{tail}")

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class Connection:
    """A client connection: a thread reads its lines (JSON objects, or {"raw": line} for anything else)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.messages, self.cond, self.closed = [], threading.Condition(), False
        self.taken_events = 0  # messages[:taken_events] have been looked at for events
        self.used = set()  # indices of the replies a step has taken
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    text = line.decode(errors="replace")
                    try:
                        message = json.loads(text)
                        if not isinstance(message, dict):
                            message = {"raw": text}
                    except ValueError:
                        message = {"raw": text}
                    with self.cond:
                        self.messages.append(message)
                        self.cond.notify_all()
        except OSError:
            pass
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def send(self, text):
        self.sock.sendall(text.encode() + b"\n")

    def wait(self, predicate, what, timeout=None):
        """Waits until predicate(messages) is true (at most `timeout`, TIMEOUT by default); returns its value."""
        timeout = timeout or TIMEOUT
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                value = predicate(self.messages)
                if value is not None:
                    return value
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise Failure(f"no {what} within {timeout} s (closed: {self.closed}); "
                                  f"received: {self.messages[-12:]}")
                self.cond.wait(left)

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


def duplicate_end_media(media):
    """The clip's video alone, its last two frames sharing one pts and its dts two frames earlier than the muxer put
    them (made with the `setts` bitstream filter, next to the clip): a decoder that has decoded the end has counted a
    pts out of order, and FFmpeg's best-effort timestamps would then follow the dts."""
    path = os.path.join(os.path.dirname(media), "clip-duplicate-end.mp4")
    if os.path.exists(path):
        return path
    probed = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,duration", "-of", "csv=p=0",
         media], check=True, capture_output=True, text=True).stdout.split()
    packets = sorted((int(pts), int(duration)) for pts, duration in (line.split(",") for line in probed))
    (before, frame), (last, _) = packets[-2], packets[-1]
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", media, "-map", "0:v", "-c", "copy", "-bsf:v",
         f"setts=pts=if(eq(PTS\\,{last})\\,{before}\\,PTS):dts=DTS-{2 * frame}", "-f", "mp4", path + ".part"],
        check=True)
    os.rename(path + ".part", path)
    return path


def media_copy(media, name):
    """The clip under another name, next to it (a hard link, else a copy): a playlist's entries differ by name."""
    path = os.path.join(os.path.dirname(media), name)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            os.link(media, path + ".part")
        except OSError:
            shutil.copyfile(media, path + ".part")
        os.rename(path + ".part", path)
    return path


def playlist_media(media):
    """The playlists' files next to the clip: `episodes/` holding ep1.mp4, ep2.mp4, ep10.mp4 (natural order is not
    the names' order; media files only: mpv 0.35 lists a folder's other files too, vpk its media files), and
    `list.m3u`, an m3u naming clip2.mp4 (relative), a comment and clip3.mp4; `titled.m3u`, the same two files, the
    first with an `#EXTINF` title."""
    folder = os.path.dirname(media)
    episodes = ("ep1.mp4", "ep2.mp4", "ep10.mp4")
    for name in episodes:
        media_copy(media, os.path.join("episodes", name))
    # Nothing else: the folder is compared as a whole.
    for name in os.listdir(os.path.join(folder, "episodes")):
        if name not in episodes:
            os.remove(os.path.join(folder, "episodes", name))
    media_copy(media, "clip2.mp4")
    media_copy(media, "clip3.mp4")
    with open(os.path.join(folder, "list.m3u"), "w") as m3u:
        m3u.write("#EXTM3U\nclip2.mp4\n# a comment\n\n" + os.path.join(folder, "clip3.mp4") + "\n")
    with open(os.path.join(folder, "titled.m3u"), "w") as m3u:
        m3u.write("#EXTM3U\n#EXTINF:10,The Second Clip\nclip2.mp4\nclip3.mp4\n")


def substitute(value, media):
    """`@MEDIA@` in a step's strings is the clip's path; `@MEDIA2@` and `@MEDIA3@` the clip as clip2.mp4 and
    clip3.mp4; `@EPISODES@` a folder of three copies and a text file, `@LIST@` an m3u list, `@TITLED@` one with a
    title (see `playlist_media`);
    `@MEDIA_DUPLICATE_END@` that of `duplicate_end_media`; `@HERE@` the harness's folder (Tests/MPVDiff)."""
    if isinstance(value, str):
        if "@MEDIA_DUPLICATE_END@" in value:
            value = value.replace("@MEDIA_DUPLICATE_END@", duplicate_end_media(media))
        if any(name in value for name in ("@MEDIA2@", "@MEDIA3@", "@EPISODES@", "@LIST@", "@TITLED@")):
            playlist_media(media)
            folder = os.path.dirname(media)
            value = (value.replace("@MEDIA2@", os.path.join(folder, "clip2.mp4"))
                     .replace("@MEDIA3@", os.path.join(folder, "clip3.mp4"))
                     .replace("@EPISODES@", os.path.join(folder, "episodes"))
                     .replace("@LIST@", os.path.join(folder, "list.m3u"))
                     .replace("@TITLED@", os.path.join(folder, "titled.m3u")))
        return value.replace("@MEDIA@", media).replace("@HERE@", HERE)
    if isinstance(value, list):
        return [substitute(v, media) for v in value]
    if isinstance(value, dict):
        return {k: substitute(v, media) for k, v in value.items()}
    return value


REWRITES = ("observer_told_before_start_file", "restart_between_seeks")


def normalized_events(events, allow=()):
    """Events in the order ALLOWED compares them, with the rewrites the step allows."""
    unknown = set(allow) - set(REWRITES)
    if unknown:
        raise Failure(f"\"allow\" names {sorted(unknown)}: a step may allow only {', '.join(REWRITES)}")
    events = list(events)
    if ALLOWED["observer_told_before_start_file"] and "observer_told_before_start_file" in allow:
        for i in range(len(events) - 1):
            if events[i]["event"] == "property-change" and events[i + 1]["event"] == "start-file":
                events[i], events[i + 1] = events[i + 1], events[i]
    if ALLOWED["restart_between_seeks"] and "restart_between_seeks" in allow:
        events = [e for i, e in enumerate(events)
                  if not (e["event"] == "playback-restart" and i + 1 < len(events)
                          and events[i + 1]["event"] == "seek")]
        events = [e for i, e in enumerate(events)
                  if not (e["event"] == "seek" and i > 0 and events[i - 1]["event"] == "seek")]
    return events


def is_event(message):
    return "event" in message


# ---------------------------------------------------------------------------------------------------------- steps

class Run:
    """One scenario against one player: the records of its steps."""

    def __init__(self, player):
        self.player, self.connections, self.records = player, {}, []
        self.sent = {}  # request_id -> command, to know what a reply answers
        self.next_id = 9000

    def conn(self, name):
        if name not in self.connections:
            raise Failure(f"no connection {name!r}: connect it first")
        return self.connections[name]

    def step(self, step):
        kinds = ("connect", "send", "reply", "replies", "event", "events", "get", "quiet", "sleep", "disconnect",
                 "wait_until", "end_input", "closed", "listed", "first_line", "messages")
        kind = next((k for k in kinds if k in step), None)
        if kind is None:
            raise Failure(f"not a step (a step has one of {', '.join(kinds)})")
        return getattr(self, "do_" + kind)(step)

    def do_connect(self, step):
        self.connections[step["connect"]] = Connection(self.player.socket)

    def do_disconnect(self, step):
        self.conn(step["disconnect"]).close()

    def do_end_input(self, step):
        """Closes the connection's writing side, as socat does at the end of its input."""
        c = self.conn(step["end_input"])
        c.sock.shutdown(socket.SHUT_WR)
        c.input_ended = True

    def do_closed(self, step):
        """Records whether the player has closed the connection within `seconds` (2 by default)."""
        c = self.conn(step["closed"])
        deadline = time.monotonic() + step.get("seconds", 2)
        with c.cond:
            while not c.closed and time.monotonic() < deadline:
                c.cond.wait(deadline - time.monotonic())
            return {"closed": c.closed}

    def do_first_line(self, step):
        """Records the first line the connection received (what `socat - S | head -1` prints), once it has one."""
        return {"first_line": self.conn(step["first_line"]).wait(lambda ms: ms[0] if ms else None, "a first line")}

    def do_sleep(self, step):
        time.sleep(step["sleep"])

    def do_send(self, step):
        c = self.conn(step["send"])
        if "together" in step:
            # Several lines in one write (JSON objects, or strings sent as they are).
            lines = []
            for item in substitute(step["together"], self.player.media):
                if isinstance(item, dict) and "request_id" in item:
                    self.sent[json.dumps(item["request_id"])] = item.get("command")
                lines.append(item if isinstance(item, str) else json.dumps(item))
            c.send("\n".join(lines))
        elif "json" in step:
            command = substitute(step["json"], self.player.media)
            if isinstance(command, dict) and "request_id" in command:
                self.sent[json.dumps(command["request_id"])] = command.get("command")
            c.send(json.dumps(command))
        else:
            c.send(substitute(step["line"], self.player.media))
        if step.get("end_input"):
            # The writing side closed right behind the line, as a one-liner's socat closes it.
            c.sock.shutdown(socket.SHUT_WR)
            c.input_ended = True

    @staticmethod
    def _unused_replies(c, messages):
        """The replies no step has taken yet, with their indices, in the order they came."""
        return [(i, m) for i, m in enumerate(messages) if not is_event(m) and i not in c.used]

    def _take_reply(self, c, rid, what):
        """Waits for the reply with this request_id that no step has taken; takes it."""
        def found(messages):
            return next(((i, m) for i, m in self._unused_replies(c, messages) if m.get("request_id") == rid), None)
        index, reply = c.wait(found, what)
        c.used.add(index)
        return reply

    def do_reply(self, step):
        """Waits for the reply with this request_id; records it."""
        c, rid = self.conn(step["reply"]), step.get("request_id", 0)
        reply = self._take_reply(c, rid, f"reply to request_id {rid}")
        return {"reply": reply, "command": self.sent.get(json.dumps(rid))}

    def do_replies(self, step):
        """Waits for the next `count` replies no step has taken; records them in the order they came."""
        c, count = self.conn(step["replies"]), step["count"]

        def enough(messages):
            replies = self._unused_replies(c, messages)
            return replies[:count] if len(replies) >= count else None
        taken = c.wait(enough, f"{count} replies")
        c.used.update(i for i, _ in taken)
        return {"replies": [{"reply": r, "command": self.sent.get(json.dumps(r.get("request_id")))}
                            for _, r in taken]}

    def _events_since(self, c, upto, allow=()):
        events = [m for m in c.messages[c.taken_events:upto] if is_event(m)]
        if ALLOWED["startup_idle"] and not getattr(c, "saw_file_event", False):
            for i, event in enumerate(events):
                if event.get("event") == "start-file":
                    break
                if event.get("event") == "idle":
                    events.pop(i)
                    c.saw_file_event = True
                    break
        if any(e.get("event") == "start-file" for e in events):
            c.saw_file_event = True
        c.taken_events = upto
        if ALLOWED["seek_as_input_ends"] and getattr(c, "input_ended", False):
            events = [e for e in events if e.get("event") != "seek"]
        return normalized_events([e for e in events if e["event"] not in ALLOWED["ignored_events"]], allow)

    def do_event(self, step):
        """Waits for the named event (and, with "data", those fields); records every event since the last event step
        on that connection, up to it, in order."""
        c, name = self.conn(step["event"]), step["name"]
        fields = step.get("fields", {})

        def found(messages):
            for i in range(c.taken_events, len(messages)):
                m = messages[i]
                if m.get("event") == name and all(m.get(k) == v for k, v in fields.items()):
                    return i + 1
            return None
        upto = c.wait(found, f"event {name} {fields or ''}".strip())
        with c.cond:
            events = self._events_since(c, upto, step.get("allow", ()))
        # "without": events not recorded in this step, where mpv itself sends them before or after, run to run.
        # "ticking": properties whose values change as the file plays (one change a frame in mpv, one a progress
        # mark in vpk): their changes with a value are not recorded, their unavailable form is.
        ticking = step.get("ticking", [])
        return {"events": [e for e in events if e["event"] not in step.get("without", [])
                           and not (e["event"] == "property-change" and e.get("name") in ticking and "data" in e)]}

    def do_events(self, step):
        """Records the events that came since the last event step, after `settle` seconds (0.3 by default); with
        "unordered": true, sorted (for events whose order mpv itself does not keep from run to run)."""
        c = self.conn(step["events"])
        time.sleep(step.get("settle", 0.3))
        with c.cond:
            events = self._events_since(c, len(c.messages), step.get("allow", ()))
        if step.get("unordered"):
            events.sort(key=lambda e: json.dumps(e, sort_keys=True))
        return {"events": events}

    def do_messages(self, step):
        """Waits for the next `count` messages (replies and events, but those not compared) since the last event step;
        records them in the order they came, replies among events."""
        c, count = self.conn(step["messages"]), step["count"]

        def compared(i, m):
            return not (is_event(m) and m["event"] in ALLOWED["ignored_events"]) and not (not is_event(m) and i in c.used)

        def enough(messages):
            taken = [(i, m) for i, m in enumerate(messages) if i >= c.taken_events and compared(i, m)]
            return taken[:count] if len(taken) >= count else None
        taken = c.wait(enough, f"{count} messages")
        with c.cond:
            c.used.update(i for i, m in taken if not is_event(m))
            c.taken_events = taken[-1][0] + 1
            if any(m.get("event") == "start-file" for _, m in taken):
                c.saw_file_event = True
        return {"messages": [m for _, m in taken]}

    def do_quiet(self, step):
        """Records everything the connection received within `seconds` from now (what a listener would have read)."""
        c = self.conn(step["quiet"])
        with c.cond:
            start = len(c.messages)
        time.sleep(step.get("seconds", 0.5))
        with c.cond:
            got = c.messages[start:]
        return {"received": [m for m in got if m.get("event") not in ALLOWED["ignored_events"]]}

    def _get(self, c, prop):
        self.next_id += 1
        rid = self.next_id
        c.send(json.dumps({"command": ["get_property", prop], "request_id": rid}))
        return self._take_reply(c, rid, f"reply to get_property {prop}")

    def do_get(self, step):
        """Reads properties (one name or a list); records each reply's error and data."""
        c = self.conn(step.get("on", "a"))
        names = step["get"] if isinstance(step["get"], list) else [step["get"]]
        values = {}
        for prop in names:
            reply = self._get(c, prop)
            values[prop] = {k: reply[k] for k in ("error", "data") if k in reply}
        return {"properties": values}

    def do_listed(self, step):
        """Records which of the names `property-list` holds (a client builds its attributes from it)."""
        reply = self._get(self.conn(step.get("on", "a")), "property-list")
        names = set(reply.get("data") or [])
        return {"listed": {name: name in names for name in step["listed"]}}

    def do_wait_until(self, step):
        """Reads a property until it has a value (or `equals`), then waits `settle` seconds (0.3 by default); records
        nothing, and what the connection received so far is not compared (a synchronisation point)."""
        c = self.conn(step.get("on", "a"))
        prop, want = step["wait_until"], step.get("equals", "__any__")
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            reply = self._get(c, prop)
            if reply.get("error") == "success" and (want == "__any__" or reply.get("data") == want):
                # What arrived before the player was ready is not compared: its timing is the player's own.
                time.sleep(step.get("settle", 0.3))
                with c.cond:
                    c.taken_events = len(c.messages)
                    c.used.update(range(len(c.messages)))
                return None
            time.sleep(0.05)
        raise Failure(f"{prop} did not become {want} within {TIMEOUT} s")


# ---------------------------------------------------------------------------------------------------------- compare

def tolerance(name):
    frame = 1.0 / MEDIA_FPS
    if name in ALLOWED["within_a_frame"]:
        return frame + 1e-6
    if name in ALLOWED["within_a_frame_percent"]:
        return frame / MEDIA_DURATION * 100 + 1e-6
    if name in ALLOWED["within_one"]:
        return 1
    return None


def differences(a, b, path, prop=None):
    """The differences between vpk's record `a` and mpv's `b`, as lines; `prop` names the property a value is of."""
    if prop in ALLOWED["any_value"]:
        return [] if (a is None) == (b is None) else [f"{path}: vpk {json.dumps(a)}, mpv {json.dumps(b)}"]
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        # A reply or an event says which property its data is.
        inner = prop
        if "name" in b and isinstance(b.get("name"), str):
            inner = b["name"]
        for key in sorted(set(a) | set(b)):
            if key not in a and key in b and key in ALLOWED["absent_in_vpk"].get(prop, []):
                continue
            if key not in a or key not in b:
                out.append(f"{path}.{key}: vpk {json.dumps(a.get(key, '<absent>'))}, "
                           f"mpv {json.dumps(b.get(key, '<absent>'))}")
                continue
            if key == "command":
                continue
            sub = inner
            if key in ("data",) and inner is None and isinstance(a.get("command"), list):
                cmd = a["command"]
                if len(cmd) >= 2 and str(cmd[0]).startswith("get_property"):
                    sub = cmd[1]
            if key == "properties":
                out += [line for p in sorted(set(a[key]) | set(b[key]))
                        for line in differences(a[key].get(p), b[key].get(p), f"{path}.{p}", p)]
                continue
            if key == "reply" and isinstance(a.get("command"), list) and len(a["command"]) >= 2 \
                    and str(a["command"][0]).startswith("get_property"):
                sub = a["command"][1]
            out += differences(a[key], b[key], f"{path}.{key}", sub)
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: vpk {json.dumps(a)}\n{' ' * len(path)}  mpv {json.dumps(b)}"]
        return [line for i, (x, y) in enumerate(zip(a, b)) for line in differences(x, y, f"{path}[{i}]", prop)]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) \
            and not isinstance(b, bool):
        allowed = tolerance(prop)
        if allowed is not None:
            return [] if abs(a - b) <= allowed else [f"{path}: vpk {a}, mpv {b} (more than {allowed:.4f} apart)"]
        if ALLOWED["six_decimals"] and isinstance(a, float) and isinstance(b, float) \
                and abs(a - b) <= 5e-7 * max(1.0, abs(b)):
            return []
        if type(a) is not type(b) or a != b:
            return [f"{path}: vpk {json.dumps(a)}, mpv {json.dumps(b)}"]
        return []
    if a != b or type(a) is not type(b):
        return [f"{path}: vpk {json.dumps(a)}, mpv {json.dumps(b)}"]
    return []


# ---------------------------------------------------------------------------------------------------------- running

def load(name):
    path = name if name.endswith(".json") or os.sep in name else os.path.join(HERE, "scenarios", name + ".json")
    with open(path) as f:
        scenario = json.load(f)
    scenario["_name"] = os.path.splitext(os.path.basename(path))[0]
    return scenario


class Stopped(Failure):
    """A run stopped at a step: the records of the steps before it, to be compared still."""

    def __init__(self, message, records):
        super().__init__(message)
        self.records = records


def run_steps(scenario, player):
    run = Run(player)
    records = []
    try:
        for index, step in enumerate(scenario["steps"]):
            try:
                record = run.step(step)
            except Failure as failure:
                raise Stopped(f"step {index + 1} {json.dumps(step)}: {failure}", records)
            records.append(record)
    finally:
        for c in run.connections.values():
            c.close()
    return records


def run_client(scenario, player, media):
    script = os.path.join(HERE, scenario["client"])
    result = subprocess.run([sys.executable, script, player.socket, media], capture_output=True, text=True,
                            timeout=scenario.get("timeout", 120), cwd=ROOT)
    if result.returncode != 0:
        raise Failure(f"{scenario['client']} against {player.kind} exited {result.returncode}: "
                      f"{result.stderr.strip()[-3000:]}")
    try:
        return json.loads(result.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise Failure(f"{scenario['client']} against {player.kind} printed no JSON: {result.stdout[-2000:]}")


def wanted_order_seen(rerun, records):
    """Whether mpv's run showed the order its scenario's mpv_rerun waits for (see run_scenario)."""
    events = records[rerun["step"] - 1]["events"]
    if "has" in rerun:
        return all(any(all(e.get(k) == v for k, v in want.items()) for e in events) for want in rerun["has"])
    gone = {e.get("name") for e in events if e["event"] == "property-change" and "data" not in e}
    return (set(rerun["names"]) <= gone) if "names" in rerun else bool(gone)


def step_differences(got, expected):
    """(index, lines) for each step whose records differ."""
    out = []
    for index, (ours, theirs) in enumerate(zip(got, expected)):
        diff = differences(ours, theirs, "record")
        if diff:
            out.append((index, diff))
    return out


def run_scenario(scenario, programs, media, work, verbose):
    """Runs the scenario against mpv and each vpk socket it names; returns (status, lines, known) where `known` lists
    the known differences that showed, as "scenario step N (player)"."""
    start = scenario.get("start", {})
    results = {}
    rerun = scenario.get("mpv_rerun")
    if rerun:
        step = rerun["step"]
        steps = scenario.get("steps", [])
        if not (0 < step <= len(steps) and ("event" in steps[step - 1] or "events" in steps[step - 1])):
            return "FAIL", [f"  the scenario's mpv_rerun names step {step}: it must be an `event` or `events` step"], []
    # "known_differences": [{"steps": [N, …], "why": "…"}, …]: event steps where vpk is known to tell the same events
    # as mpv in another order (listed in docs/control-socket.md). They are still compared: when they differ, their
    # events taken together, as one set, must agree; then the difference does not fail the scenario, and is printed
    # and counted in the summary. Any other difference there fails as anywhere else.
    known = scenario.get("known_differences", [])
    for entry in known:
        steps = scenario.get("steps", [])
        if not entry.get("steps") or not all(0 < n <= len(steps) and ("event" in steps[n - 1] or "events" in steps[n - 1])
                                             for n in entry["steps"]):
            return "FAIL", [f"  known_differences names steps {entry.get('steps')}: each must be an `event` or "
                            f"`events` step"], []
    known_steps = {n: entry for entry in known for n in entry["steps"]}
    mpv_runs = []
    for kind in ["mpv"] + scenario.get("vpk", ["vpk"]):
        # "mpv_rerun": {"times": N, "step": S, "names": [...]} or {…, "has": [event, …]}: for a race inside mpv
        # itself, where mpv tells step S's events in one order in some runs and another in others (the scenario's
        # description says which). mpv is run again (at most N times) until step S shows the order named: with
        # "names", a `property-change` without a value for each of them (without "names", for any property); with
        # "has", each of these events (matched on the fields given). vpk must then agree with one of the runs mpv
        # gave, whatever order that run showed: nothing is compared in an order mpv was not seen to produce.
        times = 1 + (rerun["times"] if rerun and kind == "mpv" else 0)
        for attempt in range(times):
            player = None
            try:
                player = Player(kind, programs, os.path.join(work, scenario["_name"], kind, str(attempt)), media,
                                start)
                if "client" in scenario:
                    results[kind] = run_client(scenario, player, media)
                else:
                    results[kind] = run_steps(scenario, player)
            except Failure as failure:
                results[kind] = player.explain(failure) if player else failure
            finally:
                if player:
                    player.stop()
            if kind != "mpv" or isinstance(results[kind], Failure):
                break
            mpv_runs.append(results[kind])
            if not rerun or wanted_order_seen(rerun, results[kind]):
                break
    lines, failed, shown = [], False, []
    if isinstance(results["mpv"], Failure):
        return "FAIL", [f"  against mpv itself: {results['mpv']}"], []
    if rerun and not wanted_order_seen(rerun, mpv_runs[-1]):
        lines.append(f"  mpv did not show the order mpv_rerun names in any of its {len(mpv_runs)} runs: "
                     f"vpk is compared with the runs it gave")

    def known_order(ours, theirs, index):
        """Whether step `index` is in a known difference whose steps, taken together, tell the same events."""
        entry = known_steps.get(index + 1)
        if entry is None or len(ours) < max(entry["steps"]) or len(theirs) < max(entry["steps"]):
            return False

        def together(records):
            events = [e for n in entry["steps"] for e in records[n - 1]["events"]]
            return sorted(events, key=lambda e: json.dumps(e, sort_keys=True))
        return not differences(together(ours), together(theirs), "events")

    for kind in scenario.get("vpk", ["vpk"]):
        got = results[kind]
        label = {"vpk": "vpk", "socket": "vpk --socket", "vpk-mpv": "vpk mpv"}[kind]
        if isinstance(got, Failure):
            failed = True
            lines.append(f"  {label}: {got}")
            if not isinstance(got, Stopped):
                continue
            got = got.records
        expected = mpv_runs[-1]
        if "client" in scenario:
            diff = differences(got, expected, "client")
            steps = [(None, diff)] if diff else []
        else:
            # The mpv run vpk agrees with best: the fewest steps differing outside the known differences, then the
            # fewest inside them.
            def cost(run):
                found = step_differences(got, run)
                return (sum(1 for i, _ in found if not known_order(got, run, i)), len(found))
            best = min(range(len(mpv_runs)), key=lambda n: cost(mpv_runs[n]))
            expected = mpv_runs[best]
            steps = step_differences(got, expected)
            if len(mpv_runs) > 1 and not steps:
                lines.append(f"  {label} agrees with mpv's run {best + 1} of {len(mpv_runs)}")
        for index, diff in steps:
            where = "" if index is None else f" step {index + 1} {json.dumps(scenario['steps'][index])}"
            if index is not None and known_order(got, expected, index):
                shown.append(f"{scenario['_name']} step {index + 1} ({label})")
                lines.append(f"  KNOWN DIFFERENCE {label}{where}: {known_steps[index + 1]['why']}")
            else:
                failed = True
                lines.append(f"  {label}{where}:")
            lines += ["    " + line for line in diff]
        if verbose:
            lines.append(f"  {label} saw: {json.dumps(got)}")
    if verbose:
        for n, run in enumerate(mpv_runs):
            lines.append(f"  mpv (run {n + 1}) saw: {json.dumps(run)}")
    return ("FAIL" if failed else "PASS"), lines, shown


def main():
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--vpk", default=os.environ.get("VPK_EXECUTABLE") or os.path.join(ROOT, ".build/debug/vpk"))
    parser.add_argument("--mpv", default=shutil.which("mpv") or "mpv")
    parser.add_argument("--media", help="the clip to play (made with ffmpeg when not given)")
    parser.add_argument("--include-pending", action="store_true", help="run pending scenarios too")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds a step waits for what it expects (default {TIMEOUT})")
    parser.add_argument("--mpv-twice", action="store_true",
                        help="run mpv in vpk's place: checks that a scenario is deterministic against mpv itself")
    parser.add_argument("--verbose", action="store_true", help="print what each player's client saw")
    args = parser.parse_args()
    TIMEOUT = args.timeout
    for program in (args.vpk, args.mpv):
        if not shutil.which(program) and not os.access(program, os.X_OK):
            sys.exit(f"mpvdiff: {program} not found (build vpk with swift build; mpv: scripts/bootstrap)")
    names = args.scenarios or sorted(f[:-5] for f in os.listdir(os.path.join(HERE, "scenarios"))
                                     if f.endswith(".json"))
    work = tempfile.mkdtemp(prefix="mpvdiff-", dir="/tmp")  # socket paths must stay short
    media = args.media or make_media(work)
    programs = {"vpk": args.vpk, "mpv": args.mpv, "mpv_twice": args.mpv_twice}
    counts = {"PASS": 0, "FAIL": 0, "PENDING": 0}
    known = []  # the known differences that showed, named
    began = time.monotonic()
    try:
        for name in names:
            scenario = load(name)
            pending = scenario.get("pending")
            if pending and not args.include_pending:
                counts["PENDING"] += 1
                print(f"PENDING {scenario['_name']}: {pending}", flush=True)
                continue
            t0 = time.monotonic()
            status, lines, found = run_scenario(scenario, programs, media, work, args.verbose)
            mark = " (pending: not counted)" if pending else ""
            if not pending:
                counts[status] += 1
                known += found
            mark += f" ({len(found)} known difference{'s' if len(found) != 1 else ''})" if found else ""
            print(f"{status} {scenario['_name']}{mark} ({time.monotonic() - t0:.1f} s)", flush=True)
            for line in lines:
                print(line, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"mpvdiff: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['PENDING']} pending, "
          f"{len(known)} known differences ({time.monotonic() - began:.1f} s)")
    for name in known:
        print(f"mpvdiff: known difference: {name}")
    sys.exit(1 if counts["FAIL"] else 0)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main()

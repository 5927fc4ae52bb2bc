#!/usr/bin/env python3
"""mpv-history-daemon 0.2.6 (from PyPI, unmodified: a long-running daemon that finds mpv sockets in a folder and
records what is watched) run against the player whose socket is SOCKET, the only file in its folder.

Usage: mpv_history_daemon_client.py SOCKET MEDIA. The player was started on MEDIA, paused. The daemon is started on
the socket's folder; once it has attached, this script (over its own connection) seeks near the end, plays to the
end of the file, and quits the player; the daemon writes what it recorded when the socket goes away, and is stopped.
Prints one JSON object: the recorded events in order, timestamps removed (the keys, and the values of the events
that are times), percentages rounded to whole numbers (the one read as the clip resumes, to 5 %). Run by
Tests/MPVDiff/mpvdiff.py against mpv and against vpk.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

try:
    import mpv_history_daemon  # noqa: F401
except ImportError:
    sys.exit("mpv-history-daemon is not installed for " + sys.executable + ": run scripts/bootstrap "
             "(pip install mpv-history-daemon==0.2.6)")

TIMEOUT = 30
TIME_VALUED = {"socket-added", "mpv-quit", "final-write"}
socket_path, media = sys.argv[1], sys.argv[2]
folder = os.path.dirname(socket_path)


class Client:
    """This script's own connection to the player, to drive it as a person would."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(socket_path)
        self.buffer, self.rid = b"", 0

    def lines(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the player closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def command(self, *command):
        self.rid += 1
        self.sock.sendall(json.dumps({"command": list(command), "request_id": self.rid}).encode() + b"\n")
        while True:
            message = self.lines()
            if message.get("request_id") == self.rid:
                return message

    def until(self, event):
        while self.lines().get("event") != event:
            pass


def wait(predicate, what):
    deadline = time.monotonic() + TIMEOUT
    while not predicate():
        if time.monotonic() > deadline:
            sys.exit(f"{what} within {TIMEOUT} s")
        time.sleep(0.05)


with tempfile.TemporaryDirectory(prefix="mhd-") as data:
    log = os.path.join(data, "daemon.log")
    daemon = subprocess.Popen(
        [sys.executable, "-m", "mpv_history_daemon", "daemon", folder, os.path.join(data, "out"),
         "--log-file", log, "--scan-time", "1", "--write-period", "600"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        def log_text():
            try:
                with open(log) as f:
                    return f.read()
            except OSError:
                return ""
        # Attached: its observers are bound once it has logged its sockets' data.
        wait(lambda: "socket_data {" in log_text() or daemon.poll() is not None,
             "the daemon did not attach to " + socket_path)
        if daemon.poll() is not None:
            sys.exit(f"the daemon exited ({daemon.returncode}): {daemon.stderr.read().decode()[-3000:]}")
        time.sleep(0.5)
        client = Client()
        client.command("seek", 9, "absolute")
        client.until("playback-restart")
        time.sleep(0.3)
        client.command("set_property", "pause", False)
        # Played to the end: the player goes idle (mpv --idle=yes, vpk --at-end idle).
        wait(lambda: client.command("get_property", "eof-reached").get("data") in (True, None),
             "the clip did not reach its end")
        time.sleep(1.0)
        client.command("quit")
        output = os.path.join(data, "out", os.path.basename(socket_path) + ".json")
        wait(lambda: os.path.exists(output), "the daemon wrote nothing for the socket")
        time.sleep(0.3)
        with open(output) as f:
            recorded = json.load(f)
    finally:
        daemon.send_signal(signal.SIGINT)
        try:
            daemon.wait(10)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        with open(log) as f:
            warnings = [line.split("] ", 1)[-1].strip() for line in f if line.startswith("[W")]
        # The daemon forgets a socket both when its connection ends and when its file is gone from the folder; which
        # comes first as the player quits is timing (seen once of many runs, with mpv, on a busy machine), and the
        # second then logs this. Both players close their connections and remove their socket files.
        warnings = [w for w in warnings if w != "called remove socket, but socket_loc doesn't exist in self.sockets"]


def normalized(event):
    (name, value), = event.items()
    if name in TIME_VALUED:
        value = "<time>"
    elif isinstance(value, dict) and isinstance(value.get("percent-pos"), (int, float)):
        # `resumed` holds the position the daemon reads once it has heard of the unpause, as the clip plays: a moment
        # after it, later on a busy machine (91 % seen where mpv said 90 %, 0.1 s of play). It is compared to the
        # nearest 5 %; the others (read paused, or a seek's target) to the nearest whole percent.
        step = 5 if name == "resumed" else 1
        value = dict(value, **{"percent-pos": round(value["percent-pos"] / step) * step})
    return {name: value}


events = [normalized(recorded[key]) for key in sorted(recorded, key=float)]
print(json.dumps({"events": events, "warnings": warnings}, sort_keys=True))

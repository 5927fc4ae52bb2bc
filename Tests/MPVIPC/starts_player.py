#!/usr/bin/env python3
"""python-mpv-jsonipc (from PyPI, unmodified) starting the player itself, as its users do: MPV(mpv_location=…).

Usage: starts_player.py PLAYER SOCKET MEDIA. PLAYER is the program to start (Debian's mpv, or a symlink named mpv
to vpk). The scenario: start it idle, load MEDIA paused, read time-pos, seek, read it again, quit. Prints one JSON
object (what the client saw) so the runs against mpv and vpk can be compared, and the player's exit status. Run by
Tests/VPKEndToEndTests/MPVEntryPointTests.swift; scripts/bootstrap installs the package.
"""
import json
import sys
import threading
import time

try:
    from python_mpv_jsonipc import MPV
except ImportError:
    sys.exit("python-mpv-jsonipc is not installed for " + sys.executable +
             ": run scripts/bootstrap (pip install python-mpv-jsonipc==1.5.0)")

TIMEOUT = 30
player, socket_path, media = sys.argv[1], sys.argv[2], sys.argv[3]
events, arrived = [], threading.Condition()


def record(name):
    def callback(_data):
        with arrived:
            events.append(name)
            arrived.notify_all()
    return callback


def wait_for(name):
    deadline = time.monotonic() + TIMEOUT
    with arrived:
        while name not in events:
            left = deadline - time.monotonic()
            if left <= 0:
                sys.exit(f"no {name} event within {TIMEOUT} s; events: {events}")
            arrived.wait(left)


def taken():
    with arrived:
        seen = list(events)
        events.clear()
        return seen


# The options a user of the library passes for a headless player; the library adds --idle, --input-ipc-server,
# --input-terminal=no and --terminal=no.
mpv = MPV(mpv_location=player, ipc_socket=socket_path, discard_output=True, vo="null", ao="null",
          config=False, keep_open=True, pause=True)
for name in ("file-loaded", "seek", "playback-restart", "end-file"):
    mpv.bind_event(name, record(name))
seen = {"idle-active": mpv.command("get_property", "idle-active")}
mpv.command("loadfile", media)
wait_for("playback-restart")
seen["loaded"] = taken()
seen["pause"] = mpv.pause
seen["time-pos"] = round(mpv.time_pos, 3)
seen["duration"] = round(mpv.duration, 1)
mpv.command("seek", 2, "absolute")
wait_for("playback-restart")
seen["seeked"] = taken()
seen["time-pos after seek 2 absolute"] = round(mpv.time_pos, 3)
mpv.speed = 1.5
seen["speed"] = mpv.speed
process = mpv.mpv_process.process
try:
    mpv.command("quit")
except Exception:
    pass  # the connection closes as the player leaves
process.wait(TIMEOUT)  # its status is not compared: the library may end it with SIGTERM as the socket closes
mpv.terminate()
print(json.dumps(seen, sort_keys=True))

#!/usr/bin/env python3
"""One scenario of mpv's JSON IPC, driven by python-mpv-jsonipc (from PyPI, unmodified) over an existing socket.

Usage: scenario.py SOCKET MEDIA. Prints one JSON object: what the client saw (events in order, property values,
error strings), so the same scenario run against vpk and against mpv can be compared. Run by
Tests/VPKEndToEndTests/MPVIPCTests.swift; scripts/bootstrap installs the package.
"""
import json
import sys
import threading
import time

try:
    import python_mpv_jsonipc
    from python_mpv_jsonipc import MPV, MPVError
except ImportError:
    sys.exit("python-mpv-jsonipc is not installed for " + sys.executable +
             ": run scripts/bootstrap (pip install python-mpv-jsonipc==1.5.0)")

TIMEOUT = 30
socket_path, media = sys.argv[1], sys.argv[2]
events, lock, arrived = [], threading.Lock(), threading.Condition()


def record(name):
    def callback(_data):
        with arrived:
            events.append(name)
            arrived.notify_all()
    return callback


def wait_for(name):
    """Waits until `name` has arrived since the events were last cleared."""
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


def error_of(*command):
    try:
        mpv.command(*command)
        return "success"
    except MPVError as error:
        return str(error)


mpv = MPV(start_mpv=False, ipc_socket=socket_path)
for name in ("start-file", "file-loaded", "seek", "playback-restart", "end-file", "idle"):
    mpv.bind_event(name, record(name))
out = {"has_time_pos_attribute": "time_pos" in mpv.properties}

mpv.command("loadfile", media)
wait_for("playback-restart")
mpv.pause = True
out["load_events"] = taken()
out["pause"] = mpv.pause
out["duration"] = round(mpv.duration, 1)
out["width"], out["height"] = mpv.width, mpv.height
out["filename"] = mpv.filename
out["container_fps"] = mpv.container_fps
out["estimated_frame_count"] = mpv.estimated_frame_count
out["idle_active"] = mpv.idle_active

changes = []
observer = mpv.bind_property_observer("pause", lambda name, value: changes.append(value))
mpv.command("seek", 1, "absolute+exact")
wait_for("playback-restart")
out["seek_events"] = taken()
out["time_pos_after_seek"] = round(mpv.time_pos, 3)
out["percent_pos_after_seek"] = round(mpv.percent_pos, 1)
mpv.command("seek", 25, "absolute-percent+exact")
wait_for("playback-restart")
taken()
out["time_pos_after_percent_seek"] = round(mpv.time_pos, 3)
mpv.pause = False
mpv.pause = True
# The value when observing began, and the last: mpv may coalesce the quick false in between (vpk sends it), and
# then sends no second change: wait for one at most 2 s.
deadline = time.monotonic() + 2
while not (len(changes) >= 2 and changes[-1] is True) and time.monotonic() < deadline:
    time.sleep(0.01)
mpv.unbind_property_observer(observer)
out["pause_changes_first_last"] = [changes[0], changes[-1]] if changes else []

out["errors"] = {
    "get_property nonexist": error_of("get_property", "nonexist"),
    "frobnicate": error_of("frobnicate"),
    "set_property pause x": error_of("set_property", "pause", "x"),
    "seek abc": error_of("seek", "abc"),
    "seek 1 bogus": error_of("seek", 1, "bogus"),
    "add duration 1": error_of("add", "duration", 1),
}
out["speed_string"] = mpv.command("get_property_string", "speed")
out["version_is_int"] = isinstance(mpv.command("get_version"), int)

mpv.command("stop")
wait_for("idle")
out["stop_events"] = taken()
out["idle_active_after_stop"] = mpv.idle_active
out["time_pos_when_idle"] = mpv.time_pos  # property unavailable: the library gives None
mpv.terminate()
print(json.dumps(out, sort_keys=True))

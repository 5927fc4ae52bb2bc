#!/usr/bin/env python3
"""One scenario of mpv's JSON IPC driven by aio-mpv-jsonipc 1.0 (asyncio, from PyPI, unmodified) over an existing
socket of an idle player.

Usage: aio_mpv_jsonipc_client.py SOCKET MEDIA. Prints one JSON object: what the client saw (replies' errors and
data, the events its event stream yielded, in order). Run by Tests/MPVDiff/mpvdiff.py against mpv and against vpk.
"""
import asyncio
import json
import sys

try:
    from aio_mpv_jsonipc.MPV import MPV
except ImportError:
    sys.exit("aio-mpv-jsonipc is not installed for " + sys.executable + ": run scripts/bootstrap "
             "(pip install aio-mpv-jsonipc==1.0)")

TIMEOUT = 30
# Events describing mpv's outputs (vpk has none): see ALLOWED["ignored_events"] in mpvdiff.py.
IGNORED = {"audio-reconfig", "video-reconfig", "tracks-changed", "metadata-update", "chapter-change"}


async def main(socket_path, media):
    mpv = MPV(socket=socket_path)
    await mpv.start()
    events = asyncio.Queue()

    async def collect():
        async for event in mpv.get_events():
            await events.put(event)
    collector = asyncio.get_running_loop().create_task(collect())

    async def until(name):
        """The events the stream yielded up to and including `name`."""
        seen = []
        while True:
            event = await asyncio.wait_for(events.get(), TIMEOUT)
            if event.get("event") in IGNORED:
                continue
            seen.append(event)
            if event.get("event") == name:
                return seen

    def answer(reply):
        return {k: reply[k] for k in ("error", "data") if k in reply}

    async def send(*command):
        return answer(await asyncio.wait_for(mpv.send(list(command)), TIMEOUT))

    out = {}
    out["idle-active"] = await send("get_property", "idle-active")
    out["loadfile_error"] = (await send("loadfile", media))["error"]
    out["load_events"] = await until("playback-restart")
    out["pause_set"] = await send("set_property", "pause", True)
    out["duration"] = await send("get_property", "duration")
    out["observe"] = await send("observe_property", 1, "pause")
    out["observed"] = await until("property-change")
    out["seek"] = await send("seek", 2, "absolute+exact")
    out["seek_events"] = await until("playback-restart")
    position = await send("get_property", "time-pos")
    out["time_pos_after_seek"] = round(position.get("data", -1), 1)
    out["errors"] = {
        "get_property nonexist": await send("get_property", "nonexist"),
        "frobnicate": await send("frobnicate"),
        "set_property pause x": await send("set_property", "pause", "x"),
    }
    out["cycle"] = await send("cycle", "pause")
    out["cycle_events"] = await until("property-change")
    out["stop"] = await send("stop")
    out["stop_events"] = await until("idle")
    collector.cancel()
    mpv.writer.close()
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

"""Server-Sent Events peer for Kiln's stream tests: sse-starlette under uvicorn.

Started by SSEServer.swift on a loopback port; every route is what one test needs. What the server
saw (Last-Event-ID headers, disconnects) is read back from /log/{key}.
"""
import asyncio
import json
import signal
import sys

# A test runner's threads may block SIGTERM; a spawned process inherits the mask.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

import uvicorn
from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

LOG = {}
GATES = {}


def log(key, entry):
    LOG.setdefault(key, []).append(entry)


def gate(key):
    return GATES.setdefault(key, asyncio.Event())


async def ready(request):
    return JSONResponse({"ok": True})


async def events(request):
    """count events with ids 1..count (or after Last-Event-ID), data {"n": i}; retry=ms first."""
    count = int(request.query_params.get("count", "3"))
    retry = request.query_params.get("retry")
    last = request.headers.get("last-event-id")
    start = int(last) + 1 if last else 1

    async def body():
        if retry:
            yield ServerSentEvent(retry=int(retry), comment="retry")
        for i in range(start, count + 1):
            yield ServerSentEvent(data=json.dumps({"n": i, "text": f"event {i}"}), id=str(i), event="tick")

    return EventSourceResponse(body(), ping=3600)


async def dropping(request):
    """total events, per connection at most `per`, then the connection ends: cleanly (mode=close)
    or abruptly, without the last chunk (mode=abort). Records each connection's Last-Event-ID."""
    key = request.path_params["key"]
    total = int(request.query_params.get("total", "6"))
    per = int(request.query_params.get("per", "2"))
    retry = int(request.query_params.get("retry", "10"))
    mode = request.query_params.get("mode", "close")
    last = request.headers.get("last-event-id")
    log(key, {"last_event_id": last})
    start = int(last) + 1 if last else 1
    if start > total:
        return Response(status_code=204)

    async def body():
        yield ServerSentEvent(retry=retry, comment="hello")
        for i in range(start, min(total, start + per - 1) + 1):
            yield ServerSentEvent(data=json.dumps({"n": i}), id=str(i))
        if mode == "abort":
            raise RuntimeError("connection dropped on purpose")

    return EventSourceResponse(body(), ping=3600)


async def gated(request):
    """One event, then nothing until /release/{key} (logged "released") or 20 s have passed
    (logged "timed out": a client that waits for the whole body gets it then); then a second
    event and the end."""
    key = request.path_params["key"]

    async def body():
        yield ServerSentEvent(data=json.dumps({"n": 1}), id="1")
        try:
            await asyncio.wait_for(gate(key).wait(), timeout=20)
            log(key, "released")
        except asyncio.TimeoutError:
            log(key, "timed out")
        yield ServerSentEvent(data=json.dumps({"n": 2}), id="2")

    return EventSourceResponse(body(), ping=3600)


async def release(request):
    gate(request.path_params["key"]).set()
    return JSONResponse({"released": True})


async def holding(request):
    """One event, then a comment every 20 ms until the client leaves (logged "disconnected"), or
    for 20 s at most (logged "finished": a client that waits for the whole body gets it then)."""
    key = request.path_params["key"]
    log(key, "connected")

    async def body():
        finished = False
        try:
            yield b"id: 1\ndata: {\"n\": 1}\n\n"
            for _ in range(1000):
                await asyncio.sleep(0.02)
                yield b": still here\n\n"
            finished = True
        finally:
            log(key, "finished" if finished else "disconnected")

    return StreamingResponse(body(), media_type="text/event-stream")


async def many(request):
    """n events of about `size` bytes, paced to about `rate` bytes a second, as a live feed
    sends them (0: as fast as the connection takes them)."""
    n = int(request.query_params.get("n", "10000"))
    size = int(request.query_params.get("size", "100"))
    rate = int(request.query_params.get("rate", "0"))
    pad = "x" * size
    batch = 50

    async def body():
        for i in range(1, n + 1):
            yield f"id: {i}\ndata: {{\"n\": {i}, \"pad\": \"{pad}\"}}\n\n".encode()
            if rate and i % batch == 0:
                await asyncio.sleep(batch * size / rate)

    return StreamingResponse(body(), media_type="text/event-stream")


BYTEWISE = (
    "\ufeff: a comment first\r\n"
    "retry: 25\n"
    "event: greeting\r"
    "data: {\"n\": 1,\n"
    "data:  \"text\": \"two lines\"}\r\n"
    "id: 7\n"
    "\n"
    "data:{\"n\": 2, \"text\": \"no space after the colon\"}\r"
    "\r"
    "data\n"
    "\n"
    "id: 8\r\n"
    "event: ignored-without-data\r\n"
    "\r\n"
    "data: {\"n\": 3, \"text\": \"caf\u00e9 \u2603\"}\n"
    "unknown: field\n"
    "\n"
    "data: {\"n\": 4, \"text\": \"never finished\"}\n"
)


async def bytewise(request):
    """A fixed stream covering the standard's cases, written one byte at a time."""
    async def body():
        for byte in BYTEWISE.encode("utf-8"):
            yield bytes([byte])
            await asyncio.sleep(0)

    return StreamingResponse(body(), media_type="text/event-stream")


async def mixed(request):
    """Events whose data is good, repairable, unreadable, then good again."""
    async def body():
        yield ServerSentEvent(data=json.dumps({"n": 1, "text": "fine"}), id="1")
        yield ServerSentEvent(data=json.dumps({"n": "2", "text": None}), id="2")
        yield ServerSentEvent(data="{not json", id="3")
        yield ServerSentEvent(data=json.dumps({"n": 4, "text": "fine again"}), id="4")

    return EventSourceResponse(body(), ping=3600)


async def ndjson(request):
    """JSON Lines with a blank line, a CRLF, an unreadable line and a last line without an end."""
    lines = [
        b'{"n": 1, "text": "one"}\n',
        b'\n',
        b'{"n": "2", "text": null}\r\n',
        b'{"n": 3, "text": \n',
        b'{"n": 4, "text": "four"}\n',
        b'{"n": 5, "text": "last, with no line end"}',
    ]

    async def body():
        for line in lines:
            yield line
            await asyncio.sleep(0)

    return StreamingResponse(body(), media_type="application/x-ndjson")


async def no_content(request):
    log(request.path_params["key"], "asked")
    return Response(status_code=204)


async def failing(request):
    return JSONResponse({"message": "The stream is closed for maintenance."}, status_code=503)


async def read_log(request):
    return JSONResponse(LOG.get(request.path_params["key"], []))


app = Starlette(routes=[
    Route("/ready", ready),
    Route("/events", events),
    Route("/drop/{key}", dropping),
    Route("/gated/{key}", gated),
    Route("/release/{key}", release, methods=["POST", "GET"]),
    Route("/hold/{key}", holding),
    Route("/many", many),
    Route("/bytewise", bytewise),
    Route("/mixed", mixed),
    Route("/nocontent/{key}", no_content),
    Route("/ndjson", ndjson),
    Route("/failing", failing),
    Route("/log/{key}", read_log),
])

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")

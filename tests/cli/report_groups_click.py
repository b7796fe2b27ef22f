#!/usr/bin/env python3
"""Drives the report --groups canvas page in headless Chromium as a user
would, over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON
messages ending in NUL, commands on fd 3, answers on fd 4; standard library
only). Usage: report_groups_click.py PAGE.html I J R C. Hovers over block I,J
and prints the tooltip, clicks it and prints the canvas' data-view and the
heading, hovers over the drilled view's cell R,C and prints the tooltip,
then follows "all groups" back and prints data-view again; last, the
wall-clock milliseconds until each of the three views was drawn
("timing: load N ms, drill N ms, back N ms", for tests/bench/report-html)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

page = sys.argv[1]
bi, bj, ci, cj = (int(v) for v in sys.argv[2:6])
profile = tempfile.mkdtemp()


def child_fds():
    """fd 3 and 4 of the child, inheritable: Python's pipes are close-on-
    exec, and dup2 onto the same number keeps that flag. Both are first
    moved above 4 so neither overwrites the other."""
    r, w = os.dup(to_chrome_r), os.dup(from_chrome_w)
    os.dup2(r, 3)
    os.dup2(w, 4)
    os.set_inheritable(3, True)
    os.set_inheritable(4, True)


to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()
proc = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
     "--hide-scrollbars", "--force-device-scale-factor=1",
     "--window-size=1000,900", "--remote-debugging-pipe",
     f"--user-data-dir={profile}", "about:blank"],
    preexec_fn=lambda: child_fds(),
    stdout=subprocess.DEVNULL, stderr=open(os.environ.get("CHROMIUM_LOG", os.devnull), "w"),
    close_fds=False)
os.close(to_chrome_r)
os.close(from_chrome_w)
buf, next_id, session = b"", 0, None
deadline = time.monotonic() + 90


def read_message():
    global buf
    while b"\0" not in buf:
        if time.monotonic() > deadline:
            sys.exit("timed out")
        chunk = os.read(from_chrome_r, 65536)
        if not chunk:
            sys.exit("chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    return json.loads(msg)


def call(method, **params):
    global next_id
    next_id += 1
    msg = {"id": next_id, "method": method, "params": params}
    if session and not method.startswith("Target."):
        msg["sessionId"] = session
    os.write(to_chrome_w, json.dumps(msg).encode() + b"\0")
    while True:
        m = read_message()
        if m.get("id") == next_id:
            if "error" in m:
                sys.exit(f"{method}: {m['error']}")
            return m["result"]


def js(expr):
    r = call("Runtime.evaluate", expression=expr, returnByValue=True)
    return r["result"].get("value")


def wait_for(expr):
    while not js(expr):
        if time.monotonic() > deadline:
            sys.exit(f"never true: {expr}")
        time.sleep(0.02)


def mouse(kind, x, y):
    extra = {"button": "left", "clickCount": 1} if kind != "mouseMoved" else {}
    call("Input.dispatchMouseEvent", type=kind, x=x, y=y, **extra)


try:
    started = time.monotonic()
    target = call("Target.createTarget", url="file://" + os.path.abspath(page))
    session = call("Target.attachToTarget", targetId=target["targetId"],
                   flatten=True)["sessionId"]
    wait_for("document.getElementById('matrix') && "
             "document.getElementById('matrix').getAttribute('data-view')")
    load_ms = (time.monotonic() - started) * 1000
    x, y, px = (int(v) for v in js(
        "document.getElementById('matrix').getAttribute('data-rect')").split())
    cx, cy = x + bj * px + px // 2, y + bi * px + px // 2
    mouse("mouseMoved", cx, cy)
    print("block tip:", js("document.getElementById('tip').textContent"))
    started = time.monotonic()
    mouse("mousePressed", cx, cy)
    mouse("mouseReleased", cx, cy)
    wait_for("document.getElementById('matrix').getAttribute('data-view')"
             f" === 'block {bi},{bj}'")
    drill_ms = (time.monotonic() - started) * 1000
    print("view:", js("document.getElementById('matrix').getAttribute('data-view')"))
    print("heading:", js("document.getElementById('view').textContent"))
    x, y, px = (int(v) for v in js(
        "document.getElementById('matrix').getAttribute('data-rect')").split())
    mouse("mouseMoved", x + cj * px + px // 2, y + ci * px + px // 2)
    print("cell tip:", js("document.getElementById('tip').textContent"))
    started = time.monotonic()
    js("document.getElementById('back').click()")
    wait_for("document.getElementById('matrix').getAttribute('data-view')"
             " === 'groups'")
    back_ms = (time.monotonic() - started) * 1000
    print("back:", js("document.getElementById('matrix').getAttribute('data-view')"))
    print(f"timing: load {load_ms:.0f} ms, drill {drill_ms:.0f} ms, "
          f"back {back_ms:.0f} ms")
finally:
    proc.kill()
    proc.wait()
    shutil.rmtree(profile, ignore_errors=True)

"""A headless Chromium for the page tests, driven with the standard library only.

:class:`Browser` speaks the Chrome DevTools protocol over ``--remote-debugging-pipe``;
:func:`dump_dom` runs ``chromium --dump-dom``.  Tests that need a browser carry
:data:`needs_browser`: they skip when no ``chromium`` (or ``chromium-browser``) is on the
PATH, or when ``KNIGHTGRAPH_NO_BROWSER=1``.  Every browser is started in a new session and
its whole process group is killed afterwards, so none is left behind.  Shared by
``tests/test_tourpage.py`` and ``tests/test_playpage.py``.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import importlib
import io
import json
import os
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_BROWSER = os.environ.get("KNIGHTGRAPH_NO_BROWSER", "") not in ("", "0")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None or NO_BROWSER,
    reason=(
        "browser tests disabled by KNIGHTGRAPH_NO_BROWSER=1"
        if NO_BROWSER
        else "no chromium on the PATH (Debian: apt-get install -y chromium)"
    ),
)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def dump_dom(url: str, profile: Path, *, budget_ms: int = 3000, timeout: float = 30) -> str:
    """The DOM of ``url`` after its scripts ran (``chromium --dump-dom``)."""
    assert CHROMIUM is not None
    args = [
        CHROMIUM,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        f"--user-data-dir={profile}",
        f"--virtual-time-budget={budget_ms}",
        "--window-size=900,900",
        "--dump-dom",
        url,
    ]
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    finally:
        _kill_group(proc.pid)  # its helpers too, even after a timeout
        proc.wait()
    assert proc.returncode == 0, proc.returncode
    return out.decode("utf-8")


class Browser:
    """Headless Chromium driven over the DevTools protocol on ``--remote-debugging-pipe``.

    Chromium reads commands from its fd 3 and writes replies and events to its
    fd 4, each a JSON message ended by a NUL byte.  One page target is used,
    attached in flat mode so commands carry its ``sessionId``.
    """

    def __init__(self, executable: str, width: int = 900, height: int = 900) -> None:
        self.profile = tempfile.mkdtemp(prefix="kg-chromium-")
        commands_r, commands_w = os.pipe()
        replies_r, replies_w = os.pipe()
        # staged above fd 10 so that the dup2s onto 3 and 4 cannot clobber each other
        child_r = fcntl.fcntl(commands_r, fcntl.F_DUPFD_CLOEXEC, 10)
        child_w = fcntl.fcntl(replies_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(commands_r)
        os.close(replies_w)
        args = [
            executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--remote-debugging-pipe",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--mute-audio",
            f"--user-data-dir={self.profile}",
            f"--window-size={width},{height}",
            "about:blank",
        ]
        try:
            self.pid = os.posix_spawn(
                executable,
                args,
                os.environ,
                setsid=True,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, child_r, 3),
                    (os.POSIX_SPAWN_DUP2, child_w, 4),
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                    (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                ],
            )
        finally:
            os.close(child_r)
            os.close(child_w)
        self._out, self._in = commands_w, replies_r
        self._buffer = b""
        self._id = 0
        self.session: str | None = None
        try:
            targets = self.send("Target.getTargets")["targetInfos"]
            page = next(t["targetId"] for t in targets if t["type"] == "page")
            self.session = self.send("Target.attachToTarget", targetId=page, flatten=True)[
                "sessionId"
            ]
            self.send(
                "Emulation.setDeviceMetricsOverride",
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=False,
            )
        except BaseException:
            self.close()
            raise

    def send(self, method: str, timeout: float = 15, **params: Any) -> dict[str, Any]:
        """Send one command; return its result (events in between are dropped)."""
        self._id += 1
        message: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session is not None and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\0", 1)
                reply = json.loads(raw)
                if reply.get("id") == self._id:
                    if "error" in reply:
                        raise RuntimeError(f"{method}: {reply['error']}")
                    result: dict[str, Any] = reply["result"]
                    return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"chromium did not answer {method} in {timeout} s")
            if select.select([self._in], [], [], left)[0]:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self._buffer += chunk

    def js(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str, timeout: float = 15) -> None:
        """Navigate to ``url`` and wait until the page's script has set it up."""
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while self.js("document.body && document.body.dataset.ready") != "true":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not get ready in {timeout} s")
            time.sleep(0.02)

    def open_plain(self, url: str, timeout: float = 15) -> None:
        """Navigate to ``url`` and wait for its load event (any page)."""
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while self.js("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not load in {timeout} s")
            time.sleep(0.02)

    def text(self, ident: str) -> str:
        value: str = self.js(f"document.getElementById({json.dumps(ident)}).textContent")
        return value

    def slide(self, step: int) -> None:
        """Move the slider as a user would: set its value and fire its ``input`` event."""
        self.js(
            f"(function () {{ var s = document.getElementById('slider'); s.value = '{step}';"
            " s.dispatchEvent(new Event('input', {bubbles: true})); })()"
        )

    def click(self, ident: str) -> None:
        self.js(f"document.getElementById({json.dumps(ident)}).click()")

    def mouse(self, x: float, y: float, kind: str = "mouseMoved") -> None:
        params: dict[str, Any] = {"type": kind, "x": x, "y": y}
        if kind != "mouseMoved":
            params.update(button="left", clickCount=1)
        self.send("Input.dispatchMouseEvent", **params)

    def screenshot(self) -> bytes:
        return base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])

    def close(self) -> None:
        """Close the browser, then kill its process group whatever happened."""
        with contextlib.suppress(Exception):
            self.session = None
            os.write(self._out, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):
                if os.waitpid(self.pid, os.WNOHANG)[0]:
                    break
            time.sleep(0.02)
        _kill_group(self.pid)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        for fd in (getattr(self, "_out", None), getattr(self, "_in", None)):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)


@contextlib.contextmanager
def browser(width: int = 900, height: int = 900) -> Iterator[Browser]:
    assert CHROMIUM is not None
    b = Browser(CHROMIUM, width, height)
    try:
        yield b
    finally:
        b.close()


def square_box(b: Browser, name: str) -> tuple[float, float, float]:
    """Where square ``name`` is in the window: its centre and width, in CSS pixels.

    The page puts its geometry on ``#stage``: ``data-ox`` and ``data-oy`` (the
    board's top-left corner in the canvas) and ``data-cell`` (a square's width).
    """
    left, top, ox, oy, cell, m = b.js(
        "(function () { var s = document.getElementById('stage'),"
        " r = document.getElementById('overlay').getBoundingClientRect();"
        " return [r.left, r.top, +s.dataset.ox, +s.dataset.oy, +s.dataset.cell,"
        " +document.body.dataset.rows]; })()"
    )
    match = re.fullmatch(r"([a-z]+)([0-9]+)", name)
    assert match
    c, r = (
        importlib.import_module("knightgraph.boards.board").file_index(match.group(1)),
        int(match.group(2)) - 1,
    )
    return left + ox + (c + 0.5) * cell, top + oy + (m - 1 - r + 0.5) * cell, cell


def square_centre(b: Browser, name: str) -> tuple[float, float]:
    x, y, _ = square_box(b, name)
    return x, y


def png_colours(png: bytes) -> tuple[tuple[int, int], int, set[tuple[int, ...]]]:
    """The size, the number of distinct colours and the colours of a PNG screenshot."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = {tuple(rgb) for _count, rgb in image.getcolors(maxcolors=1 << 24) or []}  # type: ignore[arg-type]
    return image.size, len(colours), colours


def has_colour(colours: set[tuple[int, ...]], hex_colour: str, tolerance: int = 6) -> bool:
    want = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return any(
        all(abs(a - b) <= tolerance for a, b in zip(rgb, want, strict=True)) for rgb in colours
    )

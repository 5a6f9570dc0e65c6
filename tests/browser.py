"""Headless Chromium for the tests of pages we write (report.html, chat-session.html): DOM, layout probes, screenshots.

Chromium runs with a fresh profile, HOME and caches inside a temporary folder it is given, no network
and no background services, so a test that uses it writes nothing outside its own temp dir.
"""

from __future__ import annotations

import contextlib
import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
    "--proxy-server=127.0.0.1:9",
    "--virtual-time-budget=3000",
    "--allow-file-access-from-files",
)
_PROBE = re.compile(r'<pre id="lab-probe">(.*?)</pre>', re.S)


def chromium() -> str | None:
    """The Chromium (or Chrome) binary of this machine, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(page: Path, *args: str, width: int, height: int) -> str:
    binary = chromium()
    if binary is None:
        raise RuntimeError("no Chromium on this machine")
    with tempfile.TemporaryDirectory(prefix="lab09-chromium-") as home:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "XDG_CONFIG_HOME": home,
            "XDG_CACHE_HOME": home,
            "TMPDIR": home,
            "LANG": "C.UTF-8",
        }
        result = subprocess.run(
            [
                binary,
                *FLAGS,
                f"--user-data-dir={home}/profile",
                f"--window-size={width},{height}",
                *args,
                Path(page).resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            cwd=home,
        )
    if result.returncode != 0:
        raise RuntimeError(f"chromium failed ({result.returncode}): {result.stderr[-2000:]}")
    return result.stdout


def dump_dom(page: Path, width: int = 1000, height: int = 800) -> str:
    """The DOM after the page loaded and its scripts ran, serialised as HTML."""
    return _run(page, "--dump-dom", width=width, height=height)


def probe(page: Path, expression: str, width: int = 1000, height: int = 800):
    """Evaluate a JavaScript `expression` inside the loaded page, `width` CSS pixels wide, after its own load
    handlers ran; return its JSON value.  The page is shown in a frame of exactly that width (headless
    windows are never narrower than 500 px), from a copy, so the original is not touched."""
    script = (
        "<script>const frame = document.getElementById('page');"
        "frame.addEventListener('load', () => setTimeout(() => {"
        "const out = document.createElement('pre'); out.id = 'lab-probe';"
        f"try {{ out.textContent = JSON.stringify({{value: frame.contentWindow.eval({json.dumps(expression)})}}); }}"
        "catch (error) { out.textContent = JSON.stringify({error: String(error)}); }"
        "document.body.appendChild(out); }, 0));</script>"
    )
    with _framed(page, width, height, script) as wrapper:
        dom = dump_dom(wrapper, max(width, 500) + 20, height + 20)
    found = _PROBE.search(dom)
    if not found:
        raise RuntimeError("the probe did not run")
    answer = json.loads(html.unescape(found.group(1)))
    if "error" in answer:
        raise RuntimeError(f"the probe raised: {answer['error']}")
    return answer["value"]


@contextlib.contextmanager
def _framed(page: Path, width: int, height: int, script: str = ""):
    """A temporary copy of `page` shown in a frame `width` x `height`, beside a wrapper page."""
    with tempfile.TemporaryDirectory(prefix="lab09-frame-") as folder:
        shutil.copy(page, Path(folder) / "page.html")
        wrapper = Path(folder) / "wrapper.html"
        wrapper.write_text(
            f"<!doctype html><html><body style=\"margin:0\"><iframe id=\"page\" src=\"page.html\" "
            f"style=\"border:0;width:{width}px;height:{height}px\"></iframe>{script}</body></html>",
            encoding="utf-8",
        )
        yield wrapper


def screenshot(page: Path, png: Path, width: int = 1000, height: int = 800) -> Path:
    """A PNG of the page laid out `width` CSS pixels wide (in a frame: see `probe`)."""
    with _framed(page, width, height) as wrapper:
        _run(wrapper, f"--screenshot={Path(png).resolve()}", width=width, height=height)
    return Path(png)

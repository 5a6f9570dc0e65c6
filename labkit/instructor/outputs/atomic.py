"""Writes the class outputs into OUT all at once or not at all, with the user's umask.

Why (staging, rollback, modes): docs/design.md#labkitinstructoroutputsatomicpy
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

STAGING = ".labkit-staging-"


class Staging:
    """OUT's staging folder for one run: `create`, `write` and `folder` put outputs in it, `scratch` names a
    private file of the run (never committed), `commit` renames the outputs into place; leaving the `with`
    block removes the folder, committed or not."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.path = self.out / f"{STAGING}{os.getpid()}"
        self._made: Path | None = None  # the topmost folder of OUT's path this run created

    def __enter__(self) -> Staging:
        missing = self.out
        while not missing.parent.exists() and missing.parent != missing:
            missing = missing.parent
        existed = self.out.exists()
        self.out.mkdir(parents=True, exist_ok=True)
        self._made = None if existed else missing
        _remove_stale(self.out)
        shutil.rmtree(self.path, ignore_errors=True)
        os.mkdir(self.path, 0o700)  # the run's own: no child of another uid reads or writes in it while it runs
        return self

    def __exit__(self, *_exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
        if self._made is not None and not _committed(self.out):  # nothing was written: leave no empty OUT
            shutil.rmtree(self._made, ignore_errors=True)

    def folder(self, name: str) -> None:
        os.mkdir(self.path / name)

    def create(self, name: str, text: bool = False):
        """A new file of the outputs, open for writing (bytes, or UTF-8 text with "\\n" line ends)."""
        stream = _open(self.path / name)
        return io.TextIOWrapper(stream, encoding="utf-8", newline="") if text else stream

    def write(self, name: str, content: bytes) -> None:
        _create(self.path / name, content)

    def scratch(self, name: str) -> Path:
        return self.path / f".{name}"

    def commit(self, names: list[str]) -> None:
        """Rename the outputs `names` into OUT, replacing those of the same names, all or none."""
        _swap(self.out, self.path, names)


def commit(out: Path, files: dict[str, bytes], folders: dict[str, dict[str, bytes]]) -> None:
    """Put `files` (name -> content) and `folders` (name -> {file name -> content}) into `out`, replacing
    the outputs of the same names, all or none.  Other files in `out` are left alone."""
    with Staging(out) as staging:
        for name, content in files.items():
            staging.write(name, content)
        for name, contents in folders.items():
            staging.folder(name)
            for file_name, content in contents.items():
                staging.write(f"{name}/{file_name}", content)
        staging.commit([*files, *folders])


def _open(path: Path):
    """Every output file is created here: new (never through a link), 0666 minus the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    return os.fdopen(fd, "wb")


def _create(path: Path, content: bytes) -> None:
    with _open(path) as stream:
        stream.write(content)


def _swap(out: Path, staging: Path, names: list[str]) -> None:
    """Rename each staged output into `out`; on a failure, undo the renames already made."""
    aside = staging / ".previous"
    os.mkdir(aside)
    done: list[tuple[str, bool]] = []  # (name, whether an earlier output was moved aside)
    try:
        for name in names:
            existed = os.path.lexists(out / name)
            if existed:
                os.replace(out / name, aside / name)
            done.append((name, existed))
            os.replace(staging / name, out / name)
    except BaseException:
        for name, existed in reversed(done):
            try:
                if os.path.lexists(out / name) and not os.path.lexists(staging / name):
                    os.replace(out / name, staging / name)
                if existed:
                    os.replace(aside / name, out / name)
            except OSError:
                pass
        raise


def _committed(out: Path) -> bool:
    """Whether OUT holds anything but staging folders."""
    try:
        return any(not entry.name.startswith(STAGING) for entry in os.scandir(out))
    except OSError:
        return True


def _remove_stale(out: Path) -> None:
    """Staging folders a killed run left behind (their process is gone)."""
    for path in out.glob(STAGING + "*"):
        pid = path.name[len(STAGING) :]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

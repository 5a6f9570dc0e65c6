"""The interpreter a child runs, outside any virtual environment, and the folders it reads; for a child of a uid
of its own, one that an unprivileged user can run (else PermissionError: that plan cannot work here).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from labkit.run.sandbox import IS_WINDOWS


def interpreter() -> str:
    """The interpreter outside any virtual environment, so the child's paths lead nowhere near the lab."""
    if sys.prefix != sys.base_prefix:
        names = (f"python{sys.version_info[0]}.{sys.version_info[1]}", "python3", "python")
        folders = [
            Path(sys.base_prefix) / ("" if IS_WINDOWS else "bin"),
            Path(getattr(sys, "_base_executable", "") or sys.executable).parent,
        ]
        for folder in folders:
            for name in names:
                candidate = folder / (name + (".exe" if IS_WINDOWS else ""))
                if candidate.is_file() and os.access(candidate, os.X_OK):
                    return str(candidate)
    return sys.executable


def reachable_by_others(path: str) -> bool:
    """Whether a user with no rights of ours can run `path`: every folder above it searchable by others."""
    real = Path(os.path.realpath(path))
    try:
        return bool(os.stat(real).st_mode & 0o005 == 0o005) and all(
            os.stat(folder).st_mode & 0o001 for folder in real.parents
        )
    except OSError:
        return False


def interpreter_for(drop_uid: bool) -> tuple[str, list[str]]:
    """The interpreter for a child and the folders it reads.  An unprivileged uid cannot use one installed
    in a private place (pyenv in root's home): then a system interpreter of the same version is used, or
    PermissionError tells the caller that this plan cannot work here."""
    base = interpreter()
    if not drop_uid or (reachable_by_others(base) and all(reachable_by_others(f) for f in python_folders())):
        return base, python_folders()
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    for folder in ("/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"):
        candidate = os.path.join(folder, version)
        if os.path.isfile(candidate) and reachable_by_others(candidate):
            return candidate, [os.path.dirname(os.path.dirname(os.path.realpath(candidate)))]
    raise PermissionError(f"no {version} that an unprivileged user can run")


def python_folders() -> list[str]:
    """The folders the child interpreter reads: its installation (not the lab's virtual environment)."""
    folders = {
        os.path.realpath(sys.base_prefix),
        os.path.realpath(sys.base_exec_prefix),
        os.path.dirname(os.path.dirname(os.path.realpath(interpreter()))),
    }
    return sorted(folder for folder in folders if folder and folder != "/")

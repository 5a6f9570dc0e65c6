"""Builds what leaves this repository: the student handout (`make dist`) and the Gradescope bundle.

handout:     dist/<handout>/, dist/<handout>.tar.gz and dist/<handout>.zip (for students with only Python:
             Windows unpacks it without tools; <handout> is the spec's Lab.handout) — the stub, the harness,
             the sheets, the Makefile; nothing of solutions/, tests/ or labkit/instructor/.  Built from the
             committed tree (`git archive HEAD`), so a solution an instructor tried in the lab's target file
             never ships; and refused unless the built handout's own `make test` fails every case of it.
gradescope:  dist/gradescope-autograder.zip — setup.sh and run_autograder at the root, the harness with its
             grader but without the stub, and solutions/: the course file (solutions/grading.ini, with the
             secret) and the reference solution, the generated checks' answer key, read only by the grader
             (the student's sandboxed child cannot).
Archives are reproducible: sorted entries, the last commit's time (always after 1980, which zip needs),
fixed owners and modes.  Files are created with the user's umask.
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path, PurePosixPath

from labkit.i18n import text
from labkit.instructor.outputs import atomic
from labkit.instructor.config import ATTEMPTS, LANGUAGES, VISIBILITIES, course_file
from labkit.spec import active

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
LAB = active()
NAME = LAB.handout_name
HANDOUT_TOP = ("Makefile", "lab.py", *LAB.sheets.values(), "requirements.txt", ".gitignore")
HANDOUT_TREES = (*LAB.trees, "labkit")
INSTRUCTOR_ONLY = "labkit/instructor"  # the core's part of the trees that never ships in the handout
NEVER_SHIPPED = (INSTRUCTOR_ONLY, *LAB.grading_only)  # and the lab's (its spec's grading_only)
HANDOUT_PATHS = (*HANDOUT_TOP, *HANDOUT_TREES, *(f":(exclude){path}" for path in NEVER_SHIPPED))  # as git pathspecs
FALLBACK_TIME = 1704067200  # 2024-01-01 UTC, when the lab is not a git checkout
_VERIFY = PurePosixPath(LAB.verify)
HANDOUT_PYTEST_INI = f"""[pytest]
# `python -m pytest` and IDE test discovery (VS Code, PyCharm) find the six cases of {_VERIFY},
# the same ones `make test` runs.
testpaths = {_VERIFY.parent}
python_files = {_VERIFY.name}
pythonpath = .
"""


class Refused(Exception):
    """The handout must not be built (the message says why)."""


# --- what goes in --------------------------------------------------------------------------------

def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, check=False)


def committed() -> bool:
    """Whether the lab is a git checkout with at least one commit."""
    try:
        return _git("rev-parse", "--verify", "-q", "HEAD").returncode == 0
    except OSError:
        return False


def handout_sources() -> tuple[dict[str, tuple[bytes, int]], int]:
    """(path -> (content, mode), time) of every handout file: from HEAD in a git checkout, else the tree."""
    files: dict[str, tuple[bytes, int]] = {}
    if committed():
        archive = _git("archive", "--format=tar", "HEAD", "--", *HANDOUT_PATHS)
        if archive.returncode != 0:
            raise Refused(archive.stderr.decode("utf-8", "replace").strip())
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            for member in tar.getmembers():
                if member.isfile() and "__pycache__" not in member.name.split("/"):
                    files[member.name] = (tar.extractfile(member).read(), 0o755 if member.mode & 0o111 else 0o644)
        stamp = int(_git("log", "-1", "--format=%ct", "HEAD").stdout.strip() or FALLBACK_TIME)
    else:
        top = [Path(name) for name in HANDOUT_TOP if (ROOT / name).is_file()]
        trees = [path for tree in HANDOUT_TREES for path in _tree(tree) if not _never_shipped(path)]
        for relative in top + trees:
            path = ROOT / relative
            files[relative.as_posix()] = (path.read_bytes(), 0o755 if os.access(path, os.X_OK) else 0o644)
        stamp = int(os.environ.get("SOURCE_DATE_EPOCH", FALLBACK_TIME))
    files["pytest.ini"] = (HANDOUT_PYTEST_INI.encode("utf-8"), 0o644)
    return dict(sorted(files.items())), max(stamp, FALLBACK_TIME)


def _tree(folder: str) -> list[Path]:
    """The files under the lab's `folder`, relative to the lab, sorted; bytecode caches left out."""
    found = [path.relative_to(ROOT) for path in sorted((ROOT / folder).rglob("*"))]
    return [path for path in found if (ROOT / path).is_file() and "__pycache__" not in path.parts]


def _never_shipped(path: Path) -> bool:
    return any(path.as_posix() == kept or path.as_posix().startswith(kept + "/") for kept in NEVER_SHIPPED)


def uncommitted_changes() -> list[str]:
    if not committed():
        return []
    status = _git("status", "--porcelain", "--", *HANDOUT_PATHS).stdout.decode("utf-8", "replace")
    return [line[3:] for line in status.splitlines() if line[3:]]


def gradescope_files() -> dict[str, Path]:
    """Name in the bundle -> file of the lab."""
    files = {p.as_posix(): ROOT / p for tree in HANDOUT_TREES for p in _tree(tree)
             if p.as_posix() != LAB.target and "gradescope" not in p.parts}
    files.update({name: ROOT / INSTRUCTOR_ONLY / "gradescope" / name for name in ("setup.sh", "run_autograder")})
    files.update({name: ROOT / name for name in GRADESCOPE_PRIVATE})
    return files


# --- the handout ---------------------------------------------------------------------------------

def handout(python: str = sys.executable) -> Path:
    """Build dist/<NAME>/ and its archives, or raise Refused (and leave no half-built handout)."""
    files, stamp = handout_sources()
    folder = DIST / NAME
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    try:
        for name, (content, mode) in files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            if mode & 0o111:
                target.chmod(target.stat().st_mode | 0o111 & ~_umask())
        for path in sorted(folder.rglob("*"), reverse=True):
            os.utime(path, (stamp, stamp))
        os.utime(folder, (stamp, stamp))
        check_baseline(folder, python, files)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    atomic.commit(DIST, {f"{NAME}.tar.gz": _tar_gz(files, stamp), f"{NAME}.zip": _zip(files, stamp)}, {})
    return DIST / f"{NAME}.tar.gz"


def check_baseline(folder: Path, python: str, files: dict) -> None:
    """The built handout's `make test` must give exactly 0 passed and every case failed, as TASK.md promises."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "LAB_STUDENT")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    python = os.path.abspath(python) if os.sep in python else python
    result = subprocess.run(["make", "--no-print-directory", "test", f"PYTHON={python}"], cwd=folder, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    total = len(active().selected("test"))
    baseline = text("summary", passed=0, failed=total)
    if result.returncode != 0 and baseline in result.stdout.splitlines():
        return
    passed = _passes(files[LAB.target][0])
    if passed:
        commit = _stub_commit()
        raise Refused(text("dist.not_stub", target=active().target, passed=passed, total=total, stub_commit=commit))
    why = (result.stdout.strip().splitlines() or result.stderr.strip().splitlines() or ["?"])[-1]
    raise Refused(text("dist.baseline", total=total, why=why))


def _passes(source: bytes) -> int:
    """How many of the six cases the handout's target file passes (a committed solution passes some)."""
    from labkit.run.engine import StudentRun
    from labkit.checks import verdict
    with StudentRun(display=LAB.target_name, source=source) as student:
        return sum(verdict(student, case).passed for case in active().selected("test"))


def _stub_commit() -> str:
    """The last commit whose target file passes nothing, to show where the stub can be found."""
    log = _git("log", "--format=%h", "-n", "50", "--", LAB.target).stdout.decode().split()
    for commit in log:
        content = _git("show", f"{commit}:{LAB.target}")
        if content.returncode == 0 and _passes(content.stdout) == 0:
            return commit
    return "<commit>"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _tar_gz(files: dict, stamp: int) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        folders = sorted({"/".join(name.split("/")[:i]) for name in files for i in range(1, name.count("/") + 1)})
        for name in sorted([NAME] + [f"{NAME}/{folder}" for folder in folders]):
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, stamp
            tar.addfile(info)
        for name, (content, mode) in files.items():
            info = tarfile.TarInfo(f"{NAME}/{name}")
            info.size, info.mode, info.mtime = len(content), mode, stamp
            tar.addfile(info, io.BytesIO(content))
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=stamp) as stream:
        stream.write(buffer.getvalue())
    return packed.getvalue()


def _zip(files: dict, stamp: int) -> bytes:
    buffer = io.BytesIO()
    when = time.gmtime(stamp)[:6]
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, (content, mode) in files.items():
            info = zipfile.ZipInfo(f"{NAME}/{name}", date_time=when)
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, content)
    return buffer.getvalue()


# --- Gradescope --------------------------------------------------------------------------------

def gradescope_settings(environ=os.environ) -> str:
    """The course's settings for run_autograder, from the environment `make gradescope` ran in
    (LAB_LANG=en for English feedback, LAB_VISIBILITY, LAB_ATTEMPT=best)."""
    lines = []
    for name, allowed in (("LAB_LANG", LANGUAGES), ("LAB_VISIBILITY", VISIBILITIES), ("LAB_ATTEMPT", ATTEMPTS)):
        value = environ.get(name, "").strip().lower()
        if value in allowed:
            lines.append(f"export {name}={value}")
    return "\n".join(lines) or "# (defaults: Chinese, visible, the latest attempt)"


# the answer key, the scheme and its secret
GRADESCOPE_PRIVATE = (LAB.solution, course_file(LAB).relative_to(ROOT).as_posix())


def gradescope() -> Path:
    """The bundle: the answer key and the scheme unpack readable by their owner only (0600), and setup.sh
    makes them so again whatever the unzip did, for the grader refuses to grade where student code could read
    them (under a uid of its own without Landlock, only these modes keep them from it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, source in sorted(gradescope_files().items()):
            info = zipfile.ZipInfo(name, date_time=time.gmtime(FALLBACK_TIME)[:6])
            mode = 0o755 if name in ("setup.sh", "run_autograder") else 0o600 if name in GRADESCOPE_PRIVATE else 0o644
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            content = source.read_bytes()
            if name == "run_autograder":
                content = content.replace(b"# LAB_SETTINGS", gradescope_settings().encode("utf-8"))
            bundle.writestr(info, content)
    atomic.commit(DIST, {"gradescope-autograder.zip": buffer.getvalue()}, {})
    return DIST / "gradescope-autograder.zip"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m labkit.instructor.dist", description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="?", choices=("handout", "gradescope"), default="handout")
    parser.add_argument("--python", default=sys.executable, help="an interpreter with pytest, for the check")
    args = parser.parse_args(argv)
    try:
        if args.what == "gradescope":
            built = gradescope()
        else:
            changed = uncommitted_changes()
            if changed:
                print(text("dist.uncommitted", files=", ".join(changed)), file=sys.stderr)
            built = handout(args.python)
            print(text("dist.built", folder=f"{(DIST / NAME).relative_to(ROOT)}/", archives=", ".join(
                str(path.relative_to(ROOT)) for path in (built, built.with_name(f"{NAME}.zip")))))
            return 0
    except Refused as refused:
        print(str(refused), file=sys.stderr)
        return 1
    print(built.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

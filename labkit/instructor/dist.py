"""Builds what leaves this repository: the student handout (`make dist`) and the Gradescope bundle.

handout:     dist/<handout>/ with its .tar.gz and .zip, from the committed tree, checked by its own make test.
gradescope:  dist/gradescope-autograder.zip, the grader with the lab's answer key and course file.
What each holds and why: docs/design.md#labkitinstructordistpy
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path, PurePosixPath

from labkit import course
from labkit.entry import VERIFY, target_names
from labkit.i18n import text
from labkit.instructor.outputs import atomic
from labkit.instructor.config import ATTEMPTS, LANGUAGES, VISIBILITIES, course_file
from labkit.spec import active, module_of

ROOT = Path(__file__).resolve().parents[2]  # the course repository
DIST = ROOT / "dist"
LAB = active()
NAME = LAB.handout_name
HOME = os.path.relpath(LAB.root.resolve(), ROOT.resolve()).replace(os.sep, "/")  # the lab's root in the course:
# "." for the default lab, labs/<name> for every further lab; its handout's top
INSTRUCTOR_ONLY = f"{course.CORE}/instructor"  # the core's part that never ships in the handout
FALLBACK_TIME = 1704067200  # 2024-01-01 UTC, when the lab is not a git checkout
# the line of framework/__init__.py that names the default lab, with the comment above it
FIXED_LINE = re.compile(r'^(?:#.*\n)*LAB_SPEC = .*$', re.M)


def in_course(path: str) -> str:
    """A path of the lab's (from its root) as a path of the course (from its top)."""
    return path if HOME == "." else f"{HOME}/{path}"


def layout(lab=LAB, grading: bool = False) -> tuple[dict[str, str], dict[str, str]]:
    """What a handout of `lab` holds, as (files, trees): handout path -> course path, for single files and for the
    folders whose every file ships (less `excluded`).  The course's top files, its core and its shared face, the
    lab's sheets and folders laid out from its root at the handout's top, and what it ships of other labs.
    `grading`: also the lab's grading-only files (the Gradescope bundle, which grades)."""
    files = {name: name for name in (*course.SHARED, *course.FACE)}
    files.update({sheet: in_course(sheet) for sheet in lab.sheets.values()})
    files.update(lab.ships)
    trees = {course.CORE: course.CORE, **{tree: in_course(tree) for tree in lab.trees}}
    return files, trees


def excluded(grading: bool = False) -> tuple[str, ...]:
    """Course paths inside the handout's folders that never ship: the core's instructors' part and the lab's
    grading-only files; for `grading` (the Gradescope bundle) only the bundle's own scripts' folder."""
    if grading:
        return (f"{INSTRUCTOR_ONLY}/gradescope",)  # its two scripts go to the bundle's top
    return (INSTRUCTOR_ONLY, *(in_course(path) for path in LAB.grading_only))


def _pathspecs(grading: bool = False) -> list[str]:
    files, trees = layout(grading=grading)
    return [*dict.fromkeys([*files.values(), *trees.values()]), *(f":(exclude){path}" for path in excluded(grading))]


def handout_name(path: str, grading: bool = False) -> str | None:
    """The handout path of a course path, or None when it does not ship."""
    files, trees = layout(grading=grading)
    if any(path == kept or path.startswith(kept + "/") for kept in excluded(grading)):
        return None
    shipped = {source: name for name, source in files.items()}
    if path in shipped:
        return shipped[path]
    for name, folder in sorted(trees.items(), key=lambda item: -len(item[1])):
        if folder == "." or path.startswith(folder + "/"):
            return name + path[len(folder) :] if folder != "." else path
    return None


def own_words(files: dict) -> dict:
    """The handout's files that speak of its lab, written for it: framework/__init__.py fixes the lab (LAB and
    LAB_SPEC in the environment are then neither needed nor read), pytest.ini names its cases, and the first line
    of the Makefile and of lab.py its name (for the default lab what the course's files say already)."""
    first = next(group for group in LAB.groups if group.stage == "test")
    written = dict(files)
    face, mode = files["framework/__init__.py"]
    fixed = (
        f'# the lab this handout runs, fixed by make dist: LAB= and LAB_SPEC= in the environment are not read\n'
        f'LAB_SPEC = "{module_of(LAB)}"\nFIXED = True'
    )
    face = re.sub(r'^"""\S+ harness', lambda _: f'"""{LAB.name} harness', face.decode("utf-8"), count=1)
    written["framework/__init__.py"] = (FIXED_LINE.sub(lambda _: fixed, face, count=1).encode("utf-8"), mode)
    named = f"{LAB.name} · {LAB.title.zh}" if LAB.title.zh else LAB.name
    if "Makefile" in written:
        make, mode = written["Makefile"]
        written["Makefile"] = (
            re.sub(r"^# .*? — ", lambda _: f"# {named} — ", make.decode("utf-8"), count=1).encode("utf-8"),
            mode,
        )
    if "lab.py" in written:
        script, mode = written["lab.py"]
        words = f"{LAB.group_name(first, 'zh')} / {LAB.group_name(first, 'en')} cases"
        script = re.sub(
            r'^(# -\*- coding: utf-8 -\*-\n""")[^\n]*? on any system',
            lambda found: f"{found[1]}{named} on any system",
            script.decode("utf-8"),
            count=1,
        )
        script = re.sub(
            r"^( *python lab\.py test +)(\S+ / the \w+ cases)( +)",
            lambda found: found[1] + words + " " * max(1, len(found[2] + found[3]) - len(words)),
            script,
            count=1,
            flags=re.M,
        )
        core = [name for name in target_names(LAB) if name not in ("test", "help", "run", "watch", "clean")]
        script = re.sub(
            r"(every target: ).*$",
            lambda found: found[1] + ", ".join([*core, "watch", "clean"]),
            script,
            count=1,
            flags=re.M,
        )
        written["lab.py"] = (script.encode("utf-8"), mode)
    verify = PurePosixPath(LAB.verify or VERIFY)
    written["pytest.ini"] = (
        f"""[pytest]
# `python -m pytest` and IDE test discovery (VS Code, PyCharm) find {LAB.group_name(first, 'en')} cases of {verify},
# the same ones `make test` runs.
testpaths = {verify.parent}
python_files = {verify.name}
pythonpath = .
""".encode("utf-8"),
        0o644,
    )
    return dict(sorted(written.items()))


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


def _not_committed(grading: bool = False) -> str | None:
    """The first path the handout needs that HEAD does not hold, or None."""
    for path in [spec for spec in _pathspecs(grading) if not spec.startswith(":")]:
        if not _git("ls-tree", "--name-only", "HEAD", "--", path).stdout.strip():
            return path
    return None


def handout_sources() -> tuple[dict[str, tuple[bytes, int]], int]:
    """(path -> (content, mode), time) of every handout file: from HEAD in a git checkout, else the tree."""
    if committed():
        missing = _not_committed()
        if missing is not None:
            raise Refused(text("dist.not_committed", lab=LAB.name, path=missing))
        archive = _git("archive", "--format=tar", "HEAD", "--", *_pathspecs())
        if archive.returncode != 0:
            raise Refused(archive.stderr.decode("utf-8", "replace").strip().splitlines()[-1])
        found = {}
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            for member in tar.getmembers():
                name = handout_name(member.name)
                if member.isfile() and name and "__pycache__" not in member.name.split("/"):
                    content = tar.extractfile(member)
                    assert content is not None  # extractfile gives every regular file's content
                    found[name] = (content.read(), 0o755 if member.mode & 0o111 else 0o644)
        stamp = int(_git("log", "-1", "--format=%ct", "HEAD").stdout.strip() or FALLBACK_TIME)
    else:
        found = {
            name: (path.read_bytes(), 0o755 if os.access(path, os.X_OK) else 0o644)
            for name, path in tree_files().items()
        }
        stamp = int(os.environ.get("SOURCE_DATE_EPOCH", FALLBACK_TIME))
    scaffold(found)
    return own_words(found), max(stamp, FALLBACK_TIME)


def scaffold(files: dict) -> None:
    """Say which handout files still hold what make new-lab wrote for the instructor ("make this lab yours"): an
    untouched scaffold builds (its own check), but students must not get those words unnoticed."""
    from labkit.instructor.new_lab import SCAFFOLD_WORDS

    kept = [
        name
        for name, (content, _) in sorted(files.items())
        if name.endswith((".md", ".py"))
        and any(words in content.decode("utf-8", "replace") for words in SCAFFOLD_WORDS)
    ]
    if kept:
        print(text("dist.scaffold", lab=LAB.name, files=", ".join(kept)), file=sys.stderr)


def tree_files(grading: bool = False) -> dict[str, Path]:
    """Handout path -> file of the course, from the working tree (no git), sorted; bytecode caches left out."""
    files, trees = layout(grading=grading)
    found = {name: ROOT / source for name, source in files.items() if (ROOT / source).is_file()}
    for folder in trees.values():
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            name = handout_name(relative, grading) if path.is_file() and "__pycache__" not in path.parts else None
            if name is not None:
                found[name] = path
    return dict(sorted(found.items()))


def uncommitted_changes() -> list[str]:
    if not committed():
        return []
    status = _git("status", "--porcelain", "--", *_pathspecs()).stdout.decode("utf-8", "replace")
    return [line[3:] for line in status.splitlines() if line[3:]]


def gradescope_files() -> dict[str, tuple[bytes, int]]:
    """Name in the bundle -> (content, mode): the handout's files with the lab's grading-only ones, without the
    stub, the autograder's two scripts, and the private files (the answer key and the course file)."""
    top = {*course.SHARED, *LAB.sheets.values()}  # the bundle runs the grader, never make
    files = {
        name: (path.read_bytes(), 0o644)
        for name, path in tree_files(grading=True).items()
        if name != LAB.student_file and name not in top
    }
    files = {name: entry for name, entry in own_words(files).items() if name != "pytest.ini"}
    for name in ("setup.sh", "run_autograder"):
        files[name] = ((ROOT / INSTRUCTOR_ONLY / "gradescope" / name).read_bytes(), 0o755)
    for name in GRADESCOPE_PRIVATE:
        files[name] = ((LAB.root / name).read_bytes(), 0o600)
    return dict(sorted(files.items()))


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
    """The built handout's `make test` must give exactly 0 passed and every case failed on its stub, as its sheet
    promises, and every case passed on the reference: run in a student's environment, where neither LAB_SPEC nor
    LAB (set here to a lab there is not) nor the course's PYTHONPATH helps it find its lab."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "LAB_STUDENT", "PYTHONPATH")
    }
    env.update(PYTHONDONTWRITEBYTECODE="1", LAB_SPEC="no_such_lab.spec", LAB="no_such_lab")
    python = os.path.abspath(python) if os.sep in python else python

    def make_test(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["make", "--no-print-directory", "test", f"PYTHON={python}", *args],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )

    def why(result) -> str:
        said = [line for line in result.stderr.strip().splitlines() if not line.startswith("make: ***")]
        return (result.stdout.strip().splitlines() or said or result.stderr.strip().splitlines() or ["?"])[-1]

    result = make_test()
    total = len(active().selected("test"))
    if not (result.returncode != 0 and text("summary", passed=0, failed=total) in result.stdout.splitlines()):
        passed = _passes(files[LAB.student_file][0])
        if passed:
            commit = _stub_commit()
            raise Refused(
                text(
                    "dist.not_stub",
                    student_file=in_course(LAB.student_file),
                    passed=passed,
                    total=total,
                    stub_commit=commit,
                )
            )
        raise Refused(text("dist.baseline", total=total, why=why(result)))
    solved = make_test(f"STUDENT={LAB.solution_path}")
    if not (solved.returncode == 0 and text("summary", passed=total, failed=0) in solved.stdout.splitlines()):
        raise Refused(text("dist.reference", total=total, solution=in_course(LAB.solution), why=why(solved)))


def _passes(source: bytes) -> int:
    """How many of the six cases the handout's student file passes (a committed solution passes some)."""
    from labkit.run.engine import StudentRun
    from labkit.assess import verdict

    with StudentRun(display=LAB.student_file_name, source=source) as student:
        return sum(verdict(student, case).passed for case in active().selected("test"))


def _stub_commit() -> str:
    """The last commit whose student file passes nothing, to show where the stub can be found."""
    log = _git("log", "--format=%h", "-n", "50", "--", in_course(LAB.student_file)).stdout.decode().split()
    for commit in log:
        content = _git("show", f"{commit}:{in_course(LAB.student_file)}")
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
GRADESCOPE_PRIVATE = (LAB.solution, course_file(LAB).relative_to(LAB.root).as_posix())


def gradescope() -> Path:
    """The bundle: the answer key and the scheme unpack readable by their owner only (0600), and setup.sh
    makes them so again whatever the unzip did, for the grader refuses to grade where student code could read
    them (under a uid of its own without Landlock, only these modes keep them from it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name, (content, mode) in gradescope_files().items():
            info = zipfile.ZipInfo(name, date_time=time.gmtime(FALLBACK_TIME)[:6])
            info.external_attr = mode << 16
            info.compress_type = zipfile.ZIP_DEFLATED
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
            missing = _not_committed() if committed() else None
            if missing is not None:
                raise Refused(text("dist.not_committed", lab=LAB.name, path=missing))
            changed = uncommitted_changes()
            if changed:
                print(text("dist.uncommitted", files=", ".join(changed)), file=sys.stderr)
            built = handout(args.python)
            print(
                text(
                    "dist.built",
                    folder=f"{(DIST / NAME).relative_to(ROOT)}/",
                    archives=", ".join(str(path.relative_to(ROOT)) for path in (built, built.with_name(f"{NAME}.zip"))),
                )
            )
            return 0
    except Refused as refused:
        print(str(refused), file=sys.stderr)
        return 1
    print(built.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

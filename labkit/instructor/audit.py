"""Before grading: whether the sandbox level is one the instructor accepts, and what a child could read at it.

A level below full strength is graded only when `UNSAFE=` names it; at every level the lab, the class, OUT,
the course file and the roster are audited.  Why: docs/design.md#labkitinstructorauditpy
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from labkit.i18n import text
from labkit.instructor import config
from labkit.run import bwrap, interpreters, probe, sandbox
from labkit.spec import active

# What Landlock lets a child read besides its interpreter's own folders (labkit/run/child.py's `confine`;
# tests/test_audit.py keeps the two the same).
LANDLOCK_READS = (
    "/usr",
    "/lib",
    "/lib32",
    "/lib64",
    "/bin",
    "/etc/ld.so.cache",
    "/etc/localtime",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
)
ANY = "1"  # UNSAFE=1: whatever level this machine gives
FULL_LANDLOCK = 6  # the Landlock ABI that scopes signals (Linux 6.12): what keeps them in without a pid namespace
MOST_ENTRIES = 500_000  # entries looked at per tree, at most: past it the audit says "at least"
EXAMPLES = 3


# --- choosing a level ------------------------------------------------------------------------------

MISSING_WALLS = ("seccomp", "pid namespace")  # a "(no …)" of these in a level's name is part of its spelling


def spelling(level) -> str:
    """How `UNSAFE=` names a level: its name without the parentheses that explain it, `+` between walls, and
    `-no-<wall>` where a wall is missing (`uid + landlock-3 (no network scoping)` -> `uid+landlock-3`,
    `landlock-6+ (no pid namespace)` -> `landlock-6+-no-pid-namespace`, never the full level's spelling)."""
    core = re.sub(r"\s*\([^)]*\)", "", level.name).replace(" + ", "+").strip()
    return core + "".join(f"-no-{wall.replace(' ', '-')}" for wall in MISSING_WALLS if f"(no {wall})" in level.name)


def choices(unsafe) -> list[str]:
    """The levels UNSAFE= (or --unsafe, LAB_UNSAFE) names: [] for none, ["1"] for any."""
    if unsafe is True:
        return [ANY]
    return [part.strip().lower() for part in str(unsafe or "").split(",") if part.strip()]


def accepts(unsafe, level) -> bool:
    """Whether `level` may be graded at: a full one always, a weaker one when UNSAFE= names it (or says 1)."""
    named = choices(unsafe)
    return level.full or ANY in named or any(fnmatch.fnmatchcase(spelling(level), choice) for choice in named)


def level_refusal(level, unsafe="") -> str:
    """The one line that refuses a level below full strength: what it leaves open, what would make it full and
    how to get that, and how to grade at it knowingly."""
    open_ = [text(f"sandbox.attack.{attack}") for attack in sandbox.ATTACKS if attack not in level.blocks]
    named = choices(unsafe)
    return text(
        "sandbox.refuse_level",
        level=level.name,
        open=text("sandbox.and").join(open_),
        missing=text("sandbox.or").join(_missing(level)),
        choice=spelling(level),
        given=text("sandbox.other_choice", given=",".join(named)) if named else "",
    )


def _missing(level) -> list[str]:
    """What would make this machine's level full, with how to get it."""
    walls = " ".join(level.walls)
    found = re.search(r"landlock-(\d+)", walls)
    abi = int(found[1]) if found else 0
    capped = [
        f"{name}={os.environ[name]}"
        for name in ("LAB_SANDBOX", "LAB_LANDLOCK_ABI", "LAB_NO_SECCOMP")
        if os.environ.get(name, "").strip() not in ("", "auto")
    ]
    policy = sandbox.policy()
    wanted = []  # what the machine lacks, where no test switch (LAB_SANDBOX …) is the cause
    if "bwrap" not in level.walls and policy in ("auto", "bwrap"):
        wanted.append(text("sandbox.need.bwrap_refused" if shutil.which("bwrap") else "sandbox.need.bwrap"))
    open_ = set(sandbox.ATTACKS) - set(level.blocks)
    if (
        policy != "none"
        and sandbox.landlock_cap() is None
        and (open_ & {"read", "write", "shared"} or ("signal" in open_ and abi < FULL_LANDLOCK))
    ):
        wanted.append(text("sandbox.need.landlock", abi=abi))
    if open_ & {"signal", "leftover", "disk"} and sandbox.PID_WALL not in level.walls and policy != "none":
        wanted.append(text("sandbox.need.pid_namespace"))
    if "processes" in open_:
        wanted.append(text("sandbox.need.processes"))
    if capped:
        wanted.append(text("sandbox.need.capped", settings=" ".join(capped)))
    return wanted


# --- who the child is, and what it is shown --------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    """Who a child is to the file system: a uid of its own (others' bits alone), or the grader's user (root
    without its capabilities, or an ordinary user): the owner's bits on its files, the group's on its groups'."""

    uid: int | None = None  # None: a uid of its own, which owns nothing and is in no group
    groups: frozenset = frozenset()

    def may(self, info: os.stat_result, bits: int) -> bool:
        """Whether the mode of `info` gives this reader `bits` (4 read, 1 search)."""
        if self.uid is not None and info.st_uid == self.uid:
            return bool(info.st_mode & (bits << 6))
        if self.uid is not None and info.st_gid in self.groups:
            return bool(info.st_mode & (bits << 3))
        return bool(info.st_mode & bits)


def reader(level) -> Reader | None:
    """Who a child at `level` is; None where it reads everything the grader can (no wall limits reading)."""
    if "uid" in level.walls:
        return Reader()
    if not _limits_reading(level):
        return None
    return Reader(os.geteuid(), frozenset({os.getegid(), *os.getgroups()}))


def _limits_reading(level) -> bool:
    return any(wall in ("bwrap", "uid") or wall.startswith("landlock-") for wall in level.walls)


def shown(level) -> list[list[str]] | None:
    """What each wall that limits reading shows a child at `level` (bubblewrap's binds, Landlock's rules), as
    real paths; a file must be under one of each.  None: every file of the machine (a uid of its own alone)."""
    try:
        folders = interpreters.interpreter_for("uid" in level.walls)[1]
    except PermissionError:
        folders = interpreters.python_folders()
    limits = []
    if "bwrap" in level.walls:  # read off the very command that starts it
        command = bwrap.command(folders)
        limits.append(
            [
                command[i + 2]
                for i, word in enumerate(command)
                if word in ("--ro-bind", "--ro-bind-try", "--bind", "--bind-try")
            ]
        )
    if any(wall.startswith("landlock-") for wall in level.walls):
        limits.append([*folders, *LANDLOCK_READS])
    if not limits:
        return None
    return [sorted({os.path.realpath(path) for path in paths if os.path.lexists(path)}) for paths in limits]


def _under(path: str, top: str) -> bool:
    return path == top or path.startswith(top.rstrip("/") + "/")


def _parts_shown(real: str, limits) -> list[tuple[str, str]]:
    """(part, the shown folder it lies in) of the tree at `real` that a child is shown: all of it, or the shown
    folders that lie inside it, or nothing."""
    if limits is None:
        return [(real, "/")]

    def shown_by_all(path):
        return all(any(_under(path, top) for top in tops) for tops in limits)

    if shown_by_all(real):
        return [(real, next(top for top in limits[0] if _under(real, top)))]
    inside = sorted({top for tops in limits for top in tops if _under(top, real) and shown_by_all(top)})
    return [(top, top) for top in inside]


# --- the audit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """A private tree (or file) of which a child could read `count` files (`examples` first), and the fix."""

    what: str  # a key of the audit's texts: lab, course, bytecode, submissions, out, roster, metadata
    path: str
    count: int
    examples: tuple
    fix: str
    more: bool = False  # the walk stopped at MOST_ENTRIES: at least `count`

    def line(self) -> str:
        shown = ", ".join(self.examples)
        return text(
            "audit.finding",
            what=text(f"audit.what.{self.what}"),
            path=self.path,
            count=f"{self.count}+" if self.more else self.count,
            examples=shown,
            fix=self.fix,
        )


def audit(level, private) -> list[Finding]:
    """What a child at `level` could read of `private` ((what, path) pairs: a tree or a file each, wherever it
    lies), one finding per tree, each with its one-line fix.  Trees inside another are its part."""
    who = reader(level)
    if who is None:
        return []
    limits = shown(level)
    trees, findings = _trees(private), []
    for what, real in trees:
        for part, top in _parts_shown(real, limits):
            count, examples, more = _readable(part, who)
            if count:
                findings.append(Finding(what, part, count, tuple(examples), _fix(part, top, who), more))
    return findings


def _trees(private) -> list[tuple[str, str]]:
    """The private trees as real paths, each once, none inside another (the outer one is audited whole)."""
    real: list[tuple[str, str]] = []
    for what, path in private:
        if path is None:
            continue
        resolved = os.path.realpath(path)
        if os.path.lexists(resolved) and all(resolved != seen for _, seen in real):
            real.append((what, resolved))
    return [(what, path) for what, path in real if not any(other != path and _under(path, other) for _, other in real)]


def _readable(top: str, who: Reader) -> tuple[int, list[str], bool]:
    """How many regular files under `top` (itself, if a file) `who` could open for reading by their real paths,
    some of them (the answer key's first), and whether the walk stopped early."""
    try:
        if not all(who.may(os.stat(folder), 1) for folder in Path(top).parents):
            return 0, [], False
        info = os.lstat(top)
    except OSError:
        return 0, [], False
    if stat.S_ISREG(info.st_mode):
        return (1, [top], False) if who.may(info, 4) else (0, [], False)
    if not stat.S_ISDIR(info.st_mode) or not who.may(info, 1):
        return 0, [], False
    found, folders, budget = [], [top], MOST_ENTRIES
    while folders and budget > 0:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    budget -= 1
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if stat.S_ISDIR(info.st_mode):
                        if who.may(info, 1):  # a folder it cannot search hides everything below it
                            folders.append(entry.path)
                    elif stat.S_ISREG(info.st_mode) and who.may(info, 4):
                        found.append(entry.path)
        except OSError:
            continue
    found.sort(key=_telling())
    return len(found), found[:EXAMPLES], budget <= 0


def _telling():
    """The order of examples that say most first: the answer key's folder (its bytecode too), git's packs, the
    course file, the rest of the history, then everything else."""
    marks = (str(active().solution_path.parent) + "/", "/objects/pack/", config.course_file().name, "/.git/")
    return lambda path: (next((rank for rank, mark in enumerate(marks) if mark in path), len(marks)), len(path), path)


def _fix(part: str, top: str, who: Reader) -> str:
    """The one-line fix: take others' (and the group's) rights away, unless the child reads the files as their
    owner (root's child without a uid of its own): then only moving them out of what it is shown helps."""
    try:
        owner = os.lstat(part).st_uid
    except OSError:
        owner = None
    if who.uid is None or owner != who.uid:
        return text("audit.fix.chmod", path=part)
    return text("audit.fix.move", path=part, shown=top)


def git_folders(folder: Path) -> list[Path]:
    """The repository a checkout's `.git` file points at (a worktree's folder and the common one holding its
    objects), which lie outside the checkout; a `.git` folder is part of the checkout already."""
    try:
        pointer = (folder / ".git").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return []
    if not pointer.startswith("gitdir:"):
        return []
    own = (folder / pointer[len("gitdir:") :].strip()).resolve()
    found = [own]
    try:
        found.append((own / (own / "commondir").read_text(encoding="utf-8").strip()).resolve())
    except OSError:
        pass
    return found


def bytecode_folder() -> str | None:
    """Where this interpreter writes bytecode, when that is a folder of its own (PYTHONPYCACHEPREFIX): it holds
    the grader's bytecode of the answer key, wherever it lies."""
    return sys.pycache_prefix


def sandbox_level() -> sandbox.Level:
    """The confinement children get on this machine, as the parent measures it (one probe child)."""
    return probe.level()


def private_files(
    scheme_path: Path | None, submissions: Path | None = None, out: Path | None = None, roster_path: Path | None = None
) -> tuple:
    """What no student's child may read, as (what, path) pairs: the whole lab (the checkout and the lab's root,
    the repository a worktree's .git points at: the answer key, its history, the tests, what was built from
    them), the answer key and the course files themselves (wherever links lead), the grader's bytecode, the
    class's submissions, the outputs and the roster."""
    lab = active()
    checkouts = dict.fromkeys(Path(folder).resolve() for folder in (Path(__file__).parents[2], lab.root))
    found: list[tuple[str, Path | str | None]] = [("lab", folder) for folder in checkouts]
    found += [("lab", folder) for checkout in checkouts for folder in git_folders(checkout)]
    found += [("lab", lab.solution_path), ("course", config.course_file())]
    found += [
        ("course", scheme_path),
        ("bytecode", bytecode_folder()),
        ("submissions", submissions),
        ("out", out),
        ("roster", roster_path),
    ]
    return tuple((what, path) for what, path in found if path is not None)


def refusal(level, unsafe="", private=()) -> str | None:
    """Why grading must not start: a level below full strength that UNSAFE= does not name (`unsafe`: the levels
    it names, "1" for any, True as "1"), or a file of `private` ((what, path) pairs, trees or files: see
    `private_files`) that a child could read at this level (with the path and the fix).  None: grade."""
    if not accepts(unsafe, level):
        return level_refusal(level, unsafe)
    findings = audit(level, private)
    if findings:
        return text("audit.refuse", level=level.name, findings=text("sandbox.and").join(f.line() for f in findings))
    return None


def warning(level, unsafe="") -> str:
    """The line printed before grading at a level below full strength (chosen: `accepts` said yes)."""
    open_ = [text(f"sandbox.attack.{attack}") for attack in sandbox.ATTACKS if attack not in level.blocks]
    return text(
        "sandbox.warning",
        level=level.name,
        choice=",".join(choices(unsafe)) or spelling(level),
        open=text("sandbox.and").join(open_),
    )

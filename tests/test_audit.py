"""Before grading (labkit/instructor/audit.py): a level below full strength only when UNSAFE= names it, and an
audit of what the child could read at the level it really gets; then round 4's attacks 1-4 at every level.

The attacks are the hostile files steals_from_git (attack 1: the answer key from the lab's packed git history),
steals_cached_bytecode (attack 2: the grader's own bytecode of the answer key in the venv), copies_a_classmate
(attack 3: SUBMISSIONS from the grader's command line) and steals_solution, each armed with the test's own
folder (they look only at paths holding it, found in /proc as the attack did, or named outright); attack 4 puts
the lab and the class under /usr, in a mount namespace of the test's own.  They run through the real `make
grade` of a lab copied into a folder any uid can reach (0755), with a git repository and a venv, as an
instructor's checkout is.  Each level (bwrap, uid, landlock and landlock-4 as root; uid without Landlock and
none below full strength; a grader that is not root) must end in a one-line refusal or give every attacker what an
empty file gets, while the honest file keeps full marks; where nothing stops reading, the same files are shown
to work.

Lab09 only: the attacks read the grader's files (its lab, history, bytecode, class), which are the same for any
lab, and the audit is the core's (it names no lab).
"""

import ast
import csv
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
import zipfile
from pathlib import Path

import pytest

from conftest import CHECKOUT, QUICK, ROOT, SOLUTION, armed, clean_env, make, unavailable
from labkit import assess
from labkit.i18n import text
from labkit.instructor import audit, config
from labkit.run import interpreters, sandbox, uids
from labkit.run.engine import StudentRun
from labkit.spec import active

SWITCHES = ("LAB_SANDBOX", "LAB_LANDLOCK_ABI", "LAB_NO_SECCOMP", "LAB_UNSAFE")
LEVELS = {  # a name for the test -> the switches that cap the level there
    "bwrap": {"LAB_SANDBOX": "auto"},
    "uid": {"LAB_SANDBOX": "uid"},
    "landlock": {"LAB_SANDBOX": "landlock"},
    "landlock-4": {"LAB_SANDBOX": "landlock", "LAB_LANDLOCK_ABI": "4"},
    "uid-no-landlock": {"LAB_SANDBOX": "uid", "LAB_LANDLOCK_ABI": "0"},
    "none": {"LAB_SANDBOX": "none"},
}
ATTACKERS = ("steals_from_git", "steals_cached_bytecode", "copies_a_classmate", "steals_solution")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
POSIX_ONLY = pytest.mark.skipif(not sandbox.IS_LINUX, reason="the grading and its walls are Linux's here")


def level_of(walls, abi=0, name=None):
    """A level as sandbox.level_of names one, from its walls (README's rows)."""
    blocks = sandbox.blocked_by(tuple(walls), abi)
    return sandbox.Level(name or "level", tuple(walls), blocks, set(sandbox.ATTACKS) <= set(blocks))


UID = level_of(("uid", "seccomp", "processes ≤ 64 (uid)", "reaper"), name="uid")
LANDLOCK_4 = level_of(
    (
        "landlock-4",
        "seccomp",
        "signals (seccomp)",
        "processes ≤ 64 (cgroup)",
        "folder ≤ 64 MiB, 10000 files (watchdog)",
        "reaper",
    ),
    4,
    "landlock-4 (no pid namespace)",
)
# (a kernel that refuses the child a pid namespace: what it leaves, and its folder, only the reaper and a watchdog)
UID_LANDLOCK_4 = level_of(
    (
        "uid",
        "landlock-4",
        "seccomp",
        "pid namespace",
        "processes ≤ 64 (uid)",
        "folder ≤ 64 MiB, 10000 files (tmpfs)",
        "reaper",
    ),
    4,
    "uid + landlock-4",
)
NONE = level_of(("rlimits", "reaper"), name="none")
OWN_USER = level_of(("landlock-7", "processes ≤ 64 (userns)", "reaper"), 7, "landlock-6+ (no seccomp)")
BWRAP = level_of(
    ("bwrap", "uid", "landlock-7", "seccomp", "processes ≤ 64 (uid)", "folder ≤ 64 MiB, 10000 files (tmpfs)", "reaper"),
    7,
    "bwrap",
)


def probed(monkeypatch, name: str):
    """The level a child gets here with the switches of LEVELS[name] (and no others), or None."""
    for switch in SWITCHES:
        monkeypatch.delenv(switch, raising=False)
    for switch, value in LEVELS[name].items():
        monkeypatch.setenv(switch, value)
    with StudentRun(display="probe.py", source=b"") as child:
        child.start()
        got = child.level
    wanted = {
        "bwrap": "bwrap",
        "uid": "uid",
        "landlock": "landlock-",
        "landlock-4": "landlock-4",
        "uid-no-landlock": "uid",
        "none": "none",
    }[name]
    if (
        got is None
        or wanted not in " ".join(got.walls + (got.name,))
        or (name == "uid-no-landlock" and any(w.startswith("landlock-") for w in got.walls))
    ):
        if name == "bwrap":
            unavailable("bwrap", "level bwrap is not available here")
        pytest.skip(f"level {name} is not available here")
    return got


# --- choosing a level -------------------------------------------------------------------------------------


def test_a_level_is_spelt_the_way_unsafe_names_it():
    spelt = {
        "bwrap": "bwrap",
        "uid": "uid",
        "uid + landlock-6+": "uid+landlock-6+",
        "none": "none",
        "landlock-4": "landlock-4",
        "uid + landlock-4": "uid+landlock-4",
        "landlock-4 (no pid namespace)": "landlock-4-no-pid-namespace",
        "seccomp (no pid namespace)": "seccomp-no-pid-namespace",
        "landlock-2 (no network or signal scoping)": "landlock-2",
        "seccomp": "seccomp",
        "uid (no seccomp)": "uid-no-seccomp",
        "landlock-6+ (no seccomp)": "landlock-6+-no-seccomp",
    }
    assert {name: audit.spelling(sandbox.Level(name)) for name in spelt} == spelt


def test_below_full_strength_only_a_choice_that_names_the_level_grades():
    assert BWRAP.full and audit.accepts("", BWRAP) and audit.refusal(BWRAP, "", ()) is None
    assert not LANDLOCK_4.full and not UID.full and not NONE.full
    for level, choice in ((LANDLOCK_4, "landlock-4-no-pid-namespace"), (UID, "uid"), (NONE, "none")):
        assert not audit.accepts("", level) and not audit.accepts("0", level)
        assert audit.accepts(choice, level) and audit.accepts("1", level) and audit.accepts(True, level)
        assert audit.accepts(f"bwrap,{choice.upper()}", level)  # a list, in any case
    assert UID_LANDLOCK_4.full and audit.accepts("", UID_LANDLOCK_4)  # a pid namespace keeps signals in: full
    assert not audit.accepts("landlock-4", LANDLOCK_4)  # the full level's spelling never names the weaker one
    no_seccomp = level_of(("uid", "processes ≤ 64 (uid)", "process group"), name="uid (no seccomp)")
    assert audit.accepts("uid*", UID) and audit.accepts("uid*", no_seccomp) and not audit.accepts("uid*", LANDLOCK_4)
    assert not audit.accepts("uid", LANDLOCK_4) and not audit.accepts("landlock-4*", UID)
    assert not audit.accepts("uid", no_seccomp) and audit.accepts("uid-no-seccomp", no_seccomp)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_refusal_says_in_one_line_what_is_missing_how_to_get_it_and_how_to_choose(language, monkeypatch):
    monkeypatch.setenv("LAB_LANG", language)
    for switch in SWITCHES:
        monkeypatch.delenv(switch, raising=False)
    monkeypatch.setattr(audit.shutil, "which", lambda name: None)  # no bubblewrap installed
    line = audit.refusal(UID, "", ())
    opening = text("sandbox.refuse_level", level="uid", open="", missing="", choice="", given="").split(":")[0]
    assert "\n" not in line and line.startswith(opening + ":")
    for attack in ("read", "shared"):  # what `uid` leaves open, and nothing else
        assert text(f"sandbox.attack.{attack}") in line
    assert text("sandbox.attack.signal") not in line and text("sandbox.attack.network") not in line
    assert "apt-get install bubblewrap" in line and "Landlock ABI 6 (Linux 6.12" in line
    assert line.endswith("UNSAFE=uid")
    named_another = audit.refusal(LANDLOCK_4, "uid", ())
    assert (
        "UNSAFE=landlock-4-no-pid-namespace" in named_another
        and text("sandbox.other_choice", given="uid") in named_another
    )
    monkeypatch.setattr(audit.shutil, "which", lambda name: "/usr/bin/bwrap")  # installed, but refused here
    line = audit.refusal(LANDLOCK_4, "", ())
    assert text("sandbox.need.bwrap_refused") in line and text("sandbox.need.pid_namespace") in line
    assert text("sandbox.attack.leftover") in line and text("sandbox.attack.disk") in line and "LAB_" not in line
    assert text("sandbox.attack.signal") not in line and "Landlock ABI 6" not in line  # its filter keeps them in
    monkeypatch.setenv("LAB_SANDBOX", "landlock")  # a test switch caps the level: it is named, not the machine
    monkeypatch.setenv("LAB_LANDLOCK_ABI", "4")
    line = audit.refusal(LANDLOCK_4, "", ())
    assert text("sandbox.need.capped", settings="LAB_SANDBOX=landlock LAB_LANDLOCK_ABI=4") in line
    assert "bubblewrap" not in line and "Landlock ABI 6" not in line


# --- what each wall shows -----------------------------------------------------------------------------


def test_landlock_reads_what_the_audit_says_it_reads():
    """The audit's list of what Landlock lets a child read is the child's own (labkit/run/child.py's confine),
    beside the interpreter's folders: one statement kept in two places, held together here."""
    tree = ast.parse((ROOT / "labkit" / "run" / "child.py").read_text(encoding="utf-8"))
    confine = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "confine")
    literal = next(
        node.value
        for node in ast.walk(confine)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "readable"
    )
    constants = {element.value for element in literal.elts if isinstance(element, ast.Constant)}
    prefixes = {ast.unparse(element) for element in literal.elts if not isinstance(element, ast.Constant)}
    assert constants == set(audit.LANDLOCK_READS)
    assert prefixes == {"sys.prefix", "sys.base_prefix", "sys.exec_prefix"}  # the interpreter's own: python_folders


def test_what_bubblewrap_shows_is_read_off_its_own_command():
    shown = audit.shown(BWRAP)
    try:  # what a child of a uid of its own runs (without one: this interpreter's own installation)
        folders = interpreters.interpreter_for(True)[1]
    except PermissionError:
        folders = interpreters.python_folders()
    assert len(shown) == 2  # bubblewrap's binds, and Landlock's rules inside it
    assert os.path.realpath("/usr") in shown[0] and all(os.path.realpath(folder) in shown[0] for folder in folders)
    assert audit.shown(UID) is None  # a uid of its own alone: every file of the machine


# --- the audit, path by path ------------------------------------------------------------------------------


def _tree(base: Path) -> dict:
    """One of each path a child must not read, in a lab laid out as a checkout is, modes as a umask of 022 gives."""
    lab = base / "lab"
    paths = {
        "answer key": lab / "solutions" / "student.py",
        "course file": lab / "solutions" / "grading.ini",
        "git pack": lab / ".git" / "objects" / "pack" / "pack-1.pack",
        "bytecode": lab / ".venv" / "pycache" / "x" / "solutions" / "student.cpython-311.pyc",
        "correct test": lab / "tests" / "students" / "correct" / "regex.py",
        "classmate": base / "class" / "alice.py",
        "earlier feedback": base / "out" / "feedback" / "alice.txt",
        "roster": base / "roster.csv",
        "metadata": base / "submission_metadata.json",
    }
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("private\n")
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    paths["git pack"].chmod(0o444)  # as git leaves a pack
    return paths


def _private(base: Path) -> list:
    return [
        ("lab", base / "lab"),
        ("submissions", base / "class"),
        ("out", base / "out"),
        ("roster", base / "roster.csv"),
        ("metadata", base / "submission_metadata.json"),
    ]


@pytest.fixture
def open_folder():
    """A folder of this test's (0755) in a folder any uid can reach."""
    base = next(
        (
            folder
            for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp")
            if os.path.isdir(folder)
            and all(
                os.stat(f).st_mode & 0o001
                for f in (Path(os.path.realpath(folder)), *Path(os.path.realpath(folder)).parents)
            )
        ),
        None,
    )
    if base is None:
        pytest.skip("no temporary folder that other users can reach")
    folder = Path(tempfile.mkdtemp(prefix=f"labkit-audit-{uuid.uuid4().hex[:8]}-", dir=os.path.realpath(base)))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@POSIX_ONLY
@pytest.mark.parametrize(
    "what",
    [
        "answer key",
        "course file",
        "git pack",
        "bytecode",
        "correct test",
        "classmate",
        "earlier feedback",
        "roster",
        "metadata",
    ],
)
def test_each_private_path_is_found_where_a_child_of_a_uid_of_its_own_could_read_it(what, open_folder):
    paths = _tree(open_folder)
    private = _private(open_folder)
    findings = audit.audit(UID, private)  # no Landlock: every file others may read
    hit = next(f for f in findings if Path(paths[what]).is_relative_to(f.path))
    assert hit.fix == text("audit.fix.chmod", path=hit.path)
    line = audit.refusal(UID, "uid", private)
    assert "\n" not in line and hit.path in line and text("audit.fix.chmod", path=hit.path) in line
    subprocess.run(["chmod", "go-rwx", hit.path], check=True)  # the fix the line gives
    assert all(not Path(paths[what]).is_relative_to(f.path) for f in audit.audit(UID, private))
    for walled in (UID_LANDLOCK_4, LANDLOCK_4, BWRAP):  # a wall that limits reading: nothing here is shown
        Path(hit.path).chmod(0o755 if Path(hit.path).is_dir() else 0o644)
        assert audit.audit(walled, private) == [], walled
    assert audit.audit(NONE, private) == []  # nothing walls reading: choosing `none` accepted that


@POSIX_ONLY
@pytest.mark.parametrize("what", ["answer key", "git pack", "bytecode", "classmate", "earlier feedback"])
def test_under_a_folder_the_sandbox_shows_each_path_is_found_at_the_full_levels_too(what, open_folder, monkeypatch):
    """Attack 4: bubblewrap binds /usr and the Python installation, and Landlock lets a child read them, so a
    lab (or a class) kept there is read at bwrap and landlock-6+ alike.  This test's folder stands for /usr."""
    paths = _tree(open_folder)
    monkeypatch.setattr(audit, "shown", lambda level: [[str(open_folder)]])
    for level in (BWRAP, UID_LANDLOCK_4):  # a uid of its own: others' bits; chmod is the fix
        hit = next(f for f in audit.audit(level, _private(open_folder)) if Path(paths[what]).is_relative_to(f.path))
        assert hit.fix == text("audit.fix.chmod", path=hit.path), level
    root_child = level_of(("landlock-7", "seccomp", "processes ≤ 64 (cgroup)", "reaper"), 7, "landlock-6+")
    if IS_ROOT:  # root's child without a uid of its own reads root's files as their owner: only moving them helps
        hit = next(
            f for f in audit.audit(root_child, _private(open_folder)) if Path(paths[what]).is_relative_to(f.path)
        )
        assert hit.fix == text("audit.fix.move", path=hit.path, shown=str(open_folder))
        subprocess.run(["chmod", "go-rwx", hit.path], check=True)
        assert any(Path(paths[what]).is_relative_to(f.path) for f in audit.audit(root_child, _private(open_folder)))
    monkeypatch.setattr(audit, "shown", lambda level: [["/nowhere"]])
    assert audit.audit(BWRAP, _private(open_folder)) == []


def test_the_audit_names_the_whole_lab_its_repository_and_the_graders_bytecode():
    private = dict(
        (str(path), what) for what, path in audit.private_files(None, Path("class"), Path("out"), Path("r.csv"))
    )
    lab = active()
    assert private[str(ROOT)] == "lab" and private[str(lab.root)] == "lab"
    assert private[str(lab.solution_path)] == "lab" and private[str(config.course_file())] == "course"
    assert private["class"] == "submissions" and private["out"] == "out" and private["r.csv"] == "roster"
    if sys.pycache_prefix:
        assert private[sys.pycache_prefix] == "bytecode"
    for folder in audit.git_folders(ROOT):  # a worktree's objects lie in the common repository
        assert private[str(folder)] == "lab"


def test_a_worktrees_git_pointer_leads_to_the_common_repository(tmp_path):
    common = tmp_path / "main" / ".git"
    own = common / "worktrees" / "audit"
    own.mkdir(parents=True)
    (own / "commondir").write_text("../..\n")
    checkout = tmp_path / "wt"
    checkout.mkdir()
    (checkout / ".git").write_text(f"gitdir: {own}\n")
    assert audit.git_folders(checkout) == [own.resolve(), common.resolve()]
    assert audit.git_folders(tmp_path) == []


# --- the bytecode the grader writes -----------------------------------------------------------------------


@POSIX_ONLY
def test_lab_py_keeps_the_venvs_bytecode_the_owners_alone(open_folder):
    """Attack 2: lab.py puts the harness's bytecode in <lab>/.venv/pycache, where the grader's own import of the
    answer key left solutions/student.cpython-3X.pyc 0644 in 0755 folders.  The folder is now 0700, also when an
    earlier run made it 0755."""
    lab = open_folder / "lab"
    for part in ("framework", "lab09", "labkit"):
        shutil.copytree(ROOT / part, lab / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "lab.py", lab / "lab.py")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(lab / ".venv")], check=True, timeout=120)
    cache = lab / ".venv" / "pycache"
    cache.mkdir(mode=0o755)
    cache.chmod(0o755)
    python = lab / ".venv" / "bin" / "python"
    ran = subprocess.run(
        [str(python), str(lab / "lab.py"), "help"],
        cwd=lab,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert any(cache.rglob("*.pyc"))  # it is still the harness's bytecode cache


def test_the_graders_load_of_the_answer_key_writes_no_bytecode(tmp_path):
    """The reference is compiled from its source in the grader's process (assess.lab_reference), so no import of
    solutions/ leaves a compiled answer key in the bytecode cache for a weaker level to find."""
    cache = tmp_path / "pycache"
    env = clean_env(PYTHONPYCACHEPREFIX=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    ran = subprocess.run(
        [sys.executable, "-c", "from labkit import assess; assess.lab_reference().format_prompt([])"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert any(cache.rglob("*.pyc"))  # bytecode was written: the labkit import itself
    assert not [p for p in cache.rglob("*.pyc") if "solutions" in p.parts]


# --- round 4's attacks, through `make grade` of an instructor's checkout ----------------------------------


def lab_copy(folder: Path, python: str) -> Path:
    """A lab as an instructor's checkout holds it, in `folder`: the code, solutions/, a correct file of tests/,
    a git repository of all of it (packed, as `git gc` leaves it), a venv made by `python` (no packages: grading
    needs none) and, in the venv's bytecode folder, a compiled answer key, as any import of it under lab.py's
    PYTHONPYCACHEPREFIX leaves it there (the grader's own load, labkit.assess.lab_reference, compiles the source
    and writes none; an older release's grade did).  Modes as a umask of 022 gives them."""
    lab = folder / "lab"
    for part in ("framework", "lab09", "labkit", "solutions"):
        shutil.copytree(ROOT / part, lab / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("Makefile", "lab.py", "requirements.txt", "TASK.md", "TASK.en.md"):
        shutil.copy(ROOT / name, lab / name)
    (lab / "tests" / "students" / "correct").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "students" / "correct" / "regex.py", lab / "tests" / "students" / "correct")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "lab"], ["gc", "-q"]):
        subprocess.run(git + step, cwd=lab, check=True, timeout=120, capture_output=True)
    assert list((lab / ".git" / "objects" / "pack").glob("*.pack"))
    subprocess.run([python, "-m", "venv", "--without-pip", str(lab / ".venv")], check=True, timeout=120)
    (lab / ".venv" / ".labkit-ready").write_text("ready\n")  # the Makefile runs lab.py in this venv
    warm = clean_env(PYTHONPYCACHEPREFIX=str(lab / ".venv" / "pycache"))
    warm.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(
        [str(lab / ".venv" / "bin" / "python"), "-c", "import solutions.student"],
        cwd=lab,
        check=True,
        timeout=120,
        env=warm,
    )
    assert list((lab / ".venv" / "pycache").rglob("solutions/student.*.pyc"))
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink() and path.stat().st_mode & 0o200:
            path.chmod(0o755 if path.is_dir() else 0o644)
    return lab


def class_of(folder: Path, marker: str, lab: Path | None = None, submissions: Path | None = None) -> Path:
    """An honest student, an empty file and the attackers, armed with `marker` (what /proc shows of this test's
    folder) and, where named, the lab and the class outright."""
    klass = folder / "class"
    klass.mkdir()
    shutil.copy(SOLUTION, klass / "honest.py")
    (klass / "empty.py").write_text(
        "def format_prompt(messages):\n    return ''\n\n\ndef extract_response(output):\n    return ''\n"
    )
    named = {"LAB": str(lab)} if lab else {}
    armed("steals_from_git", klass, MARKER=marker, **named)
    armed("steals_cached_bytecode", klass, MARKER=marker, **named)
    armed("copies_a_classmate", klass, MARKER=marker, **({"SUBMISSIONS": str(submissions)} if submissions else {}))
    armed("steals_solution", klass, SOLUTION=str((lab or folder / "lab") / "solutions" / "student.py"))
    for path in [klass, *klass.iterdir()]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return klass


def grade(
    lab: Path,
    klass: Path,
    out: Path,
    switches: dict,
    unsafe: str = "",
    user: int | None = None,
    wrap: list | None = None,
) -> subprocess.CompletedProcess:
    """`make grade` in the lab copy, as its instructor types it (UNSAFE= only when given), at the level the
    switches cap."""
    env = clean_env(**switches)
    env.pop("LAB_UNSAFE", None)
    command = [
        "make",
        "--no-print-directory",
        "grade",
        f"SUBMISSIONS={klass}",
        f"OUT={out}",
        "JOBS=2",
        *([f"UNSAFE={unsafe}"] if unsafe else []),
    ]
    options = {}
    if user is not None:
        env.update(HOME=str(out.parent), TMPDIR="/tmp")
        options = dict(user=user, group=user, extra_groups=[])
    return subprocess.run(
        (wrap or []) + command, cwd=lab, env=env, capture_output=True, text=True, timeout=600, **options
    )


def scores(out: Path) -> dict:
    return {r["student"]: r["score"] for r in json.loads((out / "grades.json").read_text("utf-8"))["students"]}


def assert_nothing_stolen(out: Path, ran) -> None:
    """The honest file keeps full marks and every attacker gets what the empty file gets."""
    assert ran.returncode == 0, ran.stderr
    got = scores(out)
    assert got["honest"] == config.load().max_score, got
    assert {name: got[name] for name in ATTACKERS} == dict.fromkeys(ATTACKERS, got["empty"]), got


def said(ran) -> list[str]:
    """What the grader wrote on stderr (not make's own line about the exit code)."""
    return [line for line in ran.stderr.strip().splitlines() if not line.startswith("make: ***")]


def refused_in_one_line(ran, out: Path) -> str:
    assert ran.returncode == 2 and len(said(ran)) == 1 and not out.exists(), ran.stderr
    return said(ran)[0]


def stolen_here(monkeypatch, klass: Path) -> dict:
    """What each attacker gets of the six when run by the engine alone (no grader, no audit) at the level the
    environment caps: whether it passed them all, i.e. found an answer key."""
    got = {}
    for name in ATTACKERS:
        with StudentRun(klass / f"{name}.py", display="student.py", limits=QUICK) as student:
            got[name] = all(assess.verdict(student, case).passed for case in active().selected("test"))
    return got


@pytest.fixture
def interpreter_for_all():
    """An interpreter any uid may run (the lab copy's venv is made by it: a plain user grades with it too)."""
    try:
        return interpreters.interpreter_for(True)[0]
    except PermissionError:
        pytest.skip("no interpreter of this version that an ordinary user can run")


@POSIX_ONLY
@pytest.mark.skipif(not IS_ROOT, reason="a uid of its own needs a root grader")
def test_at_uid_without_landlock_the_attacks_work_and_the_grader_refuses_until_the_fix(
    open_folder, interpreter_for_all, monkeypatch
):
    """Attacks 1-3 at level `uid` (root, no Landlock): each attacker finds the lab or the class through /proc and
    steals the answer key, run by the engine alone.  `make grade` refuses the level in one line; UNSAFE=uid
    chooses it, and then the audit refuses in one line, naming the lab and the class with `chmod go-rwx` for each;
    after those two commands every attacker gets what the empty file gets.  Later, OUT (made with the umask)
    holds the class's feedback, and the next run refuses it in turn."""
    level = probed(monkeypatch, "uid-no-landlock")
    marker = open_folder.name
    lab = lab_copy(open_folder, interpreter_for_all)
    klass = class_of(open_folder, marker)
    stand_in = [str(lab / ".venv" / "bin" / "python"), "-c", "import time; time.sleep(60)", str(klass)]
    with subprocess.Popen(stand_in) as grader:  # the lab's venv and SUBMISSIONS, as the grader's command line shows
        try:
            assert stolen_here(monkeypatch, klass) == dict.fromkeys(ATTACKERS, True)
        finally:
            grader.kill()
    out = open_folder / "out"
    switches = LEVELS["uid-no-landlock"]
    line = refused_in_one_line(grade(lab, klass, out, switches), out)
    assert line == audit.level_refusal(level)
    line = refused_in_one_line(grade(lab, klass, out, switches, unsafe="uid"), out)
    assert line.startswith(text("audit.refuse", level="uid", findings="").rstrip())
    for private in (lab, klass):
        assert text("audit.fix.chmod", path=str(private)) in line, line
    subprocess.run(["chmod", "go-rwx", str(lab), str(klass)], check=True)
    ran = grade(lab, klass, out, switches, unsafe="uid")
    assert_nothing_stolen(out, ran)
    assert stat.S_IMODE((lab / ".venv" / "pycache").stat().st_mode) == 0o700  # lab.py made it the owner's alone
    again = grade(lab, klass, out, switches, unsafe="uid")  # OUT now holds every student's feedback, made 0755
    assert again.returncode == 2 and said(again) == [audit.refusal(level, "uid", [("out", out)])]
    assert text("audit.fix.chmod", path=str(out)) in again.stderr


@POSIX_ONLY
@pytest.mark.parametrize("name", ["bwrap", "uid", "landlock", "landlock-4"])
def test_behind_a_wall_that_limits_reading_no_attacker_gets_more_than_an_empty_file(
    name, open_folder, interpreter_for_all, monkeypatch
):
    """Attacks 1-3 where bubblewrap or Landlock limits reading, the lab, its repository, its bytecode and the
    class all readable by others: nothing of them is shown to the child, the audit finds nothing, and every
    attacker gets what the empty file gets.  A full level grades as it is; one below full strength is
    refused until UNSAFE= names it, and then every output says the level: the terminal, the report, each row
    of grades.json and grades.csv, and the first line of each student's feedback."""
    level = probed(monkeypatch, name)
    lab = lab_copy(open_folder, interpreter_for_all)
    klass = class_of(open_folder, open_folder.name)
    out, switches = open_folder / "out", LEVELS[name]
    if not level.full:
        line = refused_in_one_line(grade(lab, klass, out, switches), out)
        assert line == audit.level_refusal(level) and line.endswith(f"UNSAFE={audit.spelling(level)}")
    ran = grade(lab, klass, out, switches, unsafe="" if level.full else audit.spelling(level))
    assert_nothing_stolen(out, ran)
    document = json.loads((out / "grades.json").read_text("utf-8"))
    assert (document["sandbox"]["level"], document["sandbox"]["full"]) == (level.name, level.full)
    assert {record["sandbox"] for record in document["students"]} == {level.name}
    with open(out / "grades.csv", encoding="utf-8") as handle:
        assert {row["sandbox"] for row in csv.DictReader(handle)} == {level.name}
    feedback = (out / "feedback" / "honest.txt").read_text("utf-8")
    banner = (out / "report.html").read_text("utf-8").split("id=sandbox>")[1].split("</p>")[0]
    if level.full:
        assert text("sandbox.warning", level="", choice="", open="").split(":")[0] not in ran.stderr
        assert not feedback.startswith(text("feedback.sandbox", level=level.name))
    else:
        assert said(ran)[0] == audit.warning(level, audit.spelling(level))
        assert feedback.startswith(text("feedback.sandbox", level=level.name) + "\n\n")
        assert text("sandbox.weak", level=level.name, walls=", ".join(level.walls)) in ran.stdout
        assert "banner weak" in (out / "report.html").read_text("utf-8") and level.name in banner


@POSIX_ONLY
def test_with_no_wall_at_all_the_grader_refuses_and_the_attacks_work_once_chosen(
    open_folder, interpreter_for_all, monkeypatch
):
    """Level `none` reads everything the grader can: README's table says so, and the same attackers then get
    the honest file's marks.  So it is refused unless UNSAFE= names it, and choosing it accepts that (nothing
    is left to audit)."""
    level = probed(monkeypatch, "none")
    lab = lab_copy(open_folder, interpreter_for_all)
    klass = class_of(open_folder, open_folder.name)
    out = open_folder / "out"
    line = refused_in_one_line(grade(lab, klass, out, LEVELS["none"]), out)
    assert line == audit.level_refusal(level) and line.endswith("UNSAFE=none")
    ran = grade(lab, klass, out, LEVELS["none"], unsafe="none")
    assert ran.returncode == 0, ran.stderr
    got = scores(out)
    assert {name: got[name] for name in ATTACKERS} == dict.fromkeys(ATTACKERS, got["honest"]) != {}, got


@POSIX_ONLY
@pytest.mark.skipif(not IS_ROOT, reason="the test starts the grader as an ordinary user; the suite's own user is one")
@pytest.mark.parametrize("ceiling", ["auto", "landlock"])
def test_a_grader_that_is_not_root_gives_no_attacker_more_than_an_empty_file(ceiling, open_folder, interpreter_for_all):
    """Attacks 1-3 against a grader run as an ordinary user, on a lab copied into a 0755 folder (its children run
    as that user: bubblewrap's namespace, or Landlock in one of its own)."""
    lab = lab_copy(open_folder, interpreter_for_all)
    klass = class_of(open_folder, open_folder.name)
    uid = uids.take()  # an ordinary user no other test or grader uses now
    try:
        work = open_folder / "work"
        work.mkdir()
        os.chown(work, uid, uid)
        out = work / "out"
        ran = grade(lab, klass, out, {"LAB_SANDBOX": ceiling}, user=uid)
        refusing = text("sandbox.refuse_level", level="", open="", missing="", choice="", given="").split(":")[0]
        if ran.returncode == 2 and said(ran) and said(ran)[0].startswith(refusing):
            pytest.skip(f"no full level for an ordinary user here ({ceiling}): {said(ran)[0]}")
        assert_nothing_stolen(out, ran)
        level = json.loads((out / "grades.json").read_text("utf-8"))["sandbox"]
        assert level["full"] and "uid" not in level["walls"], level
    finally:
        uids.give_back(uid)


USR = "/usr/local/src"  # an empty folder of the system's, covered by a tmpfs in a mount namespace of the test's own
UNDER_USR = """
set -e
mount -t tmpfs labkit-audit "$USR"
mkdir "$USR/lab" "$USR/class"
mount --bind "$1" "$USR/lab"
mount --bind "$2" "$USR/class"
cd "$USR/lab"
shift 2
exec "$@"
"""
ENGINE_ALONE = """
import json, sys
from labkit import assess
from labkit.run.engine import Limits, StudentRun
from labkit.spec import active
stolen = {}
for path in sys.argv[1:]:
    with StudentRun(path, display="student.py", limits=Limits(case_seconds=2.0, load_seconds=10.0)) as student:
        stolen[path] = all(assess.verdict(student, case).passed for case in active().selected("test"))
print(json.dumps(stolen))
"""


def under_usr(lab: Path, klass: Path, command: list, switches: dict, cwd=None) -> subprocess.CompletedProcess:
    """`command` run with the lab copy at /usr/local/src/lab and the class at /usr/local/src/class, in a mount
    namespace of its own (nothing of the machine's /usr changes), at the level the switches cap."""
    env = clean_env(**switches, USR=USR)
    env.pop("LAB_UNSAFE", None)
    return subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "--",
            "sh",
            "-c",
            UNDER_USR,
            "sh",
            str(lab),
            str(klass),
            *command,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd or lab,
    )


@POSIX_ONLY
@pytest.mark.skipif(
    not IS_ROOT or not shutil.which("unshare") or not os.path.isdir(USR) or os.listdir(USR),
    reason="a private mount namespace over an empty /usr/local/src needs root and unshare(1)",
)
@pytest.mark.parametrize("name", ["bwrap", "uid", "landlock"])
def test_a_lab_and_a_class_under_usr_are_found_at_the_full_levels(name, open_folder, interpreter_for_all, monkeypatch):
    """Attack 4: bubblewrap binds /usr read-only and Landlock lets a child read it, so a lab kept under /usr gave
    100 at bwrap and landlock-6+ with no warning.  Run by the engine alone, the attackers read it there (the
    claim is real); `make grade` refuses in one line naming the lab and the class, with `chmod go-rwx` where the
    child reads as others (a uid of its own) and `move it out of /usr` where it reads root's files as their
    owner (root's child without a uid); after the chmod, no attacker gets more than the empty file."""
    level = probed(monkeypatch, name)
    lab = lab_copy(open_folder, interpreter_for_all)
    klass = class_of(open_folder, open_folder.name, lab=Path(USR) / "lab", submissions=Path(USR) / "class")
    out, switches = open_folder / "out", LEVELS[name]
    attackers = [f"{USR}/class/{attacker}.py" for attacker in ATTACKERS]
    alone = under_usr(lab, klass, [sys.executable, "-c", ENGINE_ALONE, *attackers], switches, cwd=ROOT)
    assert alone.returncode == 0, alone.stderr
    assert json.loads(alone.stdout) == dict.fromkeys(attackers, True)
    make_grade = ["make", "--no-print-directory", "grade", f"SUBMISSIONS={USR}/class", f"OUT={out}", "JOBS=2"]
    line = refused_in_one_line(under_usr(lab, klass, make_grade, switches), out)
    as_others = "uid" in level.walls
    for private in (f"{USR}/lab", f"{USR}/class"):
        fix = (
            text("audit.fix.chmod", path=private)
            if as_others
            else text("audit.fix.move", path=private, shown=os.path.realpath("/usr"))
        )
        assert fix in line, line
    if as_others:
        subprocess.run(["chmod", "go-rwx", str(lab), str(klass)], check=True)
        assert_nothing_stolen(out, under_usr(lab, klass, make_grade, switches))


@CHECKOUT  # dist/ of the checkout
@POSIX_ONLY
@pytest.mark.skipif(not IS_ROOT, reason="a uid of its own needs a root grader")
def test_the_gradescope_bundle_states_its_choice_says_its_level_and_still_audits(open_folder, monkeypatch, tmp_path):
    """Gradescope: one throw-away container per submission, no classmates, often root without user namespaces.
    The bundle chooses in run_autograder to accept a uid of its own below full strength, says the level it got in
    results.json, and audits first: the lab (setup.sh makes it root's alone) and Gradescope's metadata, whose
    earlier results (hidden tests' expected values included) a child at `uid` would otherwise read; run_autograder
    makes the metadata root's alone before grading."""
    level = probed(monkeypatch, "uid-no-landlock")
    assert make("gradescope").returncode == 0
    source = open_folder / "source"
    with zipfile.ZipFile(ROOT / "dist" / "gradescope-autograder.zip") as bundle:
        for info in bundle.infolist():  # as unzip does: each file with the mode the zip gives it
            target = source / info.filename
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
            target.write_bytes(bundle.read(info))
            target.chmod(info.external_attr >> 16 & 0o777)
    runner = (source / "run_autograder").read_text(encoding="utf-8")
    choice = runner.split("--unsafe '", 1)[1].split("'", 1)[0]
    assert choice == "uid*" and "chmod go-rwx /autograder/submission_metadata.json" in runner
    stub = tmp_path / "bin"
    stub.mkdir()
    (stub / "apt-get").write_text("#!/bin/sh\nexit 0\n")
    (stub / "apt-get").chmod(0o755)
    subprocess.run(
        ["bash", str(source / "setup.sh")],
        check=True,
        timeout=60,
        env=clean_env(PATH=f"{stub}{os.pathsep}{os.environ['PATH']}"),
    )
    assert not source.stat().st_mode & 0o077
    (open_folder / "submission").mkdir(mode=0o755)
    shutil.copy(SOLUTION, open_folder / "submission" / "student.py")
    metadata = open_folder / "submission_metadata.json"
    metadata.write_text(
        json.dumps(
            {
                "users": [{"id": 7, "name": "Alice"}],
                "previous_submissions": [
                    {"score": "40.0", "results": {"tests": [{"name": "[TEST g1]", "output": "expected: …"}]}}
                ],
            }
        )
    )
    metadata.chmod(0o644)
    (open_folder / "results").mkdir()
    results = open_folder / "results" / "results.json"
    env = clean_env(**LEVELS["uid-no-landlock"])
    env.pop("LAB_UNSAFE", None)

    def graded() -> dict:  # in a fresh container: no results.json yet
        results.unlink(missing_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "labkit.instructor.grade",
                "--gradescope",
                "--unsafe",
                choice,
                "--submission",
                str(open_folder / "submission"),
                "--metadata",
                str(metadata),
                "--results",
                str(results),
            ],
            cwd=source,
            env=env,
            check=True,
            timeout=300,
        )
        return json.loads(results.read_text(encoding="utf-8"))

    document = graded()
    assert document["score"] == 0 and document["tests"] == [] and str(metadata) in document["output"]
    assert document["extra_data"] == {"status": "refused", "sandbox_level": level.name, "sandbox_full": False}
    metadata.chmod(0o600)  # what run_autograder does
    document = graded()
    assert document["score"] == config.load().max_score, document["output"]
    assert (document["extra_data"]["sandbox"], document["extra_data"]["sandbox_level"]) == (level.name, level.name)
    assert text("feedback.sandbox", level=level.name) in document["output"].splitlines()  # after "attempt 2"
    results.unlink()
    without = subprocess.run(
        [
            sys.executable,
            "-m",
            "labkit.instructor.grade",
            "--gradescope",
            "--submission",
            str(open_folder / "submission"),
            "--metadata",
            str(metadata),
            "--results",
            str(results),
        ],
        cwd=source,
        env=env,
        timeout=300,
    )
    assert without.returncode == 0 and json.loads(results.read_text("utf-8"))["output"] == audit.level_refusal(level)

"""Before grading (labkit/instructor/audit.py): a level below full strength only when UNSAFE= names it, and an
audit of what the child could read at the level it really gets, path by path and reader by reader (a uid of
its own, root's child without one, the grader's own user), where the walls show it (bubblewrap's binds,
Landlock's rules) or everywhere (a uid of its own alone).

Lab09's paths only in the layouts made here: the audit is the core's (it names no lab).
"""

import ast
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest

from conftest import ROOT, clean_env, unavailable
from labkit.i18n import text
from labkit.instructor import audit, config
from labkit.instructor.grade import private_files, refuse_unsafe
from labkit.run import sandbox
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
LANDLOCK_4 = level_of(("landlock-4", "seccomp", "processes ≤ 64 (cgroup)", "reaper"), 4,
                      "landlock-4 (no signal scoping)")
UID_LANDLOCK_4 = level_of(("uid", "landlock-4", "seccomp", "processes ≤ 64 (uid)", "reaper"), 4,
                          "uid + landlock-4 (no signal scoping)")
NONE = level_of(("rlimits", "reaper"), name="none")
OWN_USER = level_of(("landlock-7", "processes ≤ 64 (userns)", "reaper"), 7, "landlock-6+ (no seccomp)")
BWRAP = level_of(("bwrap", "uid", "landlock-7", "seccomp", "processes ≤ 64 (uid)", "reaper"), 7, "bwrap")


def probed(monkeypatch, name: str):
    """The level a child gets here with the switches of LEVELS[name] (and no others), or None."""
    for switch in SWITCHES:
        monkeypatch.delenv(switch, raising=False)
    for switch, value in LEVELS[name].items():
        monkeypatch.setenv(switch, value)
    with StudentRun(display="probe.py", source=b"") as child:
        child.start()
        got = child.level
    wanted = {"bwrap": "bwrap", "uid": "uid", "landlock": "landlock-", "landlock-4": "landlock-4",
              "uid-no-landlock": "uid", "none": "none"}[name]
    if got is None or wanted not in " ".join(got.walls + (got.name,)) or (
            name == "uid-no-landlock" and any(w.startswith("landlock-") for w in got.walls)):
        if name == "bwrap":
            unavailable("bwrap", "level bwrap is not available here")
        pytest.skip(f"level {name} is not available here")
    return got


# --- choosing a level -------------------------------------------------------------------------------------

def test_a_level_is_spelt_the_way_unsafe_names_it():
    spelt = {"bwrap": "bwrap", "uid": "uid", "uid + landlock-6+": "uid+landlock-6+", "none": "none",
             "landlock-4 (no signal scoping)": "landlock-4", "uid + landlock-4 (no signal scoping)": "uid+landlock-4",
             "landlock-2 (no network or signal scoping)": "landlock-2", "seccomp": "seccomp",
             "uid (no seccomp)": "uid-no-seccomp", "landlock-6+ (no seccomp)": "landlock-6+-no-seccomp"}
    assert {name: audit.spelling(sandbox.Level(name)) for name in spelt} == spelt


def test_below_full_strength_only_a_choice_that_names_the_level_grades():
    assert BWRAP.full and audit.accepts("", BWRAP) and refuse_unsafe(BWRAP, "", ()) is None
    assert not LANDLOCK_4.full and not UID.full and not NONE.full
    for level, choice in ((LANDLOCK_4, "landlock-4"), (UID, "uid"), (NONE, "none")):
        assert not audit.accepts("", level) and not audit.accepts("0", level)
        assert audit.accepts(choice, level) and audit.accepts("1", level) and audit.accepts(True, level)
        assert audit.accepts(f"bwrap,{choice.upper()}", level)  # a list, in any case
    assert UID_LANDLOCK_4.full and audit.accepts("", UID_LANDLOCK_4)  # a uid of its own blocks signals: full
    no_seccomp = level_of(("uid", "processes ≤ 64 (uid)", "process group"), name="uid (no seccomp)")
    assert audit.accepts("uid*", UID) and audit.accepts("uid*", no_seccomp) and not audit.accepts("uid*", LANDLOCK_4)
    assert not audit.accepts("uid", LANDLOCK_4) and not audit.accepts("landlock-4", UID)
    assert not audit.accepts("uid", no_seccomp) and audit.accepts("uid-no-seccomp", no_seccomp)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_refusal_says_in_one_line_what_is_missing_how_to_get_it_and_how_to_choose(language, monkeypatch):
    monkeypatch.setenv("LAB_LANG", language)
    for switch in SWITCHES:
        monkeypatch.delenv(switch, raising=False)
    monkeypatch.setattr(audit.shutil, "which", lambda name: None)  # no bubblewrap installed
    line = refuse_unsafe(UID, "", ())
    opening = text("sandbox.refuse_level", level="uid", open="", missing="", choice="", given="").split(":")[0]
    assert "\n" not in line and line.startswith(opening + ":")
    for attack in ("read", "shared"):  # what `uid` leaves open, and nothing else
        assert text(f"sandbox.attack.{attack}") in line
    assert text("sandbox.attack.signal") not in line and text("sandbox.attack.network") not in line
    assert "apt-get install bubblewrap" in line and "Landlock ABI 6 (Linux 6.12" in line
    assert line.endswith("UNSAFE=uid")
    named_another = refuse_unsafe(LANDLOCK_4, "uid", ())
    assert "UNSAFE=landlock-4" in named_another and text("sandbox.other_choice", given="uid") in named_another
    monkeypatch.setattr(audit.shutil, "which", lambda name: "/usr/bin/bwrap")  # installed, but refused here
    line = refuse_unsafe(LANDLOCK_4, "", ())
    assert text("sandbox.need.bwrap_refused") in line and text("sandbox.need.landlock", abi=4) in line
    assert text("sandbox.attack.signal") in line and "LAB_" not in line
    monkeypatch.setenv("LAB_SANDBOX", "landlock")  # a test switch caps the level: it is named, not the machine
    monkeypatch.setenv("LAB_LANDLOCK_ABI", "4")
    line = refuse_unsafe(LANDLOCK_4, "", ())
    assert text("sandbox.need.capped", settings="LAB_SANDBOX=landlock LAB_LANDLOCK_ABI=4") in line
    assert "bubblewrap" not in line and "Landlock ABI 6" not in line


# --- what each wall shows -----------------------------------------------------------------------------

def test_landlock_reads_what_the_audit_says_it_reads():
    """The audit's list of what Landlock lets a child read is the child's own (labkit/run/child.py's confine),
    beside the interpreter's folders: one statement kept in two places, held together here."""
    tree = ast.parse((ROOT / "labkit" / "run" / "child.py").read_text(encoding="utf-8"))
    confine = next(node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name == "confine")
    literal = next(node.value for node in ast.walk(confine) if isinstance(node, ast.Assign)
                   and getattr(node.targets[0], "id", "") == "readable")
    constants = {element.value for element in literal.elts if isinstance(element, ast.Constant)}
    prefixes = {ast.unparse(element) for element in literal.elts if not isinstance(element, ast.Constant)}
    assert constants == set(audit.LANDLOCK_READS)
    assert prefixes == {"sys.prefix", "sys.base_prefix", "sys.exec_prefix"}  # the interpreter's own: python_folders


def test_what_bubblewrap_shows_is_read_off_its_own_command():
    shown = audit.shown(BWRAP)
    assert len(shown) == 2  # bubblewrap's binds, and Landlock's rules inside it
    assert os.path.realpath("/usr") in shown[0] and all(
        os.path.realpath(folder) in shown[0] for folder in sandbox.interpreter_for(True)[1])
    assert audit.shown(UID) is None  # a uid of its own alone: every file of the machine


# --- the audit, path by path ------------------------------------------------------------------------------

def _tree(base: Path) -> dict:
    """One of each path a child must not read, in a lab laid out as a checkout is, modes as a umask of 022 gives."""
    lab = base / "lab"
    paths = {"answer key": lab / "solutions" / "student.py", "course file": lab / "solutions" / "grading.ini",
             "git pack": lab / ".git" / "objects" / "pack" / "pack-1.pack",
             "bytecode": lab / ".venv" / "pycache" / "x" / "solutions" / "student.cpython-311.pyc",
             "correct test": lab / "tests" / "students" / "correct" / "regex.py",
             "classmate": base / "class" / "alice.py", "earlier feedback": base / "out" / "feedback" / "alice.txt",
             "roster": base / "roster.csv", "metadata": base / "submission_metadata.json"}
    for path in paths.values():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("private\n")
    for path in [base, *base.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    paths["git pack"].chmod(0o444)  # as git leaves a pack
    return paths


def _private(base: Path) -> list:
    return [("lab", base / "lab"), ("submissions", base / "class"), ("out", base / "out"),
            ("roster", base / "roster.csv"), ("metadata", base / "submission_metadata.json")]


@pytest.fixture
def open_folder():
    """A folder of this test's (0755) in a folder any uid can reach."""
    base = next((folder for folder in (tempfile.gettempdir(), "/tmp", "/var/tmp") if os.path.isdir(folder) and all(
        os.stat(f).st_mode & 0o001 for f in (Path(os.path.realpath(folder)), *Path(os.path.realpath(folder)).parents))),
        None)
    if base is None:
        pytest.skip("no temporary folder that other users can reach")
    folder = Path(tempfile.mkdtemp(prefix=f"labkit-audit-{uuid.uuid4().hex[:8]}-", dir=os.path.realpath(base)))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@POSIX_ONLY
@pytest.mark.parametrize("what", ["answer key", "course file", "git pack", "bytecode", "correct test", "classmate",
                                  "earlier feedback", "roster", "metadata"])
def test_each_private_path_is_found_where_a_child_of_a_uid_of_its_own_could_read_it(what, open_folder):
    paths = _tree(open_folder)
    private = _private(open_folder)
    findings = audit.audit(UID, private)  # no Landlock: every file others may read
    hit = next(f for f in findings if Path(paths[what]).is_relative_to(f.path))
    assert hit.fix == text("audit.fix.chmod", path=hit.path)
    line = refuse_unsafe(UID, "uid", private)
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
        hit = next(f for f in audit.audit(root_child, _private(open_folder))
                   if Path(paths[what]).is_relative_to(f.path))
        assert hit.fix == text("audit.fix.move", path=hit.path, shown=str(open_folder))
        subprocess.run(["chmod", "go-rwx", hit.path], check=True)
        assert any(Path(paths[what]).is_relative_to(f.path) for f in audit.audit(root_child, _private(open_folder)))
    monkeypatch.setattr(audit, "shown", lambda level: [["/nowhere"]])
    assert audit.audit(BWRAP, _private(open_folder)) == []


def test_the_audit_names_the_whole_lab_its_repository_and_the_graders_bytecode():
    private = dict((str(path), what) for what, path in private_files(None, Path("class"), Path("out"), Path("r.csv")))
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
    ran = subprocess.run([str(python), str(lab / "lab.py"), "help"], cwd=lab, env=clean_env(), capture_output=True,
                         text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert any(cache.rglob("*.pyc"))  # it is still the harness's bytecode cache


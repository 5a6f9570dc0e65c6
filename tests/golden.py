"""Golden outputs: every output of this checkout captured into a folder, and two such folders compared.

    python tests/golden.py capture DIR [--python PY] [--only NAME ...]
    python tests/golden.py compare BEFORE AFTER [--allow REGEX ...]

A developers' tool for restructuring (issue 17, design §8), never collected by pytest: capture BEFORE (a
`git worktree` of the step's base) and AFTER with the same PY (default: this interpreter; it needs pytest and
pytest-timeout) and the same sandbox level, then compare: exit 1 on any difference, 2 on a usage error.
`--allow REGEX` accepts a step's intended difference: a file whose every changed line matches one, a file on
one side only whose name does.  `capture` runs `make clean` in its checkout, so run nothing else there
meanwhile.  Self-check (tests/test_golden.py runs a part of it): two captures of one tree compare equal.

    python tests/golden.py capture ../golden-a && python tests/golden.py capture ../golden-b
    python tests/golden.py compare ../golden-a ../golden-b

DIR/<case>/ holds `command`, `stdout`, `stderr`, `exit` and `files/` (the outputs, by path under the case's
temp folder or the checkout).  A case's steps run in order while each exits 0, as `make clean && make test`.

| case                                  | what runs                                                      | files      |
|---------------------------------------|----------------------------------------------------------------|------------|
| test-{stub,solution,no_cut_user,      | `make clean && make test STUDENT=…`, zh and en (LAB_LANG)      |            |
|   saved_as_gbk,loop_in_call}-{zh,en}  |                                                                |            |
| test-full-{solution,strips_content}-… | `make clean && make test-full STUDENT=…`, zh and en            |            |
| challenge-{stub,solution}-{zh,en}     | `make clean && make challenge STUDENT=…`, zh and en            |            |
| help                                  | `make help`                                                    |            |
| chat-{zh,en,rewrite0}                 | `make chat DEMO=1 STUDENT=solutions/student.py`; en; REWRITE=0 | page, rows |
| grade-plain                           | `make grade`: 12 files of tests/students and a .docx           | all of OUT |
| grade-{canvas,moodle,blackboard}      | LMS downloads (tests/lms_fixtures.py); Canvas and Moodle       | all of OUT |
|                                       | with their gradebook (ROSTER=)                                 |            |
| grade-merge                           | grade-plain, then a corrected and a new student, MERGE=1       | all of OUT |
| grade-config                          | grade-plain's class with CONFIG= (weights, count, title, en)   | all of OUT |
| gradescope                            | run_autograder's module `--gradescope`: a submission, metadata | results    |
| dist                                  | `make clean && make dist`                                      | members    |

Every run gets JOBS=2 (grading), LAB_TIMEOUT=20 but where the timeout is what is captured (loop_in_call),
REWRITE_DEADLINE=60000 (the chat), TMPDIR inside the capture's own temp folder (no other run's leftovers),
children's uids from LAB_SANDBOX_UID=64000 (apart from other graders') and no other LAB_ variable but
LAB_SANDBOX and LAB_UNSAFE; the temp folder and the checkout are written as $TMP and $ROOT.  The SQLite file
is listed as its rows without the columns that vary (VARYING_COLUMNS), an archive as its members (mode, size,
sha256, name: not the archive's bytes, whose times are the last commit's).  `compare` masks only what varies
between two runs of one tree (MASKS).
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import lms_fixtures as lms

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = "solutions/student.py"
STUDENTS = "tests/students"
GENEROUS = "20"  # LAB_TIMEOUT (s) where a timeout is not what is captured: a loaded machine fails no case
KEPT_LAB_VARIABLES = ("LAB_SANDBOX", "LAB_UNSAFE")  # they choose the sandbox level, which both captures share
UIDS = "64000"  # LAB_SANDBOX_UID: children's uids apart from other graders' (61000 up), even ones that keep their
# uid locks elsewhere (older checkouts: in TMPDIR), whose end-of-child `kill -1` would otherwise reach ours
STEP_SECONDS = 900  # a step still running after this is recorded as hung
VARYING_COLUMNS = {"started", "ms"}  # the chat database's clock: when a session started, a rewrite's duration
TERMINAL, CHAT = r"/std(out|err)$", r"^chat-"  # which captured files a mask applies to (a regex of the name)
MASKS = (  # (files, pattern, replacement): what two runs of one tree print differently, and nothing else
    (TERMINAL, r"用时 \d+(\.\d+)? 秒", "用时 N 秒"),  # the grader's elapsed time
    (TERMINAL, r"\bin \d+(\.\d+)? s\b", "in N s"),
    (
        TERMINAL,
        r"(?m)^(评分中|grading) (\d+)/(\d+) · .*\n",  # progress: every 5 s (how many varies), with an ETA
        lambda m: f"{m[1]} {m[2]}/{m[3]} · (elapsed, ETA)\n" if m[2] == m[3] else "",
    ),
    (CHAT, r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "YYYY-MM-DD hh:mm:ss"),  # when the chat's session started
)

LANGS = {"zh": {}, "en": {"LAB_LANG": "en"}}
TESTED = {
    "stub": "framework/student.py",
    "solution": SOLUTION,
    "no_cut_user": f"{STUDENTS}/wrong/no_cut_user.py",
    "saved_as_gbk": f"{STUDENTS}/wrong/saved_as_gbk.py",
    "loop_in_call": f"{STUDENTS}/hostile/loop_in_call.py",
}
FULL = {"solution": SOLUTION, "strips_content": f"{STUDENTS}/wrong_full/strips_content.py"}
CHALLENGED = {"stub": "framework/student.py", "solution": SOLUTION}
CLASS = (
    "correct/regex.py",
    "correct/partition.py",
    "wrong/no_cut_user.py",
    "wrong/first_not_last.py",
    "wrong/saved_as_gbk.py",
    "wrong/prints_instead_of_returning.py",
    "wrong_full/strips_content.py",
    "wrong_full/keyerror_for_unknown_role.py",
    "held_out/trims_every_line.py",
    "hostile/exit_in_call.py",
    "hostile/fake_pass_lines.py",
    "hostile/syntax_error.py",
)  # plain: one .py per student, id <folder>-<file>
COURSE = (
    "[weights]\nsix = 40\nextended = 10\nproperties = 20\ngenerated = 30\n\n"
    "[generated]\ncount = 60\nsecret = golden-not-a-secret\n\n[course]\ntitle = Lab09 (golden)\nlanguage = en\n"
)
METADATA = {
    "id": 123456789,
    "created_at": "2024-03-02T10:00:00.000000-08:00",
    "assignment": {"title": "Lab09", "due_date": "2024-03-01T23:59:00.000000-08:00"},
    "users": [{"id": 1234, "name": "Alice Example", "email": "alice@example.edu"}],
    "previous_submissions": [{"submission_time": "2024-03-01T12:00:00.000000-08:00", "score": 60.0, "results": {}}],
}  # Gradescope's submission_metadata.json: late, attempt 2


@dataclass
class Case:
    """One captured run: its steps (argv, `{tmp}` its temp folder, `make` run in the checkout with PYTHON=)."""

    name: str
    steps: list
    env: dict = field(default_factory=dict)  # on top of the common environment; None removes a variable
    build: Callable[[Path], None] | None = None  # writes the case's inputs into its temp folder
    outputs: tuple = ()  # globs of output files or folders, `{tmp}/…` or `{root}/…`


def fail(message: str):
    """Stop with `message`: exit 2, never 1 (that says two captures differ)."""
    print(f"golden: {message}", file=sys.stderr)
    raise SystemExit(2)


# --- the inputs --------------------------------------------------------------------------------------------


def plain_class(tmp: Path) -> None:
    """A plain folder: the CLASS files as `<folder>-<file>`, and a Word document that is no code."""
    folder = tmp / "class"
    folder.mkdir()
    for name in CLASS:
        shutil.copyfile(ROOT / STUDENTS / name, folder / name.replace("/", "-"))
    (folder / "essay-report.docx").write_bytes(
        lms.zip_bytes({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document/>"})
    )


def regrade(tmp: Path) -> None:
    """The plain class, then a corrected resubmission and a student who was not graded before."""
    plain_class(tmp)
    lms.put(
        tmp / "again",
        {
            "wrong-no_cut_user.py": (ROOT / SOLUTION).read_bytes(),
            "wrong-no_trim.py": (ROOT / STUDENTS / "wrong/no_trim.py").read_bytes(),
        },
    )


def course_file(tmp: Path) -> None:
    """The plain class and a course file of other weights, count, title and language."""
    plain_class(tmp)
    (tmp / "grading.ini").write_text(COURSE, encoding="utf-8")


def canvas(tmp: Path) -> None:
    """A Canvas download and its gradebook export (`;`, decimal commas, a BOM, a Manual Posting row)."""
    lms.canvas_class(tmp / "download")
    (tmp / "gradebook.csv").write_bytes(
        lms.canvas_gradebook(lms.CANVAS_ROWS, separator=";", bom=True, manual=True, decimal=",", points="7.00")
    )


def moodle(tmp: Path) -> None:
    """A Moodle 4.5 download and its grading worksheet."""
    lms.moodle_45_class(tmp / "download")
    (tmp / "worksheet.csv").write_bytes(lms.moodle_45_worksheet())


def gradescope_submission(tmp: Path) -> None:
    """One Gradescope submission (it fails the drawn checks) and its submission_metadata.json."""
    lms.put(tmp / "submission", {"student.py": (ROOT / STUDENTS / "wrong_full/strips_content.py").read_bytes()})
    (tmp / "submission_metadata.json").write_text(json.dumps(METADATA, indent=2), encoding="utf-8")


def grader_module() -> str:
    """The module Gradescope's run_autograder runs (`-m X --gradescope`), wherever the checkout keeps it."""
    for script in [path for depth in ("*", "*/*") for path in sorted(ROOT.glob(f"{depth}/gradescope/run_autograder"))]:
        found = re.search(r"-m\s+(\S+)\s+--gradescope", script.read_text(encoding="utf-8"))
        if found:
            return found[1]
    fail("no gradescope/run_autograder naming its module in this checkout")


# --- the cases ---------------------------------------------------------------------------------------------


def cases() -> list:
    """Every case, in the order they run."""
    chat = [
        "make",
        "chat",
        "DEMO=1",
        f"STUDENT={SOLUTION}",
        "REWRITE_DEADLINE=60000",
        "CHAT_PAGE={tmp}/chat-session.html",
        "CHAT_DB={tmp}/chat-sessions.db",
    ]
    chat_files = ("{tmp}/chat-session.html", "{tmp}/chat-sessions.db")
    grade = ["make", "grade", "JOBS=2", "OUT={tmp}/out"]
    found = [
        Case(
            f"{target}-{who}-{lang}",
            [["make", "clean"], ["make", target, f"STUDENT={path}"]],
            {**env, "LAB_TIMEOUT": None if who == "loop_in_call" else GENEROUS},
        )
        for target, students in (("test", TESTED), ("test-full", FULL), ("challenge", CHALLENGED))
        for who, path in students.items()
        for lang, env in LANGS.items()
    ]
    return found + [
        Case("help", [["make", "help"]]),
        Case("chat-zh", [chat], outputs=chat_files),
        Case("chat-en", [chat], LANGS["en"], outputs=chat_files),
        Case("chat-rewrite0", [chat + ["REWRITE=0"]], outputs=chat_files),
        Case("grade-plain", [grade + ["SUBMISSIONS={tmp}/class"]], build=plain_class, outputs=("{tmp}/out",)),
        Case(
            "grade-canvas",
            [grade + ["SUBMISSIONS={tmp}/download", "ROSTER={tmp}/gradebook.csv"]],
            build=canvas,
            outputs=("{tmp}/out",),
        ),
        Case(
            "grade-moodle",
            [grade + ["SUBMISSIONS={tmp}/download", "ROSTER={tmp}/worksheet.csv"]],
            build=moodle,
            outputs=("{tmp}/out",),
        ),
        Case(
            "grade-blackboard",
            [grade + ["SUBMISSIONS={tmp}/download"]],
            build=lambda tmp: lms.blackboard_class(tmp / "download"),
            outputs=("{tmp}/out",),
        ),
        Case(
            "grade-merge",
            [grade + ["SUBMISSIONS={tmp}/class"], grade + ["SUBMISSIONS={tmp}/again", "MERGE=1"]],
            build=regrade,
            outputs=("{tmp}/out",),
        ),
        Case(
            "grade-config",
            [grade + ["SUBMISSIONS={tmp}/class", "CONFIG={tmp}/grading.ini"]],
            build=course_file,
            outputs=("{tmp}/out",),
        ),
        Case(
            "gradescope",
            [
                [
                    "{python}",
                    "-m",
                    grader_module(),
                    "--gradescope",
                    "--submission",
                    "{tmp}/submission",
                    "--metadata",
                    "{tmp}/submission_metadata.json",
                    "--results",
                    "{tmp}/results/results.json",
                ]
            ],
            build=gradescope_submission,
            outputs=("{tmp}/results",),
        ),
        Case("dist", [["make", "clean"], ["make", "dist"]], outputs=("{root}/dist/*.tar.gz", "{root}/dist/*.zip")),
    ]


# --- capture -----------------------------------------------------------------------------------------------


def environment(temp: Path, case: Case) -> dict:
    """A student's shell: no make nesting, no LAB_ setting of the caller's but the sandbox's, TMPDIR our own."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "PYTHONPYCACHEPREFIX")
        and (not key.startswith("LAB_") or key in KEPT_LAB_VARIABLES)
    }
    env.update(TMPDIR=str(temp / "tmp"), LAB_TIMEOUT=GENEROUS, LAB_SANDBOX_UID=UIDS)
    for key, value in case.env.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def command_line(step: list, tmp: Path, python: str) -> list:
    """The step's command line: placeholders filled, `make` told the interpreter and kept quiet about folders."""
    words = [word.replace("{tmp}", str(tmp)).replace("{python}", python) for word in step]
    return ["make", "--no-print-directory", *words[1:], f"PYTHON={python}"] if words[0] == "make" else words


def run_case(case: Case, tmp: Path, python: str, env: dict) -> tuple:
    """(stdout, stderr, exit) of the case's steps, run while each exits 0."""
    stdout, stderr, code = b"", b"", "0"
    for step in case.steps:
        try:
            done = subprocess.run(
                command_line(step, tmp, python), cwd=ROOT, env=env, capture_output=True, timeout=STEP_SECONDS
            )
        except subprocess.TimeoutExpired as hung:
            return stdout + (hung.stdout or b""), stderr + (hung.stderr or b""), f"hung after {STEP_SECONDS} s"
        stdout, stderr, code = stdout + done.stdout, stderr + done.stderr, str(done.returncode)
        if done.returncode != 0:
            break
    return stdout, stderr, code


def output_files(case: Case, tmp: Path) -> dict:
    """{name under files/: bytes} of the case's outputs; a database as its rows, an archive as its members."""
    found = {}
    for pattern in case.outputs:
        base = tmp if pattern.startswith("{tmp}") else ROOT
        for path in sorted(base.glob(pattern.split("/", 1)[1])):
            for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
                if file.is_file():
                    name = file.relative_to(base).as_posix()
                    found.update(summarised(name, file))
    return found


def summarised(name: str, file: Path) -> dict:
    """{name: bytes} of one output file, a database or an archive as text that does not vary."""
    if name.endswith(".db"):
        return {name + ".rows": database_rows(file)}
    if name.endswith((".tar.gz", ".zip")):
        return {name + ".members": archive_members(file)}
    return {name: file.read_bytes()}


def database_rows(path: Path) -> bytes:
    """Every table's rows in insertion order, without the VARYING_COLUMNS."""
    lines = []
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        for (table,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            columns = [
                row[1] for row in connection.execute(f'PRAGMA table_info("{table}")') if row[1] not in VARYING_COLUMNS
            ]
            lines.append(f"## {table} ({', '.join(columns)})")
            quoted = ", ".join(f'"{column}"' for column in columns)
            lines += [
                json.dumps(row, ensure_ascii=False)
                for row in connection.execute(f'SELECT {quoted} FROM "{table}" ORDER BY rowid')
            ]
    finally:
        connection.close()
    return ("\n".join(lines) + "\n").encode("utf-8")


def archive_members(path: Path) -> bytes:
    """One line per member: mode, size, sha256 of its content, name (times left out: they are the commit's)."""
    lines = []
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as bundle:
            for info in bundle.infolist():
                lines.append(
                    f"{info.external_attr >> 16:o} {info.file_size} "
                    f"{hashlib.sha256(bundle.read(info)).hexdigest()} {info.filename}"
                )
    else:
        with tarfile.open(path) as tar:
            for info in tar.getmembers():
                digest = hashlib.sha256(tar.extractfile(info).read()).hexdigest() if info.isfile() else "-"
                lines.append(f"{info.mode:o} {info.size} {digest} {info.name}" + ("/" if info.isdir() else ""))
    return ("\n".join(lines) + "\n").encode("utf-8")


def capture(folder: Path, python: str, only: list) -> int:
    """Run the cases named by `only` (globs or name prefixes: `test` is every test-…; all when empty) into `folder`."""
    chosen = [
        case
        for case in cases()
        if not only
        or any(fnmatch.fnmatch(case.name, pattern) or case.name.startswith(pattern + "-") for pattern in only)
    ]
    if not chosen:
        fail("--only matches no case: " + " ".join(case.name for case in cases()))
    if folder.exists() and any(folder.iterdir()):
        fail(f"{folder} is not empty (a capture goes into a new folder)")
    if subprocess.run([python, "-c", "import pytest, pytest_timeout"], capture_output=True).returncode != 0:
        fail(f"{python} lacks pytest or pytest-timeout: --python .venv/bin/python (make test makes it)")
    started = time.monotonic()
    temp = Path(tempfile.mkdtemp(prefix="golden-"))
    try:
        temp.chmod(0o755)  # a child under a uid of its own must reach its folder inside TMPDIR
        (temp / "tmp").mkdir()
        (temp / "tmp").chmod(0o1777)  # like /tmp
        paths = {
            str(temp): b"$TMP",
            os.path.realpath(temp): b"$TMP",
            str(ROOT): b"$ROOT",
            os.path.realpath(ROOT): b"$ROOT",
        }
        for case in chosen:
            tmp = temp / case.name
            tmp.mkdir()
            if case.build:
                case.build(tmp)
            began = time.monotonic()
            stdout, stderr, code = run_case(case, tmp, python, environment(temp, case))
            files = {
                "command": " && ".join(" ".join(step) for step in case.steps).encode("utf-8") + b"\n",
                "stdout": stdout,
                "stderr": stderr,
                "exit": code.encode() + b"\n",
                **{f"files/{name}": data for name, data in output_files(case, tmp).items()},
            }
            write(folder / case.name, files, paths)
            print(f"golden: {case.name:<28} exit {code:<3} {time.monotonic() - began:5.1f} s", file=sys.stderr)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    print(f"golden: {len(chosen)} cases captured into {folder} in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return 0


def write(folder: Path, files: dict, paths: dict) -> None:
    """Write {name: bytes} under `folder`, each path of `paths` replaced by its name ($TMP, $ROOT), longest first."""
    for name, data in files.items():
        for path in sorted(paths, key=len, reverse=True):
            data = data.replace(path.encode(), paths[path])
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)


# --- compare -----------------------------------------------------------------------------------------------


def masked(name: str, data: bytes) -> list:
    """The file's lines with MASKS applied (undecodable bytes shown as escapes)."""
    text = data.decode("utf-8", "backslashreplace")
    for files, pattern, replacement in MASKS:
        if re.search(files, name):
            text = re.sub(pattern, replacement, text)
    return text.splitlines(keepends=True)


def changed_lines(before: list, after: list) -> list:
    """The lines one side has and the other has not, where they differ."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        line for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal" for line in before[i1:i2] + after[j1:j2]
    ]


def compare(before: Path, after: Path, allow: list, shown: int = 40) -> int:
    """Print a short unified diff of each file that differs once masked (and not as `allow` accepts); 1 if any."""
    if not all(side.is_dir() and any(side.iterdir()) for side in (before, after)):
        fail(f"{before} and {after} must both be captures (folders with files)")
    names = sorted(
        {path.relative_to(side).as_posix() for side in (before, after) for path in side.rglob("*") if path.is_file()}
    )
    allowed = [re.compile(pattern) for pattern in allow]
    different = accepted = 0
    for name in names:
        sides = [side / name for side in (before, after)]
        if not all(path.is_file() for path in sides):
            if any(pattern.search(name) for pattern in allowed):
                accepted += 1
                continue
            different += 1
            print(f"only in {'BEFORE' if sides[0].is_file() else 'AFTER'}: {name}")
            continue
        old, new = (masked(name, path.read_bytes()) for path in sides)
        if old == new:
            continue
        if allowed and all(any(pattern.search(line) for pattern in allowed) for line in changed_lines(old, new)):
            accepted += 1
            continue
        different += 1
        diff = list(difflib.unified_diff(old, new, f"BEFORE/{name}", f"AFTER/{name}", n=2))
        sys.stdout.writelines(line if line.endswith("\n") else line + "\n" for line in diff[:shown])
        if len(diff) > shown:
            print(f"… {len(diff) - shown} more diff lines")
    print(
        f"golden: {len(names)} files, {different} differ"
        + (f", {accepted} only as --allow accepts" if accepted else ""),
        file=sys.stderr,
    )
    return 1 if different else 0


def main(argv: list | None = None) -> int:
    """`capture` or `compare`, as the module's docstring says."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    taking = commands.add_parser("capture", help="capture every output of this checkout into DIR")
    taking.add_argument("dir", type=Path)
    taking.add_argument("--python", default=sys.executable, help="the interpreter, with pytest (PYTHON=)")
    taking.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="cases whose name matches (a glob, or a prefix: test)",
    )
    comparing = commands.add_parser("compare", help="compare two captures; exit 1 on any difference")
    comparing.add_argument("before", type=Path)
    comparing.add_argument("after", type=Path)
    comparing.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="REGEX",
        help="an intended difference: every changed line (or missing file's name) matches one",
    )
    args = parser.parse_args(argv)
    if args.command == "capture":
        return capture(
            args.dir.resolve(), os.path.abspath(args.python) if os.sep in args.python else args.python, args.only
        )
    return compare(args.before, args.after, args.allow)


if __name__ == "__main__":
    sys.exit(main())

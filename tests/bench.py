"""Benchmarks with goals (`make bench`): the student's `make test`, grading a class of 300 and of 3,000, `make chat`.

lab:      `make clean && make test` on the reference costs at most 1.5x a one-test pytest run, for every lab of the
          course (`LAB=` each).
grading:  `make grade` on 300 generated submissions: at most 15 s with the table cases only (the engine
          and its sandbox), at most 2x that with the default scheme (property and generated checks
          too), and at least 5x faster than running `make test` once per submission.  A class ten times
          larger costs at most 1.2x the time per submission and 1.3x the grader's peak memory (memory
          flat in the size of the class: records go to disk as they are made).
chat:     on the suite's own follow-ups (tests/followups.py) the rewrite finds the rule in its top 3 at least as
          often as the question as typed and at least 80 % of the time, and the share of rewrites that keep the
          subject; `make chat`'s models and knowledge base are made in at most 100 ms (the best of the runs,
          each in a fresh interpreter), and its start is timed.
suite:    `make check` itself (not part of `all`: it takes minutes), against its goal of 6 minutes on an idle
          2-core machine (a busy or smaller one says so in its cores and load).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDENTS = ROOT / "tests" / "students"
LAB_GOAL = 1.5
GRADE_SECONDS_GOAL, SPEEDUP_GOAL, DRAWN_FACTOR_GOAL = 15.0, 5.0, 2.0
LARGE_TIME_GOAL, LARGE_MEMORY_GOAL = 1.2, 1.3  # the large class against the small one: per submission, peak
SUITE_GOAL_MINUTES = 6.0  # make check, whole, on an idle 2-core machine
HIT_GOAL, TRAINING_GOAL_MS = 0.8, 100.0  # the chat: the rewrite's hit@3, and the time its models take to train
# The grader's own peak memory (its workers and the students' children are processes of their own): the
# grader runs in this shim, which writes its ru_maxrss (KiB on Linux, bytes on macOS) to a file as it exits.
PEAK_SHIM = (
    "import atexit, resource, runpy, sys\n"
    "peak, sys.argv = sys.argv[1], ['labkit.instructor.grade', *sys.argv[2:]]\n"
    "atexit.register(lambda: open(peak, 'w').write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))\n"
    "runpy.run_module('labkit.instructor.grade', run_name='__main__', alter_sys=True)\n"
)
# wrong submissions that loop forever (tests/test_mistakes.py checks)
HANGING = ("find_loop_never_advances", "index_never_advances")
CRASHING = ("syntax_error", "exit_at_import", "os_exit_in_call", "missing_module", "recursion", "keyboard_interrupt")


def timed(command: list[str], cwd: Path = ROOT) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def bench_labs(python: str, make: list[str], runs: int) -> bool:
    """bench_lab for every lab of the course (Lab09 at the top, each labs/<name>/)."""
    sys.path.insert(0, str(ROOT))
    from labkit import course

    return all([bench_lab(python, make, runs, name, Path(root)) for name, (root, _) in course.labs().items()])


def bench_lab(python: str, make: list[str], runs: int, name: str = "", root: Path = Path(".")) -> bool:
    """Median wall time of the student's command and of the smallest pytest run, interleaved."""
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "test_one.py").write_text("def test_one():\n    pass\n")
        baseline_cmd = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_one.py"]
        chosen = [f"LAB={name}"] if name else []
        lab_cmd = [
            "sh",
            "-c",
            " ".join(make + ["clean"])
            + " && "
            + " ".join(make + ["test", *chosen, f"STUDENT={(root / 'solutions' / 'student.py').as_posix()}"]),
        ]
        timed(baseline_cmd, Path(scratch)), timed(lab_cmd)  # warm both caches once
        lab, baseline = [], []
        for _ in range(runs):
            baseline.append(timed(baseline_cmd, Path(scratch)))
            lab.append(timed(lab_cmd))
    lab_s, base_s = statistics.median(lab), statistics.median(baseline)
    ratio = lab_s / base_s
    print(f"one-test pytest run          median {base_s * 1000:7.1f} ms  ({runs} runs)")
    print(f"make clean && make test      median {lab_s * 1000:7.1f} ms  (the reference of {name or 'the lab'})")
    print(f"ratio                        {ratio:.2f}x  (goal <= {LAB_GOAL}x): {_verdict(ratio <= LAB_GOAL)}")
    return ratio <= LAB_GOAL


def generate_class(folder: Path, size: int = 300) -> None:
    """Mostly correct, some wrong, a few crashing submissions; none hangs (a hang costs its time limit,
    which would measure the limit, not the grader)."""
    correct = sorted((STUDENTS / "correct").glob("*.py")) + [ROOT / "solutions" / "student.py"]
    wrong = [
        path
        for path in sorted((STUDENTS / "wrong").glob("*.py")) + sorted((STUDENTS / "wrong_full").glob("*.py"))
        if path.stem not in HANGING
    ]
    crashing = [STUDENTS / "hostile" / f"{name}.py" for name in CRASHING]
    plan = [correct] * 8 + [wrong] * 3 + [crashing]  # 2/3 correct, 1/4 wrong, 1/12 crashing
    for index in range(size):
        pool = plan[index % len(plan)]
        source = pool[(index // len(plan)) % len(pool)].read_bytes()  # some are not UTF-8 on purpose
        (folder / f"s{index:04d}.py").write_bytes(f"# submission {index}\n".encode("ascii") + source)


def graded_with_peak(python: str, folder: Path, out: Path) -> tuple[float, float, int]:
    """(seconds, the grader's peak memory in MB, rows written) of grading `folder` with the default scheme."""
    peak = out.with_name(out.name + ".peak")
    seconds = timed([python, "-c", PEAK_SHIM, str(peak), str(folder), "--out", str(out)])
    kib = int(peak.read_text()) // (1024 if sys.platform == "darwin" else 1)
    return seconds, kib / 1024, (out / "grades.csv").read_text(encoding="utf-8").count("\n") - 1


def bench_grading(python: str, make: list[str], size: int, large: int) -> bool:
    """The class graded with the table cases only (the engine and its sandbox: goal <= 15 s), and with the
    default scheme, property and generated checks included (goal <= 2x the first); a class of `large` with the
    default scheme (per submission <= 1.2x the time, peak memory <= 1.3x); then `make test` once per
    submission, which grading must beat by 5x."""
    with tempfile.TemporaryDirectory() as scratch:
        folder, big = Path(scratch) / "class", Path(scratch) / "large"
        folder.mkdir()
        big.mkdir()
        generate_class(folder, size)
        generate_class(big, large)
        table_only = Path(scratch) / "table-only.ini"
        table_only.write_text("[weights]\nsix = 60\nextended = 40\nproperties = 0\ngenerated = 0\n", encoding="utf-8")
        engine = timed(
            make + ["grade", f"SUBMISSIONS={folder}", f"OUT={Path(scratch) / 'table'}", f"CONFIG={table_only}"]
        )
        grading, peak, rows = graded_with_peak(python, folder, Path(scratch) / "out")
        grading_large, peak_large, rows_large = graded_with_peak(python, big, Path(scratch) / "out-large")
        loop = sum(timed(make + ["test", f"STUDENT={path}"]) for path in sorted(folder.glob("*.py")))
    speedup = loop / grading
    time_factor = (grading_large / large) / (grading / size)
    memory_factor = peak_large / peak
    goals = {
        "engine": engine <= GRADE_SECONDS_GOAL,
        "drawn": grading <= DRAWN_FACTOR_GOAL * engine,
        "speed-up": speedup >= SPEEDUP_GOAL,
        "rows": rows == size and rows_large == large,
        "large time": time_factor <= LARGE_TIME_GOAL,
        "large memory": memory_factor <= LARGE_MEMORY_GOAL,
    }
    print(
        f"make grade, table cases only   {engine:6.1f} s  (goal <= {GRADE_SECONDS_GOAL:g} s, {os.cpu_count()} cores, "
        f"sandbox in force): {_verdict(goals['engine'])}"
    )
    print(
        f"grading, default scheme        {grading:6.1f} s  ({grading / engine:.2f}x, goal <= {DRAWN_FACTOR_GOAL:g}x: "
        f"property and generated checks): {_verdict(goals['drawn'])}  ({rows} rows, peak memory {peak:.1f} MB)"
    )
    print(
        f"{f'grading {large:,} submissions':<30} {grading_large:6.1f} s  (per submission {time_factor:.2f}x the above, goal "
        f"<= {LARGE_TIME_GOAL:g}x: {_verdict(goals['large time'])}; peak memory {peak_large:.1f} MB, "
        f"{memory_factor:.2f}x, goal <= {LARGE_MEMORY_GOAL:g}x: {_verdict(goals['large memory'])})  ({rows_large} rows)"
    )
    print(f"make test once per submission  {loop:6.1f} s")
    print(f"speed-up                       {speedup:6.1f}x  (goal >= {SPEEDUP_GOAL:g}x): {_verdict(goals['speed-up'])}")
    return all(goals.values())


def bench_chat(python: str, runs: int) -> bool:
    """The rewrite's hit@3 against the question's and the subject kept, on the suite's follow-ups; the models'
    training time (the best of `runs`, each in a fresh interpreter) and the chat's start with no input (the
    median), interleaved."""
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from followups import CASES, measure
    from lab09.chat.main import models
    from lab09.chat.retrieval import KnowledgeBase
    from labkit.run.engine import StudentRun

    chat_model, rewriter = models()
    with StudentRun(ROOT / "solutions" / "student.py", display="student.py") as student:
        figures = measure(CASES, student, chat_model, rewriter, KnowledgeBase())
    training = (
        "import time; from lab09.chat.main import models;"
        " from lab09.chat.retrieval import KnowledgeBase; s = time.perf_counter(); models(); KnowledgeBase();"
        " print(time.perf_counter() - s)"
    )
    trained, started = [], []
    with tempfile.TemporaryDirectory() as scratch:
        chat = [
            python,
            "-m",
            "lab09.chat.main",
            "--student",
            "solutions/student.py",
            "--page",
            str(Path(scratch) / "page.html"),
            "--db",
            str(Path(scratch) / "chat.db"),
        ]
        for _ in range(runs):
            trained.append(
                float(
                    subprocess.run(
                        [python, "-c", training], cwd=ROOT, capture_output=True, text=True, check=True
                    ).stdout
                )
            )
            begun = time.perf_counter()
            subprocess.run(
                chat, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )  # no input: the banner and the probes, then the end
            started.append(time.perf_counter() - begun)
    hit = figures.hit_rewritten >= max(HIT_GOAL, figures.hit_original)
    train_ms = min(trained) * 1000  # the run least disturbed by whatever else the machine does
    print(
        f"rewrite hit@3                {figures.hit_rewritten:6.0%}  against the question's "
        f"{figures.hit_original:.0%} (goal >= {HIT_GOAL:.0%} and >= the question's, {len(figures.results)} "
        f"follow-ups): {_verdict(hit)}"
    )
    print(f"rewrites keeping the subject {figures.subject_kept:6.0%}")
    print(
        f"models and knowledge base    best {train_ms:9.1f} ms  (goal <= {TRAINING_GOAL_MS:g} ms, {runs} fresh "
        f"runs): {_verdict(train_ms <= TRAINING_GOAL_MS)}"
    )
    print(
        f"the chat, start to exit      median {statistics.median(started) * 1000:7.1f} ms  "
        "(python -m lab09.chat.main, no input: the banner and the probes)"
    )
    return hit and train_ms <= TRAINING_GOAL_MS


def bench_suite(make: list[str]) -> bool:
    """`make check` once, timed: the maintainer's own wait, with the machine's cores and load beside it."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    started = time.monotonic()
    done = subprocess.run(make + ["check"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    minutes = (time.monotonic() - started) / 60
    ok = done.returncode == 0 and minutes <= SUITE_GOAL_MINUTES
    print(
        f"make check                     {minutes:6.1f} min  (goal <= {SUITE_GOAL_MINUTES:g} min on an idle 2-core "
        f"machine; here {os.cpu_count()} cores, load {load:.1f} at the start; "
        f"{'green' if done.returncode == 0 else 'RED'}): {_verdict(ok)}"
    )
    return ok


def _verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("part", nargs="?", choices=("lab", "grading", "chat", "suite", "all"), default="all")
    parser.add_argument("--python", default=sys.executable, help="interpreter of the venv make uses")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--large", type=int, default=3000, help="the larger class, for time and memory per submission")
    parser.add_argument("make_args", nargs="*", help="extra make arguments, e.g. PYTHON=...")
    args = parser.parse_args()
    for variable in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "PYTHONPYCACHEPREFIX"):  # as from a student's shell
        os.environ.pop(variable, None)
    make = ["make", "--no-print-directory", *args.make_args]
    python = os.path.abspath(args.python) if os.sep in args.python else args.python
    results = []
    if args.part in ("lab", "all"):
        results.append(bench_labs(python, make, args.runs))
    if args.part in ("grading", "all"):
        results.append(bench_grading(python, make, args.size, args.large))
    if args.part in ("chat", "all"):
        results.append(bench_chat(python, args.runs))
    if args.part == "suite":
        results.append(bench_suite(make))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Writes what grading produced: grades.csv, grades.json, feedback/, report.html, Gradescope's results.json.

Every file is written to a temporary name and renamed into place, and holds nothing that changes
from run to run (no clock readings, no temporary paths), so grading the same input twice gives
byte-identical files.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path
from urllib.parse import quote

from framework.harness import render
from framework.harness.cases import ALL_CASES, MAX_SCORE
from framework.harness.i18n import text

BAR = 30


def write_all(grades, out: Path, limits) -> None:
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "grades.csv", grades_csv(grades))
    _write(out / "grades.json", grades_json(grades, limits))
    _write(out / "report.html", report_html(grades))
    _write_feedback(grades, out / "feedback")


def _write(path: Path, content: str) -> None:
    """Write to a temporary file beside `path`, then rename it over `path`."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
        stream.write(content)
    os.replace(temporary, path)


def _write_feedback(grades, folder: Path) -> None:
    """A fresh feedback folder, swapped in whole: no file of an earlier run (or a forged one) survives."""
    fresh = Path(tempfile.mkdtemp(dir=folder.parent, prefix=".feedback."))
    for grade in grades:
        (fresh / f"{grade.student}.txt").write_text(grade.feedback, encoding="utf-8")
    if folder.exists():
        retired = folder.with_name(f".feedback.old.{os.getpid()}")
        os.replace(folder, retired)
        shutil.rmtree(retired, ignore_errors=True)
    os.replace(fresh, folder)


def grades_csv(grades) -> str:
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(["student", "status", "score", "max_score", *[case.column for case in ALL_CASES]])
    for grade in grades:
        writer.writerow([grade.student, grade.status, grade.score, MAX_SCORE,
                         *[1 if grade.passed(case) else 0 for case in ALL_CASES]])
    return stream.getvalue()


def grades_json(grades, limits) -> str:
    cases = [{"column": c.column, "label": text(c.label_key), "weight": c.weight, "suite": c.suite}
             for c in ALL_CASES]
    students = [{
        "student": grade.student, "entry": grade.entry, "status": grade.status, "score": grade.score,
        "max_score": MAX_SCORE, "sandbox": grade.sandbox,
        "cases": {verdict.case.column: _case_json(verdict, limits) for verdict in grade.verdicts},
    } for grade in grades]
    document = {"lab": "Lab09", "max_score": MAX_SCORE, "cases": cases,
                "limits": {"case_seconds": limits.case_seconds, "submission_seconds": limits.submission_seconds,
                           "memory_mb": limits.memory_bytes >> 20},
                "students": students}
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _case_json(verdict, limits) -> dict:
    return {"passed": verdict.passed, "score": verdict.case.weight if verdict.passed else 0,
            "problem": verdict.problem, "hint": verdict.hint,
            "message": "" if verdict.passed else render.explanation(verdict, "student.py"),
            "timing": {"limit_seconds": limits.case_seconds, "timed_out": verdict.problem == "timeout"}}


def pass_rates(grades):
    """(case, passed count) for every case, in table order."""
    return [(case, sum(grade.passed(case) for grade in grades)) for case in ALL_CASES]


def histogram(grades, bins: int = 10):
    """Counts of scores in `bins` equal ranges of the maximum (the top bin includes full marks)."""
    counts = [0] * bins
    for grade in grades:
        counts[min(bins - 1, grade.score * bins // MAX_SCORE)] += 1
    return [(MAX_SCORE * i // bins, MAX_SCORE * (i + 1) // bins, count) for i, count in enumerate(counts)]


def status_counts(grades) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for grade in grades:
        counts[grade.status] = counts.get(grade.status, 0) + 1
    return sorted(counts.items(), key=lambda item: (item[0] != "ok", -item[1], item[0]))


def terminal_summary(grades, seconds: float, jobs: int, out: Path) -> str:
    total = len(grades) or 1
    scores = [grade.score for grade in grades] or [0]
    lines = [text("report.done", count=len(grades), seconds=seconds, jobs=jobs),
             text("report.statuses") + " " + " · ".join(f"{s} {n}" for s, n in status_counts(grades)),
             text("report.scores", mean=statistics.mean(scores), median=statistics.median(scores),
                  top=MAX_SCORE), ""]
    for case, passed in pass_rates(grades):
        filled = round(BAR * passed / total)
        lines.append(f"{case.column:>4} {'█' * filled}{'░' * (BAR - filled)} {100 * passed / total:5.1f}%"
                     f"  {passed}/{len(grades)}  {text(case.label_key)}")
    lines += ["", text("report.where", out=out)]
    return "\n".join(lines)


def write_gradescope(grade, path: Path) -> None:
    """Gradescope's results.json: a score, and one test per case with the feedback a student would see."""
    tests = []
    for case in ALL_CASES:
        verdict, passed = grade.verdict(case), grade.passed(case)
        output = ("" if passed else render.explanation(verdict, "student.py") if verdict is not None
                  else text(f"status.{grade.status}", found=""))
        tests.append({"name": f"[TEST {case.id}] {text(case.label_key)}", "number": case.column,
                      "score": case.weight if passed else 0, "max_score": case.weight,
                      "status": "passed" if passed else "failed", "output": output, "visibility": "visible"})
    results = {"score": grade.score, "output": grade.feedback, "visibility": "visible",
               "stdout_visibility": "hidden", "tests": tests}
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, json.dumps(results, ensure_ascii=False, indent=2) + "\n")


def report_html(grades) -> str:
    """One self-contained page: pass rate per case, score histogram, status counts, the student table."""
    e = html.escape
    total = len(grades) or 1
    rates = "".join(
        f"<tr><th>{e(case.column)}</th><td>{e(text(case.label_key))}</td>"
        f"<td class=bar><div style=\"width:{100 * passed / total:.1f}%\"></div></td>"
        f"<td class=num>{100 * passed / total:.0f}% ({passed}/{len(grades)})</td></tr>"
        for case, passed in pass_rates(grades))
    bins = histogram(grades)
    tallest = max([count for _, _, count in bins] + [1])
    columns = "".join(
        f"<div class=col title=\"{low}–{high}: {count}\"><div style=\"height:{100 * count / tallest:.1f}%\"></div>"
        f"<span>{count}</span><em>{low}</em></div>" for low, high, count in bins)
    statuses = " ".join(f"<span class=\"tag {'ok' if s == 'ok' else 'bad'}\">{e(s)} {n}</span>"
                        for s, n in status_counts(grades))
    head = "".join(f"<th title=\"{e(text(c.label_key))}\">{e(c.column)}</th>" for c in ALL_CASES)
    rows = "".join(_student_row(grade) for grade in grades)
    top = MAX_SCORE
    return f"""<!doctype html>
<html lang="{'en' if text('report.lang') == 'en' else 'zh'}"><head><meta charset="utf-8">
<title>{e(text('report.title'))}</title>
<style>
body{{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#222}} h1{{font-size:1.4em}} h2{{font-size:1.1em;margin-top:2em}}
table{{border-collapse:collapse}} td,th{{padding:2px 8px;text-align:left}} tr:nth-child(even){{background:#f6f6f6}}
.bar{{width:320px}} .bar div{{background:#3b82f6;height:14px}} .num{{text-align:right;white-space:nowrap}}
.hist{{display:flex;align-items:flex-end;height:160px;gap:6px}} .col{{width:48px;height:100%;display:flex;
flex-direction:column-reverse;align-items:center}} .col div{{background:#10b981;width:100%}} .col span{{font-size:12px}}
.col em{{font-style:normal;font-size:11px;color:#666;order:-1}} .tag{{padding:1px 6px;border-radius:4px;margin-right:4px}}
.ok{{background:#d1fae5}} .bad{{background:#fee2e2}} td.p{{color:#059669}} td.f{{color:#dc2626}}
</style></head><body>
<h1>{e(text('report.title'))}</h1>
<p>{e(text('report.overview', count=len(grades), top=top))} {statuses}</p>
<h2>{e(text('report.rates'))}</h2><table>{rates}</table>
<h2>{e(text('report.histogram', top=top))}</h2><div class=hist>{columns}</div>
<h2>{e(text('report.students'))}</h2>
<table><tr><th>{e(text('report.student'))}</th><th>status</th><th>score</th>{head}</tr>{rows}</table>
</body></html>
"""


def _student_row(grade) -> str:
    e = html.escape
    cells = []
    for case in ALL_CASES:
        verdict = grade.verdict(case)
        if grade.passed(case):
            cells.append("<td class=p>✓</td>")
        else:
            why = render.hint_text(verdict) if verdict is not None and verdict.hint else grade.status
            cells.append(f"<td class=f title=\"{e(why)}\">✗</td>")
    link = f"<a href=\"feedback/{e(quote(grade.student))}.txt\">{e(grade.student)}</a>"
    return f"<tr><td>{link}</td><td>{e(grade.status)}</td><td class=num>{grade.score}</td>{''.join(cells)}</tr>"

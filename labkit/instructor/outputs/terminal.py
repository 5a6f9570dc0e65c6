"""What `make grade` prints at the end: how many were graded and how fast, the statuses, the scores, the
sandbox, a bar per check and the most common mistakes, from the class's Figures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from labkit.i18n import text
from labkit.spec import active
from labkit.instructor.outputs.figures import Figures, grader_error_line, sandbox_line, status_label, test_student_line

BAR = 30


MISTAKES_SHOWN = 5  # the most common mistakes the terminal lists; report.html lists them all


def terminal_summary(
    records,
    seconds: float,
    jobs: int,
    out,
    level,
    extra: Sequence[str] = (),
    merged: int | None = None,
    last: Sequence[str] = (),
    gradebook: str = "",
) -> str:
    """What `make grade` prints at the end, from `records` or their `Figures`.  `merged`: how many of them this
    run graded, when it merged them into earlier results (MERGE=1); every figure below the first line is over
    all of them.  `extra` comes before the line naming what was written in OUT (`gradebook` too, when one was),
    `last` after it (the gradebook's import line)."""
    figures = records if isinstance(records, Figures) else Figures.of(records, level)
    graded, count = figures.graded, figures.count
    total = graded or 1
    graded_now = count if merged is None else merged
    timing: dict[str, Any] = {
        "lab": active().name,
        "count": count,
        "seconds": seconds,
        "jobs": max(1, min(jobs, graded_now)),
    }
    rest = text("report.scores_rest", count=count - graded) if graded < count else ""
    lines = [
        text("report.done", **timing) if merged is None else text("report.done_merged", graded=merged, **timing),
        text("report.statuses") + " " + " · ".join(f"{status_label(s)} {n}" for s, n in figures.status_counts()),
        text(
            "report.scores",
            mean=figures.mean(),
            median=figures.median(),
            top=figures.top_score(),
            count=graded,
            rest=rest,
        ),
        *filter(None, [test_student_line(figures), grader_error_line(figures)]),
        sandbox_line(level, figures),
        "",
    ]
    for case, passes in figures.pass_rates():
        filled = round(BAR * passes / total)
        lines.append(
            f"{case.column:>4} {'█' * filled}{'░' * (BAR - filled)} {100 * passes / total:5.1f}%"
            f"  {passes}/{graded}  {text(case.label_key)}"
        )
    every = figures.common_mistakes()
    mistakes = every[:MISTAKES_SHOWN]
    if mistakes:
        lines += ["", text("report.mistakes_top")]
        lines += [f"  {m['count']:>3} × {m['text']}  ({', '.join(m['cases'])})" for m in mistakes]
        if len(every) > len(mistakes):  # the rest are in report.html, never silently gone
            lines.append("  " + text("report.mistakes_more", count=len(every) - len(mistakes), out=out))
    where = text("report.where_gradebook", out=out, file=gradebook) if gradebook else text("report.where", out=out)
    lines += [*extra, "", where, *last]
    return "\n".join(lines)

"""canvas.csv and moodle.csv: the instructor's gradebook (outputs/roster.py reads it) written back with this
assignment's points, when a roster was given; and what matching the class with it tells the other outputs
(the roster's names, the submissions it does not list, what is left to do by hand in the LMS)."""

from __future__ import annotations

from dataclasses import dataclass, field

from labkit.i18n import text
from labkit.instructor.outputs import roster


@dataclass(frozen=True, kw_only=True)
class Matched:
    """The class matched with the roster: its rows' records, the submissions it does not list, the names it
    gives, the lines saying what is left to do in the LMS, and the report's note about all that."""

    matched: dict = field(default_factory=dict)
    unmatched: list = field(default_factory=list)
    names: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    note: str = ""


def match(gradebook, records, course) -> Matched:
    """The results (read once, each without its cases: roster.brief) matched with `gradebook` (None: no
    roster, only the group submissions to name)."""
    if gradebook is None:
        return Matched(lines=roster.team_lines(roster.brief(result) for result in records))
    briefs = [roster.brief(result) for result in records]
    matched, unmatched = roster.match(gradebook, briefs)
    lines = roster.summary(gradebook, briefs, matched, unmatched, course.title) + roster.team_lines(briefs)
    names = {brief["student"]: brief["name"] for brief in roster.named(gradebook, briefs, matched)}
    note = " ".join([text("roster.about", file=f"{gradebook.kind}.csv"), *lines])
    return Matched(matched=matched, unmatched=unmatched, names=names, lines=lines, note=note)


def piece(result, _feedback: str) -> str:
    """The student's cell in a gradebook (its points, as a gradebook with no maximum of its own shows them)."""
    return roster.score_cell(roster.brief(result), None, ".")


def wanted(kind: str):
    return lambda run: run.gradebook is not None and run.gradebook.kind == kind


def write(run, staging) -> None:
    name, content = roster.export(run.gradebook, run.matched.matched, run.course)
    staging.write(name, content.encode("utf-8"))

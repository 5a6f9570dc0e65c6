"""The class's figures, gathered one record at a time in a bounded size, and the words every class output
uses for them: a status's label, the sandbox line, the student's feedback file.

The terminal summary (outputs/terminal.py) and report.html (outputs/report_page.py) both read them; every
output module may import this one, and this one imports none of them.
"""

from __future__ import annotations

from labkit.i18n import CATALOGUE, text
from labkit.spec import active
from labkit.instructor.lms.layouts import canvas_slug


class Figures:
    """The class's figures, gathered one record at a time in a size that does not grow with the class: how
    many, per status, how many got each score, passes per case, the common mistakes (with their first example
    ids), the TABLE_ROWS students the report's table lists when not everyone fits (those not graded, then the
    lowest scores), and, given the run's level, the students graded at another (`at_other_levels`).

    Pass rates and score figures are over the graded submissions only (`Grade.gradable`): every file the
    grader could judge, a syntax error or a timeout included (with the points it earned); left out are the
    entries with no code to test (submissions.UNGRADABLE) and those the grader or the machine failed on.
    Canvas's Test Student (`is_test_student`) is in no figure at all: it is listed in `test_students`."""

    def __init__(self, level=None) -> None:
        self.level = getattr(level, "name", None)
        self.other_levels: list[tuple[str, str]] = []  # (student, level) of those graded at another level
        self.count = 0
        self.graded = 0
        self.scores: dict[int, int] = {}  # score -> how many graded records have it
        self.top = 0
        self.statuses: dict[str, list] = {}  # status -> [how many, whether graded]
        self.passes = dict.fromkeys((case.column for case in active().graded), 0)
        self.mistakes: dict[str, dict] = {}
        self._lowest: list[tuple] = []  # (graded, score, student), at most 2 * TABLE_ROWS between trims
        self.test_students: list[str] = []  # Canvas's Test Student: graded, in no figure
        self.late = 0  # late submissions, and the first LATE_SHOWN of them
        self.late_students: list[str] = []
        self.grader_errors: list[tuple[str, str]] = []  # (student, why) of the first GRADER_ERRORS_SHOWN

    @classmethod
    def of(cls, results, level=None) -> Figures:
        figures = cls(level)
        for result in results:
            figures.add(result)
        return figures

    def add(self, result) -> None:
        """Count one StudentResult in (Canvas's Test Student only into `test_students`)."""
        if _elsewhere(result, self.level):
            self.other_levels.append((result.student, result.sandbox))
        if is_test_student(result):
            self.test_students.append(result.student)
            return
        self.count += 1
        if result.late:
            self.late += 1
            if len(self.late_students) < LATE_SHOWN:
                self.late_students.append(result.student)
        if result.status == "grader_error" and len(self.grader_errors) < GRADER_ERRORS_SHOWN:
            self.grader_errors.append((result.student, result.why))
        graded = result.gradable
        self.top = max(self.top, result.max_score)
        self.statuses.setdefault(result.status, [0, graded])[0] += 1
        self.statuses[result.status][1] = graded
        self._lowest.append((graded, result.score, result.student))
        if len(self._lowest) >= 2 * TABLE_ROWS:
            self._lowest = sorted(self._lowest)[:TABLE_ROWS]
        if not graded:
            return
        self.graded += 1
        self.scores[result.score] = self.scores.get(result.score, 0) + 1
        for column, check in result.cases.items():
            if check.passed:
                if column in self.passes:
                    self.passes[column] += 1
            elif check.hint:
                self._mistake(check, column, result.student)

    def _mistake(self, check, column: str, student: str) -> None:
        entry = self.mistakes.setdefault(
            check.hint,
            {
                "hint": check.hint,
                "text": check.hint_text or check.hint,
                "count": 0,
                "last": None,
                "cases": [],
                "examples": [],
            },
        )
        if entry["last"] != student:  # a student counts once however many cases show the slip
            entry["last"] = student
            entry["count"] += 1
            entry["examples"] = sorted(entry["examples"] + [student])[:MISTAKE_EXAMPLES]
        if column not in entry["cases"]:
            entry["cases"].append(column)

    def mean(self) -> float:
        return sum(score * count for score, count in self.scores.items()) / self.graded if self.graded else 0

    def median(self) -> float:
        """As statistics.median over every graded score (0 when none)."""
        if not self.graded:
            return 0
        wanted, found, seen = [(self.graded - 1) // 2, self.graded // 2], [], 0
        for score in sorted(self.scores):
            seen += self.scores[score]
            while wanted and wanted[0] < seen:
                found.append(score)
                wanted.pop(0)
        return found[0] if found[0] == found[1] else (found[0] + found[1]) / 2

    def top_score(self) -> int:
        """The full marks the records were graded out of (the grading scheme's maximum)."""
        return self.top or 100

    def pass_rates(self):
        """(case, passed count) for every case over the graded records, in table order."""
        return [(case, self.passes[case.column]) for case in active().graded]

    def histogram(self, bins: int = 10):
        """Counts of graded scores in `bins` equal ranges of the maximum (the top bin includes full marks)."""
        counts, top = [0] * bins, self.top_score()
        for score, count in self.scores.items():
            counts[min(bins - 1, max(0, score) * bins // top)] += count
        return [(top * i // bins, top * (i + 1) // bins, count) for i, count in enumerate(counts)]

    def status_counts(self) -> list[tuple[str, int]]:
        """(status, how many): `ok` first, then the other graded statuses, then those not graded, so the counts
        before the first status not graded add up to the graded submissions the figures are over."""
        return [
            (status, count)
            for status, (count, graded) in sorted(
                self.statuses.items(), key=lambda item: (item[0] != "ok", not item[1][1], -item[1][0], item[0])
            )
        ]

    def common_mistakes(self) -> list[dict]:
        """Each hint the judge gave, most students first: the hint, its text, how many students, which cases,
        example ids."""
        order = {case.column: index for index, case in enumerate(active().graded)}
        mistakes = [
            {
                "hint": m["hint"],
                "text": m["text"],
                "count": m["count"],
                "examples": list(m["examples"]),
                "cases": sorted(m["cases"], key=lambda column: order.get(column, len(order))),
            }
            for m in self.mistakes.values()
        ]
        return sorted(mistakes, key=lambda m: (-m["count"], m["cases"][0] if m["cases"] else "", m["hint"]))

    def shown(self) -> set | None:
        """The students a table of at most TABLE_ROWS rows lists: those not graded, then the lowest scores (None:
        everyone fits)."""
        if self.count <= TABLE_ROWS:
            return None
        return {student for _, _, student in sorted(self._lowest)[:TABLE_ROWS]}


TABLE_ROWS = 1000  # students report.html's table lists at most (every student is in grades.csv)
MISTAKE_EXAMPLES = 3
TEST_STUDENT_SLUGS = ("studenttest", "teststudent")  # G6: "Student, Test" as Canvas slugs it (C1), either order


def is_test_student(result) -> bool:
    """Whether a result is Canvas's Test Student (Student View, G6): its name, the download's slug or the roster's
    `Student, Test`, is that.  Its submission is graded like any other and left out of the class's figures."""
    return result.layout == "canvas" and canvas_slug(result.name or "") in TEST_STUDENT_SLUGS


LATE_SHOWN = 10
GRADER_ERRORS_SHOWN = 5  # grader errors the summary names, with their cause


def penalised(score: float, late, scheme=None) -> float:
    """Points once the course's late penalty (`[late] penalty`) is taken off: none unless late and one is set."""
    penalty = getattr(scheme, "late_penalty", 0) if late else 0
    return score * (100 - penalty) / 100


def late_policy(scheme) -> str:
    """What this grader does about late submissions: the course file's penalty, or nothing (the LMS's own
    policy applies when the gradebook is imported)."""
    penalty = getattr(scheme, "late_penalty", 0)
    return text("late.penalty", penalty=penalty) if penalty else text("late.none")


def late_line(figures: Figures, scheme) -> str:
    """The terminal's line naming the late submissions and the policy ("" when none came late)."""
    if not figures.late:
        return ""
    more = f" … +{figures.late - len(figures.late_students)}" if figures.late > len(figures.late_students) else ""
    return text(
        "late.line", count=figures.late, ids=", ".join(figures.late_students) + more, policy=late_policy(scheme)
    )


def grader_error_line(figures: Figures) -> str:
    """The submissions the grader failed on (the first few by name; their feedback says why), or ""."""
    count = figures.statuses.get("grader_error", [0])[0]
    if not count:
        return ""
    named = ", ".join(student for student, _ in figures.grader_errors)
    more = ", …" if count > len(figures.grader_errors) else ""
    return text("report.grader_errors", count=count, students=named + more)


def nobody_graded(figures: Figures) -> bool:
    """Whether every submission of the run ended grader_error: the run graded nobody."""
    return figures.count > 0 and figures.statuses.get("grader_error", [0])[0] == figures.count


def test_student_line(figures: Figures) -> str:
    """The one line naming the Test Student's submissions ("" when there is none)."""
    ids = figures.test_students
    return text("figures.test_student", ids=", ".join(ids)) if ids else ""


def gradable(results) -> list:
    """The results of the graded submissions (see `Figures`)."""
    return [result for result in results if result.gradable]


def common_mistakes(results) -> list[dict]:
    """Each hint the judge gave, most students first (`Figures.common_mistakes`)."""
    return Figures.of(results).common_mistakes()


def student_file_name() -> str:
    """The student's file name, as the statuses and notes about submissions name it."""
    return active().student_file_name


def status_label(status: str) -> str:
    """A status in the reader's language (the code itself for a status this version has no words for)."""
    key = f"label.{status}"
    return text(key, student_file=student_file_name()) if key in CATALOGUE else status


def at_other_levels(records, level) -> list[tuple[str, str]]:
    """(student, level) of each student whose child ran at another level than the run's, in the records' order:
    a weaker one (a wall that failed for good during the run is not tried again), or, after a merge, the level
    of the run that graded them."""
    return [(result.student, result.sandbox) for result in records if _elsewhere(result, level.name)]


def _elsewhere(result, level_name: str | None) -> bool:
    """Whether the result's child ran at another level than `level_name` (the run's)."""
    return bool(level_name and result.sandbox and result.sandbox != level_name)


def sandbox_line(level, records=()) -> str:
    """The run's level and walls, and the students graded at another level, if any (with their level), from
    the records or their Figures."""
    key = "sandbox.full" if level.full else "sandbox.weak"
    line = text(key, level=level.name, walls=", ".join(level.walls) or "—")
    others = records.other_levels if isinstance(records, Figures) else at_other_levels(records, level)
    if others:
        shown = ", ".join(f"{student} ({name})" for student, name in others[:10]) + (" …" if len(others) > 10 else "")
        line += "\n" + text("sandbox.other_levels", count=len(others), students=shown)
    return line


def feedback_name(student: str) -> str:
    """The student's file in feedback/ (ids are already safe file names: submissions.safe_id)."""
    return f"{student}.txt"

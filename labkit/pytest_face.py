"""Plumbing of the pytest face: options, the one session that runs the student file, the course layout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labkit import assess, render
from labkit.i18n import text
from labkit.run.engine import StudentRun
from labkit.spec import active

_LINES = pytest.StashKey["list[tuple[str, str | None]]"]()
_SESSION = pytest.StashKey["StudentSession"]()


def pytest_addoption(parser):
    lab = active()
    group = parser.getgroup("labkit")
    group.addoption(
        "--student",
        default=os.environ.get("LAB_STUDENT") or str(lab.student_path),
        help=f"the {lab.student_file_name} to test (default: {lab.student_file} of this lab)",
    )
    group.addoption("--full", action="store_true", help="also run the extended and property checks (make test-full)")
    group.addoption("--challenge", action="store_true", help="run the optional cases instead")
    group.addoption(
        "--lab-report",
        action="store_true",
        help="print the course's layout: [TEST N] ... [PASS]/[FAIL] and the summary line",
    )


def pytest_configure(config):
    if not (config.pluginmanager.hasplugin("timeout") or config.pluginmanager.hasplugin("pytest_timeout")):
        config.addinivalue_line("markers", "timeout(seconds): backstop limit (pytest-timeout)")
    config.stash[_SESSION] = StudentSession(config.getoption("student"))
    config.stash[_SESSION].student.begin()  # the child starts while pytest collects
    if config.getoption("lab_report"):
        config.pluginmanager.register(CourseReport(config), "labkit-course-report")


def pytest_unconfigure(config):
    if _SESSION in config.stash:
        config.stash[_SESSION].student.close()


def selected_cases(config) -> tuple:
    """The six; with --full also the extended and property checks; with --challenge only the optional cases."""
    return active().selected(
        "challenge" if config.getoption("challenge") else "full" if config.getoption("full") else "test"
    )


class StudentSession:
    """One student file under test for the whole pytest session, its course text and its verdicts."""

    def __init__(self, option: str):
        self.path = Path(option)
        self.file = active().display_name(option)
        self.student = StudentRun(self.path, display=self.file)
        self.text = render.CourseText(self.file)
        self.verdicts: dict = {}

    def still_the_stub(self) -> bool:
        """Whether the six ran and every function returned an empty value ("", [], {}) in each of them, as a stub
        does (one lab's returns "", another's {} and [])."""
        six = [verdict for verdict in self.verdicts.values() if verdict.case.suite == "core"]
        answers = [
            verdict.facts["actual"]
            if "actual" in verdict.facts
            # or, where an exception was due:
            else (verdict.facts.get("returned") or {}).get("value")
            for verdict in six
        ]
        return len(six) == len(active().selected("test")) and all(
            isinstance(answer, (str, list, dict)) and not answer for answer in answers
        )

    def other_files(self) -> list:
        """Student files near this one that differ from it: the student file (or a copy such as "<stem> (1).py")
        in the lab, in the student file's folder and in the folder the command was started from, that define a
        function of the six."""
        try:
            mine = self.path.read_bytes()
        except OSError:
            return []
        lab, found = active(), []
        stem = lab.student_module
        pattern = f"[{stem[:1].upper()}{stem[:1].lower()}]{stem[1:]}*.py"  # "[Ss]tudent*.py"
        definitions = {f"def {check.function}".encode() for check in lab.selected("test")}
        here = Path(os.environ.get("LAB_CWD") or os.getcwd())
        for folder in dict.fromkeys((lab.root, lab.student_path.parent, here)):
            for path in sorted(folder.glob(pattern)):
                try:
                    source = path.read_bytes() if path.is_file() and path.stat().st_size <= 1 << 20 else b""
                    same = path.resolve() == self.path.resolve() or source == mine
                except OSError:
                    continue
                defines = any(definition in source for definition in definitions)
                if not same and defines and lab.display_name(path) not in found:
                    found.append(lab.display_name(path))
        return found


@pytest.fixture
def check_case(request):
    """Runs one case, keeps its course lines on the test item, and fails with the explanation."""

    def run(case):
        session = request.config.stash[_SESSION]
        verdict = assess.verdict(session.student, case)
        session.verdicts[case.id] = verdict
        lines = session.text.case_lines(case, verdict)
        request.node.stash[_LINES] = lines
        if not verdict.passed:
            pytest.fail(
                "\n".join(line for line, status in lines if status or line.startswith(render.INDENT)), pytrace=False
            )

    return run


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "case" in callspec.params:
        report.lab_case = callspec.params["case"]
        report.lab_lines = item.stash.get(_LINES, None)


class CourseReport:
    """Prints what the course's C lab prints: section headers, [TEST N] lines, the summary between rules."""

    def __init__(self, config) -> None:
        self.config = config
        self.outcomes: dict[str, bool] = {}

    def pytest_report_teststatus(self, report):
        if getattr(report, "lab_case", None) is not None and (report.when == "call" or report.failed):
            return ("failed" if report.failed else report.outcome), "", ""
        return None

    def pytest_runtest_logreport(self, report):
        case = getattr(report, "lab_case", None)
        if case is None or not (report.when == "call" or report.failed) or case.id in self.outcomes:
            return
        lines = report.lab_lines
        if lines is None:  # the harness itself failed (a fixture, or the backstop timeout): say so plainly
            error = (report.longreprtext.strip().splitlines() or ["?"])[-1]
            lines = self.config.stash[_SESSION].text.case_lines(case, None, error)
        self.outcomes[case.id] = report.passed and any(status == "pass" for _, status in lines)
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        for line, status in lines:
            if status is None:
                terminal.write_line(line)
            else:
                head, mark = line[: -len("[PASS]")], line[-len("[PASS]") :]
                terminal.write(head)
                terminal.write(mark, green=status == "pass", red=status == "fail")
                terminal.line("")

    def pytest_terminal_summary(self, terminalreporter):
        """The summary between rules, the file that was tested, and, when it is still the stub while another
        student file sits nearby, a line that says so (the likely reason for six failures: the wrong file)."""
        results = [(case, self.outcomes.get(case.id, False)) for case in selected_cases(self.config)]
        session = self.config.stash[_SESSION]
        lines = render.summary_lines(results, session.file)
        others = session.other_files() if session.still_the_stub() else []
        for line in lines:
            terminalreporter.write_line(line)
        if others:
            command = os.environ.get("LAB_COMMAND") or "make"
            terminalreporter.write_line(
                text("summary.stub_elsewhere", file=session.file, other=others[0], command=command),
                bold=True,
                yellow=True,
            )

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        """Success only when every selected case ran and passed: the six, or with --full all of them."""
        if session.exitstatus == 0 and not all(self.outcomes.get(c.id) for c in selected_cases(self.config)):
            session.exitstatus = 1

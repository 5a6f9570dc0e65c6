"""Plumbing of the pytest face: the --student option, the session that runs the file, the course layout."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from framework import render
from framework.cases import CORE
from framework.engine import StudentRun
from framework.i18n import text
from framework.judge import Verdict, check

ROOT = Path(__file__).resolve().parent.parent
_RESULT = pytest.StashKey["tuple[Verdict, list[str]]"]()


def pytest_addoption(parser):
    group = parser.getgroup("lab09")
    group.addoption("--student", default=os.environ.get("LAB_STUDENT") or str(ROOT / "framework" / "student.py"),
                    help="the student.py to test (default: framework/student.py of this lab)")
    group.addoption("--lab-report", action="store_true",
                    help="print the course's layout: [TEST N] ... [PASS]/[FAIL] and the summary line")


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("timeout"):
        config.addinivalue_line("markers", "timeout(seconds): backstop limit (pytest-timeout)")
    if config.getoption("lab_report"):
        config.pluginmanager.register(CourseReport(config), "lab09-course-report")


def display_name(option: str) -> str:
    """How the student's file is named in messages: relative to the lab when it lies inside it."""
    path = Path(option).resolve()
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return option


class Lab:
    """One student file under test for the whole pytest session."""

    def __init__(self, option: str):
        self.file = display_name(option)
        self.student = StudentRun(Path(option), display=self.file)
        self._load_shown = False

    def verdict(self, case) -> Verdict:
        return check(self.student, case)

    def explain(self, verdict: Verdict) -> list[str]:
        load_failed = verdict.problem == "load_failed"
        lines = render.failure_lines(verdict, self.file, load_already_shown=load_failed and self._load_shown)
        self._load_shown = self._load_shown or load_failed
        return lines


@pytest.fixture(scope="session")
def lab(request):
    student = Lab(request.config.getoption("student"))
    yield student
    student.student.close()


@pytest.fixture
def check_case(request, lab):
    """Runs one case, keeps its verdict on the test item for the course report, fails with the explanation."""

    def run(case):
        verdict = lab.verdict(case)
        explanation = [] if verdict.passed else lab.explain(verdict)
        request.node.stash[_RESULT] = (verdict, explanation)
        if not verdict.passed:
            header = render.result_line(case.number, text(case.label_key), False)
            pytest.fail("\n".join(["".join(header), *explanation]), pytrace=False)

    return run


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "case" in callspec.params:
        report.lab_case = callspec.params["case"]
        report.lab_result = item.stash.get(_RESULT, None)


class CourseReport:
    """Prints what the course's C lab prints: section headers, [TEST N] lines, the summary between rules."""

    def __init__(self, config):
        self.config = config
        self.section = None
        self.outcomes: dict[str, bool] = {}
        self.expected_ids: set[str] = set()

    @property
    def terminal(self):
        return self.config.pluginmanager.get_plugin("terminalreporter")

    def pytest_collection_modifyitems(self, items):
        self.expected_ids = {item.callspec.params["case"].id for item in items
                             if "case" in getattr(getattr(item, "callspec", None), "params", {})}

    def pytest_report_teststatus(self, report):
        if getattr(report, "lab_case", None) is not None and (report.when == "call" or report.failed):
            return ("failed" if report.failed else report.outcome), "", ""
        return None

    def pytest_runtest_logreport(self, report):
        case = getattr(report, "lab_case", None)
        if case is None or not (report.when == "call" or report.failed) or case.id in self.outcomes:
            return
        terminal = self.terminal
        if case.section != self.section:
            if self.section is not None:
                terminal.write_line("")
            terminal.write_line(render.section_header(case.section))
            self.section = case.section
        passed = report.passed and report.lab_result is not None and report.lab_result[0].passed
        self.outcomes[case.id] = passed
        head, verdict = render.result_line(case.number, text(case.label_key), passed)
        terminal.write(head)
        terminal.write(verdict, green=passed, red=not passed)
        terminal.line("")
        if not passed:
            for line in self._explanation(report):
                terminal.write_line(line)

    @staticmethod
    def _explanation(report) -> list[str]:
        if report.lab_result is not None and not report.lab_result[0].passed:
            return report.lab_result[1]
        # The harness itself failed (a fixture, or the backstop timeout): say so plainly.
        last = (report.longreprtext.strip().splitlines() or ["?"])[-1]
        return [render.INDENT + text("internal.error", message=last), render.INDENT + text("hint.internal")]

    def pytest_terminal_summary(self, terminalreporter):
        passed = sum(self.outcomes.values())
        failed = len(self.expected_ids) - passed
        for line in render.summary_lines(passed, failed):
            terminalreporter.write_line(line)

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        """Success only when every one of the six cases ran and passed (whatever was selected)."""
        if session.exitstatus == 0 and not all(self.outcomes.get(case.id) for case in CORE):
            session.exitstatus = 1

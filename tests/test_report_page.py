"""report.html in a real browser (headless Chromium): what an instructor sees, on a laptop, a phone and paper; and,
without a browser, the page of each lab of conftest.LABS drawn from that lab's spec (the browser tests, which
test the page's layout and script, run once, on Lab09's class)."""

import html
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from browser import chromium, dump_dom, probe, screenshot
from classes import wrong_solution, graded_classes  # noqa: F401  (a fixture)
from conftest import CLASS_LIMITS, LAB, SOLUTION, STUDENTS, unavailable
from labkit.i18n import current_language, text
from labkit.instructor.outputs import figures
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.results import StudentResult
from results_fixtures import made_check, made_result

CJK = re.compile("[\u4e00-\u9fff]")
CLASS = {
    "ana": SOLUTION,
    "ben": STUDENTS / "wrong" / "no_trim.py",
    "cai": STUDENTS / "wrong" / "no_trim.py",
    "dan": STUDENTS / "wrong" / "first_not_last.py",
    "eve": STUDENTS / "wrong" / "rstrip_only.py",
    "fay": STUDENTS / "hostile" / "syntax_error.py",
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    if chromium() is None:
        unavailable("chromium", "no Chromium: the report's browser tests need it (Debian package chromium)")
    root = tmp_path_factory.mktemp("report")
    folder = root / "class"
    folder.mkdir()
    for student, source in CLASS.items():
        shutil.copy(source, folder / f"{student}.py")
    (folder / "gus.docx").write_bytes(b"PK not code")
    found = {}
    for language in ("zh", "en"):
        saved = os.environ.get("LAB_LANG")
        os.environ["LAB_LANG"] = language
        try:
            grade_folder(folder, root / language, CLASS_LIMITS, ClassOptions(jobs=2))
        finally:
            os.environ.pop("LAB_LANG") if saved is None else os.environ.__setitem__("LAB_LANG", saved)
        page = root / language / "report.html"
        open_copy = root / f"{language}-probe.html"  # the probe evaluates JS, which the page's CSP forbids
        open_copy.write_text(
            re.sub(r"<meta http-equiv=\"Content-Security-Policy\"[^>]*>", "", page.read_text(encoding="utf-8")),
            encoding="utf-8",
        )
        found[language] = (page, open_copy)
    return found


def records(page: Path) -> list:
    return [
        StudentResult.from_json(entry)
        for entry in json.loads(page.with_name("grades.json").read_text(encoding="utf-8"))["students"]
    ]


def test_the_common_mistakes_come_first_with_students_cases_and_examples(pages):
    page, _ = pages["zh"]
    dom = dump_dom(page)
    assert dom.index('id="mistakes"') < dom.index('id="rates"') < dom.index('id="students"')
    shown = []
    for row in re.findall(r'<tr id="m\d+">(.*?)</tr>', dom, re.S):
        shown.append(
            [html.unescape(re.sub("<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        )
    expected = [
        [f"M{i}", m["text"], str(m["count"]), ", ".join(m["cases"]), ", ".join(m["examples"])]
        for i, m in enumerate(figures.common_mistakes(records(page)), 1)
    ]
    assert shown == expected and len(shown) >= 4
    assert shown[1][:3] + shown[1][4:] == ["M2", text("hint.trim_one_side"), "3", "ben, cai, eve"]
    assert {column[0] for column in shown[1][3].split(", ")} == {"t", "x", "p", "g"}  # the drawn checks (p, g)
    # name the same slip as the table's (t, x), whichever of them the spec declares


def test_the_pages_own_script_runs_under_its_policy_and_an_injected_one_does_not(pages, tmp_path):
    page, _ = pages["zh"]
    assert 'data-sorting="ready"' in dump_dom(page)
    forged = tmp_path / "forged.html"
    forged.write_text(
        page.read_text(encoding="utf-8").replace("</body>", "<script>document.title = 'pwned';</script></body>"),
        encoding="utf-8",
    )
    dom = dump_dom(forged)
    assert "<title>pwned</title>" not in dom and 'data-sorting="ready"' in dom


def test_readable_at_420_px_only_the_tables_scroll_and_hints_are_text(pages):
    _, page = pages["zh"]
    facts = probe(
        page,
        """(() => {
        const students = document.getElementById('students').parentElement;
        const hint = document.querySelector('#m1 td.hint');
        const box = hint.getBoundingClientRect();
        return {page: document.documentElement.scrollWidth, wrapper: students.clientWidth,
                table: students.scrollWidth, hint: hint.innerText, left: box.left, right: box.right,
                viewport: document.querySelector('meta[name=viewport]').content,
                font: parseFloat(getComputedStyle(hint).fontSize)};
    })()""",
        width=420,
    )
    assert facts["page"] <= 420 and facts["table"] > facts["wrapper"]  # the page fits; the wide table scrolls
    assert facts["hint"] == figures.common_mistakes(records(pages["zh"][0]))[0]["text"]
    assert 0 <= facts["left"] < facts["right"] <= 420
    assert facts["viewport"].startswith("width=device-width") and facts["font"] >= 12


def test_the_students_table_uses_the_windows_width_at_1400_px(pages):
    """Issue 26 item 6: at 1400 px the table sat in the page's 70em column, its status cells wrapped over three
    lines ("全部运行完") and the generated checks' columns lay past the page's edge; now the table takes the window's
    width: every column inside it, no sideways scrolling, each status on one line, in both languages."""
    for language in ("zh", "en"):
        _, page = pages[language]
        facts = probe(
            page,
            """(() => {
            const table = document.getElementById('students'), wrapper = table.parentElement;
            const lines = (cell) => { const range = document.createRange(); range.selectNodeContents(cell);
                                      return range.getClientRects().length; };
            const column = Array.from(table.tHead.rows[0].cells).findIndex(c => c.textContent.trim() === '%s');
            return {right: Math.max(...Array.from(table.tHead.rows[0].cells).map(c => c.getBoundingClientRect().right)),
                    scrolls: wrapper.scrollWidth > wrapper.clientWidth, page: document.documentElement.scrollWidth,
                    statuses: Array.from(table.tBodies[0].rows).map(r => [r.cells[column].textContent,
                                                                          lines(r.cells[column])])};
        })()"""
            % text("report.col.status", language=language),
            width=1400,
        )
        assert facts["right"] <= 1400 and not facts["scrolls"] and facts["page"] <= 1400, facts
        assert facts["statuses"] and all(count == 1 for _, count in facts["statuses"]), facts["statuses"]


def test_every_column_sorts_both_ways(pages):
    _, page = pages["zh"]
    order = probe(
        page,
        """(() => {
        const table = document.getElementById('students');
        const column = Array.from(table.tHead.rows[0].cells).findIndex(c => c.textContent.trim() === '%s');
        const scores = () => Array.from(table.tBodies[0].rows).map(r => Number(r.cells[column].textContent));
        const ids = () => Array.from(table.tBodies[0].rows).map(r => r.cells[0].textContent);
        const button = table.tHead.rows[0].cells[column].querySelector('button');
        const before = ids();
        button.click();
        const up = scores(), state = table.tHead.rows[0].cells[column].getAttribute('aria-sort');
        button.click();
        const down = scores();
        table.tHead.rows[0].cells[0].querySelector('button').click();
        table.tHead.rows[0].cells[0].querySelector('button').click();
        return {before, up, down, state, back: ids()};
    })()"""
        % text("report.col.score"),
    )
    assert order["up"] == sorted(order["up"]) and order["down"] == sorted(order["down"], reverse=True)
    assert order["state"] == "ascending" and order["up"] != order["down"]
    assert order["before"] == sorted(order["before"]) and order["back"] == sorted(order["before"], reverse=True)


def test_printable_and_in_one_language(pages, tmp_path):
    _, page = pages["en"]
    facts = probe(
        page,
        """(() => {
        const rules = Array.from(document.styleSheets[0].cssRules).filter(r => r.media && r.media.mediaText === 'print');
        return {print: rules.map(r => r.cssText).join(' '), text: document.body.innerText,
                lang: document.documentElement.lang};
    })()""",
    )
    assert ".scroll { overflow: visible; }" in facts["print"]  # nothing hides behind a scroll bar on paper
    assert facts["lang"] == "en" and not CJK.search(facts["text"]), CJK.findall(facts["text"])[:5]
    assert "Common mistakes" in facts["text"] and "Not graded (1)" in facts["text"]
    zh = probe(pages["zh"][1], "document.body.innerText")
    assert "常见错误" in zh and "Common mistakes" not in zh
    png = screenshot(page, tmp_path / "narrow.png", width=420, height=900)
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 10_000


def test_pass_rates_count_every_graded_submission_a_syntax_error_included(pages):
    _, page = pages["en"]
    rates = probe(page, "Array.from(document.querySelectorAll('#rates td.num')).map(c => c.textContent)")
    code = len(CLASS)  # 7 entries; a .docx is no code
    assert len(rates) == len(LAB.graded) and all(rate.endswith(f"/{code})") for rate in rates)
    assert rates[0] == f"{100 * (code - 1) / code:.0f}% ({code - 1}/{code})"  # t1: all but the file with a syntax error


def test_the_page_of_either_lab_has_its_checks_title_and_verdicts(lab, graded_classes):
    """The rates, the students' columns and their ✓/✗ come from the graded lab's spec and say what grades.csv
    says; the title is the course's and the lab's subject; the wrong solution's slip heads the common mistakes."""
    graded = graded_classes(lab)
    page = (graded.out / "report.html").read_text(encoding="utf-8")
    e = html.escape
    subject = getattr(lab.title, current_language())  # a spec may leave the title out (the toy does)
    title = (
        text("report.title", title=lab.name, subject=subject) if subject else text("report.title_bare", title=lab.name)
    )
    assert f"<title>{e(title)}</title>" in page and " ·  " not in title
    rows = graded.rows
    rates = re.findall(
        r"<tr><th>([^<]*)</th><td>([^<]*)</td><td class=bar>.*?<td class=num>[^(]*\((\d+)/(\d+)\)</td>", page
    )
    assert rates == [
        (
            check.column,
            e(text(check.label_key)),
            str(sum(row[check.column] == "1" for row in rows.values())),
            str(len(rows)),
        )
        for check in lab.graded
    ]
    head = re.findall(r'<th aria-sort=none title="([^"]*)"><button type=button>([^<]*)</button>', page)
    assert head == [(e(text(check.label_key)), check.column) for check in lab.graded]
    for student, row in rows.items():
        cells = page.split(f'<tr><td data-v="{student}">', 1)[1].split("</tr>", 1)[0]
        marks = re.findall(r"<td class=(p|f) data-v=([01])", cells)
        assert [value for _, value in marks] == [row[check.column] for check in lab.graded], student
    mistakes = page.split('id=mistakes', 1)[1].split("</table>", 1)[0]
    assert e(text(wrong_solution(lab)[1])) in mistakes


def test_common_mistakes_count_students_not_cases_and_leave_out_what_did_not_run():
    def verdict(hint, passed=False):
        return made_check(passed, hint=hint, hint_text=f"text of {hint}")

    records = [
        made_result("s1", gradable=True, cases={"t1": verdict("a"), "t2": verdict("a"), "t3": verdict(None, True)}),
        made_result("s2", gradable=True, cases={"t2": verdict("a"), "t3": verdict("b")}),
        made_result("s3", gradable=True, cases={"t6": verdict("b"), "x1": verdict("c")}),
        made_result("s4", gradable=False, cases={"t1": verdict("a"), "t2": verdict("c")}),
    ]
    mistakes = figures.common_mistakes(records)
    assert [(m["hint"], m["count"], m["cases"], m["examples"], m["text"]) for m in mistakes] == [
        ("a", 2, ["t1", "t2"], ["s1", "s2"], "text of a"),
        ("b", 2, ["t3", "t6"], ["s2", "s3"], "text of b"),
        ("c", 1, ["x1"], ["s3"], "text of c"),
    ]


def test_a_class_of_3000_is_one_page_that_loads_and_sorts(tmp_path):
    """The table of a large class is bounded (report_page.MAX_ROWS) and stays sortable in a real browser."""
    if chromium() is None:
        unavailable("chromium", "no Chromium: the report's browser tests need it (Debian package chromium)")
    from labkit.run.sandbox import Level
    from labkit.instructor.outputs import report_page
    from labkit.instructor.config import course_settings

    records = [
        made_result(
            f"s{index:04d}",
            score=index * 37 % 101,
            max_score=100,
            cases={case.column: made_check(index % 3 > 0, hint="h", hint_text="slip") for case in LAB.graded},
        )
        for index in range(3000)
    ]
    page = tmp_path / "report.html"
    page.write_text(
        re.sub(
            r"<meta http-equiv=\"Content-Security-Policy\"[^>]*>",
            "",
            report_page.page(records, course_settings(), Level("bwrap", full=True)),
        ),
        encoding="utf-8",
    )
    facts = probe(
        page,
        """(() => {
        const table = document.getElementById('students');
        const column = Array.from(table.tHead.rows[0].cells).findIndex(c => c.textContent.trim() === '%s');
        table.tHead.rows[0].cells[column].querySelector('button').click();
        const scores = Array.from(table.tBodies[0].rows).map(r => Number(r.cells[column].textContent));
        return {rows: scores.length, sorted: scores.every((s, i) => i === 0 || scores[i - 1] <= s), top: Math.max(...scores)};
    })()"""
        % text("report.col.score"),
    )
    assert facts == {"rows": report_page.MAX_ROWS, "sorted": True, "top": sorted(r.score for r in records)[999]}

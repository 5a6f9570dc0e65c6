"""Turns verdicts into the text a student reads: result lines, failure details, the summary."""

from __future__ import annotations

import re
import unicodedata

from labkit.i18n import text
from labkit.judge import Verdict, differing_path, first_difference
from labkit.run.engine import Limits

INDENT = "    "
VALUE_COLUMNS = 64  # how much of a long value is shown around its first difference
PRINTED_LINES = 6
RULE = "=" * 40
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
Row = tuple[str | None, str]  # a line of a failure's explanation: its field (None: under the one above), its text
_FIELDS = (
    "field.call",
    "field.expected",
    "field.actual",
    "field.raised",
    "field.where",
    "field.printed",
    "field.problem",
    "field.before",
    "field.after",
    "field.hint",
)


# --- making characters visible ----------------------------------------------------------------


def escape_char(char: str) -> str:
    """One character as it appears inside a double-quoted Python literal; whitespace made visible."""
    if char in _ESCAPES:
        return _ESCAPES[char]
    if char.isprintable():
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escape(value: str) -> str:
    return "".join(escape_char(c) for c in value)


def literal(value: str) -> str:
    """`value` as a double-quoted Python literal: \\n, \\t, \\r and unusual spaces are visible."""
    return '"' + escape(value) + '"'


def width(shown: str) -> int:
    """Terminal columns taken by `shown` (CJK characters take two)."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in shown)


SHOWN_COLUMNS = 4000  # no value is shown wider than this, however large it came back (1 MiB at most)


def py_literal(value, columns: int = SHOWN_COLUMNS) -> str:
    """A Python literal for JSON-like data, with strings shown the way `literal` shows them, at most about
    `columns` wide: a string cut off ends in "…, a list or a dict in "… N more".  The work is bounded by
    `columns`, not by the size of the value."""
    return _bounded(value, [columns])


def fits(value, columns: int) -> bool:
    """Whether `value`'s literal takes at most `columns` columns (without writing more than that)."""
    budget = [columns + 1]
    shown = _bounded(value, budget)
    return budget[0] > 0 and width(shown) <= columns


def _bounded(value, budget: list) -> str:
    """`value`'s literal, spending the columns left in budget[0]; where they run out the rest is left out."""
    if isinstance(value, str):
        pieces = ['"']
        for char in value:
            shown = escape_char(char)
            if width(shown) >= budget[0]:
                budget[0] = 0
                return "".join(pieces) + '"…'
            pieces.append(shown)
            budget[0] -= width(shown)
        budget[0] -= 2
        return "".join(pieces) + '"'
    if isinstance(value, (list, dict)):
        opening, closing = ("[", "]") if isinstance(value, list) else ("{", "}")
        items, parts = iter(value.items()) if isinstance(value, dict) else iter(value), []
        budget[0] -= 2
        for index, item in enumerate(items):
            if budget[0] <= 0:
                parts.append(text("value.more_items", count=len(value) - index))
                break
            parts.append(
                f"{_bounded(item[0], budget)}: {_bounded(item[1], budget)}"
                if isinstance(value, dict)
                else _bounded(item, budget)
            )
            budget[0] -= 2
        return opening + ", ".join(parts) + closing
    shown = repr(value)
    if len(shown) >= budget[0]:
        shown = shown[: max(1, budget[0])] + "…"
    budget[0] -= len(shown)
    return shown


def _visible(line: str) -> str:
    """A printed line with control characters escaped (so it cannot move the cursor or fake a line)."""
    return "".join(c if c.isprintable() or c == " " else escape_char(c) for c in line)


def excerpt(value: str, start: int, columns: int = VALUE_COLUMNS, elided_before: bool | None = None) -> str:
    """The part of `value` from `start` that fits in `columns`, quoted, with … where text was left out."""
    lead = "…" if (start > 0 if elided_before is None else elided_before) else ""
    pieces: list[str] = []
    used = 0
    for char in value[start:]:
        shown = escape_char(char)
        if used + width(shown) > columns:
            return lead + '"' + "".join(pieces) + '"…'
        pieces.append(shown)
        used += width(shown)
    return lead + '"' + "".join(pieces) + '"'


# --- the lines of `make test` ------------------------------------------------------------------


def section_header(section: str) -> str:
    return text(f"section.{section}")


def result_line(case_number: str, label: str, passed: bool) -> tuple[str, str]:
    """The line before the verdict and the verdict itself: ("[TEST 1] label ... ", "[PASS]")."""
    return f"[TEST {case_number}] {label} ... ", "[PASS]" if passed else "[FAIL]"


def summary_lines(results, file: str | None = None) -> list[str]:
    """The summary between rules for (case, passed) pairs, one line per suite: the six (or the challenge)
    in the course's words, then the extended, property and generated checks apart; then the `file` tested,
    if given.  When only the six ran and all passed, one more line says what else the grade checks and how
    to run it."""
    lines = [RULE]
    suites = list(dict.fromkeys(case.suite for case, _ in results)) or ["core"]
    for suite in suites:
        outcomes = [passed for case, passed in results if case.suite == suite]
        key = "summary" if suite in ("core", "challenge") else f"summary.{suite}"
        lines.append(text(key, passed=sum(outcomes), failed=len(outcomes) - sum(outcomes)))
    lines.append(RULE)
    if file is not None:
        lines.append(text("summary.file", file=file))
    if suites == ["core"] and results and all(passed for _, passed in results):
        lines.append(text("summary.pointer"))
    return lines


class CourseText:
    """The course's layout built case by case; `make test` prints it and the grader writes it as feedback."""

    def __init__(self, file: str):
        self.file = file
        self.section: str | None = None
        self._load_shown = False
        self._explained: set = set()  # optional functions whose first failure was explained

    def case_lines(self, case, verdict: Verdict | None, error: str = "") -> list[tuple[str, str | None]]:
        """(text, "pass" | "fail" | None) lines for one case: a section header when it changes, the
        [TEST N] line, and under a [FAIL] its explanation (`error` when the harness itself failed)."""
        lines: list[tuple[str, str | None]] = []
        if case.section != self.section:
            if self.section is not None:
                lines.append(("", None))
            lines.append((section_header(case.section), None))
            self.section = case.section
        passed = verdict is not None and verdict.passed
        head, mark = result_line(case.id, text(case.label_key), passed)
        lines.append((head + mark, "pass" if passed else "fail"))
        if verdict is None:
            details = [INDENT + text("internal.error", message=error), INDENT + text("hint.internal")]
        elif passed or (case.suite == "challenge" and case.function in self._explained):
            details = []  # an optional function's later failures: its first one was explained, fix that first
        else:
            details = self.explain(verdict)
            if case.suite == "challenge":
                self._explained.add(case.function)
        return lines + [(line, None) for line in details]

    def explain(self, verdict: Verdict) -> list[str]:
        """A failure's explanation; a load failure is told in full once, then referred to."""
        load_failed = verdict.problem == "load_failed"
        lines = failure_lines(verdict, self.file, load_already_shown=load_failed and self._load_shown)
        self._load_shown = self._load_shown or load_failed
        return lines


def course_report(verdicts, file: str) -> str:
    """The whole text `make test` / `make test-full` prints for these verdicts."""
    course = CourseText(file)
    lines = [line for verdict in verdicts for line, _ in course.case_lines(verdict.case, verdict)]
    summary = summary_lines([(verdict.case, verdict.passed) for verdict in verdicts], file)
    return "\n".join(lines + [""] + summary) + "\n"


def failure_lines(verdict: Verdict, file: str, load_already_shown: bool = False) -> list[str]:
    """The indented explanation under a [FAIL]: input, expected (or what was demanded), actual, where,
    printed output, hint."""
    rows: list[Row] = []
    facts, case = verdict.facts, verdict.case
    if verdict.problem == "load_failed":
        if load_already_shown:
            return _format_rows([("field.problem", text("same_load_failure"))])
        rows += _load_rows(facts["load"], file)
    elif verdict.problem == "missing_function":
        rows.append(("field.problem", _missing_function(facts["load"], case.function, file)))
    else:
        if verdict.example is not None:
            rows += _call_rows(case, verdict.example)
        if "drawn" in facts:  # a property or generated check: the failing input, and how far it was shrunk
            drawn = facts["drawn"]
            rows.append((None, text(f"drawn.{drawn.get('shrunk', 'minimal')}", tried=drawn["tried"])))
        assert verdict.problem is not None  # every failure names its problem (labkit/judge.py)
        if verdict.example is not None and verdict.problem not in _SHOWS_EXPECTED:
            rows += _expected_rows(case.examples[verdict.example], verdict.problem)
        rows += _PROBLEM_ROWS[verdict.problem](facts, file)
        rows += _printed_rows(facts.get("output"))
    rows.append(("field.hint", hint_text(verdict)))
    return _format_rows(rows)


def explanation(verdict: Verdict, file: str) -> str:
    """A failure's explanation as one text, outside the course layout (grades.json, Gradescope)."""
    return "\n".join(line[len(INDENT) :] for line in failure_lines(verdict, file))


def hint_text(verdict: Verdict) -> str:
    """The verdict's hint, with the returned type or the memory limit filled in where it names them."""
    assert verdict.hint is not None  # every failure has a hint (labkit/judge.py); a pass has none to show
    returned = verdict.facts.get("returned") or {}
    return text(verdict.hint, type=returned.get("type", "?"), limit=Limits.from_env().memory_bytes >> 20)


ITEM_COLUMNS = 70  # one item of a list shown on its line
ITEMS_SHOWN = 8  # items of a long list shown in full before "… N more"


def _listing(label: str, opening: str, items: list, closing: str) -> list:
    """A list written one element per line (each cut to ITEM_COLUMNS), between an opening and a closing line;
    after ITEMS_SHOWN elements the rest is counted."""
    rows: list[Row] = [(label, opening)]
    rows += [(None, INDENT + py_literal(item, ITEM_COLUMNS) + ",") for item in items[:ITEMS_SHOWN]]
    if len(items) > ITEMS_SHOWN:
        rows.append((None, INDENT + text("list.more", count=len(items) - ITEMS_SHOWN)))
    return rows + [(None, closing)]


def _call_rows(case, index: int) -> list:
    example = case.examples[index]
    suffix = " " + text("example.of", index=index + 1, total=len(case.examples)) if len(case.examples) > 1 else ""
    if (all(fits(arg, 90) for arg in example.args) and fits(list(example.args), 90)) or not isinstance(
        example.args[0], list
    ):
        return [("field.call", f"{case.function}({', '.join(py_literal(a, 200) for a in example.args)})" + suffix)]
    rest = "".join(", " + py_literal(arg, 200) for arg in example.args[1:])
    return _listing("field.call", f"{case.function}([", example.args[0], f"]{rest})" + suffix)


_SHOWS_EXPECTED = ("wrong_value", "no_exception", "wrong_exception")  # their rows show it themselves


def _expected_rows(example, problem: str) -> list:
    """What the call should have given: the value, or the exception the protocol demands (and for a check
    of the arguments or of a new list, that)."""
    if example.raises:
        return [_demanded({"demanded": example.raises, "mentions": example.mentions})]
    if problem == "modified_input":
        return [("field.expected", text("value.unchanged"))]
    if problem == "same_object":
        return [("field.expected", text("value.new_list"))]
    expected = example.expected  # on one line: there is no second list to set it beside (a long dict: a key a line)
    if isinstance(expected, dict) and not fits(expected, ITEM_COLUMNS):
        return _keyed("field.expected", expected)
    shown = excerpt(expected, 0) if isinstance(expected, str) else py_literal(expected, ITEM_COLUMNS)
    return [("field.expected", shown)]


def _data_rows(label: str, value) -> list:
    """A value on one line, or a list (of messages) one element per line, or a dict one key per line, as a Python
    literal."""
    if isinstance(value, str):
        return [(label, excerpt(value, 0))]
    if isinstance(value, dict) and not fits(value, ITEM_COLUMNS):
        return _keyed(label, value)
    if not isinstance(value, list) or fits(value, ITEM_COLUMNS):
        return [(label, py_literal(value, ITEM_COLUMNS))]
    return _listing(label, "[", value, "]")


def _keyed(label: str, value: dict) -> list:
    """A dict written one key per line (each value cut to ITEM_COLUMNS), after ITEMS_SHOWN keys the rest counted."""
    rows: list[Row] = [(label, "{")]
    rows += [
        (None, INDENT + py_literal(key, ITEM_COLUMNS) + ": " + py_literal(item, ITEM_COLUMNS) + ",")
        for key, item in list(value.items())[:ITEMS_SHOWN]
    ]
    if len(value) > ITEMS_SHOWN:
        rows.append((None, INDENT + text("list.more", count=len(value) - ITEMS_SHOWN)))
    return rows + [(None, "}")]


def _list_rows(expected, actual, labels=("field.expected", "field.actual")) -> list:
    """Two lists around their first differing item, which is marked, with a caret under the first differing
    character inside it; the items around it are counted.  Values that are not lists, and short flat lists,
    are shown whole (`_data_rows`)."""
    if not isinstance(actual, list) or (
        fits(expected, ITEM_COLUMNS)
        and fits(actual, ITEM_COLUMNS)
        and not (expected and actual and isinstance(expected[0], (dict, list)))
    ):
        return _data_rows(labels[0], expected) + _data_rows(labels[1], actual)
    at = next((i for i, (e, a) in enumerate(zip(expected, actual)) if e != a), min(len(expected), len(actual)))
    # the differing item of each as a literal; None past the end of the shorter list
    wanted, got = (py_literal(items[at]) if at < len(items) else None for items in (expected, actual))
    column = first_difference(wanted, got) if wanted is not None and got is not None else 0
    start = max(0, column - 20) if width(wanted[:column] if wanted else "") > ITEM_COLUMNS - 16 else 0
    return _list_window(labels[0], expected, at, wanted, start) + _list_window(
        labels[1], actual, at, got, start, column if wanted is not None else None
    )


def _list_window(label: str, items: list, at: int, item: str | None, start: int, caret: int | None = None) -> list:
    first = max(0, at - 1)
    rows: list[Row] = [(label, "[")]
    if first:
        rows.append((None, INDENT + text("list.same", count=first)))
    if first < at:
        rows.append((None, INDENT + py_literal(items[first], ITEM_COLUMNS) + ","))
    if at >= len(items):
        return rows + [(None, "]  " + text("diff.list_end", count=len(items)))]
    assert item is not None  # the literal of items[at], which exists
    shown = _window(item, start, ITEM_COLUMNS)
    rows.append((None, INDENT + shown + ",  " + text("diff.item", n=at + 1)))
    if caret is not None:
        lead = width(shown[: len(shown) - len(shown.lstrip("…"))]) + width(item[start:caret])
        rows.append((None, INDENT + " " * lead + "^ " + text("diff.item_at", n=at + 1, column=caret + 1)))
    if len(items) > at + 1:
        rows.append((None, INDENT + text("list.more", count=len(items) - at - 1)))
    return rows + [(None, "]")]


def _window(shown: str, start: int, columns: int) -> str:
    """The part of an already visible text from `start` that fits in `columns`, with … where text was left out."""
    pieces: list[str] = []
    used = 0
    for char in shown[start:]:
        if used + width(char) > columns:
            return ("…" if start else "") + "".join(pieces) + "…"
        pieces.append(char)
        used += width(char)
    return ("…" if start else "") + "".join(pieces)


def _wrong_value_rows(facts: dict, _file: str) -> list:
    expected, actual = facts["expected"], facts["actual"]
    if isinstance(expected, dict):
        return _list_rows(expected, actual) + _path_rows(expected, actual)
    if not isinstance(expected, str):
        return _list_rows(expected, actual)
    at = first_difference(expected, actual)
    start = 0
    if at > VALUE_COLUMNS or width(escape(expected[:at])) > VALUE_COLUMNS - 16:
        start, used = at, 0
        while start > 0 and used < 20:
            start -= 1
            used += width(escape_char(expected[start]))
    rows: list[Row] = [("field.expected", excerpt(expected, start)), ("field.actual", excerpt(actual, start))]
    length = facts["returned"].get("length")
    if length:
        rows.append((None, text("value.cut", length=length, kept=len(actual))))
    if actual == "":
        return rows
    caret = " " * ((1 if start else 0) + 1 + width(escape(actual[start:at]))) + "^ "
    if at == len(actual):
        rows.append((None, caret + text("diff.missing", rest=excerpt(expected, at, 24, elided_before=False))))
    elif at == len(expected):
        rows.append((None, caret + text("diff.extra", rest=excerpt(actual, at, 24, elided_before=False))))
    else:
        line = expected.count("\n", 0, at) + 1
        column = at - (expected.rfind("\n", 0, at) + 1) + 1
        rows.append((None, caret + text("diff.at", line=line, column=column)))
    return rows


PATH_COLUMNS = 40  # each of the two values shown where two dicts first differ
_ABSENT = object()


def _path_rows(expected: dict, actual) -> list:
    """Where a returned dict first differs from the expected one (a key path such as ["usage"]["total_tokens"]),
    with the two values there, or the key that is missing or extra: a long dict is shown cut, this shows the spot."""
    path = differing_path(expected, actual)
    if not path:
        return []
    where = "".join(f"[{py_literal(step, PATH_COLUMNS)}]" if isinstance(step, str) else f"[{step}]" for step in path)
    wanted, got = _at_path(expected, path), _at_path(actual, path)
    if wanted is _ABSENT:
        return [(None, text("diff.path_extra", path=where, actual=py_literal(got, PATH_COLUMNS)))]
    if got is _ABSENT:
        return [(None, text("diff.path_missing", path=where, expected=py_literal(wanted, PATH_COLUMNS)))]
    return [
        (
            None,
            text(
                "diff.path", path=where, expected=py_literal(wanted, PATH_COLUMNS), actual=py_literal(got, PATH_COLUMNS)
            ),
        )
    ]


def _at_path(value, path):
    for step in path:
        if isinstance(value, dict) and isinstance(step, str) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            return _ABSENT
    return value


def _returned(returned: dict, columns: int = ITEM_COLUMNS) -> str:
    """A returned value as the child described it: a str or plain data as a literal, anything else its repr."""
    if returned.get("kind") == "str":
        return excerpt(returned["value"], 0, columns)
    if returned.get("kind") == "data" and isinstance(returned["value"], (list, dict)):
        return py_literal(returned["value"], columns)
    shown = repr(returned["value"]) if returned.get("kind") == "data" else returned.get("repr", "?")  # a number
    return shown if width(shown) <= columns else shown[:columns] + "…"


def _wrong_type_rows(facts: dict, _file: str) -> list:
    returned = facts["returned"]
    kind = "str" if returned.get("kind") == "str" else returned.get("type", "?")
    return [("field.actual", text("value.wrong_type", shown=_returned(returned), type=kind))]


def _same_object_rows(facts: dict, _file: str) -> list:
    return [("field.problem", text("problem.same_object"))]


def _raised_rows(facts: dict, file: str) -> list:
    raised = facts["raised"]
    message = _cut(raised.get("message", ""), 200)
    rows = [("field.raised", f"{raised.get('type', '?')}: {message}" if message else raised.get("type", "?"))]
    return rows + _where_rows(raised, file)


def _cut(shown: str, columns: int) -> str:
    return shown if len(shown) <= columns else shown[:columns] + "…"


def _where_rows(raised: dict, file: str) -> list:
    if not raised.get("line"):
        return []
    where = f"{file}:{raised['line']}"
    code = _cut(raised.get("code", "").rstrip("\n"), 200)
    if raised.get("offset") and code:  # a syntax error: show the caret under the spot
        stripped = code.lstrip()
        caret = " " * max(0, width(stripped[: max(0, raised["offset"] - 1 - (len(code) - len(stripped)))]))
        return [("field.where", where), (None, INDENT + stripped), (None, INDENT + caret + "^")]
    return [("field.where", f"{where}    {code.strip()}" if code else where)]


def _stopped_rows(facts: dict, _file: str) -> list:
    if "invalid" in facts:
        return [("field.problem", text("problem.invalid_reply", reason=facts["invalid"]))]
    if facts.get("memory"):
        return [("field.problem", text("problem.memory", limit=Limits.from_env().memory_bytes >> 20))]
    if facts.get("disk"):
        return [("field.problem", _folder_full(facts))]
    if "raised" in facts:
        raised = facts["raised"] or {}
        return [
            (
                "field.problem",
                text(
                    "problem.broken_child", type=raised.get("type", "?"), message=_cut(raised.get("message", ""), 200)
                ),
            )
        ]
    if "signal" in facts:
        return [("field.problem", text("problem.signal", signal=facts["signal"]))]
    if facts.get("exit_code") is not None:
        return [("field.problem", text("problem.exited", code=facts["exit_code"]))]
    return [("field.problem", text("problem.no_answer"))]


def _folder_full(facts: dict) -> str:
    limits = Limits.from_env()
    return text(
        "problem.disk",
        megabytes=facts.get("megabytes", limits.folder_bytes >> 20),
        files=facts.get("files", limits.folder_files),
    )


def _timeout_rows(facts: dict, _file: str) -> list:
    if "budget_seconds" in facts:
        return [("field.problem", text("problem.budget", seconds=facts["budget_seconds"]))]
    return [("field.problem", text("problem.timeout", seconds=facts["seconds"]))]


def _demanded(facts: dict) -> tuple:
    if not facts["mentions"]:
        return ("field.expected", text("value.raises_any", type=facts["demanded"]))
    return ("field.expected", text("value.raises", type=facts["demanded"], word=facts["mentions"]))


def _no_exception_rows(facts: dict, _file: str) -> list:
    return [_demanded(facts), ("field.actual", text("value.returned", shown=_returned(facts["returned"], 40)))]


def _wrong_exception_rows(facts: dict, file: str) -> list:
    return [_demanded(facts)] + _raised_rows(facts, file)


def _modified_rows(facts: dict, _file: str) -> list:
    """The arguments before and after the call, around the first item that changed; a single argument (a list
    of messages) is shown as itself, not inside the list of arguments."""
    before, after = facts["before"], facts["after"]
    problem = [("field.problem", text("problem.modified_input"))]
    if isinstance(after, dict):  # described by the child, not sent (replies.arguments_after)
        return (
            problem
            + _data_rows("field.before", before[0] if len(before) == 1 else before)
            + [("field.after", _described_arguments(after))]
        )
    if len(before) == 1 and isinstance(after, list) and len(after) == 1:
        before, after = before[0], after[0]
    return problem + _list_rows(before, after, ("field.before", "field.after"))


def _described_arguments(after: dict) -> str:
    """The sentence for arguments afterwards that did not come back: larger than a value may be, or no plain
    data (then their repr, cut)."""
    if "too_large" in after:
        limit = re.search(r"\d+", after["too_large"])
        return text("value.after_too_large", limit=int(limit[0]) if limit else Limits.from_env().value_chars)
    return text("value.after_unserializable", shown=_cut(str(after.get("unserializable", "")), ITEM_COLUMNS))


_PROBLEM_ROWS = {
    "wrong_value": _wrong_value_rows,
    "wrong_type": _wrong_type_rows,
    "raised": _raised_rows,
    "timeout": _timeout_rows,
    "crashed": _stopped_rows,
    "no_answer": _stopped_rows,
    "memory": _stopped_rows,
    "disk": _stopped_rows,
    "no_exception": _no_exception_rows,
    "wrong_exception": _wrong_exception_rows,
    "modified_input": _modified_rows,
    "same_object": _same_object_rows,
}


def _missing_function(load, function: str, file: str) -> str:
    import difflib

    if load.functions.get(function) == "not_callable":
        return text("problem.not_callable", file=file, function=function)
    near = difflib.get_close_matches(function, load.defined, n=1, cutoff=0.6)
    if near:
        return text("problem.missing_function_near", file=file, function=function, near=near[0])
    return text("problem.missing_function", file=file, function=function)


def _load_rows(load, file: str) -> list:
    detail, status = load.detail, load.status
    if status == "missing_file":
        rows = [("field.problem", text("load.missing_file", path=detail.get("path", file)))]
    elif status == "too_large":
        rows = [("field.problem", text("load.too_large", file=file, limit=detail.get("limit", 0)))]
    elif status == "not_utf8":
        key = "load.not_utf8_guess" if detail.get("looks_like") else "load.not_utf8"
        rows = [("field.problem", text(key, file=file, line=detail.get("line") or 1, guess=detail.get("looks_like")))]
    elif status == "syntax_error":
        rows = [
            (
                "field.problem",
                text("load.syntax_error", file=file, line=detail.get("line") or "?", message=detail.get("message", "")),
            )
        ] + _where_rows(detail, file)
    elif status == "memory" and "type" not in detail:  # stopped from outside when no rlimit holds (macOS)
        rows = [("field.problem", text("problem.memory", limit=Limits.from_env().memory_bytes >> 20))]
    elif status == "disk":
        rows = [("field.problem", _folder_full(detail))]
    elif status in ("import_error", "memory"):
        rows = [
            (
                "field.problem",
                text(f"load.{status}", file=file, type=detail.get("type", "?"), message=detail.get("message", "")),
            )
        ] + _where_rows(detail, file)
    elif status == "timeout":
        rows = [("field.problem", text("load.timeout", file=file, seconds=detail.get("seconds", 0)))]
    elif status == "system_error":
        rows = [("field.problem", text("load.system_error", file=file, error=detail.get("error", "?")))]
    elif "invalid" in detail:
        rows = [("field.problem", text("problem.invalid_reply", reason=detail["invalid"]))]
    else:
        how = f"signal {detail['signal']}" if detail.get("signal") else f"exit code {detail.get('exit_code')}"
        rows = [("field.problem", text("load.crashed", file=file, how=how))]
    return rows + _printed_rows(load.output)


def _printed_rows(output: dict | None) -> list:
    if not output or not (output.get("text") or output.get("dropped")):
        return []
    lines = output["text"].splitlines() or [""]
    shown = ["| " + _visible(line)[:100] for line in lines[:PRINTED_LINES]]
    if len(lines) > PRINTED_LINES or output.get("dropped"):
        shown.append(text("printed.more"))
    return [("field.printed", shown[0]), *[(None, line) for line in shown[1:]]]


def _format_rows(rows: list) -> list[str]:
    labels = {key: text(key) for key in _FIELDS}
    column = max(width(label) for label in labels.values()) + 2
    lines = []
    for key, value in rows:
        head = labels[key] + ":" if key else ""
        lines.append(INDENT + head + " " * (column - width(head)) + value)
    return lines

"""The two layers of sentences: the core's own (labkit/i18n.py), the lab's installed from its spec over them."""

import re
import subprocess
import sys
import types

import pytest

from conftest import LAB, ROOT
from labkit import i18n
from labkit.spec import Text

SHEET = re.compile(r"TASK(\.en)?\.md|1\.5\.\d|\b[EFRT][1-7]\b")


def test_the_core_layer_names_no_sheet_and_no_count_of_cases():
    """The core's sentences fit any lab: no sheet reference, no rule id, no "六个" or "six" (the spec's {core_cases})."""
    for key, (zh, en) in i18n.CORE.items():
        for sentence in (re.sub(r"\{[a-z_]+\}", "", zh), re.sub(r"\{[a-z_]+\}", "", en)):
            assert not SHEET.search(sentence), (key, sentence)
            assert "六个" not in sentence and not re.search(r"\bsix\b", sentence), (key, sentence)


def test_lab09_restates_the_default_hints_in_its_own_words():
    """A default hint says it neutrally in the core; Lab09 restates those whose advice is its own (citing TASK.md
    and TASK.en.md, naming its files and tags) as it did before the split, so nothing Lab09 prints changes."""
    from lab09 import hints

    restated = set(hints.TEXTS) & set(i18n.CORE)
    assert restated and restated <= i18n.RESTATABLE
    for key in restated:
        zh, en = hints.TEXTS[key]
        assert zh != i18n.CORE[key][0] and en != i18n.CORE[key][1], key
        assert i18n.CATALOGUE[key] == (zh, en)


def test_the_lab_layer_comes_from_the_modules_its_spec_names():
    assert LAB.texts == ("lab09.hints", "lab09.chat.texts")
    from lab09 import hints
    from lab09.chat import texts as chat_texts

    assert not set(hints.TEXTS) & set(chat_texts.TEXTS)
    assert {check.label_key for check in LAB.checks if not isinstance(check.label, Text)} <= set(hints.TEXTS)  # the
    # rest carry their label inline, as README's "Adding a case" allows
    assert {f"section.{section.id}" for section in LAB.sections} <= set(hints.TEXTS)
    assert all(key.startswith(("chat.", "page.", "store.", "help.chat")) for key in chat_texts.TEXTS)


@pytest.fixture
def fake_lab(monkeypatch):
    """Make the active lab one whose texts are modules made here (the real one comes back after the test)."""
    from labkit import spec

    def make(*layers):
        names = []
        for number, entries in enumerate(layers):
            module = types.ModuleType(f"fake_texts_{number}")
            module.TEXTS = entries
            monkeypatch.setitem(sys.modules, module.__name__, module)
            names.append(module.__name__)
        lab = types.SimpleNamespace(
            id="fake", texts=tuple(names), checks=(), sections=(), groups=(), targets=(), has_challenge=False
        )
        monkeypatch.setattr(spec, "active", lambda: lab)
        return lab

    return make


SUMMARY = {"summary.pointer": ("更多", "more"), "summary.stub_elsewhere": ("别处", "elsewhere")}


def test_a_key_defined_twice_fails_at_load_unless_it_is_a_restatable_default_hint(fake_lab):
    import labkit.instructor.texts  # noqa: F401  (a registered part: the grader's sentences)

    for layers, key in (
        (({"field.call": ("叫", "call it"), **SUMMARY},), "field.call"),
        (({"case.9.label": ("九", "nine"), **SUMMARY}, {"case.9.label": ("九", "nine")}), "case.9.label"),
        (({"status.no_student_py": ("无", "none"), **SUMMARY},), "status.no_student_py"),
    ):
        fake_lab(*layers)
        with pytest.raises(KeyError, match=re.escape(key)):
            i18n.text("case.1.label")
    fake_lab(
        {"hint.timeout": ("死循环？见 SHEET 3", "endless loop? see SHEET 3"), "case.9.label": ("九", "nine")}, SUMMARY
    )
    assert i18n.text("hint.timeout", "en") == "endless loop? see SHEET 3" and i18n.text("case.9.label", "zh") == "九"
    assert i18n.text("field.call", "en") == "call"


def test_a_lab_layer_is_replaced_not_merged_when_the_lab_changes(fake_lab, monkeypatch):
    from labkit import spec

    fake_lab({"case.9.label": ("九", "nine")}, SUMMARY)
    assert "case.9.label" in i18n.CATALOGUE and "case.1.label" not in i18n.CATALOGUE
    assert i18n.text("hint.timeout", "zh") == i18n.CORE["hint.timeout"][0]  # this lab restates nothing
    monkeypatch.setattr(spec, "active", lambda: LAB)
    assert "case.9.label" not in i18n.CATALOGUE and i18n.text("case.1.label", "en").startswith("single turn")
    assert i18n.text("hint.timeout", "zh") != i18n.CORE["hint.timeout"][0]  # Lab09's, citing TASK.md


def lab09_texts():
    from lab09 import hints
    from lab09.chat import texts

    return {**hints.TEXTS, **texts.TEXTS}


def test_a_text_the_core_will_ask_for_and_nobody_defines_fails_at_load(fake_lab):
    """A label, section header, group summary or hint the spec implies but no texts module defines is named
    when the lab's layer is installed, not when a student's run first reaches it."""
    import dataclasses

    fake_lab({key: value for key, value in lab09_texts().items() if key != "case.x3.label"})
    lab = dataclasses.replace(LAB, texts=("fake_texts_0",))
    with pytest.raises(KeyError, match=r"lab09: no text for \['case.x3.label'\] in fake_texts_0"):
        i18n.use(lab)
    inline = {check.label_key for check in LAB.checks if isinstance(check.label, Text)}
    assert i18n.wanted(LAB) <= set(lab09_texts()) | set(i18n.CORE) | inline


@pytest.mark.parametrize("missing", ["help.challenge", "help.chat", "help.chat_options"])
def test_a_help_line_of_the_labs_targets_that_nobody_defines_fails_at_load(fake_lab, missing):
    """make help's line for make challenge (a lab with optional checks) and for each of the lab's own targets
    and their notes are asked for at load too, not first by `make help`."""
    import dataclasses

    fake_lab({key: value for key, value in lab09_texts().items() if key != missing})
    lab = dataclasses.replace(LAB, texts=("fake_texts_0",))
    with pytest.raises(KeyError, match=rf"lab09: no text for \['{missing}'\] in fake_texts_0"):
        i18n.use(lab)


def test_the_core_sentences_need_no_lab():
    """lab.py's set-up lines come from the core before any lab loads: looking one up imports no spec."""
    probe = (
        "import sys; from labkit.i18n import text; text('lab.python_not_found', python='x'); "
        "text('field.call'); assert not {'labkit.spec', 'lab09', 'framework'} & set(sys.modules), sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], cwd=ROOT, check=True)


@pytest.mark.parametrize(
    "n, zh, en",
    [
        (1, "一", "one"),
        (6, "六", "six"),
        (10, "十", "ten"),
        (11, "11", "eleven"),
        (12, "12", "twelve"),
        (13, "13", "13"),
        (0, "零", "zero"),
    ],
)
def test_number_word_says_small_counts_in_words(n, zh, en):
    assert i18n.number_word(n, "zh") == zh and i18n.number_word(n, "en") == en


def test_the_core_and_the_graders_sentences_name_no_lab():
    """Lab09's name, subject, file and handout come from its spec (Lab.id, Lab.name, Lab.title, Lab.student_file,
    Lab.handout), the help lines' too."""
    import labkit.instructor.texts  # noqa: F401  (registers the grader's sentences)

    for key, (zh, en) in {**i18n.CORE, **i18n._PARTS}.items():
        assert not re.search(r"lab ?09|多轮对话|multi-turn|student\.py", zh + en, re.I), key


def test_the_graders_words_for_a_submission_name_the_labs_file(monkeypatch):
    import dataclasses
    from labkit import spec
    from labkit.instructor.outputs import feedback, figures

    assert figures.status_label("no_student_py") == "没有 student.py"
    calc = dataclasses.replace(LAB, student_file="calc/calc.py")
    monkeypatch.setattr(spec, "active", lambda: calc)
    monkeypatch.setattr(figures, "active", lambda: calc)
    assert figures.status_label("several_student_py") == "多个 calc.py"
    assert feedback.note_text("note.helpers", {"files": "ops.py"}) == "你的辅助模块也放在了 calc.py 旁边: ops.py"
    grade = types.SimpleNamespace(status="no_student_py", found=(), entry="", cause="")
    assert feedback.why_text(grade) == "没有找到 calc.py。提交里有: —"


def test_the_stale_folder_line_names_the_active_lab(monkeypatch, capsys):
    import dataclasses
    from labkit import spec
    from labkit.run import removal, workdirs

    monkeypatch.setattr(spec, "active", lambda: dataclasses.replace(LAB, id="lab10"))
    monkeypatch.setattr(workdirs, "_stale_cleared", False)
    monkeypatch.setattr(workdirs, "_stale_workdirs", lambda: ["/nowhere/labkit-1-a"])
    monkeypatch.setattr(removal, "remove_tree", lambda path, deadline=None: "EPERM")
    workdirs._clear_stale_workdirs()
    assert capsys.readouterr().err.startswith("lab10: ")

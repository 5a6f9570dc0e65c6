"""Every plausible mistake fails in the case that names it, with its hint; every correct style passes."""

import pytest

from conftest import SOLUTION, STUB, STUDENTS, failing, judged

# file in tests/students/wrong -> (every case it must fail, the case that names it, that case's hint)
MISTAKES = {
    "no_generation_tag": ({"1", "2", "3"}, "3", "hint.no_generation_tag"),
    "generation_tag_no_newline": ({"1", "2", "3"}, "3", "hint.generation_tag_newline"),
    "generation_after_every_user": ({"2", "3"}, "3", "hint.generation_after_every_user"),
    "system_as_user": ({"2", "3"}, "2", "hint.system_as_user"),
    "system_dropped": ({"2", "3"}, "2", "hint.system_dropped"),
    "history_lost": ({"2", "3"}, "2", "hint.history_lost"),
    "content_before_tag": ({"1", "2", "3"}, "1", "hint.content_before_tag"),
    "missing_newline": ({"1", "2", "3"}, "1", "hint.missing_newline"),
    "tag_same_line": ({"1", "2", "3"}, "1", "hint.tag_same_line"),
    "blank_line": ({"1", "2", "3"}, "2", "hint.blank_line"),
    "returns_list": ({"1", "2", "3"}, "1", "hint.not_str"),
    "first_not_last": ({"5"}, "5", "hint.first_not_last"),
    "no_cut_user": ({"6"}, "6", "hint.no_cut_user"),
    "no_cut_end": ({"6"}, "6", "hint.no_cut_end"),
    "no_cut_system": ({"6"}, "6", "hint.no_cut_system"),
    "first_type_user_first": ({"6"}, "6", "hint.cut_at_earliest"),
    "first_type_end_first": ({"6"}, "6", "hint.cut_at_earliest"),
    "empty_when_no_tag": ({"4"}, "4", "hint.empty_when_no_tag"),
    "untrimmed_when_no_tag": ({"4"}, "4", "hint.not_trimmed"),
    "none_when_no_tag": ({"4"}, "4", "hint.none_returned"),
    "no_trim": ({"4", "5", "6"}, "5", "hint.not_trimmed"),
    "rstrip_only": ({"4", "5", "6"}, "4", "hint.trim_one_side"),
    "strip_spaces_only": ({"4", "5", "6"}, "4", "hint.not_trimmed"),
    "str_subclass": ({"4", "5", "6"}, "4", "hint.str_subclass"),
}


def test_every_wrong_file_is_in_the_table():
    assert {p.stem for p in (STUDENTS / "wrong").glob("*.py")} == set(MISTAKES)


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_mistake_fails_in_its_named_case_with_its_hint(name):
    must_fail, named, hint = MISTAKES[name]
    verdicts = judged(STUDENTS / "wrong" / f"{name}.py")
    assert failing(verdicts) == must_fail
    assert verdicts[named].hint == hint


@pytest.mark.parametrize("path", sorted((STUDENTS / "correct").glob("*.py")) + [SOLUTION], ids=lambda p: p.stem)
def test_correct_styles_pass_all_six(path):
    assert failing(judged(path)) == set()


def test_at_least_five_correct_styles():
    assert len(list((STUDENTS / "correct").glob("*.py"))) >= 5


def test_stub_fails_all_six_cleanly():
    verdicts = judged(STUB)
    assert failing(verdicts) == {"1", "2", "3", "4", "5", "6"}
    assert {v.problem for v in verdicts.values()} == {"wrong_value"}  # returned "", no crash


def test_a_wrong_value_records_expected_and_actual():
    verdict = judged(STUDENTS / "wrong" / "first_not_last.py")["5"]
    assert (verdict.facts["expected"], verdict.facts["actual"], verdict.example) == ("3", "2", 0)

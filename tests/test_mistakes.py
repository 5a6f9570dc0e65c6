"""Every plausible mistake fails in the case that names it, with its hint; every correct style passes."""

import pytest

from conftest import SOLUTION, STUB, STUDENTS, failing, judged
from framework.harness.cases import ALL_CASES, CHALLENGE

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


# file in tests/students/wrong_full: passes the six; (extended checks it fails, the one that names it, its hint)
EXTENDED_MISTAKES = {
    "keyerror_for_unknown_role": ({"x2"}, "x2", "hint.unknown_role"),
    "valueerror_without_role": ({"x2"}, "x2", "hint.error_names_role"),
    "changes_the_callers_dicts": ({"x3"}, "x3", "hint.input_modified"),
    "strips_content": ({"x4"}, "x4", "hint.content_verbatim"),
    "generation_tag_only_after_user": ({"x1", "x5"}, "x5", "hint.no_generation_tag"),
    "system_moved_to_front": ({"x6"}, "x6", "hint.case2"),
    "c_isspace_trim": ({"x8"}, "x8", "hint.x7"),
    "empty_reply_falls_back": ({"x9"}, "x9", "hint.x9"),
    "cuts_at_anything_tag_like": ({"x10"}, "x10", "hint.x10"),
}


# file in tests/students/wrong_trim: (trim_history cases it fails, the one that names it, its hint)
TRIM_MISTAKES = {
    "by_messages": ({"c3", "c5"}, "c3", "hint.trim_starts_with_assistant"),
    "drops_system": ({"c1", "c2", "c3", "c4", "c5", "c6"}, "c5", "hint.trim_keep_system"),
    "keeps_other_roles": ({"c4"}, "c4", "hint.trim_other_roles"),
    "same_list_when_short": ({"c1", "c3", "c4", "c6"}, "c1", "hint.trim_new_list"),
    "trims_in_place": ({"c6"}, "c6", "hint.trim_new_list"),
    "no_check_of_max_turns": ({"c7"}, "c7", "hint.trim_max_turns"),
}


def test_every_wrong_file_is_in_a_table():
    assert {p.stem for p in (STUDENTS / "wrong").glob("*.py")} == set(MISTAKES)
    assert {p.stem for p in (STUDENTS / "wrong_full").glob("*.py")} == set(EXTENDED_MISTAKES)
    assert {p.stem for p in (STUDENTS / "wrong_trim").glob("*.py")} == set(TRIM_MISTAKES)


@pytest.mark.parametrize("name", sorted(TRIM_MISTAKES))
def test_trim_history_mistake_fails_in_its_named_case(name):
    must_fail, named, hint = TRIM_MISTAKES[name]
    verdicts = judged(STUDENTS / "wrong_trim" / f"{name}.py", cases=CHALLENGE)
    assert failing(verdicts) == must_fail
    assert verdicts[named].hint == hint


def test_challenge_stub_fails_everything_and_the_reference_passes():
    assert failing(judged(STUB, cases=CHALLENGE)) == {case.id for case in CHALLENGE}
    assert failing(judged(SOLUTION, cases=CHALLENGE)) == set()
    assert failing(judged(STUB)) == {"1", "2", "3", "4", "5", "6"}  # the optional function changes nothing


@pytest.mark.parametrize("name", sorted(EXTENDED_MISTAKES))
def test_extended_mistake_passes_the_six_and_fails_its_check(name):
    must_fail, named, hint = EXTENDED_MISTAKES[name]
    verdicts = judged(STUDENTS / "wrong_full" / f"{name}.py", cases=ALL_CASES)
    assert failing(verdicts) == must_fail
    assert verdicts[named].hint == hint


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_mistake_fails_in_its_named_case_with_its_hint(name):
    must_fail, named, hint = MISTAKES[name]
    verdicts = judged(STUDENTS / "wrong" / f"{name}.py")
    assert failing(verdicts) == must_fail
    assert verdicts[named].hint == hint


@pytest.mark.parametrize("path", sorted((STUDENTS / "correct").glob("*.py")) + [SOLUTION], ids=lambda p: p.stem)
def test_correct_styles_pass_the_six_and_every_extended_check(path):
    assert failing(judged(path, cases=ALL_CASES)) == set()


def test_at_least_five_correct_styles():
    assert len(list((STUDENTS / "correct").glob("*.py"))) >= 5


def test_stub_fails_all_six_cleanly():
    verdicts = judged(STUB)
    assert failing(verdicts) == {"1", "2", "3", "4", "5", "6"}
    assert {v.problem for v in verdicts.values()} == {"wrong_value"}  # returned "", no crash


def test_a_wrong_value_records_expected_and_actual():
    verdict = judged(STUDENTS / "wrong" / "first_not_last.py")["5"]
    assert (verdict.facts["expected"], verdict.facts["actual"], verdict.example) == ("3", "2", 0)

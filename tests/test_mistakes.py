"""Every plausible mistake fails in the case that names it, with its hint; every correct style passes.

The wrong submissions in tests/students/wrong, wrong_full and wrong_multi are the specification of the hints:
each says in its docstring which rules it breaks (`Breaks: E2, F2`; `1.5.1` for a section of TASK.md,
`mistake 1` for an item of its common-mistakes list), the first one being the rule of the first case it
fails, the one a student reads first.  That hint must cite the first rule, and the hint of every check it
fails (the six, the extended, property and generated checks) a rule it breaks, in both languages, and no
range of rules (F1–F3) where a precise one holds.  The files of wrong_multi make two or three slips at
once, written the way public code is (stop-string loops, split(tag)[-1], ChatML- or Zephyr-style builders).
"""

import functools
import re

import pytest

from conftest import LAB, QUICK, SOLUTION, STUB, STUDENTS, TABLE, failing, judged
from framework.tags import ASSISTANT_TAG
from labkit import assess, render
from labkit.assess import InputSource
from labkit.run.engine import StudentRun
from test_task_md import TASK, common_mistakes
import expected

CHALLENGE, REWRITE = expected.CHALLENGE, expected.REWRITE


# file in tests/students/wrong -> (the case that names it, that case's hint); every case each file of these tables
# fails is kept in tests/expected.json, which `make expected` rewrites from the spec (tests/expected.py)
MISTAKES = {
    "no_generation_tag": ("3", "hint.no_generation_tag"),
    "generation_tag_no_newline": ("3", "hint.generation_tag_newline"),
    "generation_after_every_user": ("3", "hint.generation_after_every_user"),
    "generation_after_every_user_and_at_end": ("2", "hint.generation_after_every_user"),
    "system_as_user": ("2", "hint.system_as_user"),
    "system_dropped": ("2", "hint.system_dropped"),
    "history_lost": ("2", "hint.history_lost"),
    "content_before_tag": ("1", "hint.content_before_tag"),
    "missing_newline": ("1", "hint.missing_newline"),
    "tag_same_line": ("1", "hint.tag_same_line"),
    "blank_line": ("2", "hint.blank_line"),
    "returns_list": ("1", "hint.not_str"),
    "first_not_last": ("5", "hint.first_not_last"),
    "no_cut_user": ("6", "hint.no_cut_user"),
    "no_cut_end": ("6", "hint.no_cut_end"),
    "no_cut_system": ("6", "hint.no_cut_system"),
    "first_type_user_first": ("6", "hint.cut_at_earliest"),
    "first_type_end_first": ("6", "hint.cut_at_earliest"),
    "empty_when_no_tag": ("4", "hint.empty_when_no_tag"),
    "untrimmed_when_no_tag": ("4", "hint.not_trimmed"),
    "none_when_no_tag": ("4", "hint.none_no_tag"),
    "no_trim": ("5", "hint.not_trimmed"),
    "rstrip_only": ("4", "hint.trim_one_side"),
    "strip_spaces_only": ("4", "hint.not_trimmed"),
    "str_subclass": ("4", "hint.str_subclass"),
    # format_prompt
    "misspelt_system_tag": ("2", "hint.tag_spelling"),
    "capitalised_user_tag": ("1", "hint.tag_spelling"),
    "role_name_as_tag": ("1", "hint.tag_spelling"),
    "end_after_every_message": ("1", "hint.end_tag_in_prompt"),
    "end_line_after_every_message": ("1", "hint.end_tag_in_prompt"),
    "crlf_newlines": ("1", "hint.crlf"),
    "newline_join": ("1", "hint.generation_tag_newline"),
    "generation_tag_first": ("1", "hint.generation_at_start"),
    "elif_chain_keeps_last_tag": ("2", "hint.role_mapping"),
    "elif_chain_unbound": ("2", "hint.unbound_tag"),
    "role_table_without_system": ("2", "hint.role_key_missing"),
    "dict_attribute_access": ("1", "hint.dict_access"),
    "content_key_typo": ("1", "hint.message_keys"),
    "role_prefix_in_content": ("1", "hint.content_verbatim"),
    "forgot_return": ("1", "hint.none_returned"),
    "prints_instead_of_returning": ("1", "hint.printed_not_returned"),
    "returns_bytes": ("1", "hint.not_str"),
    "space_after_tag": ("1", "hint.tag_line_spaces"),
    "assistant_as_end_tag": ("2", "hint.assistant_as_end"),
    "literal_backslash_n": ("1", "hint.literal_backslash_n"),
    # extract_response
    "forgot_tag_length": ("5", "hint.empty_reply"),
    "reply_starts_with_tag": ("5", "hint.tag_text_left"),
    "off_by_one_start": ("5", "hint.tag_text_left"),
    "boundaries_searched_from_start": ("5", "hint.empty_reply"),
    "split_first_part": ("5", "hint.first_not_last"),
    "split_without_e1": ("4", "hint.split_index"),
    "split_last_no_cut": ("6", "hint.no_cut_user"),
    "partition_first": ("4", "hint.empty_when_no_tag"),
    "rindex_without_e1": ("4", "hint.substring_not_found"),
    "regex_first_match": ("5", "hint.first_not_last"),
    "regex_greedy_cut": ("6", "hint.cut_at_earliest"),
    "max_not_min": ("6", "hint.cut_at_earliest"),
    "min_with_minus_one": ("6", "hint.no_cut_user"),
    "strip_before_cut": ("6", "hint.strip_after_cut"),
    "first_line_only": ("5", "hint.cut_at_newline"),
    "line_after_tag": ("5", "hint.cut_at_newline"),
    "replaces_tags": ("6", "hint.removed_not_cut"),
    "no_return_without_boundary": ("5", "hint.none_no_boundary"),
    "strip_newlines_only": ("4", "hint.not_trimmed"),
    "lstrip_only": ("4", "hint.trim_one_side"),
    "collapses_whitespace": ("4", "hint.whitespace_only_reply"),
    "find_loop_never_advances": ("5", "hint.timeout"),
    "index_never_advances": ("1", "hint.timeout_prompt"),
    # the file does not load
    "missing_colon": ("1", "hint.syntax_error"),
    "saved_as_gbk": ("1", "hint.not_utf8"),
    "chat_loop_at_top_level": ("1", "hint.load_reads_input"),
    "imports_tags_beside_it": ("1", "hint.import_tags"),
}

# Slips in the shape of the result: every case they fail names them, not only the first.
NAMED_IN_EVERY_FAILING_CASE = (
    "history_lost",
    "system_dropped",
    "misspelt_system_tag",
    "end_after_every_message",
    "crlf_newlines",
    "forgot_tag_length",
    "off_by_one_start",
    "no_generation_tag",
)

# TASK.md's common mistakes (常见错误与排查顺序), item by item, and wrong submissions that make them.
COMMON_MISTAKES = {
    1: ("missing_colon", "saved_as_gbk", "chat_loop_at_top_level"),
    2: ("returns_list", "forgot_return", "none_when_no_tag", "returns_bytes"),
    3: (
        "no_generation_tag",
        "generation_after_every_user",
        "generation_after_every_user_and_at_end",
        "generation_tag_no_newline",
    ),
    4: ("content_before_tag", "tag_same_line", "missing_newline", "blank_line"),
    5: ("system_as_user", "system_dropped"),
    6: ("history_lost",),
    7: ("empty_when_no_tag", "partition_first"),
    8: ("first_not_last", "split_first_part", "regex_first_match"),
    9: ("no_cut_end", "no_cut_system", "no_cut_user", "first_type_user_first", "first_type_end_first"),
    10: ("no_trim", "rstrip_only", "lstrip_only"),
    11: ("find_loop_never_advances", "index_never_advances"),
}


# file in tests/students/wrong_full: passes the six; (the extended check that names it, its hint)
EXTENDED_MISTAKES = {
    "keyerror_for_unknown_role": ("x2", "hint.unknown_role"),
    "valueerror_without_role": ("x2", "hint.error_names_role"),
    "changes_the_callers_dicts": ("x3", "hint.input_modified"),
    "strips_content": ("x4", "hint.content_verbatim"),
    "generation_tag_only_after_user": ("x5", "hint.no_generation_tag"),
    "system_moved_to_front": ("x6", "hint.system_moved"),
    "c_isspace_trim": ("x8", "hint.x7"),
    "empty_reply_falls_back": ("x9", "hint.x9"),
    "cuts_at_anything_tag_like": ("x10", "hint.x10"),
    "lstrip_tag_chars": ("x9", "hint.tag_text_left"),
}


# file in tests/students/wrong_trim: (the trim_history case that names it, its hint)
TRIM_MISTAKES = {
    "by_messages": ("c3", "hint.trim_starts_with_assistant"),
    "drops_system": ("c5", "hint.trim_keep_system"),
    "keeps_other_roles": ("c4", "hint.trim_other_roles"),
    "same_list_when_short": ("c1", "hint.trim_new_list"),
    "trims_in_place": ("c6", "hint.trim_new_list"),
    "no_check_of_max_turns": ("c7", "hint.trim_max_turns"),
}


# file in tests/students/wrong_rewrite -> (the case that names it, that case's hint)
REWRITE_MISTAKES = {
    "ascii_colon": ("r2", "hint.rewrite_ascii_colon"),
    "newline_after_every_line": ("r2", "hint.rewrite_newlines"),
    "every_role_as_a_line": ("r3", "hint.r3"),
    "whole_history": ("r4", "hint.r4"),
    "no_question_line": ("r2", "hint.r2"),
    "empty_list_without_history": ("r1", "hint.r1"),
    "appends_the_question": ("r5", "hint.r5"),
    "first_line_not_stripped": ("r6", "hint.r6"),
    "first_line_even_if_blank": ("r6", "hint.r6"),
    "no_length_check": ("r7", "hint.r7"),
    "length_off_by_one": ("r7", "hint.r7"),
}


# file in tests/students/wrong_multi: several slips at once -> (the first case it fails, its hint)
MULTI_MISTAKES = {
    "chatml_builder": ("1", "hint.generation_tag_newline"),
    "copied_escaped_newlines": ("1", "hint.literal_backslash_n"),
    "decode_strip_then_cut": ("6", "hint.no_cut_user"),
    "drops_system_blank_lines": ("1", "hint.blank_line"),
    "generation_as_a_message": ("1", "hint.after_generation"),
    "generation_only_after_user_stripped": ("x1", "hint.x1"),
    "get_with_defaults": ("2", "hint.assistant_as_end"),
    "hand_trim_first_tag": ("4", "hint.not_trimmed"),
    "index_first_assistant": ("4", "hint.substring_not_found"),
    "lines_joined_strip_spaces": ("1", "hint.generation_tag_newline"),
    "lstrip_tag_first": ("5", "hint.first_not_last"),
    "min_of_finds_rstrip": ("4", "hint.trim_one_side"),
    "newline_join_anonymous_error": ("1", "hint.generation_tag_newline"),
    "phi3_template": ("1", "hint.end_tag_in_prompt"),
    "regex_stop": ("4", "hint.not_trimmed"),
    "rfind_without_check": ("4", "hint.empty_when_no_tag"),
    "rpartition_end_only": ("4", "hint.not_trimmed"),
    "rsplit_replace_end": ("4", "hint.split_index"),
    "sanitised_content_keyerror": ("x2", "hint.unknown_role"),
    "split_one_stop_end": ("4", "hint.split_index"),
    "stop_strings_without_system": ("6", "hint.no_cut_system"),
    "turn_template_without_system": ("2", "hint.system_dropped"),
    "windows_lines_stripped": ("1", "hint.crlf"),
    "zephyr_template": ("1", "hint.end_mark_in_prompt"),
}


# folder of tests/students -> (its table, the cases its files are judged on: expected.FOLDERS)
TABLES = {
    folder: (table, expected.FOLDERS[folder])
    for folder, table in (
        ("wrong", MISTAKES),
        ("wrong_full", EXTENDED_MISTAKES),
        ("wrong_multi", MULTI_MISTAKES),
        ("wrong_trim", TRIM_MISTAKES),
        ("wrong_rewrite", REWRITE_MISTAKES),
    )
}
ENTRIES = [(folder, name) for folder, (table, _) in TABLES.items() for name in sorted(table)]


def test_the_benchmark_class_leaves_out_exactly_the_wrong_files_that_hang():
    from tests.bench import HANGING

    hang = {
        name
        for folder in ("wrong", "wrong_full", "wrong_multi")
        for name, (_, hint) in TABLES[folder][0].items()
        if hint in ("hint.timeout", "hint.timeout_prompt")
    }
    assert set(HANGING) == hang


def test_every_wrong_file_is_in_its_table():
    for folder, (table, _) in TABLES.items():
        assert {p.stem for p in (STUDENTS / folder).glob("*.py")} == set(table), folder


@functools.lru_cache(maxsize=None)
def verdicts_of(folder: str, name: str) -> dict:
    """The verdicts of one wrong submission, judged once for all the tests that read them."""
    return judged(STUDENTS / folder / f"{name}.py", cases=TABLES[folder][1])


@pytest.mark.parametrize("folder, name", ENTRIES, ids=[f"{folder}/{name}" for folder, name in ENTRIES])
def test_mistake_fails_exactly_its_cases_and_the_named_one_gives_its_hint(folder, name):
    named, hint = TABLES[folder][0][name]
    verdicts = verdicts_of(folder, name)
    assert failing(verdicts) == expected.failing_of(folder, name), f"run {expected.COMMAND} if the spec changed"
    assert verdicts[named].hint == hint


def breaks(path) -> list:
    """The rules a wrong submission breaks, from the `Breaks:` line of its docstring: the rule of the first
    case it fails, then any others."""
    found = re.search(rb"^Breaks: (.+)$", path.read_bytes(), re.M)
    assert found, f"{path.name} does not say which rule it breaks"
    return [rule.strip() for rule in found.group(1).decode().split(",")]


def cited(sentence: str) -> set:
    """What a hint points at: rules (F1–F3 counts F2), sections (1.5.2) and common mistakes ("mistake 1")."""
    found = set(re.findall(r"\b1\.5\.\d\b", sentence))
    found |= {f"mistake {n}" for n in re.findall(r"(?:常见错误|common mistake) (\d+)", sentence)}
    for first, last in re.findall(r"\b([EFT]\d)(?:–([EFT]\d))?\b", sentence):
        last = last or first
        found |= {f"{first[0]}{n}" for n in range(int(first[1]), int(last[1]) + 1)}
    return found


def test_cited_reads_ranges_lists_sections_and_common_mistakes():
    assert cited("(TASK.md 1.5.2 规则 F1–F3)") == {"1.5.2", "F1", "F2", "F3"}
    assert cited("(TASK.en.md 1.5.3, rules E2, E3)") == {"1.5.3", "E2", "E3"}
    assert cited("(TASK.md 常见错误 11)") == cited("(TASK.en.md, common mistake 11)") == {"mistake 11"}


CATALOGUE = [
    (folder, path.stem)
    for folder in ("wrong", "wrong_full", "wrong_multi")
    for path in sorted((STUDENTS / folder).glob("*.py"))
]


def test_the_catalogue_holds_at_least_40_mistakes_in_the_six_and_every_common_mistake_of_task_md():
    assert len(list((STUDENTS / "wrong").glob("*.py"))) >= 40
    assert sorted(COMMON_MISTAKES) == common_mistakes(TASK)
    assert {name for names in COMMON_MISTAKES.values() for name in names} <= set(MISTAKES)


@pytest.mark.parametrize("folder, name", CATALOGUE, ids=[name for _, name in CATALOGUE])
def test_the_first_hint_a_student_reads_cites_the_rule_the_mistake_breaks(folder, name, monkeypatch):
    verdicts = verdicts_of(folder, name)
    first = next(verdict for verdict in verdicts.values() if not verdict.passed)  # in the order make test prints
    rule = breaks(STUDENTS / folder / f"{name}.py")[0]
    for language in ("zh", "en"):
        monkeypatch.setenv("LAB_LANG", language)
        hint = render.hint_text(first)
        assert rule in cited(hint), f"[{language}] TEST {first.case.id} of {name} breaks {rule}; hint: {hint}"


@functools.lru_cache(maxsize=None)
def every_check_of(folder: str, name: str) -> list:
    """The verdicts of every check a wrong submission meets in grading: the six, the extended, property and
    generated checks (drawn for one student id, with the default scheme)."""
    from labkit.instructor import config

    scheme = config.load()
    graded = InputSource(student=name, secret=scheme.secret, count=scheme.generated_count)
    with StudentRun(STUDENTS / folder / f"{name}.py", display=f"{name}.py", limits=QUICK) as student:
        verdicts = [assess.verdict(student, case) for case in TABLE + LAB.in_group("properties")]
        return verdicts + [assess.verdict(student, case, graded) for case in LAB.in_group("generated")]


def own_rules(rules: list, function: str) -> set:
    """Of the rules a file breaks, those a check of `function` can be about: F for format_prompt, E for
    extract_response, and the sections and common mistakes, which concern both."""
    letter = {"format_prompt": "F", "extract_response": "E"}[function]
    return {rule for rule in rules if rule[0] == letter or not re.fullmatch(r"[EF]\d", rule)}


@pytest.mark.parametrize("folder, name", CATALOGUE, ids=[name for _, name in CATALOGUE])
def test_every_failing_check_names_a_rule_the_file_breaks_and_no_range(folder, name, monkeypatch):
    """Not only the first hint: every check a file fails, table or drawn, tells the rule its output breaks at
    the first difference, in both languages; a range ("F1–F4") is what a check says when it knows nothing
    more precise, and for these mistakes something more precise is always true."""
    rules = breaks(STUDENTS / folder / f"{name}.py")
    failed = [verdict for verdict in every_check_of(folder, name) if not verdict.passed]
    assert failed
    for verdict in failed:
        for language in ("zh", "en"):
            monkeypatch.setenv("LAB_LANG", language)
            hint = render.hint_text(verdict)
            where = f"[{language}] {verdict.case.id} of {name} (breaks {', '.join(rules)}): {hint}"
            assert own_rules(rules, verdict.case.function) & cited(hint), where
            assert not re.search(r"[EFT]\d–[EFT]\d", hint), where


@pytest.mark.parametrize("name", NAMED_IN_EVERY_FAILING_CASE)
def test_a_slip_in_the_shape_of_the_result_is_named_in_every_case_it_fails(name):
    verdicts = verdicts_of("wrong", name)
    assert {verdict.hint for verdict in verdicts.values() if not verdict.passed} == {MISTAKES[name][1]}


@pytest.mark.parametrize("name", expected.BOUNDARY)
def test_a_reply_not_cut_at_a_boundary_is_named_in_every_check_it_fails(name):
    """A reply not cut at a boundary gets E3's hint for that tag in the extended and property checks too (a
    reply left with <|end|> once got F1's hint about <|end|> in a prompt, which the class report then
    ranked as the class's top mistake)."""
    with StudentRun(STUDENTS / "wrong" / f"{name}.py", display=f"{name}.py", limits=QUICK) as student:
        verdicts = {case.id: assess.verdict(student, case) for case in expected.EXTRACTS}
    assert failing(verdicts) == expected.failing_of("boundary", name), f"run {expected.COMMAND} if the spec changed"
    assert {verdict.hint for verdict in verdicts.values() if not verdict.passed} == {MISTAKES[name][1]}


def test_empty_reply_is_called_not_implemented_only_where_that_is_plausible():
    """A stub-like empty prompt may be unwritten; an empty reply after a passed TEST 4 is named as a cut."""
    stub = judged(STUB)
    assert [stub[i].hint for i in "123"] == ["hint.returned_empty"] * 3
    forgot = verdicts_of("wrong", "forgot_tag_length")
    assert forgot["4"].passed and forgot["5"].facts["actual"] == ""
    assert forgot["5"].hint == "hint.empty_reply" != "hint.returned_empty"


def test_challenge_stub_fails_everything_and_the_reference_passes():
    assert failing(judged(STUB, cases=CHALLENGE)) == {case.id for case in CHALLENGE}
    assert failing(judged(SOLUTION, cases=CHALLENGE)) == set()
    assert failing(judged(STUB)) == {case.id for case in LAB.selected("test")}  # the optional function changes nothing


@pytest.mark.parametrize("path", sorted((STUDENTS / "correct").glob("*.py")) + [SOLUTION], ids=lambda p: p.stem)
def test_correct_styles_pass_the_six_and_every_extended_check(path):
    assert failing(judged(path, cases=TABLE)) == set()


def test_at_least_five_correct_styles():
    assert len(list((STUDENTS / "correct").glob("*.py"))) >= 5


def test_stub_fails_all_six_cleanly():
    verdicts = judged(STUB)
    assert failing(verdicts) == {case.id for case in LAB.selected("test")}
    assert {v.problem for v in verdicts.values()} == {"wrong_value"}  # returned "", no crash


def test_a_wrong_value_records_expected_and_actual():
    verdict = judged(STUDENTS / "wrong" / "first_not_last.py")["5"]
    assert (verdict.facts["expected"], verdict.facts["actual"], verdict.example) == ("3", "2", 0)


# --- the findings of issue 18 (hints on every check), each as it was reported --------------------------


def test_the_shrinker_never_cuts_a_string_into_the_characters_of_a_tag():
    """A reply shrunk to ">" next to a real tag reads as the tag's last character, so a file that took the
    first <|assistant|> was told it forgot `+ len(ASSISTANT_TAG)`: no candidate may begin with the end of a
    tag or end with the start of one unless the string itself did."""
    from lab09.draws import INPUTS

    for text in ("ok>", "x|>y", "ab<", "a<|b", "好的r|>"):
        for candidate in INPUTS["p3"].smaller(text):
            assert not candidate.startswith((">", "|>")) or text.startswith((">", "|>")), (text, candidate)
            assert not candidate.endswith(("<", "<|")) or text.endswith(("<", "<|")), (text, candidate)
    assert "|>" in list(INPUTS["p3"].smaller("|>x"))  # a piece drawn that way may keep its edge


def test_an_input_two_slips_explain_alike_is_told_apart_by_the_other_answers():
    """`<|assistant|>\\n>\\n<|assistant|>` → ">": the first <|assistant|> taken, or a slice one character early
    from the last one.  The judge lists both; the check's other answers (those of the same file) decide."""
    from lab09 import mistakes
    from labkit.spec import Example

    case = LAB.check("p3")
    shown = Example(("<|assistant|>\n>\n<|assistant|>",), "")
    assert {"hint.first_not_last", "hint.tag_text_left"} <= set(mistakes.explanations(shown, ">"))
    # the same file on two more outputs: it keeps taking the first reply
    others = [
        (Example(("<|user|>\nhi\n<|assistant|>\nA\n<|user|>\nmore\n<|assistant|>\nB",), "B"), "A"),
        (Example(("<|assistant|>\nok\n<|assistant|>\nlast",), "last"), "ok"),
    ]
    assert mistakes.DETECTORS.wrong_value(case, shown, ">", others) == "hint.first_not_last"


@pytest.mark.parametrize(
    "history, actual",
    [
        ([("user", "a"), ("assistant", "b")], "<|user|>\na\n<|assistant|>\n<|assistant|>\nB\n<|assistant|>\n"),
        ([("user", "a"), ("assistant", "")], "<|user|>\na\n<|assistant|>\n<|assistant|>\n\n<|assistant|>\n\n"),
        ([("user", "a"), ("user", "b")], "<|user|>\na\n<|assistant|>\n<|user|>\n b\n<|assistant|>\n"),
        ([("system", "s"), ("user", "a"), ("system", "t")], "<|system|>\ns\n<|user|>\na\n<|assistant|>\n<|system|>\nt"),
    ],
    ids=["assistant", "empty assistant", "user", "system"],
)
def test_a_generation_line_after_a_user_message_is_named_by_f3_whatever_follows(history, actual):
    """Issue 26: a prompt with an <|assistant|> line after every user message was told "write content verbatim"
    (x5) or "the messages are out of order" (p1, g1): its first difference lies in the tag line after a user
    message, or in an assistant's content, whose tag line the generation line looks like.  F3 names it, whatever
    the prompt gets wrong after it (here another slip each, so no replay of the slip gives the output)."""
    from lab09 import mistakes
    from labkit.spec import Example

    messages = [{"role": role, "content": content} for role, content in history]
    example = Example((messages,), judged_reference("format_prompt", messages))
    assert mistakes.DETECTORS.wrong_value(LAB.check("p1"), example, actual) == "hint.generation_after_every_user"


def judged_reference(function: str, *args):
    """What the reference solution returns for `args`."""
    from labkit.assess import lab_reference

    return getattr(lab_reference(), function)(*args)


def test_a_drawn_check_shows_the_mistake_it_found_not_a_look_alike():
    """End to end: the file that takes the first <|assistant|> gets E2's hint about the first tag on p3."""
    with StudentRun(STUDENTS / "wrong" / "first_not_last.py", display="first_not_last.py", limits=QUICK) as student:
        p3 = assess.verdict(student, LAB.check("p3"))
    assert not p3.passed and p3.hint == "hint.first_not_last"
    [output] = p3.case.examples[0].args
    assert not any(piece.strip().startswith((">", "|>")) for piece in output.split(ASSISTANT_TAG)[1:])


@pytest.mark.parametrize(
    "raised, given, rule",
    [
        ({"type": "ValueError", "message": "substring not found"}, "  no tag here  ", "E1"),
        ({"type": "IndexError", "message": "list index out of range"}, "plain text", "E1"),
        ({"type": "TypeError", "message": "unsupported operand"}, "plain text", "E1"),
        ({"type": "IndexError", "message": "list index out of range"}, "<|user|>\nhi\n<|assistant|>", "E3"),
        ({"type": "IndexError", "message": "list index out of range"}, "<|user|>\nhi\n<|assistant|>\nok", "E3"),
        ({"type": "ValueError", "message": "substring not found"}, "<|user|>\nhi\n<|assistant|><|end|>", "E4"),
        ({"type": "KeyError", "message": "'system'"}, [{"role": "system", "content": "x"}], "F2"),
        ({"type": "IndexError", "message": "list index out of range"}, [], "F3"),
        ({"type": "IndexError", "message": "string index out of range"}, [{"role": "user", "content": ""}], "F1"),
    ],
)
def test_an_exception_is_named_by_the_rule_of_the_input_it_broke_on(raised, given, rule, monkeypatch):
    """A crash is the slip of the input's shape: E1 for an output without <|assistant|>, E3 for a reply that
    is empty or has no boundary after it, F2 for a role missing from a table, F3 for an empty history."""
    from lab09.mistakes import DETECTORS
    from labkit import i18n, judge as judging

    function = "extract_response" if isinstance(given, str) else "format_prompt"
    key = judging.exception_hint(raised, function, given, DETECTORS)
    for language in ("zh", "en"):
        assert rule in cited(i18n.text(key, language)), (key, language)


def test_none_is_named_by_the_branch_of_the_input_that_returned_it():
    from lab09 import mistakes as judging

    assert judging._none_hint("extract_response", "plain", "plain") == "hint.none_no_tag"
    assert judging._none_hint("extract_response", "<|assistant|>\nhi", "hi") == "hint.none_no_boundary"
    assert judging._none_hint("extract_response", "<|assistant|><|end|>", "") == "hint.none_empty_reply"
    assert judging._none_hint("format_prompt", [], "<|assistant|>\n") == "hint.none_empty_history"
    assert judging._none_hint("format_prompt", [{"role": "user", "content": "x"}], "") == "hint.none_returned"


def test_the_exceptions_every_lab_names_alike_come_before_the_labs_detectors():
    """The judge names an exit, a recursion, input() or an import of the given module by itself, before the
    lab's detectors read the input's shape (a RecursionError in extract_response is a recursion, not E1); what
    the lab's detectors name, a lab without them leaves to the judge's general hint."""
    from lab09.mistakes import DETECTORS
    from labkit.judge import NO_DETECTORS, exception_hint

    for detectors in (DETECTORS, NO_DETECTORS):
        assert (
            exception_hint(
                {"type": "RecursionError", "message": "maximum recursion depth exceeded"},
                "extract_response",
                "plain text",
                detectors,
            )
            == "hint.recursion"
        )
        assert (
            exception_hint(
                {"type": "ModuleNotFoundError", "message": "No module named 'tags'"}, "format_prompt", [], detectors
            )
            == "hint.import_tags"
        )
    by_key = {"type": "AttributeError", "message": "'dict' object has no attribute 'role'"}
    assert exception_hint(by_key, "format_prompt", [{"role": "user", "content": "x"}], DETECTORS) == "hint.dict_access"
    assert exception_hint(by_key, "", None, DETECTORS) == "hint.dict_access"  # at load too
    assert exception_hint(by_key, "format_prompt", [{"role": "user", "content": "x"}], NO_DETECTORS) == "hint.raised"

"""选做 2, query rewriting: the reference passes, the stub fails, never part of the grade (the wrong rewrites
are in test_mistakes.py's tables)."""

from conftest import LAB, SOLUTION, STUB, STUDENTS, TABLE, failing, judged, make
from lab09.examples import REWRITE_INSTRUCTION, REWRITE_LABELS

REWRITE = tuple(case for case in LAB.selected("challenge") if case.section == "rewrite")


def test_the_stub_fails_every_rewrite_case_and_the_reference_passes():
    assert failing(judged(STUB, cases=REWRITE)) == {case.id for case in REWRITE}
    assert failing(judged(SOLUTION, cases=REWRITE)) == set()


def test_the_rewrite_cases_never_count_in_make_test_or_the_grade():
    rewrite = {case.id for case in REWRITE}
    assert not rewrite & {case.id for case in TABLE} and rewrite <= {case.id for case in LAB.selected("challenge")}
    assert {LAB.points(case) for case in REWRITE} == {0}


def test_the_students_file_carries_the_protocols_fixed_text():
    for path in (STUB, SOLUTION):
        source = path.read_text(encoding="utf-8")
        assert f'REWRITE_INSTRUCTION = "{REWRITE_INSTRUCTION}"' in source
        assert "REWRITE_LABELS = {" + ", ".join(f'"{k}": "{v}"' for k, v in REWRITE_LABELS.items()) + "}" in source


def test_make_challenge_on_the_stub_fits_on_one_screen():
    result = make("challenge")
    lines = result.stdout.splitlines()
    assert result.returncode != 0 and len(lines) <= 41, result.stdout  # 40, and the line naming the file tested
    assert sum(line.startswith("[TEST ") for line in lines) == len(LAB.selected("challenge"))
    explained = [line for line in lines if line.strip().startswith("提示:")]
    assert len(explained) == 3  # the first failure of each optional function, in full; the rest one line each


def test_a_missing_optional_function_is_said_once_for_its_group():
    result = make("challenge", f"STUDENT={STUDENTS / 'correct' / 'split.py'}")
    for function in ("trim_history", "rewrite_messages", "clean_rewrite"):
        assert result.stdout.count(f"没有函数 {function}") == 1, result.stdout


def test_list_results_mark_their_first_differing_item():
    result = make("challenge", f"STUDENT={STUDENTS / 'wrong_trim' / 'keeps_other_roles.py'}")
    block = result.stdout.split("[TEST c4]")[1].split("[TEST c5]")[0]
    marked = [line for line in block.splitlines() if line.endswith("← 第 3 项起不同")]
    assert [line.split("← ")[0].strip() for line in marked] == [
        '{"role": "assistant", "content": "晴，21°C。"},',
        '{"role": "retrieval", "content": "检索结果: 晴，21°C"},',
    ]
    assert "… 前 1 项两边相同" in block and "… 后面还有 1 项" in block

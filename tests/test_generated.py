"""Checks on drawn inputs: per-student generated checks, property checks, shrinking, and the grade they give."""

import json
import shutil
from dataclasses import replace

import pytest

from conftest import QUICK, SOLUTION, STUB, STUDENTS, TABLE
from lab09 import generators, properties
from labkit import render
from labkit.drawn import SHRINK_CALLS, explore, specimens
from labkit.run.engine import StudentRun
from lab09 import generated
from labkit.instructor import config
from labkit.instructor.grade import course_settings, grade_folder

LIMITS = replace(QUICK, load_seconds=3.0, submission_seconds=60.0)
SCHEME = config.load()
SECRET = SCHEME.secret
HELD_OUT = sorted((STUDENTS / "held_out").glob("*.py"))
DRAWN = ("p1", "p2", "p3", "p4", "g1", "g2", "g3")


class CountingRun(StudentRun):
    """A StudentRun that counts the calls made outside the case table (every drawn input is one), alone or
    in a batch (counting those that were made: a batch stops at the first call with no record)."""

    calls = 0

    def call(self, function, args):
        self.calls += 1
        return super().call(function, args)

    def call_many(self, function, arg_lists):
        results = super().call_many(function, arg_lists)
        self.calls += len(results)
        return results


# --- the inputs ---------------------------------------------------------------------------------------

def test_each_student_gets_their_own_inputs_and_a_rerun_the_same_ones():
    alice, bob = (generated.drawn_inputs(name, SECRET, SCHEME.generated_count) for name in ("alice", "bob"))
    assert alice == generated.drawn_inputs("alice", SECRET, SCHEME.generated_count)
    assert all(alice[check] != bob[check] for check in ("g1", "g2", "g3"))
    fingerprints = [generated.fingerprint(name, SECRET, SCHEME.generated_count) for name in ("alice", "bob", "alice")]
    assert fingerprints[0] != fingerprints[1] and fingerprints[0] == fingerprints[2]
    assert generated.drawn_inputs("alice", "another course", SCHEME.generated_count) != alice
    assert sum(len(inputs) for inputs in alice.values()) >= SCHEME.generated_count * 3 // 4  # few duplicates


def test_drawn_inputs_cover_the_protocol_and_stay_inside_it():
    inputs = generated.drawn_inputs("alice", SECRET, SCHEME.generated_count)
    histories = inputs["g1"]
    assert all(generators.known_tag_free(history) for history in histories)
    assert [] in histories and max(len(history) for history in histories) >= 12
    texts = "".join(content for history in histories for _, content in history)
    for wanted in (" ", "\t", "\r\n", "\u3000", "😀", "你好", "<|user", "<|USER|>"):
        assert wanted in texts, wanted
    assert {role for history in histories for role, _ in history} == set(generators.ROLES)
    assert all(generators.one_unknown(history) for history in inputs["g2"])
    outputs = ["".join(pieces) for pieces in inputs["g3"]]
    assert any(output.count(generators.ASSISTANT_TAG) >= 2 for output in outputs)
    assert any(generators.ASSISTANT_TAG not in output for output in outputs)
    assert any("\r\n" in output for output in outputs)
    for tag in generators.TAGS:  # every kind of boundary turns up after a reply has begun
        assert any(tag in output[output.find(generators.ASSISTANT_TAG) + 1:]
                   for output in outputs if generators.ASSISTANT_TAG in output), tag


def test_property_inputs_have_no_answer_key_but_the_rules():
    for prop in properties.PROPERTIES:
        drawn = list(specimens(prop, generators.seed_of("lab09", "properties", prop.case.id)))
        assert len(drawn) >= prop.count * 3 // 4 and all(prop.valid(specimen) for specimen in drawn)
    p3 = properties.PROPERTIES[2]
    drawn = list(specimens(p3, generators.seed_of("lab09", "properties", "p3")))
    assert {tail[0] for *_, tail in drawn if tail} == set(generators.CUTS)
    assert any(not tail and not reply.strip() and newline for _, newline, reply, tail in drawn)  # prompt alone: ""
    assert any(not newline and reply[:1].strip() for _, newline, reply, _ in drawn)  # written right after the tag


def test_shrinking_cuts_items_then_characters_and_keeps_atoms_whole():
    candidates = list(generators.smaller([("user", "ab"), ("system", "")]))
    assert candidates[0] == [] and [("system", "")] in candidates and [("user", "b"), ("system", "")] in candidates
    assert all(generators.measure(c) < generators.measure([("user", "ab"), ("system", "")]) for c in candidates)
    assert not any(role not in generators.ROLES for c in candidates for role, _ in c)  # roles are never cut


# --- running them -------------------------------------------------------------------------------------

def test_a_failure_is_shrunk_to_the_smallest_input_and_shown_like_a_table_case():
    inputs = generated.drawn_inputs("alice", SECRET, SCHEME.generated_count)
    with CountingRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK) as student:
        verdict = explore(student, generated.GENERATED[0], inputs["g1"])
        assert student.calls <= verdict.facts["drawn"]["tried"] + SHRINK_CALLS
    [messages] = verdict.case.examples[0].args
    assert not verdict.passed and verdict.problem == "wrong_value" and verdict.hint == "hint.content_verbatim"
    assert len(messages) == 1 and len(messages[0]["content"]) == 1 and messages[0]["content"].isspace()
    assert verdict.facts["drawn"]["shrunk"] == "minimal"
    assert "化简后仍然出错的最小输入" in "\n".join(render.failure_lines(verdict, "strips_content.py"))
    again = explore(StudentRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK),
                    generated.GENERATED[0], inputs["g1"])
    assert again.case.examples == verdict.case.examples  # deterministic, shrinking included


def test_a_hang_costs_one_case_limit_and_ends_the_check():
    p3 = properties.PROPERTIES[2]
    with CountingRun(STUDENTS / "hostile" / "loop_in_call.py", limits=QUICK) as student:
        verdict = explore(student, p3, specimens(p3, 1))
        assert student.calls == 1
    assert verdict.problem == "timeout" and verdict.facts["drawn"]["tried"] == 1
    shown = "\n".join(render.failure_lines(verdict, "loop_in_call.py"))
    assert verdict.facts["drawn"]["shrunk"] == "stopped" and "不再化简" in shown and "最小输入" not in shown


def test_a_failure_that_does_not_depend_on_the_input_costs_two_calls_and_shows_the_smallest_input():
    """fills_every_bound returns a MiB-sized list whatever it is given, so every drawn input fails alike: the
    first input drawn is asked alone (not with the 31 others of its batch, 31 more such lists to check), and the
    shrinker tries the check's smallest input first and stops there (it had taken one greedy step per part of
    the input), with the verdict and hint the greedy steps gave.  A failure with a wrong value still gets the
    rest of its batch, whose answers tell its slips apart."""
    p3 = properties.PROPERTIES[2]
    large = ([("user", "hello there"), ("assistant", "hi"), ("user", "and you?")], "\n", "a long reply",
             ["<|user|>", "and more"])
    with CountingRun(STUDENTS / "hostile" / "fills_every_bound.py", limits=LIMITS) as student:
        verdict = explore(student, p3, [large, *specimens(p3, 1)])
        assert student.calls == 2  # was 32 + 4
    assert (verdict.problem, verdict.hint) == ("wrong_type", "hint.not_str")
    assert verdict.case.examples[0].args == (generators.reply_output(([], "", "", [])),)  # nothing is smaller
    assert verdict.facts["drawn"] == {"tried": 1, "shrunk": "minimal"}
    p1 = properties.PROPERTIES[0]
    inputs = list(specimens(p1, 1))
    with CountingRun(STUB, limits=LIMITS) as student:  # format_prompt returns "": a wrong value at once
        verdict = explore(student, p1, inputs)
        assert student.calls >= min(len(inputs), 32) and verdict.problem == "wrong_value"


@pytest.mark.parametrize("name, problem", [("os_exit_in_call", "crashed"), ("misspelt_function", "missing_function")])
def test_a_crash_or_a_missing_function_ends_the_check_at_once(name, problem):
    for case in properties.PROPERTY_CASES[2:]:  # p3, p4: extract_response
        with CountingRun(STUDENTS / "hostile" / f"{name}.py", limits=QUICK) as student:
            verdict = properties.run(student, case)
            assert student.calls == 1 and verdict.problem == problem


@pytest.mark.parametrize("path", HELD_OUT, ids=lambda p: p.stem)
def test_a_held_out_mistake_fails_a_drawn_check_with_a_small_counterexample(path):
    with StudentRun(path, limits=QUICK) as student:
        six = [properties.run(student, case) for case in TABLE[:6]]
        drawn = [properties.run(student, case) for case in properties.PROPERTY_CASES]
        drawn += generated.run(student, path.stem, SECRET, SCHEME.generated_count)
    assert all(verdict.passed for verdict in six)  # `make test` says 6 passed: only the drawn checks tell
    failed = [verdict for verdict in drawn if not verdict.passed]
    assert {verdict.case.suite for verdict in failed} == {"properties", "generated"}
    for verdict in failed:
        [argument] = verdict.case.examples[0].args
        assert len(json.dumps(argument, ensure_ascii=False)) <= 60, argument  # shrunk: one message, short text
        assert verdict.facts["drawn"]["tried"] >= 1


@pytest.mark.parametrize("path", sorted((STUDENTS / "wrong_full").glob("*.py")), ids=lambda p: p.stem)
def test_each_extended_mistake_fails_a_property_check_in_make_test_full_too(path):
    with StudentRun(path, limits=QUICK) as student:
        assert any(not properties.run(student, case).passed for case in properties.PROPERTY_CASES)


# --- the class: what cheating, honest and identical files score ----------------------------------------

def replay_source(extract_fallback: str, drawn: bool = False) -> str:
    """A file that answers every published input of the case table from a dict — with `drawn`, also every input
    the property checks draw from the handout's fixed seed, answered by each property's own expected-value
    function: everything the handout holds — and `extract_fallback` (an expression of `output`) for any other
    output; any other history gets ""."""
    table = {}
    answers = [(case.function, example) for case in TABLE for example in case.examples]
    if drawn:
        answers += [(prop.case.function, prop.demand(specimen)) for prop in properties.PROPERTIES
                    for specimen in specimens(prop, generators.seed_of("lab09", "properties", prop.case.id))]
    for function, example in answers:
        key = json.dumps([function, list(example.args)], ensure_ascii=False)
        table[key] = ["raise", example.mentions] if example.raises else ["return", example.expected]
    return (f"import json\nTABLE = json.loads({json.dumps(table, ensure_ascii=False)!r})\n\n\n"
            "def _answer(function, args):\n"
            "    kind, value = TABLE.get(json.dumps([function, args], ensure_ascii=False), ['return', None])\n"
            "    if kind == 'raise':\n        raise ValueError(value)\n    return value\n\n\n"
            "def format_prompt(messages):\n    found = _answer('format_prompt', [messages])\n"
            "    return '' if found is None else found\n\n\n"
            "def extract_response(output):\n    found = _answer('extract_response', [output])\n"
            f"    return ({extract_fallback}) if found is None else found\n")


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    root = tmp_path_factory.mktemp("drawn")
    folder = root / "class"
    folder.mkdir()
    for path in sorted((STUDENTS / "correct").glob("*.py")) + [SOLUTION]:
        shutil.copy(path, folder / f"correct_{path.stem}.py")
    (folder / "replays_the_table.py").write_text(replay_source('""'), encoding="utf-8")
    (folder / "replays_the_handout.py").write_text(replay_source('""', drawn=True), encoding="utf-8")
    naive = 'output.split("<|assistant|>")[-1].split("<|")[0].strip()'
    (folder / "replays_the_table_naive_extract.py").write_text(replay_source(naive), encoding="utf-8")
    for name in ("twin_a", "twin_b"):
        shutil.copy(STUDENTS / "wrong_full" / "strips_content.py", folder / f"{name}.py")
    shutil.copy(STUB, folder / "stub.py")
    outputs, course = [], course_settings(scheme=SCHEME)
    for run in ("first", "second"):
        records = grade_folder(folder, root / run, LIMITS, jobs=2, course=course).records
        outputs.append({p.relative_to(root / run): p.read_bytes() for p in sorted((root / run).rglob("*"))
                        if p.is_file()})
    return {record["student"]: record for record in records}, outputs


def test_every_correct_style_scores_full_marks(graded_class):
    records, _ = graded_class
    correct = {name: record["score"] for name, record in records.items() if name.startswith("correct_")}
    assert len(correct) >= 7 and set(correct.values()) == {SCHEME.max_score}, correct


def test_replaying_the_published_table_scores_at_most_half(graded_class):
    records, _ = graded_class
    replay, naive = records["replays_the_table"], records["replays_the_table_naive_extract"]
    assert all(replay["cases"][case.column]["passed"] for case in TABLE)  # every published pair is right…
    assert replay["score"] <= SCHEME.max_score // 2  # …and that is worth half at most
    assert naive["score"] < SCHEME.max_score and records["stub"]["score"] == 0


def test_a_lookup_table_of_everything_the_handout_holds_scores_at_most_half(graded_class, tmp_path):
    """Issue 15, finding 6: the property checks drew from a seed that ships in the handout, so a table of their
    inputs and each property's own expected values scored 30 + 20 + 20.  Graded, they draw per student."""
    records, _ = graded_class
    table = tmp_path / "student.py"
    table.write_text(replay_source('""', drawn=True), encoding="utf-8")
    with StudentRun(table, limits=QUICK) as student:  # it does pass everything make test-full runs…
        assert all(properties.run(student, case).passed for case in TABLE + properties.PROPERTY_CASES)
    replay = records["replays_the_handout"]
    assert all(replay["cases"][case.column]["passed"] for case in TABLE)
    assert not any(replay["cases"][case.column]["passed"] for case in properties.PROPERTY_CASES)
    assert replay["score"] <= SCHEME.max_score // 2  # …and that is worth half at most


def test_graded_property_checks_draw_for_each_student_and_make_test_full_its_own():
    drawn = {student: [specimens(prop, properties.seed_for(prop.case.id, SECRET, student)) for prop in
                       properties.PROPERTIES] for student in ("alice", "bob")}
    alice, bob = ([list(inputs) for inputs in drawn[student]] for student in ("alice", "bob"))
    handout = [properties._inputs(prop.case.id) for prop in properties.PROPERTIES]
    assert all(a != b and a != h and b != h for a, b, h in zip(alice, bob, handout))
    assert all(len(a) >= prop.count * 3 // 4 for a, prop in zip(alice, properties.PROPERTIES))  # as many, others
    with StudentRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK) as student:
        full = properties.run(student, properties.PROPERTY_CASES[0])
        graded = properties.run(student, properties.PROPERTY_CASES[0], drawn_for=(SECRET, "alice"))
    assert not full.passed and not graded.passed and full.case.examples != graded.case.examples
    assert full.case.section == "properties" and graded.case.section == properties.GRADED_SECTION


def test_a_rerun_is_byte_identical_and_twins_get_different_inputs(graded_class):
    records, (first, second) = graded_class
    assert first == second
    twin_a, twin_b = records["twin_a"], records["twin_b"]
    assert twin_a["generated_inputs"] != twin_b["generated_inputs"] and twin_a["generated_inputs"]
    assert twin_a["score"] == twin_b["score"] < SCHEME.max_score
    inputs = [record["generated_inputs"] for record in records.values()]
    assert len(set(inputs)) == len(inputs)  # every student their own inputs

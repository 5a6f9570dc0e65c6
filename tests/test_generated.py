"""Checks on drawn inputs: per-student generated checks, property checks, shrinking, and the grade they give.

Lab09's drawn checks, but for two tests: the toy lab (tests/toylab/) declares no drawn check of its own, so a check
drawn for it here (TOY_TOKENS) shows that drawing, shrinking and the fixed seeds are the core's, not Lab09's; and
every lab of conftest.LABS has its fixed inputs as make tables writes them."""

import difflib
import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import LAB, QUICK, SOLUTION, STUB, STUDENTS, TABLE, use_lab
from lab09 import draws as lab_draws
from labkit import assess, render
from labkit.assess import InputSource, inputs_of, lab_reference
from labkit.drawn import SHRINK_CALLS, Inputs, explore, fill, follow, measure, seed_of, specimens
from labkit.run.engine import StudentRun
from labkit.spec import DrawnCheck, Example
from labkit.instructor import config, fixed_inputs
from labkit.instructor.class_run import ClassOptions, grade_folder
from labkit.instructor.config import course_settings

LIMITS = replace(QUICK, load_seconds=3.0, submission_seconds=60.0)
SCHEME = config.load()
SECRET = SCHEME.secret
HELD_OUT = sorted((STUDENTS / "held_out").glob("*.py"))
DRAWN = ("p1", "p2", "p3", "p4", "g1", "g2", "g3")
PROPERTY_CASES, GENERATED_CASES = LAB.in_group("properties"), LAB.in_group("generated")
P1, P3 = PROPERTY_CASES[0], PROPERTY_CASES[2]


def drawn_inputs(student_id: str, secret: str = SECRET) -> dict:
    """case id -> every input drawn for this student's generated checks, in the order they are tried."""
    draws = InputSource(student=student_id, secret=secret, count=SCHEME.generated_count)
    return {check.id: list(draws.inputs(check)) for check in GENERATED_CASES}


def fixed_examples(check) -> list:
    """The examples of `make test-full`'s fixed inputs of the drawn check `check`: each input with what the check
    demands of it, from what the lab keeps of the reference's word on it (the handout's data)."""
    inputs, stencils = inputs_of(check), InputSource().stencils(check)
    return [
        inputs.demand(specimen, fill(stencils[repr(specimen)], specimen) if inputs.consult else None)
        for specimen in InputSource().inputs(check)
    ]


def fingerprint(student_id: str) -> str:
    return InputSource(student=student_id, secret=SECRET, count=SCHEME.generated_count).fingerprint(SCHEME.checks)


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
    alice, bob = (drawn_inputs(name) for name in ("alice", "bob"))
    assert alice == drawn_inputs("alice")
    assert all(alice[check] != bob[check] for check in ("g1", "g2", "g3"))
    fingerprints = [fingerprint(name) for name in ("alice", "bob", "alice")]
    assert fingerprints[0] != fingerprints[1] and fingerprints[0] == fingerprints[2]
    assert drawn_inputs("alice", "another course") != alice
    assert sum(len(inputs) for inputs in alice.values()) >= SCHEME.generated_count * 3 // 4  # few duplicates


def test_a_generated_check_draws_only_for_a_student():
    """Generated checks have no fixed inputs: asked without a student (make test-full's draws) they refuse,
    rather than pass on no input at all; their number of inputs is their share of the course's count."""
    with pytest.raises(ValueError, match="g1"):
        InputSource().number(GENERATED_CASES[0])
    shares = [InputSource(student="alice", secret=SECRET, count=200).number(check) for check in GENERATED_CASES]
    assert shares == [50, 20, 130] and [InputSource().number(check) for check in PROPERTY_CASES] == [20, 8, 32, 20]


def test_drawn_inputs_cover_the_protocol_and_stay_inside_it():
    inputs = drawn_inputs("alice")
    histories = inputs["g1"]
    assert all(lab_draws.known_tag_free(history) for history in histories)
    assert [] in histories and max(len(history) for history in histories) >= 12
    texts = "".join(content for history in histories for _, content in history)
    for wanted in (" ", "\t", "\r\n", "\u3000", "😀", "你好", "<|user", "<|USER|>"):
        assert wanted in texts, wanted
    assert {role for history in histories for role, _ in history} == set(lab_draws.ROLES)
    assert all(lab_draws.one_unknown(history) for history in inputs["g2"])
    outputs = ["".join(pieces) for pieces in inputs["g3"]]
    assert any(output.count(lab_draws.ASSISTANT_TAG) >= 2 for output in outputs)
    assert any(lab_draws.ASSISTANT_TAG not in output for output in outputs)
    assert any("\r\n" in output for output in outputs)
    for tag in lab_draws.TAGS:  # every kind of boundary turns up after a reply has begun
        assert any(
            tag in output[output.find(lab_draws.ASSISTANT_TAG) + 1 :]
            for output in outputs
            if lab_draws.ASSISTANT_TAG in output
        ), tag


def test_property_inputs_have_no_answer_key_but_the_rules():
    for prop in PROPERTY_CASES:
        inputs = inputs_of(prop)
        drawn = list(specimens(inputs, seed_of(LAB.id, "properties", prop.id), inputs.count))
        assert drawn == list(InputSource().inputs(prop))  # make test-full's: the handout's fixed seed
        assert len(drawn) >= inputs.count * 3 // 4 and all(inputs.valid(specimen) for specimen in drawn)
    drawn = list(specimens(inputs_of(P3), seed_of("lab09", "properties", "p3"), inputs_of(P3).count))
    assert {tail[0] for *_, tail in drawn if tail} == set(lab_draws.CUTS)
    assert any(not tail and not reply.strip() and newline for _, newline, reply, tail in drawn)  # prompt alone: ""
    assert any(not newline and reply[:1].strip() for _, newline, reply, _ in drawn)  # written right after the tag


# --- make test-full's fixed inputs: data the handout keeps ------------------------------------------------


def test_every_labs_fixed_inputs_are_what_make_tables_writes(lab):
    """Each lab's fixed-inputs module is current, not only Lab09's: Lab10's kept a header the generator no longer
    writes (make tables LAB=lab10 rewrote it, and nothing said so)."""
    found = fixed_inputs.stale(lab)
    assert found is None, f"{fixed_inputs.module_path(lab)}: stale, run make tables LAB={lab.id}"


def test_the_fixed_inputs_the_handout_keeps_are_what_the_draws_and_the_reference_give():
    """lab09/fixed_inputs.py holds make test-full's inputs of every drawn check on fixed inputs and what the reference
    says of each; a draw, a count, the seed or the solution changed without `make tables` fails here, with the
    diff make tables would apply."""
    found = fixed_inputs.stale(LAB)
    if found is not None:
        now, wanted = found
        diff = difflib.unified_diff(
            now.splitlines(keepends=True),
            wanted.splitlines(keepends=True),
            "lab09/fixed_inputs.py (now)",
            "lab09/fixed_inputs.py (make tables)",
        )
        pytest.fail("lab09/fixed_inputs.py: stale, run make tables\n" + "".join(list(diff)[:60]), pytrace=False)
    assert [check.id for check in fixed_inputs.fixed_checks(LAB)] == [check.id for check in PROPERTY_CASES]
    kept = fixed_inputs.current(LAB)
    assert all(stencil is None for _, stencil in kept["p2"] + kept["p4"])  # they consult nothing
    assert all(stencil is not None for _, stencil in kept["p1"] + kept["p3"])


def test_make_tables_rewrites_stale_fixed_inputs_and_then_finds_them_current(tmp_path):
    (tmp_path / "lab09").mkdir()
    lab = replace(LAB, root=tmp_path)
    assert fixed_inputs.stale(lab)[0] == ""  # missing
    (tmp_path / "lab09" / "fixed_inputs.py").write_text(
        (LAB.root / "lab09" / "fixed_inputs.py").read_text(encoding="utf-8").replace("<|user|>", "<|User|>", 1),
        encoding="utf-8",
    )
    now, wanted = fixed_inputs.stale(lab)
    assert "<|User|>" in now and "<|User|>" not in wanted
    assert fixed_inputs.write(lab) == ["lab09/fixed_inputs.py"] and fixed_inputs.stale(lab) is None
    assert fixed_inputs.write(lab) == []
    assert (tmp_path / "lab09" / "fixed_inputs.py").read_bytes() == (
        LAB.root / "lab09" / "fixed_inputs.py"
    ).read_bytes()
    ran = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.fixed_inputs"],
        cwd=LAB.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (ran.returncode, ran.stdout) == (0, "tables: lab09/fixed_inputs.py is current\n")
    ran = subprocess.run(
        [sys.executable, "-m", "labkit.instructor.fixed_inputs", "--write"],
        cwd=LAB.root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (ran.returncode, ran.stdout) == (0, "")  # make tables has said its tables are current: nothing to add


def test_what_the_handout_keeps_follows_every_chain_of_cuts_shrinking_can_make():
    """Shrinking a fixed input's failure takes cut after cut; the kept stencil, followed along, must give at each
    step what the reference gives for the input reached (here: random chains of valid cuts from every fixed input,
    down to the smallest)."""
    rng, reference, steps = random.Random(7), lab_reference(), 0
    for check in PROPERTY_CASES:
        inputs = inputs_of(check)
        for kept, kept_stencil in assess.fixed_inputs(check) * 2:
            specimen, stencil = kept, kept_stencil
            while stencil is not None:
                options = [(candidate, cut) for candidate, cut in inputs.cuts_of(specimen) if inputs.valid(candidate)]
                if not options:
                    break
                specimen, cut = rng.choice(options)
                stencil = follow(stencil, cut)
                assert fill(stencil, specimen) == inputs.consult(specimen, reference), (check.id, kept, specimen)
                steps += 1
    assert steps >= 1000


def test_a_reference_string_that_cuts_cannot_follow_is_refused_when_kept():
    """Keeping a string as a stencil assumes each list item's text stands in one place, and each string is either
    copied or not used; a reference whose prompt put every system message first would break shrinking, and is
    refused by name rather than kept."""
    history = [("user", "a"), ("system", "b")]
    moved = lambda specimen, reference: "".join(  # noqa: E731
        f"<{role}>{content}" for role, content in sorted(specimen, key=lambda message: message[0] != "system")
    )
    with pytest.raises(fixed_inputs.Unfollowable, match="one after another"):
        fixed_inputs.stencil(history, lambda value: moved(value, None), lab_draws.ATOMIC)
    kept = fixed_inputs.stencil(history, lambda value: "".join(f"<{r}>{c}" for r, c in value), lab_draws.ATOMIC)
    assert kept == (((0,), "<user>"), ((0, 1), None), ((1,), "<system>"), ((1, 1), None))
    assert fill(follow(kept, ("items", (), 0, 1)), history[1:]) == "<system>b"


def test_shrinking_cuts_items_then_characters_and_keeps_atoms_whole():
    candidates = list(lab_draws.INPUTS["p1"].smaller([("user", "ab"), ("system", "")]))
    assert candidates[0] == [] and [("system", "")] in candidates and [("user", "b"), ("system", "")] in candidates
    assert all(measure(c) < measure([("user", "ab"), ("system", "")]) for c in candidates)
    assert not any(role not in lab_draws.ROLES for c in candidates for role, _ in c)  # roles are never cut


# --- running them -------------------------------------------------------------------------------------


def test_a_failure_is_shrunk_to_the_smallest_input_and_shown_like_a_table_case():
    g1 = GENERATED_CASES[0]
    inputs = drawn_inputs("alice")
    with CountingRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK) as student:
        verdict = explore(student, g1, inputs_of(g1), inputs["g1"], lab_reference())
        assert student.calls <= verdict.facts["drawn"]["tried"] + SHRINK_CALLS
    [messages] = verdict.case.examples[0].args
    assert not verdict.passed and verdict.problem == "wrong_value" and verdict.hint == "hint.content_verbatim"
    assert len(messages) == 1 and len(messages[0]["content"]) == 1 and messages[0]["content"].isspace()
    assert verdict.facts["drawn"]["shrunk"] == "minimal"
    assert "化简后仍然出错的最小输入" in "\n".join(render.failure_lines(verdict, "strips_content.py"))
    again = explore(
        StudentRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK),
        g1,
        inputs_of(g1),
        inputs["g1"],
        lab_reference(),
    )
    assert again.case.examples == verdict.case.examples  # deterministic, shrinking included


def test_a_hang_costs_one_case_limit_and_ends_the_check():
    with CountingRun(STUDENTS / "hostile" / "loop_in_call.py", limits=QUICK) as student:
        verdict = explore(student, P3, inputs_of(P3), specimens(inputs_of(P3), 1, inputs_of(P3).count), lab_reference())
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
    large = (
        [("user", "hello there"), ("assistant", "hi"), ("user", "and you?")],
        "\n",
        "a long reply",
        ["<|user|>", "and more"],
    )
    with CountingRun(STUDENTS / "hostile" / "fills_every_bound.py", limits=LIMITS) as student:
        verdict = explore(
            student, P3, inputs_of(P3), [large, *specimens(inputs_of(P3), 1, inputs_of(P3).count)], lab_reference()
        )
        assert student.calls == 2  # was 32 + 4
    assert (verdict.problem, verdict.hint) == ("wrong_type", "hint.not_str")
    assert verdict.case.examples[0].args == (lab_draws.ASSISTANT_TAG,)  # the empty history's prompt: nothing smaller
    assert verdict.facts["drawn"] == {"tried": 1, "shrunk": "minimal"}
    inputs = list(specimens(inputs_of(P1), 1, inputs_of(P1).count))
    with CountingRun(STUB, limits=LIMITS) as student:  # format_prompt returns "": a wrong value at once
        verdict = explore(student, P1, inputs_of(P1), inputs, lab_reference())
        assert student.calls >= min(len(inputs), 32) and verdict.problem == "wrong_value"


def _toy_tokens(rng, size):
    """An expression of the toy lab as its tokens: numbers of 1-3 digits with operators between them."""
    number = lambda: str(rng.randrange(10 ** rng.randint(1, 3)))  # noqa: E731
    tokens = [number()]
    for _ in range(size // 2):
        tokens += [rng.choice("+-*/"), number()]
    return tokens


def _is_expression(tokens) -> bool:
    return len(tokens) % 2 == 1 and all(
        token.isdigit() if index % 2 == 0 else token in "+-*/" for index, token in enumerate(tokens)
    )


TOY_TOKENS = Inputs(
    draw=_toy_tokens,
    valid=_is_expression,
    atomic=frozenset("+-*/"),
    demand=lambda tokens, reference: Example((" ".join(tokens),), list(tokens)),
)  # the tokens back


@pytest.fixture
def toy(monkeypatch):
    yield from use_lab("toy", monkeypatch)


@pytest.mark.parametrize(
    "slip, problem, smallest",
    [
        ("[c for c in expr if not c.isspace()]", "wrong_value", 2),  # a digit is a token: the smallest is 10-99
        ("expr.split()", None, None),  # right on these inputs (spaced): the check passes
        ("' '.join(expr.split())", "wrong_type", 1),  # not a list, whatever the input: its first token alone
    ],
)
def test_a_check_drawn_for_another_lab_shrinks_its_failure_with_the_same_machinery(
    toy, tmp_path, slip, problem, smallest
):
    check = DrawnCheck(
        id="d1",
        function=toy.functions[0],
        group=toy.checks[0].group,
        section=toy.checks[0].section,
        hint=toy.checks[0].hint,
        inputs="(drawn in this test)",
    )
    calc = tmp_path / toy.student_file_name
    calc.write_text(f"def {toy.functions[0]}(expr):\n    return {slip}\n", encoding="utf-8")
    drawn = list(specimens(TOY_TOKENS, seed_of(toy.id, "properties", check.id), 40))
    assert drawn != list(specimens(TOY_TOKENS, seed_of(LAB.id, "properties", check.id), 40))  # the lab's own seed
    with StudentRun(calc, limits=QUICK) as student:
        verdict = explore(student, check, TOY_TOKENS, drawn)
    with StudentRun(toy.solution_path, limits=QUICK) as student:
        assert explore(student, check, TOY_TOKENS, drawn).passed  # the reference gives each drawn input's tokens
    assert (verdict.passed, verdict.problem) == (problem is None, problem)
    if problem:
        [expr] = verdict.case.examples[0].args
        assert verdict.facts["drawn"]["shrunk"] == "minimal" and " " not in expr and len(expr) == smallest, expr
        assert verdict.case.examples[0].expected == [expr]
        assert "化简后仍然出错的最小输入" in "\n".join(render.failure_lines(verdict, calc.name))


@pytest.mark.parametrize("name, problem", [("os_exit_in_call", "crashed"), ("misspelt_function", "missing_function")])
def test_a_crash_or_a_missing_function_ends_the_check_at_once(name, problem):
    for case in PROPERTY_CASES[2:]:  # p3, p4: extract_response
        with CountingRun(STUDENTS / "hostile" / f"{name}.py", limits=QUICK) as student:
            verdict = assess.verdict(student, case)
            assert student.calls == 1 and verdict.problem == problem


@pytest.mark.parametrize("path", HELD_OUT, ids=lambda p: p.stem)
def test_a_held_out_mistake_fails_a_drawn_check_with_a_small_counterexample(path):
    with StudentRun(path, limits=QUICK) as student:
        six = [assess.verdict(student, case) for case in LAB.selected("test")]
        drawn = [assess.verdict(student, case) for case in PROPERTY_CASES]
        graded = InputSource(student=path.stem, secret=SECRET, count=SCHEME.generated_count)
        drawn += [assess.verdict(student, case, graded) for case in GENERATED_CASES]
    assert all(verdict.passed for verdict in six)  # `make test` says all passed: only the drawn checks tell
    failed = [verdict for verdict in drawn if not verdict.passed]
    assert {verdict.case.suite for verdict in failed} == {"properties", "generated"}
    for verdict in failed:
        [argument] = verdict.case.examples[0].args
        assert len(json.dumps(argument, ensure_ascii=False)) <= 60, argument  # shrunk: one message, short text
        assert verdict.facts["drawn"]["tried"] >= 1


@pytest.mark.parametrize("path", sorted((STUDENTS / "wrong_full").glob("*.py")), ids=lambda p: p.stem)
def test_each_extended_mistake_fails_a_property_check_in_make_test_full_too(path):
    with StudentRun(path, limits=QUICK) as student:
        assert any(not assess.verdict(student, case).passed for case in PROPERTY_CASES)


# --- the class: what cheating, honest and identical files score ----------------------------------------


def replay_source(extract_fallback: str, drawn: bool = False) -> str:
    """A file that answers every published input of the case table from a dict — with `drawn`, also every fixed
    input of the property checks, answered from the reference's word the handout keeps on it
    (lab09/fixed_inputs.py): everything the handout holds — and `extract_fallback` (an expression of `output`)
    for any other output; any other history gets ""."""
    table = {}
    answers = [(case.function, example) for case in TABLE for example in case.examples]
    if drawn:
        answers += [(prop.function, example) for prop in PROPERTY_CASES for example in fixed_examples(prop)]
    for function, example in answers:
        key = json.dumps([function, list(example.args)], ensure_ascii=False)
        table[key] = ["raise", example.mentions] if example.raises else ["return", example.expected]
    return (
        f"import json\nTABLE = json.loads({json.dumps(table, ensure_ascii=False)!r})\n\n\n"
        "def _answer(function, args):\n"
        "    kind, value = TABLE.get(json.dumps([function, args], ensure_ascii=False), ['return', None])\n"
        "    if kind == 'raise':\n        raise ValueError(value)\n    return value\n\n\n"
        "def format_prompt(messages):\n    found = _answer('format_prompt', [messages])\n"
        "    return '' if found is None else found\n\n\n"
        "def extract_response(output):\n    found = _answer('extract_response', [output])\n"
        f"    return ({extract_fallback}) if found is None else found\n"
    )


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
        records = grade_folder(folder, root / run, LIMITS, ClassOptions(jobs=2, course=course)).records
        outputs.append(
            {p.relative_to(root / run): p.read_bytes() for p in sorted((root / run).rglob("*")) if p.is_file()}
        )
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
        assert all(assess.verdict(student, case).passed for case in TABLE + PROPERTY_CASES)
    replay = records["replays_the_handout"]
    assert all(replay["cases"][case.column]["passed"] for case in TABLE)
    assert not any(replay["cases"][case.column]["passed"] for case in PROPERTY_CASES)
    assert replay["score"] <= SCHEME.max_score // 2  # …and that is worth half at most


def test_graded_property_checks_draw_for_each_student_and_make_test_full_its_own():
    drawn = {
        student: [InputSource(student=student, secret=SECRET).inputs(prop) for prop in PROPERTY_CASES]
        for student in ("alice", "bob")
    }
    alice, bob = ([list(inputs) for inputs in drawn[student]] for student in ("alice", "bob"))
    handout = [list(InputSource().inputs(prop)) for prop in PROPERTY_CASES]
    assert all(a != b and a != h and b != h for a, b, h in zip(alice, bob, handout))
    assert all(len(a) >= inputs_of(prop).count * 3 // 4 for a, prop in zip(alice, PROPERTY_CASES))  # as many, others
    with StudentRun(STUDENTS / "wrong_full" / "strips_content.py", limits=QUICK) as student:
        full = assess.verdict(student, P1)
        graded = assess.verdict(student, P1, InputSource(student="alice", secret=SECRET))
    assert not full.passed and not graded.passed and full.case.examples != graded.case.examples
    assert full.case.section == "properties" and graded.case.section == "graded_properties"


def test_a_rerun_is_byte_identical_and_twins_get_different_inputs(graded_class):
    records, (first, second) = graded_class
    assert first == second
    twin_a, twin_b = records["twin_a"], records["twin_b"]
    assert twin_a["generated_inputs"] != twin_b["generated_inputs"] and twin_a["generated_inputs"]
    assert twin_a["score"] == twin_b["score"] < SCHEME.max_score
    inputs = [record["generated_inputs"] for record in records.values()]
    assert len(set(inputs)) == len(inputs)  # every student their own inputs

"""`make chat`: a real tiny model, the student's own functions, and the protocol shown turn by turn."""

import io
import random
import re
import subprocess
import sys

from conftest import ROOT, SOLUTION, clean_env, make
from framework.harness.chat import DEMO_SCRIPT, Chat, NotReady
from framework.harness.engine import StudentRun
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from framework.harness.tinylm import CORPUS, TinyLM, decode, encode

PROMPT = "<|system|>\n你是一个简洁的助手。\n<|user|>\n什么是 token？\n<|assistant|>\n"


def test_corpus_is_a_few_hundred_exchanges_in_the_labs_format():
    corpus = CORPUS.read_text(encoding="utf-8")
    assert 200 <= corpus.count(ASSISTANT_TAG) == corpus.count(USER_TAG) <= 1000
    assert re.search(r"[\u4e00-\u9fff]", corpus) and re.search(r"\bthe\b", corpus)
    assert END_TAG in corpus


def test_tags_are_single_tokens():
    assert len(encode(PROMPT)) == len(PROMPT) - sum(len(tag) - 1 for tag in (SYSTEM_TAG, USER_TAG, ASSISTANT_TAG))
    assert decode(encode(PROMPT)) == PROMPT


def test_generate_returns_prompt_plus_continuation_and_stops_before_a_new_assistant_tag():
    model = TinyLM.from_corpus()
    outputs = [model.generate(PROMPT, rng=random.Random(seed)) for seed in range(20)]
    assert all(out.startswith(PROMPT) and len(out) > len(PROMPT) for out in outputs)
    continuations = [out[len(PROMPT):] for out in outputs]
    assert not any(ASSISTANT_TAG in c for c in continuations)
    # like a real model nobody stops, it often runs on into <|end|> or an invented user turn
    assert sum(END_TAG in c or USER_TAG in c for c in continuations) >= 15


def test_same_seed_same_text_and_unknown_input_still_works():
    model = TinyLM.from_corpus()
    assert model.generate(PROMPT, rng=random.Random(5)) == model.generate(PROMPT, rng=random.Random(5))
    odd = "<|user|>\nqwzx ✓ ∮ unseen words\n<|assistant|>\n"
    assert model.generate(odd, rng=random.Random(1)).startswith(odd)


def run_chat(path, lines, model=None):
    out = io.StringIO()
    model = model or TinyLM.from_corpus()
    raws = []
    generate = model.generate
    model.generate = lambda prompt, **kw: raws.append(generate(prompt, **kw)) or raws[-1]
    with StudentRun(path, display="student.py") as student:
        chat = Chat(student, model, random.Random(3), out)
        replies = [chat.turn(line) for line in lines]
    return chat, replies, raws, out.getvalue()


def test_each_turn_shows_prompt_raw_output_and_reply_from_the_students_functions():
    chat, replies, raws, shown = run_chat(SOLUTION, DEMO_SCRIPT)
    from solutions import student as reference  # the reference, in this process, to check the chat's use
    assert replies == [reference.extract_response(raw) for raw in raws]
    assert shown.count("format_prompt(历史)") == shown.count("extract_response(原始输出)") == 3
    assert [m["role"] for m in chat.history] == ["system", "user", "assistant"] * 1 + ["user", "assistant"] * 2
    assert all(reply and reply in shown for reply in replies)


def test_chat_uses_the_students_trim_history_once_it_exists(tmp_path):
    questions = [f"问题 {n}" for n in range(1, 9)]
    _, _, raws, shown = run_chat(SOLUTION, questions)
    assert "问题 1\n" not in raws[-1] and "问题 3\n" in raws[-1]  # max_turns=6: turns 3..8 are sent
    assert "trim_history" not in shown
    partial = tmp_path / "student.py"
    partial.write_text(SOLUTION.read_text(encoding="utf-8").split("def trim_history")[0], encoding="utf-8")
    _, _, raws, shown = run_chat(partial, questions)
    assert "问题 1\n" in raws[-1] and shown.count("trim_history") == 1  # one note, whole history


def test_make_chat_demo_is_deterministic():
    first = make("chat", "DEMO=1", "STUDENT=solutions/student.py")
    second = make("chat", "DEMO=1", "STUDENT=solutions/student.py")
    assert first.returncode == 0 and first.stdout == second.stdout
    assert [line.split("> ", 1)[1] for line in first.stdout.splitlines() if line.startswith("你> ")] == list(DEMO_SCRIPT)
    assert first.stdout.count("助手> ") == 3


def test_make_chat_says_what_to_do_until_the_functions_are_implemented():
    result = make("chat", "DEMO=1")
    assert result.returncode != 0 and "Traceback" not in result.stdout + result.stderr
    assert "format_prompt" in result.stdout and "TASK.md 1.5.2" in result.stdout


def test_piped_input_reset_and_end_of_input():
    result = subprocess.run([sys.executable, "-m", "framework.harness.chat", "--student", str(SOLUTION), "--seed", "1"],
                            input="你好\n/reset\n谢谢\n", capture_output=True, text=True, cwd=ROOT,
                            env=clean_env(LAB_LANG="en"), timeout=60)
    assert result.returncode == 0
    assert "you> 你好" in result.stdout and "(history cleared)" in result.stdout
    assert result.stdout.count("assistant> ") == 2


def test_an_exception_in_the_students_function_is_explained(tmp_path):
    broken = tmp_path / "student.py"
    broken.write_text(SOLUTION.read_text(encoding="utf-8").replace(
        'start = output.rfind(ASSISTANT_TAG)', 'start = output.rfind(ASSISTANT_TAG) + None'), encoding="utf-8")
    try:
        run_chat(broken, ["你好"])
    except NotReady as reason:
        assert "TypeError" in str(reason) and "student.py:" in str(reason)
    else:
        raise AssertionError("the chat should stop with an explanation")

"""`make chat`: real tiny models, the student's own functions, the protocol, the rewrite and the retrieval shown
turn by turn; honest about optional functions that are still the stub; TASK.md's quoted chat outputs are real."""

import io
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SOLUTION, STUB, STUDENTS, clean_env, make, wait_for
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.examples import REWRITE_INSTRUCTION
from lab09.chat import corpus
from lab09.chat.main import DEMO_SCRIPTS, Chat, NotReady, Settings, models, student_run
from lab09.chat.retrieval import KnowledgeBase
from lab09.chat.tinylm import DeadlineExceeded, count_tokens, decode, encode
from labkit.run import engine
from labkit.run.engine import Limits, StudentRun
from followups import carries
from test_course_output import transcript

PATIENCE = 120.0  # seconds before a step of a terminal session counts as hung (a busy machine is slow)
PROMPT = "<|system|>\n你是一个简洁的助手。\n<|user|>\n什么是 token？\n<|assistant|>\n"
CHAT_MODEL, REWRITER = models()
KNOWLEDGE = KnowledgeBase()
SEEDS = range(10)


def reference():
    import importlib.util

    spec = importlib.util.spec_from_file_location("reference_solution", SOLUTION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REFERENCE = reference()


def test_both_training_texts_are_dialogues_in_the_labs_format():
    topics = corpus.read_topics()
    chat, rewrites = corpus.chat_text(topics), corpus.rewrite_text(topics)
    assert 500 <= chat.count(ASSISTANT_TAG) == chat.count(USER_TAG) <= 3000  # a few thousand lines, read at start-up
    assert re.search(r"[\u4e00-\u9fff]", chat) and re.search(r"\bthe\b", chat) and END_TAG in chat
    assert rewrites.count(SYSTEM_TAG) == rewrites.count(REWRITE_INSTRUCTION) >= 200


def test_the_rewriter_reads_requests_exactly_as_the_reference_builds_them():
    rewrites = corpus.rewrite_text(corpus.read_topics())
    history = [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "什么是 token？"},
        {"role": "assistant", "content": "模型读写文本的最小单位。"},
    ]
    prompt = REFERENCE.format_prompt(REFERENCE.rewrite_messages(history, "那中文呢？"))
    assert prompt + "中文里一个 token 有多长？" in rewrites


def test_a_topics_file_it_cannot_read_is_named(tmp_path):
    bad = tmp_path / "topics.txt"
    bad.write_text("== t\n? 问题\n- 回答\n?? 追问 没有改写\n", encoding="utf-8")
    with pytest.raises(ValueError, match="topics.txt:4"):
        corpus.read_topics(bad)


def test_tags_are_single_tokens():
    assert len(encode(PROMPT)) == len(PROMPT) - sum(len(tag) - 1 for tag in (SYSTEM_TAG, USER_TAG, ASSISTANT_TAG))
    assert decode(encode(PROMPT)) == PROMPT


def test_generate_returns_prompt_plus_continuation_and_stops_before_a_new_assistant_tag():
    outputs = [CHAT_MODEL.generate(PROMPT, rng=random.Random(seed)) for seed in range(20)]
    assert all(out.startswith(PROMPT) and len(out) > len(PROMPT) for out in outputs)
    continuations = [out[len(PROMPT) :] for out in outputs]
    assert not any(ASSISTANT_TAG in c for c in continuations)
    # like a real model nobody stops, it often runs on into <|end|> or an invented user turn
    assert sum(END_TAG in c or USER_TAG in c for c in continuations) >= 15


def test_same_seed_same_text_and_unknown_input_still_works():
    assert CHAT_MODEL.generate(PROMPT, rng=random.Random(5)) == CHAT_MODEL.generate(PROMPT, rng=random.Random(5))
    odd = "<|user|>\nqwzx ✓ ∮ unseen words\n<|assistant|>\n"
    assert len(CHAT_MODEL.generate(odd, rng=random.Random(1))) > len(odd)


def test_generation_is_abandoned_at_its_deadline():
    with pytest.raises(DeadlineExceeded) as stopped:
        CHAT_MODEL.generate(PROMPT, rng=random.Random(1), deadline=time.monotonic() - 1)
    assert stopped.value.partial == PROMPT


# question as a student types it -> a word every answer to it must contain (TASK.md's examples, the demo,
# greetings and the lab's own words), under either system message
ON_TOPIC = {
    "天为什么是蓝的？": "蓝光",
    "天为什么是蓝的": "蓝光",
    "Why is the sky blue?": "blue",
    "why is the sky blue": "blue",
    "什么是 token？": "最小单位",
    "What is a token?": "smallest",
    "什么是提示词？": "文本",
    "What is a prompt?": "text",
    "what is a prompt": "text",
    "什么是 prompt？": "文本",
    "什么是标签？": "谁说的",
    "What is a tag?": "who said",
    "什么是 system 消息？": "助手",
    "What is a system message?": "assistant",
    "什么是对话历史？": "提示词",
    "What is the chat history?": "prompt",
    "什么是上下文长度？": "token",
    "What is the context length?": "tokens",
    "什么是语言模型？": "下一个 token",
    "What is a language model?": "next token",
    "你好": "你好",
    "Hi!": "Hello",
    "你是谁？": "语言模型",
    "Who are you?": "language model",
    "讲个笑话": "程序员",
    "Tell me a joke.": "programmers",
    "什么是聊天模板？": "format_prompt",
    "谢谢": "不客气",
    "中文也一样吗？": "汉字",
    "1+1=?": "2",
}


@pytest.mark.parametrize("system", ["你是一个简洁的助手。", "You are a concise assistant."])
def test_the_questions_a_student_tries_first_are_answered_on_topic(system):
    off_topic = []
    for question, word in ON_TOPIC.items():
        prompt = REFERENCE.format_prompt([{"role": "system", "content": system}, {"role": "user", "content": question}])
        for seed in SEEDS:
            reply = REFERENCE.extract_response(CHAT_MODEL.generate(prompt, rng=random.Random(seed)))
            if word not in reply:
                off_topic.append((question, seed, reply))
    assert off_topic == []


def edited_solution(tmp_path, old: str, new: str) -> Path:
    """The reference solution with `old` (which it must hold: an edit that finds nothing tests the reference)
    replaced by `new`, written to tmp_path/student.py."""
    source = SOLUTION.read_text(encoding="utf-8")
    assert source.count(old) == 1, f"the reference no longer holds {old!r}"
    edited = tmp_path / "student.py"
    edited.write_text(source.replace(old, new), encoding="utf-8")
    return edited


def converse(questions, rewriter=REWRITER, seed=0, path=SOLUTION, knowledge=KNOWLEDGE, **options):
    out = io.StringIO()
    with StudentRun(path, display="student.py") as student:
        chat = Chat(
            student,
            CHAT_MODEL,
            random.Random(seed),
            out,
            rewriter=rewriter,
            knowledge=knowledge,
            settings=Settings(deadline_ms=60_000),
            **options,
        )
        replies = [chat.turn(question) for question in questions]
    return chat, replies, out.getvalue()


def test_a_chat_goes_on_past_a_submissions_budget(monkeypatch):
    """make chat is open-ended: a student who talks for more than a graded submission's two minutes still gets
    replies (it said "timeout" from the 121st second on); each call keeps make test's own limit."""
    clock = {"ahead": 0.0}
    real = time.monotonic

    class Clock:  # the engine's clock, moved on by hand: nobody waits two minutes
        monotonic = staticmethod(lambda: real() + clock["ahead"])
        perf_counter, sleep, time = staticmethod(time.perf_counter), staticmethod(time.sleep), staticmethod(time.time)

    monkeypatch.setattr(engine, "time", Clock)
    out = io.StringIO()
    with student_run(SOLUTION) as student:
        chat = Chat(student, CHAT_MODEL, random.Random(0), out, rewriter=None, knowledge=KNOWLEDGE)
        first = chat.turn("什么是 token？")
        clock["ahead"] = Limits.submission_seconds + 1
        later = chat.turn("那 prompt 呢？")
        assert student.limits.case_seconds == Limits.from_env().case_seconds
    assert first and later and "timeout" not in out.getvalue()


def only_the_six(tmp_path):
    """A student.py whose six pass and whose optional functions are still the stub's."""
    solved, stub = SOLUTION.read_text(encoding="utf-8"), STUB.read_text(encoding="utf-8")
    path = tmp_path / "student.py"
    path.write_text(
        solved.split("\ndef trim_history")[0] + "\ndef trim_history" + stub.split("\ndef trim_history")[1],
        encoding="utf-8",
    )
    return path


DEMO_ANSWERS = {"zh": ("最前面", "ValueError", "丢掉"), "en": ("in front", "ValueError", "drop other roles")}
DEMO_REWRITES = {
    "zh": ("trim_history 会抛出 ValueError 吗？", "trim_history：其他角色呢？"),
    "en": ("Does trim_history raise ValueError?", "trim_history: And other roles?"),
}
# The rule that answers each of the demo's questions: what turn 1 and the rewrites of turns 2 and 3 find first,
# and what the follow-ups as typed miss (the "它" is a hole: they find format_prompt's F2, or 1.5.4's table).
RIGHT = ("1.5.7 › T1", "1.5.7 › T5", "1.5.7 › T2")


def rank(hits, short: str) -> int | None:
    return next((hit.rank for hit in hits if hit.passage.short == short), None)


@pytest.mark.parametrize("seed", SEEDS)
def test_without_a_rewrite_a_follow_up_is_answered_from_what_the_question_as_typed_found(seed):
    chat, replies, _ = converse(DEMO_SCRIPTS["zh"], rewriter=None, seed=seed)
    for turn, reply in zip(chat.turns, replies):  # the answer follows this turn's evidence, right or wrong
        assert turn.hits_rewritten is None and carries(reply, turn.hits_used[0]), reply
    assert DEMO_ANSWERS["zh"][0] in replies[0] and DEMO_ANSWERS["zh"][2] not in replies[2]  # F2's rule, not T2's


def test_the_demos_follow_ups_are_in_neither_models_corpus():
    """The demo once worked because its dialogues were what the models had memorised; now nothing of its
    follow-ups is in what they read, so what it shows is what any follow-up gets."""
    topics = corpus.read_topics()
    read = corpus.chat_text(topics) + corpus.rewrite_text(topics)
    follow_ups = [line for script in DEMO_SCRIPTS.values() for line in script[1:]]
    assert [line for line in follow_ups if line in read or line.rstrip("？?") in read] == []


@pytest.mark.parametrize("seed", SEEDS)
def test_the_rewriter_makes_the_demos_follow_ups_stand_alone(seed):
    for language, rewrites in DEMO_REWRITES.items():
        chat, replies, _ = converse(DEMO_SCRIPTS[language], seed=seed)
        assert [turn.asked for turn in chat.turns] == [DEMO_SCRIPTS[language][0], *rewrites]
        assert [word in reply for word, reply in zip(DEMO_ANSWERS[language], replies)] == [True] * 3, replies
        # the history keeps the student's words; the generation turn used the rewrite
        assert [m["content"] for m in chat.history if m["role"] == "user"] == list(DEMO_SCRIPTS[language])
        assert rewrites[1] + "\n<|assistant|>\n" in chat.turns[2].prompt


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_demos_rewrites_find_the_rule_the_original_follow_ups_miss(language, monkeypatch):
    monkeypatch.setenv("LAB_LANG", language)
    chat, _, shown = converse(DEMO_SCRIPTS[language])
    assert [turn.hits_used[0].passage.short for turn in chat.turns] == list(RIGHT)
    assert chat.turns[0].hits_rewritten is None
    for turn, rule in zip(chat.turns[1:], RIGHT[1:]):  # ranks, not scores: the question as typed ranks it lower
        assert rank(turn.hits_rewritten, rule) == 1 and (rank(turn.hits_original, rule) or 4) > 1
    for turn in chat.turns:
        assert [hit.rank for hit in turn.hits_original] == [1, 2, 3][: len(turn.hits_original)]
        assert all(a.score >= b.score > 0 for a, b in zip(turn.hits_original, turn.hits_original[1:]))
        assert turn.hits_used[0].passage.sheet == ("TASK.en.md" if language == "en" else "TASK.md")
    labels = ("search (original): ", "search (rewrite): ") if language == "en" else ("检索 (原句): ", "检索 (改写): ")
    assert [line.strip().split(": ")[0] + ": " for line in shown.splitlines() if line.strip().startswith(labels)] == [
        labels[0],
        labels[0],
        labels[1],
        labels[0],
        labels[1],
    ]


def test_the_message_of_a_turn_carries_its_evidence_and_the_history_never_does():
    questions = [*DEMO_SCRIPTS["zh"], "什么是 token？", "那中文呢？", "trim_history 是做什么的？", "为什么按整轮？"]
    chat, _, _ = converse(questions)
    for number, turn in enumerate(chat.turns):
        message = turn.evidence + turn.asked
        assert turn.evidence.startswith("资料 (检索自 TASK.md):\n[1] TASK.md › ") and turn.evidence.endswith("问题：")
        assert turn.prompt.endswith("<|user|>\n" + message + "\n<|assistant|>\n")  # the evidence, then the question
        history = turn.prompt[: turn.prompt.rindex("<|user|>")]  # all but this turn's message
        assert turn.prompt.count("资料 (检索自") == 1 and "资料 (检索自" not in history
        for earlier in chat.turns[:number]:  # no earlier turn's evidence (unless found again for this turn)
            assert [line for line in earlier.evidence.splitlines()[1:-1] if line in history] == []
        assert turn.evidence_tokens == count_tokens(turn.evidence) > 0
    assert {m["role"] for m in chat.history} == {"system", "user", "assistant"}
    assert [m["content"] for m in chat.history if m["role"] == "user"] == questions  # as typed, never evidence


def test_each_turn_shows_prompt_raw_output_and_reply_from_the_students_functions():
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"])
    assert replies == [REFERENCE.extract_response(turn.raw) for turn in chat.turns]
    assert shown.count("format_prompt(历史)") == shown.count("extract_response(原始输出)") == 3
    assert [m["role"] for m in chat.history] == ["system"] + ["user", "assistant"] * 3
    assert all(reply and reply in shown for reply in replies)
    assert shown.count("    改写: ") == 3  # one log line per turn
    assert all(turn.raw.startswith(turn.prompt) for turn in chat.turns)  # the evidence is in the raw output too


def test_chat_uses_the_students_trim_history_once_it_exists(tmp_path):
    questions = [f"问题 {n}" for n in range(1, 9)]
    chat, _, shown = converse(questions, rewriter=None, knowledge=None)
    assert "问题 1\n" not in chat.turns[-1].prompt and "问题 3\n" in chat.turns[-1].prompt  # turns 3..8 are sent
    assert (chat.turns[-1].messages_before, chat.turns[-1].messages_after) == (16, 12)
    assert chat.turns[-1].tokens_before > chat.turns[-1].tokens_after
    assert "trim_history" not in shown
    partial = tmp_path / "student.py"
    partial.write_text(SOLUTION.read_text(encoding="utf-8").split("def trim_history")[0], encoding="utf-8")
    chat, _, shown = converse(questions, rewriter=None, knowledge=None, path=partial)
    assert "问题 1\n" in chat.turns[-1].prompt and "trim_history" not in shown  # whole history, said once, up front
    assert chat.trim_status == ("missing", "trim_history")
    assert any("trim_history 不在你的文件里" in line for line in chat.banner())


def test_a_trim_history_that_gives_back_its_argument_is_said_once(tmp_path):
    lazy = edited_solution(
        tmp_path,
        "    return system + [message for turn in turns[-max_turns:] for message in turn]",
        "    if len(turns) <= max_turns:\n        return messages\n"
        "    return system + [message for turn in turns[-max_turns:] for message in turn]",
    )
    chat, _, shown = converse([f"问题 {n}" for n in range(1, 9)], rewriter=None, knowledge=None, path=lazy)
    assert chat.trim_status[0] == "ready" and shown.count("trim_history") == 1 and "T4" in shown
    assert chat.turns[-1].messages_after == 12  # it trims once the history is long


def _user_lines(stdout: str, prefix: str = "你> ") -> list:
    return [line.split("> ", 1)[1] for line in stdout.splitlines() if line.startswith(prefix)]


def _rewrite_log(stdout: str, label: str = "改写: ") -> list:
    return [line.strip()[len(label) :] for line in stdout.splitlines() if line.strip().startswith(label)]


def _searches(stdout: str, language: str = "zh") -> list:
    """The search lines, as (label, hits)."""
    start = "search (" if language == "en" else "检索 ("
    return [tuple(line.strip().split(": ", 1)) for line in stdout.splitlines() if line.strip().startswith(start)]


def log_lines(stdout: str, language: str = "zh", from_turn: int = 1) -> str:
    """What TASK.md quotes of a chat: the questions, the rewrite and the search lines, from a turn on."""
    starts = ("you> ", "rewrite: ", "search (") if language == "en" else ("你> ", "改写: ", "检索 (")
    lines = [line for line in stdout.splitlines() if line.lstrip().startswith(starts)]
    asked = [index for index, line in enumerate(lines) if line.startswith(starts[0])]
    return "\n".join(lines[asked[from_turn - 1] :]) + "\n"


def test_make_chat_demo_is_the_acceptance_script_and_is_deterministic(tmp_path):
    knobs = ("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE_DEADLINE=60000")  # steady under load
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    first = make(*knobs, f"CHAT_PAGE={tmp_path / 'one' / 'page.html'}")
    second = make(*knobs, f"CHAT_PAGE={tmp_path / 'two' / 'page.html'}")
    assert first.returncode == 0 and first.stdout.replace(f"{tmp_path}/one", f"{tmp_path}/two") == second.stdout
    assert _user_lines(first.stdout) == list(DEMO_SCRIPTS["zh"]) and first.stdout.count("助手> ") == 3
    follow_ups = zip(DEMO_SCRIPTS["zh"][1:], DEMO_REWRITES["zh"])
    assert _rewrite_log(first.stdout) == [f"{DEMO_SCRIPTS['zh'][0]} (没有历史，不用改写)"] + [
        f"{question} → {rewrite} (≤ 60000 ms)" for question, rewrite in follow_ups
    ]
    searches = _searches(first.stdout)
    assert [label for label, _ in searches] == [
        "检索 (原句)",
        "检索 (原句)",
        "检索 (改写)",
        "检索 (原句)",
        "检索 (改写)",
    ]
    tops = [hits.split(" (")[0] for _, hits in searches]
    assert tops[0::2] == list(RIGHT) and tops[1] != RIGHT[1] and tops[3] != RIGHT[2]  # turns 2 and 3: other tops
    pages = [(tmp_path / name / "page.html").read_text(encoding="utf-8") for name in ("one", "two")]
    started = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # the stored session's time is all that differs
    assert started.sub("T", pages[0]) == started.sub("T", pages[1]) and len(started.findall(pages[0])) == 1


def test_make_chat_demo_in_english(tmp_path):
    result = make(
        "chat",
        "DEMO=1",
        "STUDENT=solutions/student.py",
        "REWRITE_DEADLINE=60000",
        f"CHAT_PAGE={tmp_path / 'page.html'}",
        env=clean_env(LAB_LANG="en"),
    )
    assert _user_lines(result.stdout, "you> ") == list(DEMO_SCRIPTS["en"])
    assert _rewrite_log(result.stdout, "rewrite: ")[1:] == [
        f"{question} → {rewrite} (≤ 60000 ms)" for question, rewrite in zip(DEMO_SCRIPTS["en"][1:], DEMO_REWRITES["en"])
    ]
    tops = [hits.split(" (")[0] for _, hits in _searches(result.stdout, "en")]
    assert tops[0::2] == list(RIGHT) and tops[1] != RIGHT[1] and tops[3] != RIGHT[2]


@pytest.mark.parametrize(
    "knobs",
    [("REWRITE_DEADLINE=0",), ("REWRITE_DELAY=5000", "REWRITE_DEADLINE=50")],
    ids=["deadline-0", "delay-past-deadline"],
)
def test_past_the_deadline_the_original_question_is_used_and_answered(tmp_path, knobs):
    page = tmp_path / "page.html"
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", *knobs, f"CHAT_PAGE={page}")
    deadline = knobs[-1].split("=")[1]
    assert result.returncode == 0
    assert _rewrite_log(result.stdout)[1:] == [
        f"{DEMO_SCRIPTS['zh'][1]} (降级: 超时 {deadline} ms)",
        f"{DEMO_SCRIPTS['zh'][2]} (降级: 超时 {deadline} ms)",
    ]
    searches = _searches(result.stdout)  # both searches of a follow-up use the original: the same hits twice
    assert [label for label, _ in searches] == ["检索 (原句)"] + ["检索 (原句)", "检索 (降级，用原句)"] * 2
    assert searches[1][1] == searches[2][1] and searches[3][1] == searches[4][1]
    assert not searches[1][1].startswith(RIGHT[1]) and not searches[3][1].startswith(RIGHT[2])
    replies = [line for line in result.stdout.splitlines() if line.startswith("助手> ")]
    top = searches[3][1].split(" (")[0].rsplit(" › ", 1)[-1]  # the reply follows what the question as typed found
    assert len(replies) == 3 and top in replies[2] and DEMO_ANSWERS["zh"][2] not in replies[2]
    source = page.read_text(encoding="utf-8")  # and the page says so, for the turn and among the stored rewrites
    assert source.count("检索 (降级: 两次都用原句)") == 2
    assert source.count(f"降级: 超时 {deadline} ms；两次检索都用原句") == 2


def test_rewrite_0_turns_the_channel_off(tmp_path):
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE=0", f"CHAT_PAGE={tmp_path / 'p.html'}")
    assert result.returncode == 0 and "REWRITE=0" in result.stdout
    assert _rewrite_log(result.stdout) == [] and result.stdout.count("助手> ") == 3
    assert [label for label, _ in _searches(result.stdout)] == ["检索 (原句)"] * 3  # only the original's search


def test_make_chat_says_what_to_do_until_the_functions_are_implemented(tmp_path):
    result = make("chat", "DEMO=1", f"CHAT_PAGE={tmp_path / 'page.html'}")
    assert result.returncode != 0 and "Traceback" not in result.stdout + result.stderr
    assert "format_prompt" in result.stdout and "TASK.md 1.5.2" in result.stdout
    assert not (tmp_path / "page.html").exists()  # no turn, no page, no session
    assert sqlite3.connect(tmp_path / "chat-sessions.db").execute("SELECT count(*) FROM sessions").fetchone() == (0,)


@pytest.mark.parametrize("language", ["zh", "en"])
def test_the_stubs_of_the_optional_functions_are_said_to_be_so_and_nothing_is_claimed_for_them(tmp_path, language):
    page = tmp_path / "page.html"
    result = make(
        "chat", "DEMO=1", f"STUDENT={only_the_six(tmp_path)}", f"CHAT_PAGE={page}", env=clean_env(LAB_LANG=language)
    )
    banner = result.stdout.split("你> " if language == "zh" else "you> ")[0]
    assert result.returncode == 0
    if language == "zh":
        assert "trim_history 还没有实现" in banner and "rewrite_messages 还没有实现" in banner
        claims = ("时限", "没有历史，不用改写", "    改写: ", "只把最后")
    else:
        assert "trim_history is not implemented yet" in banner and "rewrite_messages is not implemented yet" in banner
        claims = ("deadline", "nothing to rewrite", "    rewrite: ", "sends only the last")
    assert not [claim for claim in claims if claim in result.stdout], result.stdout
    source = page.read_text(encoding="utf-8")
    if language == "zh":
        assert "改写: rewrite_messages 还没有实现" in source and "裁剪: trim_history 还没有实现" in source
        assert "两条线重合" in source and "实线 (发出的提示词) 低于虚线" not in source and "改写: 开" not in source
    else:
        assert "rewrite: rewrite_messages not implemented yet" in source and "the two lines coincide" in source


def test_a_stub_clean_rewrite_is_named_and_turns_the_rewrite_off(tmp_path):
    half = tmp_path / "student.py"
    half.write_text(
        SOLUTION.read_text(encoding="utf-8").split("\ndef clean_rewrite")[0]
        + "\ndef clean_rewrite(raw_reply, question, max_chars=60):\n    return question\n",
        encoding="utf-8",
    )
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=half)
    assert chat.rewrite_status == ("stub", "clean_rewrite") and "改写: " not in shown and len(replies) == 3
    assert [turn.asked for turn in chat.turns] == list(DEMO_SCRIPTS["zh"])
    assert any("clean_rewrite 还没有实现" in line for line in chat.banner())


def test_on_the_solution_the_demos_chart_shows_trimming_from_its_third_turn(tmp_path):
    page = tmp_path / "page.html"
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE_DEADLINE=60000", f"CHAT_PAGE={page}")
    assert "历史超过 2 轮时，trim_history 只把最后 2 轮发给模型 (max_turns=2)。" in result.stdout
    source = page.read_text(encoding="utf-8")
    assert "从第 3 轮起，trim_history 只发最后 2 轮" in source
    sent, untrimmed = (
        re.search(rf'data-name="{name}"[^>]*points="([^"]+)"', source).group(1).split()
        for name in ("发出的 \\(trim_history 之后\\)", "不裁剪")
    )
    heights = [(float(a.split(",")[1]), float(b.split(",")[1])) for a, b in zip(sent, untrimmed)]
    assert heights[0][0] == heights[0][1] and heights[2][0] > heights[2][1]  # SVG y grows downwards: sent is below


def test_help_lists_the_commands_and_is_not_a_question(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "lab09.chat.main",
            "--student",
            str(SOLUTION),
            "--seed",
            "1",
            "--page",
            str(tmp_path / "page.html"),
        ],
        input="/help\n/nonsense\n你好\n/quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        timeout=60,
    )
    assert result.returncode == 0
    assert "/help 列出命令；/reset 清空历史" in result.stdout and "没有 /nonsense 这个命令" in result.stdout
    assert result.stdout.count("助手> ") == 1 and result.stdout.count("┌ format_prompt") == 1  # only 你好 was asked


def test_a_file_without_the_optional_functions_chats_without_the_channel():
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=STUDENTS / "correct" / "split.py")
    assert len(replies) == 3 and chat.rewrite_status == ("missing", "rewrite_messages") and "改写: " not in shown
    assert [turn.asked for turn in chat.turns] == list(DEMO_SCRIPTS["zh"])
    assert any("rewrite_messages 不在你的文件里" in line for line in chat.banner())


def test_the_stub_rewrite_turns_the_channel_off_before_the_first_turn(tmp_path):
    stubbed = tmp_path / "student.py"
    stubbed.write_text(
        SOLUTION.read_text(encoding="utf-8").split("\ndef rewrite_messages")[0]
        + "\ndef rewrite_messages(history, question, max_turns=3):\n    return None\n",
        encoding="utf-8",
    )
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=stubbed)
    assert len(replies) == 3 and chat.rewrite_status == ("stub", "rewrite_messages") and "改写: " not in shown
    assert shown.count("检索 (原句)") == 3 and "检索 (改写)" not in shown


def test_a_failing_rewrite_function_falls_back_with_its_reason_and_the_chat_goes_on(tmp_path):
    broken = edited_solution(
        tmp_path, "    for line in raw_reply.splitlines():", "    1 / 0\n    for line in raw_reply.splitlines():"
    )
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=broken)
    assert _rewrite_log(shown)[1:] == [
        f"{DEMO_SCRIPTS['zh'][1]} (降级: clean_rewrite 抛出了 ZeroDivisionError)",
        f"{DEMO_SCRIPTS['zh'][2]} (降级: clean_rewrite 抛出了 ZeroDivisionError)",
    ]
    assert len(replies) == 3 and [turn.asked for turn in chat.turns] == list(DEMO_SCRIPTS["zh"])


@pytest.mark.parametrize(
    "function, value", [("clean_rewrite", "5"), ("clean_rewrite", "True"), ("rewrite_messages", "2.5")]
)
def test_a_rewrite_function_returning_a_number_falls_back_naming_its_type(tmp_path, function, value):
    """A number comes back from the child as data (another lab's functions return ints); the chat still says
    which type the optional function returned."""
    odd = tmp_path / "student.py"
    odd.write_text(
        SOLUTION.read_text(encoding="utf-8") + f"\n\ndef {function}(*args, **kwargs):\n    return {value}\n",
        encoding="utf-8",
    )
    _, replies, shown = converse(DEMO_SCRIPTS["zh"][:2], path=odd)
    kind = type(eval(value)).__name__
    assert (
        _rewrite_log(shown)[1:] == [f"{DEMO_SCRIPTS['zh'][1]} (降级: {function} 返回了 {kind})"] and len(replies) == 2
    )


# --- TASK.md quotes the chat: the quotes are what the programs print ------------------------------------------


@pytest.mark.parametrize("language, sheet", [("zh", "TASK.md"), ("en", "TASK.en.md")])
def test_the_sheets_quote_of_the_chats_first_turn_is_what_make_chat_prints(tmp_path, language, sheet):
    result = make(
        "chat",
        "DEMO=1",
        f"STUDENT={only_the_six(tmp_path)}",
        f"CHAT_PAGE={tmp_path / 'page.html'}",
        env=clean_env(LAB_LANG=language),
    )
    prompt = "你> " if language == "zh" else "you> "
    first = prompt.join(result.stdout.split(prompt)[:2])  # the banner and the first turn
    assert first.replace(str(tmp_path / "student.py"), "framework/student.py") == transcript("chat_turn", sheet)


@pytest.mark.parametrize("language, sheet", [("zh", "TASK.md"), ("en", "TASK.en.md")])
def test_the_sheets_quotes_of_the_rewrite_and_search_log_are_what_the_demo_prints(tmp_path, language, sheet):
    env = clean_env(LAB_LANG=language)
    steady = make(
        "chat",
        "DEMO=1",
        "STUDENT=solutions/student.py",
        "REWRITE_DEADLINE=60000",
        f"CHAT_PAGE={tmp_path / 'a.html'}",
        env=env,
    )  # a deadline no load can miss, printed as the default
    assert log_lines(steady.stdout, language).replace("≤ 60000 ms", "≤ 500 ms") == transcript("chat_log", sheet)
    late = make(
        "chat",
        "DEMO=1",
        "STUDENT=solutions/student.py",
        "REWRITE_DELAY=800",
        f"CHAT_PAGE={tmp_path / 'b.html'}",
        env=env,
    )
    assert log_lines(late.stdout, language, from_turn=2) == transcript("chat_fallback", sheet)


def _section(sheet: str, start: str, end: str = "\n#") -> str:
    text = (ROOT / sheet).read_text(encoding="utf-8")
    return text.split(start, 1)[1].split(end, 1)[0]


@pytest.mark.parametrize("sheet", ["TASK.md", "TASK.en.md"])
def test_the_sheet_says_what_a_deployed_phi3_stops_at_and_why_this_model_runs_on(sheet):
    chat_section = _section(sheet, "### 1.5.5 ")
    real_systems = _section(sheet, "### 1.5.6 ")
    stops = ("<|endoftext|>", "<|assistant|>", "<|end|>")
    assert all(stop in real_systems for stop in stops)  # 1.5.6's list of Phi-3's end tokens ...
    claim = chat_section.split("Phi-3", 1)[1].split("E3", 1)[0]
    assert all(stop in claim for stop in stops)  # ... is what 1.5.5 says a deployed Phi-3 stops at
    assert ("故意" in claim) if sheet == "TASK.md" else ("on purpose" in claim)  # and that this model runs on


def test_the_demo_script_has_one_name_in_both_sheets():
    zh, en = ((ROOT / sheet).read_text(encoding="utf-8") for sheet in ("TASK.md", "TASK.en.md"))
    assert "回归脚本" not in zh and "三问" not in zh and "three-question script" not in en
    assert "验收脚本" in _section("TASK.md", "### 1.5.8 ") and "验收脚本" in _section("TASK.md", "## 思考题", "\n## ")
    assert "acceptance script" in _section("TASK.en.md", "### 1.5.8 ")
    assert "acceptance script" in _section("TASK.en.md", "## Questions", "\n## ")


def test_piped_input_reset_and_end_of_input(tmp_path):
    page = tmp_path / "page.html"
    result = subprocess.run(
        [sys.executable, "-m", "lab09.chat.main", "--student", str(SOLUTION), "--seed", "1", "--page", str(page)],
        input="你好\n/reset\n谢谢\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(LAB_LANG="en"),
        timeout=60,
    )
    assert result.returncode == 0
    assert "you> 你好" in result.stdout and "(history cleared)" in result.stdout
    assert result.stdout.count("assistant> ") == 2
    assert "Seed 1:" in result.stdout and page.exists() and str(page) in result.stdout


def test_without_a_seed_the_banner_says_how_to_get_one(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "lab09.chat.main", "--student", str(SOLUTION), "--page", str(tmp_path / "page.html")],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=clean_env(),
        timeout=60,
    )
    assert "SEED=7" in result.stdout and "种子 -" not in result.stdout and "None" not in result.stdout


def test_an_exception_in_the_students_function_is_explained(tmp_path):
    broken = edited_solution(
        tmp_path, 'start = output.rfind(ASSISTANT_TAG)', 'start = output.rfind(ASSISTANT_TAG) + None'
    )
    with pytest.raises(NotReady) as reason:
        converse(["你好"], rewriter=None, path=broken)
    assert "TypeError" in str(reason.value) and "student.py:" in str(reason.value)


def test_control_characters_from_the_students_functions_do_not_reach_the_terminal(tmp_path):
    sneaky = edited_solution(
        tmp_path,
        "    return reply[: min(cuts, default=len(reply))].strip()",
        '    return "\\x1b[2J" + reply[: min(cuts, default=len(reply))].strip()',
    )
    _, _, shown = converse(["你好"], rewriter=None, path=sneaky)
    assert "\x1b" not in shown and "\\x1b[2J" in shown


def _waiting_for_a_key(terminal: int) -> bool:
    """Whether the terminal's foreground process is blocked reading it (Linux: its wait channel is a select,
    a poll or a tty read).  input() with readline checks for Ctrl-C only when its select() is interrupted, so
    a Ctrl-C that comes a moment before it waits is seen only at the next key: a student presses again, a
    test presses once, when the chat waits.  Where the wait channel cannot be read, the prompt must do."""
    import os

    try:
        with open(f"/proc/{os.tcgetpgrp(terminal)}/wchan", encoding="ascii", errors="replace") as handle:
            waiting = handle.read()
    except OSError:
        return True
    return any(word in waiting for word in ("poll", "select", "tty_read", "wait_woken"))  # "0" while it runs


def _make_chat_in_a_terminal(tmp_path, keys: bytes) -> tuple:
    """`make chat` on a terminal of its own, as a student runs it: ask one question, then press `keys`."""
    import os
    import pty
    import select
    import signal

    page = tmp_path / "page.html"
    pid, terminal = pty.fork()
    if pid == 0:  # the child: make chat on its own terminal
        os.chdir(ROOT)
        os.execvpe(
            "make",
            [
                "make",
                "--no-print-directory",
                "chat",
                f"STUDENT={SOLUTION}",
                f"PYTHON={sys.executable}",
                f"CHAT_PAGE={page}",
                "SEED=1",
            ],
            clean_env(),
        )
    seen = b""

    def read_until(marker: bytes | None, count: int = 1, seconds: float = PATIENCE):
        """Read until `marker` was seen `count` times (None: only what is there now) or the terminal closed."""
        nonlocal seen
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and (marker is None or seen.count(marker) < count):
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    seen += os.read(terminal, 65536)
                except OSError:
                    return
            elif marker is None:
                return

    read_until("你> ".encode(), 1)
    os.write(terminal, "你好\r".encode())
    read_until("你> ".encode(), 2)
    wait_for(lambda: _waiting_for_a_key(terminal), what="the chat waiting for the next line")
    os.write(terminal, keys)
    status, deadline = None, time.monotonic() + PATIENCE
    while status is None and time.monotonic() < deadline:
        read_until(None)
        reaped, code = os.waitpid(pid, os.WNOHANG)
        status = os.waitstatus_to_exitcode(code) if reaped else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return status, seen.decode("utf-8", "replace"), page


@pytest.mark.parametrize("keys", [b"\x03", b"\x04"], ids=["ctrl-c", "ctrl-d"])
def test_ctrl_c_and_ctrl_d_leave_make_chat_tidily(tmp_path, keys):
    status, shown, page = _make_chat_in_a_terminal(tmp_path, keys)
    assert status == 0, shown[-500:]
    assert "Interrupt" not in shown and "Error" not in shown and "Traceback" not in shown, shown[-500:]
    after = shown.rsplit("你> ", 1)[1]
    assert after.startswith(("^C\r\n", "\r\n")), repr(after[:40])  # the next line starts on a line of its own
    assert page.exists() and "助手> 你好" in shown


def test_a_reader_that_leaves_early_gets_no_traceback(tmp_path):
    chat = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "lab09.chat.main",
            "--student",
            str(SOLUTION),
            "--demo",
            "--page",
            str(tmp_path / "page.html"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=clean_env(),
    )
    chat.stdout.readline()  # like `make chat | head -1`
    chat.stdout.close()
    err = chat.stderr.read().decode("utf-8", "replace")
    assert chat.wait(timeout=60) == 0 and "Traceback" not in err, err

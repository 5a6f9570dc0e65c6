"""`make chat`: real tiny models, the student's own functions, the protocol and the rewrite shown turn by turn."""

import io
import random
import re
import subprocess
import sys
import time

import pytest

from conftest import ROOT, SOLUTION, STUDENTS, clean_env, make, wait_for
from framework.harness import corpus
from framework.harness.cases import REWRITE_INSTRUCTION
from framework.harness.chat import DEMO_SCRIPTS, Chat, NotReady, models
from framework.harness.engine import StudentRun
from framework.harness.tinylm import DeadlineExceeded, decode, encode
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

PATIENCE = 120.0  # seconds before a step of a terminal session counts as hung (a busy machine is slow)
PROMPT = "<|system|>\n你是一个简洁的助手。\n<|user|>\n什么是 token？\n<|assistant|>\n"
CHAT_MODEL, REWRITER = models()
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
    history = [{"role": "system", "content": "S"}, {"role": "user", "content": "什么是 token？"},
               {"role": "assistant", "content": "模型读写文本的最小单位。"}]
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
    continuations = [out[len(PROMPT):] for out in outputs]
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
    "天为什么是蓝的？": "蓝光", "天为什么是蓝的": "蓝光", "Why is the sky blue?": "blue", "why is the sky blue": "blue",
    "什么是 token？": "最小单位", "What is a token?": "smallest", "什么是提示词？": "文本", "What is a prompt?": "text",
    "what is a prompt": "text", "什么是 prompt？": "文本", "什么是标签？": "谁说的", "What is a tag?": "who said",
    "什么是 system 消息？": "助手", "What is a system message?": "assistant", "什么是对话历史？": "提示词",
    "What is the chat history?": "prompt", "什么是上下文长度？": "token", "What is the context length?": "tokens",
    "什么是语言模型？": "下一个 token", "What is a language model?": "next token", "你好": "你好", "Hi!": "Hello",
    "你是谁？": "语言模型", "Who are you?": "language model", "讲个笑话": "程序员", "Tell me a joke.": "programmers",
    "什么是聊天模板？": "format_prompt", "谢谢": "不客气", "中文也一样吗？": "汉字", "1+1=?": "2",
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


def converse(questions, rewriter=REWRITER, seed=0, path=SOLUTION, **options):
    out = io.StringIO()
    with StudentRun(path, display="student.py") as student:
        chat = Chat(student, CHAT_MODEL, random.Random(seed), out, rewriter=rewriter, deadline_ms=60_000, **options)
        replies = [chat.turn(question) for question in questions]
    return chat, replies, out.getvalue()


@pytest.mark.parametrize("seed", SEEDS)
def test_follow_ups_are_answered_from_the_history_even_without_a_rewrite(seed):
    _, replies, _ = converse(DEMO_SCRIPTS["zh"], rewriter=None, seed=seed)
    assert "最小单位" in replies[0] and "汉字" in replies[1] and "标点" in replies[2]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_rewriter_makes_the_demos_follow_ups_stand_alone(seed):
    for language, rewrites in (("zh", ["中文里一个 token 有多长？", "除了文字，还有什么也算 token？"]),
                               ("en", ["How long is a token in Chinese?",
                                       "What else counts as a token besides words?"])):
        chat, _, _ = converse(DEMO_SCRIPTS[language], seed=seed)
        assert [turn.asked for turn in chat.turns] == [DEMO_SCRIPTS[language][0], *rewrites]
        # the history keeps the student's words; the generation turn used the rewrite
        assert [m["content"] for m in chat.history if m["role"] == "user"] == list(DEMO_SCRIPTS[language])
        assert rewrites[1] + "\n<|assistant|>\n" in chat.turns[2].prompt


def test_each_turn_shows_prompt_raw_output_and_reply_from_the_students_functions():
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"])
    assert replies == [REFERENCE.extract_response(turn.raw) for turn in chat.turns]
    assert shown.count("format_prompt(历史)") == shown.count("extract_response(原始输出)") == 3
    assert [m["role"] for m in chat.history] == ["system"] + ["user", "assistant"] * 3
    assert all(reply and reply in shown for reply in replies)
    assert shown.count("改写: ") == 3  # one log line per turn


def test_chat_uses_the_students_trim_history_once_it_exists(tmp_path):
    questions = [f"问题 {n}" for n in range(1, 9)]
    chat, _, shown = converse(questions, rewriter=None)
    assert "问题 1\n" not in chat.turns[-1].prompt and "问题 3\n" in chat.turns[-1].prompt  # turns 3..8 are sent
    assert (chat.turns[-1].messages_before, chat.turns[-1].messages_after) == (16, 12)
    assert chat.turns[-1].tokens_before > chat.turns[-1].tokens_after
    assert "trim_history" not in shown
    partial = tmp_path / "student.py"
    partial.write_text(SOLUTION.read_text(encoding="utf-8").split("def trim_history")[0], encoding="utf-8")
    chat, _, shown = converse(questions, rewriter=None, path=partial)
    assert "问题 1\n" in chat.turns[-1].prompt and shown.count("trim_history") == 1  # one note, whole history


def _user_lines(stdout: str, prefix: str = "你> ") -> list:
    return [line.split("> ", 1)[1] for line in stdout.splitlines() if line.startswith(prefix)]


def _rewrite_log(stdout: str, label: str = "改写: ") -> list:
    return [line.strip()[len(label):] for line in stdout.splitlines() if line.strip().startswith(label)]


def test_make_chat_demo_is_the_acceptance_script_and_is_deterministic(tmp_path):
    knobs = ("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE_DEADLINE=60000")  # steady under load
    first = make(*knobs, f"CHAT_PAGE={tmp_path / 'one.html'}")
    second = make(*knobs, f"CHAT_PAGE={tmp_path / 'two.html'}")
    assert first.returncode == 0 and first.stdout.replace("one.html", "two.html") == second.stdout
    assert _user_lines(first.stdout) == list(DEMO_SCRIPTS["zh"]) and first.stdout.count("助手> ") == 3
    assert _rewrite_log(first.stdout) == ["什么是 token？ (没有历史，不用改写)",
                                          "那中文里它有多长？ → 中文里一个 token 有多长？ (≤ 60000 ms)",
                                          "还有别的吗？ → 除了文字，还有什么也算 token？ (≤ 60000 ms)"]
    assert (tmp_path / "one.html").read_text(encoding="utf-8") == (tmp_path / "two.html").read_text(encoding="utf-8")


def test_make_chat_demo_in_english(tmp_path):
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE_DEADLINE=60000",
                  f"CHAT_PAGE={tmp_path / 'page.html'}", env=clean_env(LAB_LANG="en"))
    assert _user_lines(result.stdout, "you> ") == list(DEMO_SCRIPTS["en"])
    assert _rewrite_log(result.stdout, "rewrite: ")[1:] == [
        "How long is it in Chinese? → How long is a token in Chinese? (≤ 60000 ms)",
        "Anything else? → What else counts as a token besides words? (≤ 60000 ms)"]


@pytest.mark.parametrize("knobs", [("REWRITE_DEADLINE=0",), ("REWRITE_DELAY=5000", "REWRITE_DEADLINE=50")],
                         ids=["deadline-0", "delay-past-deadline"])
def test_past_the_deadline_the_original_question_is_used_and_answered(tmp_path, knobs):
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", *knobs, f"CHAT_PAGE={tmp_path / 'page.html'}")
    deadline = knobs[-1].split("=")[1]
    assert result.returncode == 0
    assert _rewrite_log(result.stdout)[1:] == [f"那中文里它有多长？ (降级: 超时 {deadline} ms)",
                                               f"还有别的吗？ (降级: 超时 {deadline} ms)"]
    replies = [line for line in result.stdout.splitlines() if line.startswith("助手> ")]
    assert len(replies) == 3 and "汉字" in replies[1]  # the history still carries the follow-up


def test_rewrite_0_turns_the_channel_off(tmp_path):
    result = make("chat", "DEMO=1", "STUDENT=solutions/student.py", "REWRITE=0", f"CHAT_PAGE={tmp_path / 'p.html'}")
    assert result.returncode == 0 and "REWRITE=0" in result.stdout
    assert _rewrite_log(result.stdout) == [] and result.stdout.count("助手> ") == 3


def test_make_chat_says_what_to_do_until_the_functions_are_implemented(tmp_path):
    result = make("chat", "DEMO=1", f"CHAT_PAGE={tmp_path / 'page.html'}")
    assert result.returncode != 0 and "Traceback" not in result.stdout + result.stderr
    assert "format_prompt" in result.stdout and "TASK.md 1.5.2" in result.stdout
    assert not (tmp_path / "page.html").exists()  # no turn, no page


def test_a_file_without_the_optional_functions_chats_without_the_channel():
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=STUDENTS / "correct" / "split.py")
    assert len(replies) == 3 and shown.count("rewrite_messages 不在你的文件里") == 1
    assert [turn.asked for turn in chat.turns] == list(DEMO_SCRIPTS["zh"])


def test_the_stub_rewrite_turns_the_channel_off_once(tmp_path):
    stubbed = tmp_path / "student.py"
    stubbed.write_text(SOLUTION.read_text(encoding="utf-8").split("\ndef rewrite_messages")[0]
                       + "\ndef rewrite_messages(history, question, max_turns=3):\n    return None\n", encoding="utf-8")
    _, replies, shown = converse(DEMO_SCRIPTS["zh"], path=stubbed)
    assert len(replies) == 3 and shown.count("还是初始代码") == 1 and shown.count("改写: ") == 1


def test_a_failing_rewrite_function_falls_back_with_its_reason_and_the_chat_goes_on(tmp_path):
    broken = tmp_path / "student.py"
    broken.write_text(SOLUTION.read_text(encoding="utf-8").replace(
        "    for line in raw_reply.splitlines():", "    1 / 0\n    for line in raw_reply.splitlines():"),
        encoding="utf-8")
    chat, replies, shown = converse(DEMO_SCRIPTS["zh"], path=broken)
    assert _rewrite_log(shown)[1:] == ["那中文里它有多长？ (降级: clean_rewrite 抛出了 ZeroDivisionError)",
                                       "还有别的吗？ (降级: clean_rewrite 抛出了 ZeroDivisionError)"]
    assert len(replies) == 3 and [turn.asked for turn in chat.turns] == list(DEMO_SCRIPTS["zh"])


def test_piped_input_reset_and_end_of_input(tmp_path):
    page = tmp_path / "page.html"
    result = subprocess.run([sys.executable, "-m", "framework.harness.chat", "--student", str(SOLUTION), "--seed", "1",
                             "--page", str(page)],
                            input="你好\n/reset\n谢谢\n", capture_output=True, text=True, cwd=ROOT,
                            env=clean_env(LAB_LANG="en"), timeout=60)
    assert result.returncode == 0
    assert "you> 你好" in result.stdout and "(history cleared)" in result.stdout
    assert result.stdout.count("assistant> ") == 2
    assert "Seed 1:" in result.stdout and page.exists() and str(page) in result.stdout


def test_without_a_seed_the_banner_says_how_to_get_one(tmp_path):
    result = subprocess.run([sys.executable, "-m", "framework.harness.chat", "--student", str(SOLUTION),
                             "--page", str(tmp_path / "page.html")], input="", capture_output=True, text=True,
                            cwd=ROOT, env=clean_env(), timeout=60)
    assert "SEED=7" in result.stdout and "种子 -" not in result.stdout and "None" not in result.stdout


def test_an_exception_in_the_students_function_is_explained(tmp_path):
    broken = tmp_path / "student.py"
    broken.write_text(SOLUTION.read_text(encoding="utf-8").replace(
        'start = output.rfind(ASSISTANT_TAG)', 'start = output.rfind(ASSISTANT_TAG) + None'), encoding="utf-8")
    with pytest.raises(NotReady) as reason:
        converse(["你好"], rewriter=None, path=broken)
    assert "TypeError" in str(reason.value) and "student.py:" in str(reason.value)


def test_control_characters_from_the_students_functions_do_not_reach_the_terminal(tmp_path):
    sneaky = tmp_path / "student.py"
    sneaky.write_text(SOLUTION.read_text(encoding="utf-8").replace(
        "    return reply[:min(cuts, default=len(reply))].strip()",
        '    return "\\x1b[2J" + reply[:min(cuts, default=len(reply))].strip()'), encoding="utf-8")
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
        os.execvpe("make", ["make", "--no-print-directory", "chat", f"STUDENT={SOLUTION}", f"PYTHON={sys.executable}",
                            f"CHAT_PAGE={page}", "SEED=1"], clean_env())
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

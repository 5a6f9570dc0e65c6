"""`make chat`: talk to a tiny real language model through your own format_prompt and extract_response.

Each turn shows the three steps of the protocol: the prompt your `format_prompt` builds from the
history, the raw output of `model.generate` (the prompt plus what the model wrote), and the reply
your `extract_response` cuts out of it, which then joins the history.  Your functions run in the
same sandboxed child as in `make test`.  `/reset` starts over, `/quit` (or end of input) leaves.

With the optional `rewrite_messages` and `clean_rewrite` (TASK.md 1.5.8) a second tiny model first
rewrites the question into one that stands alone, within a deadline (500 ms; past it the original
question is used): the generation turn uses the rewrite, the history keeps your words, and one log line
per turn says what happened.  When the chat ends, chat-session.html shows every turn.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from framework import LAB, STUB, display_name
from framework.harness import corpus, session_page
from framework.harness.engine import StudentRun
from framework.harness.i18n import current_language, text
from framework.harness.render import INDENT, literal
from framework.harness.terminal import own_terminal
from framework.harness.tinylm import DeadlineExceeded, TinyLM, count_tokens
from framework.harness.untrusted import safe_text

DEMO_SCRIPTS = {"zh": ("什么是 token？", "那中文里它有多长？", "还有别的吗？"),  # a question, a follow-up with a
                "en": ("What is a token?", "How long is it in Chinese?", "Anything else?")}  # pronoun, a vaguer one
DEMO_SEED = 9
REWRITE_TOKENS = 100  # the rewriter's output cap
REWRITE_DEADLINE_MS = 500
PAGE = LAB / "chat-session.html"
RULE = "│ "


def demo_script() -> tuple:
    return DEMO_SCRIPTS[current_language()]


def system_message() -> dict:
    return {"role": "system", "content": text("chat.system")}


class NotReady(Exception):
    """The student's function cannot serve the chat yet; the message says why and what to do."""


class Unavailable(Exception):
    """An optional function cannot be used this turn; the message is the reason shown in the log."""


@dataclass
class Turn:
    """What one turn did, for the session page: every text comes from the student's code or a model."""

    number: int
    question: str
    asked: str = ""  # the question the generation turn used: the rewrite, or the question itself
    rewrite_log: str = ""  # the log line, without its label
    rewrite_prompt: str | None = None
    rewrite_raw: str | None = None
    rewrite_reply: str | None = None
    prompt: str = ""
    raw: str = ""
    reply: str = ""
    messages_before: int = 0  # messages sent without trimming, and after trim_history
    messages_after: int = 0
    tokens_before: int = 0
    tokens_after: int = 0


def models() -> tuple:
    """The chat model and the rewriter, each trained at start-up on its text from data/topics.txt."""
    topics = corpus.read_topics()
    return TinyLM(corpus.chat_text(topics)), TinyLM(corpus.rewrite_text(topics))


class Chat:
    """The history, the two models and the student's functions."""

    def __init__(self, student: StudentRun, model: TinyLM, rng: random.Random, out=sys.stdout,
                 rewriter: TinyLM | None = None, deadline_ms: float = REWRITE_DEADLINE_MS, delay_ms: float = 0,
                 exact_ms: bool = True):
        self.student, self.model, self.rng, self.out = student, model, rng, out
        self.rewriter, self.deadline_ms, self.delay_ms, self.exact_ms = rewriter, deadline_ms, delay_ms, exact_ms
        self.rewrite_rng = random.Random(rng.getrandbits(32))
        self.history = [system_message()]
        self.turns: list[Turn] = []
        self.trim_note_shown = False

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def reset(self) -> None:
        self.history = [system_message()]

    def turn(self, question: str) -> str:
        record = Turn(len(self.turns) + 1, question)
        record.asked = self.rewritten(question, record) if self.rewriter is not None else question
        sent = self.history + [{"role": "user", "content": record.asked}]
        context = self.trimmed(sent)
        prompt = self.ask("format_prompt", context)
        if prompt == "":
            raise NotReady(text("chat.format_empty"))
        whole = prompt if context == sent else self.ask("format_prompt", sent)
        record.prompt = prompt
        record.messages_before, record.messages_after = len(sent), len(context)
        record.tokens_before, record.tokens_after = count_tokens(whole), count_tokens(prompt)
        record.raw = self.model.generate(prompt, rng=self.rng)
        record.reply = self.ask("extract_response", record.raw)
        self.show(record.prompt, record.raw, record.reply)
        if record.reply == "":
            self.say(INDENT + text("chat.extract_empty"))
        self.history += [{"role": "user", "content": question}, {"role": "assistant", "content": record.reply}]
        self.turns.append(record)
        return record.reply

    # --- the rewrite channel ------------------------------------------------------------------

    def rewritten(self, question: str, record: Turn) -> str:
        """The question the generation turn uses: the student's rewrite when it came in time, else the question."""
        started = time.monotonic()
        deadline = started + self.deadline_ms / 1000
        try:
            messages = self.optional("rewrite_messages", [self.history, question])
            if messages is None:
                if any(message["role"] == "user" for message in self.history):
                    return self.channel_off(text("chat.rewrite_stub"), question)
                return self.log(record, text("chat.rewrite_none", question=question), question)
            if not (isinstance(messages, list) and all(isinstance(m, dict) for m in messages)):
                raise Unavailable(text("chat.reason.not_list"))
            record.rewrite_prompt = self.ask("format_prompt", messages)
            self.wait(deadline)
            record.rewrite_raw = self.rewriter.generate(record.rewrite_prompt, max_new_tokens=REWRITE_TOKENS,
                                                        rng=self.rewrite_rng, deadline=deadline)
            record.rewrite_reply = self.ask("extract_response", record.rewrite_raw)
            cleaned = self.optional("clean_rewrite", [record.rewrite_reply, question])
            if not isinstance(cleaned, str):
                raise Unavailable(text("chat.reason.not_str"))
            if time.monotonic() > deadline:
                raise DeadlineExceeded("")
        except DeadlineExceeded:
            return self.log(record, text("chat.rewrite_fallback", question=question,
                                         reason=text("chat.reason.timeout", ms=f"{self.deadline_ms:g}")), question)
        except Unavailable as reason:
            return self.log(record, text("chat.rewrite_fallback", question=question, reason=str(reason)), question)
        except _ChannelOff as off:
            return self.channel_off(str(off), question)
        took = (f"{(time.monotonic() - started) * 1000:.0f} ms" if self.exact_ms
                else text("chat.within", ms=f"{self.deadline_ms:g}"))
        if cleaned == question:
            return self.log(record, text("chat.rewrite_same", question=question, time=took), question)
        return self.log(record, text("chat.rewrite_done", question=question, rewrite=cleaned, time=took), cleaned)

    def wait(self, deadline: float) -> None:
        """REWRITE_DELAY: the rewriter answers this much later (a slow server), cut short by the deadline."""
        if self.delay_ms <= 0:
            return
        ready = time.monotonic() + self.delay_ms / 1000
        time.sleep(max(0.0, min(ready, deadline) - time.monotonic()))
        if ready > deadline:
            raise DeadlineExceeded("")

    def log(self, record: Turn, line: str, asked: str) -> str:
        record.rewrite_log = line
        self.say(INDENT + text("chat.rewrite_label") + safe_text(line, keep_newlines=False))
        return asked

    def channel_off(self, note: str, question: str) -> str:
        self.say(INDENT + note)
        self.rewriter = None
        return question

    def optional(self, function: str, args: list):
        """The value an optional function returned; Unavailable (this turn) or _ChannelOff (this session)."""
        record, problem, _ = self.student.call(function, args)
        if problem == "missing_function" or problem == "load_failed":
            raise _ChannelOff(text("chat.rewrite_missing", function=function))
        if record is None:
            raise Unavailable(f"{function}: {text(f'chat.problem.{problem}')}")
        if record.raised is not None:
            raise Unavailable(text("chat.reason.raised", function=function, type=record.raised.get("type", "?")))
        returned = record.returned or {}
        if returned.get("kind") in ("str", "data"):
            return returned["value"]
        if returned.get("type") == "NoneType":
            return None
        raise Unavailable(text("chat.reason.wrong_type", function=function, type=returned.get("type", "?")))

    # --- the main channel ---------------------------------------------------------------------

    def trimmed(self, messages: list) -> list:
        """The student's trim_history when it is implemented (returns a new list), else the whole history."""
        record, problem, _ = self.student.call("trim_history", [messages])
        returned = record.returned if record is not None else None
        if returned and returned.get("kind") == "data" and returned.get("type") == "list" \
                and not returned.get("is_argument"):
            return returned["value"]
        if not self.trim_note_shown:
            self.say(INDENT + text("chat.no_trim"))
            self.trim_note_shown = True
        return messages

    def ask(self, function: str, argument):
        record, problem, detail = self.student.call(function, [argument])
        if record is None:
            raise NotReady(text("chat.problem", function=function, problem=text(f"chat.problem.{problem}")))
        if record.raised is not None:
            raised = record.raised
            where = f" ({self.student.display}:{raised['line']})" if raised.get("line") else ""
            raise NotReady(text("chat.raised", function=function, type=raised.get("type"),
                                message=raised.get("message", ""), where=where))
        returned = record.returned or {}
        if returned.get("kind") != "str":
            raise NotReady(text("chat.not_str", function=function, type=returned.get("type", "?")))
        return returned["value"]

    def show(self, prompt: str, raw: str, reply: str) -> None:
        self.say(INDENT + "┌ " + text("chat.prompt"))
        for line in prompt.splitlines():
            self.say(INDENT + RULE + safe_text(line))
        self.say(INDENT + "├ " + text("chat.raw", count=len(prompt)))
        continuation = raw[len(prompt):] if raw.startswith(prompt) else raw
        for line in continuation.splitlines() or [""]:
            self.say(INDENT + RULE + safe_text(line))
        self.say(INDENT + "├ " + text("chat.reply"))
        self.say(INDENT + "└ " + literal(reply))
        self.say(text("chat.assistant") + safe_text(reply))


class _ChannelOff(Exception):
    """The rewrite channel cannot work in this session (the functions are missing); the message says so."""


def lines_from(stream, interactive: bool, demo: bool, out=sys.stdout):
    """The user's lines: the demo script, or stdin (echoed when it is not a terminal)."""
    if demo:
        for line in demo_script():
            out.write(text("chat.you") + line + "\n")
            yield line
        return
    while True:
        try:
            line = input(text("chat.you")) if interactive else stream.readline()
        except EOFError:
            if interactive:
                out.write("\n")  # Ctrl-D: the shell's prompt starts on a line of its own
            return
        if not interactive:
            if not line:
                return
            line = line.rstrip("\n")
            out.write(text("chat.you") + line + "\n")
        yield line.strip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make chat", description=__doc__.split("\n")[0])
    parser.add_argument("--student", default=str(STUB))
    parser.add_argument("--seed", type=int, help="a fixed seed gives the same conversation every time")
    parser.add_argument("--demo", action="store_true", help="replay a fixed three-turn script and leave")
    parser.add_argument("--no-rewrite", action="store_true", help="turn the rewrite channel off (REWRITE=0)")
    parser.add_argument("--rewrite-deadline", type=float, default=REWRITE_DEADLINE_MS, metavar="MS",
                        help="the rewrite's deadline in ms (REWRITE_DEADLINE=; default 500)")
    parser.add_argument("--rewrite-delay", type=float, default=0, metavar="MS",
                        help="make the rewriter this much slower, to watch the fallback (REWRITE_DELAY=)")
    parser.add_argument("--page", default=str(PAGE), help="where to write the session page (CHAT_PAGE=)")
    args = parser.parse_args(argv)
    seed = DEMO_SEED if args.demo and args.seed is None else args.seed
    interactive = sys.stdin.isatty() and not args.demo
    if interactive:
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
    with own_terminal():
        try:
            return run(args, seed, interactive)
        except KeyboardInterrupt:  # Ctrl-C before the chat began: leave quietly, like /quit
            print()
            return 0


def run(args, seed, interactive: bool) -> int:
    model, rewriter = models()
    with StudentRun(Path(args.student), display=display_name(args.student)) as student:
        chat = Chat(student, model, random.Random(seed), rewriter=None if args.no_rewrite else rewriter,
                    deadline_ms=args.rewrite_deadline, delay_ms=args.rewrite_delay, exact_ms=not args.demo)
        chat.say(text("chat.welcome", file=student.display))
        chat.say(text("chat.tiny_note"))
        chat.say(text("chat.no_seed") if seed is None else text("chat.seed", seed=seed))
        chat.say(text("chat.rewrite_off") if args.no_rewrite
                 else text("chat.rewrite_on", ms=f"{args.rewrite_deadline:g}"))
        code = 0
        try:
            for line in lines_from(sys.stdin, interactive, args.demo):
                if line in ("/quit", "/exit"):
                    break
                if line == "/reset":
                    chat.reset()
                    chat.say(INDENT + text("chat.reset"))
                elif line:
                    chat.turn(line)
        except NotReady as reason:
            chat.say(INDENT + str(reason))
            code = 1
        except KeyboardInterrupt:  # Ctrl-C: the page is still written, and make sees no error
            chat.say("")
        if chat.turns:
            meta = {"file": student.display, "seed": seed, "rewrite": not args.no_rewrite,
                    "deadline_ms": args.rewrite_deadline, "delay_ms": args.rewrite_delay}
            session_page.write(Path(args.page), chat.turns, meta)
            chat.say(text("chat.page", path=display_name(args.page)))
    return code


if __name__ == "__main__":
    sys.exit(main())

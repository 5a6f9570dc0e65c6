"""`make chat`: talk to a tiny real language model through your own format_prompt and extract_response.

Each turn shows the prompt your `format_prompt` builds, the model's raw output and the reply your
`extract_response` cuts out; a follow-up is rewritten and searched in the lab's sheet first.  `/help` lists
the commands.  Why: docs/design.md#lab09chatmainpy
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from framework import ROOT, STUB, display_name
from lab09.chat import corpus, session_page, sessions
from lab09.chat.answers import Answerer
from lab09.chat.retrieval import KnowledgeBase, evidence_line
from lab09.chat.rewriter import Rewriter
from lab09.chat.tinylm import DeadlineExceeded, count_tokens
from labkit.i18n import current_language, text
from labkit.render import INDENT, literal
from labkit.run.engine import Limits, StudentRun
from labkit.terminal import own_terminal
from labkit.untrusted import safe_text

DEMO_SCRIPTS = {
    "zh": ("trim_history 会保留 system 消息吗？", "它会抛出 ValueError 吗？", "那其他角色呢？"),
    "en": ("Does trim_history keep the system message?", "Does it raise ValueError?", "And other roles?"),
}
# a question, a follow-up with a pronoun, a vaguer one (neither follow-up is in the models' corpus)
DEMO_SEED = 9
MAX_TURNS = 6  # what trim_history keeps (its default), and in the demo only 2, so trimming shows by turn 3
DEMO_MAX_TURNS = 2
REWRITE_TOKENS = 100  # the rewriter's output cap
REWRITE_DEADLINE_MS = 500
PAGE = ROOT / "chat-session.html"
RULE = "│ "
HELP, RESET, QUIT = "/help", "/reset", ("/quit", "/exit")
# What the optional functions are asked once at start-up, to tell the stub from an implementation.
PROBE_HISTORY = (
    {"role": "user", "content": "什么是 token？"},
    {"role": "assistant", "content": "模型读写文本的最小单位。"},
)
PROBE_QUESTION = "那中文呢？"
PROBE_REPLY = "\n  中文里一个 token 有多长？\n（补全了追问里省略的部分）"


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
    """What one turn did, for the page and the database: every text comes from the student's code or a model."""

    number: int
    question: str  # as the student typed it: what the history keeps
    asked: str = ""  # the question the turn used: the rewrite, or the question itself
    follow_up: bool = False  # the history held a question before this one
    rewrite_state: str = ""  # "done", "same", "none" (no history), "fallback", or "" (the channel is off)
    rewrite_reason: str = ""  # why it fell back
    rewrite_ms: float | None = None
    rewrite_log: str = ""  # the log line, without its label
    rewrite_prompt: str | None = None
    rewrite_raw: str | None = None
    rewrite_reply: str | None = None
    hits_original: list = field(default_factory=list)  # retrieval.Hit, best first
    hits_rewritten: list | None = None  # None: the rewrite channel did not run this turn
    evidence: str = ""  # the part of this turn's message before the question: the passages found
    evidence_tokens: int = 0
    prompt: str = ""
    raw: str = ""
    reply: str = ""
    messages_before: int = 0  # messages sent without trimming, and after trim_history
    messages_after: int = 0
    tokens_before: int = 0
    tokens_after: int = 0

    @property
    def hits_used(self) -> list:
        """The hits this turn's message carried: the rewrite's when that search ran, else the original's."""
        return self.hits_rewritten if self.hits_rewritten is not None else self.hits_original


@dataclass(frozen=True)
class Settings:
    """What a chat keeps to for its whole session: the rewrite's deadline and the delay REWRITE_DELAY adds (ms),
    whether the log shows the rewrite's exact time (not in the demo, whose transcript is fixed), and the turns
    trim_history keeps."""

    deadline_ms: float = REWRITE_DEADLINE_MS
    delay_ms: float = 0
    exact_ms: bool = True
    max_turns: int = MAX_TURNS


def models() -> tuple:
    """The chat model and the rewriter, each trained at start-up on its text from topics.txt."""
    topics = corpus.read_topics()
    return Answerer(topics), Rewriter(topics)


class Chat:
    """The history, the two models, the knowledge base, the store and the student's functions."""

    def __init__(
        self,
        student: StudentRun,
        model: Answerer,
        rng: random.Random,
        out=sys.stdout,
        rewriter: Rewriter | None = None,
        knowledge: KnowledgeBase | None = None,
        store=None,
        settings: Settings = Settings(),
    ):
        self.student, self.model, self.rng, self.out = student, model, rng, out
        self.rewriter, self.knowledge, self.store, self.settings = rewriter, knowledge, store, settings
        self.rewrite_rng = random.Random(rng.getrandbits(32))
        self.history = [system_message()]
        self.turns: list[Turn] = []
        self.trim_note_shown = False
        self.trim_status = self.probe_trim()
        self.rewrite_status = self.probe_rewrite() if rewriter is not None else ("off", "")
        if self.rewrite_status[0] != "ready":
            self.rewriter = None

    @property
    def rewrite_code(self) -> str:
        """The rewrite channel's state as stored: "ready", "off", "stub:clean_rewrite", "missing:rewrite_messages"."""
        state, function = self.rewrite_status
        return f"{state}:{function}" if function and state != "ready" else state

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def reset(self) -> None:
        self.history = [system_message()]

    # --- what the optional functions can do, asked once -----------------------------------------

    def probe_trim(self) -> tuple:
        """("ready" | "stub" | "missing", "trim_history"): the stub gives back the list it was given."""
        turns = [
            message
            for n in range(self.settings.max_turns + 1)
            for message in ({"role": "user", "content": f"Q{n}"}, {"role": "assistant", "content": f"A{n}"})
        ]
        record, problem, _ = self.student.call("trim_history", [[system_message(), *turns], self.settings.max_turns])
        if problem in ("missing_function", "load_failed"):
            return "missing", "trim_history"
        returned = record.returned if record is not None and record.raised is None else None
        return ("stub" if returned and returned.get("is_argument") else "ready"), "trim_history"

    def probe_rewrite(self) -> tuple:
        """("ready" | "stub" | "missing", the function): the stubs return None and the question."""
        history = [system_message(), *PROBE_HISTORY]
        for function, args, stub in (
            ("rewrite_messages", [history, PROBE_QUESTION], None),
            ("clean_rewrite", [PROBE_REPLY, PROBE_QUESTION], PROBE_QUESTION),
        ):
            record, problem, _ = self.student.call(function, args)
            if problem in ("missing_function", "load_failed"):
                return "missing", function
            returned = (record.returned or {}) if record is not None and record.raised is None else {}
            if (returned.get("type") == "NoneType") if stub is None else (returned.get("value") == stub):
                return "stub", function
        return "ready", ""

    def banner(self) -> list:
        """What this chat will do with the optional parts, said before the first turn (and nothing more)."""
        lines = []
        if self.knowledge is not None:
            language = current_language()
            size = self.knowledge.size(language)
            lines.append(
                text("chat.knowledge_on", sheet=_sheet(language), count=size)
                if size
                else text("chat.knowledge_off", sheet=_sheet(language))
            )
        state, function = self.trim_status
        lines.append(text(f"chat.trim_{state}", n=self.settings.max_turns, function=function))
        state, function = self.rewrite_status
        lines.append(text(f"chat.rewrite_{state}", ms=f"{self.settings.deadline_ms:g}", function=function))
        return lines

    # --- one turn -----------------------------------------------------------------------------

    def turn(self, question: str) -> str:
        record = Turn(len(self.turns) + 1, question)
        record.follow_up = any(message["role"] == "user" for message in self.history)
        if self.rewriter is not None:
            record.asked = self.rewritten(question, record)
        else:
            record.asked, record.rewrite_reason = question, self.reason_off()
        self.retrieve(record)
        sent = self.history + [{"role": "user", "content": record.evidence + record.asked}]
        context = self.trimmed(sent)
        prompt = self.ask("format_prompt", context)
        if prompt == "":
            raise NotReady(text("chat.format_empty"))
        whole = prompt if context == sent else self.ask("format_prompt", sent)
        record.prompt = prompt
        record.messages_before, record.messages_after = len(sent), len(context)
        record.tokens_before, record.tokens_after = count_tokens(whole), count_tokens(prompt)
        record.evidence_tokens = count_tokens(record.evidence)
        record.raw = self.model.generate(prompt, rng=self.rng)  # it answers from the evidence in the prompt
        record.reply = self.ask("extract_response", record.raw)
        self.show(record.prompt, record.raw, record.reply)
        if record.reply == "":
            self.say(INDENT + text("chat.extract_empty"))
        self.history += [{"role": "user", "content": question}, {"role": "assistant", "content": record.reply}]
        self.turns.append(record)
        self.keep(record)
        return record.reply

    def reason_off(self) -> str:
        """Why a follow-up was not rewritten when the channel is off (stored with it), or "" when it is on."""
        state, function = self.rewrite_status
        return {
            "off": "REWRITE=0",
            "stub": text("page.rewrite_stub", function=function),
            "missing": text("page.rewrite_missing", function=function),
        }.get(state, "")

    # --- the retrieval channel ----------------------------------------------------------------

    def retrieve(self, record: Turn) -> None:
        """Search with the original question, and with the rewrite when the rewrite channel ran this turn
        (the same question again when it fell back); the hits used become this turn's evidence."""
        if self.knowledge is None:
            return
        record.hits_original = self.knowledge.search(record.question)
        self.log_hits("chat.search_original", record.hits_original)
        if record.rewrite_state in ("done", "same", "fallback"):
            record.hits_rewritten = self.knowledge.search(record.asked)
            self.log_hits(
                "chat.search_fallback" if record.rewrite_state == "fallback" else "chat.search_rewritten",
                record.hits_rewritten,
            )
        record.evidence = self.evidence(record.hits_used, record.asked)

    def log_hits(self, label: str, hits: list) -> None:
        found = " · ".join(f"{hit.passage.short} ({hit.score:.1f})" for hit in hits) or text("chat.search_none")
        self.say(INDENT + text(label) + safe_text(found, keep_newlines=False))

    def evidence(self, hits: list, question: str) -> str:
        """The text before the question in this turn's message: a heading and one line per passage."""
        if not hits:
            return ""
        lines = [text("chat.evidence", sheet=hits[0].passage.sheet)]
        lines += [evidence_line(hit, question) for hit in hits]
        return "\n".join(lines) + "\n" + text("chat.evidence_question")

    # --- the rewrite channel ------------------------------------------------------------------

    def rewritten(self, question: str, record: Turn) -> str:
        """The question the turn uses: the student's rewrite when it came in time, else the question."""
        started = time.monotonic()
        deadline = started + self.settings.deadline_ms / 1000
        try:
            messages = self.optional("rewrite_messages", [self.history, question])
            if messages is None:
                if record.follow_up:
                    raise Unavailable(text("chat.reason.none"))
                record.rewrite_state = "none"
                return self.log(record, text("chat.rewrite_none", question=question), question)
            if not (isinstance(messages, list) and all(isinstance(m, dict) for m in messages)):
                raise Unavailable(text("chat.reason.not_list"))
            record.rewrite_prompt = self.ask("format_prompt", messages)
            self.wait(deadline)
            record.rewrite_raw = self.rewriter.generate(
                record.rewrite_prompt, max_new_tokens=REWRITE_TOKENS, rng=self.rewrite_rng, deadline=deadline
            )
            record.rewrite_reply = self.ask("extract_response", record.rewrite_raw)
            cleaned = self.optional("clean_rewrite", [record.rewrite_reply, question])
            if not isinstance(cleaned, str):
                raise Unavailable(text("chat.reason.not_str"))
            if time.monotonic() > deadline:
                raise DeadlineExceeded("")
        except DeadlineExceeded:
            return self.fell_back(record, text("chat.reason.timeout", ms=f"{self.settings.deadline_ms:g}"), started)
        except Unavailable as reason:
            return self.fell_back(record, str(reason), started)
        record.rewrite_ms = (time.monotonic() - started) * 1000
        took = (
            f"{record.rewrite_ms:.0f} ms"
            if self.settings.exact_ms
            else text("chat.within", ms=f"{self.settings.deadline_ms:g}")
        )
        if cleaned == question:
            record.rewrite_state = "same"
            return self.log(record, text("chat.rewrite_same", question=question, time=took), question)
        record.rewrite_state = "done"
        return self.log(record, text("chat.rewrite_done", question=question, rewrite=cleaned, time=took), cleaned)

    def fell_back(self, record: Turn, reason: str, started: float) -> str:
        record.rewrite_state, record.rewrite_reason = "fallback", reason
        record.rewrite_ms = (time.monotonic() - started) * 1000
        return self.log(record, text("chat.rewrite_fallback", question=record.question, reason=reason), record.question)

    def wait(self, deadline: float) -> None:
        """REWRITE_DELAY: the rewriter answers this much later (a slow server), cut short by the deadline."""
        if self.settings.delay_ms <= 0:
            return
        ready = time.monotonic() + self.settings.delay_ms / 1000
        time.sleep(max(0.0, min(ready, deadline) - time.monotonic()))
        if ready > deadline:
            raise DeadlineExceeded("")

    def log(self, record: Turn, line: str, asked: str) -> str:
        record.rewrite_log = line
        self.say(INDENT + text("chat.rewrite_label") + safe_text(line, keep_newlines=False))
        return asked

    def optional(self, function: str, args: list):
        """The value an optional function returned, or Unavailable (this turn) with the reason."""
        record, problem, _ = self.student.call(function, args)
        if record is None:
            raise Unavailable(f"{function}: {text(f'chat.problem.{problem}')}")
        if record.raised is not None:
            raise Unavailable(text("chat.reason.raised", function=function, type=record.raised.get("type", "?")))
        returned = record.returned or {}
        if returned.get("kind") == "str" or returned.get("kind") == "data" and returned.get("type") in ("list", "dict"):
            return returned["value"]
        if returned.get("type") == "NoneType":
            return None  # a number or bool is data too, but it is named by its type below
        raise Unavailable(text("chat.reason.wrong_type", function=function, type=returned.get("type", "?")))

    # --- the generation channel ---------------------------------------------------------------

    def trimmed(self, messages: list) -> list:
        """The student's trim_history once it is implemented and gives a new list, else the whole history."""
        if self.trim_status[0] != "ready":
            return messages
        record, problem, _ = self.student.call("trim_history", [messages, self.settings.max_turns])
        returned = record.returned if record is not None and record.raised is None else None
        if (
            returned
            and returned.get("kind") == "data"
            and returned.get("type") == "list"
            and not returned.get("is_argument")
        ):
            return returned["value"]
        if not self.trim_note_shown:
            if record is None:
                why = text(f"chat.problem.{problem}")
            elif record.raised is not None:
                why = text("chat.reason.raised", function="trim_history", type=record.raised.get("type", "?"))
            else:
                why = text("chat.trim_same_list")
            self.say(INDENT + text("chat.trim_failed", reason=why))
            self.trim_note_shown = True
        return messages

    def ask(self, function: str, argument):
        record, problem, detail = self.student.call(function, [argument])
        if record is None:
            raise NotReady(text("chat.problem", function=function, problem=text(f"chat.problem.{problem}")))
        if record.raised is not None:
            raised = record.raised
            where = f" ({self.student.display}:{raised['line']})" if raised.get("line") else ""
            raise NotReady(
                text(
                    "chat.raised",
                    function=function,
                    type=raised.get("type"),
                    message=raised.get("message", ""),
                    where=where,
                )
            )
        returned = record.returned or {}
        if returned.get("kind") != "str":
            raise NotReady(text("chat.not_str", function=function, type=returned.get("type", "?")))
        return returned["value"]

    def show(self, prompt: str, raw: str, reply: str) -> None:
        self.say(INDENT + "┌ " + text("chat.prompt"))
        for line in prompt.splitlines():
            self.say(INDENT + RULE + safe_text(line))
        self.say(INDENT + "├ " + text("chat.raw", count=len(prompt)))
        continuation = raw[len(prompt) :] if raw.startswith(prompt) else raw
        for line in continuation.splitlines() or [""]:
            self.say(INDENT + RULE + safe_text(line))
        self.say(INDENT + "├ " + text("chat.reply"))
        self.say(INDENT + "└ " + literal(reply))
        self.say(text("chat.assistant") + safe_text(reply))

    # --- the store ----------------------------------------------------------------------------

    def keep(self, record: Turn) -> None:
        """Commit the turn; a store that fails is said once and left alone for the rest of the chat."""
        if self.store is None:
            return
        try:
            self.store.add_turn(record, record.question, record.reply)
        except sqlite3.Error as problem:
            self.say(INDENT + text("store.failed", path=self.store.path.name, problem=str(problem)))
            self.store = None


def _sheet(language: str) -> str:
    return "TASK.en.md" if language == "en" else "TASK.md"


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


def command(chat: Chat, line: str) -> bool:
    """Carry out a /command; False when the line is a question (or /quit, which the caller handles)."""
    if not re.fullmatch(r"/[A-Za-z]+", line) or line in QUIT:
        return False
    if line == RESET:
        chat.reset()
        chat.say(INDENT + text("chat.reset"))
    elif line == HELP:
        chat.say(INDENT + text("chat.help"))
    else:
        chat.say(INDENT + text("chat.unknown_command", command=line))
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make chat", description=__doc__.split("\n")[0])
    parser.add_argument("--student", default=str(STUB))
    parser.add_argument("--seed", type=int, help="a fixed seed gives the same conversation every time")
    parser.add_argument("--demo", action="store_true", help="replay a fixed three-turn script and leave")
    parser.add_argument("--no-rewrite", action="store_true", help="turn the rewrite channel off (REWRITE=0)")
    parser.add_argument(
        "--rewrite-deadline",
        type=float,
        default=REWRITE_DEADLINE_MS,
        metavar="MS",
        help="the rewrite's deadline in ms (REWRITE_DEADLINE=; default 500)",
    )
    parser.add_argument(
        "--rewrite-delay",
        type=float,
        default=0,
        metavar="MS",
        help="make the rewriter this much slower, to watch the fallback (REWRITE_DELAY=)",
    )
    parser.add_argument("--page", default=str(PAGE), help="where to write the session page (CHAT_PAGE=)")
    parser.add_argument("--db", help=f"the sessions database (CHAT_DB=; default {sessions.FILE_NAME} beside the page)")
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
        except BrokenPipeError:  # `make chat | head`: the reader left; so do we, without a traceback
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0


def student_run(path) -> StudentRun:
    """The student's file for a chat: each call under make test's limits, the session as long as they like."""
    return StudentRun(Path(path), display=display_name(path), limits=Limits.open_ended())


def run(args, seed, interactive: bool) -> int:
    model, rewriter = models()
    knowledge = KnowledgeBase()
    opened = sessions.open_store(Path(args.db) if args.db else Path(args.page).with_name(sessions.FILE_NAME))
    with student_run(args.student) as student:
        settings = Settings(
            deadline_ms=args.rewrite_deadline,
            delay_ms=args.rewrite_delay,
            exact_ms=not args.demo,
            max_turns=DEMO_MAX_TURNS if args.demo else MAX_TURNS,
        )
        chat = Chat(
            student,
            model,
            random.Random(seed),
            rewriter=None if args.no_rewrite else rewriter,
            knowledge=knowledge,
            store=opened.store,
            settings=settings,
        )
        chat.say(text("chat.welcome", file=student.display))
        chat.say(text("chat.tiny_note"))
        chat.say(text("chat.no_seed") if seed is None else text("chat.seed", seed=seed))
        for line in chat.banner() + ([opened.note] if opened.note else []):
            chat.say(line)
        meta = {
            "file": student.display,
            "seed": seed,
            "rewrite_state": chat.rewrite_code,
            "trim_state": chat.trim_status[0],
            "deadline_ms": settings.deadline_ms,
            "delay_ms": settings.delay_ms,
            "max_turns": settings.max_turns,
            "demo": args.demo,
            "language": current_language(),
            "system": text("chat.system"),
        }
        if opened.store is not None:
            opened.store.begin(meta)
        code = 0
        try:
            for line in lines_from(sys.stdin, interactive, args.demo):
                if line in QUIT:
                    break
                if line and not command(chat, line):
                    chat.turn(line)
        except NotReady as reason:
            chat.say(INDENT + str(reason))
            code = 1
        except KeyboardInterrupt:  # Ctrl-C: the page is still written, and make sees no error
            chat.say("")
        if chat.turns:
            store = chat.store
            try:
                session_page.write(Path(args.page), chat.turns, meta, store)
                chat.say(text("chat.page", path=display_name(args.page)))
            except OSError as problem:
                chat.say(text("chat.page_failed", path=display_name(args.page), problem=problem.strerror or problem))
            if store is not None:
                chat.say(
                    text("chat.stored", path=display_name(str(store.path)), session=store.session, count=store.count())
                )
        if opened.store is not None:
            opened.store.close()
    return code


if __name__ == "__main__":
    sys.exit(main())

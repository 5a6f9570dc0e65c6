"""`make chat`: talk to a tiny real language model through your own format_prompt and extract_response.

Each turn shows the three steps of the protocol: the prompt your `format_prompt` builds from the
history, the raw output of `model.generate` (the prompt plus what the model wrote), and the reply
your `extract_response` cuts out of it, which then joins the history.  Your functions run in the
same sandboxed child as in `make test`.  `/reset` starts over, `/quit` (or end of input) leaves.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from framework import STUB, display_name
from framework.harness.engine import StudentRun
from framework.harness.i18n import text
from framework.harness.render import INDENT, literal
from framework.harness.tinylm import TinyLM

SYSTEM = {"role": "system", "content": "你是一个简洁的助手。"}
DEMO_SCRIPT = ("什么是 token？", "那中文呢？", "还有别的吗？")  # a question, a follow-up, a vaguer one
DEMO_SEED = 9
RULE = "│ "


class NotReady(Exception):
    """The student's function cannot serve the chat yet; the message says why and what to do."""


class Chat:
    """The history, the model and the student's three functions."""

    def __init__(self, student: StudentRun, model: TinyLM, rng: random.Random, out=sys.stdout):
        self.student, self.model, self.rng, self.out = student, model, rng, out
        self.history = [dict(SYSTEM)]
        self.trim_note_shown = False

    def say(self, line: str = "") -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def turn(self, user_text: str) -> str:
        self.history.append({"role": "user", "content": user_text})
        context = self.trimmed()
        prompt = self.ask("format_prompt", context)
        if prompt == "":
            raise NotReady(text("chat.format_empty"))
        raw = self.model.generate(prompt, rng=self.rng)
        reply = self.ask("extract_response", raw)
        self.show(prompt, raw, reply)
        if reply == "":
            self.say(INDENT + text("chat.extract_empty"))
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def trimmed(self) -> list:
        """The student's trim_history when it is implemented (returns a new list), else the whole history."""
        record, problem, _ = self.student.call("trim_history", [self.history])
        returned = record.returned if record is not None else None
        if returned and returned.get("kind") == "data" and returned.get("type") == "list" \
                and not returned.get("is_argument"):
            return returned["value"]
        if not self.trim_note_shown:
            self.say(INDENT + text("chat.no_trim"))
            self.trim_note_shown = True
        return self.history

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
            self.say(INDENT + RULE + line)
        self.say(INDENT + "├ " + text("chat.raw", count=len(prompt)))
        continuation = raw[len(prompt):] if raw.startswith(prompt) else raw
        for line in continuation.splitlines() or [""]:
            self.say(INDENT + RULE + line)
        self.say(INDENT + "├ " + text("chat.reply"))
        self.say(INDENT + "└ " + literal(reply))
        self.say(text("chat.assistant") + reply)


def lines_from(stream, interactive: bool, demo: bool):
    """The user's lines: the demo script, or stdin (echoed when it is not a terminal)."""
    if demo:
        for line in DEMO_SCRIPT:
            print(text("chat.you") + line)
            yield line
        return
    while True:
        try:
            line = input(text("chat.you")) if interactive else stream.readline()
        except EOFError:
            return
        if not interactive:
            if not line:
                return
            line = line.rstrip("\n")
            print(text("chat.you") + line)
        yield line.strip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make chat", description=__doc__.split("\n")[0])
    parser.add_argument("--student", default=str(STUB))
    parser.add_argument("--seed", type=int, help="a fixed seed gives the same conversation every time")
    parser.add_argument("--demo", action="store_true", help="replay a fixed three-turn script and leave")
    args = parser.parse_args(argv)
    seed = DEMO_SEED if args.demo and args.seed is None else args.seed
    interactive = sys.stdin.isatty() and not args.demo
    if interactive:
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
    model = TinyLM.from_corpus()
    with StudentRun(Path(args.student), display=display_name(args.student)) as student:
        chat = Chat(student, model, random.Random(seed))
        chat.say(text("chat.welcome", file=student.display, seed="-" if seed is None else seed))
        try:
            for line in lines_from(sys.stdin, interactive, args.demo):
                if line in ("/quit", "/exit"):
                    break
                if line == "/reset":
                    chat.history = [dict(SYSTEM)]
                    chat.say(INDENT + text("chat.reset"))
                elif line:
                    chat.turn(line)
        except NotReady as reason:
            chat.say(INDENT + str(reason))
            return 1
        except KeyboardInterrupt:
            chat.say("")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Lab09's mistake detectors: what the judge asks the lab before its own lab-independent hints.

A hint comes from where the first difference lies, or from the shape of the input an exception broke on;
no detector decides what is right (what a slip writes: lab09/slip_outputs.py).  Why: docs/design.md#lab09mistakespy
"""

from __future__ import annotations

import re
import string
from collections import Counter
from dataclasses import dataclass

from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG
from lab09.examples import GENERATION_LINE
from lab09.slip_outputs import BOUNDARIES, REWRITES, ROLE_TAG, ROLE_TAGS, prompt_parts, rewritten
from labkit.judge import Detectors, first_argument, first_difference
from labkit.spec import Case, Example


class Lab09Detectors(Detectors):
    """The detectors the judge asks (labkit.judge.Detectors), each None where it knows nothing more."""

    def wrong_value(self, case: Case, example: Example, actual, others=()) -> str | None:
        return mistake_hint(case, example, actual, others)

    def raised(self, raised: dict, function: str, given) -> str | None:
        """By what an exception says for the likely slips, otherwise by the shape of the input it broke on."""
        kind, message = raised.get("type", ""), raised.get("message", "")
        if kind == "AttributeError" and "'dict' object has no attribute" in message:
            return "hint.dict_access"  # message.role instead of message["role"]
        if function == "extract_response" and isinstance(given, str):
            return _reply_exception_hint(kind, message, given)
        if function == "format_prompt":
            return _prompt_exception_hint(kind, message, given)
        return None

    def problem(self, problem: str, case: Case, example: Example | None = None) -> str | None:
        if problem == "none_returned":
            return _none_hint(case.function, first_argument(example), example.expected)
        if problem == "same_object":
            return "hint.trim_new_list"  # T4: a new list
        if problem == "modified_input":
            return "hint.input_modified" if case.function == "format_prompt" else None  # F4; T4 and R5 are cases'
        if problem == "timeout":  # the loop a student writes differs: over the messages, or a search
            return "hint.timeout_prompt" if case.function == "format_prompt" else None
        if problem == "not_mentioned":
            return "hint.error_names_role"  # F2: the ValueError names the unknown role
        return None


DETECTORS = Lab09Detectors()


# --- the hint for a wrong value ---------------------------------------------------------------------

DIAGNOSED_CHARS = 1 << 16  # a value longer than this is judged on its own call only (its neighbours are not read)


def mistake_hint(case: Case, example: Example, actual, others=()) -> str | None:
    """The hint for a wrong value: of the explanations of `actual` (see `explanations`), the first that the
    other answered calls of the check do not contradict, and of those the one most of the other wrong
    answers share (e.g. `=` instead of `+=` and a dropped system message read the same on [system, user],
    but not on [user, assistant, user]; an output that is only "<|assistant|>" reads as a fallback to the
    whole output and as a slice that kept the tag, and the other replies tell which).  `others` holds
    (example, returned str) pairs.  With no explanation, None (the judge gives the case's hint)."""
    if case.section == "rewrite":  # the explanations below are the prompt's and the reply's (F and E rules)
        return _rewrite_slip(example.expected, actual) or example.mistakes.get(actual)
    if not isinstance(actual, str):
        return _history_slip(example.expected, actual)
    found = explanations(example, actual)
    if not found:
        return None
    fitting = [hint for hint in found if all(_fits(hint, other, value) for other, value in others)] or found
    if len(fitting) == 1 or not others:
        return fitting[0]
    shared = Counter(
        hint
        for other, value in others
        if value != other.expected and len(value) <= DIAGNOSED_CHARS
        for hint in set(explanations(other, value))
    )
    return max(fitting, key=lambda hint: shared[hint])  # the first of the most shared


def explanations(example: Example, actual: str) -> list:
    """Every hint that explains `actual` as the answer to `example`, most specific first: a known mistake of
    the example, then the slips the judge recognises (`slips`)."""
    found = [example.mistakes[candidate] for candidate in (actual, actual.strip()) if candidate in example.mistakes]
    return list(dict.fromkeys(found + slips(example, actual)))


def slips(example: Example, actual: str) -> list:
    """The slips that explain `actual` as the answer to `example`: a slip replayed on the expected prompt that
    gives exactly `actual`, then what the first difference shows (a prompt) or where the reply was taken
    from the raw output (a reply).  None of them decides what is right: that is the table's expected value."""
    given, expected = first_argument(example), example.expected
    if not isinstance(expected, str):
        return []
    if isinstance(given, str):
        return _reply_slips(expected, actual, given)
    if isinstance(given, list):
        return _prompt_slips(expected, actual, given)
    return []


def _fits(hint: str, example: Example, value: str) -> bool:
    """Whether the slip `hint`, where it can be replayed on an expected prompt (in one of the ways it is written),
    gives `value` for `example`."""
    replays = [rewritten(rewrite, example.expected) for name, rewrite in REWRITES if name == hint]
    return not replays or any(replayed is None or replayed == value for replayed in replays)


def _history_slip(expected: list, actual: list):
    """What is wrong with a trimmed history, judged by the properties TASK.md's rules T1–T3 give it."""
    roles = [m.get("role") if isinstance(m, dict) else None for m in actual]
    if any(role not in ("system", "user", "assistant") for role in roles):
        return "hint.trim_other_roles"
    if roles.count("system") != [m["role"] for m in expected].count("system") or roles[: roles.count("system")] != [
        "system"
    ] * roles.count("system"):
        return "hint.trim_keep_system"
    rest = [role for role in roles if role != "system"]
    if rest and rest[0] == "assistant":
        return "hint.trim_starts_with_assistant"
    return None


def _rewrite_slip(expected, actual):
    """What is wrong with a rewrite request, judged by the lines TASK.md's rules R2–R4 give it."""
    if not isinstance(expected, list) or not isinstance(actual, list):
        return None
    if (
        [m.get("role") if isinstance(m, dict) else None for m in actual] != ["system", "user"]
        or actual[0].get("content") != expected[0]["content"]
        or not isinstance(actual[1].get("content"), str)
    ):
        return "hint.r1"
    text = actual[1]["content"]
    wanted, got = expected[1]["content"].split("\n"), text.split("\n")
    if (text.endswith("\n") and text.rstrip("\n").split("\n") == wanted) or (
        "\n\n" in text and [line for line in got if line] == wanted
    ):
        return "hint.rewrite_newlines"  # a newline after every line, or blank lines between them
    labels = {"用户:": "用户：", "助手:": "助手：", "问题:": "问题："}
    if (
        any(line[:3] in labels for line in got)
        and [labels.get(line[:3], line[:3]) + line[3:] for line in got] == wanted
    ):
        return "hint.rewrite_ascii_colon"
    older = got[: len(got) - len(wanted)]
    if older and got[len(older) :] == wanted and all(line[:3] in ("用户：", "助手：") for line in older):
        return "hint.r4"  # the right lines, after older turns
    if len(got) > len(wanted):
        return "hint.r3"
    return "hint.r2"


# --- the prompt: a slip replayed, or the part where the first difference lies -------------------------

_TAG_LIKE = re.compile(r"<\|[^<>|\n]{0,20}\|>")  # a tag as a student might misspell it: short, on one line
_END_MARK = re.compile(r"</s>|<\|[a-z_]{2,12}\|>|<end_of_turn>|\[/INST\]")  # a turn's end in other templates


def _prompt_slips(expected: str, actual: str, messages: list) -> list:
    if actual == "":
        return ["hint.returned_empty"] if expected else []  # plausibly not written yet
    found = [hint for hint, rewrite in REWRITES if rewritten(rewrite, expected) == actual]
    found += [hint for replay in (_end_tags, _crlf, _blank_lines) if (hint := replay(expected, actual))]
    return found + _prompt_difference(expected, actual, messages)


def _end_tags(expected: str, actual: str):
    """<|end|> after every message, on the content line (Phi-3's template) or on a line of its own."""
    if END_TAG in expected or END_TAG not in actual:
        return None
    return (
        "hint.end_tag_in_prompt"
        if expected in (actual.replace(END_TAG + "\n", ""), actual.replace(END_TAG, ""))
        else None
    )


def _crlf(expected: str, actual: str):
    return (
        "hint.crlf"
        if "\r\n" in actual and "\r\n" not in expected and actual.replace("\r\n", "\n") == expected
        else None
    )


def _blank_lines(expected: str, actual: str):
    """Blank lines between messages (a blank line after the generation line is F3's: _prompt_difference)."""
    return "hint.blank_line" if "\n\n" in actual.rstrip("\n") and re.sub(r"\n{2,}", "\n", actual) == expected else None


def _prompt_difference(expected: str, actual: str, messages: list) -> list:
    """The hint for the part of the prompt where `actual` first differs from `expected` (rules F1–F3): a
    message's tag line (F2, or F1 for a message missing or out of place), its content line (F1), the
    newlines (F1), the generation line and what follows it (F3)."""
    parts = prompt_parts(messages, expected)
    if parts is None:
        return []
    at = first_difference(expected, actual)
    if at >= len(expected):
        return ["hint.generation_tag_twice" if actual.startswith(GENERATION_LINE, at) else "hint.after_generation"]
    part, start, _, index = next(piece for piece in parts if piece[1] <= at < piece[2])
    here, rest = actual[start:], actual[at:]
    if part == "generation":
        return [_at_generation(at - start, rest)]
    if _generation_after_user(actual, parts, messages, index):
        return ["hint.generation_after_every_user"]
    content = messages[index]["content"]
    if part == "tag":
        return [_at_tag(here, messages, index)]
    if part == "tag_end":
        return [_at_tag_end(rest, content)]
    if part == "content":
        return [_at_content(rest, expected[at : at + 2])]
    return [_at_content_end(rest, messages, index)]


def _generation_after_user(actual: str, parts: list, messages: list, index: int) -> bool:
    """Whether a generation line stands where message `index`, which follows a user message, should begin,
    and that message's tag after it (F3: one generation line, at the very end; the first difference lies in the
    tag line after a user message, or in an assistant's content, whose tag line the generation line looks like)."""
    if not 0 < index < len(messages) or messages[index - 1]["role"] != "user":
        return False
    begin = next(start for part, start, _, at in parts if at == index and part == "tag")
    return actual.startswith(GENERATION_LINE + ROLE_TAG[messages[index]["role"]], begin)


def _starts_message(text: str, messages: list, index: int) -> bool:
    """Whether `text` starts with message `index` as the protocol writes it (past the last: the generation line)."""
    if index >= len(messages):
        return text.startswith(GENERATION_LINE)
    return text.startswith(f"{ROLE_TAG[messages[index]['role']]}\n{messages[index]['content']}\n")


def _at_tag(here: str, messages: list, index: int) -> str:
    """Message `index`'s tag line should start `here`."""
    role, content = messages[index]["role"], messages[index]["content"]
    tag = ROLE_TAG[role]
    if here == "":
        return "hint.stops_early"
    if here.startswith("\n"):
        return "hint.blank_line"
    if index == 0 and here.startswith(GENERATION_LINE) and _starts_message(here[len(GENERATION_LINE) :], messages, 0):
        return "hint.generation_at_start"
    if content.strip() and here.startswith(content):
        return "hint.content_before_tag"
    written = next((other for other in BOUNDARIES if here.startswith(other)), None)
    if written is not None:
        if here.startswith(f"{written}\n{content}\n"):  # this message, under another tag
            if written == END_TAG:
                return "hint.assistant_as_end" if role == "assistant" else "hint.role_mapping"
            return "hint.system_as_user" if (tag, written) == (SYSTEM_TAG, USER_TAG) else "hint.role_mapping"
        if written == END_TAG:
            return "hint.end_tag_in_prompt"
        later = next(
            (later for later in range(index + 1, len(messages) + 1) if _starts_message(here, messages, later)), None
        )
        if later is not None:  # a later message (or the generation line) stands here: this one is missing or moved
            if later < len(messages) and messages[later]["role"] == "system":
                return "hint.system_moved"
            if f"{tag}\n{content}\n" in here[len(f"{written}\n") :]:
                return "hint.message_order"
            return "hint.system_dropped" if role == "system" else "hint.message_dropped"
        return "hint.role_mapping"
    if here.lstrip(" \t").startswith(tag):
        return "hint.tag_line_spaces"
    if here.startswith("<") or here.split("\n", 1)[0].strip().lower() in (role, role + ":", f"[{role}]"):
        return "hint.tag_spelling"  # a tag typed by hand, or the role's name
    return "hint.tag_line_expected"


def _at_tag_end(rest: str, content: str) -> str:
    """The newline after a tag should stand at the start of `rest`."""
    if rest.startswith("\r"):
        return "hint.crlf"
    if rest.startswith("\\n"):
        return "hint.literal_backslash_n"
    if rest[:1] in (" ", "\t") and not (content[:1] in (" ", "\t") and rest.startswith(content)):
        return "hint.tag_line_spaces"
    return "hint.stops_early" if rest == "" else "hint.tag_same_line"


def _at_content(rest: str, wanted: str) -> str:
    """Inside a content line, where `wanted` should stand at the start of `rest`."""
    if rest == "":
        return "hint.stops_early"
    if wanted.startswith("\n") and rest.startswith("\r\n"):
        return "hint.crlf"
    if wanted.startswith("\n") and rest.startswith("\\n"):
        return "hint.literal_backslash_n"
    return "hint.content_verbatim"


def _at_content_end(rest: str, messages: list, index: int) -> str:
    """The newline after message `index`'s content should stand at the start of `rest`."""
    if rest == "":
        return "hint.no_generation_tag" if index == len(messages) - 1 else "hint.stops_early"
    if rest.startswith("\r"):
        return "hint.crlf"
    if rest.startswith("\\n"):
        return "hint.literal_backslash_n"
    if rest.startswith(END_TAG):
        return "hint.end_tag_in_prompt"
    if any(rest.startswith(tag) for tag in ROLE_TAGS):
        return "hint.missing_newline"
    if _END_MARK.match(rest):
        return "hint.end_mark_in_prompt"
    return "hint.content_verbatim"


def _at_generation(offset: int, rest: str) -> str:
    """The generation line, from its `offset`-th character, should stand at the start of `rest`."""
    if offset == 0:
        if rest == "":
            return "hint.no_generation_tag"
        if rest.startswith("\n"):
            return "hint.blank_line"
        if rest.startswith(END_TAG):
            return "hint.end_tag_in_prompt"
        if _END_MARK.match(rest) and not rest.startswith(ASSISTANT_TAG[:3]):
            return "hint.end_mark_in_prompt"
        return "hint.case3"
    if offset < len(ASSISTANT_TAG):
        return "hint.tag_spelling"
    if rest.startswith("\r"):
        return "hint.crlf"
    if rest.startswith("\\n"):
        return "hint.literal_backslash_n"
    return "hint.generation_tag_newline"


# --- the reply: where in the raw output it was taken from ---------------------------------------------


@dataclass(frozen=True)
class _ProtocolReply:
    """Where the protocol put the expected reply in the raw output `given`: given[start:end], after the last
    <|assistant|> (at `last`), cut at `boundary` (a `tag`, or None at the end of `given`)."""

    given: str
    expected: str
    last: int
    start: int
    end: int
    boundary: int
    tag: str | None


def _reply_slips(expected: str, actual: str, given: str) -> list:
    """What took the reply from the wrong place of the raw output `given`: its start (after the last
    <|assistant|>, E2), its end (the earliest boundary, E3), its trim (E4), or the whole text without a tag
    (E1).  The expected reply is found in `given` (where the protocol put it), not computed."""
    if not actual.strip() and expected:  # with a tag: not written yet, or cut at the reply's very start
        if ASSISTANT_TAG in given:  # (a reply made of the tag's characters only: eaten by lstrip(ASSISTANT_TAG))
            return ["hint.empty_reply"] + ["hint.tag_text_left"] * (not expected.strip(ASSISTANT_TAG))
        return ["hint.empty_when_no_tag"] + ["hint.no_tag_no_cut"] * given.lstrip().startswith(BOUNDARIES)
    last = given.rfind(ASSISTANT_TAG)
    if last < 0:
        return _tagless_slips(expected, actual, given)
    after = last + len(ASSISTANT_TAG)
    start = len(given) - len(given[after:].lstrip())  # where the expected reply begins, after any whitespace
    if not given.startswith(expected, start):
        return []
    end = start + len(expected)
    cuts = [(given.find(tag, end), tag) for tag in BOUNDARIES if tag in given[end:]]
    boundary, tag = min(cuts) if cuts else (len(given), None)
    shown = actual.strip()
    if shown == expected:
        return _trim_slips(actual, given[after:boundary], tag)
    found, protocol = [], _ProtocolReply(given, expected, last, start, end, boundary, tag)
    for place in sorted(_places(given, shown), key=lambda place: abs(place - start)):
        found += _placed(place, place + len(shown), protocol)
    if not found:
        found = _transformed(expected, shown, given, start)
    if expected == "" and shown == given.strip():
        found.insert(0, "hint.x9")  # an empty reply replaced by the whole output
    return list(dict.fromkeys(found)) or ["hint.case5" if first_difference(shown, expected) == 0 else "hint.case6"]


def _places(text: str, part: str, most: int = 8) -> list:
    """Where `part` occurs in `text` (at most `most` places)."""
    found, at = [], text.find(part) if part else -1
    while at != -1 and len(found) < most:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def _placed(place: int, stop: int, protocol: _ProtocolReply) -> list:
    """The hints for a reply taken from given[place:stop], set against where the `protocol` put it."""
    given, start, end = protocol.given, protocol.start, protocol.end
    if place == start:
        if stop > end and protocol.boundary < stop:
            return [_NOT_CUT[protocol.tag]]
        if stop < end:
            following = given[stop:end]
            if _TAG_LIKE.match(following.lstrip()):
                return ["hint.x10"]  # cut at text that only looks like a tag
            return [
                "hint.cut_at_newline"
                if "\n" in following[: len(following) - len(following.lstrip())] or following.startswith("\n")
                else "hint.x10"
            ]
        return []
    if place < start:
        earlier = given.rfind(ASSISTANT_TAG, 0, place)
        found = (
            ["hint.first_not_last"] if earlier != -1 and not given[earlier + len(ASSISTANT_TAG) : place].strip() else []
        )
        if protocol.last <= place:
            found.append("hint.tag_text_left")  # the slice began at the tag, or a character or so after it
        return found or ["hint.case5"]
    skipped = given[start:place]
    if not skipped.strip(ASSISTANT_TAG + string.whitespace):
        return ["hint.tag_text_left"]  # lstrip(ASSISTANT_TAG) took characters, not the tag
    if place >= protocol.boundary:
        return ["hint.removed_not_cut" if protocol.expected == "" else "hint.case6"]  # text from after the boundary
    return ["hint.cut_at_newline"] if given[place - 1] == "\n" else ["hint.case5"]


def _transformed(expected: str, shown: str, given: str, start: int) -> list:
    """A reply that is no piece of the raw output: its whitespace collapsed, or the boundaries deleted."""
    if shown.split() == expected.split():
        return ["hint.whitespace_only_reply"]
    if shown.startswith(expected) and not any(tag in shown for tag in BOUNDARIES):
        rest = given[start:]
        for tag in BOUNDARIES:
            rest = rest.replace(tag, "")
        if rest.strip().startswith(shown) or shown in rest:
            return ["hint.removed_not_cut"]
    return []


_NOT_CUT = {USER_TAG: "hint.no_cut_user", SYSTEM_TAG: "hint.no_cut_system", END_TAG: "hint.no_cut_end"}


def _trim_slips(actual: str, region: str, tag) -> list:
    """The reply is right but for whitespace at its ends (E4): kept at the end exactly where a boundary
    followed (stripped before the cut), only ASCII whitespace trimmed, one end trimmed, or none."""
    found = []
    if tag is not None and actual == region.lstrip() != region:
        found.append("hint.strip_after_cut")
    if actual == region.strip(string.whitespace) and actual != region.strip():
        found.append("hint.x7")
    one_side = actual.strip() != "" and actual.strip() in (actual.lstrip(), actual.rstrip())
    return found + ["hint.trim_one_side" if one_side else "hint.not_trimmed"]


def _tagless_slips(expected: str, actual: str, given: str) -> list:
    """An output without <|assistant|>: all of it is the reply, trimmed (E1, E4)."""
    shown = actual.strip()
    if shown == expected:
        return _trim_slips(actual, given, None)
    place = given.find(shown) if shown else -1
    if place != -1 and len(shown) < len(expected):
        if place > 0 and given[len(ASSISTANT_TAG) - 1 :].strip().startswith(shown):
            return ["hint.no_tag_minus_one"]  # rfind gave -1, and -1 + len(ASSISTANT_TAG) is no start
        if given[place + len(shown) :].lstrip().startswith(BOUNDARIES) or given[:place].rstrip().endswith(BOUNDARIES):
            return ["hint.no_tag_no_cut"]  # the other tags end nothing when there is no <|assistant|>
    if shown.split() == expected.split():
        return ["hint.whitespace_only_reply"]
    return ["hint.case4"]


# --- exceptions and a missing value --------------------------------------------------------------


def _none_hint(function: str, given, expected) -> str:
    """None came back: the branch that has no `return` is named by the shape of the input that took it."""
    if function == "extract_response" and isinstance(given, str):
        if ASSISTANT_TAG not in given:
            return "hint.none_no_tag"  # E1's branch
        if expected == "":
            return "hint.none_empty_reply"
        after = given[given.rfind(ASSISTANT_TAG) + len(ASSISTANT_TAG) :]
        if not any(tag in after for tag in BOUNDARIES):
            return "hint.none_no_boundary"  # E3: no boundary, the reply runs to the end
    if function == "format_prompt" and given == []:
        return "hint.none_empty_history"  # F3: an empty list still gives the generation line
    return "hint.none_returned"


def _reply_exception_hint(kind: str, message: str, given: str) -> str:
    """An exception of extract_response, named by the shape of the raw output it broke on."""
    if ASSISTANT_TAG not in given:  # rule E1's input: no tag to search for
        if kind == "ValueError" and "substring not found" in message:
            return "hint.substring_not_found"  # str.index / rindex instead of find / rfind
        return "hint.split_index" if kind == "IndexError" else "hint.raised_no_tag"
    after = given[given.rfind(ASSISTANT_TAG) + len(ASSISTANT_TAG) :]
    cut = min([after.find(tag) for tag in BOUNDARIES if tag in after], default=-1)
    if not after[: cut if cut >= 0 else len(after)].strip():
        return "hint.raised_empty_reply"  # nothing, or only whitespace, before the end or a boundary
    return "hint.raised_no_boundary" if cut < 0 else "hint.raised_reply"


def _prompt_exception_hint(kind: str, message: str, given) -> str:
    """An exception of format_prompt, named by what broke: a role missing from a table, a key, or the shape
    of the history (empty, an empty content)."""
    if kind == "UnboundLocalError":
        return "hint.unbound_tag"  # an if/elif over the roles without else
    if kind == "KeyError":
        role = message.strip("'\"")
        return "hint.role_key_missing" if role in ROLE_TAG else "hint.message_keys"
    if given == []:
        return "hint.raised_empty_history"
    if isinstance(given, list) and any(isinstance(m, dict) and m.get("content") == "" for m in given):
        return "hint.raised_empty_content"
    return "hint.raised_prompt"

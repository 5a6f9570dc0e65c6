"""Lab10 · HTTP 服务: the lab spec — its files, functions, groups and their points, sections, and every check.

The four functions behind an OpenAI-compatible POST /v1/chat/completions (TASK.md 1.5.1): each check is one
entry (labels and hints in lab10/hints.py, make serve's words in lab10/serve_texts.py).  The property checks'
draws and demands are in lab10/draws.py (p1, p2), the generated checks' in lab10/generated.py (grading only), the
mistake detectors in lab10/mistakes.py.  The lab's root is the folder above this package: in the course
repository labs/lab10, in the handout its top.
"""

from __future__ import annotations

from pathlib import Path

from lab10.examples import (
    DIALOGUE,
    EVENTS_ESCAPED,
    EVENTS_NONE,
    EVENTS_OTHER_META,
    EVENTS_TWO,
    HELLO,
    MAX_TOKENS_LIMIT,
    META,
    body,
    msg,
    parsed,
)
from labkit.spec import Case, DrawnCheck, Example, Group, Lab, Option, Section, Target, Text

BASIC = Group(id="basic", points=40, stage="test", name=Text("{count}个测试", "the {count}"))
EXTENDED = Group(id="extended", points=20, stage="full", name=Text("扩展检查", "extended checks"))
PROPERTIES = Group(id="properties", points=10, stage="full", name=Text("性质检查", "property checks"))
GENERATED = Group(
    id="generated",
    points=30,
    stage="grade",
    count=120,
    name=Text("生成检查", "generated checks"),
    column_label=Text("{first}–{last}: 为每个学生随机生成的输入", "{first}–{last}: inputs drawn for each student"),
)

SECTIONS = tuple(
    Section(id=name)
    for name in ("parse", "reply", "stream", "extended", "properties", "graded_properties", "generated")
)


def _case(case_id, function, group, section, hint, *examples, **row):
    return Case(id=case_id, function=function, group=group, section=section, hint=hint, examples=examples, **row)


def _basic(case_id, function, section, *examples, rules, about):
    return _case(case_id, function, BASIC, section, f"hint.case{case_id}", *examples, rules=rules, about=about)


def _extended(case_id, function, hint, *examples):
    return _case(case_id, function, EXTENDED, "extended", hint, *examples)


def _drawn(case_id, function, group, hint, inputs):
    return DrawnCheck(id=case_id, function=function, group=group, section=group.id, hint=hint, inputs=inputs)


def _raises(text: str, field: str) -> Example:
    """A request that is wrong in `field`: ValueError, and its message names the field (P1–P5)."""
    return Example((text,), raises="ValueError", mentions=field)


FULL_REQUEST = body(
    model="lab09-tinylm",
    max_tokens=32,
    stream=True,
    temperature=0.7,
    messages=[*DIALOGUE[:2], {"role": "user", "content": "再说一遍", "name": "小明"}],
)

CHECKS = (
    # --- the eight (make test) -------------------------------------------------------------------------------
    _basic(
        "1",
        "parse_chat_request",
        "parse",
        Example((body(messages=HELLO),), parsed(HELLO)),
        rules=("P2", "P3", "P4"),
        about=Text(
            "最小的请求: 只有 messages，其余用默认值", "a minimal request: messages only, defaults for the rest"
        ),
    ),
    _basic(
        "2",
        "parse_chat_request",
        "parse",
        Example((FULL_REQUEST,), parsed([*DIALOGUE[:2], msg("user", "再说一遍")], 32, True)),
        Example(
            (body(messages=DIALOGUE, stream=False, max_tokens=MAX_TOKENS_LIMIT),), parsed(DIALOGUE, MAX_TOKENS_LIMIT)
        ),
        rules=("P2", "P5"),
        about=Text(
            "完整的请求: 多条消息，消息只留 role 和 content，其他字段不管",
            "a full request: several messages, each keeping role and content, other fields ignored",
        ),
    ),
    _basic(
        "3",
        "parse_chat_request",
        "parse",
        _raises("messages: 你好", "body"),
        _raises(body(model="lab09-tinylm"), "messages"),
        _raises(body(messages=[msg("tool", "晴，21°C")]), "role"),
        rules=("P1", "P2", "P5"),
        about=Text(
            "坏请求 (不是 JSON、缺 messages、未知角色) 抛出 ValueError，信息写出字段",
            "bad requests (no JSON, no messages, an unknown role) raise ValueError naming the field",
        ),
    ),
    _basic(
        "4",
        "parse_chat_request",
        "parse",
        _raises(body(messages=HELLO, max_tokens=True), "max_tokens"),
        _raises(body(messages=HELLO, max_tokens=0), "max_tokens"),
        _raises(body(messages=HELLO, stream="true"), "stream"),
        rules=("P3", "P4"),
        about=Text(
            "`max_tokens` 和 `stream` 的类型与范围 (`true` 不是 int)",
            "`max_tokens` and `stream`: type and range (`true` is no int)",
        ),
    ),
    _basic(
        "5",
        "chat_completion",
        "reply",
        Example(
            ("你好！有什么可以帮你？", 12, 9, "stop"),
            {
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "你好！有什么可以帮你？"},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 12, "completion_tokens": 9, "total_tokens": 21},
            },
        ),
        rules=("C1", "C2", "C3"),
        about=Text("`chat_completion`: 一个 choice 和 usage", "`chat_completion`: one choice and the usage"),
    ),
    _basic(
        "6",
        "error_body",
        "reply",
        Example(
            (400, "messages: a non-empty list is required"),
            {
                "error": {
                    "message": "messages: a non-empty list is required",
                    "type": "invalid_request_error",
                    "code": 400,
                }
            },
        ),
        Example(
            (500, "parse_chat_request: timed out"),
            {"error": {"message": "parse_chat_request: timed out", "type": "server_error", "code": 500}},
        ),
        rules=("E1", "E2", "E3"),
        about=Text("`error_body`: 400 和 500 的错误体", "`error_body`: the error bodies of 400 and 500"),
    ),
    _basic(
        "7",
        "sse_events",
        "stream",
        Example((["你", "好！"], "stop", META), EVENTS_TWO),
        rules=("S1", "S2", "S3", "S4", "S5"),
        about=Text(
            "`sse_events`: 角色块、每个 piece 一块、结束块、`[DONE]`",
            "`sse_events`: role chunk, a chunk per piece, the last chunk, `[DONE]`",
        ),
    ),
    _basic(
        "8",
        "sse_events",
        "stream",
        Example(([], "length", META), EVENTS_NONE),
        rules=("S2", "S4", "S5"),
        about=Text(
            "`sse_events`: 没有 piece 也有开头、结尾和 `[DONE]`",
            "`sse_events`: no pieces still gives the first, the last and `[DONE]`",
        ),
    ),
    # --- extended checks (make test-full) ----------------------------------------------------------------------
    _extended(
        "x1",
        "parse_chat_request",
        "hint.x1",
        Example(
            ('{\n  "messages": [\n    {"role": "user",\n     "content": "\\u4f60\\u597d \\ud83d\\ude00"}\n  ]\n}',),
            parsed([msg("user", "你好 😀")]),
        ),
        Example(
            ('{"stream":true,"messages":[{"content":"他说 \\"好\\"\\n","role":"user"}]}',),
            parsed([msg("user", '他说 "好"\n')], stream=True),
        ),
    ),
    _extended(
        "x2",
        "parse_chat_request",
        "hint.x2",
        _raises("[]", "body"),
        _raises('"你好"', "body"),
        _raises("null", "body"),
        _raises("", "body"),
    ),
    _extended(
        "x3",
        "parse_chat_request",
        "hint.x3",
        _raises(body(messages="你好"), "messages"),
        _raises(body(messages=[]), "messages"),
        _raises(body(messages=["你好"]), "messages"),
        _raises(body(messages=None), "messages"),
    ),
    _extended(
        "x4",
        "parse_chat_request",
        "hint.x4",
        _raises(body(messages=[{"content": "你好"}]), "role"),
        _raises(body(messages=[{"role": "User", "content": "hi"}]), "role"),
        _raises(body(messages=[{"role": "user"}]), "content"),
        _raises(body(messages=[msg("system", "简洁回答。"), {"role": "user", "content": None}]), "content"),
        _raises(body(messages=[{"role": "user", "content": [{"type": "text", "text": "hi"}]}]), "content"),
        _raises(body(messages=[{"role": "user", "content": 42}]), "content"),
    ),
    _extended(
        "x5",
        "parse_chat_request",
        "hint.x5",
        Example((body(messages=HELLO, max_tokens=None),), parsed(HELLO)),
        Example((body(messages=HELLO, max_tokens=1),), parsed(HELLO, 1)),
        _raises(body(messages=HELLO, max_tokens=16.0), "max_tokens"),
        _raises(body(messages=HELLO, max_tokens=-1), "max_tokens"),
        _raises(body(messages=HELLO, max_tokens=MAX_TOKENS_LIMIT + 1), "max_tokens"),
        _raises(body(messages=HELLO, max_tokens="16"), "max_tokens"),
    ),
    _extended(
        "x6",
        "parse_chat_request",
        "hint.x6",
        Example((body(messages=HELLO, stream=None),), parsed(HELLO)),
        Example((body(messages=HELLO, stream=False),), parsed(HELLO)),
        _raises(body(messages=HELLO, stream=1), "stream"),
        _raises(body(messages=HELLO, stream="false"), "stream"),
    ),
    _extended(
        "x7",
        "parse_chat_request",
        "hint.x7",
        Example(
            (
                body(
                    messages=[
                        {"role": "user", "content": "  两边有空格  ", "name": "小明"},
                        {"role": "assistant", "content": "", "tool_calls": []},
                        msg("user", "写出 <|end|> 这个标记"),
                    ],
                    user="u-1",
                ),
            ),
            parsed([msg("user", "  两边有空格  "), msg("assistant", ""), msg("user", "写出 <|end|> 这个标记")]),
        ),
    ),
    _extended(
        "x8",
        "chat_completion",
        "hint.x8",
        Example(
            ("", 5, 0, "length"),
            {
                "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "length"}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 0, "total_tokens": 5},
            },
        ),
        Example(
            ("  两边有空格\n第二行  ", 7, 64, "length"),
            {
                "object": "chat.completion",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "  两边有空格\n第二行  "},
                        "finish_reason": "length",
                    }
                ],
                "usage": {"prompt_tokens": 7, "completion_tokens": 64, "total_tokens": 71},
            },
        ),
    ),
    _extended(
        "x9", "sse_events", "hint.x9", Example((['他说 "好"\n', "\\", "😀", "\t"], "length", META), EVENTS_ESCAPED)
    ),
    _extended(
        "x10",
        "sse_events",
        "hint.x10",
        Example((["ok"], "stop", {"id": "chatcmpl-7f3a", "created": 1712345678, "model": "tiny"}), EVENTS_OTHER_META),
    ),
    _extended(
        "x11",
        "error_body",
        "hint.x11",
        Example(
            (404, "no such path: /v1/chat"),
            {"error": {"message": "no such path: /v1/chat", "type": "invalid_request_error", "code": 404}},
        ),
        Example(
            (413, "body: too large"),
            {"error": {"message": "body: too large", "type": "invalid_request_error", "code": 413}},
        ),
        Example((503, "busy"), {"error": {"message": "busy", "type": "server_error", "code": 503}}),
        Example((599, "?"), {"error": {"message": "?", "type": "server_error", "code": 599}}),
    ),
    _extended(
        "x12",
        "error_body",
        "hint.x12",
        Example(
            (400, "  “引号” 'tool'\n"),
            {"error": {"message": "  “引号” 'tool'\n", "type": "invalid_request_error", "code": 400}},
        ),
        Example((400, ""), {"error": {"message": "", "type": "invalid_request_error", "code": 400}}),
    ),
    # --- property checks (make test-full; the grade draws each student's inputs) -------------------------------
    _drawn("p1", "parse_chat_request", PROPERTIES, "hint.p1", "lab10.draws"),
    _drawn("p2", "parse_chat_request", PROPERTIES, "hint.p2", "lab10.draws"),
    # --- generated checks (grading only: inputs drawn for each student, answers from the reference) -----------
    _drawn("g1", "parse_chat_request", GENERATED, "hint.g1", "lab10.generated"),
    _drawn("g2", "chat_completion", GENERATED, "hint.g2", "lab10.generated"),
    _drawn("g3", "sse_events", GENERATED, "hint.g3", "lab10.generated"),
    _drawn("g4", "error_body", GENERATED, "hint.g4", "lab10.generated"),
)

SERVE = Target(  # make serve: a real HTTP server answering with the student's functions (lab10/serve.py)
    name="serve",
    module="lab10.serve",
    help="help.serve",
    usage="[PORT=n]",
    notes="help.serve_options",
    options=(
        Option(name="PORT", flag="--port"),
        Option(name="SEED", flag="--seed"),
        Option(name="PACE", flag="--pace"),
        Option(name="CHECK", flag="--check", off=("", "0"), alone=True),
    ),
)

# What the handout takes from Lab09 (lab10/previous.py uses it): its spec and what that imports, the chat model, its
# given module, and its reference, shipped as the previous chapter's solution (lab10/previous.py reads it there).
PREVIOUS = {
    path: path
    for path in (
        "lab09/__init__.py",
        "lab09/spec.py",
        "lab09/examples.py",
        "lab09/chat/__init__.py",
        "lab09/chat/tinylm.py",
        "lab09/chat/corpus.py",
        "lab09/chat/topics.txt",
        "framework/tags.py",
    )
}
PREVIOUS["lab09/reference.py"] = "solutions/student.py"

LAB = Lab(
    id="lab10",
    name="Lab10",
    root=Path(__file__).resolve().parent.parent,
    student_file="framework/student.py",
    solution="solutions/student.py",
    given="framework.api",
    sheets={"zh": "TASK.md", "en": "TASK.en.md"},
    title=Text("HTTP 服务", "the chat as an HTTP service"),
    texts=("lab10.hints", "lab10.serve_texts"),
    targets=(SERVE, Target(name="test-full", help="help.lab10_test_full")),
    functions=("parse_chat_request", "chat_completion", "sse_events", "error_body"),
    groups=(BASIC, EXTENDED, PROPERTIES, GENERATED),
    sections=SECTIONS,
    checks=CHECKS,
    mistakes="lab10.mistakes:DETECTORS",
    handout="lab10-step9",
    trees=("framework", "lab10"),
    grading_only=("lab10/generated.py",),
    fixed_inputs="lab10.fixed_inputs",
    network="none",
    ships=PREVIOUS,
)

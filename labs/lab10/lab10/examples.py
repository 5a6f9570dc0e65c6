"""Lab10's shared inputs and expected values: the given module's constants, the requests and replies the spec's
checks (lab10/spec.py), the drawn checks and the server use, written once."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the lab's root (the handout's top)


def _given():
    """framework/api.py read from the lab's root by its path: in the course repository `framework` is Lab09's
    package, so an import by name would not find it (the engine reads it the same way, labkit.run.engine)."""
    spec = importlib.util.spec_from_file_location("lab10_given_api", ROOT / "framework" / "api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


API = _given()
ROLES, DEFAULT_MAX_TOKENS, MAX_TOKENS_LIMIT = API.ROLES, API.DEFAULT_MAX_TOKENS, API.MAX_TOKENS_LIMIT
COMPLETION_OBJECT, CHUNK_OBJECT, DONE_EVENT = API.COMPLETION_OBJECT, API.CHUNK_OBJECT, API.DONE_EVENT
CLIENT_ERROR, SERVER_ERROR = API.CLIENT_ERROR, API.SERVER_ERROR
FIELDS = ("body", "messages", "role", "content", "max_tokens", "stream")  # what a ValueError of P1–P4 names
META = {"id": "chatcmpl-lab10", "created": 1700000000, "model": "lab09-tinylm"}  # sse_events' meta in the checks


def msg(role: str, content: str) -> dict:
    """One message."""
    return {"role": role, "content": content}


def body(**fields) -> str:
    """A request body as a client writes it: the fields as JSON (json.dumps, ensure_ascii=False)."""
    return json.dumps(fields, ensure_ascii=False)


def parsed(messages, max_tokens: int = DEFAULT_MAX_TOKENS, stream: bool = False) -> dict:
    """What parse_chat_request returns (P2–P5)."""
    return {"messages": [dict(message) for message in messages], "max_tokens": max_tokens, "stream": stream}


HELLO = [msg("user", "你好")]
DIALOGUE = [
    msg("system", "你是一个简洁的助手。"),
    msg("user", "什么是 token？"),
    msg("assistant", "模型读写文本的最小单位。"),
    msg("user", "中文也一样吗？"),
]

# --- expected event lists of the sse_events checks: data made from the reference solution (TASK.md 1.5.4) ---

EVENTS_TWO = [
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\u4f60"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\u597d\\uff01"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n',
    'data: [DONE]\n\n',
]
EVENTS_NONE = [
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}\n\n',
    'data: [DONE]\n\n',
]
EVENTS_ESCAPED = [
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\u4ed6\\u8bf4 \\"\\u597d\\"\\n"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\\\"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\ud83d\\ude00"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {"content": "\\t"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-lab10", "object": "chat.completion.chunk", "created": 1700000000, "model": "lab09-tinylm"'
    ', "choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}\n\n',
    'data: [DONE]\n\n',
]
EVENTS_OTHER_META = [
    'data: {"id": "chatcmpl-7f3a", "object": "chat.completion.chunk", "created": 1712345678, "model": "tiny", "choice'
    's": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-7f3a", "object": "chat.completion.chunk", "created": 1712345678, "model": "tiny", "choice'
    's": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": null}]}\n\n',
    'data: {"id": "chatcmpl-7f3a", "object": "chat.completion.chunk", "created": 1712345678, "model": "tiny", "choice'
    's": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}\n\n',
    'data: [DONE]\n\n',
]

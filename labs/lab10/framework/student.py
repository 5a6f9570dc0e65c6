"""Lab10 · HTTP 服务 —— 本实验只需要修改这个文件。

实现四个函数 (规则见 TASK.md 1.5.2 – 1.5.5)，它们是一个 OpenAI 兼容的 POST /v1/chat/completions 背后的纯函数:
    parse_chat_request(body)          请求体 (JSON 文本) → {"messages", "max_tokens", "stream"}
    chat_completion(reply, ...)       不流式时的响应体
    sse_events(pieces, ...)           流式响应: Server-Sent Events
    error_body(status, message)       出错时的响应体
完成后运行: make clean && make test；全部通过以后 make serve 启动真正的 HTTP 服务 (TASK.md 1.5.7)
"""

import json  # noqa: F401  (json.loads / json.dumps: TASK.md 1.5.2、1.5.4)

from framework.api import (CHUNK_OBJECT, CLIENT_ERROR, COMPLETION_OBJECT, DEFAULT_MAX_TOKENS, DONE_EVENT,  # noqa: F401
                           MAX_TOKENS_LIMIT, ROLES, SERVER_ERROR)


def parse_chat_request(body: str) -> dict:
    r"""把 POST /v1/chat/completions 的请求体 (JSON 文本) 变成 {"messages", "max_tokens", "stream"}。

    messages 里每条只保留 role 和 content；max_tokens 默认 DEFAULT_MAX_TOKENS，stream 默认 False；其他字段不管。
    请求有错时 raise ValueError，信息里写出出错的字段: body、messages、role、content、max_tokens 或 stream。
    例: parse_chat_request('{"messages": [{"role": "user", "content": "hi"}]}')["max_tokens"] == DEFAULT_MAX_TOKENS
    """
    # TODO (TASK.md 1.5.2 规则 P1): json.loads(body)；不是 JSON、或者不是 JSON 对象时 raise ValueError("body: ...")
    # TODO (规则 P2): messages 必须是非空列表；每条是对象，role 是 ROLES 之一，content 是 str；只保留 role 和 content
    # TODO (规则 P3): max_tokens 没有 (或为 null) 时用 DEFAULT_MAX_TOKENS；否则必须是 1..MAX_TOKENS_LIMIT 的 int (bool 不算)
    # TODO (规则 P4): stream 没有 (或为 null) 时是 False；否则必须是 bool
    # TODO (规则 P5): 返回正好三个键的新字典；ValueError 的信息里写出出错的字段名
    return {}


def chat_completion(reply: str, prompt_tokens: int, completion_tokens: int, finish_reason: str) -> dict:
    r"""不流式时的响应体 (id、created、model 由服务器补上)。

    一个 choice: index 0，message 是 {"role": "assistant", "content": reply}，还有 finish_reason；
    usage 写出三个 token 数，total_tokens = prompt_tokens + completion_tokens。
    例: chat_completion("你好", 3, 2, "stop")["usage"]["total_tokens"] == 5
    """
    # TODO (TASK.md 1.5.3 规则 C1–C3): 按 1.5.3 的样子返回字典 (不要 id、created、model: 服务器会补上)
    return {}


def sse_events(pieces: list[str], finish_reason: str, meta: dict) -> list[str]:
    r"""流式响应: Server-Sent Events 的事件列表，每个事件是 "data: " + json.dumps(块) + "\n\n"。

    第一块的 delta 是 {"role": "assistant", "content": ""}；每个 piece 一块，delta 是 {"content": piece}；
    最后一块的 delta 是 {}，带上 finish_reason；最后是 DONE_EVENT。每块都带 meta 的 id、created、model。
    例: sse_events([], "stop", {"id": "c", "created": 0, "model": "m"})[-1] == "data: [DONE]\n\n"
    """
    # TODO (TASK.md 1.5.4 规则 S1–S5): 第一块 (角色)、每个 piece 一块、最后一块 (finish_reason)、DONE_EVENT
    return []


def error_body(status: int, message: str) -> dict:
    r"""出错时的响应体: {"error": {"message": message, "type": 类型, "code": status}}。

    4xx 的类型是 CLIENT_ERROR ("invalid_request_error")，5xx 的是 SERVER_ERROR ("server_error")。
    例: error_body(404, "no such path")["error"]["type"] == "invalid_request_error"
    """
    # TODO (TASK.md 1.5.5 规则 E1–E3): {"error": {"message": ..., "type": ..., "code": status}}
    return {}


if __name__ == "__main__":
    # 在这里试你的函数: python framework/student.py (测试不会运行这里的代码)
    print(parse_chat_request('{"messages": [{"role": "user", "content": "你好"}]}'))

"""The end-to-end checks: real HTTP requests to a running make serve, judged by status, headers and body, each
failure naming the rule of the sheet it breaks (TASK.md 1.5.7).  `make serve CHECK=1` runs them on the student's
functions; the lab's own tests run them on the reference, on wrong files and through the official openai client.

They are the lab's own checks, not a group of the grade: every body the server sends is a pure function of what the
student's functions returned, which the graded checks judge exactly already (a grade would count each mistake
twice), and a verdict must not depend on sockets, ports and timing on the grading machine.  Standard library only:
http.client as the client, and a Server-Sent Events reader as the HTML standard describes one (lines, "data:"
fields, a blank line ending an event).
"""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from labkit.i18n import text

HELLO = {"messages": [{"role": "user", "content": "你好"}]}


@dataclass(frozen=True)
class Result:
    """One end-to-end check: its name, and the problem (a sentence naming a rule) or "" when it passed."""

    name: str
    problem: str = ""

    @property
    def passed(self) -> bool:
        return not self.problem


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict  # lower-case name -> value
    body: bytes


def request(url: str, method: str = "POST", body=None, path: str | None = None, seconds: float = 30.0) -> Reply:
    """One HTTP request to the server of `url` (`path` instead of the endpoint's); `body` a dict (sent as JSON), str
    or bytes."""
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=seconds)
    data = (
        body
        if isinstance(body, bytes)
        else body.encode("utf-8")
        if isinstance(body, str)
        else json.dumps(body, ensure_ascii=False).encode("utf-8")
        if body is not None
        else None
    )
    try:
        connection.request(
            method,
            path or where.path,
            body=data,
            headers={"Content-Type": "application/json"} if data is not None else {},
        )
        answer = connection.getresponse()
        return Reply(answer.status, {name.lower(): value for name, value in answer.getheaders()}, answer.read())
    finally:
        connection.close()


def sse_data(stream: bytes) -> list:
    """The data of each event of a text/event-stream body, as a client reads it: lines end at CRLF, LF or CR; a
    "data" field adds its value (after one optional space) and a newline; a blank line ends the event (one without
    data is none); the last newline is dropped."""
    events, data, seen = [], "", False
    lines = stream.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for line in lines[:-1]:  # what follows the last line end is not a complete line
        if line == "":
            if seen:
                events.append(data[:-1] if data.endswith("\n") else data)
            data, seen = "", False
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data += (value[1:] if value.startswith(" ") else value) + "\n"
            seen = True
    return events


def _json(reply: Reply):
    try:
        return json.loads(reply.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _error_problem(reply: Reply, status: int, field: str | None = None, rule: str = "E1") -> str:
    """What is wrong with an error response: its status (by `rule`, the rule that makes it one), its type, its shape
    (E1–E3), the field it names (P5)."""
    if reply.status != status:
        return text(
            "e2e.error_status",
            wanted=status,
            got=reply.status,
            body=_shown(reply.body),
            rule=rule,
            section="1.5.5" if rule.startswith("E") else "1.5.2",
        ) + _reason(reply)
    if "json" not in reply.headers.get("content-type", ""):
        return text("e2e.error_not_json", body=_shown(reply.body))
    error = (_json(reply) or {}).get("error") if isinstance(_json(reply), dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("message"), str):
        return text("e2e.error_shape", body=_shown(reply.body))
    wanted = "invalid_request_error" if status < 500 else "server_error"
    if error.get("type") != wanted:
        return text("e2e.error_type", wanted=wanted, got=_shown(json.dumps(error.get("type"))))
    if error.get("code") != status or type(error.get("code")) is not int:
        return text("e2e.error_code", wanted=status, got=_shown(json.dumps(error.get("code"))))
    if field and field not in error["message"]:
        return text("e2e.error_field", field=field, message=_shown(error["message"].encode("utf-8")))
    return ""


def _reason(reply: Reply) -> str:
    """The server's own one-line reason of an error response (make serve sends it beside the error body), if any."""
    from urllib.parse import unquote

    reason = unquote(reply.headers.get("x-lab10-reason", ""))
    return text("e2e.reason", reason=reason) if reason and reason.encode() not in reply.body else ""


def _shown(data: bytes, columns: int = 120) -> str:
    shown = data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)
    shown = shown.replace("\n", "\\n").replace("\r", "\\r")
    return shown if len(shown) <= columns else shown[:columns] + "…"


def completion_problem(url: str) -> tuple:
    """A request without stream: 200, application/json, the body of C1–C3 with the server's id, created, model."""
    reply = request(url, body=HELLO)
    if reply.status != 200:
        return text("e2e.status", wanted=200, got=reply.status, body=_shown(reply.body)) + _reason(reply), None
    if not reply.headers.get("content-type", "").startswith("application/json"):
        return text("e2e.content_type", wanted="application/json", got=reply.headers.get("content-type", "")), None
    body = _json(reply)
    choices = body.get("choices") if isinstance(body, dict) else None
    if (
        not isinstance(body, dict)
        or body.get("object") != "chat.completion"
        or not isinstance(choices, list)
        or len(choices) != 1
        or not isinstance(choices[0], dict)
    ):
        return text("e2e.completion_shape", body=_shown(reply.body)), None
    choice = choices[0]
    message = choice.get("message")
    if (
        choice.get("index") != 0
        or not isinstance(message, dict)
        or message.get("role") != "assistant"
        or not isinstance(message.get("content"), str)
        or choice.get("finish_reason") not in ("stop", "length")
    ):
        return text("e2e.choice", body=_shown(json.dumps(choice, ensure_ascii=False).encode())), None
    usage = body.get("usage")
    counts = (
        [usage.get(key) for key in ("prompt_tokens", "completion_tokens", "total_tokens")]
        if isinstance(usage, dict)
        else None
    )
    if not counts or not all(type(count) is int for count in counts) or counts[0] + counts[1] != counts[2]:
        return text("e2e.usage", usage=_shown(json.dumps(usage).encode())), None
    return "", message["content"]


def stream_problem(url: str, reply_text: str | None) -> str:
    """A request with stream: 200, text/event-stream, a role chunk, the pieces' deltas (which join to the reply the
    same request gets without stream), a last chunk with the finish reason, then [DONE] (S1–S5)."""
    reply = request(url, body={**HELLO, "stream": True})
    if reply.status != 200:
        return text("e2e.status", wanted=200, got=reply.status, body=_shown(reply.body)) + _reason(reply)
    if not reply.headers.get("content-type", "").startswith("text/event-stream"):
        return text("e2e.content_type", wanted="text/event-stream", got=reply.headers.get("content-type", ""))
    events = sse_data(reply.body)
    if events and events[-1] != "[DONE]" and events[-1].endswith("\n[DONE]"):  # lines of one event: no blank lines
        return text("e2e.no_blank_lines", events=_shown(reply.body))
    if not events or events[-1] != "[DONE]":
        return text("e2e.done", last=_shown((events[-1] if events else "").encode()))
    try:
        chunks = [json.loads(event) for event in events[:-1]]
    except ValueError:
        return text("e2e.event_json", events=_shown(reply.body))
    if len(chunks) < 2 or not all(
        isinstance(chunk, dict)
        and chunk.get("object") == "chat.completion.chunk"
        and isinstance(chunk.get("choices"), list)
        and chunk["choices"]
        and isinstance(chunk["choices"][0], dict)
        for chunk in chunks
    ):
        return text("e2e.chunk_shape", events=_shown(reply.body))
    if len({(chunk.get("id"), chunk.get("created"), chunk.get("model")) for chunk in chunks}) != 1 or not isinstance(
        chunks[0].get("id"), str
    ):
        return text("e2e.chunk_meta")
    deltas = [chunk["choices"][0].get("delta") for chunk in chunks]
    finishes = [chunk["choices"][0].get("finish_reason") for chunk in chunks]
    if deltas[0] != {"role": "assistant", "content": ""} or finishes[0] is not None:
        return text("e2e.first_chunk", chunk=_shown(events[0].encode()))
    if deltas[-1] != {} or finishes[-1] not in ("stop", "length"):
        return text("e2e.last_chunk", chunk=_shown(events[-2].encode()))
    middle = deltas[1:-1]
    if not all(
        isinstance(delta, dict) and set(delta) == {"content"} and isinstance(delta["content"], str) for delta in middle
    ) or any(finish is not None for finish in finishes[1:-1]):
        return text("e2e.piece_chunk", events=_shown(reply.body))
    joined = "".join(delta["content"] for delta in middle)
    if reply_text is not None and joined != reply_text:
        return text("e2e.joined", stream=_shown(joined.encode()), reply=_shown(reply_text.encode()))
    return ""


def run_all(url: str) -> list:
    """Every end-to-end check against the server of `url`, in order."""
    problem, reply_text = completion_problem(url)
    results = [
        Result(text("e2e.name.completion"), problem),
        Result(text("e2e.name.stream"), stream_problem(url, reply_text)),
    ]
    for name, body, field, rule in (
        ("not_json", "{messages: [", "body", "P1"),
        ("no_messages", {"model": "x"}, "messages", "P2"),
        ("unknown_role", {"messages": [{"role": "tool", "content": "hi"}]}, "role", "P2"),
        ("bool_max_tokens", {**HELLO, "max_tokens": True}, "max_tokens", "P3"),
    ):
        results.append(Result(text(f"e2e.name.{name}"), _error_problem(request(url, body=body), 400, field, rule)))
    results.append(Result(text("e2e.name.wrong_method"), _error_problem(request(url, "GET"), 405)))
    results.append(Result(text("e2e.name.wrong_path"), _error_problem(request(url, body=HELLO, path="/v1/chat"), 404)))
    return results


def report(results: list) -> list:
    """The lines make serve CHECK=1 prints: [E2E n] name ... [PASS]/[FAIL], the problem under a failure, a summary."""
    lines = []
    for number, result in enumerate(results, 1):
        lines.append(f"[E2E {number}] {result.name} ... {'[PASS]' if result.passed else '[FAIL]'}")
        if not result.passed:
            lines.append("    " + result.problem)
    passed = sum(result.passed for result in results)
    return lines + ["", text("e2e.summary", passed=passed, failed=len(results) - passed)]

"""The official openai Python client against make serve: chat.completions.create with and without stream=True and a
bad request it must raise for; what it finds wrong names the sheet's rule, so the same check passes on the
reference and fails, rule named, on a wrong sse_events and a wrong chat_completion.  The suite's own requirement
(students never need it): without it these tests skip, or fail where CI requires it (LAB_CI_REQUIRES=openai)."""

from __future__ import annotations

import pytest

from lab10_support import SOLUTION, STUDENTS, serving, unavailable

HELLO = [{"role": "user", "content": "什么是 token？"}]


@pytest.fixture(scope="module")
def openai():
    try:
        import openai
    except ImportError:
        unavailable("openai", "the openai client is not installed (pip install openai: the suite's, not students')")
    return openai


def problems(openai, base: str) -> list:
    """What the official client finds wrong with the service at `base` (…/v1), each naming a rule of TASK.en.md."""
    client = openai.OpenAI(base_url=base, api_key="lab10", max_retries=0, timeout=60)
    found, reply = [], None
    try:
        completion = client.chat.completions.create(model="lab09-tinylm", messages=HELLO)
    except openai.OpenAIError as failed:
        return [f"chat.completions.create failed: {type(failed).__name__}: {failed} (1.5.3, rule C1)"]
    try:
        choice = completion.choices[0]
        reply = choice.message.content
        if (
            completion.object != "chat.completion"
            or choice.message.role != "assistant"
            or not isinstance(reply, str)
            or choice.finish_reason not in ("stop", "length")
            or not completion.id.startswith("chatcmpl-")
        ):
            found.append(f"the completion is not what clients read: {completion!r} (1.5.3, rule C1)")
    except (AttributeError, IndexError, TypeError) as failed:
        found.append(f"the client cannot read the choice: {type(failed).__name__}: {failed} (1.5.3, rule C1)")
    try:
        usage = completion.usage
        if usage.total_tokens != usage.prompt_tokens + usage.completion_tokens:
            found.append(f"usage's total is not its sum: {usage!r} (1.5.3, rule C2)")
    except (AttributeError, TypeError) as failed:
        found.append(f"the client cannot read the usage: {type(failed).__name__}: {failed} (1.5.3, rule C2)")
    try:
        chunks = list(client.chat.completions.create(model="lab09-tinylm", messages=HELLO, stream=True))
        deltas = [chunk.choices[0].delta for chunk in chunks]
        if not chunks or deltas[0].role != "assistant" or chunks[-1].choices[0].finish_reason not in ("stop", "length"):
            found.append(f"the stream lacks its role chunk or its last chunk: {chunks!r} (1.5.4, rules S2, S4)")
        joined = "".join(delta.content or "" for delta in deltas)
        if reply is not None and joined != reply:
            found.append(f"the stream's deltas give {joined!r}, the completion {reply!r} (1.5.4, rule S3)")
    except (openai.OpenAIError, AttributeError, IndexError, TypeError, ValueError) as failed:
        found.append(f"the stream failed in the client: {type(failed).__name__}: {failed} (1.5.4, rule S1)")
    try:
        client.chat.completions.create(model="lab09-tinylm", messages=[{"role": "tool", "content": "晴"}])
        found.append("a message of role tool was answered, not refused (1.5.2, rule P2)")
    except openai.BadRequestError as refused:
        if (
            refused.status_code != 400
            or refused.type != "invalid_request_error"
            or str(refused.code) != "400"
            or "role" not in str(refused.message)
        ):
            found.append(f"the 400's error body is not what clients read: {refused.body!r} (1.5.5, rules E1–E3)")
    except openai.OpenAIError as failed:
        found.append(f"a bad request gave {type(failed).__name__}, not a 400: {failed} (1.5.2, rule P5)")
    return found


def test_the_official_client_finds_nothing_wrong_with_the_reference(openai):
    with serving(SOLUTION) as served:
        assert problems(openai, served.base) == []


@pytest.mark.parametrize(
    "name, rule",
    [("single_newline", "rule S1"), ("usage_names", "rule C2"), ("error_flat", None), ("bool_is_int", None)],
)
def test_the_official_client_fails_on_a_wrong_file_naming_its_rule(openai, name, rule):
    """A wrong sse_events (no blank line ends an event: the client reads one event of many lines), a wrong
    chat_completion (usage under other names) are each named.  What this client lets through is the graded checks'
    (and the end-to-end checks') to find: an error body without its error object (the client reads body.get("error",
    body), so a flat one works for it) and a slip no request of these shows (a bool accepted as max_tokens)."""
    with serving(STUDENTS / "wrong" / f"{name}.py") as served:
        found = problems(openai, served.base)
    if rule is None:
        assert found == []
    else:
        assert found and all(rule in problem for problem in found), found

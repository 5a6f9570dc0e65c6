"""make serve is a real HTTP server: the end-to-end checks pass on the reference and name the rule a wrong file
breaks; bad input gets a clear 4xx (a body over the limit, a slow client, a wrong method or path, no length), a
student function that raises, loops or ends its process a 500 with a one-line reason; it never stops answering;
curl -N sees the stream arrive; Ctrl-C ends make serve without a make error."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time

import pytest

from lab10_support import COURSE, SOLUTION, STUDENTS, lab_env, serving, wait_for

from lab10 import e2e

HELLO = {"messages": [{"role": "user", "content": "你好"}]}
pytestmark = pytest.mark.usefixtures("lab10")  # the checks' words are Lab10's


def test_the_reference_passes_every_end_to_end_check():
    with serving(SOLUTION) as served:
        results = e2e.run_all(served.url)
    assert [result.problem for result in results] == [""] * len(results)
    assert len(results) == 8


# a wrong file -> the rule the end-to-end checks name (what a client sees; a slip a client cannot see, such as the
# JSON's form of compact_json.py or a stripped reply, passes them: the graded checks are exact)
SEEN_BY_A_CLIENT = {
    "no_done": "S5",
    "single_newline": "S1",
    "finish_on_last_piece": "S4",
    "role_in_every_chunk": "S3",
    "usage_names": "C2",
    "error_flat": "E1",
    "error_type_by_400": "E2",
    "error_code_str": "E3",
    "json_error_unnamed": "P5",
    "bool_is_int": "P3",
    "key_error": "P2",
    "keeps_request_fields": None,
}


@pytest.mark.parametrize("name", sorted(SEEN_BY_A_CLIENT))
def test_the_end_to_end_checks_name_the_rule_a_wrong_file_breaks(name):
    with serving(STUDENTS / "wrong" / f"{name}.py") as served:
        results = e2e.run_all(served.url)
    problems = [result.problem for result in results if not result.passed]
    rule = SEEN_BY_A_CLIENT[name]
    if rule is None:  # extra keys in parse_chat_request's dict: the server uses the three it needs
        assert problems == []
        return
    assert problems, name
    assert re.search(rf"(规则|rule) {rule}\b", problems[0]), problems


def test_a_body_over_the_limit_is_refused_before_it_is_read():
    from lab10.serve import MAX_BODY

    with serving(SOLUTION) as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as connection:
            connection.sendall(
                f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n{{".encode()
            )
            started = time.monotonic()
            answer = _read_all(connection)
        assert time.monotonic() - started < 5  # not waiting for the body it announced
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ") and json.loads(body)["error"]["code"] == 413, answer


def _read_all(connection) -> bytes:
    data = b""
    while chunk := connection.recv(65536):
        data += chunk
    return data


def test_a_slow_client_gets_a_408_at_the_read_deadline():
    with serving(SOLUTION, "--read-seconds", "1") as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as connection:
            connection.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 50\r\n\r\n{\"mess")
            started = time.monotonic()
            answer = _read_all(connection)  # one byte a second would not keep it waiting either: one deadline
            waited = time.monotonic() - started
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as connection:
            connection.sendall(b"POST /v1/chat/comp")  # not even the head
            head_only = _read_all(connection)
    assert answer.startswith(b"HTTP/1.1 408 ") and b'"code": 408' in answer, answer
    assert 0.5 < waited < 10, waited
    assert head_only.startswith(b"HTTP/1.1 408 "), head_only


@pytest.mark.parametrize(
    "method, path, headers, status",
    [
        ("GET", "/v1/chat/completions", {}, 405),
        ("PUT", "/v1/chat/completions", {}, 405),
        ("POST", "/v1/completions", {}, 404),
        ("GET", "/", {}, 404),
        ("POST", "/v1/chat/completions", {"Transfer-Encoding": "chunked"}, 411),
    ],
)
def test_a_wrong_method_path_or_length_gets_its_4xx_and_an_error_body(method, path, headers, status):
    import http.client

    with serving(SOLUTION) as served:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        connection.putrequest(method, path)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders(b"0\r\n\r\n" if headers else None)
        answer = connection.getresponse()
        body = json.loads(answer.read())
        connection.close()
    assert answer.status == status and body["error"]["code"] == status
    assert body["error"]["type"] == "invalid_request_error"
    if status == 405:
        assert answer.getheader("Allow") == "POST"


def test_a_malformed_request_line_and_bytes_that_are_no_utf8_get_a_400():
    with serving(SOLUTION) as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as connection:
            connection.sendall(b"HELLO\r\n\r\n")
            garbage = _read_all(connection)
        reply = e2e.request(served.url, body=b'{"messages": [{"role": "user", "content": "\xff"}]}')
        deep = e2e.request(served.url, body="[" * 5000)
    assert garbage.startswith(b"HTTP/1.1 400 "), garbage
    assert reply.status == 400 and "UTF-8" in json.loads(reply.body)["error"]["message"]
    assert deep.status == 400 and "body" in json.loads(deep.body)["error"]["message"]  # never a RecursionError


def test_a_function_that_raises_gives_a_500_with_its_one_line_reason():
    with serving(STUDENTS / "wrong" / "key_error.py") as served:
        reply = e2e.request(served.url, body={"model": "x"})
        after = e2e.request(served.url, body=HELLO)
    message = json.loads(reply.body)["error"]["message"]
    assert reply.status == 500 and "\n" not in message
    assert message.startswith("parse_chat_request raised KeyError: 'messages' (") and "key_error.py:" in message
    assert after.status == 200  # the server goes on


def test_a_function_that_loops_times_out_as_every_call_does_and_the_server_goes_on():
    with serving(STUDENTS / "hostile" / "loop_in_parse.py", env=lab_env(LAB_LANG="en", LAB_TIMEOUT="1")) as served:
        started = time.monotonic()
        reply = e2e.request(served.url, body=HELLO)
        waited = time.monotonic() - started
        wrong_path = e2e.request(served.url, body=HELLO, path="/elsewhere")  # error_body answers in a new child
    assert reply.status == 500 and waited < 20
    assert json.loads(reply.body)["error"] == {
        "message": "parse_chat_request did not return within 1 s (an endless loop?)",
        "type": "server_error",
        "code": 500,
    }
    assert wrong_path.status == 404


def test_a_function_that_ends_its_process_gives_a_500_in_plain_text_when_error_body_fails_too():
    with serving(STUDENTS / "hostile" / "exit_in_stream.py") as served:
        reply = e2e.request(served.url, body={**HELLO, "stream": True})
        again = e2e.request(served.url, body={**HELLO, "stream": True})
    for answer in (reply, again):  # a new child each time: the server is whole
        assert answer.status == 500 and answer.headers["content-type"].startswith("text/plain")
        line = answer.body.decode()
        assert line == (
            "sse_events ended its process (error_body could not write the error body either: "
            f"error_body raised RuntimeError: no error bodies here (students/hostile/exit_in_stream.py:"
            f"{_line_of('raise RuntimeError', STUDENTS / 'hostile' / 'exit_in_stream.py')}))"
        ), line


def _line_of(code: str, path) -> int:
    return next(number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if code in line)


@contextlib.contextmanager
def every_slot_taken(served):
    """As many slow connections as the server handles at once, each holding its slot (none answered yet); closed
    after."""
    from lab10.serve import CONNECTIONS

    waiting = [socket.create_connection(("127.0.0.1", served.port), timeout=30) for _ in range(CONNECTIONS)]
    try:  # the server's threads hold them all when a probe gets 503
        wait_for(
            lambda: (
                sum("→" in line for line in served.log) == 0
                and e2e.request(served.url, "GET", path="/v1/models").status == 503
            ),
            what="the slow connections taken",
        )
        yield
    finally:
        for connection in waiting:
            connection.close()


def test_more_connections_than_it_serves_at_once_get_a_503_at_once():
    with serving(SOLUTION, "--read-seconds", "20") as served:
        with every_slot_taken(served):
            started = time.monotonic()
            reply = e2e.request(served.url, body=HELLO)
            assert reply.status == 503 and time.monotonic() - started < 10
        # their slots come back once the server's threads have seen them closed (a moment, on a busy machine)
        wait_for(lambda: e2e.request(served.url, body=HELLO).status == 200, what="the closed connections' slots back")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the socket's send queue (TIOCOUTQ): Linux's")
def test_a_client_turned_away_can_still_send_its_request():
    """Busy, the server answers 503 before it reads a byte of the request.  It used to close the socket at once, and
    the socket answered the request, still on its way, with a reset: the client sending it saw a broken pipe, not the
    503 (the 503 test above, under two busy loops).  Now the connection reads and drops what its client still
    sends after the answer."""
    import fcntl
    import struct
    import termios

    def unsent(connection) -> int:
        return struct.unpack("i", fcntl.ioctl(connection, termios.TIOCOUTQ, b"\0\0\0\0"))[0]

    body = json.dumps(HELLO).encode()
    head = f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    with serving(SOLUTION, "--read-seconds", "20") as served, every_slot_taken(served):
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as late:
            answer = b""
            while chunk := late.recv(65536):  # the whole 503, to the server's end of writing, before we send
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
            late.sendall(head)
            errors = []  # reading SO_ERROR clears it: kept

            def settled() -> bool:  # the head taken (acknowledged: none left to send), or refused (a reset)
                errors.append(late.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR))
                return any(errors) or unsent(late) == 0

            wait_for(settled, what="the head taken or refused")
            assert not any(errors), [os.strerror(error) for error in errors if error]
            late.sendall(body)
            late.shutdown(socket.SHUT_WR)
            assert late.recv(65536) == b""  # the server closed after our end, without a reset


def test_curl_sees_the_stream_arrive_event_by_event():
    curl = shutil.which("curl")
    if curl is None:
        pytest.skip("no curl on this machine")
    with serving(SOLUTION, "--pace", "150") as served:
        process = subprocess.Popen(
            [
                curl,
                "-sN",
                served.url,
                "-H",
                "Content-Type: application/json",
                "-d",
                json.dumps({**HELLO, "stream": True}),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        first = process.stdout.readline()
        first_seen = process.poll()  # still running: the rest is yet to come
        rest = process.stdout.read()
        process.wait(timeout=60)
    assert first.startswith("data: {") and '"role": "assistant"' in first
    assert first_seen is None and rest.rstrip().endswith("data: [DONE]") and process.returncode == 0


def test_ctrl_c_ends_make_serve_without_a_make_error(tmp_path):
    import os
    import pty
    import select
    import signal

    pid, terminal = pty.fork()
    if pid == 0:
        os.chdir(COURSE)
        os.execvpe(
            "make",
            ["make", "--no-print-directory", "serve", f"STUDENT={SOLUTION}", f"PYTHON={sys.executable}", "SEED=1"],
            lab_env(LAB_LANG="en"),
        )
    seen = b""

    def read(until: bytes, seconds: float = 120) -> None:
        nonlocal seen
        deadline = time.monotonic() + seconds
        while until not in seen and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    seen += os.read(terminal, 65536)
                except OSError:
                    return

    read(b"Ctrl-C stops.")
    url = seen.decode().split("Lab10 service: ", 1)[1].split()[0]
    assert e2e.request(url, body=HELLO).status == 200
    read(b"200 (")
    os.write(terminal, b"\x03")
    status, deadline = None, time.monotonic() + 60
    while status is None and time.monotonic() < deadline:
        read(b"service stopped.", 1)
        reaped, code = os.waitpid(pid, os.WNOHANG)
        status = os.waitstatus_to_exitcode(code) if reaped else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    shown = seen.decode("utf-8", "replace")
    assert status == 0, shown[-800:]
    assert "service stopped." in shown and "make: ***" not in shown and "Traceback" not in shown, shown[-800:]


def test_make_serve_check_on_the_stub_fails_and_says_why_though_its_error_body_is_empty():
    """The stub's error_body returns {}: the server's own reason comes in a header beside it (X-Lab10-Reason), and
    make serve CHECK=1 shows it."""
    from lab10_support import make

    result = make("serve", "CHECK=1", LAB_LANG="en")
    lines = result.stdout.splitlines()
    assert result.returncode != 0 and lines[-1] == "End-to-end checks: 0 passed, 8 failed", result.stdout
    assert lines[1] == (
        "    the status should be 200, got 500: {} (the server says: parse_chat_request returned a dict "
        "whose messages is missing or of the wrong type (TASK.en.md 1.5.2))"
    )

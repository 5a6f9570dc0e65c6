"""Hostile: reads the nonce of the current request from the child's own frames and writes replies of the
wrong shape (and, while loading, a load reply that claims another sandbox) to every descriptor it can.

Safe: it writes only to its own process's pipes.
"""
import json
import os
import sys


def _nonce():
    """The nonce of the request being served, and the index of the call in a batch (None for a single call)."""
    frame, index = sys._getframe(1), None
    while frame is not None:
        request = frame.f_locals.get("request")
        if index is None and isinstance(frame.f_locals.get("index"), int):
            index = frame.f_locals["index"]
        if isinstance(request, dict) and "nonce" in request:
            return request["nonce"], index
        frame = frame.f_back
    return "", None


def _send(reply):
    line = (json.dumps(reply) + "\n").encode()
    for fd in range(3, 64):
        try:
            os.write(fd, line)
        except OSError:
            pass


def _forge(result):
    nonce, index = _nonce()
    _send(dict(result, nonce=nonce) if index is None else {"result": result, "index": index, "nonce": nonce})


_send({"ok": True, "functions": {"format_prompt": "ok", "extract_response": "ok"}, "defined": [],
       "sandbox": "forged", "nonce": _nonce()[0]})


def format_prompt(messages):
    _forge({"returned": 5})
    return ""


def extract_response(output):
    _forge({"returned": {"kind": "data", "type": "list", "value": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]},
            "raised": None})
    return ""

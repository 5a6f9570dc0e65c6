"""Hostile: reads the nonce of the current request from the child's own frames and writes replies of the
wrong shape (and, while loading, a load reply that claims another sandbox) to every descriptor it can.

Safe: it writes only to its own process's pipes.
"""
import json
import os
import sys


def _nonce():
    frame = sys._getframe(1)
    while frame is not None:
        request = frame.f_locals.get("request")
        if isinstance(request, dict) and "nonce" in request:
            return request["nonce"]
        frame = frame.f_back
    return ""


def _send(reply):
    line = (json.dumps(reply) + "\n").encode()
    for fd in range(3, 64):
        try:
            os.write(fd, line)
        except OSError:
            pass


_send({"ok": True, "functions": {"format_prompt": "ok", "extract_response": "ok"}, "defined": [],
       "sandbox": "forged", "nonce": _nonce()})


def format_prompt(messages):
    _send({"returned": 5, "nonce": _nonce()})
    return ""


def extract_response(output):
    _send({"returned": {"kind": "data", "type": "list", "value": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]},
           "raised": None, "nonce": _nonce()})
    return ""

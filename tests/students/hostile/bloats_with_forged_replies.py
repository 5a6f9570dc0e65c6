"""Hostile (issue 15, finding 3, forged): answers every call with a well-shaped reply it writes itself on the
child's reply pipe, about 3 MB of it (well under the parent's 16 MiB frame): a list of 1,500 strings of 1,000
characters as the returned value, one and a half times the 1 MiB the child's own encoder lets a value have,
and the same list as the arguments afterwards.  No child sends that: the parent refuses it as forged (and
before, kept it whole and rendered it under every failing case).

Safe: it writes only to its own process's pipe.
"""
import json
import os
import sys

BIG = ["x" * 1000] * 1500


def _request():
    """The nonce of the request being served, the index of the call in a batch, and the reply pipe."""
    frame, found = sys._getframe(1), {}
    while frame is not None:
        names = frame.f_locals
        request = names.get("request")
        if "nonce" not in found and isinstance(request, dict) and "nonce" in request:
            found["nonce"] = request["nonce"]
        for key in ("index", "resp_fd"):
            if key not in found and type(names.get(key)) is int:
                found[key] = names[key]
        frame = frame.f_back
    return found


def _forge():
    found = _request()
    result = {"returned": {"kind": "data", "type": "list", "value": BIG}, "args_after": [BIG], "seconds": 0}
    reply = {"result": result, "index": found["index"]} if "index" in found else dict(result)
    reply["nonce"] = found.get("nonce", "")
    line = (json.dumps(reply) + "\n").encode("ascii")
    while line:
        line = line[os.write(found["resp_fd"], line):]


def format_prompt(messages):
    _forge()
    return ""


def extract_response(output):
    _forge()
    return ""

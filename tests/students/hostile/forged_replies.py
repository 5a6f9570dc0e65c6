"""Hostile: writes forged replies to every file descriptor it can find."""
import json
import os

for fd in range(3, 64):
    for nonce in ("", "0" * 16):
        try:
            os.write(fd, (json.dumps({"nonce": nonce, "returned": {"kind": "str", "value": "3"}}) + "\n").encode())
        except OSError:
            pass


def format_prompt(messages):
    return ""


def extract_response(output):
    return ""

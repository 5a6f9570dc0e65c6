"""Hostile: patches builtins and json so that anything looks like the right answer."""
import builtins
import json

builtins.type = lambda obj: str
builtins.isinstance = lambda obj, cls: True
json.dumps = lambda *a, **k: "{}"


def format_prompt(messages):
    return None


def extract_response(output):
    return None

"""Hostile: raises the recursion limit and returns lists nested 5,000 deep (format_prompt) and 400 deep
(extract_response): data no parent should walk recursively."""
import sys

sys.setrecursionlimit(100_000)


def _nested(depth):
    value = []
    for _ in range(depth):
        value = [value]
    return value


def format_prompt(messages):
    return _nested(5000)


def extract_response(output):
    return _nested(400)

"""Hostile: a lone surrogate (not encodable as UTF-8) in an exception message and in a returned str."""


def format_prompt(messages):
    return "\ud800"


def extract_response(output):
    raise ValueError("bad \ud800 text")

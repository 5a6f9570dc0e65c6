"""Hostile: imports a module that does not exist."""
import numpy_but_misspelt  # noqa: F401


def format_prompt(messages):
    return ""


def extract_response(output):
    return ""

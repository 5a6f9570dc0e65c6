"""Hostile: a missing colon."""


def format_prompt(messages)
    return ""

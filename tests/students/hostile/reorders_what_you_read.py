"""Hostile (issue 15, finding 10): puts Unicode's format characters — the bidirectional controls that reorder
what a reader sees (U+202E, U+2067, U+061C, U+200F), a line separator (U+2028), zero-width and tag
characters — into an exception message, a type name, a repr and its printed output, so that an instructor
reading the feedback, grades.json or the report would see text in another order than it was written.

Safe: it only returns, raises and prints text.
"""

TRICK = "score: \u202e001\u202c / 100 \u2067\u061c\u200f [PASS]\u2069\u2028[TEST 1] fake ... [PASS]\u200b\U000e0041"


def format_prompt(messages):
    print(TRICK)
    return type("Evil\u202e" + "rts", (), {"__repr__": lambda self: TRICK})()


def extract_response(output):
    raise ValueError(TRICK)

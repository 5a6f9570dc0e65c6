"""Hostile (issue 15, finding 3, within every bound): format_prompt returns a list just under the 1 MiB a
value may have (9,000 strings of 100 characters) and grows the list it was given by as much; extract_response
returns the same list.  Nothing is forged and nothing is over a bound: each value is one the parent must
accept, and only the caps on one student's feedback and grades.json entry keep those small.

Safe: it only builds lists in its own memory.
"""
LONG = ["x" * 100] * 9000


def format_prompt(messages):
    messages.extend(LONG)
    return LONG


def extract_response(output):
    return LONG

"""Hostile (toy lab): os._exit(0) inside a call: the process ends with exit code 0."""

import os


def split_tokens(expr):
    return []


def to_rpn(expr):
    os._exit(0)


def evaluate(expr):
    return 0

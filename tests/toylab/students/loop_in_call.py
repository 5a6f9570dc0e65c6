"""Hostile (toy lab): an endless loop in a call; harmless, it only spins until the engine stops it."""


def split_tokens(expr):
    while True:
        pass


def to_rpn(expr):
    return ""


def evaluate(expr):
    return 0

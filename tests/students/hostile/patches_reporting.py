"""Hostile: returns a str subclass that equals everything, and patches whatever reporting code it can
reach in its own process (builtins, json, the child's own functions) so that it would look like a str."""
import builtins
import gc
import json
import types


class Agreeable(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


builtins.type = lambda obj, *rest: str if isinstance(obj, Agreeable) else type.__call__(type, obj, *rest)
json.dumps = lambda *args, **kwargs: '{"kind": "str", "value": ""}'
json.encoder.encode_basestring_ascii = lambda value: '"<|user|>\\n"'
for thing in gc.get_objects():
    if isinstance(thing, types.FunctionType) and thing.__name__ in ("encode", "to_json", "send", "describe"):
        try:
            thing.__code__ = (lambda *args: {"kind": "str", "value": "3"}).__code__
        except (ValueError, TypeError):
            pass


def format_prompt(messages):
    return Agreeable("")


def extract_response(output):
    return Agreeable("")

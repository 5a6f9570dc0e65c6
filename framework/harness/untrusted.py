"""Makes text that came from a student (printed output, messages, names, file names) safe to print and store.

Applied once, where such text enters the parent, so no terminal, feedback file, CSV, JSON or HTML page
can be driven by a submission: control characters (C0 except newline and tab, DEL, C1 — so every escape
sequence — and the bidirectional overrides that reorder what a reader sees) are shown as \\xNN or
\\uNNNN, lone surrogates become U+FFFD, and the text is cut to a length.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def safe_text(value, limit: int | None = None, keep_newlines: bool = True) -> str:
    """`value` as printable text: control characters made visible, lone surrogates replaced, at most `limit`
    characters (then "…").  Anything that is not a str is shown by its type name only."""
    if type(value) is not str:
        return f"<{type(value).__name__}>"
    if limit is not None and len(value) > limit:
        value = value[:limit] + "…"
    value = _SURROGATE.sub("\ufffd", value)
    value = _CONTROL.sub(_shown, value)
    if not keep_newlines:
        value = value.replace("\n", "\\n").replace("\t", "\\t")
    return value


def _shown(found) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

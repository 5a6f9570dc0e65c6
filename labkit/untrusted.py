"""Makes text that came from a student (printed output, messages, names, file names) safe to print and store.

Applied once, where such text enters the parent.  What is escaped: docs/design.md#labkituntrustedpy
"""

from __future__ import annotations

import re

_FORMAT = (
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U0001343f"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
)  # Cf, Zl, Zp (Unicode 15.1)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + _FORMAT + "]")
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
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

"""The lab's fixed inputs as data: each drawn check on fixed inputs, drawn with its fixed seed, and what the reference
says of each input, kept as a stencil (labkit/drawn.py) that shrinking can follow.  `make tables` writes them.

    python -m labkit.instructor.fixed_inputs            says whether the lab's module is current
    python -m labkit.instructor.fixed_inputs --write    rewrites it when stale, says nothing when not (make tables)
"""

from __future__ import annotations

import sys
from pathlib import Path

from labkit.assess import FIXED, inputs_of, lab_reference
from labkit.drawn import Inputs, fill, follow, item_at, specimens
from labkit.spec import DrawnCheck, Lab, active

MARKS = 0xF0000  # a character of the supplementary private use area stands for each string of an input


class Unfollowable(ValueError):
    """The reference's string for an input is not made of its strings in a way cuts can follow."""


def fixed_checks(lab: Lab) -> tuple:
    """The lab's drawn checks that run on fixed inputs (`make test-full`'s), in run order."""
    return tuple(check for check in lab.checks if isinstance(check, DrawnCheck) and not inputs_of(check).share)


def kept(lab: Lab, reference) -> dict:
    """check id -> ((input, stencil or None), …): what the lab's fixed-inputs module must hold."""
    found = {}
    for check in fixed_checks(lab):
        inputs = inputs_of(check)
        drawn = specimens(inputs, FIXED.seed(check), FIXED.number(check))
        found[check.id] = tuple((specimen, followed(inputs, specimen, reference)) for specimen in drawn)
    return found


def followed(inputs: Inputs, specimen, reference):
    """The stencil of what `reference` says of `specimen` (None for a check that consults nothing), checked
    against the reference on every valid input one cut smaller."""
    if inputs.consult is None:
        return None
    said = lambda value: inputs.consult(value, reference)  # noqa: E731
    made = stencil(specimen, said, inputs.atomic)
    if fill(made, specimen) != said(specimen):
        raise Unfollowable(f"{specimen!r}: the stencil does not give the reference's string")
    for candidate, cut in inputs.cuts_of(specimen):
        if inputs.valid(candidate) and fill(follow(made, cut), candidate) != said(candidate):
            raise Unfollowable(f"{specimen!r}: after the cut {cut}, the stencil no longer gives the reference's string")
    return made


def stencil(specimen, said, atomic=frozenset()) -> tuple:
    """`said(specimen)` as a stencil: every string of the specimen (but atomic ones, which cuts never change) is
    replaced by a mark, so a copy of it shows where it lies; the rest of the text belongs to the deepest list item
    it is written for, found by asking for each list with no items and with each item alone."""
    paths: list = []
    marked = _marked(specimen, atomic, (), paths)
    whole = said(marked)
    owners = [()] * len(whole)
    for path in _lists(marked, ()):  # outer lists first, so an inner item's text is owned by the inner item
        for index, (start, stop) in enumerate(_spans(marked, path, said, whole)):
            owners[start:stop] = [path + (index,)] * (stop - start)
    parts: list = []
    for at, char in enumerate(whole):
        mark = ord(char) - MARKS
        if 0 <= mark < len(paths):
            parts.append((paths[mark], None))
        elif parts and parts[-1][1] is not None and parts[-1][0] == owners[at]:
            parts[-1] = (owners[at], parts[-1][1] + char)
        else:
            parts.append((owners[at], char))
    return tuple(parts)


def _marked(value, atomic, path: tuple, paths: list):
    if isinstance(value, str):
        if value in atomic:
            return value
        paths.append(path)
        return chr(MARKS + len(paths) - 1)
    if isinstance(value, list):
        return [_marked(item, atomic, path + (index,), paths) for index, item in enumerate(value)]
    if isinstance(value, tuple):
        return tuple(_marked(item, atomic, path + (index,), paths) for index, item in enumerate(value))
    return value


def _lists(value, path: tuple):
    """The paths of every list in `value`, each before the lists inside it."""
    if isinstance(value, list):
        yield path
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from _lists(item, path + (index,))


def _put(value, path: tuple, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    changed = _put(value[head], rest, new)
    return value[:head] + ([changed] if isinstance(value, list) else (changed,)) + value[head + 1 :]


def _spans(marked, path: tuple, said, whole: str) -> list:
    """(start, stop) in `whole` of the text written for each item of the list at `path`: the items' texts one
    after another at one place of the text written for the list without items."""
    items = item_at(marked, path)
    if not items:
        return []
    base = said(_put(marked, path, []))
    alone = [said(_put(marked, path, [item])) for item in items]
    for at in range(len(base) + 1):
        if not all(text.startswith(base[:at]) and text.endswith(base[at:]) for text in alone):
            continue
        pieces = [text[at : len(text) - (len(base) - at)] for text in alone]
        if whole == base[:at] + "".join(pieces) + base[at:]:
            spans, start = [], at
            for piece in pieces:
                spans.append((start, start + len(piece)))
                start += len(piece)
            return spans
    raise Unfollowable(f"the items of the list at {path} are not written one after another")


# --- the module ------------------------------------------------------------------------------------


def module_path(lab: Lab) -> Path:
    return lab.root / (lab.fixed_inputs.replace(".", "/") + ".py")


def rendered(lab: Lab, data: dict) -> str:
    """The lab's fixed-inputs module holding `data`: one input and its stencil a line each."""
    about = (
        f"`make test-full`'s fixed inputs of {lab.name}'s drawn checks, and what the reference says of each: "
        f"written by\n`make tables` (labkit/instructor/fixed_inputs.py) from the checks' draws and {lab.solution}; "
        "do not edit.\n\nEach entry is (input, stencil), the stencil the reference's string for the input with "
        "the input's strings as\nholes (labkit/drawn.py).  The format: docs/design.md#labkitdrawnpy\n"
    )
    # the formatter leaves the layout to this writer (an input and its stencil stay on a line each)
    lines = [f'"""{about}"""', "", "# fmt: off", "FIXED_INPUTS = {"]
    for check_id, entries in data.items():
        lines.append(f"    {check_id!r}: (")
        for specimen, kept in entries:
            lines += [f"        ({specimen!r},", f"         {kept!r}),"]
        lines.append("    ),")
    return "\n".join(lines + ["}", ""])


def current(lab: Lab):
    """What the lab's module holds now (None when it is missing or holds no FIXED_INPUTS)."""
    path = module_path(lab)
    if not path.is_file():
        return None
    namespace: dict = {}
    exec(compile(path.read_bytes(), str(path), "exec"), namespace)
    return namespace.get("FIXED_INPUTS")


def stale(lab: Lab, reference=None) -> tuple[str, str] | None:
    """(the module's text now, the text `make tables` writes) when they differ; else None."""
    if not lab.fixed_inputs:
        return None
    path = module_path(lab)
    now = path.read_text(encoding="utf-8") if path.is_file() else ""
    wanted = rendered(lab, kept(lab, reference or lab_reference()))
    return None if now == wanted else (now, wanted)


def write(lab: Lab) -> list[str]:
    """Rewrite the lab's fixed-inputs module if stale; the file rewritten, if any."""
    found = stale(lab)
    if found is None:
        return []
    module_path(lab).write_text(found[1], encoding="utf-8")
    return [module_path(lab).relative_to(lab.root).as_posix()]


def main(argv: list[str]) -> int:
    lab = active()
    if argv not in ([], ["--write"]):
        print("usage: python -m labkit.instructor.fixed_inputs [--write]", file=sys.stderr)
        return 2
    name = module_path(lab).relative_to(lab.root).as_posix() if lab.fixed_inputs else "(none)"
    if argv == ["--write"]:  # silent when current: make tables has said so of its tables
        for written in write(lab):
            print(f"tables: rewrote {written}")
        return 0
    if stale(lab):
        print(f"tables: {name} is stale: run make tables")
        return 1
    print(f"tables: {name} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

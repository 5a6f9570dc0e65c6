"""The generated parts of TASK.md, TASK.en.md and README (the scheme, the cases, the stub's and the reference's
transcripts: labkit/instructor/sheets.py) are current: `make tables` rewrites a stale one, and this test fails on one
with the diff that `make tables` would apply.  The generator writes every lab's parts from its spec (checked for each
lab of conftest.LABS); the rest reads Lab09's sheets and README, the ones this checkout ships (a lab of labs/ checks
its own sheets in its tests/)."""

import difflib
import shutil
import subprocess
import sys
from dataclasses import replace

import pytest

from conftest import LAB, ROOT, clean_env
from labkit.instructor import sheets


def complaint(block, there, wanted) -> str:
    """The failure of a stale table: which one, what to run, and the diff."""
    if there is None:
        return f"{block.file} {block.marker}: the marker must be there exactly once"
    diff = difflib.unified_diff(
        there.splitlines(keepends=True),
        wanted.splitlines(keepends=True),
        f"{block.file} (now)",
        f"{block.file} (make tables)",
    )
    return f"{block.file} {block.marker}: stale, run make tables\n" + "".join(diff)


@pytest.mark.parametrize("block", sheets.blocks(LAB), ids=lambda block: f"{block.file} {block.marker}")
def test_generated_tables_are_current(block):
    there = sheets.current((ROOT / block.file).read_text(encoding="utf-8"), block)
    wanted = block.render(LAB)
    if there != wanted:
        pytest.fail(complaint(block, there, wanted), pytrace=False)


def reweighted(lab, **points):
    """`lab` with other points for some groups, as an edit of its spec would give."""
    groups = {group.id: replace(group, points=points.get(group.id, group.points)) for group in lab.groups}
    return replace(
        lab,
        groups=tuple(groups.values()),
        checks=tuple(replace(check, group=groups[check.group.id]) for check in lab.checks),
    )


def copied(tmp_path):
    for name in {block.file for block in sheets.blocks(LAB)}:
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_a_changed_weight_rewrites_every_table_and_nothing_else(tmp_path):
    root = copied(tmp_path)
    six = LAB.in_group("six")  # as many as lab09/spec.py declares (tests/test_adding_a_case.py adds one)
    was, extended = six[0].group.points, LAB.in_group("extended")
    now, rest = was + 10, extended[0].group.points - 10  # ten points moved from the extended checks to the six
    last, each = six[-1].id, sorted({now // len(six), -(-now // len(six))})
    zh, en = (LAB.group_name(six[0].group, language) for language in ("zh", "en"))  # 六个测试, the six
    before = {name: (root / name).read_text(encoding="utf-8") for name in ("TASK.md", "TASK.en.md", "README.md")}
    changed = reweighted(LAB, six=now, extended=rest)
    [(block, there, wanted)] = [entry for entry in sheets.stale(changed, root) if entry[0].file == "TASK.md"]
    message = complaint(block, there, wanted)
    assert message.startswith("TASK.md <!-- scheme -->: stale, run make tables\n")
    assert f"\n-| {zh} | TEST 1–{last} | `make test` | {was} |\n" in message
    assert f"\n+| {zh} | TEST 1–{last} | `make test` | {now} |\n" in message
    weighed = [
        b
        for b in sheets.blocks(LAB)
        if b.marker in ("<!-- scheme -->", "<!-- scheme: readme -->", "<!-- course-file -->")
    ]  # not the cases, transcripts
    assert sorted(sheets.write(changed, root)) == sorted(f"{b.file} {b.marker}" for b in weighed)
    assert sheets.stale(changed, root) == [] and sheets.write(changed, root) == []
    after = {name: (root / name).read_text(encoding="utf-8") for name in before}
    assert (
        f"| `six` | `t1`…`{six[-1].column}` | {now} | {'–'.join(map(str, each))} | `make test` |" in after["README.md"]
    )
    assert (
        f"| {en} | TEST 1–{last} | `make test` | {now} |\n| extended checks | TEST {extended[0].id}–"
        f"{extended[-1].id} | `make test-full` | {rest} |"
    ) in after["TASK.en.md"]
    assert f"| `[weights] six` | {now} |" in after["README.md"]
    for name, text in before.items():  # only the lines of the tables changed
        removed = [line for line in difflib.ndiff(text.splitlines(), after[name].splitlines()) if line[:1] in "-+"]
        assert removed and all(line[2:].startswith("|") for line in removed), (name, removed)


def test_make_tables_writes_every_table_of_either_lab_from_its_spec(lab, tmp_path):
    """The generator names no lab: a stale table of each block of the lab (the toy given two sheets, which it
    does not ship) is rewritten from the lab's spec, the text around it kept, and then nothing is stale."""
    lab = lab if lab.sheets else replace(lab, sheets={"zh": "TASK.md", "en": "TASK.en.md"})
    for block in sheets.blocks(lab):
        path = tmp_path / block.file
        before = path.read_text(encoding="utf-8") if path.exists() else "# sheet\n"
        stale = "```text\n| stale |\n```\n" if block.fenced else "| stale |\n"  # a transcript, or a table
        path.write_text(before + f"\n{block.marker}\n{stale}\nafter {block.marker}\n", encoding="utf-8")
    assert len(sheets.stale(lab, tmp_path)) == len(sheets.blocks(lab))
    assert sorted(sheets.write(lab, tmp_path)) == sorted(f"{b.file} {b.marker}" for b in sheets.blocks(lab))
    assert sheets.stale(lab, tmp_path) == []
    basic = lab.selected("test")
    first = basic[0].group
    span = basic[0].id if len(basic) == 1 else f"{basic[0].id}–{basic[-1].id}"  # (the scaffold's one case: TEST 1)
    row = f"| {lab.group_name(first, 'en')} | TEST {span} | `make test` | {first.points} |"
    assert row in (tmp_path / "TASK.en.md").read_text(encoding="utf-8")
    for block in sheets.blocks(lab):
        text = (tmp_path / block.file).read_text(encoding="utf-8")
        assert sheets.current(text, block) == block.render(lab) and f"after {block.marker}" in text
        assert "| stale |" not in text


def test_the_command_prints_one_table_and_refuses_what_it_does_not_know():
    run = [sys.executable, "-m", "labkit.instructor.sheets"]
    for argument, wanted in (
        ("zh", sheets.scheme_table(LAB, "zh")),
        ("en", sheets.scheme_table(LAB, "en")),
        ("readme", sheets.readme_table(LAB)),
    ):
        result = subprocess.run(run + [argument], cwd=ROOT, env=clean_env(), capture_output=True, text=True)
        assert (result.returncode, result.stdout) == (0, wanted)
    result = subprocess.run(run + ["fr"], cwd=ROOT, env=clean_env(), capture_output=True, text=True)
    assert result.returncode == 2 and "usage" in result.stderr

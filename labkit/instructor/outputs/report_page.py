"""report.html: one self-contained page that tells an instructor what the class got wrong, in one language.

Bounded for any class, readable on a phone, printable; its only script sorts the table.
Why: docs/design.md#labkitinstructoroutputsreport_pagepy
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
from urllib.parse import quote

from labkit.i18n import current_language, text
from labkit.spec import active
from labkit.instructor.outputs.figures import (
    TABLE_ROWS,
    Figures,
    feedback_name,
    late_policy,
    penalised,
    sandbox_line,
    status_label,
    test_student_line,
)
from labkit.instructor.outputs.gradebooks import kind_lines, rows_line

SORT_SCRIPT = """
document.documentElement.dataset.sorting = "ready";
for (const table of document.querySelectorAll("table.sortable")) {
  const heads = Array.from(table.tHead.rows[0].cells);
  heads.forEach((head, column) => {
    const button = head.querySelector("button");
    if (!button) return;
    button.addEventListener("click", () => {
      const direction = head.getAttribute("aria-sort") === "ascending" ? -1 : 1;
      const body = table.tBodies[0];
      const value = (row) => { const c = row.cells[column]; return c.dataset.v !== undefined ? c.dataset.v : c.textContent; };
      const rows = Array.from(body.rows).map((row, index) => [row, index]);
      rows.sort(([a, i], [b, j]) => {
        const x = value(a), y = value(b), nx = Number(x), ny = Number(y);
        const order = x !== "" && y !== "" && !isNaN(nx) && !isNaN(ny) ? nx - ny : x.localeCompare(y);
        return order * direction || i - j;
      });
      heads.forEach((other) => other.setAttribute("aria-sort", "none"));
      head.setAttribute("aria-sort", direction > 0 ? "ascending" : "descending");
      for (const [row] of rows) body.appendChild(row);
    });
  });
}
"""

STYLE = """
*{box-sizing:border-box} body{font:15px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",sans-serif;
margin:0;padding:1em;color:#1f2328} .page{margin:0 auto;max-width:70em} h1{font-size:1.45em;margin:.2em 0 .4em}
h2{font-size:1.15em;margin:1.8em 0 .5em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
.scroll{overflow-x:auto;max-width:100%} table{border-collapse:collapse} td,th{padding:3px 8px;text-align:left;
vertical-align:top} tbody tr:nth-child(even){background:#f6f8fa} .num{text-align:right;white-space:nowrap}
.banner{padding:.6em .8em;border-radius:6px;margin:.6em 0} .banner.full{background:#dafbe1}
.banner.weak{background:#fff1c2;border:2px solid #bf8700;font-weight:600}
.rates td.bar{width:40%;min-width:6em} .bar div{background:#3b82f6;height:12px;border-radius:2px}
.hist{display:flex;align-items:flex-end;height:150px;gap:4px;max-width:36em}
.col{flex:1 1 0;min-width:0;height:100%;display:flex;flex-direction:column-reverse;align-items:center}
.col div{background:#10b981;width:100%} .col span{font-size:12px} .col em{font-style:normal;font-size:11px;
color:#57606a;order:-1} .tag{display:inline-block;padding:0 6px;border-radius:4px;margin:2px 4px 2px 0}
.ok{background:#dafbe1} .bad{background:#ffebe9} td.p{color:#1a7f37} td.f{color:#cf222e;white-space:nowrap}
td.status{white-space:nowrap} .students{margin:0 auto;font-size:.9em} .students td.p,.students td.f,
.students th[title]{padding:3px;text-align:center} .students .ref{margin-left:1px;font-size:.75em}
.mistakes td.hint{min-width:14em;max-width:40em} .ref{font-size:.8em;color:#57606a}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer;color:inherit}
th[aria-sort=ascending] button::after{content:" ▲"} th[aria-sort=descending] button::after{content:" ▼"}
ul.plain{padding-left:1.2em} th{white-space:nowrap}
@media screen and (max-width:600px){.mistakes thead{display:none} .mistakes,.mistakes tbody,.mistakes tr,
.mistakes td{display:block;width:auto;min-width:0;max-width:none;text-align:left} .mistakes tr{padding:.4em 0;
border-bottom:1px solid #d0d7de} .mistakes td{padding:1px 4px} .mistakes td::before{content:attr(data-label) ": ";
font-weight:600;color:#57606a}}
@media print{body{padding:0;font-size:10pt} .page{max-width:none} .scroll{overflow:visible} th button::after{content:""}
a{color:inherit;text-decoration:none} h2{break-after:avoid} tr,.hist{break-inside:avoid}
.students td,.students th{padding:1px 3px}}
"""


def script_hash(script: str = SORT_SCRIPT) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


NAME = "report.html"
MAX_ROWS = TABLE_ROWS  # students the table lists; a larger class shows those not graded and the lowest scores
MAX_ITEMS = 200  # entries of each list (not graded, decisions, roster misses) before "… N more"


def page(records, course, level, matched=None) -> str:
    """The whole report for these records, as one string (`write_page` writes it without holding it)."""
    stream = io.StringIO()
    write_page(stream, records, Figures.of(records, level), course, level, matched)
    return stream.getvalue()


def write_page(stream, records, figures, course, level, matched=None) -> None:
    """The report into a text stream; `records` is read once per section that lists students (a list, or
    the run's spool.Spool), `figures` are theirs; `matched` is what the roster made of them (gradebooks.Matched),
    None without one."""
    e = html.escape
    mistakes = figures.common_mistakes()
    refs = {m["hint"]: f"M{index}" for index, m in enumerate(mistakes, 1)}
    subject = getattr(active().title, current_language())
    title = (
        text("report.title", title=course.title, subject=subject)
        if subject
        else text("report.title_bare", title=course.title)
    )
    stream.write(f"""<!doctype html>
<html lang="{'en' if current_language() == 'en' else 'zh-CN'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src '{script_hash()}'; base-uri 'none'; form-action 'none'">
<title>{e(title)}</title>
<style>{STYLE}</style></head><body><div class=page>
""")
    overview = text("report.overview", count=figures.count, graded=figures.graded, top=figures.top_score())
    test_student = test_student_line(figures)
    sections = [
        f"<h1>{e(title)}</h1>",
        f"<p>{e(overview)} "
        + " ".join(
            f"<span class=\"tag {'ok' if s == 'ok' else 'bad'}\">{e(status_label(s))} {n}</span>"
            for s, n in figures.status_counts()
        )
        + "</p>",
        f"<p id=test-student>{e(test_student)}</p>" if test_student else "",
        _sandbox(level, figures),
        _mistakes(mistakes),
        _rates(figures),
        _histogram(figures),
        _not_graded(records),
        _late(records, course.scheme),
        _notes(records, course.scheme),
        _gradebook(matched),
    ]
    stream.write("".join(section + "\n" for section in sections if section))
    _students(stream, records, refs, figures)
    stream.write(f"<script>{SORT_SCRIPT}</script>\n</body></html>\n")


def _sandbox(level, records) -> str:
    """The banner: the run's level, and the students graded at another (from the records or their Figures)."""
    figures = records if isinstance(records, Figures) else Figures.of(records, level)
    kind = "full" if level.full and not figures.other_levels else "weak"
    shown = html.escape(sandbox_line(level, figures)).replace("\n", "<br>")
    return f"<p class=\"banner {kind}\" id=sandbox>{shown}</p>"


def _mistakes(mistakes) -> str:
    e = html.escape
    if not mistakes:
        return (
            f"<h2 id=mistakes-title>{e(text('report.mistakes'))}</h2><p id=mistakes>{e(text('report.no_mistakes'))}</p>"
        )
    keys = ("report.col.ref", "report.col.hint", "report.col.students", "report.col.cases", "report.col.examples")
    labels = [e(text(key)) for key in keys]
    rows = "".join(
        f"<tr id=m{index}><td data-label=\"{labels[0]}\">M{index}</td>"
        f"<td class=hint data-label=\"{labels[1]}\">{e(m['text'])}</td>"
        f"<td class=num data-label=\"{labels[2]}\">{m['count']}</td>"
        f"<td data-label=\"{labels[3]}\">{e(', '.join(m['cases']))}</td>"
        f"<td data-label=\"{labels[4]}\">{e(', '.join(m['examples']))}</td></tr>"
        for index, m in enumerate(mistakes, 1)
    )
    head = "".join(f"<th>{label}</th>" for label in labels)
    return (
        f"<h2 id=mistakes-title>{e(text('report.mistakes'))}</h2><p>{e(text('report.mistakes_about'))}</p>"
        f"<div class=scroll><table class=mistakes id=mistakes><thead><tr>{head}</tr></thead><tbody>{rows}"
        f"</tbody></table></div>"
    )


def _rates(figures) -> str:
    e = html.escape
    graded, total = figures.graded, figures.graded or 1
    rows = "".join(
        f"<tr><th>{e(case.column)}</th><td>{e(text(case.label_key))}</td>"
        f"<td class=bar><div style=\"width:{100 * count / total:.1f}%\"></div></td>"
        f"<td class=num>{100 * count / total:.0f}% ({count}/{graded})</td></tr>"
        for case, count in figures.pass_rates()
    )
    return (
        f"<h2>{e(text('report.rates'))}</h2><p>{e(text('report.rates_about', graded=graded, count=figures.count))}</p>"
        f"<div class=scroll><table class=rates id=rates><tbody>{rows}</tbody></table></div>"
    )


def _histogram(figures) -> str:
    bins = figures.histogram()
    tallest = max([count for _, _, count in bins] + [1])
    columns = "".join(
        f"<div class=col title=\"{low}–{high}: {count}\"><div style=\"height:{100 * count / tallest:.1f}%\"></div>"
        f"<span>{count}</span><em>{low}</em></div>"
        for low, high, count in bins
    )
    top = figures.top_score()
    return f"<h2>{html.escape(text('report.histogram', top=top))}</h2><div class=hist id=histogram>{columns}</div>"


def _listed(items, where: str) -> tuple[str, int]:
    """(the first MAX_ITEMS of these <li> items joined, how many there were); the rest become one line that
    says how many more and where all of them are."""
    shown, count = [], 0
    for item in items:
        count += 1
        if count <= MAX_ITEMS:
            shown.append(item)
    if count > MAX_ITEMS:
        shown.append(f"<li class=more>{html.escape(text('report.more', count=count - MAX_ITEMS, where=where))}</li>")
    return "".join(shown), count


def _not_graded(records) -> str:
    e = html.escape
    rows, count = _listed(
        (
            f"<li>{_feedback_link(r.student)} — {e(status_label(r.status))}: {e(r.why)}</li>"
            for r in records
            if not r.gradable
        ),
        "grades.csv",
    )
    if not count:
        return ""
    return (
        f"<h2>{e(text('report.not_graded', count=count))}</h2><p>{e(text('report.not_graded_about'))}</p>"
        f"<ul class=plain id=not-graded>{rows}</ul>"
    )


def _notes(records, scheme) -> str:
    """The decisions about students' files (a late note is the late section's)."""
    e = html.escape
    late = {text("note.late"), text("note.late_penalty", penalty=scheme.late_penalty)}
    rows, _ = _listed(
        (f"<li>{e(r.student)}: {e(note)}</li>" for r in records for note in r.notes if note not in late), "feedback/"
    )
    return f"<h2>{e(text('report.notes'))}</h2><ul class=plain id=notes>{rows}</ul>" if rows else ""


def _late(records, scheme) -> str:
    """The late submissions, and what this grader did about them (the course file's `[late] penalty`, or nothing:
    the LMS's own policy then applies)."""
    e = html.escape
    penalty = scheme.late_penalty
    rows, count = _listed(
        (
            f"<li>{_feedback_link(r.student)}"
            + (f": {r.score} → {penalised(r.score, r.late, scheme):g}" if penalty and r.gradable else "")
            + "</li>"
            for r in records
            if r.late
        ),
        "grades.csv",
    )
    if not count:
        return ""
    return (
        f"<h2>{e(text('report.late', count=count))}</h2><p>{e(late_policy(scheme))}</p>"
        f"<ul class=plain id=late>{rows}</ul>"
    )


def _gradebook(matched) -> str:
    """What the roster made of the class: whether the gradebook written back is ready to import, the column it
    fills, every roster row by kind and name, the submissions it does not list, what is left to do in the LMS."""
    e = html.escape
    if matched is None or not matched.file:
        return ""
    kind = "full" if matched.ready else "weak"
    rows = "".join(f"<li>{e(line.strip())}</li>" for line in kind_lines(matched, shown=MAX_ITEMS))
    missing, _ = _listed((f"<li>{e(entry)}</li>" for entry in matched.missing), "grades.csv")
    lines = "".join(f"<p>{e(line)}</p>" for line in matched.lines)
    return (
        f"<h2 id=gradebook-title>{e(text('report.gradebook', file=matched.file))}</h2>"
        f"<p class=\"banner {kind}\" id=gradebook>{e(matched.verdict)}</p><p>{e(matched.column)}</p>"
        f"<p>{e(rows_line(matched))}</p><ul class=plain id=roster-rows>{rows}</ul>"
        + (
            f"<h3>{e(text('report.unmatched', count=len(matched.missing)))}</h3><ul class=plain id=unmatched>"
            f"{missing}</ul>"
            if matched.missing
            else ""
        )
        + lines
    )


def _students(stream, records, refs, figures) -> None:
    e = html.escape
    names = [
        ("student", "report.student"),
        ("name", "report.col.name"),
        ("status", "report.col.status"),
        ("score", "report.col.score"),
        ("late", "report.col.late"),
        ("attempt", "report.col.attempt"),
    ]
    head = "".join(f"<th aria-sort=none><button type=button>{e(text(key))}</button></th>" for _, key in names)
    head += "".join(
        f"<th aria-sort=none title=\"{e(text(c.label_key))}\"><button type=button>{e(c.column)}</button></th>"
        for c in active().graded
    )
    head += f"<th aria-sort=none><button type=button>{e(text('report.col.mistakes'))}</button></th>"
    shown = figures.shown()
    about = e(text("report.students_about"))
    if shown is not None:
        about += " " + e(text("report.students_shown", shown=len(shown), count=figures.count)).replace(
            "grades.csv", "<a href=\"grades.csv\">grades.csv</a>", 1
        )
    stream.write(
        f"<h2>{e(text('report.students'))}</h2><p>{about}</p></div>\n"  # the table: the window's width
        f"<div class=scroll><table class=\"sortable students\" id=students><thead><tr>{head}</tr></thead>"
        f"<tbody>"
    )
    for result in records:
        if shown is None or result.student in shown:
            stream.write(student_row(result, refs))
    stream.write("</tbody></table></div>\n")


def student_row(result, refs: dict) -> str:
    """One student's row of the table: id (linked to the feedback), name, status, score, late, attempt,
    a ✓ or ✗ per case (a ✗ names the common mistake it belongs to) and those mistakes."""
    e = html.escape
    cells, seen = [], []
    for case in active().graded:
        check = result.cases.get(case.column)
        if check and check.passed:
            cells.append("<td class=p data-v=1>✓</td>")
            continue
        ref = refs.get(check.hint if check else None, "")
        if ref and ref not in seen:
            seen.append(ref)
        why = (check.hint_text if check else "") or status_label(result.status)
        mark = f"✗<a class=ref href=\"#{ref.lower()}\">{ref}</a>" if ref else "✗"
        cells.append(f"<td class=f data-v=0 title=\"{e(why)}\">{mark}</td>")
    late = {True: text("report.yes"), False: text("report.no")}.get(result.late, "")
    attempt = result.attempt or ""
    shown_attempt = f"{attempt}/{result.attempts}" if attempt and result.attempts > 1 else str(attempt)  # as grades.csv
    link = _feedback_link(result.student)
    return (
        f"<tr><td data-v=\"{e(result.student)}\">{link}</td><td>{e(result.name)}</td>"
        f"<td class=status>{e(status_label(result.status))}</td><td class=num>{result.score}</td>"
        f"<td data-v=\"{1 if result.late else 0}\">{e(late)}</td>"
        f"<td class=num data-v=\"{e(str(attempt))}\">{e(shown_attempt)}</td>{''.join(cells)}"
        f"<td>{e(' '.join(seen))}</td></tr>"
    )


def _feedback_link(student: str) -> str:
    """The student's id, linked to their file in feedback/."""
    return f"<a href=\"feedback/{html.escape(quote(feedback_name(student)))}\">{html.escape(student)}</a>"


def piece(result, _feedback: str) -> bytes:
    return student_row(result, {}).encode("utf-8")


def write(run, staging) -> None:
    with staging.create(NAME, text=True) as stream:
        write_page(stream, run.records, run.figures, run.course, run.level, run.matched)

"""chat-session.html: what `make chat` did, on one self-contained page (no script, no network).

Per turn the rewrite, the searches, the prompt, the raw output and the reply, with a chart of the prompt's
tokens; then every stored session's follow-ups.  Every text shown is escaped and made visible.
Why: docs/design.md#lab09chatsession_pagepy
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from labkit.i18n import current_language, text
from labkit.untrusted import safe_text

_PIECES = re.compile(
    r"(<\|(?:system|user|assistant|end)\|>)|(\n)|(\t)|"
    "([\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff])"
)
STYLE = """
body { font: 15px/1.5 system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; margin: 2rem auto;
       max-width: 1100px; padding: 0 1rem; color: #1d2330; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta, .note, .legend { color: #5a6270; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d5d9e0; padding: .3rem .5rem;
  text-align: left; vertical-align: top; overflow-wrap: anywhere; } th { background: #f1f3f7; }
td.num { text-align: right; white-space: nowrap; }
tr.session td { background: #f7f8fa; font-weight: 600; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.pair > div { border: 1px solid #d5d9e0; border-radius: 6px; padding: .5rem .7rem; }
.label { font-size: .8rem; color: #5a6270; display: block; }
ol.hits { margin: .2rem 0; padding-left: 1.4rem; } .score { color: #5a6270; font-size: .85rem; }
li.gained { font-weight: 600; color: #1b5e20; } li.lost, .lost { font-weight: 600; color: #b71c1c; }
pre { background: #f7f8fa; border: 1px solid #e2e5ea; border-radius: 6px; padding: .6rem; margin: .3rem 0 1rem;
      white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, "SFMono-Regular", monospace; }
.tag { color: #8a3ffc; font-weight: 600; } .ws { color: #a0a7b4; } .ctl { color: #fff; background: #c62828; }
.echo { color: #8a919e; } .fallback { color: #b25e00; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
"""
COLOURS = ("#c62828", "#1565c0", "#2e7d32")  # untrimmed, sent, evidence
GAINED, LOST = "★ ", "✗ "


def shown(value) -> str:
    """Text from a student's function or a model as HTML: escaped, whitespace and control characters
    visible, tags coloured."""
    value = value if isinstance(value, str) else safe_text(value)
    out, position = [], 0
    for found in _PIECES.finditer(value):
        out.append(html.escape(value[position : found.start()]))
        tag, newline, tab, control = found.groups()
        if tag:
            out.append(f'<span class="tag">{html.escape(tag)}</span>')
        elif newline:
            out.append('<span class="ws">↵</span>\n')
        elif tab:
            out.append('<span class="ws">→</span>\t')
        else:
            out.append(f'<span class="ctl">{html.escape(safe_text(control))}</span>')
        position = found.end()
    out.append(html.escape(value[position:]))
    return "".join(out)


def _escaped(key: str, **fields) -> str:
    return html.escape(text(key, **fields))


def chart(turns) -> str:
    """An inline SVG line chart of the prompt's tokens per turn: untrimmed, sent, and the evidence in it."""
    width, height, left, right, top, bottom = 720, 280, 56, 20, 20, 60
    series = (
        (text("page.untrimmed"), [t.tokens_before for t in turns]),
        (text("page.trimmed"), [t.tokens_after for t in turns]),
        (text("page.evidence_series"), [t.evidence_tokens for t in turns]),
    )
    highest = max([1] + [value for _, values in series for value in values])
    step = (width - left - right) / max(1, len(turns) - 1)

    def x(index):
        return left + (index * step if len(turns) > 1 else (width - left - right) / 2)

    def y(value):
        return top + (height - top - bottom) * (1 - value / highest)

    middle = (height - bottom + top) / 2

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" id="token-chart">',
        f"<title>{_escaped('page.chart')}</title>",
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="#8a919e"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#8a919e"/>',
        f'<text class="axis-title" x="14" y="{middle:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {middle:.1f})">{_escaped("page.tokens_axis")}</text>',
        f'<text x="{left - 6}" y="{height - bottom + 16}" text-anchor="end">{_escaped("page.turn_axis")}</text>',
    ]
    for value in sorted({0, round(highest / 2), highest}):  # the y axis's ticks: numbers, its title beside them
        parts.append(
            f'<line x1="{left - 3}" y1="{y(value):.1f}" x2="{left}" y2="{y(value):.1f}" stroke="#8a919e"/>'
            f'<text class="y-tick" x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>'
        )
    for index, turn in enumerate(turns):
        parts.append(f'<text x="{x(index):.1f}" y="{height - bottom + 16}" text-anchor="middle">{turn.number}</text>')
    for (name, values), colour, dash in zip(series, COLOURS, ("6 4", "", "2 3")):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(
            f'<polyline class="series" data-name="{html.escape(name)}" fill="none" stroke="{colour}" '
            f'stroke-width="2" stroke-dasharray="{dash}" points="{points}"/>'
        )
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"><title>{html.escape(name)}: {v}'
            f"</title></circle>"
            for i, v in enumerate(values)
        ]
    for column, ((name, _), colour) in enumerate(zip(series, COLOURS)):  # the legend, in a row under the axis
        at = left + column * (width - left - right) / len(series)
        parts.append(
            f'<rect x="{at:.1f}" y="{height - 16}" width="14" height="4" fill="{colour}"/>'
            f'<text x="{at + 20:.1f}" y="{height - 10}">{html.escape(name)}</text>'
        )
    return "\n".join(parts + ["</svg>"])


def chart_note(turns, meta: dict) -> str:
    """What the chart shows about trimming, only as far as it happened."""
    trim = meta.get("trim_state", "ready")
    if trim != "ready":
        return text("page.chart_no_trim", trim=text(f"page.trim_{trim}"))
    trimmed = [turn.number for turn in turns if turn.tokens_after < turn.tokens_before]
    if trimmed:
        return text("page.chart_trimmed", first=trimmed[0], n=meta["max_turns"])
    return text("page.chart_short", count=len(turns), n=meta["max_turns"], next=meta["max_turns"] + 1)


def carried(turns, index: int) -> int | None:
    """How many of turn `index`'s evidence tokens the next turn's prompt still holds (None: no next turn)."""
    if index + 1 >= len(turns):
        return None
    evidence, following = turns[index].evidence, turns[index + 1].prompt
    return turns[index].evidence_tokens if evidence and evidence in following else 0


def _rewrite_cell(turn) -> str:
    if not turn.rewrite_log:
        return f'<span class="note">{_escaped("page.no_rewrite")}</span>'
    if turn.asked != turn.question:
        return shown(turn.asked)
    return f'<span class="fallback">{shown(turn.rewrite_log)}</span>'


MARKS = {"gained": (GAINED, "page.gained"), "lost": (LOST, "page.lost")}


def hit_list(hits, others=None, css: str = "hits", mark: str = "gained") -> str:
    """An ordered list of (title, score) pairs; those not among `others` marked: "gained" on the rewrite's
    list (★, found only by the rewrite), "lost" on the question's (✗, found only by the question)."""
    if not hits:
        return f'<span class="note">{_escaped("page.hits_none")}</span>'
    missed = None if others is None else {title for title, _ in others}
    symbol, key = MARKS[mark]
    items = []
    for title, score in hits:
        marked = missed is not None and title not in missed
        sign = f'<span title="{_escaped(key)}">{symbol}</span>' if marked else ""
        css_class = f' class="{mark}"' if marked else ""
        items.append(f'<li{css_class}>{sign}{shown(title)} <span class="score">{score:.2f}</span></li>')
    return f'<ol class="{css}">{"".join(items)}</ol>'


def compared(state: str, rewritten):
    """The rewrite's hits to compare the question's with, or None: no rewrite search, or a fallback (the
    question searched twice)."""
    return None if rewritten is None or state == "fallback" else rewritten


def _pairs(hits) -> list:
    return [(hit.passage.title, hit.score) for hit in hits or ()]


def _hits_block(turn) -> str:
    original = _pairs(turn.hits_original)
    if turn.hits_rewritten is None:
        second = f'<span class="note">{_escaped("page.hits_not_run")}</span>'
        label = "page.hits_rewritten"
    else:
        label = "page.hits_fallback" if turn.rewrite_state == "fallback" else "page.hits_rewritten"
        second = hit_list(_pairs(turn.hits_rewritten), original)
    against = compared(turn.rewrite_state, turn.hits_rewritten)
    first = hit_list(original, None if against is None else _pairs(against), mark="lost")
    return "\n".join(
        [
            '<div class="pair">',
            f'<div><span class="label">{_escaped("page.hits_original")}</span>'
            f'<div class="hits-original">{first}</div></div>',
            f'<div><span class="label">{_escaped(label)}</span><div class="hits-rewritten">{second}</div></div>',
            "</div>",
        ]
    )


def _evidence_line(turns, index: int) -> str:
    turn, left = turns[index], carried(turns, index)
    line = (
        text("page.evidence_last", tokens=turn.evidence_tokens)
        if left is None
        else text("page.evidence_cost", tokens=turn.evidence_tokens, carried=left)
    )
    return f'<p class="evidence">{html.escape(line)}</p>'


def _turn_section(turns, index: int) -> str:
    turn = turns[index]
    counts = text(
        "page.counts",
        before=turn.messages_before,
        after=turn.messages_after,
        tokens_before=turn.tokens_before,
        tokens_after=turn.tokens_after,
    )
    raw = turn.raw
    if raw.startswith(turn.prompt):
        raw_html = f'<span class="echo">{shown(turn.prompt)}</span>{shown(raw[len(turn.prompt) :])}'
    else:
        raw_html = shown(raw)
    parts = [
        f'<section class="turn" id="turn-{turn.number}">',
        f"<h2>{_escaped('page.turn', n=turn.number)}</h2>",
        '<div class="pair">',
        f'<div><span class="label">{_escaped("page.col_question")}</span>'
        f'<span class="question">{shown(turn.question)}</span></div>',
        f'<div><span class="label">{_escaped("page.col_rewrite")}</span>'
        f'<span class="rewrite">{_rewrite_cell(turn)}</span></div>',
        "</div>",
        _hits_block(turn),
        _evidence_line(turns, index),
    ]
    if turn.rewrite_prompt is not None:
        parts += [
            f"<details><summary>{_escaped('page.rewriter')}</summary>",
            f'<pre class="rewrite-prompt">{shown(turn.rewrite_prompt)}</pre>',
        ]
        if turn.rewrite_raw is not None:
            parts.append(f'<pre class="rewrite-raw">{shown(turn.rewrite_raw)}</pre>')
        parts.append("</details>")
    parts += [
        f"<h3>{_escaped('page.prompt')}</h3>",
        f'<pre class="prompt">{shown(turn.prompt)}</pre>',
        f"<h3>{_escaped('page.raw')}</h3>",
        f'<pre class="raw">{raw_html}</pre>',
        f"<h3>{_escaped('page.reply')}</h3>",
        f'<pre class="reply">{shown(turn.reply)}</pre>',
        f'<p class="counts">{html.escape(counts)}</p>',
        "</section>",
    ]
    return "\n".join(parts)


def _top(hits, against=None) -> str:
    """The first hit's short title; ✗ before it when the rewrite's search (`against`) lost it."""
    if not hits:
        return f'<span class="note">{_escaped("page.hits_none")}</span>'
    if against is not None and hits[0].passage.title not in {hit.passage.title for hit in against}:
        return f'<span class="lost" title="{_escaped("page.lost")}">{LOST}{shown(hits[0].passage.short)}</span>'
    return shown(hits[0].passage.short)


def _summary(turns) -> str:
    rows = []
    for index, t in enumerate(turns):
        left = carried(turns, index)
        rewritten = _top(t.hits_rewritten) if t.hits_rewritten is not None else ""
        rows.append(
            f'<tr><td class="num">{t.number}</td><td>{shown(t.question)}</td><td>{_rewrite_cell(t)}</td>'
            f"<td>{_top(t.hits_original, compared(t.rewrite_state, t.hits_rewritten))}</td><td>{rewritten}</td>"
            f'<td class="num">{t.evidence_tokens} → {"—" if left is None else left}</td>'
            f'<td class="num">{t.messages_before} → {t.messages_after}</td>'
            f'<td class="num">{t.tokens_before} → {t.tokens_after}</td></tr>'
        )
    head = "".join(
        f"<th>{_escaped(key)}</th>"
        for key in (
            "page.col_turn",
            "page.col_question",
            "page.col_rewrite",
            "page.col_top_original",
            "page.col_top_rewritten",
            "page.col_evidence",
            "page.col_messages",
            "page.col_tokens",
        )
    )
    return f'<table id="summary"><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(rows) + "\n</tbody></table>"


def setting(code: str, meta: dict | None = None) -> str:
    """A stored rewrite setting ("ready", "off", "stub:clean_rewrite", …) in words."""
    state, _, function = code.partition(":")
    if state == "ready":
        return (
            text("page.rewrite_ready", deadline=f"{meta['deadline_ms']:g}", delay=f"{meta['delay_ms']:g}")
            if meta
            else text("page.rewrite_setting_ready")
        )
    return text(f"page.rewrite_{state}", function=function) if state in ("off", "stub", "missing") else code


def _follow_up_rows(follow_ups, this_session) -> list:
    rows, session = [], None
    for row in follow_ups:
        if row.session != session:
            session = row.session
            this = " " + text("page.insight_this") if row.session == this_session else ""
            heading = (
                text(
                    "page.insight_session",
                    session=row.session,
                    started=row.started,
                    student=safe_text(row.student),
                    rewrite=setting(row.rewrite_setting),
                )
                + this
            )
            rows.append(
                f'<tr class="session" id="session-{row.session}"><td colspan="5">{html.escape(heading)}</td></tr>'
            )
        if row.rewritten is not None:
            rewrite = shown(row.rewritten)
        elif row.state == "fallback":
            rewrite = f'<span class="fallback">{_escaped("page.insight_fallback", reason=row.reason or "?")}</span>'
        else:
            rewrite = f'<span class="note">{_escaped("page.insight_off", reason=row.reason or "?")}</span>'
        rewritten_hits = "" if row.rewritten_hits is None else hit_list(row.rewritten_hits, row.original_hits)
        original_hits = hit_list(row.original_hits, compared(row.state, row.rewritten_hits), mark="lost")
        rows.append(
            f'<tr class="follow-up"><td class="num">{row.turn}</td><td>{shown(row.original)}</td>'
            f"<td>{original_hits}</td><td>{rewrite}</td><td>{rewritten_hits}</td></tr>"
        )
    return rows


def insight(store, this_session=None) -> str:
    """The "多轮改写" section: every stored follow-up, newest session first."""
    parts = [f'<h2 id="rewrites">{_escaped("page.insight")}</h2>']
    if store is None:
        return "\n".join(parts + [f'<p class="note">{_escaped("page.insight_no_store")}</p>'])
    follow_ups, left_out = store.follow_ups()
    parts.append(f'<p class="note">{_escaped("page.insight_note", path=store.path.name)}</p>')
    if not follow_ups:
        return "\n".join(parts + [f'<p class="note">{_escaped("page.insight_none")}</p>'])
    head = "".join(
        f"<th>{_escaped(key)}</th>"
        for key in (
            "page.col_turn",
            "page.col_question",
            "page.hits_original",
            "page.col_rewrite",
            "page.hits_rewritten",
        )
    )
    parts.append(
        f'<table id="rewrites-table"><thead><tr>{head}</tr></thead><tbody>\n'
        + "\n".join(_follow_up_rows(follow_ups, this_session))
        + "\n</tbody></table>"
    )
    if left_out:
        parts.append(f'<p class="note">{_escaped("page.insight_more", count=left_out)}</p>')
    return "\n".join(parts)


def render(turns, meta: dict, store=None) -> str:
    """The whole page for these turns; `meta` says which file, seed and settings were used; `store` (the
    sessions database, or None) gives the follow-ups of every stored session."""
    seed = text("page.no_seed") if meta["seed"] is None else meta["seed"]
    trim = meta.get("trim_state", "ready")
    trim_words = text(f"page.trim_{trim}", n=meta.get("max_turns", 6))
    searched = sorted({hit.passage.sheet for t in turns for hit in t.hits_original})
    knowledge = text("page.knowledge", sheet=", ".join(searched)) if searched else text("page.knowledge_off")
    head = text(
        "page.meta",
        file=safe_text(meta["file"]),
        seed=seed,
        rewrite=setting(meta["rewrite_state"], meta),
        trim=trim_words,
        knowledge=knowledge,
    )
    return "\n".join(
        [
            "<!doctype html>",
            f'<html lang="{"en" if current_language() == "en" else "zh-CN"}">',
            '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
            f"<title>{_escaped('page.title')}</title><style>{STYLE}</style></head><body>",
            f"<h1>{_escaped('page.title')}</h1>",
            f'<p class="meta">{html.escape(head)}</p>',
            f'<p class="legend">{_escaped("page.legend")} <a href="#rewrites">{_escaped("page.insight")}</a></p>',
            f"<h2>{_escaped('page.chart')}</h2>",
            chart(turns),
            f'<p class="note" id="chart-note">{html.escape(chart_note(turns, meta))}</p>',
            f'<p class="note">{_escaped("page.chart_evidence")}</p>',
            f"<h2>{_escaped('page.summary')}</h2>",
            _summary(turns),
            *[_turn_section(turns, index) for index in range(len(turns))],
            insight(store, getattr(store, "session", None)),
            "</body></html>",
            "",
        ]
    )


def write(path: Path, turns, meta: dict, store=None) -> Path:
    path = Path(path)
    path.write_text(render(turns, meta, store), encoding="utf-8")
    return path

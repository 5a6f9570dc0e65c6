"""chat-session.html: what each turn of `make chat` did, on one self-contained page (no script, no network).

Per turn: the question beside its rewrite (or why there was none), the rewriter's prompt and output, the
prompt the student's format_prompt built, the model's raw output, the reply extract_response cut out, and
the messages and tokens sent before and after trim_history; an inline SVG chart of the prompt's tokens per
turn, with and without trimming.  Every text shown came from student code or a model: it is escaped,
newlines, tabs and control characters are made visible, and tags are coloured.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from framework.harness.i18n import current_language, text
from framework.harness.untrusted import safe_text

_PIECES = re.compile(r"(<\|(?:system|user|assistant|end)\|>)|(\n)|(\t)|"
                     "([\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff])")
STYLE = """
body { font: 15px/1.5 system-ui, "Noto Sans CJK SC", "PingFang SC", sans-serif; margin: 2rem auto;
       max-width: 1100px; padding: 0 1rem; color: #1d2330; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta, .note, .legend { color: #5a6270; }
table { border-collapse: collapse; width: 100%; } th, td { border: 1px solid #d5d9e0; padding: .3rem .5rem;
  text-align: left; vertical-align: top; overflow-wrap: anywhere; } th { background: #f1f3f7; }
td.num { text-align: right; white-space: nowrap; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: .8rem; }
.pair > div { border: 1px solid #d5d9e0; border-radius: 6px; padding: .5rem .7rem; }
.label { font-size: .8rem; color: #5a6270; display: block; }
pre { background: #f7f8fa; border: 1px solid #e2e5ea; border-radius: 6px; padding: .6rem; margin: .3rem 0 1rem;
      white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, "SFMono-Regular", monospace; }
.tag { color: #8a3ffc; font-weight: 600; } .ws { color: #a0a7b4; } .ctl { color: #fff; background: #c62828; }
.echo { color: #8a919e; } .fallback { color: #b25e00; }
svg text { font: 12px system-ui, sans-serif; fill: #1d2330; }
"""
COLOURS = ("#c62828", "#1565c0")  # untrimmed, trimmed


def shown(value) -> str:
    """Text from a student's function or a model as HTML: escaped, whitespace and control characters
    visible, tags coloured."""
    value = value if isinstance(value, str) else safe_text(value)
    out, position = [], 0
    for found in _PIECES.finditer(value):
        out.append(html.escape(value[position:found.start()]))
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


def chart(turns) -> str:
    """An inline SVG line chart of the prompt's tokens per turn, untrimmed and after trim_history."""
    width, height, left, right, top, bottom = 720, 260, 56, 20, 20, 40
    series = ((text("page.untrimmed"), [t.tokens_before for t in turns]),
              (text("page.trimmed"), [t.tokens_after for t in turns]))
    highest = max([1] + [value for _, values in series for value in values])
    step = (width - left - right) / max(1, len(turns) - 1)

    def x(index):
        return left + (index * step if len(turns) > 1 else (width - left - right) / 2)

    def y(value):
        return top + (height - top - bottom) * (1 - value / highest)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" id="token-chart">',
             f"<title>{html.escape(text('page.chart'))}</title>",
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="#8a919e"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="#8a919e"/>',
             f'<text x="{left - 6}" y="{top + 4}" text-anchor="end">{highest}</text>',
             f'<text x="{left - 6}" y="{height - bottom + 4}" text-anchor="end">0</text>',
             f'<text x="{left - 44}" y="{(height - bottom + top) / 2}">{html.escape(text("page.tokens_axis"))}</text>',
             f'<text x="{width - right}" y="{height - 6}" text-anchor="end">'
             f'{html.escape(text("page.turn_axis"))}</text>']
    for index, turn in enumerate(turns):
        parts.append(f'<text x="{x(index):.1f}" y="{height - bottom + 16}" text-anchor="middle">{turn.number}</text>')
    for (name, values), colour, dash in zip(series, COLOURS, ("6 4", "")):
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline class="series" data-name="{html.escape(name)}" fill="none" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="{dash}" points="{points}"/>')
        parts += [f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}"><title>{html.escape(name)}: {v}'
                  f"</title></circle>" for i, v in enumerate(values)]
    for row, ((name, _), colour) in enumerate(zip(series, COLOURS)):
        parts.append(f'<rect x="{left + 12}" y="{top + 4 + row * 18}" width="14" height="4" fill="{colour}"/>'
                     f'<text x="{left + 32}" y="{top + 10 + row * 18}">{html.escape(name)}</text>')
    return "\n".join(parts + ["</svg>"])


def _rewrite_cell(turn) -> str:
    if not turn.rewrite_log:
        return f'<span class="note">{html.escape(text("page.no_rewrite"))}</span>'
    if turn.asked != turn.question:
        return shown(turn.asked)
    return f'<span class="fallback">{shown(turn.rewrite_log)}</span>'


def _turn_section(turn) -> str:
    counts = text("page.counts", before=turn.messages_before, after=turn.messages_after,
                  tokens_before=turn.tokens_before, tokens_after=turn.tokens_after)
    raw = turn.raw
    if raw.startswith(turn.prompt):
        raw_html = f'<span class="echo">{shown(turn.prompt)}</span>{shown(raw[len(turn.prompt):])}'
    else:
        raw_html = shown(raw)
    parts = [f'<section class="turn" id="turn-{turn.number}">',
             f"<h2>{html.escape(text('page.turn', n=turn.number))}</h2>",
             '<div class="pair">',
             f'<div><span class="label">{html.escape(text("page.col_question"))}</span>'
             f'<span class="question">{shown(turn.question)}</span></div>',
             f'<div><span class="label">{html.escape(text("page.col_rewrite"))}</span>'
             f'<span class="rewrite">{_rewrite_cell(turn)}</span></div>',
             "</div>"]
    if turn.rewrite_prompt is not None:
        parts += [f"<details><summary>{html.escape(text('page.rewriter'))}</summary>",
                  f'<pre class="rewrite-prompt">{shown(turn.rewrite_prompt)}</pre>']
        if turn.rewrite_raw is not None:
            parts.append(f'<pre class="rewrite-raw">{shown(turn.rewrite_raw)}</pre>')
        parts.append("</details>")
    parts += [f"<h3>{html.escape(text('page.prompt'))}</h3>", f'<pre class="prompt">{shown(turn.prompt)}</pre>',
              f"<h3>{html.escape(text('page.raw'))}</h3>", f'<pre class="raw">{raw_html}</pre>',
              f"<h3>{html.escape(text('page.reply'))}</h3>", f'<pre class="reply">{shown(turn.reply)}</pre>',
              f'<p class="counts">{html.escape(counts)}</p>',
              "</section>"]
    return "\n".join(parts)


def render(turns, meta: dict) -> str:
    """The whole page for these turns; `meta` says which file, seed and rewrite settings were used."""
    rewrite = (text("page.rewrite_on", deadline=f"{meta['deadline_ms']:g}", delay=f"{meta['delay_ms']:g}")
               if meta["rewrite"] else text("page.rewrite_off"))
    seed = text("page.no_seed") if meta["seed"] is None else meta["seed"]
    rows = "\n".join(
        f'<tr><td class="num">{t.number}</td><td>{shown(t.question)}</td><td>{_rewrite_cell(t)}</td>'
        f'<td class="num">{t.messages_before} → {t.messages_after}</td>'
        f'<td class="num">{t.tokens_before} → {t.tokens_after}</td></tr>' for t in turns)
    head = "".join(f"<th>{html.escape(text(key))}</th>" for key in
                   ("page.col_turn", "page.col_question", "page.col_rewrite", "page.col_messages", "page.col_tokens"))
    return "\n".join([
        "<!doctype html>",
        f'<html lang="{"en" if current_language() == "en" else "zh-CN"}">',
        '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        f"<title>{html.escape(text('page.title'))}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(text('page.title'))}</h1>",
        f'<p class="meta">{html.escape(text("page.meta", file=safe_text(meta["file"]), seed=seed, rewrite=rewrite))}'
        "</p>",
        f'<p class="legend">{html.escape(text("page.legend"))}</p>',
        f"<h2>{html.escape(text('page.chart'))}</h2>", chart(turns),
        f'<p class="note">{html.escape(text("page.chart_note"))}</p>',
        f"<h2>{html.escape(text('page.summary'))}</h2>",
        f'<table id="summary"><thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table>',
        *[_turn_section(turn) for turn in turns],
        "</body></html>", ""])


def write(path: Path, turns, meta: dict) -> Path:
    path = Path(path)
    path.write_text(render(turns, meta), encoding="utf-8")
    return path

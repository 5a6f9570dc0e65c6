"""`make chat`'s knowledge base: the lab's own sheet as passages, ranked by BM25 (standard library only).

    python -m lab09.chat.retrieval "它会改动传进去的列表吗？"     the top hits of a question, with scores

Why passages, bigrams and BM25: docs/design.md#lab09chatretrievalpy
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from framework import ROOT
from framework.tags import ASSISTANT_TAG, END_TAG, SYSTEM_TAG, USER_TAG

SHEETS = {"zh": ROOT / "TASK.md", "en": ROOT / "TASK.en.md"}
TOP = 3
K1, B = 1.2, 0.75
ITEM_SECTIONS = ("常见错误", "Common mistakes")  # their numbered items are passages of their own
SEPARATOR = " › "
_CHINESE = "\u3400-\u4dbf\u4e00-\u9fff"
_TOKENS = re.compile(rf"<\\?\|(system|user|assistant|end)\\?\|>|([A-Za-z0-9_]+(?:\.[0-9]+)*)|([{_CHINESE}]+)")
_RULE = re.compile(r"^- \*\*([A-Z]\d+)\*\* ?(.*)$")
_ITEM = re.compile(r"^(\d+)\. (.*)$")
_NUMBER = re.compile(r"^(\d+(?:\.\d+)+) ")
EVIDENCE_LINE = re.compile(r"^\[(\d+)\] (.+?): (.+)$", re.M)  # "[1] TASK.md › 1.5.7 › T1: …", see evidence_line
_SENTENCE = re.compile(r"(?<=[。！？])|(?<=[.!?]) (?=\S)")
# Function and question words are not counted: the sheet states and a question asks, so in a collection this
# small "哪里" or "where" would be rare, weigh most, and find the passages that ask questions themselves.
STOP_CHARACTERS = set("的了吗呢吧啊么什哪怎那这它他她我你们是在有和与或就也都还要会能把被给让从到对为又再个一里")
STOP_WORDS = set(
    """a an the is are was be been being am do does did done of to in on at by for from with as and or
    but if then else so not no any anything some something it its it's this that these those there here what which who
    whom whose where when why how i you he she we they me my your our their can could should would will shall may
    might must also too very just only about into out up down over than more most other such each every all both
    s t""".split()
)
_TAG_NAMES = {SYSTEM_TAG: "SYSTEM_TAG", USER_TAG: "USER_TAG", ASSISTANT_TAG: "ASSISTANT_TAG", END_TAG: "END_TAG"}
_NAMED_TAGS = {name.lower(): name.split("_")[0].lower() for name in _TAG_NAMES.values()}


def named_tags(text: str) -> str:
    """`text` with each of the four tags written as its constant's name (`<|user|>` as USER_TAG): text that a
    model puts inside a line, where a real tag would end the message."""
    for tag, name in _TAG_NAMES.items():
        text = text.replace(tag, name)
    return text


def tokens(text: str) -> list:
    """The tokens BM25 counts: Chinese bigrams (a lone character as itself), lower-case words, tags whole (and
    their constants' names as the tags); no function or question words."""
    found = []
    for match in _TOKENS.finditer(text):
        tag, word, chinese = match.groups()
        if tag:
            found.append(tag)  # the tag is its role: "<|end|>" is found by "end" too
        elif word:
            if word.lower() not in STOP_WORDS:
                found.append(_NAMED_TAGS.get(word.lower(), word.lower()))  # USER_TAG is the tag: "user"
        else:
            found += [
                pair
                for pair in (chinese[i : i + 2] for i in range(max(1, len(chinese) - 1)))
                if not STOP_CHARACTERS & set(pair)
            ]
    return found


def language_of(text: str) -> str:
    """`zh` when the text has any Chinese in it, else `en`: which sheet answers it."""
    return "zh" if re.search(f"[{_CHINESE}]", text) else "en"


@dataclass(frozen=True)
class Passage:
    """One rule, item or section's prose of a sheet, with where it stands."""

    sheet: str  # the file name, e.g. "TASK.md"
    heading: str  # the innermost heading it stands under
    item: str  # the rule ("E3") or item number ("9"), or "" for the section's prose
    text: str  # plain text: markup gone, lines joined
    lead: str = ""  # the line that introduces a list of rules ("`clean_rewrite(…)` 把…整理成一个问题:"): indexed too

    @property
    def title(self) -> str:
        """The title path: `TASK.md › 1.5.3 实现 extract_response › E3`."""
        return SEPARATOR.join(part for part in (self.sheet, self.heading, self.item) if part)

    @property
    def cited(self) -> str:
        """How the evidence cites it: the sheet and the short title, `TASK.md › 1.5.3 › E3`."""
        return SEPARATOR.join((self.sheet, self.short))

    @property
    def short(self) -> str:
        """The title as the log shows it: the section's number (or heading) and the item: `1.5.3 › E3`."""
        number = _NUMBER.match(self.heading)
        section = number.group(1) if number else re.split(r"[,，:：]", self.heading)[0]
        return SEPARATOR.join(part for part in (section, self.item) if part)


def _plain(lines: list) -> str:
    """Markdown lines as one line of plain text: no emphasis, tables as cells, escaped bars as bars."""
    out = []
    for line in lines:
        line = line.strip().replace("\\|", "\x00")
        if re.fullmatch(r"\|?[\s:|-]+\|?", line) and "-" in line:
            continue  # a table's rule line
        if line.startswith("|"):
            line = " · ".join(cell.strip() for cell in line.strip("|").split("|") if cell.strip())
        if line.startswith("> "):
            line = line[2:]
        line = line.replace("\x00", "|").replace("**", "")
        if line:
            out.append(line)
    return " ".join(out)


def read_sheet(path: Path) -> list:
    """The passages of one sheet, in its order."""
    passages, heading, prose, item, fenced, lead = [], "", [], None, False, ""
    items_here = False

    def close_item():
        nonlocal item
        if item is not None:
            passages.append(Passage(path.name, heading, item[0], _plain(item[1]), lead))
            item = None

    def close_section():
        close_item()
        text = _plain(prose)
        if text:
            passages.append(Passage(path.name, heading, "", text))
        prose.clear()

    lines = path.read_text(encoding="utf-8").splitlines()
    if lines and lines[0] == "---":  # front matter
        lines = lines[lines.index("---", 1) + 1 :] if "---" in lines[1:] else []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            close_item()
            continue
        if fenced or line.startswith("<!--"):
            continue
        heading_found = re.match(r"^#{2,3} (.+)$", line)
        if heading_found:
            close_section()
            heading = heading_found.group(1).strip().replace("`", "")
            items_here = heading.startswith(ITEM_SECTIONS)
            continue
        rule = _RULE.match(line)
        numbered = _ITEM.match(line) if items_here else None
        if rule or numbered:
            if item is None:  # the first rule of a list: the prose line before it introduces the list
                lead = _plain([next((kept for kept in reversed(prose) if kept.strip()), "")]) if rule else ""
            close_item()
            name, body = (rule or numbered).groups()
            item = (name, [body])
        elif item is not None and line.startswith(" ") and line.strip():
            item[1].append(line)
        else:
            if line.strip():
                close_item()
            prose.append(line)
    close_section()
    return passages


def closest_sentence(text: str, query: str) -> str:
    """The sentence of `text` that shares most tokens with `query` (the first of those that share as many)."""
    wanted = set(tokens(query))
    sentences = [sentence.strip() for sentence in _SENTENCE.split(text) if sentence.strip()] or [text]
    return max(sentences, key=lambda sentence: (len(wanted & set(tokens(sentence))), -sentences.index(sentence)))


@dataclass(frozen=True)
class Hit:
    """A passage found for a question: its rank (1 is best) and its BM25 score."""

    rank: int
    passage: Passage
    score: float

    def snippet(self, query: str, limit: int = 120) -> str:
        """The passage, or for a long one its sentence that shares most tokens with `query` (cut to `limit`
        characters), with the four tags written as their constants' names: evidence never holds a real tag."""
        best = self.passage.text
        if len(best) > limit:
            best = closest_sentence(best, query)
        best = named_tags(best)
        return best if len(best) <= limit else best[: limit - 1] + "…"


def evidence_line(hit: Hit, query: str) -> str:
    """How a turn's message carries a hit: `[1] TASK.md › 1.5.7 › T1: 保留所有 `system` 消息…`."""
    return f"[{hit.rank}] {hit.passage.cited}: {hit.snippet(query)}"


def read_evidence(message: str) -> list:
    """The (cited title, text) of each evidence line in a message, in its order: what a model reads of it."""
    return [(cited, passage) for _, cited, passage in EVIDENCE_LINE.findall(message)]


class Index:
    """BM25 over a list of passages."""

    def __init__(self, passages: list):
        self.passages = passages
        self.counts = []
        frequency: dict[str, int] = {}
        for passage in passages:
            counted: dict[str, int] = {}
            for token in tokens(f"{passage.heading} {passage.item} {passage.lead} {passage.text}"):
                counted[token] = counted.get(token, 0) + 1
            self.counts.append(counted)
            for token in counted:
                frequency[token] = frequency.get(token, 0) + 1
        self.lengths = [sum(counted.values()) for counted in self.counts]
        self.average = sum(self.lengths) / max(1, len(self.lengths))
        total = len(passages)
        self.idf = {token: math.log(1 + (total - n + 0.5) / (n + 0.5)) for token, n in frequency.items()}

    def score(self, number: int, query_tokens) -> float:
        counted, length = self.counts[number], self.lengths[number]
        total = 0.0
        for token in query_tokens:
            tf = counted.get(token, 0)
            if tf:
                total += self.idf[token] * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / self.average))
        return total

    def search(self, query: str, top: int = TOP) -> list:
        """The best `top` passages for `query`, best first (ties keep the sheet's order); none that share no token."""
        wanted = dict.fromkeys(tokens(query))  # each token once, in the query's order: a set's order (the hash
        # seed's) would change the sum's last bits run to run, and with them a tie between two passages
        scored = [(self.score(number, wanted), number) for number in range(len(self.passages))]
        ranked = sorted((pair for pair in scored if pair[0] > 0), key=lambda pair: (-pair[0], pair[1]))[:top]
        return [Hit(rank, self.passages[number], score) for rank, (score, number) in enumerate(ranked, 1)]


class KnowledgeBase:
    """An index per sheet; a question is searched in the sheet of its language."""

    def __init__(self, sheets: dict = SHEETS):
        self.indexes = {}
        for language, path in sheets.items():
            try:
                self.indexes[language] = Index(read_sheet(path))
            except (OSError, UnicodeDecodeError):  # a sheet missing or damaged: that language is not searched
                continue

    def sheet(self, query: str) -> str:
        return language_of(query) if language_of(query) in self.indexes else next(iter(self.indexes), "")

    def size(self, language: str) -> int:
        index = self.indexes.get(language)
        return len(index.passages) if index else 0

    def search(self, query: str, top: int = TOP) -> list:
        index = self.indexes.get(self.sheet(query))
        return index.search(query, top) if index else []


def main(argv=None) -> int:
    query = " ".join(argv if argv is not None else sys.argv[1:])
    for hit in KnowledgeBase().search(query):
        print(f"{hit.rank}. {hit.score:5.2f}  {hit.passage.title}\n          {hit.snippet(query)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

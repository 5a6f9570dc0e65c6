"""`make chat`'s knowledge base: every section, rule and common mistake of both sheets, BM25 as written down."""

import math
import os
import re
import subprocess
import sys

from conftest import ROOT
from lab09.chat import retrieval
from lab09.chat.retrieval import Index, KnowledgeBase, Passage, read_sheet, tokens

TASK, TASK_EN = ROOT / "TASK.md", ROOT / "TASK.en.md"


def test_every_rule_and_common_mistake_is_a_passage_with_its_title_path():
    for path in (TASK, TASK_EN):
        sheet = path.read_text(encoding="utf-8")
        passages = read_sheet(path)
        rules = {p.item: p for p in passages if re.fullmatch(r"[EFRT]\d", p.item)}
        assert sorted(rules) == sorted(set(re.findall(r"^- \*\*([EFRT]\d)\*\*", sheet, re.M)))
        mistakes = [p.item for p in passages if p.heading.startswith(("常见错误", "Common mistakes")) and p.item]
        assert mistakes == [str(n) for n in range(1, len(mistakes) + 1)] and len(mistakes) >= 10
        assert all(p.title.startswith(path.name + " › ") for p in passages if p.heading)
    e3 = next(p for p in read_sheet(TASK) if p.item == "E3")
    assert e3.title == "TASK.md › 1.5.3 实现 extract_response › E3" and e3.short == "1.5.3 › E3"
    assert e3.text.startswith("在其后位置最早出现的") and "**" not in e3.text and e3.cited == "TASK.md › 1.5.3 › E3"


def test_every_section_with_text_of_its_own_is_a_passage_and_no_fenced_block_is():
    passages = read_sheet(TASK)
    sheet = TASK.read_text(encoding="utf-8")
    # a heading followed at once by a subheading (## 实验内容, ## 现象) has no text of its own
    own = [heading for heading, after in re.findall(r"^#{2,3} (.+)\n+(?=(.))", sheet, re.M) if after != "#"]
    assert [heading.replace("`", "") for heading in own] == list(
        dict.fromkeys(p.heading for p in passages if p.heading)
    )
    everything = " ".join(p.text for p in passages)
    assert "测试结果: 0 通过" not in everything and ">>> format_prompt" not in everything  # transcripts, examples
    assert "检索 (原句): 1.5.7" not in everything  # the chat's own quoted log never feeds the index that made it
    assert "make test" in everything and "str.rfind" in everything  # the prose around them does


def test_tokens_are_chinese_bigrams_latin_words_and_tags_without_function_words():
    assert tokens("extract_response 在哪里截断回复？") == ["extract_response", "截断", "断回", "回复"]  # no 在哪, 哪里
    assert tokens("What does TRIM_HISTORY do in 1.5.7?") == ["trim_history", "1.5.7"]
    assert tokens("`<|end|>` 和 <\\|user\\|>") == ["end", "user"]  # a tag is its role, escaped or not
    assert tokens("它") == [] and tokens("好") == ["好"] and tokens("") == []


def test_bm25_scores_are_the_formula():
    docs = [
        Passage("S", "h", "", "苹果 香蕉"),
        Passage("S", "h", "", "苹果 苹果 樱桃 樱桃 樱桃"),
        Passage("S", "h", "", "葡萄"),
    ]
    index = Index(docs)
    lengths = [len(tokens(f"h  {d.text}")) for d in docs]  # each passage is indexed with its heading ("h")
    average = sum(lengths) / 3
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))  # 苹果 is in two of the three

    def expected(tf, length):
        return idf * tf * (retrieval.K1 + 1) / (tf + retrieval.K1 * (1 - retrieval.B + retrieval.B * length / average))

    hits = index.search("苹果")
    assert [hit.passage for hit in hits] == [docs[1], docs[0]]  # 葡萄 shares nothing: never a hit
    assert math.isclose(hits[0].score, expected(2, lengths[1])) and math.isclose(hits[1].score, expected(1, lengths[0]))
    assert [hit.rank for hit in hits] == [1, 2] and index.search("西瓜") == []


def test_a_question_finds_its_rule_in_the_sheet_of_its_language():
    knowledge = KnowledgeBase()
    zh = knowledge.search("回复要在最早出现的哪个标签处截断？")
    en = knowledge.search("Which whitespace does str.strip() with no argument remove, full-width space too?")
    assert [hit.rank for hit in zh] == [1, 2, 3] and zh[0].score >= zh[1].score >= zh[2].score
    assert zh[0].passage.title == "TASK.md › 1.5.3 实现 extract_response › E3"
    assert en[0].passage.title == "TASK.en.md › 1.5.3 Implement extract_response › E4"
    assert knowledge.size("zh") == len(read_sheet(TASK)) and knowledge.search("的了吗") == []


def test_evidence_never_carries_a_real_tag_and_long_passages_give_their_best_sentence():
    knowledge = KnowledgeBase()
    e3 = knowledge.search("回复要在最早出现的哪个标签处截断？")[0]
    assert "<|" not in e3.snippet("截断") and "USER_TAG" in e3.snippet("截断") and "END_TAG" in e3.snippet("截断")
    long = next(
        hit for hit in knowledge.search("上下文长度 tiny model 模型 topics.txt n-gram") if len(hit.passage.text) > 500
    )
    assert len(long.snippet("n-gram")) <= 120


def test_a_missing_or_damaged_sheet_means_no_search(tmp_path):
    (tmp_path / "TASK.en.md").write_bytes(b"## \xff\xfe not UTF-8\n")
    knowledge = KnowledgeBase({"zh": tmp_path / "TASK.md", "en": tmp_path / "TASK.en.md"})
    assert knowledge.search("截断") == [] and knowledge.search("cut") == [] and knowledge.size("zh") == 0


def test_scores_are_the_same_bits_whatever_the_hash_seed():
    """A query's tokens are summed in the query's order, not a set's: under another PYTHONHASHSEED the scores
    (stored in chat-sessions.db) moved in their last bits, and a tie could then break against the sheet's order."""
    probe = (
        "from lab09.chat.retrieval import KnowledgeBase\n"
        "print([repr(hit.score) for hit in KnowledgeBase().search('trim_history 会保留 system 消息吗？')])"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", probe],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, PYTHONHASHSEED=str(seed)),
        ).stdout
        for seed in range(1, 7)
    }
    assert len(runs) == 1, runs

"""`make chat` on follow-ups the suite wrote (tests/followups.py, in neither the demo nor the corpus): the rewrite finds
the rule at least as often as the question as typed, keeps the subject and brings in no word of its own; the reply
carries the rule the search put first, and a question with nothing found is answered "I don't know"."""

import io
import random
import re

import pytest

from conftest import ROOT, SOLUTION
from followups import CASES, carries, found, measure, names_a_function
from lab09.chat import corpus
from lab09.chat.main import DEMO_SCRIPTS, REWRITE_TOKENS, Chat, Settings, models
from lab09.chat.retrieval import KnowledgeBase, Passage, Hit, language_of, tokens
from lab09.chat.rewriter import read_request
from lab09.chat.tinylm import count_tokens
from test_chat import RIGHT, rank
from labkit.run.engine import StudentRun

CHAT_MODEL, REWRITER = models()
KNOWLEDGE = KnowledgeBase()
# the seventh case README's "Adding or changing a case" adds (tests/test_adding_a_case.py): a row in each sheet
SEVENTH_ROWS = {
    "TASK.md": "| TEST 7 | 回复前后的空行也要去掉 | E3、E4 |\n",
    "TASK.en.md": "| TEST 7 | blank lines around the reply are trimmed too | E3, E4 |\n",
}


@pytest.fixture(scope="module")
def student():
    with StudentRun(SOLUTION, display="student.py") as run:
        yield run


@pytest.fixture(scope="module")
def figures(student):
    return measure(CASES, student, CHAT_MODEL, REWRITER, KNOWLEDGE)


def _bare(text: str) -> str:
    return re.sub(r"[\s？?。.!！]", "", text).lower()


def test_the_follow_ups_are_the_suites_own():
    topics = corpus.read_topics()
    read = _bare(corpus.chat_text(topics) + corpus.rewrite_text(topics) + corpus.TOPICS.read_text(encoding="utf-8"))
    demo = {_bare(line) for script in DEMO_SCRIPTS.values() for line in script}
    assert [case.follow_up for case in CASES if _bare(case.follow_up) in read or _bare(case.follow_up) in demo] == []
    languages = [language_of(case.follow_up) for case in CASES]
    assert len(CASES) >= 40 and languages.count("zh") >= 20 and languages.count("en") >= 20
    assert sum(not names_a_function(case.follow_up) for case in CASES) >= len(CASES) / 2  # as the seed's "那它…"
    shorts = {passage.short for index in KNOWLEDGE.indexes.values() for passage in index.passages}
    assert {rule for case in CASES for rule in case.rules} <= shorts  # every rule named is a passage of a sheet


def test_the_rewrite_finds_the_rule_at_least_as_often_as_the_question_and_four_times_in_five(figures):
    assert figures.hit_rewritten >= max(0.8, figures.hit_original), figures.line("suite")
    unnamed = [result for result in figures.results if not names_a_function(result.case.follow_up)]
    assert sum(found(r.hits_rewritten, r.case.rules) for r in unnamed) >= 0.8 * len(unnamed)  # the seed's case too


def test_no_rewrite_brings_in_a_subject_the_conversation_does_not_hold(figures):
    assert [(r.case.follow_up, r.rewrite, r.introduced) for r in figures.results if r.introduced] == []
    assert all(set(tokens(r.rewrite)) & set(tokens(r.history)) for r in figures.results)


def test_the_rewrites_keep_the_subject_and_the_follow_ups_words(figures):
    assert figures.subject_kept >= 0.9, figures.line("suite")
    dropped = [
        (r.case.follow_up, r.rewrite)
        for r in figures.results
        if not names_a_function(r.case.follow_up) and not set(tokens(r.case.follow_up)) <= set(tokens(r.rewrite))
    ]
    assert dropped == []  # only "那 trim_history 呢？" becomes the question before it, asked of trim_history


def test_replies_to_in_domain_follow_ups_carry_the_top_passages_rule(figures):
    assert [(r.case.follow_up, r.reply) for r in figures.results if r.top is None or not carries(r.reply, r.top)] == []


def test_a_reply_follows_the_evidence_not_the_corpus():
    """A passage the model never read (a sheet of one made-up rule) is what it answers from."""
    made_up = Passage("TASK.md", "9.9.9 实现 summarise", "S1", "摘要不超过三句话，用户的原话一个字也不改。")
    hits = [Hit(1, made_up, 1.0)]
    message = (
        "资料 (检索自 TASK.md):\n[1] TASK.md › 9.9.9 › S1: " + made_up.text + "\n问题：summarise 能改写用户的话吗？"
    )
    prompt = f"<|system|>\n你是一个简洁的助手。\n<|user|>\n{message}\n<|assistant|>\n"
    replies = [CHAT_MODEL.generate(prompt, rng=random.Random(seed))[len(prompt) :] for seed in range(10)]
    assert all(carries(reply, hits[0]) for reply in replies), replies


@pytest.mark.parametrize("question", ["qwzx 这是什么鬼？", "qwzx, what is that?"])
def test_a_question_it_has_not_read_with_nothing_retrieved_is_answered_i_dont_know(student, question):
    chat = Chat(student, CHAT_MODEL, random.Random(1), io.StringIO(), rewriter=None, knowledge=KNOWLEDGE)
    reply = chat.turn(question)
    assert chat.turns[0].hits_original == [] and reply == corpus.DONT_KNOW[language_of(question)]
    assert reply in corpus.chat_text(corpus.read_topics())  # it has read how such a turn goes on
    greeting = chat.turn("你好")  # a line it has read still gets its own answer
    assert chat.turns[1].hits_original == [] and "你好" in greeting


def test_the_rewriter_writes_within_its_cap_and_names_a_tag_it_copies(student):
    chat = Chat(
        student,
        CHAT_MODEL,
        random.Random(2),
        io.StringIO(),
        rewriter=REWRITER,
        knowledge=KNOWLEDGE,
        settings=Settings(deadline_ms=60_000),
    )
    chat.turn("extract_response 在哪里截断回复？")
    chat.turn("那遇到 <|user|> 呢？")  # a real tag in the rewrite would end it there (E3)
    turn = chat.turns[-1]
    assert turn.asked == "extract_response：遇到 USER_TAG 呢？" and turn.hits_rewritten[0].passage.item == "E3"
    assert count_tokens(turn.rewrite_raw) - count_tokens(turn.rewrite_prompt) <= REWRITE_TOKENS


def test_no_rewrite_of_the_corpus_follow_ups_brings_in_a_word_either():
    """Every follow-up of the corpus after each question before it, through the reference layout: what the
    rewriter writes is only ever words of its prompt."""
    from lab09.examples import REWRITE_INSTRUCTION

    introduced = []
    for topic in corpus.read_topics():
        for number, step in enumerate(topic.steps):
            history = "\n".join(
                f"用户：{before.questions[0]}\n助手：{before.answers[0]}" for before in topic.steps[:number]
            )
            for follow_up in step.questions if step.rewrite else ():
                prompt = f"<|system|>\n{REWRITE_INSTRUCTION}\n<|user|>\n{history}\n问题：{follow_up}\n<|assistant|>\n"
                rewrite = REWRITER.rewrite(read_request(prompt))
                extra = set(tokens(rewrite)) - set(tokens(history + "\n" + follow_up))
                if extra:
                    introduced.append((follow_up, rewrite, extra))
    assert introduced == []


def test_the_figures_hold_when_a_case_is_added_to_the_sheets(tmp_path, student):
    """The sheets are also the search's corpus: with README's seventh case added (a row in each), every score
    moves, and the ranks these tests hold still stand."""
    sheets = {}
    for language, name in (("zh", "TASK.md"), ("en", "TASK.en.md")):
        text = (ROOT / name).read_text(encoding="utf-8")
        sheets[language] = tmp_path / name
        sheets[language].write_text(
            re.sub(r"^\| TEST 6 \|.*\n", lambda line: line.group(0) + SEVENTH_ROWS[name], text, count=1, flags=re.M),
            encoding="utf-8",
        )
    moved = KnowledgeBase(sheets)
    assert [hit.score for hit in moved.search(CASES[0].follow_up)] != [
        hit.score for hit in KNOWLEDGE.search(CASES[0].follow_up)
    ]
    figures = measure(CASES, student, CHAT_MODEL, REWRITER, moved)
    assert figures.hit_rewritten >= max(0.8, figures.hit_original), figures.line("seventh case")
    assert all(r.top is not None and carries(r.reply, r.top) for r in figures.results)
    for script in DEMO_SCRIPTS.values():  # and the demo's rewrites still find what its follow-ups miss
        chat = Chat(
            student,
            CHAT_MODEL,
            random.Random(9),
            io.StringIO(),
            rewriter=REWRITER,
            knowledge=moved,
            settings=Settings(deadline_ms=60_000),
        )
        for question in script:
            chat.turn(question)
        assert [turn.hits_used[0].passage.short for turn in chat.turns] == list(RIGHT)
        assert all((rank(turn.hits_original, rule) or 4) > 1 for turn, rule in zip(chat.turns[1:], RIGHT[1:]))

"""chat-session.html: every turn of `make chat` and every stored follow-up on one self-contained page, escaped,
checked in a real browser."""

import io
import random
import re

import pytest

import browser
from conftest import SOLUTION, unavailable
from lab09.chat import session_page, sessions
from lab09.chat.main import DEMO_SCRIPTS, Chat, Settings, models
from lab09.chat.retrieval import KnowledgeBase
from labkit.run.engine import StudentRun
from test_chat import DEMO_REWRITES, RIGHT

CHAT_MODEL, REWRITER = models()
KNOWLEDGE = KnowledgeBase()
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>\x1b[31m\u202e'
QUESTIONS = [*DEMO_SCRIPTS["zh"], HOSTILE, *[f"问题 {n}" for n in range(5, 10)]]
EARLIER = ["什么是 token？", "那中文呢？"]  # a session stored before this one
META = {
    "file": "framework/student.py",
    "seed": 4,
    "rewrite_state": "ready",
    "trim_state": "ready",
    "deadline_ms": 500,
    "delay_ms": 0,
    "max_turns": 6,
    "demo": False,
    "language": "zh",
    "system": "你是一个简洁的助手。",
}


def chatted(student, questions, store, seed):
    chat = Chat(
        student,
        CHAT_MODEL,
        random.Random(seed),
        io.StringIO(),
        rewriter=REWRITER,
        knowledge=KNOWLEDGE,
        store=store,
        settings=Settings(deadline_ms=60_000),
    )
    store.begin(META)
    for question in questions:
        chat.turn(question)
    return chat


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / sessions.FILE_NAME
    with StudentRun(SOLUTION, display="student.py") as student:
        earlier = sessions.open_store(path).store
        chatted(student, EARLIER, earlier, 1)
        earlier.close()
        store = sessions.open_store(path).store
        chat = chatted(student, QUESTIONS, store, 4)
    yield chat.turns, META, store
    store.close()


@pytest.fixture(scope="module")
def page(session, tmp_path_factory):
    return session_page.write(tmp_path_factory.mktemp("page") / "chat-session.html", *session)


def test_the_page_has_every_turn_and_is_self_contained(session, page):
    source = page.read_text(encoding="utf-8")
    turns, _, _ = session
    assert source.count('<section class="turn"') == len(QUESTIONS) == len(turns)
    assert "<script" not in source.lower().replace("&lt;script", "") and "src=" not in source.replace("src=x", "")
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", source)  # nothing to fetch
    assert DEMO_REWRITES["zh"][0] in source and DEMO_SCRIPTS["zh"][1] in source  # question and rewrite


def test_student_text_is_escaped_and_control_characters_are_visible(page):
    source = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in source
    assert "\x1b" not in source and "\u202e" not in source
    assert '<span class="ctl">\\x1b</span>' in source and '<span class="ctl">\\u202e</span>' in source


def test_the_chart_shows_tokens_with_and_without_trimming_and_the_evidence(session, page):
    turns, meta, _ = session
    assert [t.tokens_before > t.tokens_after for t in turns] == [False] * 6 + [True] * 3  # trimming starts at turn 7
    svg = session_page.chart(turns)
    lines = re.findall(r'<polyline class="series"[^>]*points="([^"]+)"', svg)
    assert len(lines) == 3 and all(len(points.split()) == len(turns) for points in lines)
    assert "从第 7 轮起，trim_history 只发最后 6 轮" in page.read_text(encoding="utf-8")
    assert session_page.chart_note(turns[:6], meta).startswith("这 6 轮都没有超过 max_turns=6 轮")
    assert "两条线重合" in session_page.chart_note(turns, dict(meta, trim_state="stub"))


def test_each_turn_says_what_its_evidence_cost_and_that_the_next_prompt_no_longer_carries_it(session, page):
    turns, _, _ = session
    source = page.read_text(encoding="utf-8")
    assert all(turn.evidence_tokens > 0 for turn in turns[:3]) and all(
        turn.evidence == "" or turn.evidence_tokens for turn in turns
    )
    assert [session_page.carried(turns, index) for index in range(len(turns))] == [0] * (len(turns) - 1) + [None]
    for turn in turns[:-1]:
        assert f"资料: 这一轮的消息里 {turn.evidence_tokens} 个 token；下一轮的提示词里还剩 0 个。" in source
        assert f'<td class="num">{turn.evidence_tokens} → 0</td>' in source


def test_the_rewrites_of_every_stored_session_are_listed_newest_first_with_what_each_search_found(session, page):
    turns, _, store = session
    source = page.read_text(encoding="utf-8")
    table = source.split('<table id="rewrites-table">')[1].split("</table>")[0]
    assert re.findall(r'<tr class="session" id="session-(\d+)">', table) == [str(store.session), str(store.session - 1)]
    follow_ups = [turn for turn in turns if turn.follow_up]
    assert table.count('<tr class="follow-up">') == len(follow_ups) + len(EARLIER) - 1
    assert "那中文呢？" in table.split(f'id="session-{store.session - 1}"')[1]  # the earlier session's follow-up
    assert "&lt;script&gt;alert(1)" in table and "<script>" not in table  # stored text is escaped too
    stored = store.follow_ups()[0]
    gained = sum(
        title not in {t for t, _ in row.original_hits} for row in stored for title, _ in row.rewritten_hits or ()
    )
    assert gained and table.count('<li class="gained">') == gained  # ★ on what only the rewrite found
    third = [row for row in stored if row.session == store.session and row.turn == 3][0]
    assert third.rewritten_hits[0][0].endswith(RIGHT[2].replace("1.5.7", "trim_history 按整轮裁剪历史"))
    second = table.split('<tr class="follow-up">')[1]  # turn 2 of the demo: the rewrite found T5 first
    assert "1.5.7 选做: trim_history 按整轮裁剪历史 › T5" in second.split("</td><td>")[-1].split("</li>")[0]


def test_what_a_rewrite_lost_of_what_the_question_found_is_marked(session, page):
    """✗ on each passage the question found and its rewrite's search did not (the seed: a rewrite that goes astray
    is caught on this page at a glance), in the turn, the overview and the stored follow-ups; none on a fallback."""
    turns, _, store = session
    source = page.read_text(encoding="utf-8")
    for turn in turns:
        section = source.split(f'<section class="turn" id="turn-{turn.number}">')[1].split("</section>")[0]
        question = section.split('<div class="hits-original">')[1].split("</div>")[0]
        kept = {hit.passage.title for hit in turn.hits_rewritten or ()}
        lost = (
            []
            if turn.hits_rewritten is None or turn.rewrite_state == "fallback"
            else [hit for hit in turn.hits_original if hit.passage.title not in kept]
        )
        assert question.count('<li class="lost">') == len(lost) and question.count("✗") == len(lost)
    assert any(turn.rewrite_state == "done" for turn in turns)
    summary = source.split('<table id="summary">')[1].split("</table>")[0]
    assert summary.count('class="lost"') == sum(
        1
        for t in turns
        if t.rewrite_state in ("done", "same")
        and t.hits_rewritten is not None
        and t.hits_original
        and t.hits_original[0].passage.title not in {h.passage.title for h in t.hits_rewritten}
    )
    table = source.split('<table id="rewrites-table">')[1].split("</table>")[0]
    stored = store.follow_ups()[0]
    lost = sum(
        title not in {t for t, _ in row.rewritten_hits or ()}
        for row in stored
        if row.rewritten_hits is not None and row.state != "fallback"
        for title, _ in row.original_hits
    )
    assert lost and table.count('<li class="lost">') == lost


def test_an_empty_reply_or_a_single_turn_still_draws():
    from lab09.chat.main import Turn

    svg = session_page.chart([Turn(1, "你好", asked="你好", tokens_before=10, tokens_after=10)])
    assert svg.count("<polyline") == 3


@pytest.fixture
def chromium():
    if browser.chromium() is None:
        unavailable("chromium", "no Chromium on this machine: the page is not checked in a browser")


@pytest.fixture(scope="module")
def probed(page, tmp_path_factory):
    """A copy whose policy lets the probe's eval in (the page itself allows no script at all)."""
    source = page.read_text(encoding="utf-8")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy"[^>]*>', source)
    assert policy and "default-src 'none'" in policy.group()
    copy = tmp_path_factory.mktemp("probed") / "chat-session.html"
    copy.write_text(source.replace(policy.group(), ""), encoding="utf-8")
    return copy


def test_the_page_renders_in_a_real_browser(chromium, page, probed):
    dom = browser.dump_dom(page)
    assert dom.count('class="turn"') == len(QUESTIONS) and dom.count("<polyline") == 3
    facts = browser.probe(
        probed,
        "({scripts: document.scripts.length, images: document.images.length,"
        " wide: document.documentElement.scrollWidth,"
        " chart: document.getElementById('token-chart').getBoundingClientRect().width,"
        " rows: document.querySelectorAll('#summary tbody tr').length,"
        " hits: document.querySelectorAll('#turn-2 .hits-rewritten li').length,"
        " followUps: document.querySelectorAll('#rewrites-table tr.follow-up').length,"
        " sessions: document.querySelectorAll('#rewrites-table tr.session').length,"
        " gained: getComputedStyle(document.querySelector('li.gained')).fontWeight,"
        " hostile: document.querySelector('#turn-4 .question').textContent})",
        width=1000,
    )
    assert facts["scripts"] == 0 and facts["images"] == 0
    assert facts["wide"] <= 1000 and facts["chart"] > 300
    assert facts["rows"] == len(QUESTIONS) and facts["hits"] == 3 and facts["sessions"] == 2
    assert facts["followUps"] == len(QUESTIONS) - 1 + len(EARLIER) - 1 and facts["gained"] == "600"
    assert facts["hostile"].startswith("<script>alert(1)</script>") and "\\x1b" in facts["hostile"]


def test_the_charts_y_axis_ticks_are_numbers_and_its_title_stands_beside_them(chromium, probed, session):
    """The y axis once read "token" where its middle tick's number belongs (issue 26): every text left of the axis
    that is not the rotated title is a number, the middle one half the highest."""
    turns, _, _ = session
    facts = browser.probe(
        probed,
        "(() => { const svg = document.getElementById('token-chart');"
        " const axis = svg.querySelector('line:nth-of-type(2)').getBoundingClientRect();"
        " return [...svg.querySelectorAll('text')].map(t => {"
        " const box = t.getBoundingClientRect();"
        " return {text: t.textContent, right: box.right, top: box.top, width: box.width,"
        " height: box.height, middle: (box.top + box.bottom) / 2, axis: axis.left,"
        " bottom: axis.bottom}; }); })()",
    )
    left = [fact for fact in facts if fact["right"] <= fact["axis"] and fact["middle"] <= fact["bottom"]]  # not 轮
    titles = [fact for fact in left if not fact["text"].isdigit()]
    ticks = sorted((fact for fact in left if fact["text"].isdigit()), key=lambda fact: fact["top"])
    highest = max(max(t.tokens_before, t.tokens_after, t.evidence_tokens) for t in turns)
    assert [int(fact["text"]) for fact in ticks] == [highest, round(highest / 2), 0]
    assert [fact["text"] for fact in titles] == ["token"] and titles[0]["height"] > titles[0]["width"]  # rotated


def test_the_page_fits_a_narrow_window(chromium, probed):
    assert browser.probe(probed, "document.documentElement.scrollWidth", width=760) <= 760

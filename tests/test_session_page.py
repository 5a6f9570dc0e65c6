"""chat-session.html: every turn of `make chat` on one self-contained page, escaped, checked in a real browser."""

import io
import random
import re

import pytest

import browser
from conftest import SOLUTION, unavailable
from framework.harness import session_page
from framework.harness.chat import DEMO_SCRIPTS, Chat, models
from framework.harness.engine import StudentRun

CHAT_MODEL, REWRITER = models()
HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>\x1b[31m\u202e'
QUESTIONS = [*DEMO_SCRIPTS["zh"], HOSTILE, *[f"问题 {n}" for n in range(5, 10)]]


@pytest.fixture(scope="module")
def session():
    with StudentRun(SOLUTION, display="student.py") as student:
        chat = Chat(student, CHAT_MODEL, random.Random(4), io.StringIO(), rewriter=REWRITER, deadline_ms=60_000)
        for question in QUESTIONS:
            chat.turn(question)
    meta = {"file": "framework/student.py", "seed": 4, "rewrite": True, "deadline_ms": 500, "delay_ms": 0}
    return chat.turns, meta


@pytest.fixture(scope="module")
def page(session, tmp_path_factory):
    return session_page.write(tmp_path_factory.mktemp("page") / "chat-session.html", *session)


def test_the_page_has_every_turn_and_is_self_contained(session, page):
    source = page.read_text(encoding="utf-8")
    turns, _ = session
    assert source.count('<section class="turn"') == len(QUESTIONS) == len(turns)
    assert "<script" not in source.lower().replace("&lt;script", "") and "src=" not in source.replace("src=x", "")
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", source)  # nothing to fetch
    assert "中文里一个 token 有多长？" in source and "那中文里它有多长？" in source  # question beside its rewrite


def test_student_text_is_escaped_and_control_characters_are_visible(page):
    source = page.read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;" in source
    assert "\x1b" not in source and "\u202e" not in source
    assert '<span class="ctl">\\x1b</span>' in source and '<span class="ctl">\\u202e</span>' in source


def test_the_chart_shows_tokens_with_and_without_trimming(session):
    turns, _ = session
    assert [t.tokens_before > t.tokens_after for t in turns] == [False] * 6 + [True] * 3  # trimming starts at turn 7
    svg = session_page.chart(turns)
    lines = re.findall(r'<polyline class="series"[^>]*points="([^"]+)"', svg)
    assert len(lines) == 2 and all(len(points.split()) == len(turns) for points in lines)


def test_an_empty_reply_or_a_single_turn_still_draws():
    from framework.harness.chat import Turn
    svg = session_page.chart([Turn(1, "你好", asked="你好", tokens_before=10, tokens_after=10)])
    assert svg.count("<polyline") == 2


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
    assert dom.count('class="turn"') == len(QUESTIONS)
    assert len(re.findall(r"<tr>", dom)) == len(QUESTIONS) + 1 and dom.count("<polyline") == 2
    facts = browser.probe(probed, "({scripts: document.scripts.length, images: document.images.length,"
                                " wide: document.documentElement.scrollWidth,"
                                " chart: document.getElementById('token-chart').getBoundingClientRect().width,"
                                " hostile: document.querySelector('#turn-4 .question').textContent})", width=1000)
    assert facts["scripts"] == 0 and facts["images"] == 0
    assert facts["wide"] <= 1000 and facts["chart"] > 300
    assert facts["hostile"].startswith("<script>alert(1)</script>") and "\\x1b" in facts["hostile"]


def test_the_page_fits_a_narrow_window(chromium, probed):
    assert browser.probe(probed, "document.documentElement.scrollWidth", width=760) <= 760

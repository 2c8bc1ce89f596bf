"""The retrieval core's stages alone: fusion, the lexical channel's coverage, windows."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from interaction.memory.retrieval.candidates import Candidate, CandidatePool
from interaction.memory.retrieval.fused_score import fuse
from interaction.memory.retrieval.generic import without
from interaction.memory.retrieval.lexical import LexicalIndex
from interaction.memory.retrieval.windows import resolve

NOW = datetime(2026, 6, 15, 18, 0)


def test_fusion_methods_rank_by_both_channels():
    dense, lexical = np.array([0.2, 0.5, 0.4]), np.array([0.0, 0.0, 6.0])
    for method in ("zscore", "rrf", "weighted"):
        assert int(np.argmax(fuse(dense, lexical, method))) == 2, method
    assert int(np.argmax(fuse(dense, lexical, "zscore", lexical_weight=0.0))) == 1
    assert np.allclose(fuse(dense, np.zeros(3)), fuse(dense, np.zeros(3), lexical_weight=0.0))  # a flat channel adds nothing
    assert fuse(np.zeros(0), np.zeros(0)).shape == (0,)


def test_coverage_is_lowered_by_words_the_person_never_said():
    index = LexicalIndex(["We signed the papers for our first house by the sea.", "Our band played its first gig."])
    raw, told = index.scores("our first house")
    _, untold = index.scores("our first boat")
    assert int(np.argmax(raw)) == 0 and told[0] > untold[0] > 0
    assert 0 <= told.max() < 1
    assert LexicalIndex([]).scores("anything")[0].shape == (0,)


def _pool(*items: tuple[str, str, datetime]) -> CandidatePool:
    cands = [Candidate(kind, f"m{i}", text, text, when.timestamp(), f"s{i}") for i, (kind, text, when) in enumerate(items)]
    return CandidatePool(cands, np.zeros((len(cands), 4), np.float32), "test")


def test_session_relative_windows():
    pool = _pool(("turn", "first chat", NOW - timedelta(days=30)), ("first_meeting", "anchor", NOW - timedelta(days=30)),
                 ("turn", "latest chat", NOW - timedelta(days=2)))
    last = resolve("What did we talk about last time?", NOW, [pool])
    assert last.expression == "last time" and list(last.mask(pool.occurred_ts)) == [False, False, True]
    first = resolve("Do you remember when we first met?", NOW, [pool])
    assert first.names_event and list(first.mask(pool.occurred_ts)) == [True, True, False]
    assert resolve("Do you remember my kitten?", NOW, [pool]) is None
    assert resolve("What did we talk about last time?", NOW, [_pool()]) is None  # nothing stored yet
    assert without("What did you hear last week?", "last week") == "What did you hear ?"


def test_a_first_meeting_alone_is_no_last_time():
    """Someone met minutes ago asked "do you remember what I told you last time?" and got their own first
    meeting of this very conversation (its scene is written as they meet): no conversation of theirs has
    ended, so there is no last time; a moment kept before still is one."""
    met = _pool(("first_meeting", "anchor", NOW - timedelta(minutes=2)))
    assert resolve("Do you remember what I told you last time?", NOW, [met]) is None
    assert resolve("Do you remember when we first met?", NOW, [met]).names_event
    kept = _pool(("first_meeting", "anchor", NOW - timedelta(days=3)), ("moment", "a moment", NOW - timedelta(days=3)))
    assert resolve("Do you remember what I told you last time?", NOW, [kept]) is not None


def test_a_calendar_window_ends_the_items_outside_it():
    pool = _pool(("turn", "a", NOW - timedelta(days=1, hours=2)), ("turn", "b", NOW - timedelta(days=8)),
                 ("turn", "c", datetime(2026, 5, 10, 12)))
    yesterday = resolve("What did I tell you yesterday?", NOW, [pool])
    assert list(yesterday.mask(pool.occurred_ts)) == [True, False, False]
    may = resolve("What did I tell you in May?", NOW, [pool])
    assert list(may.mask(pool.occurred_ts)) == [False, False, True]

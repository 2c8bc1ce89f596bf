"""Benchmark metrics on fixed, hand-made runner outputs (no suite is started here)."""

import pytest

from scripts.eval.memory_metrics import is_first_meeting, score_script
from scripts.runner.script import Script

MOMENT = "I just defended my PhD thesis today, I'm so happy!"
ANCHOR = "The first time we met — Maya introduced themselves to me."

SCRIPT = Script.model_validate({"name": "fake", "sessions": [
    {"camera": [], "turns": [
        {"say": "Hello! My name is Maya.", "expect": {"user_name": "Maya", "stored": "first_meeting"}},
        {"say": MOMENT, "expect": {"stored": "moment"}},
        {"say": "I live in Geneva.", "expect": {"profile": {"location": "Geneva"}}},
        {"say": "Bye!"},
    ]},
    {"camera": [], "gap_hours": 48, "turns": [
        {"say": "Hi!", "expect": {"user_name": "Maya"}},
        {"say": "Do you remember my thesis?", "expect": {"recall": True, "scene_of": MOMENT, "stored": "none"}},
        {"say": "I'm so happy it's sunny.", "expect": {"recall": False, "scene_of": None}},
        {"say": "Do you remember my dog?", "expect": {"recall": True, "scene_of": None}},
        {"say": "When did we first meet?", "expect": {"recall": True, "scene_of": ANCHOR}},
        {"say": "What's the time?", "expect": {"recall": False, "scene_of": None, "stored": "none"}},
    ]},
]})


def rec(session, turn, **kw):
    base = {"session": session, "turn": turn, "say": "", "user_name": "Maya", "is_recall": False,
            "stored": None, "retrieved": None, "expect_ok": True}
    return base | kw


def injected(message, ok=True):
    return {"scene_id": "s", "similarity": 0.5, "injected": ok, "user_message": message}


RECORDS = [
    rec(1, 1, stored={"scene_type": "first_meeting"}),
    rec(1, 2, stored={"scene_type": "moment"}),
    rec(1, 3, expect_ok=False),  # profile missing
    rec(1, 4, expect_ok=None),
    rec(2, 1, user_name="Unknown", expect_ok=False),  # not recognised
    rec(2, 2, is_recall=True, retrieved=injected(MOMENT)),  # hit
    rec(2, 3, retrieved=injected(MOMENT), stored={"scene_type": "moment"}, expect_ok=False),  # false injection
    rec(2, 4, is_recall=True, retrieved=injected(ANCHOR), expect_ok=False),  # wrong + unasked first meeting
    rec(2, 5, is_recall=False, retrieved=injected(MOMENT, ok=False), expect_ok=False),  # miss, recall missed
    # turn 2.6 has no record: the runner died
]


def test_metrics_on_fixed_outputs():
    tally = score_script(SCRIPT, RECORDS, "fake")
    m = {k: (r.num, r.den) for k, r in tally.ratios.items()}
    assert m["recall_hit_rate"] == (1, 2)
    assert m["wrong_scene_rate"] == (1, 3)  # 2.4 (nothing to recall, anchor injected)
    assert m["false_injection_rate"] == (1, 2)  # 2.3 injected; 2.6 has no record, nothing injected
    assert m["first_meeting_precision"] == (0, 1)
    assert m["first_meeting_recall"] == (0, 1)
    assert m["profile_accuracy"] == (0, 1)
    assert m["storage_precision"] == (2, 2)  # stored on 2.3 has no stored expectation: not counted
    assert m["storage_recall"] == (2, 2)
    assert m["recognition_accuracy"] == (1, 2)
    assert m["recall_detection_accuracy"] == (3, 5)
    assert m["expectations_met"] == (3, 9)
    assert any("[false_injection_rate]" in f for f in tally.failures)


def test_storage_on_an_unexpected_turn_lowers_precision():
    script = Script.model_validate({"sessions": [{"turns": [{"say": "ok", "expect": {"stored": "none"}}]}]})
    tally = score_script(script, [rec(1, 1, stored={"scene_type": "moment"})], "x")
    assert (tally.ratios["storage_precision"].num, tally.ratios["storage_precision"].den) == (0, 1)
    assert tally.ratios["storage_recall"].den == 0


@pytest.mark.parametrize("text,expected", [
    (ANCHOR, True), ("The first time we met — Dr. Jean-Luc introduced themselves to me.", True),
    (MOMENT, False), (None, False),
])
def test_first_meeting_anchor(text, expected):
    assert is_first_meeting(text) is expected

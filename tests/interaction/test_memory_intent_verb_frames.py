"""The memory-intent classifier's parse features (spaCy's en_core_web_sm): what each verb of a turn
does, so a negated or asked memory verb reads apart from a bare one."""

from __future__ import annotations

import pytest

from interaction.memory_intent.verb_frames import verb_frames


def test_a_negated_memory_verb_is_marked_as_negated():
    bare, negated = verb_frames(["please forget that the boat is moored at pier 4",
                                 "don't forget that the boat is moored at pier 4"])
    assert "forget/yes/bid" in bare and "forget/yes>ccomp" in bare
    assert "forget/not/bid" in negated and "forget/not>ccomp" in negated
    assert not {t for t in negated if t.startswith("forget/yes")}


def test_a_question_tagged_on_a_request_leaves_the_request_bidding():
    (tagged,) = verb_frames(["keep in mind my flight is at noon, ok?"])
    (asked,) = verb_frames(["do you remember my flight?"])
    assert "turn/asks" in tagged and "keep/yes/bid" in tagged
    assert "remember/yes/ask" in asked


def test_a_question_without_a_memory_verb_asks():
    (asked,) = verb_frames(["what's the number of my hotel room?"])
    assert {"turn/asks", "turn/wh"} <= set(asked)
    assert not any(t.startswith(("forget", "delete", "remember")) for t in asked)


def test_the_verbs_object_and_how_much_of_it_is_offered():
    one, everything = verb_frames(["delete my insurance details", "delete all the data"])
    assert "delete>obj:detail" in one and not any(t.startswith("delete>obj+") for t in one)
    assert "delete>obj:datum" in everything and "delete>obj+all" in everything


def test_a_turn_without_a_verb_says_so():
    assert verb_frames(["hotel room number pls"]) == [["turn/no-verb"]]


def test_without_the_parser_the_classifier_is_unavailable_not_broken_mid_turn(monkeypatch):
    from common.vision.base import BackendUnavailable
    from interaction.memory_intent.classifier import MemoryIntentClassifier
    from interaction.offline import self_description

    def missing():
        raise self_description.ParserUnavailable("spaCy pipeline en_core_web_sm cannot load")

    monkeypatch.setattr(self_description, "load_parser", missing)
    with pytest.raises(BackendUnavailable, match="en_core_web_sm"):
        MemoryIntentClassifier(embedder=None)  # the shipped weights read the parse

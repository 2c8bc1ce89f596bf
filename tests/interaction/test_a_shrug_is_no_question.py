""""my gran died on saturday" then "whatever. its fine. im fine" got "That's a good question. I'm
afraid I don't know the answer.": a wh-word in "-ever" said alone was read as "why?" said alone."""

from __future__ import annotations

import pytest

from interaction import cues
from interaction.memory.retrieval.entities import LISTENER, read_mentions
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.offline.parsing import load_parser


@pytest.mark.parametrize("said", ["whatever.", "Whatever", "whatever happens, I'll be there", "Whenever."])
def test_a_wh_word_in_ever_asks_nothing(said):
    assert not cues.is_question(said)


@pytest.mark.parametrize("said", ["why", "Who?", "whatever did you do?", "what happened"])
def test_a_wh_word_alone_or_with_a_mark_still_asks(said):
    assert cues.is_question(said)


def test_the_listeners_remembering_is_no_doing_asked_about():
    mentions = read_mentions(load_parser()("What am I building, do you remember?"), load_wordnet())
    assert [m.head for m in mentions] == ["building"]
    assert all(m.owner != LISTENER for m in mentions)


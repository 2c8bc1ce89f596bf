""""when is my chemistry exam?" over "my exam in biology is on the 12th" got "On the 12th": "in" said
which exam, a field's, as "biology exam" does; of a place or a time it says no such thing (tester63 s77)."""

from __future__ import annotations

from interaction.memory.retrieval.entities import read_mentions
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.offline.parsing import load_parser


def _heads(text: str) -> list[str]:
    return [m.head for m in read_mentions(load_parser()(text), load_wordnet()) if m.topic]


def test_in_a_field_says_which_one():
    assert "biology exam" in _heads("my exam in biology is on the 12th, i'm nervous")


def test_in_a_place_or_a_time_says_where_or_when_only():
    assert "exam" in _heads("my exam in the main hall is on the 12th")
    assert "exam" in _heads("my exam in the morning went fine")

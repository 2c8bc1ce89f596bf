"""Texting spellings are read as the words they stand for (offline/chat_spelling.py): the parse, the
memory-intent reading and so the reply take "abt" as "about" and "u" as "you", the text kept as typed."""

from __future__ import annotations

import pytest

from interaction.offline.parsing import load_parser
from interaction.offline.understand_rules import understand
from tests.interaction.test_returning_by_name import dm, say  # noqa: F401 - the fixture

ASKING_WHAT_IS_KNOWN = ["what else do u know abt me", "ok what do you remember abt me", "wat do u rmbr abt me"]


def test_a_chat_spelling_is_parsed_as_the_word_meant_and_kept_as_typed():
    doc = load_parser()("wat do u think abt my plan")
    assert doc.text == "wat do u think abt my plan"
    abt = doc[4]
    assert abt.pos_ == "ADP" and doc[6].head.i == abt.i  # "my plan" hangs on "abt", as on "about"


@pytest.mark.parametrize("text", ASKING_WHAT_IS_KNOWN)
def test_asking_what_nadine_knows_in_chat_spellings_is_read_so(text):
    assert understand(text).memory_intent == "about_me"


def test_asking_what_nadine_knows_in_chat_spellings_is_answered_with_what_she_knows(dm):  # noqa: F811
    say(dm, "Hello, I'm Oksana Petrenko.")
    say(dm, "I teach violin at a school in Cork.")
    reply = say(dm, ASKING_WHAT_IS_KNOWN[0]).reply
    assert "Oksana" in reply and "violin" in reply, reply

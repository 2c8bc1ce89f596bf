"""A request to remember something to do, read from the parse: who is to do it and what, in the
person's words; and how a kept to-do is said back."""

from __future__ import annotations

import pytest

from interaction.memory_intent.to_do import to_do
from interaction.reported_speech import told_back


@pytest.mark.parametrize(("said", "doer", "kept"), [
    ("could you remind me to feed Biscuit before I leave?", "person", "remind me to feed Biscuit before I leave"),
    ("Remind me on Sunday to book the ferry to Skye.", "person", "remind me to book the ferry to Skye on Sunday"),
    ("please don't let me forget to return Ana's drill", "person", "remind me to return Ana's drill"),
    ("help me remember to order the cake for Saturday", "person", "remind me to order the cake for Saturday"),
    ("will you remember to ask me how the audition went?", "nadine", "remember to ask me how the audition went"),
    ("don't forget to ask me about the allotment, ok?", "nadine", "remember to ask me about the allotment"),
])
def test_a_to_do_is_read_with_its_doer_and_its_words(said, doer, kept):
    found = to_do(said)
    assert found is not None and (found.doer, found.request) == (doer, kept)


@pytest.mark.parametrize("said", [
    "my smartwatch reminds me to stand up every hour",  # told, not asked
    "the rain reminds me of Galway",  # no infinitive
    "remind me what I told you about the allotment",  # a recall: a clause, no infinitive
    "I keep meaning to remember to call the council",  # the person's own intention
    "remind him to bring the ladder",  # neither the person's to-do nor Nadine's
])
def test_what_is_no_to_do_for_nadine_is_not_read_as_one(said):
    assert to_do(said) is None


def test_a_kept_to_do_is_said_back_as_the_request_it_was():
    assert told_back("explicit_memory", "remind me to feed Biscuit before I leave") == \
        "you asked me to remind you to feed Biscuit before you leave"
    assert told_back("explicit_memory", "remember to ask me how my audition went") == \
        "you asked me to remember to ask you how your audition went"
    # a fact keeps its "remember that"
    assert told_back("explicit_memory", "my locker code is 2231") == "you asked me to remember that your locker code is 2231"


@pytest.mark.parametrize(("said", "intent"), [
    ("remind me to call the plumber tomorrow", "remember"),
    ("can you remind me to phone the dentist on Monday?", "remember"),
    ("remind me next time to bring the photos of the wedding", "remember"),  # near a recall by its words
    ("will you remember to ask me whether the boiler got fixed?", "remember"),
    ("my phone reminds me to take my pills every morning", "statement"),
    ("that reminds me of my grandmother's garden", "statement"),
    ("remind me what I said about my sister's flat", "recall"),
    ("what did I ask you to remind me about?", "recall"),
])
def test_a_to_do_request_is_read_as_one_to_remember_and_the_rest_as_before(said, intent):
    from interaction.memory_intent.classifier import classify

    assert classify(said).intent == intent

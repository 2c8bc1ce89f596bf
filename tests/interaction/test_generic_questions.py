"""Does a recall question name a topic, or only a time (interaction/memory/retrieval/generic.py)?
MiniLM puts a question that names a topic inside a generic frame near the frame itself; the nouns
the question adds to its nearest generic question decide, unless they are nouns of telling."""

from __future__ import annotations

import pytest

from common.config.interaction_settings import RecallSettings
from common.embedding.registry import offline_text_embedder
from interaction.memory.retrieval.generic import GenericQuestions


@pytest.fixture(scope="module")
def generic() -> GenericQuestions:
    return GenericQuestions(offline_text_embedder(), RecallSettings().generic_threshold)


@pytest.mark.parametrize("question", [
    "Do you remember what I told you about my uncle?", "Do you still remember what I said about the allotment?",
    "What did I tell you about Marek?",
])
def test_a_topic_inside_a_generic_frame_is_a_topic(generic, question):
    assert not generic.is_generic(question)


@pytest.mark.parametrize("question", [
    "Do you remember what I told you?", "Remember our chat?", "What was our conversation about?",
    "Any idea what I told you?", "Do you remember what I told you last time?",
])
def test_nouns_of_telling_name_no_topic(generic, question):
    assert generic.is_generic(question)


@pytest.mark.parametrize("question", ["And what did I ask you to remember?", "Oh, and what did I say to you?",
                                      "but what did we chat about?"])
def test_a_question_joined_to_the_talk_before_it_is_still_generic(generic, question):
    assert generic.is_generic(question)


def test_a_joined_question_that_names_a_topic_is_a_topic(generic):
    assert not generic.is_generic("And what did I tell you about my allotment?")



@pytest.mark.parametrize(("question", "is_generic"), [
    # "do you remember my big news?" was abstained in all four runs that asked it (tester29): a telling
    # of theirs said only by how it was names no topic
    ("Remember my brilliant news?", True),
    ("Remember my first poetry book?", False),  # one work of theirs, by its kind and its place among them
    ("Do you remember my news about the allotment?", False),
    # a work is no telling, however it is said: "what's my favourite film?" got the last visit's
    # memories, the cafe's wifi password among them (replay30 ellie)
    ("What's my favourite song?", False),
])
def test_a_telling_of_theirs_said_only_by_how_it_was_names_no_topic(generic, question, is_generic):
    assert generic.is_generic(question) is is_generic

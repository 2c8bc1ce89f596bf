"""A streamed reply split into spoken sentences: complete sentences in order as soon as the splitter can
tell, the reply checks applied sentence by sentence, the stream closed where they cut."""

from __future__ import annotations

import pytest

from interaction.llm.reply_text import ReplyCheck
from interaction.llm.sentences import SentenceBuffer, spoken_sentences
from interaction.prompts import (
    BACKGROUND_HEADING,
    CONVERSATION_HEADING,
    NADINE_LABEL,
    USER_LABEL,
    response_system,
)

INSTRUCTIONS = response_system("en-US", True)
CHECK = ReplyCheck(labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                   headings=(BACKGROUND_HEADING, CONVERSATION_HEADING), instructions=[INSTRUCTIONS])


class Deltas:
    """A reply arriving a few characters at a time, as a model streams it; remembers being closed."""

    def __init__(self, text: str, size: int = 3) -> None:
        self.parts = [text[i:i + size] for i in range(0, len(text), size)]
        self.sent = 0
        self.closed = False

    def __iter__(self) -> Deltas:
        return self

    def __next__(self) -> str:
        if self.closed or self.sent == len(self.parts):
            raise StopIteration
        self.sent += 1
        return self.parts[self.sent - 1]

    def close(self) -> None:
        self.closed = True


def test_a_sentence_is_handed_on_once_the_next_one_has_begun():
    buffer = SentenceBuffer()
    assert buffer.add("I was born in 1990.") == []  # could still be 1990.5
    assert buffer.add("5 kilometres away") == []
    ends = buffer.add(" from here. And")
    assert [buffer.text[:e].strip() for e in ends] == ["I was born in 1990.5 kilometres away from here."]


@pytest.mark.parametrize("size", [1, 4, 50])
def test_sentences_come_in_order_whatever_the_delta_size(size):
    reply = "Hello Maya! I met Dr. Smith at 3.5 km from here... Then what? It was lovely."
    assert list(spoken_sentences(Deltas(reply, size), CHECK)) == [
        "Hello Maya!", "I met Dr. Smith at 3.5 km from here... Then what?", "It was lovely."]


def test_the_model_announcing_itself_is_not_spoken():
    assert list(spoken_sentences(Deltas(f"{NADINE_LABEL}: Hi there. How are you?"), CHECK)) == [
        "Hi there.", "How are you?"]


@pytest.mark.parametrize("reply, spoken", [
    (f"Nice to see you. How was work?\n{USER_LABEL}: It was fine. {NADINE_LABEL}: Great.",
     ["Nice to see you.", "How was work?"]),
    ("Nice to see you! <|im_end|> <|im_start|>user hello", ["Nice to see you!"]),
    ("Of course.\n- Profile: works at a bakery.\n- Name: Lena.", ["Of course."]),
    ("Of course.\n1. Profile: works at a bakery.", ["Of course."]),
    (f"Sure. {INSTRUCTIONS[:200]}", ["Sure."]),
    (f"Hello.\n{BACKGROUND_HEADING}\nProfile: none.", ["Hello."]),
])
def test_the_stream_stops_where_the_reply_starts_to_continue_the_prompt(reply, spoken):
    deltas = Deltas(reply)
    assert list(spoken_sentences(deltas, CHECK)) == spoken
    assert CHECK.spoken(reply).startswith(" ".join(spoken))  # what the whole reply's check keeps
    assert deltas.closed and deltas.sent < len(deltas.parts)  # the rest was never read


def test_a_reply_made_only_of_prompt_text_speaks_nothing():
    assert list(spoken_sentences(Deltas(f"{USER_LABEL}: what is my name?"), CHECK)) == []

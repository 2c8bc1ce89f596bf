""""did nibbles have babies" over "my hamster Nibbles had babies" got "No, that was your hamster
Nibbles", and "how many babies did nibbles have" read "nibbles" as the object of "did", conflicting
with the memory: a name the memories spell with a capital is read with it in the question, and a
question typed without its mark is read with it (tester62 s91)."""

from __future__ import annotations

from interaction.memory.retrieval.spelling import names_as_told
from tests.interaction import test_own_words
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_a_word_the_memories_write_only_as_a_name_is_read_as_that_name():
    told = ["my hamster Nibbles had babies", "Rose and I went to the garden centre"]
    assert names_as_told("did nibbles have babies", told) == "did Nibbles have babies"
    # "rose" is also written in lower case: a flower as well as a name, left as typed
    assert names_as_told("did the rose bloom", [*told, "the rose by the gate"]) == "did the rose bloom"
    # a capital that opens a sentence marks no name
    assert names_as_told("how was the garden", ["Garden is full of weeds"]) == "how was the garden"


def test_a_yes_no_question_of_a_name_typed_in_lower_case_is_answered_yes(stranger):
    reply = asked_the_next_day(stranger, ["Hi, I'm Tess.", "my hamster Nibbles had babies, she is so tired"],
                               "hi its tess", "did nibbles have babies")
    assert reply.startswith("Yes"), reply

"""Follow-up questions after an answer from memory got "That's a good question. I'm afraid I don't know
the answer.": "when is it?" after "where's the gig?" (a day said with no preposition, "a gig at the Blue
Room next Saturday", was no time to the answer reader), and "where is it?" after "what kind of
restaurant i have?" (the thing asked which of, an object, was not what "it" stands for) (tester63 s47,
s57)."""

from __future__ import annotations

from interaction.answer_span import answer_in
from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_a_day_said_as_when_without_a_preposition_answers_when():
    memory = "my band got booked for a gig at the Blue Room next Saturday!!!"
    found = answer_in("when is the gig?", memory)
    assert found is not None and found.words(memory) == "next Saturday"


def test_it_after_a_question_of_which_thing_of_theirs_is_that_thing(stranger):
    told = ["hello i am Nguyen, call me Minh", "i open my own pho restaurant last month in Houston"]
    asked_the_next_day(stranger, told, "hi it is Minh", "what kind of restaurant i have?")
    reply = say(stranger, "where is it?").reply
    assert reply.startswith("In Houston"), reply


def test_her_name_after_an_answer_about_one_person_is_that_persons_name(stranger):
    """"and what's her name again?" after the daughter's wedding was said back got "I don't think you
    told me that" while the memory named her (my play): a name asked of "her" is the name the memory
    gives the one person it names."""
    memory = "My daughter Zoe is getting married on the 14th of June in Porto."
    for question in ("what's her name again?", "what was her name?"):
        found = answer_in(question, memory)
        assert found is not None and found.words(memory) == "Zoe", question
    # two people named: whose name "her" means is not read off the words
    assert answer_in("what's her name?", "my sister Ana and my cousin Rita came over") is None
    told = ["hi I'm Ilse", "My daughter Zoe is getting married on the 14th of June in Porto."]
    asked_the_next_day(stranger, told, "Ilse here", "what did I tell you about my daughter?")
    reply = say(stranger, "and what's her name again?").reply
    assert reply.startswith("Zoe"), reply


def test_what_a_verb_was_done_to_or_by_is_answered_by_the_memory_that_tells_the_same_verb():
    """"what is Amy expecting?" and "what broke?" over "my daughter Amy is expecting twins in April. Also
    the boiler broke again." got the whole memory and no answer (my play as Ruth)."""
    memory = "Big week: my son Ben got into Oxford, and my daughter Amy is expecting twins in April. Also the boiler broke again."
    for question, answer in (("what is Amy expecting?", "twins"), ("what is my daughter expecting?", "twins"),
                             ("what broke?", "the boiler")):
        found = answer_in(question, memory)
        assert found is not None and found.words(memory) == answer, question
    # another doer's object is no answer, nor is one told negated, nor what was said to Nadine
    assert answer_in("what is my sister expecting?", memory) is None
    assert answer_in("what did I fix?", "I didn't fix the boiler") is None
    assert answer_in("what did I tell you?", "I told you my boiler broke") is None


def test_how_old_someone_is_is_the_age_the_memory_gives_them():
    """"How old is my mum?" over "My mother is 79 and lives in Glasgow." got the whole memory, or the
    speaker's own age (tester65 s21/8)."""
    memory = "My mother is 79 and lives in Glasgow."
    for question in ("How old is my mum?", "how old is my mother now?"):
        found = answer_in(question, memory)
        assert found is not None and found.words(memory) == "79", question
    assert answer_in("How old is my dad?", memory) is None
    assert answer_in("How old is my mum?", "I'm 45 and my mum lives in Glasgow") is None
    assert answer_in("how old am I?", "I'm 45, my mother is 79").words("I'm 45, my mother is 79") == "45"

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


def test_a_chat_spelling_is_spelled_out_for_retrieval_and_a_capital_letter_alone_stays():
    from interaction.offline.chat_spelling import spelled_out

    assert spelled_out("can u move my physio appt to tmrw") == "can you move my physio appointment to tomorrow"
    assert spelled_out("Plan R is the backup, Appt booked") == "Plan R is the backup, appointment booked"


def test_wed_before_a_time_is_one_token_for_wednesday_and_before_a_verb_stays_we_would():
    parser = load_parser()
    day = parser("vet wed 10am")
    assert day[1].text == "wed" and day[1].norm_ == "wednesday", [t.text for t in day]
    we = parser("wed love to see the garden")
    assert we[0].lower_ == "we", [t.text for t in we]


def test_a_fragment_to_keep_before_dont_let_me_forget_is_kept_and_said_back_without_a_speaker_swap(dm):  # noqa: F811
    say(dm, "Hello, I'm Tobiah Reyes.")
    reply = say(dm, "also piano lesson wed 5pm dont let me forget").reply
    assert "piano lesson" in reply and "you'd" not in reply and "youd" not in reply, reply
    kept = [m.text for m in dm.deps.services.explicit.list(dm.session.identity.user_id)]
    assert kept == ["piano lesson wed 5pm"], kept


def test_a_question_in_chat_spellings_finds_the_memory_told_in_full_words(dm):  # noqa: F811
    say(dm, "Hello, I'm Tobiah Reyes.")
    say(dm, "Please remember my physio appointment is on Friday at 2pm.")
    reply = say(dm, "do u still have my physio appt").reply
    assert reply.startswith("Yes") and "physio" in reply, reply
    assert "2pm" in say(dm, "when is my physio appt?").reply


def test_a_value_kept_in_a_chat_spelling_is_read_off_for_the_word_in_full(dm):  # noqa: F811
    say(dm, "Hello, I'm Tobiah Reyes.")
    say(dm, "my bike shed pw is plum77")
    reply = say(dm, "what's my bike shed password?").reply
    assert "plum77" in reply and "don't think" not in reply, reply


@pytest.mark.parametrize(("said", "job"), [("im a tram driver in leeds", "tram driver"),
                                          ("ive been a florist for ten years", "florist")])
def test_im_and_ive_typed_without_the_apostrophe_tell_what_i_am_and_have(dm, said, job):  # noqa: F811
    """"im a bus driver in bristol" kept nothing and "what's my job?" was not remembered (tester39): spaCy
    splits "im" as "I'm" but left "m" its own lemma, no "be"."""
    from common.store import ProfileStore

    uid = say(dm, "hiya im Tamsin").user_id
    say(dm, said)
    assert ProfileStore(dm.layout).load(uid).current_position == job

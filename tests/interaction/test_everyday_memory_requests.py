"""Requests to remember or forget in everyday wording: a forget request with its reason said after it
("..., it makes me sad"), "forget the X thing", "memorise my X: value", "save this: ...", "keep in
mind that ..., <one more part>" are read as the requests they are (the memory-intent classifier), a
forget request's reason is no topic of its own (request_topics), and the whole fact is kept, its last
part after a comma too (question_form.tagged_question), and a value given apart from what it is
of ("..., it's C-14") with it (named_value). Sentences written for these tests, none
of them rows of the classifier's data."""

from __future__ import annotations

from datetime import timedelta

import pytest

from common.clock import spoken_day
from common.messages import EmotionSignal, UserInput
from interaction.memory_intent.classifier import classify
from interaction.memory_intent.phrasing import request_topics
from tests.interaction.test_forget_said_just_now import back, ines  # noqa: F401 - the fixture
from tests.interaction.test_forget_vague_topic import holding

PEPPER = "I'm a bit low, my old dog Pepper died last month."
GRANDMA = "My grandma is in hospital and it makes me really sad."


def say(dm, text: str):
    return dm.process_input(UserInput(text=text, user_emotion=EmotionSignal(label="neutral", intensity=0.0)))


@pytest.mark.parametrize(("said", "intent"), [
    ("Please forget about Milo, it makes me cry.", "forget_one"),
    ("Forget about the fire, it still scares me.", "forget_one"),
    ("Could you forget about Aunt Rosa? It upsets me to think of her.", "forget_one"),
    ("Forget the sunset photos thing.", "forget_one"),
    ("Please memorise my bank card PIN: 6620.", "remember"),
    ("Save this: the spare key is under the green pot.", "remember"),
    ("I forgot about the mortgage letter, it makes me anxious.", "statement"),
])
def test_everyday_requests_are_read_as_asked(said, intent):
    assert classify(said).intent == intent


def test_a_reason_given_with_a_forget_request_is_no_topic():
    assert request_topics("Please forget about my goldfish Bubbles, it's too sad.") == ["my goldfish Bubbles"]
    assert "my parents divorced" in request_topics("forget that my parents divorced")


def test_a_forget_request_with_its_reason_offers_only_what_it_names(ines):  # noqa: F811
    dm, uid = ines
    say(dm, PEPPER)
    say(dm, GRANDMA)
    asked = say(dm, "Please forget about Pepper, it makes me sad.")
    assert asked.memory_intent == "forget_one"
    assert "Pepper" in asked.reply and "grandma" not in asked.reply, asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    back(dm, uid)  # the conversation is saved
    assert holding(dm, b"Pepper") == [] and holding(dm, b"grandma")


@pytest.mark.parametrize(("said", "kept"), [
    ("Could you keep in mind that my bike is at rack 5, slot 12?", "slot 12"),
    ("Please memorise my bank card PIN: 6620.", "6620"),
    ("Save this: the spare key is under the green pot.", "green pot"),
    # the value given apart from what it is of is kept with it, and said back so
    ("Would you remember my plumber's mobile for me, it's 0779 310 552.", "plumber's mobile is 0779 310 552"),
    ("Can you keep my allotment plot number in mind, it's C-14", "allotment plot number is C-14"),
    ("remember my locker combination 4471 please", "locker combination is 4471"),
    # a request put as a question, its value in the next sentence
    ("Can you remember my car's registration? It's KX19 BFD.", "car's registration is KX19 BFD"),
    # ... with what it is of
    ("Could you remember the number of our holiday cottage, it's 07700 900 341.",
     "holiday cottage is 07700 900 341"),
    # ... which the parse may hang on the request's verb
    ("Can you remember the PIN for my work van? It's 2207.", "work van is 2207"),
    # the value set off by a comma or a colon: "I'll remember that your lab door code, 4 8 1 5." (tester21 yuki)
    ("Please remember my office door code, 3 9 2 6.", "office door code is 3 9 2 6"),
    ("Could you remember my parking permit number: 55310.", "parking permit number is 55310"),
    # an aside that names only what the request names ("I can't miss that") is no content in its place:
    # the deposit was lost and "you can't miss that" kept (tester21 lola's words: only they reproduced it)
    ("Remember the venue deposit of 1500 dollars is due on the 1st of December, I can't miss that!!",
     "venue deposit of 1500 dollars is due on the 1st of December"),
    # a request again, naming nothing, after one that says what it keeps: "What would you like me to remember?"
    ("Remember that the piano exam is on Thursday, don't let me forget!", "piano exam is on Thursday"),
    ("Remember the school trip money is due on Monday, I can't forget that", "school trip money is due on Monday"),
])
def test_every_part_of_a_remember_request_is_kept(ines, said, kept):  # noqa: F811
    dm, _ = ines
    reply = say(dm, said)
    assert reply.memory_intent == "remember"
    assert kept in reply.reply, reply.reply
    assert [m for m in dm.deps.services.explicit.list(dm.session.identity.user_id) if kept in m.text]



def test_the_turn_a_memory_was_kept_from_is_not_kept_again_as_told(ines):  # noqa: F811
    """What was asked to be kept is one memory: after the conversation is saved, a forget request
    offers it once, never the request's own words ("it's 3318") beside it."""
    dm, uid = ines
    say(dm, "Can you remember the code for my garden shed? It's 3318.")
    back(dm, uid)
    asked = say(dm, "Please forget the code for my garden shed.")
    assert asked.reply.count("3318") == 1 and "it's 3318" not in asked.reply, asked.reply


@pytest.mark.parametrize(("said", "back", "kept", "aside"), [
    ("The piano tuner comes Monday at four, can you remember that, I always forget him",
     "that the piano tuner comes Monday the", "piano tuner comes Monday at four", "forget him"),
    ("I've got my flu jab at the surgery on the 17th at ten past nine, would you keep that in mind for me, "
     "my memory is shocking these days", "flu jab at the surgery on the 17th at 9:10", "flu jab at the surgery", "shocking"),
])
def test_a_request_between_a_fact_and_an_aside_keeps_the_fact_before_it(ines, said, back, kept, aside):  # noqa: F811
    """"that" points back at the clause told before the request; the aside after it is the person's own."""
    dm, _ = ines
    reply = say(dm, said)
    assert reply.memory_intent == "remember"
    assert back in reply.reply and aside not in reply.reply, reply.reply
    assert [m for m in dm.deps.services.explicit.list(dm.session.identity.user_id) if kept in m.text and aside not in m.text]


@pytest.mark.parametrize(("said", "back"), [
    ("The code for the garage door is 6093. Please keep that safe for me.", "the code for the garage door is 6093."),
    ("Our wifi password is lemon-kite-81. Hold on to it for me, would you?", "your wifi password is lemon-kite-81."),
])
def test_a_request_after_the_fact_that_only_points_back_keeps_the_fact(ines, said, back):  # noqa: F811
    """"keep that safe for me" names nothing but the sentence before it: that is what is kept and said
    back, never how it is to be kept ("safe for you")."""
    dm, _ = ines
    reply = say(dm, said)
    assert reply.memory_intent == "remember"
    assert reply.reply == f"I'll remember that {back}", reply.reply
    assert [m.text for m in dm.deps.services.explicit.list(dm.session.identity.user_id)] == [said.split(". ")[0]]


def test_a_kept_appointment_is_said_back_with_its_date_and_clock_time(ines):  # noqa: F811
    """Which Wednesday was taken, and the time as a clock shows it, are said back as it is kept."""
    dm, _ = ines
    today = spoken_day(dm.clock.now())
    wednesday = today + timedelta(days=(2 - today.weekday()) % 7 or 7)
    reply = say(dm, "I've the optician on Wednesday at half four, would you keep that in mind for me, "
                    "I'm hopeless with appointments").reply
    assert reply.startswith("I'll remember that you've the optician on Wednesday the "), reply
    assert f"Wednesday the {wednesday.day}" in reply and "at 4:30" in reply and "hopeless" not in reply, reply


@pytest.mark.parametrize("answer", ["Hmm... no, please keep it.", "no no, keep it please"])
def test_a_no_that_reads_as_a_request_too_is_the_answer(ines, answer):  # noqa: F811
    """"Hmm... no, please keep it." to "Do you want me to forget ...?" was read as another request to
    forget, and Nadine offered to forget where she was from instead (tester21 yuki): a no that names
    nothing else answers the question, and the memory is kept."""
    dm, uid = ines
    say(dm, "Please remember my studio door code, 6 2 8 4.")
    back(dm, uid)
    assert "6 2 8 4" in say(dm, "Please forget my studio door code.").reply
    kept = say(dm, answer)
    assert kept.reply == "All right, I'll keep that memory.", kept.reply
    assert [m for m in dm.deps.services.explicit.list(uid) if "6 2 8 4" in m.text]


def test_a_request_going_on_without_its_verb_keeps_the_value_as_its_things(ines):  # noqa: F811
    """"and my badge number 88412" after a request was kept as "your badge number 88412" (tester21 marcus's
    words: a request read so without its verb is rare, and others read as no request)."""
    dm, _ = ines
    say(dm, "remember my shift supervisor is dana")
    reply = say(dm, "and my badge number 88412")
    assert "badge number is 88412" in reply.reply and " and " not in reply.reply, reply.reply


def test_a_yes_that_names_another_memory_is_a_request_of_its_own(ines):  # noqa: F811
    """"you can forget my gym code" to "Do you want me to forget ... your home address ...?" was taken as
    the yes, and the address went (tester25 freya): it names another memory, so it is asked about in
    its turn and nothing is forgotten yet."""
    dm, uid = ines
    say(dm, "Please remember my allotment plot is number 14.")
    say(dm, "Please remember the shed padlock code is 2719.")
    back(dm, uid)
    assert "plot" in say(dm, "Please forget my allotment plot.").reply
    asked = say(dm, "you can forget the padlock code").reply
    assert "2719" in asked and "Done" not in asked, asked
    assert len(dm.deps.services.explicit.list(uid)) == 2


def test_an_answer_picking_one_of_the_memories_asked_about_asks_about_that_one(ines):  # noqa: F811
    """"forget my password" asked about the wifi and the email passwords; "the wifi one" got "Sorry,
    I'm not sure what you mean", and the yes after it forgot both (tester25 ines, H)."""
    dm, uid = ines
    say(dm, "Please remember my bank PIN is 3381.")
    say(dm, "Please remember my phone PIN is 6604.")
    back(dm, uid)
    both = say(dm, "Please forget my PIN.").reply
    assert "3381" in both and "6604" in both, both
    one = say(dm, "just the phone one").reply
    assert "6604" in one and "3381" not in one, one
    say(dm, "yes")
    assert [m.text for m in dm.deps.services.explicit.list(uid)] == ["my bank PIN is 3381"]


def test_an_answer_naming_a_day_picks_none_of_the_memories_asked_about(ines):  # noqa: F811
    """The day an answer names may bring up a stored plan, which is none of the memories the question
    named: it is asked again, nothing is forgotten (and nothing fails)."""
    dm, uid = ines
    say(dm, "My dentist is on Friday at 10.")
    say(dm, "Please remember my bank PIN is 3381.")
    say(dm, "Please remember my phone PIN is 6604.")
    back(dm, uid)
    say(dm, "Please forget my PIN.")
    again = say(dm, "the one for Friday").reply
    assert "yes or no" in again, again
    assert len(dm.deps.services.explicit.list(uid)) == 2

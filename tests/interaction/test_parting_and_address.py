"""Whole turns (in process, offline, real memory services): a parting wish ends the conversation and is
never kept as news about the person, a job said beside the name in an introduction is kept, and people
are addressed by their given name."""

from __future__ import annotations

import pytest

from common import topics as t
from common.messages import UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox


@pytest.fixture
def talk(tmp_path) -> tuple[DialogueManager, Outbox]:
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    out = Outbox()
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    return DialogueManager(settings, layout, clock, out, services=services, environ={}), out


def say(dm: DialogueManager, text: str):
    return dm.process_input(UserInput(text=text))


@pytest.mark.parametrize("wish", ["Enjoy the rest of your evening!", "Have a lovely weekend, Nadine!",
                                  "ok ta, laters", "Cheers, bye for now!"])
def test_a_parting_wish_is_a_goodbye_and_no_news(talk, wish):
    dm, out = talk
    say(dm, "Hello, my name is Tomasz Wolny.")
    parting = say(dm, wish)
    assert parting.intent == "end_conversation", parting.reply
    affect = next(a for a in out.of(t.AFFECT_STATE) if a.turn_id == parting.turn_id)
    assert affect.suppress_storage
    assert "happy for you" not in parting.reply and "welcome" not in parting.reply.lower()


@pytest.mark.parametrize("told", ["I have a lizard called Boris", "We've got a tortoise named Boris."])
def test_a_pet_named_by_a_participle_is_news_not_a_goodbye(talk, told):
    """"I have a lizard called Boris" ended the visit with a goodbye, and what came after was kept for
    nobody (tester44 zh02): a name set beside a noun by "called" or "named" is a thing told of."""
    dm, _ = talk
    say(dm, "Hi, I'm Leofric.")
    turn = say(dm, told)
    assert turn.intent != "end_conversation" and "Goodbye" not in turn.reply, turn.reply
    assert say(dm, "I'm a librarian in Durham.").user_name == "Leofric"


@pytest.mark.parametrize("goodbye", ["see you Thursday then!", "talk to you later", "speak to you tomorrow"])
def test_saying_when_they_will_next_meet_is_a_goodbye_not_a_look(talk, goodbye):
    """"see you Thursday then!" got "Sorry, I cannot see anything right now" (tester44): seeing the
    listener at a time to come is a goodbye, never a request to look."""
    dm, _ = talk
    say(dm, "Hi, I'm Leofric.")
    parting = say(dm, goodbye)
    assert parting.intent == "end_conversation" and "see anything" not in parting.reply, parting.reply


@pytest.mark.parametrize("change_of_mind", ["no wait, keep it", "No hang on, leave it."])
def test_a_change_of_mind_after_a_forget_request_keeps_the_conversation_going(talk, change_of_mind):
    """"no wait" before a bidding is no time to spend well: the person is still talking, still known."""
    dm, _ = talk
    met = say(dm, "Hello, my name is Tomasz Wolny.")
    say(dm, "Forget the alarm code.")
    turn = say(dm, change_of_mind)
    assert turn.intent != "end_conversation" and "Goodbye" not in turn.reply, turn.reply
    assert say(dm, "Anyway, I fixed the gate today.").user_id == met.user_id


def test_a_wish_said_in_passing_is_not_kept_as_a_moment(talk):
    dm, out = talk
    say(dm, "Hello, my name is Tomasz Wolny.")
    wish = say(dm, "Good luck with all your conversations today!")
    affect = next(a for a in out.of(t.AFFECT_STATE) if a.turn_id == wish.turn_id)
    assert affect.suppress_storage or affect.user_intensity < 0.5
    assert "happy for you" not in wish.reply


@pytest.mark.parametrize(("intro", "given", "job"), [
    ("Good evening. I am Ruth Baker, retired school teacher, 81 this year.", "Ruth", "retired school teacher"),
    ("Hi there, I'm Sam Okafor, paramedic, from Lagos originally.", "Sam", "paramedic"),
    ("Evening. I'm Walter Brandt, retired bus driver, eighty years young.", "Walter", "retired bus driver"),
])
def test_a_job_said_beside_the_name_is_kept_and_the_given_name_is_used(talk, intro, given, job):
    dm, _ = talk
    met = say(dm, intro)
    assert met.reply.startswith(f"Nice to meet you, {given}!"), met.reply
    uid = met.user_id
    assert ProfileStore(dm.layout).load(uid).current_position == job
    later = say(dm, "I went for a long walk by the river this morning.")
    surname = met.user_name.split()[-1]
    assert surname not in later.reply, later.reply
    assert job in say(dm, "What do I do for a living?").reply



@pytest.fixture
def ilse(talk) -> tuple[DialogueManager, Outbox]:
    """A conversation in which Ilse has introduced herself."""
    say(talk[0], "Hello, my name is Ilse Brandvold.")
    return talk


@pytest.mark.parametrize("goodbye", ["Right, I'll let you get back to it. Adieu!", "ok ttfn, the taxi's outside"])
def test_leave_taken_in_other_words_ends_the_conversation_and_is_no_moment(ilse, goodbye):
    dm, out = ilse
    parting = say(dm, goodbye)
    assert parting.intent == "end_conversation", parting.reply
    assert parting.reply.startswith("Goodbye"), parting.reply
    affect = next(a for a in out.of(t.AFFECT_STATE) if a.turn_id == parting.turn_id)
    assert affect.suppress_storage and affect.suppress_reason == "a goodbye"


def test_a_goodbye_told_of_is_news_and_the_conversation_goes_on(ilse):
    told = say(ilse[0], "We waved goodbye to my grandson at the harbour this morning.")
    assert told.intent != "end_conversation" and not told.reply.startswith("Goodbye"), told.reply


@pytest.mark.parametrize("urging", ["Yes, do go ahead.", "go on, I'm all ears", "Go on then, sing me something."])
def test_urging_nadine_on_is_no_goodbye(ilse, urging):
    """Words of going said to Nadine, for her to carry on, not of the speaker leaving."""
    say(ilse[0], "I picked the first tomatoes from the greenhouse today.")
    urged = say(ilse[0], urging)
    assert urged.intent != "end_conversation" and not urged.reply.startswith("Goodbye"), urged.reply


@pytest.mark.parametrize("weary", ["Tired out, big week.", "So weary. Endless shift.",
                                   "Grandad's home now, the op went fine!", "Thank you kindly, love."])
def test_news_of_tiredness_or_of_someone_home_or_a_thanks_is_no_goodbye(ilse, weary):
    heard = say(ilse[0], weary)
    assert heard.intent != "end_conversation" and not heard.reply.startswith("Goodbye"), heard.reply


@pytest.mark.parametrize("filler", ["mm okay", "lol true"])
def test_a_backchannel_is_answered_briefly_without_a_question(ilse, filler):
    heard = say(ilse[0], filler)
    assert heard.reply == "All right, Ilse.", heard.reply


def test_a_declined_topic_is_let_go(ilse):
    say(ilse[0], "My brother and I fell out at the wedding.")
    declined = say(ilse[0], "Honestly I'd prefer not to get into that right now.")
    assert "don't have to talk about it" in declined.reply and "more" not in declined.reply, declined.reply


@pytest.mark.parametrize("ask", ["Hold me to it.", "Remind me of it next time.", "Watch this space."])
def test_asking_to_be_kept_to_a_plan_is_no_goodbye_and_what_follows_is_theirs(ilse, ask):
    """A short request to the listener about times to come ("hold me to it") reads like "see you next
    time" to a reader that only knows goodbyes: it ends nothing, and the news after it is still theirs."""
    dm, _ = ilse
    plan = say(dm, f"I'm cutting down to one biscuit a day. {ask}")
    asked = say(dm, ask)
    assert "end_conversation" not in (plan.intent, asked.intent), (plan.reply, asked.reply)
    told = say(dm, "My nephew Anselm is coming to stay on Sunday.")
    assert told.user_id == plan.user_id
    who = say(dm, "Who is coming to stay on Sunday?")
    assert "Anselm" in who.reply, who.reply

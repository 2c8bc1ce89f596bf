"""Taking back what was just said, in-process with the real memory services: "don't remember that"
and "forget what I just said" in a turn of their own mean the person's statement right before it,
which leaves every store (the conversation, its turn documents, the moment kept from it, the facts
learned from it); a forget request, however misspelt, is never kept as something told; and a
forgotten memory takes with it Nadine's replies that said it back, in the session it was told and in
later ones. Every check ends with a byte scan of the data root."""

from __future__ import annotations

import pytest

from common.messages import EmotionSignal, UserDetected, UserInput
from common.store import ProfileStore, SceneStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.told import is_told
from interaction.memory_intent.refers_back import refers_back
from interaction.memory_requests import NOT_KEPT
from tests.interaction.memory_fixtures import layout_and_clock, make_settings, write_scene
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_forget_vague_topic import holding, meet

CANAL = "My cousin Rafael borrowed my bike and rode it straight into the canal."
SUNFLOWERS = "I planted sunflowers all along the back fence this spring."
PIANO = "I sold my grandmother's old piano to a primary school in Dundee."
TORTOISE = "My tortoise Gustav escaped last week and we found him three streets away under a hedge."


@pytest.fixture
def ines(tmp_path):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    return dm, meet(dm, "Ines")


def say(dm: DialogueManager, text: str):
    return dm.process_input(UserInput(text=text, user_emotion=EmotionSignal(label="neutral", intensity=0.0)))


def kept_as_moment(dm: DialogueManager, uid: str, turn) -> None:
    """What perception does with a turn worth keeping: a moment with the turn's words and id."""
    write_scene(dm.layout, uid, turn.text, when=dm.clock.now(), user_name="Ines", turn_id=turn.turn_id)
    dm.deps.services.on_scenes_changed(uid)


def back(dm: DialogueManager, uid: str) -> None:
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Ines", confidence=90.0, user_id=uid))


@pytest.mark.parametrize("request_", ["please don't remember that", "you don't have to remember that one"])
def test_not_keeping_what_was_just_said_takes_it_out_of_everything(ines, request_):
    dm, uid = ines
    say(dm, SUNFLOWERS)
    told = say(dm, CANAL)
    kept_as_moment(dm, uid, told)
    assert holding(dm, b"Rafael")
    asked = say(dm, request_)
    assert asked.reply == NOT_KEPT and asked.memory_intent == "not_keep", asked.reply
    assert not [t for t in dm.session.transcript if "canal" in t.text or t.text == request_]
    assert not [s for s in SceneStore(dm.layout).list(uid) if s.turn_id == told.turn_id]
    assert holding(dm, b"Rafael") == [] and holding(dm, b"canal") == []
    back(dm, uid)
    assert holding(dm, b"Rafael") == [] and holding(dm, b"canal") == []
    assert holding(dm, b"sunflowers")  # the statement before it stays
    recall = say(dm, "What did I tell you about my bike?")
    assert "canal" not in recall.reply and "Rafael" not in recall.reply, recall.reply


def test_not_keeping_what_was_just_said_takes_the_fact_it_told(ines):
    dm, uid = ines
    say(dm, "I work as a locksmith in Bergen.")
    assert "locksmith" in str(ProfileStore(dm.layout).load(uid).facts)
    assert say(dm, "don't remember that").reply == NOT_KEPT
    assert "locksmith" not in str(ProfileStore(dm.layout).load(uid).facts)
    back(dm, uid)
    assert holding(dm, b"locksmith") == []


def test_a_request_not_to_keep_with_what_it_is_about_keeps_nothing(ines):
    """"I owe my brother two thousand zloty, you don't need to remember that" got "I'll remember that
    you owe your brother two thousand zloty" and was said back the next day (tester29 r41): the clause
    told before the request is what it asks not to keep, not something it lets the person do."""
    dm, uid = ines
    asked = say(dm, "I owe my landlord four hundred euros, you don't need to remember that")
    assert asked.memory_intent == "not_keep" and "I'll remember" not in asked.reply, asked.reply
    back(dm, uid)
    assert holding(dm, b"landlord") == []


@pytest.mark.parametrize("request_", ["forget that", "forget what I just said"])
def test_forgetting_what_was_just_said_offers_it_and_forgets_it_on_yes(ines, request_):
    dm, uid = ines
    say(dm, SUNFLOWERS)
    told = say(dm, PIANO)
    kept_as_moment(dm, uid, told)
    asked = say(dm, request_)
    assert asked.memory_intent == "forget_one"
    assert asked.reply.startswith("Do you want me to forget that you told me") and "piano" in asked.reply, asked.reply
    assert "sunflowers" not in asked.reply
    assert holding(dm, b"Dundee")  # nothing goes before the answer
    done = say(dm, "yes please")
    assert done.intent == "forget_one_confirmed", done.reply
    assert holding(dm, b"Dundee") == []
    back(dm, uid)
    assert holding(dm, b"Dundee") == [] and holding(dm, b"piano") == []
    assert holding(dm, b"sunflowers")


@pytest.mark.parametrize("request_", ["frget the concert thing", "forgt what i said abt the concert"])
def test_a_misspelt_forget_request_is_never_kept_as_told(ines, request_):
    dm, uid = ines
    assert not is_told(request_)
    say(dm, "We're going to see the Cure in concert at Wembley in July.")
    asked = say(dm, request_)
    assert asked.memory_intent == "forget_one", asked.reply
    say(dm, "no, leave it")
    assert not [t for t in dm.session.transcript if t.text == request_]
    back(dm, uid)
    assert holding(dm, request_.encode()) == []
    assert request_ not in say(dm, "What did I tell you about the concert?").reply


def test_a_forgotten_memory_takes_the_replies_that_said_it_back(ines):
    dm, uid = ines
    told = say(dm, TORTOISE)
    kept_as_moment(dm, uid, told)
    recalled = say(dm, "What did I just tell you about my tortoise?")
    assert "hedge" in recalled.reply, recalled.reply
    back(dm, uid)
    later = [say(dm, "What do you know about me?"), say(dm, "Where did we find my tortoise?")]
    assert any("hedge" in t.reply for t in later), [t.reply for t in later]
    back(dm, uid)
    assert holding(dm, b"three streets") and holding(dm, b"hedge")
    asked = say(dm, "please forget what I said about my tortoise")
    assert asked.reply.startswith("Do you want me to forget") and "hedge" in asked.reply, asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    assert holding(dm, b"three streets") == [] and holding(dm, b"hedge") == [] and holding(dm, b"Gustav") == []
    back(dm, uid)
    assert holding(dm, b"three streets") == [] and holding(dm, b"hedge") == [] and holding(dm, b"Gustav") == []


@pytest.mark.parametrize(("said", "back"), [
    ("forget that", True), ("please scratch what I just typed", True), ("you needn't keep what I mentioned", True),
    # the person's own doing names what is asked about: the home, the job, not the last turn
    ("Please forget where I live.", False), ("forget where I work", False), ("forget how I met my husband", False),
    # a general noun that is itself what was said, against a thing the saying was about
    ("please don't keep the last thing I told you", True), ("forget the kitten I told you about", False),
    ("forget the concert I mentioned", False),
])
def test_a_request_names_what_was_just_said_only_with_nothing_of_its_own(said, back):
    assert refers_back(said) is back


@pytest.mark.parametrize("answer", ["Yes.", "yes please", "No!", "Okay then.", "Absolutely."])
def test_an_answer_of_no_content_word_tells_nothing_to_recall_or_forget(answer):
    """A memory of "Yes." matches any request a little: it was offered, and forgotten, for "please
    forget the thing about my son"."""
    assert not is_told(answer)


@pytest.mark.parametrize("answer", ["Yes, my son starts at Cambridge in October.", "Fine, the scan was clear."])
def test_an_answer_with_news_in_it_is_told(answer):
    assert is_told(answer)


@pytest.mark.parametrize("request_", ["forget that", "please forget it"])
def test_a_request_after_a_memory_said_back_is_about_that_memory(ines, request_):
    """Just after Nadine answered a question from memory, "forget that" means what she said back."""
    dm, uid = ines
    say(dm, SUNFLOWERS)
    say(dm, "Please remember my bike lock code is 9035.")
    answered = say(dm, "What's my bike lock code?")
    assert "9035" in answered.reply, answered.reply
    asked = say(dm, request_)
    assert asked.memory_intent == "forget_one"
    assert asked.reply.startswith("Do you want me to forget") and "9035" in asked.reply, asked.reply
    assert "sunflowers" not in asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    back(dm, uid)
    assert holding(dm, b"9035") == [] and holding(dm, b"sunflowers")


def test_a_change_of_mind_after_a_no_is_about_what_was_declined(ines):
    """"No." to forgetting, then "Actually, forget it": the declined memory is offered again (never the
    one a question before it was about), and goes only on a clear yes."""
    dm, uid = ines
    say(dm, "Please remember my niece's ballet show is on the 9th of May.")
    say(dm, "Please remember my bike lock code is 9035.")
    assert "9035" in say(dm, "What's my bike lock code?").reply
    assert "ballet" in say(dm, "Forget the ballet show.").reply
    assert say(dm, "No.").intent == "forget_one_cancelled"
    again = say(dm, "Oh go on then, forget it.")
    assert again.memory_intent == "forget_one"
    assert "ballet" in again.reply and "9035" not in again.reply, again.reply
    assert holding(dm, b"ballet")  # nothing goes before the answer
    assert say(dm, "yes").intent == "forget_one_confirmed"
    back(dm, uid)
    assert holding(dm, b"ballet") == [] and holding(dm, b"9035")


@pytest.mark.parametrize(("said", "back"), [("forget about Femke", False), ("forget about Femke, she's not in my life anymore", False),
                                            ("forget about it", True), ("forget what I said yesterday", False)])
def test_a_name_the_tagger_does_not_know_is_something_of_its_own(said, back):
    """"forget about Femke, she's not in my life anymore" was read as taking back the last turn, and,
    with nothing said before it in that visit, asked nothing: Femke was met with "I'm sorry to hear
    that" and the breakup recalled (tester46 s38). The small tagger tags "Femke" an adverb; the
    recogniser marks it a name."""
    assert refers_back(said) is back


@pytest.mark.parametrize("request_", [
    # "thanks. can you forget that now, i found the car" found nothing to forget (tester60 s32): a
    # thanks before the request, and a reason after it, leave the request about what was said back
    "thanks. can you forget that now, I've written it down",
    "could you forget that please, I've written it down",
])
def test_a_request_with_thanks_before_and_a_reason_after_is_about_the_memory_said_back(ines, request_):
    dm, uid = ines
    say(dm, SUNFLOWERS)
    say(dm, "Please remember my bike lock code is 9035.")
    assert "9035" in say(dm, "What's my bike lock code?").reply
    asked = say(dm, request_)
    assert asked.reply.startswith("Do you want me to forget") and "9035" in asked.reply, asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    back(dm, uid)
    assert holding(dm, b"9035") == [] and holding(dm, b"sunflowers")


@pytest.mark.parametrize(("said", "back"), [
    # "please don't keep what I told you about coming out. forget it" was read as taking back nothing
    # and answered "we don't have to talk about it" (tester60 s63): a doing the request's preposition
    # governs is what it is about
    ("please don't keep what I told you about coming out", False),
    ("forget what I said about moving abroad", False),
    ("forget what I just said", True),
])
def test_a_doing_named_after_a_preposition_is_something_of_its_own(said, back):
    assert refers_back(said) is back


def test_a_request_about_a_doing_offers_what_was_told_of_it(ines):
    dm, uid = ines
    say(dm, SUNFLOWERS)
    say(dm, "I finally came out to my grandparents last weekend.")
    back(dm, uid)
    asked = say(dm, "please don't keep what I told you about coming out. forget it")
    assert asked.reply.startswith("Do you want me to forget") and "grandparents" in asked.reply, asked.reply
    assert say(dm, "yes").intent == "forget_one_confirmed"
    assert holding(dm, b"grandparents") == [] and holding(dm, b"sunflowers")


@pytest.mark.parametrize("request_", ["forget my name", "please forget my name, I don't like it"])
def test_a_request_to_forget_their_name_offers_nothing_in_its_place(ines, request_):
    # "forget my name" got "I'm sorry to hear that", and, another time, offered the parking spot told
    # before, which a yes erased (tester60 s87, my play): their name is who they are, no memory
    dm, uid = ines
    say(dm, "Please remember my bike lock code is 9035.")
    back(dm, uid)
    asked = say(dm, request_)
    assert "forget everything about me" in asked.reply and "9035" not in asked.reply, asked.reply
    say(dm, "yes")
    assert "9035" in say(dm, "What's my bike lock code?").reply
    assert ProfileStore(dm.layout).load(uid).user_name == "Ines"

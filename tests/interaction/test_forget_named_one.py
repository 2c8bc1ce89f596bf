"""A forget request that says which one of two of a kind it means ("the old ...") is offered only that
one: the other, of which the person said the opposite ("the new ..."), is another thing of the same
kind, never forgotten with it (WordNet's adjective antonyms in the entity reader)."""

from __future__ import annotations

import pytest

from common.messages import UserDetected, UserInput
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory.retrieval.entities import EntityReader, Thresholds
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.offline.self_description import load_parser
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_forget_vague_topic import holding, meet

OLD = "Please remember my gym locker code is QX47."
NEW = "The gym gave me another locker, the new locker code is ZT90."


@pytest.fixture
def lotte(tmp_path):
    """Lotte asked for her locker number to be kept in an earlier conversation, and has just said
    the new one."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    uid = meet(dm, "Lotte")
    dm.process_input(UserInput(text=OLD))
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Lotte", confidence=90.0, user_id=uid))
    dm.process_input(UserInput(text=NEW))
    return dm


def test_forgetting_the_old_one_offers_and_takes_only_the_old_one(lotte):
    dm = lotte
    asked = dm.process_input(UserInput(text="Could you forget the old locker code?"))
    assert asked.memory_intent == "forget_one"
    assert "QX47" in asked.reply and "ZT90" not in asked.reply, asked.reply
    done = dm.process_input(UserInput(text="Yes."))
    assert done.intent == "forget_one_confirmed", done.reply
    assert holding(dm, b"QX47") == []
    now = dm.process_input(UserInput(text="What's my locker code?"))
    assert "ZT90" in now.reply, now.reply


@pytest.mark.skipif(load_wordnet() is None, reason="WordNet is not installed")
@pytest.mark.parametrize(("asked", "told", "conflict"), [
    ("my old phone", "I got a new phone for my birthday", True),
    ("the new flat", "our old flat had a leaking roof", True),
    ("my old phone", "my phone broke yesterday", False),  # nothing said of it: still the one asked about
    ("the new flat", "the new flat has a balcony", False),
    # said of the thing by "one" saying it again, a time between
    ("the old door code", "we changed the door code yesterday, the new one is 5150", True),
    ("the old door code", "we changed the door code, the bike is a new one", False),  # "one": the bike
    # the small tagger reads "code" here as a name; lower case after "the", it is the common noun it is
    ("the old locker code", "the new locker code is ZT90.", True),
    ("the old locker code", "The gym gave me another locker, the new locker code is ZT90.", True),
])
def test_opposite_qualities_make_the_same_head_another_one(tmp_path, asked, told, conflict):
    services = LocalMemoryServices(make_settings(tmp_path), *layout_and_clock(tmp_path), bus=None)
    thresholds = Thresholds.of(services.settings.interaction.retrieval.recall.decision_for("minilm_onnx"))
    reader = EntityReader(load_parser(), services.offline.embed, thresholds, lexicon=load_wordnet())
    assert reader.compare(asked, told).conflict is conflict


@pytest.mark.parametrize("puzzled", ["Erm, which one do you mean?", "Hmm, what do you mean exactly?"])
def test_a_puzzled_question_about_the_forget_question_is_asked_again_and_a_yes_then_forgets(lotte, puzzled):
    """A sound before the question ("Erm, ...") names nothing: the question was about hers, so it is
    asked again, and the yes that follows forgets."""
    dm = lotte
    dm.process_input(UserInput(text="Could you forget the old locker code?"))
    again = dm.process_input(UserInput(text=puzzled))
    assert again.intent == "forget_one_asked_again", again.reply
    done = dm.process_input(UserInput(text="Yes, do."))
    assert done.intent == "forget_one_confirmed", done.reply
    assert holding(dm, b"QX47") == []


def test_forgetting_one_of_their_people_offers_what_was_told_of_them_though_a_nearer_memory_names_none(tmp_path):
    """"her last day is on the 30th" is nearer to "my sister" by the sentence vectors, but names none
    of it; what names the sister is offered with her name, and a yes takes both."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    uid = meet(dm, "Lotte")
    for said in ("so my sister Ottilie just got made redundant. awful", "her last day is on the 30th",
                 "my favourite band is Kraftwerk"):
        dm.process_input(UserInput(text=said))
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Lotte", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="forget about my sister"))
    assert "made redundant" in asked.reply and "Kraftwerk" not in asked.reply, asked.reply
    dm.process_input(UserInput(text="yes"))
    assert holding(dm, b"redundant") == []


@pytest.mark.parametrize(("told", "request_", "value"), [
    ("remember gym locker is 88", "forget the gym locker", "88"),
    # the tester's words: only they reproduced it
    ("remember wifi password is plantain77", "forget the wifi password", "plantain77"),
    ("remember wifi password is plantain77", "wifi password?", "plantain77"),
])
def test_a_thing_typed_in_lower_case_is_no_name_of_the_recogniser(tmp_path, told, request_, value):
    """"remember wifi password is plantain77", then "forget the wifi password": "nothing to forget",
    and "wifi password" was not recalled (tester21 kofi). The recogniser filed the lower-case "wifi
    password" as a person, so the memory named someone the request did not; a word WordNet writes in
    lower case is a thing, whatever entity the recogniser guessed."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    uid = meet(dm, "Dana")
    for text in (told, "my brother kwame flies in from accra on the 22nd", "pick him up at terminal 3"):
        dm.process_input(UserInput(text=text))
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Dana", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text=request_))
    assert value in asked.reply and "nothing to forget" not in asked.reply, asked.reply

"""A value put right in the next breath is what every store holds afterwards: the profile, the moment
the slip was kept as (its words; perception keeps moments, planted here as it writes them), and what
Nadine says back, in her words mid-sentence ("So your ...", never "So Your ...")."""

from __future__ import annotations

import pytest

from common.messages import UserInput
from common.store import ProfileStore, SceneMetadata, SceneStore, new_scene_id
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_forget_vague_topic import meet

RECITAL = "My niece's piano recital is on the 5th of May and I'm so nervous for her!"


def _keep_as_moment(dm: DialogueManager, services: LocalMemoryServices, uid: str) -> str:
    """The moment perception keeps of the person's last turn (text only: no camera)."""
    turn = next(t for t in reversed(dm.session.transcript) if t.role == "user")
    meta = SceneMetadata(scene_id=new_scene_id(dm.clock.now()), timestamp=dm.clock.now().isoformat(), image_path="",
                         memorability=0.7, emotion_label="fearful", intensity=0.7,
                         description="a moment told without a camera view (text only)", user_message=turn.text,
                         turn_id=turn.turn_id)
    SceneStore(dm.layout).write(uid, meta, None)
    services.on_scene_stored(uid)
    return meta.scene_id


def _odile(tmp_path):
    """Odile, met in a conversation just begun, with the memory services interaction runs."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=services, environ={})
    return dm, services, meet(dm, "Odile")


def test_the_moment_a_slip_was_kept_as_keeps_the_corrected_words(tmp_path):
    dm, services, uid = _odile(tmp_path)
    layout = dm.layout
    dm.process_input(UserInput(text=RECITAL))
    scene_id = _keep_as_moment(dm, services, uid)
    fixed = dm.process_input(UserInput(text="Sorry, I meant the 15th of May."))
    assert "So your niece's piano recital is on the 15th of May" in fixed.reply, fixed.reply
    kept = SceneStore(layout).get(uid, scene_id)
    assert kept is not None and "15th of May" in kept.user_message and "5th of May" not in kept.user_message.replace(
        "15th", "")
    told = dm.process_input(UserInput(text="What do you know about me?")).reply
    assert "15th of May" in told and " 5th of May" not in told, told


def test_someone_saying_who_they_are_puts_no_town_right(tmp_path):
    dm, _, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="I teach the cello at the music school in Dijon."))
    before = ProfileStore(dm.layout).load(uid)
    turn = dm.process_input(UserInput(text="ok it's Mirella now"))
    assert "putting me right" not in turn.reply and "Mirella" in turn.reply, turn.reply
    assert ProfileStore(dm.layout).load(uid).facts == before.facts


def test_a_town_put_right_with_the_old_one_named_is_no_new_person(tmp_path):
    dm, _, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="I live in Berlin with my two cats."))
    turn = dm.process_input(UserInput(text="no, it's Munich, not Berlin"))
    assert "putting me right" in turn.reply and "Munich" in turn.reply, turn.reply
    assert ProfileStore(dm.layout).user_ids() == {uid: "Odile"}
    assert ProfileStore(dm.layout).load(uid).location == "Munich"


def test_a_bare_value_after_a_no_puts_the_moment_right(tmp_path):
    """"no wait, the 12th of February": no "it's", no "I meant", no "not the ..."; the no is the repair."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="My godson's christening is on the 12th of March, I'm thrilled!"))
    scene_id = _keep_as_moment(dm, services, uid)
    fixed = dm.process_input(UserInput(text="no wait, the 12th of February"))
    assert "12th of February" in fixed.reply and "Tell me more" not in fixed.reply, fixed.reply
    kept = SceneStore(dm.layout).get(uid, scene_id)
    assert kept is not None and "12th of February" in kept.user_message and "March" not in kept.user_message
    asked = dm.process_input(UserInput(text="When is my godson's christening?")).reply
    assert "February" in asked and "March" not in asked, asked


def _next_visit(dm: DialogueManager, name: str) -> None:
    """The conversation ends (its episode saved) and the person comes back the next day by name."""
    dm.process_input(UserInput(text="Right, I have to go. Bye!"))
    dm.clock.advance(26)
    dm.process_input(UserInput(text=f"Hello, it's {name} again."))


def test_a_statement_of_an_earlier_visit_put_right_is_reworded_in_the_saved_conversation(tmp_path):
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="My brother and I are opening a bakery in Nantes next year."))
    _next_visit(dm, "Odile")
    fixed = dm.process_input(UserInput(text="I meant Rennes, not Nantes."))
    assert "putting me right" in fixed.reply and "Rennes" in fixed.reply, fixed.reply
    told = [t.text for t in services.told_turns(uid)]
    assert any("bakery in Rennes" in t for t in told) and not any("Nantes" in t for t in told), told
    ids, texts, metas, _ = services.episodic.documents(uid)
    assert not any("Nantes" in t for t in texts) and not any("Nantes" in str(m) for m in metas)


def test_a_date_said_at_the_start_of_a_visit_puts_nothing_of_the_last_one_right(tmp_path):
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="My dentist appointment is on Tuesday."))
    _next_visit(dm, "Odile")
    turn = dm.process_input(UserInput(text="It's Friday!"))
    assert "putting me right" not in turn.reply, turn.reply
    assert any("on Tuesday" in t.text for t in services.told_turns(uid))


def test_will_you_remember_that_is_answered_from_what_is_kept(tmp_path):
    dm, _, _ = _odile(tmp_path)
    dm.process_input(UserInput(text="Please remember that my allotment plot is number 38."))
    kept = dm.process_input(UserInput(text="Are you sure you'll remember that?")).reply
    assert kept.startswith("Yes") and "38" in kept, kept
    dm.process_input(UserInput(text="The tram was a bit slow this morning."))
    not_kept = dm.process_input(UserInput(text="will you remember it?")).reply
    assert not not_kept.startswith("Yes") and "What would you like me to remember" not in not_kept, not_kept


def test_a_value_asked_to_be_kept_is_put_right_on_a_later_visit(tmp_path):
    """A request to remember is kept as its own memory, not as a turn: a later "I meant X, not Y" finds
    it there, and the taking back is no request to forget."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="Please remember that my train to Lyon leaves on the 9th of August."))
    _next_visit(dm, "Odile")
    fixed = dm.process_input(UserInput(text="Sorry, I meant the 19th of August, not the 9th."))
    assert "putting me right" in fixed.reply and "your train to Lyon leaves on the 19th of August" in fixed.reply, \
        fixed.reply
    assert [k.text for k in services.explicit.list(uid)] == ["my train to Lyon leaves on the 19th of August"]
    ids, texts, metas, _ = services.episodic.documents(uid)
    assert not any(" 9th of August" in t for t in texts), texts
    asked = dm.process_input(UserInput(text="When does my train to Lyon leave?")).reply
    assert "19th of August" in asked, asked


def test_a_date_told_after_a_kept_code_changes_neither(tmp_path):
    """A kept code is no date, and the appointment kept before it is not what "it" names: both stay as
    they were asked to be kept."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="could you remember that my hearing test is on the 14th of January"))
    dm.process_input(UserInput(text="please remember the alarm code for the studio is 8152"))
    turn = dm.process_input(UserInput(text="It's now on the 27th of January."))
    assert "putting me right" not in turn.reply and "27th" not in turn.reply, turn.reply
    assert {m.text for m in services.explicit.list(uid)} == {
        "my hearing test is on the 14th of January", "the alarm code for the studio is 8152"}


def test_a_goodbye_opening_with_a_capitalised_word_puts_nothing_right(tmp_path):
    """"Brilliant, chat soon!" after a password: the word before the goodbye is no new password."""
    dm, services, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="Please remember the wifi password at the studio is blue-heron-7."))
    bye = dm.process_input(UserInput(text="Brilliant, chat soon!"))
    assert bye.intent == "end_conversation" and "putting me right" not in bye.reply, bye.reply
    assert [m.text for m in services.explicit.list(uid)] == ["the wifi password at the studio is blue-heron-7"]


@pytest.mark.parametrize("fix", ["scratch that, it's Calvino", "sorry, it's Calvino"])
def test_someone_put_right_by_its_name_is_no_new_speaker(tmp_path, fix):
    """"my favourite composer is Puccini" then "scratch that, it's Verdi" got "Nice to meet you, Verdi!",
    and what Chiara said next was Verdi's (tester33 r46): a name that replaces someone's named in the
    statement before puts that statement right; a taking back before it is no part of what is said."""
    dm, _, uid = _odile(tmp_path)
    told = dm.process_input(UserInput(text="My favourite author is Ferrante, I've read everything she wrote."))
    assert "your author" not in told.reply, told.reply  # whom they like best is no one in their life
    turn = dm.process_input(UserInput(text=fix))
    assert "putting me right" in turn.reply and "Calvino" in turn.reply and turn.user_name == "Odile", turn.reply
    assert ProfileStore(dm.layout).user_ids() == {uid: "Odile"}
    asked = dm.process_input(UserInput(text="Who is my favourite author?")).reply
    assert asked.startswith("Calvino"), asked


def test_a_pets_name_put_right_is_no_new_speaker(tmp_path):
    dm, _, uid = _odile(tmp_path)
    dm.process_input(UserInput(text="Our greyhound is called Rex."))
    turn = dm.process_input(UserInput(text="oops, it's Max"))
    assert "putting me right" in turn.reply and turn.user_name == "Odile", turn.reply
    assert ProfileStore(dm.layout).user_ids() == {uid: "Odile"}

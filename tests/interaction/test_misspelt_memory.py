"""A memory told with misspelt words is found by the words it meant (interaction/memory_intent/misspelt.py
memory_as_meant; the text pool, the verifier and the entity reader rank it as meant), and is still
quoted as said: in-process, with the real memory services (Chroma + MiniLM + the cross-encoder)."""

from __future__ import annotations

import pytest

from common.messages import EmotionSignal, UserDetected, UserInput
from common.store import ProfileStore
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from interaction.memory_intent.misspelt import memory_as_meant
from tests.interaction.memory_fixtures import layout_and_clock, make_settings
from tests.interaction.test_dialogue_inprocess import Outbox

TOLD = "my dad cracked a tooth on a walnut, poor thing"
KEPT = "Can you remeber that his dentist apointment is on the 3rd of Decmber?"


def test_a_memory_is_read_with_its_words_as_meant_and_its_names_as_written():
    assert memory_as_meant("the plumbr is coming on Thursdy") == "the plumber is coming on Thursday"
    assert memory_as_meant("Melanie: we went camping by the lake") == "Melanie: we went camping by the lake"
    assert memory_as_meant("it reminded me of the summer we lived in Porto") == (
        "it reminded me of the summer we lived in Porto")


@pytest.fixture
def ines(tmp_path):
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    dm = DialogueManager(settings, layout, clock, Outbox(), services=LocalMemoryServices(settings, layout, clock, bus=None),
                         environ={})
    store = ProfileStore(layout)
    uid = store.mint_user_id("Ines", clock.now())
    store.update(uid, {"user_name": "Ines"}, clock.now())
    return dm, clock, uid


def _turns(dm: DialogueManager, uid: str, *texts: str) -> list:
    dm.on_user_detected(UserDetected(user_name="Ines", confidence=90.0, user_id=uid))
    return [dm.process_input(UserInput(text=x, user_emotion=EmotionSignal(label="neutral", intensity=0.0)))
            for x in texts]


def test_a_request_to_forget_finds_the_misspelt_memory_it_names(ines):
    dm, clock, uid = ines
    kept = _turns(dm, uid, TOLD, KEPT)[1]
    assert kept.memory_action is not None and kept.memory_action.outcome == "kept"
    dm.close_session("test")
    clock.advance(24)
    asked = _turns(dm, uid, "forget about my dad's dentist appointment")[0]
    assert asked.memory_action is not None and asked.memory_action.outcome == "forget_asked"
    assert "apointment" in asked.reply  # quoted as said

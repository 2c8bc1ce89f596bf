"""Presence in the DialogueManager (in process, offline): out of view for less than the grace period
continues the session; the grace period running out, or another person, ends it."""

from __future__ import annotations

from common.clock import Clock
from common.config import load_settings
from common.messages import UserDetected, UserInput
from common.store import DataLayout, ProfileStore
from interaction.dialogue import DialogueManager

NOBODY = UserDetected(user_name=None, confidence=0.0, user_id=None)
STRANGER = UserDetected(user_name="Unknown", confidence=40.0, user_id=None)


class Outbox:
    def publish(self, spec, message) -> None:
        pass


def setup(tmp_path, grace_s: float = 30.0) -> tuple[DialogueManager, Clock, str]:
    layout = DataLayout(tmp_path)
    clock = Clock(layout.runtime_dir)
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path), "NADINE_PRESENCE_GRACE_S": str(grace_s),
                                      "NADINE_ENABLE_MEMORY_AGENTS": "0", "NADINE_ENABLE_VISION_AGENT": "0"})
    store = ProfileStore(layout)
    maya = store.mint_user_id("Maya", clock.now())
    store.update(maya, {"user_name": "Maya"}, clock.now())
    dm = DialogueManager(settings, layout, clock, Outbox(), environ={})  # the clock the test moves
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=95.0, user_id=maya))
    return dm, clock, maya


def seen(maya: str) -> UserDetected:
    return UserDetected(user_name="Maya", confidence=95.0, user_id=maya)


def test_back_within_the_grace_period_is_the_same_session(tmp_path):
    dm, clock, maya = setup(tmp_path)
    first = dm.process_input(UserInput(text="I am training for a marathon."))
    dm.on_user_detected(NOBODY)
    clock.advance(20 / 3600)
    dm.tick()
    dm.on_user_detected(seen(maya))
    again = dm.process_input(UserInput(text="Sorry, I had to fetch my coffee."))
    assert again.user_id == maya and again.extra["session_id"] == first.extra["session_id"]


def test_the_grace_period_running_out_ends_the_session(tmp_path):
    dm, clock, maya = setup(tmp_path)
    first = dm.process_input(UserInput(text="I am training for a marathon."))
    dm.on_user_detected(NOBODY)
    clock.advance(31 / 3600)
    dm.tick()  # nobody came back: the session ends on time, without waiting for the next person
    assert dm.session.identity.user_id is None and not dm.session.transcript
    dm.on_user_detected(seen(maya))
    later = dm.process_input(UserInput(text="Hello again."))
    assert later.user_id == maya and later.extra["session_id"] != first.extra["session_id"]


def test_another_face_ends_the_session_within_the_grace_period(tmp_path):
    dm, _, maya = setup(tmp_path)
    dm.on_user_detected(seen(maya))
    first = dm.process_input(UserInput(text="I am training for a marathon."))
    dm.on_user_detected(NOBODY)
    dm.on_user_detected(STRANGER)  # someone perception does not know steps in
    other = dm.process_input(UserInput(text="Hi there."))
    assert other.user_id is None and other.extra["session_id"] != first.extra["session_id"]


def test_zero_grace_ends_the_session_at_once(tmp_path):
    dm, _, maya = setup(tmp_path, grace_s=0)
    dm.process_input(UserInput(text="I am training for a marathon."))
    dm.on_user_detected(NOBODY)
    assert dm.session.identity.user_id is None

"""Forgetting what was told takes the profile facts drawn from it, found by the turns they were
learned in, and a request about one of the person's people finds what was told about them, with
their name: in-process with the real memory services (Chroma + MiniLM, scenes on disk)."""

from __future__ import annotations

from datetime import timedelta

from common.messages import ForgetMemory, UserDetected, UserInput
from common.store import ProfileStore
from interaction.agents.episode import offline_summary
from interaction.forget import forget_one_memory
from tests.interaction.memory_fixtures import write_scene
from tests.interaction.test_forget_one_everywhere import documents, maya, visit  # noqa: F401 - the fixture
from tests.reliability.traces import find_traces, text_needles

OPENED = "My aunt Marguerite opened a little bakery in Dundee last month, we're so proud!"
SAILING = "My cousin Ferdinand is teaching me to sail on the loch this summer."


def test_a_forgotten_episode_takes_the_people_its_turns_named(maya):  # noqa: F811
    dm, services, uid = maya
    visit(dm, uid, "Good morning.", SAILING, "Cheerio.")
    assert ProfileStore(dm.layout).load(uid).relations == ["Ferdinand (cousin)"]
    (episode,) = [i for i, (d, m) in documents(dm, uid).items() if m["kind"] == "episode"]
    removed, _ = forget_one_memory(dm.layout, ForgetMemory(user_id=uid, kind="episode", memory_id=episode),
                                   dm.clock.now(), services, offline_summary)
    assert removed["fact_records"] == 1
    assert ProfileStore(dm.layout).load(uid).relations == []
    assert find_traces(dm.layout.root, text_needles("Ferdinand", "teaching me to sail")) == []


def test_a_request_about_one_of_their_people_offers_what_was_told_with_the_name(maya):  # noqa: F811
    dm, _, uid = maya
    said = visit(dm, uid, "Good morning.", OPENED, "The weather is grey today.", "Cheerio.")
    write_scene(dm.layout, uid, OPENED, when=dm.clock.now() - timedelta(minutes=2), seed=9, turn_id=said[1].turn_id)
    assert ProfileStore(dm.layout).load(uid).relations == ["Marguerite (aunt)"]
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    asked = dm.process_input(UserInput(text="Could you forget what I said about my aunt?")).reply
    assert "bakery" in asked and "Marguerite" in asked, asked
    assert dm.process_input(UserInput(text="Yes, please.")).intent == "forget_one_confirmed"
    dm.close_session("test")
    assert ProfileStore(dm.layout).load(uid).relations == []
    assert find_traces(dm.layout.root, text_needles("Marguerite", "bakery in Dundee")) == []

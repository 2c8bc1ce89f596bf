"""Forgetting what was told takes the profile facts drawn from it, found by the turns they were
learned in, and a request about one of the person's people finds what was told about them, with
their name: in-process with the real memory services (Chroma + MiniLM, scenes on disk)."""

from __future__ import annotations

from common.messages import ForgetMemory
from common.store import ProfileStore
from interaction.agents.episode import offline_summary
from interaction.forget import forget_one_memory
from tests.interaction.test_forget_one_everywhere import documents, maya, visit  # noqa: F401 - the fixture
from tests.reliability.traces import find_traces, text_needles

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


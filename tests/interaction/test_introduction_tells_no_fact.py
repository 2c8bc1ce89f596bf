""""hey its Dev" got "Nice to meet you, Dev! I'll remember that you work at hey its Dev.", and the
profile's employer held "hey its Dev": the fact-change model read the introduction as a workplace said.
A turn that only says who the speaker is changes no fact (tester63 s42)."""

from __future__ import annotations

import pytest

from interaction.agents.memory_agents import decide_facts
from interaction.offline.extract import extract_profile


@pytest.mark.parametrize("said", ["hey its Dev", "hey it's Dev", "Dev here"])
def test_an_introduction_alone_changes_no_fact(said):
    update, changes, _ = decide_facts(said, extract_profile(said, loose_names=True), {})
    assert update.current_company is None and not changes, changes


def test_a_workplace_said_after_the_introduction_is_still_kept():
    said = "hey its Dev, I work at Tesco"
    update, _, _ = decide_facts(said, extract_profile(said, loose_names=True), {})
    assert update.current_company == "Tesco"

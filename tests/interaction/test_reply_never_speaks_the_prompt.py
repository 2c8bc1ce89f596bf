"""Replies of a small model that copy their prompt are cut before they are spoken: SmolLM2-135M's
answers to "what do you know about me?", captured from scripts.local_llm (fixtures/smollm2_about_me.json),
restate the instructions in their own order or copy the prompt's list of facts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interaction.llm.reply_text import spoken_part
from interaction.prompts import ABOUT_ME_HEADING, NADINE_LABEL, USER_LABEL, about_me_messages

CAPTURED = json.loads((Path(__file__).parent / "fixtures" / "smollm2_about_me.json").read_text())
# the prompt's own wording: what must never be spoken (the fact values themselves may be)
TEMPLATE = ("warm spoken summary", "facts listed", "no lists", "They asked you to remember",
            "A moment they shared with you, in their words", "Their name:", "Profile:")


def _spoken(case: dict) -> str:
    messages = about_me_messages(case["name"], case["facts"], case["explicit"], case["moments"], case["question"],
                                 "en-US")
    return spoken_part(case["answer"], labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                       headings=(ABOUT_ME_HEADING,), instructions=[messages[0]["content"]])


@pytest.mark.parametrize("case", CAPTURED, ids=lambda c: f"{c['name']}-{c['seed']}")
def test_no_captured_reply_speaks_its_prompt(case):
    spoken = _spoken(case)
    assert not any(t.casefold() in spoken.casefold() for t in TEMPLATE), spoken
    assert not re.search(r"(?m)^\s*[-*]\s", spoken), spoken  # never a list item


def test_the_restated_instructions_are_cut_and_what_precedes_them_kept():
    (case,) = [c for c in CAPTURED if c["seed"] is None]
    assert _spoken(case) == "I'm sorry for your loss."


@pytest.mark.parametrize("reply", [
    "You're Lena, you work at a bakery and your passport expires in March.",
    "I know that you are Lena and that you like to read.",
    "I remember your kitten Pixel, she was adorable.",
    "You told me you got engaged, which made you so happy! Congratulations again.",
])
def test_replies_that_talk_to_the_person_are_kept_whole(reply):
    case = {**CAPTURED[0], "answer": reply}
    assert _spoken(case) == reply

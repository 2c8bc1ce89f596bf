"""Confirmations: reading the answer to a yes / no question, and what it leads to.

Only a clear yes acts (deletes, links); an unclear answer is asked once more; a no, or a second
unclear answer, keeps everything as it is. A reply that is no answer but a question of the person's
own ("do you remember what's going on with my grandson?") has moved on: everything is kept, nothing
is asked again, and the question is answered as any other turn.
"""

from __future__ import annotations

from typing import Literal

from interaction import cues
from interaction.confirmation.reader import Answer, read_offline, read_reply

Step = Literal["act", "ask_again", "keep", "moved_on"]


def asks_of_its_own(reply: str) -> bool:
    """A question that names something of its own ("do you remember where I volunteer?") or asks what
    she holds of them ("what do you know about me?"), not one about Nadine's question ("why?", "hmm,
    what do you mean?", "are you sure?"): a noun in spaCy's parse, or the memory intent; without the
    parser, never."""
    from interaction.offline.name_reading import exclamation
    from interaction.offline.parsing import stands_in
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if not cues.is_question(reply):
        return False
    try:
        doc = load_parser()(reply)
    except ParserUnavailable:
        return False
    # a sound set off before the question ("Hmm, what do you mean?", "Erm, are you sure?") names nothing,
    # however the tagger files it, nor does a pro-form ("which one do you mean?")
    start = 1 if len(doc) > 1 and doc[1].text == "," and exclamation(doc[0].text) else 0
    if any(t.pos_ in ("NOUN", "PROPN") and not stands_in(t) for t in doc[start:]):
        return True
    # ... or one that asks what she holds of them ("what do you know about me?"), by the memory intent
    from interaction.memory_intent.classifier import classify

    return classify(reply).intent in ("recall", "about_me")


def next_step(answer: Answer, asked_again: bool, reply: str = "", forgetting: bool = False) -> Step:
    """What an answer to a yes / no question leads to; `reply`: its words (a question of their own
    that answers nothing has moved on, and so has a goodbye: leaving is no answer, whatever its words
    read as ("gotta go" as a yes, "bye" as a no), so nothing is done and the goodbye is answered).
    `forgetting`: the question asks whether to erase; a yes that also asks Nadine to keep something
    ("yes but keep the tournament date", by the memory-intent classifier) is no clear yes to it."""
    from interaction.memory_intent.classifier import classify

    if reply and cues.is_unambiguous_farewell(reply):
        return "moved_on"
    if answer == "yes" and forgetting and reply and classify(reply).intent == "remember":
        answer = "unclear"
    if answer == "yes":
        return "act"
    if answer == "unclear" and asks_of_its_own(reply):
        return "moved_on"
    return "ask_again" if answer == "unclear" and not asked_again else "keep"


__all__ = ["Answer", "Step", "next_step", "read_offline", "read_reply"]

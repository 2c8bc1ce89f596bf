"""Whether a turn says the speaker and Nadine have never met ("Hi, I'm Sam, we've never met", "you don't
know me yet", "I don't think we've met"): a negated clause about the two of them, read off spaCy's
parse (its subject is "we" or "you", the negation on its verb or on the verb it is said under), that
the confirmation reader reads as a clear no to "Have we met before?". Without a subject ("long time
no see", "no worries") no clause is about the two of them. Said with a name someone Nadine knows
has, it makes the speaker someone else who shares the name, never that person."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interaction import cues
from interaction.confirmation import read_reply

if TYPE_CHECKING:
    from interaction.agents.context import AgentDeps

QUESTION = "Have we met before?"
_US = {"we", "you"}


def _negated(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ == "neg" for c in verb.children)


def says_never_met(deps: AgentDeps | None, text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    for sentence in cues.sentences(text):
        if cues.is_question(sentence):
            continue
        for token in nlp(sentence):
            if token.dep_ != "nsubj" or token.lower_ not in _US:
                continue
            verb = token.head
            said = verb if _negated(verb) else verb.head if verb.dep_ == "ccomp" and _negated(verb.head) else None
            if said is not None:
                clause = "".join(t.text_with_ws for t in said.subtree).strip()
                if read_reply(deps, QUESTION, clause) == "no":
                    return True
    return False

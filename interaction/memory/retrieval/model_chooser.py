"""A configured model reads the shortlist and says which memory, if any, answers the recall question.

It answers with an index of the numbered memories or "none", never free text (a JSON object validated
as RecallChoice, one repair request when it does not fit). The offline decision (CalibratedChooser)
is the default and the fallback: when no model is configured, when the call fails, times out, finds
the turn's budget spent or its circuit open, or still does not fit after the repair. Whatever the
model says, a memory naming a conflicting entity (entities.py) is only asked about, never asserted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from interaction.memory.retrieval.decision import Chooser, Outcome, Scored

log = logging.getLogger("nadine.memory.model_chooser")

RECALL_CHOICE_SYSTEM = """You decide whether something a person told you answers their question.
Below are their question and numbered things they told you earlier. Reply with one JSON object:
{"answer": N} where N is the number of the one thing told that answers the question, or
{"answer": "none"} when none of them is what the question asks about (a different person, pet, thing
or event counts as none, even if it sounds alike). Never write anything else."""


class RecallChoice(BaseModel):
    answer: int | Literal["none"]


AskJson = Callable[[list[dict[str, Any]], type[RecallChoice]], RecallChoice | None]


def choice_messages(query: str, quotes: Sequence[str]) -> list[dict[str, Any]]:
    told = "\n".join(f"{n}. {q}" for n, q in enumerate(quotes, start=1))
    return [{"role": "system", "content": RECALL_CHOICE_SYSTEM},
            {"role": "user", "content": f"Things they told you:\n{told}\n\nTheir question: {query}"}]


class ModelChooser:
    """Chooser asking a model (through `ask_json`, which runs inside the turn's budget and the
    endpoint's circuit breaker and returns None when the model cannot be used) about the best
    `max_shown` candidates; `fallback` decides otherwise."""

    def __init__(self, ask_json: AskJson, fallback: Chooser, quote: Callable[[Scored], str], max_shown: int = 5) -> None:
        self.ask_json = ask_json
        self.fallback = fallback
        self.quote = quote
        self.max_shown = max_shown

    def choose(self, query: str, shortlist: Sequence[Scored], top_k: int) -> tuple[Outcome, list[int]]:
        if not shortlist:
            return "abstained", []
        shown = sorted(range(len(shortlist)), key=lambda i: -shortlist[i].probability)[: self.max_shown]
        answer = self.ask_json(choice_messages(query, [self.quote(shortlist[i]) for i in shown]), RecallChoice)
        if answer is None:
            return self.fallback.choose(query, shortlist, top_k)
        if answer.answer == "none":
            return "abstained", []
        if not 1 <= answer.answer <= len(shown):
            log.warning("recall model named memory %s of %d; offline decision instead", answer.answer, len(shown))
            return self.fallback.choose(query, shortlist, top_k)
        chosen = shown[answer.answer - 1]
        return ("offered" if shortlist[chosen].conflict else "asserted"), [chosen]

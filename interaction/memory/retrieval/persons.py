"""Whom a text's personal pronouns speak of: the one talking (first person), the one spoken to
(second person), by spaCy's morphology (`Person=1` / `Person=2` on pronouns), never by a list of words.

A memory is what a person told someone. When every pronoun of it is the listener's ("Wow, that
painting is awesome! What inspired you?", "Love the necklace, any special meaning to it?") it tells of
the listener's life, not of the teller's: asked "what inspired my painting?", it is the neighbour
of the answer (the other person's painting), never the answer. A question naming the teller's own
things is told apart from it as "my race" is from "your race" (entities.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Persons:
    speaker: bool  # a first-person pronoun: I, my, me, we, our ...
    listener: bool  # a second-person pronoun: you, your ...

    @property
    def listener_alone(self) -> bool:
        """Speaks of the one spoken to and never of the one speaking."""
        return self.listener and not self.speaker


def read_persons(doc) -> Persons:
    said = {person for t in doc if t.pos_ == "PRON" for person in t.morph.get("Person")}
    return Persons(speaker="1" in said, listener="2" in said)

"""A question whose only thing is "it" ("how many weeks till it?", "when is it again?") asks after the
last thing the person told with a date, as a value put right with "it" ("it's now the 3rd") is put
right in what was told last (offline/corrections.py). The question is read with "it" as that thing,
the subject of the statement that dated it ("how many weeks till it?" after "our village fete is on
the 20th of June": "how many weeks till our village fete?")."""

from __future__ import annotations

from interaction.answer_span import stands_in
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.time_window import TIME_UNITS
from interaction.told_time import named_time

_NAMING = {"NOUN", "PROPN"}
_SUBJECTS = {"nsubj", "nsubjpass"}


def with_it_named(question: str, said: list[TranscriptTurn]) -> str:
    """`question` with its one "it" said as the thing the latest of `said` (this conversation's
    statements, oldest first) dates; unchanged when it names a thing of its own (a unit of time
    counted is none), when nothing told has a date, or when that statement's subject names nothing."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return question
    asked = nlp(question)
    its = [t for t in asked if stands_in(t) and t.pos_ == "PRON"]
    if len(its) != 1 or any(t.pos_ in _NAMING and t.lower_ not in TIME_UNITS for t in asked):
        return question
    dated = next((nlp(turn.text) for turn in reversed(said) if named_time(nlp(turn.text), turn.at) is not None), None)
    subject = next((t for t in dated if t.dep_ in _SUBJECTS), None) if dated is not None else None
    if subject is None or subject.pos_ not in _NAMING:
        return question
    phrase = dated[subject.left_edge.i:subject.i + 1].text
    it = its[0]
    return question[:it.idx] + phrase[:1].lower() + phrase[1:] + question[it.idx + len(it.text):]

"""What marks a forgotten memory in the conversations that mention it: its own words, as the person
said them and as Nadine says them back, and the turn it came from.

A turn holds the memory when it is that turn (its id), or when its words contain the memory's whole
text in order, case and punctuation aside. Nothing looser: a forget must never take another memory
with it, so a text shorter than MIN_PHRASE_WORDS words has to be the whole turn ("I won!" never takes
"I won the lottery" along). Nadine's reply to a turn that holds it goes too: it answers what is
forgotten ("I'll remember that ...", "Congratulations on ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from interaction import cues
from interaction.answer_span import ANSWER_FIRST, STANDS_FOR
from interaction.memory.contracts import TranscriptTurn
from interaction.memory_intent.phrasing import second_person
from interaction.reported_speech import reported
from interaction.spoken_clock import clock_written

MIN_PHRASE_WORDS = 3
_WORD = re.compile(r"\w+")


def words(text: str) -> str:
    """The text's words, casefolded, one space apart (typographic apostrophes split like plain ones)."""
    return " ".join(_WORD.findall(text.casefold()))


@dataclass(frozen=True)
class Forgotten:
    phrases: tuple[str, ...]  # normalised by words()
    turn_ids: frozenset[str] = frozenset()
    memory_ids: frozenset[str] = frozenset()  # the memory's own id (scene, explicit memory, turn document)
    # a memory of several sentences may be several turns kept as one ("I got a puppy last week! his name
    # is Bolt", said_before.py): a turn that is the whole of some of its sentences holds part of it
    sentence_runs: frozenset[str] = frozenset()

    @classmethod
    def of(cls, texts: Iterable[str | None], turn_ids: Iterable[str | None] = (),
           memory_ids: Iterable[str | None] = ()) -> Forgotten:
        """The memory said by the person (`texts`), as a confirmation says it back (pronouns swapped
        word by word) and as a recall does (reported speech); `memory_ids`: what a reply that said it
        back names it by (TranscriptTurn.drew_on)."""
        forms: dict[str, None] = {}
        runs: set[str] = set()
        for text in texts:
            base = (text or "").strip().rstrip(" .!?")
            if base:
                # said back, a time in words is the clock's ("at half three": "at 3:30")
                for form in (base, second_person(base), second_person(clock_written(base)), reported(base)):
                    if normal := words(form):
                        forms[normal] = None
                runs |= _sentence_runs(base)
        return cls(tuple(forms), frozenset(i for i in turn_ids if i), frozenset(i for i in memory_ids if i),
                   frozenset(runs))

    def __bool__(self) -> bool:
        return bool(self.phrases or self.turn_ids or self.memory_ids)

    def said_in(self, text: str) -> bool:
        for form in _with_the_answer_in_place(text):
            said = words(form)
            padded = f" {said} "
            if said and any(said == p or (len(p.split()) >= MIN_PHRASE_WORDS and f" {p} " in padded)
                            for p in self.phrases):
                return True
        return words(text) in self.sentence_runs

    def holds(self, turn: TranscriptTurn) -> bool:
        """The turn said it: it is the turn it came from, its words hold it, or it is a reply that
        drew on it (a recall or "what do you know about me?" rewords it past any phrase match:
        "the day before" for "yesterday", one clause of it)."""
        return ((turn.turn_id is not None and turn.turn_id in self.turn_ids)
                or bool(turn.drew_on & (self.turn_ids | self.memory_ids)) or self.said_in(turn.text))


def _sentence_runs(text: str) -> set[str]:
    """The words of each run of whole sentences of a text of several, but the whole, of at least
    MIN_PHRASE_WORDS words: what a turn kept as part of it said."""
    sentences = cues.sentences(text)
    runs = (" ".join(sentences[i:j]) for i in range(len(sentences)) for j in range(i + 1, len(sentences) + 1)
            if j - i < len(sentences))
    return {normal for run in runs if len((normal := words(run)).split()) >= MIN_PHRASE_WORDS}


def _with_the_answer_in_place(text: str) -> list[str]:
    """The text, and where it says an answer first ("At the airport, level 3 — you asked me to
    remember that you left your car there."), the memory it comes from with the answer back in the
    place of the word that stood for it: a recall's reply holds the memory's words that way."""
    first, dash, rest = text.partition(ANSWER_FIRST)
    if not dash:
        return [text]
    places = re.finditer(r"\b(?:" + "|".join(STANDS_FOR.values()) + r")\b", rest)
    return [text, *(rest[:m.start()] + first + rest[m.end():] for m in places)]


def forgotten_turns(transcript: Sequence[TranscriptTurn], forgotten: Forgotten) -> set[int]:
    """Indexes of the turns that hold the memory, with Nadine's replies to the person's ones."""
    gone: set[int] = set()
    for i, turn in enumerate(transcript):
        answers_gone = turn.role == "nadine" and i - 1 in gone and transcript[i - 1].role == "user"
        if answers_gone or forgotten.holds(turn):
            gone.add(i)
    return gone

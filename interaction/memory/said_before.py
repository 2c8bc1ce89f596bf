"""A turn that speaks of someone or something only by a pronoun means whom the person's statement just
before it told of: "his name is Bolt, he's a border collie" after "I got a puppy last week!", "he's a
mountain guide" after "my boyfriend's name is Kristoff". Kept alone, the memory says nothing of the
puppy or the boyfriend, and "what's my puppy called?" finds no name in it. It is kept, ranked and read
with that statement before it, as one memory said in two breaths; the readers of a memory already take
a pronoun to mean the one its sentence before named ("a new puppy! her name is Mila").

Only the person's own turn just before counts: an answer to Nadine's question, a goodbye or a question
between is no statement a pronoun can point back to, and nothing further back is guessed at.
"""

from __future__ import annotations

from interaction.memory.contracts import TranscriptTurn
from interaction.offline.parsing import leans_on_the_turn_before


def turn_leant_on(transcript: list[TranscriptTurn], i: int) -> int | None:
    """The index of the person's statement that turn `i` of `transcript` leans on: their turn just before
    it, when both tell something (a question, "got it?", is no memory to keep with it) and turn `i`
    speaks of the other's one by a pronoun; None otherwise."""
    from interaction.memory.told import is_told

    before = next((j for j in range(i - 1, -1, -1) if transcript[j].role == "user"), None)
    if before is None or not transcript[i].tells or not transcript[before].tells:
        return None
    if not leans_on_the_turn_before(transcript[i].text) or not is_told(transcript[i].text) \
            or not is_told(transcript[before].text):
        return None
    return before


def said_with(before: str, text: str) -> str:
    """The two statements as one memory, the first ending its sentence: of a request to remember, what
    it asked to keep ("remember that my daughter's birthday is on the 3rd" then "her name is
    Margaret": "my daughter's birthday is on the 3rd. her name is Margaret"), never the asking."""
    from interaction.memory_intent.classifier import classify
    from interaction.memory_intent.phrasing import request_content

    before = (request_content(before) if classify(before).intent == "remember" else before).rstrip()
    return f"{before} {text}" if before.endswith((".", "!", "?", "…")) else f"{before}. {text}"


def quoted(transcript: list[TranscriptTurn], i: int, kept: set[int] | None = None) -> str:
    """What turn `i` of `transcript` is quoted as: with the statement before it that its pronoun points
    back to (while that one is `kept`: every turn when None)."""
    before = turn_leant_on(transcript, i)
    if before is None or (kept is not None and before not in kept):
        return transcript[i].text
    # ... itself quoted with the one it leans on: "his name is Walter. He has dementia." then "I visit
    # him every Wednesday" are one memory with what named him
    return said_with(quoted(transcript, before, kept), transcript[i].text)

"""A turn's words as the person meant to spell them, for reading what it asks of memory: "forgt the
due date thing" is a forget request, never something told to be recalled later.

The classifier's character n-grams carry a one-letter slip ("remeber"), not a dropped or swapped
letter in a short verb ("forgt", "frogot"). A word that neither WordNet nor spaCy's lemma of it knows
as English ("lived" is "live") is read as the nearest English lemma (spelling.mend) at least
MIN_SIMILARITY alike by edit distance; a chat spelling ("abt", "u") as the word it stands for
(offline/chat_spelling.py); names and other words nothing is near stay as typed. Only the
reading changes: the turn's own text is kept as said.

A memory is ranked the same way by what it meant (memory_as_meant): "her next hospital apointment"
shares no token with "my mum's hospital appointment" and its cosine falls from 0.81 to 0.43, so a
request naming it found nothing while it was quoted as said.
"""

from __future__ import annotations

import contextlib
import functools

from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.memory.retrieval.spelling import mend
from interaction.offline.chat_spelling import CHAT_SPELLINGS, spelled_out

# chosen on the memory-intent dev split (scripts/eval/README.md): 0.75 also read "lived" as "livedo"
# and "Basu" as "Babu"; 0.8 still reads one edit in a five-letter verb ("forgt", "frget")
MIN_SIMILARITY = 0.8
_NAMES = frozenset({"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LANGUAGE"})


@functools.lru_cache(maxsize=1024)
def as_meant(text: str, names_kept: bool = False) -> str:
    """`text` with each word no dictionary knows read as the nearest English word; unchanged without
    WordNet or the parser. `names_kept`: a word the parser reads as part of a name stays as written
    ("Melanie" is no misspelt "melanise"; "Feburary" is no name)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    lexicon = load_wordnet()
    if lexicon is None:
        return text
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return text
    # a chat spelling ("abt", "u") is read as the word the parser reads it as (chat_spelling.py)
    said = "".join((t.norm_ if t.lower_ in CHAT_SPELLINGS else t.text) + t.whitespace_ for t in doc)
    known = {t.norm_ if t.lower_ in CHAT_SPELLINGS else t.lower_ for t in doc
             if t.lower_ in CHAT_SPELLINGS or lexicon.knows(t.lower_) or lexicon.knows(t.lemma_.casefold())
             or (names_kept and t.ent_type_ in _NAMES)}
    return mend(said, known, lexicon, MIN_SIMILARITY)


@functools.lru_cache(maxsize=4096)  # a recall reads each shortlisted quote twice (verifier, entities)
def memory_as_meant(text: str) -> str:
    """What a stored memory is ranked by: its words as meant, names as written. Most memories have no
    word near an English word they are not, which a mend without the parse tells in a fraction of a
    millisecond; only the rest are parsed (the parse knows "reminded" is "remind", not "reminder")."""
    spelled = spelled_out(text)  # "my wifi pw is ..." is found by "what's my wifi password?"
    return as_meant(text, names_kept=True) if _near_another_word(spelled) else spelled


def memories_as_meant(texts: list[str]) -> list[str]:
    """memory_as_meant of each text, those it parses in one batch (spaCy's pipe costs about a third
    per text of one call each: a recall's shortlist is read at once)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    parsed = [t for t in dict.fromkeys(texts) if _near_another_word(spelled_out(t))]
    if len(parsed) > 1:
        with contextlib.suppress(ParserUnavailable):
            load_parser().pipe(parsed)
    return [memory_as_meant(t) for t in texts]


def _near_another_word(text: str) -> bool:
    lexicon = load_wordnet()
    return lexicon is not None and mend(text, set(), lexicon, MIN_SIMILARITY) != text

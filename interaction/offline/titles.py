"""A title said before a name ("Dr.", "Prof.", "Mrs", "Professor"): no part of the name, but part of
how the person may ask to be addressed ("please call me Dr. Okafor")."""

from __future__ import annotations

import functools
import re

_UPPER_WORD = r"[A-ZÀ-ÖØ-Þ][A-Za-zÀ-ÖØ-öø-ÿ'\u2019\-]*"
_TITLED = re.compile(rf"\b([A-Z][A-Za-z]{{0,9}}\.?)\s+(?={_UPPER_WORD})")


def is_title(word: str) -> bool:
    """A word said before a name that is no name: an abbreviation spaCy's tokenizer keeps whole and
    expands to nothing else, typed with its stop ("Dr.", "Mrs.", "Prof."; "Jan." is January) or
    without it when it has no vowel letter, which no name lacks ("Dr", "Mrs"); or the word of a person
    by WordNet that such an abbreviation begins ("Professor", "Senator"). A word of a person alone is
    not one ("Guy", "Dean" and "Hunter" are names too), nor an abbreviation that is also a name
    without its stop ("Mo", "Co")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    bare = word.rstrip(".")
    if bare in _abbreviations() and (word.endswith(".") or not re.search(r"[aeiouy]", bare, re.IGNORECASE)):
        return True
    wordnet = load_wordnet()
    return not word.endswith(".") and wordnet is not None and wordnet.lexical_file(bare.lower()) == "noun.person" \
        and any(bare.startswith(a) and bare != a for a in _abbreviations() if len(a) >= 3)


@functools.cache
def _abbreviations() -> frozenset[str]:
    from spacy.lang.en.tokenizer_exceptions import TOKENIZER_EXCEPTIONS
    from spacy.symbols import ORTH

    return frozenset(key[:-1] for key, forms in TOKENIZER_EXCEPTIONS.items()
                     if key[:1].isupper() and key.endswith(".") and "." not in key[:-1]
                     and len(forms) == 1 and set(forms[0]) == {ORTH})


def without_titles(text: str) -> str:
    """`text` with every title before a name left out ("I'm Dr. Priya Raman" -> "I'm Priya Raman")."""
    return _TITLED.sub(lambda m: "" if is_title(m.group(1)) else m.group(0), text)


def title_before(text: str, name: str) -> str | None:
    """The title said right before `name` in `text` ("Dr." of "call me Dr. Okafor"), if any."""
    first = re.escape(name.split()[0]) if name.split() else ""
    for found in _TITLED.finditer(text):
        if first and re.match(first + r"\b", text[found.end():], re.IGNORECASE) and is_title(found.group(1)):
            return found.group(1)
    return None

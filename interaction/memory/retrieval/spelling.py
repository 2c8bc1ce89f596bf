"""A misspelt word of a request, read as the word the person meant.

MiniLM and BM25 both lose a misspelt word ("my parnets devorced" shares no token with "my parents
are getting divorced", and its cosine is near zero), so a request naming its topic with a typo finds
nothing. A word of the request that WordNet does not know as English (lexicon.WordNet.knows) and
that no memory uses is replaced by the nearest word by optimal-string-alignment edit distance
(rapidfuzz; a swapped pair of letters is one edit) whose normalised similarity reaches
`min_similarity`: first among the words of the person's own memories and their stems ("flod" for
"flooded"), else among WordNet's English lemmas ("acident" -> "accident", which MiniLM then relates
to "I crashed my bike"). Words WordNet knows are never changed ("cat" stays a cat, however near "car"
it is spelt), nor a function word (spaCy's English stop words: WordNet holds no "and" or "what"), nor a word
joined to an apostrophe ("father's", "can't").
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import OSA
from spacy.lang.en.stop_words import STOP_WORDS

from interaction.memory.retrieval.lexical import stems
from interaction.memory.retrieval.lexicon import WordNet

_WORD = re.compile(r"(?<![\w'\u2019])[^\W\d_]+(?![\w'\u2019])")
# a word before a possessive's apostrophe ("Layla" of "Layla's", "James" of "James'"), not a contraction's
_POSSESSOR = re.compile(r"(?<![\w'\u2019])([^\W\d_]+)['\u2019]s?(?![\w'\u2019])")


def words_of(texts: Iterable[str]) -> set[str]:
    """The words of `texts`, casefolded, possessors among them (a name the memories hold only as
    "Layla's" is a word the person used, not a misspelling), with their stems."""
    words = {w.casefold() for text in texts for pattern in (_WORD, _POSSESSOR) for w in pattern.findall(text)}
    return words | set(stems(sorted(words)))


def names_as_told(query: str, quotes: Iterable[str]) -> str:
    """`query` with each word typed in lower case that the memories write only with a capital inside a
    sentence, as a name ("how many babies did nibbles have" over "my hamster Nibbles had babies"),
    written so: the parser reads "nibbles" typed so as a plural noun, and the question then asks of
    something no memory names."""
    capitalised: set[str] = set()
    lower: set[str] = set()
    for quote in quotes:
        named, plain = _words_by_case(quote)
        capitalised |= named
        lower |= plain
    names = {w.casefold(): w for w in capitalised if w.casefold() not in lower}
    return _WORD.sub(lambda m: names.get(m.group(), m.group()), query) if names else query


@functools.lru_cache(maxsize=4096)
def _words_by_case(quote: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the words `quote` writes with a capital where no sentence opens, the words it writes in lower
    case): read once per memory, as every recall over it asks again."""
    named, plain = set(), set()
    for word in _WORD.finditer(quote):
        said, j = word.group(), word.start() - 1
        while j >= 0 and quote[j].isspace():
            j -= 1
        if said.islower():
            plain.add(said)
        elif said[:1].isupper() and said[1:].islower() and j >= 0 and quote[j] not in ".!?\"'":
            named.add(said)
    return frozenset(named), frozenset(plain)


def mend(query: str, vocabulary: set[str], lexicon: WordNet | None, min_similarity: float) -> str:
    """`query` with each word WordNet does not know and `vocabulary` lacks replaced by the nearest
    vocabulary word, else the nearest English lemma, at least `min_similarity` alike; unchanged
    without WordNet."""
    if lexicon is None or min_similarity > 1.0:
        return query
    own = sorted(vocabulary)

    def nearest(m: re.Match) -> str:
        word = m.group(0)
        key = word.casefold()
        if key in vocabulary or key in STOP_WORDS or lexicon.knows(key):
            return word
        for choices in (own, _english_near(lexicon, key, min_similarity)):
            # the bound is inclusive: rapidfuzz's 1 - 1/5 falls a hair below 0.8
            found = process.extractOne(key, choices, scorer=OSA.normalized_similarity,
                                       score_cutoff=min_similarity - 1e-9)
            if found:
                return found[0].capitalize() if word[0].isupper() else found[0]
        return word

    return _WORD.sub(nearest, query)


def _english_near(lexicon: WordNet, key: str, min_similarity: float) -> list[str]:
    """The English lemmas that can reach `min_similarity` with `key`, in the lexicon's order (by length,
    then alphabetically). The edit distance is at least the difference in length, so only lengths in
    [s*n, n/s] can (a turn with a name in it searched all 147,000 lemmas for it, 25 ms a word), and at
    least half the number of letters that one of the two words has and the other lacks (an edit adds
    or removes at most two of them), so only lemmas sharing nearly all their letters with it can (every
    lemma of a near length took 1-3 ms a word)."""
    n = len(key)
    shortest, longest = math.ceil(min_similarity * n - 1e-9), math.floor(n / min_similarity + 1e-9)
    edits = 1 - min_similarity + 1e-6  # edits per letter of the longer word the similarity allows, and a hair
    mask = letters((key,), n)[0]
    near: list[str] = []
    for length in range(shortest, longest + 1):
        words = lexicon.words_by_length.get(length, ())
        if not words:
            continue
        masks = _lemma_letters(lexicon)[length]
        fewest = np.maximum(abs(n - length), (np.bitwise_count(masks ^ mask) + 1) // 2)
        near += [words[i] for i in np.flatnonzero(fewest <= edits * max(n, length))]
    return near


@functools.lru_cache(maxsize=4)
def _lemma_letters(lexicon: WordNet) -> dict[int, np.ndarray]:
    """The letters of the lexicon's lemmas, by length as in words_by_length (read once per lexicon)."""
    return {n: letters(words, n) for n, words in lexicon.words_by_length.items()}


def letters(words: tuple[str, ...], length: int) -> np.ndarray:
    """The set of letters of each word (all `length` long) as a bit mask: a-z one bit each, any other
    letter one of six more bits by its code point (two letters sharing a bit can only hide a
    difference between two words, never make one)."""
    points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.uint32).reshape(len(words), length)
    bits = np.where((points >= 97) & (points <= 122), points - 97, 26 + points % 6).astype(np.uint32)
    return np.bitwise_or.reduce(np.left_shift(np.uint32(1), bits), axis=1, initial=np.uint32(0))

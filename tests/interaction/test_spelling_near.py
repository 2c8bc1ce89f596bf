"""A misspelt word is compared only with the English lemmas that share nearly all its letters
(interaction/memory/retrieval/spelling.py): the lemma it is read as is the one a search of every lemma
of a near length finds."""

from __future__ import annotations

import math

import pytest
from rapidfuzz import process
from rapidfuzz.distance import OSA

from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.memory.retrieval.spelling import _english_near, letters, mend


@pytest.fixture(scope="module")
def lexicon():
    loaded = load_wordnet()
    assert loaded is not None, "WordNet ships with the project: ./scripts/bootstrap.sh installs it"
    return loaded


def _every_lemma_of_a_near_length(lexicon, key: str, similarity: float) -> list[str]:
    shortest, longest = math.ceil(similarity * len(key) - 1e-9), math.floor(len(key) / similarity + 1e-9)
    return [w for n in range(shortest, longest + 1) for w in lexicon.words_by_length.get(n, ())]


@pytest.mark.parametrize("similarity", [0.6, 0.75, 0.8, 0.9])
@pytest.mark.parametrize("word", ["umbrela", "nieghbour", "bycicle", "recieve", "grandmothr", "tomatoe", "haarlem",
                                  "wedensday", "ab", "sauté", "kwabena", "accomodation"])
def test_the_nearest_lemma_is_the_one_every_lemma_of_a_near_length_gives(lexicon, word, similarity):
    near = _english_near(lexicon, word, similarity)
    every = _every_lemma_of_a_near_length(lexicon, word, similarity)
    kept = set(near)
    assert kept <= set(every) and near == [w for w in every if w in kept]  # in the lexicon's order
    found = [process.extractOne(word, choices, scorer=OSA.normalized_similarity, score_cutoff=similarity - 1e-9)
             for choices in (near, every)]
    assert (found[0] and found[0][:2]) == (found[1] and found[1][:2])


def test_letters_that_share_a_bit_never_make_two_words_differ():
    apart = letters(("sauté", "sautè", "saute"), 5)
    assert bin(int(apart[0] ^ apart[2])).count("1") == 2  # é against e
    assert bin(int(apart[0] ^ apart[1])).count("1") <= 2  # é against è: maybe one bit, never more


def test_a_misspelt_verb_is_still_read_as_meant(lexicon):
    assert mend("I forgt the recieve", set(), lexicon, 0.8) == "I forget the receive"

"""A stored job said back as a person says it: "you work as a paralegal", not "as paralegal".

The profile keeps a position without its determiner ("paralegal", so "a paralegal" and "the
paralegal" are one value); the turn that heard it has the person's own wording (grounding.Grounded.said),
a later turn does not. A singular common noun heading the phrase takes the indefinite article
(spaCy's tag NN, or a lower-case word it tags a proper name: "paralegal", "head chef", "midwife"); a plural, a proper name or an adjective does not
("nurses", "NASA", "retired", "self-employed"). Which of "a" / "an" goes by how the next word sounds,
read by the inflect library ("an MRI technician", "a university lecturer", "an hour"), which also
says a count in words (number_words: "three days ago").
"""

from __future__ import annotations

import functools
import re

import inflect
from cachetools import LRUCache

_ENGINE = inflect.engine()
_SAID: LRUCache[str, str] = LRUCache(256)


def with_article(phrase: str) -> str:
    """`phrase` with "a" / "an" in front when its head is a singular common noun; as it is otherwise,
    and when it already starts with a determiner or spaCy cannot load."""
    phrase = " ".join(phrase.split())
    if not phrase:
        return phrase
    said = _SAID.get(phrase)
    if said is None:
        said = _SAID[phrase] = _ENGINE.a(phrase) if _takes_article(phrase) else phrase
    return said


def _takes_article(phrase: str) -> bool:
    nlp = _parser()
    if nlp is None:
        return False
    doc = nlp(phrase)
    if doc[0].pos_ in {"DET", "PRON"}:
        return False
    head = next((t for t in doc if t.head.i == t.i), doc[-1])
    # a lone lower-case word is sometimes tagged a proper name ("midwife", "barista"): a name is written with a capital
    return head.tag_ == "NN" or (head.tag_ == "NNP" and head.text.islower()) or (len(doc) == 1 and _a_person_first(head))


def said_as_a_state(phrase: str) -> bool:
    """A position whose head is an adjective or a participle ("retired", "self-employed", "unemployed"):
    what one is, not what one works as. False without spaCy."""
    nlp = _parser()
    if nlp is None or not phrase.strip():
        return False
    doc = nlp(" ".join(phrase.split()))
    head = next((t for t in doc if t.head.i == t.i), doc[-1])
    return head.pos_ == "ADJ" or head.tag_ in ("VBN", "VBD")


def _a_person_first(word) -> bool:  # noqa: ANN001 - a spaCy Token
    """A lone word tagged a verb whose noun's most frequent WordNet sense is a person ("cook", "guide"):
    said alone as a job, it is that person."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return word.pos_ == "VERB" and word.text.islower() and wordnet is not None and wordnet.kind_of_person(word.text)


@functools.cache
def _parser():  # noqa: ANN202 - a spaCy Language or None
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()
    except ParserUnavailable:
        return None


def said_with_verb(value: str, clause: str | None) -> bool:
    """The job was said with a verb ("I drive a tram": "drive a tram"), read off the clause it was said
    in (a value alone parses either way: "fix bikes" as a noun compound); without one, it is a title."""
    nlp = _parser()
    if not clause or nlp is None:
        return False
    first = value.split()[0].casefold() if value.split() else ""
    return any(t.lower_ == first and t.pos_ == "VERB" and t.tag_ in {"VB", "VBP", "VBZ", "VBG"} for t in nlp(clause))


def in_the_progressive(value: str) -> bool:
    """A job said with a verb in its "-ing" form ("studying law", as "I'm studying law" tells it): said
    back with "you're", never as "you studying law"."""
    nlp = _parser()
    doc = nlp(value) if nlp is not None and value.strip() else None
    return doc is not None and doc[0].tag_ == "VBG"


def articled_in(clause: str, job: str) -> str:
    """`clause` with the `job` said in it given its article when it was said without one, as a job
    said alone is (with_article): "I work as nurse in night shift" -> "I work as a nurse in night
    shift"; a job said with a determiner or a possessive ("the head nurse", "my trade") as it was, and
    a rank one is raised to, which English says bare ("promoted to senior engineer")."""
    nlp = _parser()
    found = re.search(r"(?<!\w)" + re.escape(job) + r"(?!\w)", clause, re.IGNORECASE)
    if nlp is None or found is None:
        return clause
    span = nlp(clause).char_span(found.start(), found.end(), alignment_mode="expand")
    if span is None or any(c.dep_ in ("det", "poss") for c in span.root.children) \
            or (span.start > 0 and span.doc[span.start - 1].lower_ == "to"):
        return clause
    return clause[:found.start()] + with_article(found.group(0)) + clause[found.end():]


def spoken(field: str, value: str) -> str:
    """A stored value of `field` as Nadine says it after its frame ("you work as {}"): a position with
    its article, every other field as stored."""
    return with_article(value) if field == "current_position" else value


def number_words(n: int) -> str:
    """A count as it is spoken ("three", "twenty-one")."""
    return str(_ENGINE.number_to_words(n))


def with_its_article(clause: str | None, value: str) -> str:
    """`value` with the article it was said with in `clause` ("a call centre", "the vet clinic"): a
    place of work said by its kind is stored without one, as a job is; as it is when the clause said
    none (a name: "Tesco") or is not known."""
    found = re.search(r"\b(a|an|the)\s+" + re.escape(value) + r"(?!\w)", clause or "", re.IGNORECASE)
    return f"{found.group(1).lower()} {value}" if found else value


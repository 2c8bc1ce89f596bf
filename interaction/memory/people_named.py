"""People (and pets) the person has named by what they are to them: "my sister Lena", "Lena, my
sister", "my son is called Marco". A question about "my sister" is asked of memory as "my sister
Lena", and one about "Lena" as "my sister Lena", so what was told under the other way of calling her
("Lena lives in Hamburg") answers it.

Only what the person told about their own people counts (a first-person possessor: "my", "our"), and
only a way of calling with exactly one name told: two sisters named leave the question as it was.
The person's texts are read with spaCy's parse (apposition, or "called"/"named" with the relation as
subject); only the texts that contain the word asked about are parsed."""

from __future__ import annotations

from collections.abc import Iterable

from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.offline.grounding import first_person

_NAMED_AS = {"oprd", "attr"}  # "my son is called Marco", "my boss's name is Ines" is not read


def _is_name(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A proper noun, or a capitalised word the tagger took for a common noun that English does not
    have ("Viktor, my husband, ...")."""
    if tok.pos_ == "PROPN":
        return True
    wordnet = load_wordnet()
    return (tok.pos_ == "NOUN" and tok.text[:1].isupper() and wordnet is not None
            and not wordnet.knows(tok.text))


def _name(tok) -> str:  # noqa: ANN001 - a spaCy Token
    """The whole name a proper-noun token heads ("Tom Baker")."""
    parts = [c for c in tok.children if c.dep_ == "compound" and c.pos_ == "PROPN"] + [tok]
    return " ".join(t.text for t in sorted(parts, key=lambda t: t.i))


def _own(noun) -> bool:  # noqa: ANN001
    """A noun the speaker possesses: "my sister", "our dog"."""
    return any(c.dep_ == "poss" and first_person(c) for c in noun.children)


def _pairs(doc) -> Iterable[tuple[str, str]]:  # noqa: ANN001 - a spaCy Doc
    """(relation lemma, name) for each of the speaker's people named in `doc`."""
    for tok in doc:
        if tok.dep_ == "compound" or not _is_name(tok):
            continue
        head = tok.head
        if tok.dep_ == "appos" and head.pos_ == "NOUN" and _own(head):  # "my sister Lena", "my sister, Lena,"
            yield head.lemma_.casefold(), _name(tok)
        elif tok.dep_ in _NAMED_AS and head.pos_ in ("VERB", "AUX"):  # "my son is called Marco"
            subjects = [c for c in head.children if c.dep_ in ("nsubj", "nsubjpass") and c.pos_ == "NOUN"]
            if subjects and _own(subjects[0]) and head.lemma_ in ("call", "name"):
                yield subjects[0].lemma_.casefold(), _name(tok)
        for appos in tok.children:  # "Lena, my sister, ..."
            if appos.dep_ == "appos" and appos.pos_ == "NOUN" and _own(appos):
                yield appos.lemma_.casefold(), _name(tok)


def with_names(question: str, texts: Iterable[str], nlp) -> str:  # noqa: ANN001 - a CachedParser
    """`question` with each of the speaker's people it calls one way ("my sister", "Lena") also called
    the other way, when the person's `texts` name exactly one; the question unchanged otherwise."""
    doc = nlp(question)
    relations = {t.i: t.lemma_.casefold() for t in doc if t.pos_ == "NOUN" and _own(t) and not _is_named(t)}
    names = {t.i: _name(t) for t in doc if t.pos_ == "PROPN" and t.dep_ != "compound" and not _is_named(t)}
    if not relations and not names:
        return question
    words = {w.casefold() for w in [*relations.values(), *names.values()]}
    told = [t for t in dict.fromkeys(texts) if any(w in t.casefold() for w in words)]
    if not told:
        return question
    pairs = {pair for d in nlp.pipe(told) for pair in _pairs(d)}
    by_relation: dict[str, set[str]] = {}
    by_name: dict[str, set[str]] = {}
    for relation, name in pairs:
        by_relation.setdefault(relation, set()).add(name)
        by_name.setdefault(name.casefold(), set()).add(relation)
    inserts: list[tuple[int, str]] = []  # (character offset, text)
    for i, relation in relations.items():
        found = by_relation.get(relation, set())
        if len(found) == 1:
            tok = doc[i]
            inserts.append((tok.idx + len(tok.text), " " + next(iter(found))))
    for i, name in names.items():
        found = by_name.get(name.casefold(), set())
        if len(found) == 1:
            start = doc[i].left_edge.idx if doc[i].left_edge.dep_ == "compound" else doc[i].idx
            inserts.append((start, f"my {next(iter(found))} "))
    for offset, text in sorted(inserts, reverse=True):
        question = question[:offset] + text + question[offset:]
    return question


def _is_named(tok) -> bool:  # noqa: ANN001
    """A relation or a name the question already says together ("my sister Lena", "Lena, my
    sister", "my brother Luca's exam")."""
    partners = [tok.head] if tok.dep_ in ("appos", "compound") else []
    partners += [c for c in tok.children if c.dep_ in ("appos", "compound")]
    other = "NOUN" if tok.pos_ == "PROPN" else "PROPN"
    return any(p.pos_ == other for p in partners)

"""Whether a reply to a name question holds an answer at all, or only tells something else.

The reader (reader.py) weighs a reply as a whole, and news told instead of an answer can lean either
way ("I never got that promotion in the end" reads as a yes). An answer is said in words of its own:
a stretch of the reply (a sentence, or the part of one a comma or a dash sets off) that is an
interjection ("yes", "nope"), no clause ("without a doubt", "wrong person"), a clause about Nadine or
her question ("you've got the wrong person"), or one that names nothing besides the question's own
words ("that's me", "I think so", "that's my name"). A reply every stretch of which is a clause of
its own naming something else (spaCy's nouns and proper nouns), or bids her do something ("don't keep
it"), answers nothing: it tells or asks something.
"""

from __future__ import annotations

from interaction import cues
from interaction.offline.parsing import politeness

_NAMING = {"NOUN", "PROPN"}  # a number alone is a measure of sureness as often ("one hundred percent")
_SUBJECTS = {"nsubj", "nsubjpass", "expl"}


def says_an_answer(reply: str, question: str) -> bool:
    """Some stretch of `reply` is an answer to `question` by its words (see above); True without the
    parser, which leaves the reader's reading as it is."""
    from interaction.offline.name_reading import CLAUSE_BREAK
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return True
    asked = {t.lower_ for t in nlp(question)}
    stretches = [s for sentence in cues.sentences(reply) for s in CLAUSE_BREAK.split(sentence) if s.strip()]
    return any(_answers(doc, asked) for doc in nlp.pipe(stretches)) if stretches else True


def _answers(doc, asked: set[str]) -> bool:  # noqa: ANN001 - a spaCy Doc
    subjects = [t for t in doc if t.dep_ in _SUBJECTS]
    # "please" is the politeness of a bidding ("forget the locker code please"), no yes of its own
    if not subjects and not any(t.pos_ == "INTJ" and not politeness(t) for t in doc) \
            and any(t.dep_ == "ROOT" and t.pos_ == "VERB" and t.tag_ == "VB" for t in doc):
        return False  # a bidding ("don't keep it", "write that down") asks something of her, it answers nothing;
        # one after a yes or a no ("yeah do it") is said with the answer
    clause = bool(subjects) or any(t.pos_ == "VERB" for t in doc)
    to_nadine = any("2" in t.morph.get("Person") for t in subjects)
    return (any(t.pos_ == "INTJ" for t in doc) or not clause or to_nadine
            or not any(t.pos_ in _NAMING and t.lower_ not in asked for t in doc))

"""Whether a turn says the speaker and Nadine have never met ("Hi, I'm Sam, we've never met", "I don't
think we've met"): a negated clause about the two of them meeting, read off spaCy's parse (its subject
is "we" or "you", its verb "meet" by its most frequent WordNet sense, the negation on it or on the verb
it is said under), that the confirmation reader reads as a clear no to "Have we met before?". Without a subject ("long time
no see", "no worries") no clause is about the two of them. So does the speaker's first occasion here
("first time here", "this is my first visit"). Said with a name someone Nadine knows has, it makes the
speaker someone else who shares the name, never that person."""

from __future__ import annotations

from typing import TYPE_CHECKING

from interaction import cues
from interaction.confirmation import read_reply
from interaction.offline.question_form import statement_tagged

if TYPE_CHECKING:
    from interaction.agents.context import AgentDeps

QUESTION = "Have we met before?"
_US = {"we", "you"}
_OCCASIONS = frozenset({"instance", "visit", "meeting"})  # WordNet's kinds of "time" (the occasion), "visit"
_DEICTIC = {"this", "it"}


def _negated(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ == "neg" for c in verb.children)


def says_never_met(deps: AgentDeps | None, text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    if any(_a_first_time_here(t) for t in nlp(text)):
        return True
    for said in cues.sentences(text):
        # "I don't think we've met before, have we?" tells, with a question tagged on
        sentence = statement_tagged(said) or said if cues.is_question(said) else said
        if cues.is_question(sentence):
            continue
        for token in nlp(sentence):
            if token.dep_ != "nsubj" or token.lower_ not in _US:
                continue
            verb = token.head
            if not _of_meeting(verb):
                continue  # "we haven't been to Rome", "we don't have a dog": no answer to whether they met
            said = verb if _negated(verb) else verb.head if verb.dep_ == "ccomp" and _negated(verb.head) else None
            # the clause from its subject on: "Sorry, I'm Sofia Rossi, we've never met" hangs the
            # introduction on "met", and read whole it is no clear no
            subject = next((c for c in said.children if c.dep_ == "nsubj"), None) if said is not None else None
            start = subject.left_edge.i if subject is not None else 0
            if said is not None and read_reply(
                    deps, QUESTION, _spelled_out([t for t in said.subtree if t.i >= start])) == "no":
                return True
    return False


def _a_first_time_here(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun is the speaker's first occasion here ("first time here", "this is my first visit", "it's
    my first time talking to you"): an occasion by its most frequent WordNet sense (a time, a visit, a
    meeting) said as the first, of here and now ("here", or "this" / "it" is it) and of nothing else
    ("my first time in Derby" is of the town), not negated."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if noun.pos_ != "NOUN" or not any(c.dep_ == "amod" and c.lower_ == "first" for c in noun.children):
        return False
    wordnet = load_wordnet()
    if wordnet is None or not wordnet.kind_of(noun.lemma_, _OCCASIONS, senses=1):
        return False
    verb = noun.head
    here = any(c.lower_ == "here" for c in noun.children) or noun.dep_ == "attr" and verb.lemma_ == "be" and any(
        c.dep_ == "nsubj" and c.lower_ in _DEICTIC for c in verb.children)
    elsewhere = [o for c in noun.children if c.dep_ in ("prep", "acl") for o in c.subtree
                 if o.dep_ in ("pobj", "dobj") and o.lower_ not in _US]
    negated = noun.dep_ == "attr" and _negated(verb)
    return here and not elsewhere and not negated


def _of_meeting(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb is the question's, "meet", by its most frequent WordNet sense ("meet", "encounter"), said
of the two of them: with no object but a pronoun ("we've never met", "you haven't met me"; "you've
met my sister" is of someone else)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if any(c.dep_ == "dobj" and c.tag_ != "PRP" and c.lower_ != "other" for c in verb.children):
        return False
    return verb.lemma_.lower() == "meet" or (wordnet is not None and wordnet.means_first(verb.lemma_, "meet"))


def _spelled_out(words: list) -> str:  # noqa: ANN001 - spaCy Tokens
    """The clause with its contracted auxiliaries and negation spelled out, as spaCy's norms have them
    ("I don't think we've met" -> "I do not think we have met"): the reply reader read the contraction
    of a clear no as unclear."""
    said = [t.norm_ if t.pos_ == "AUX" or t.dep_ == "neg" else t.text for t in words]
    return " ".join(said).replace(" .", ".").replace(" ,", ",").strip()

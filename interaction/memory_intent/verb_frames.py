"""What each verb of a turn does, read from spaCy's dependency parse, as features of the memory-intent
classifier.

Words and character n-grams alone cannot tell "forget that the shed key is under the pot" from "don't
forget that the shed key is under the pot": both hold "forget that", and the negation is one short
word away. Nor is a verb's
object visible to them ("delete my passport details" names one thing, "delete everything you know"
all of it). So every verb of the turn offers its lemma marked with its polarity (a "not", "n't" or
"never" on it), its mood (a question: a wh-word on it or its auxiliary before its subject; an
imperative: a bare verb without a subject; else a statement; a final question mark is the turn's, not
its verb's: "remember my niece's recital is on the 4th, ok?" still bids), its complements (a
clause, an object with its determiner, a preposition and that preposition's object) and its adverbs ("anymore"); the
turn offers whether it ends in a question mark, whether it holds a wh-word and whether it has a verb at all ("bike lock code pls").
The classifier weighs these tokens as it weighs words, learnt from the labelled utterances.

The parse is spaCy's en_core_web_sm, through the process's one cached parser: a turn's text is parsed
once, whoever reads it first.
"""

from __future__ import annotations

from typing import Any

_NEGATIONS = {"neg"}
_SUBJECTS = {"nsubj", "nsubjpass", "expl"}
_WH_TAGS = {"WDT", "WP", "WP$", "WRB"}
_OBJECTS = {"dobj", "dative", "attr", "oprd"}
_CLAUSES = {"ccomp", "xcomp", "advcl"}
_QUANTIFIERS = {"det", "predet"}  # "all my data", "every detail": how much of something a verb takes


def mood(verb: Any) -> str:
    children = list(verb.children)
    subject = next((c for c in children if c.dep_ in _SUBJECTS), None)
    inverted = subject is not None and any(c.dep_ in ("aux", "auxpass") and c.i < subject.i for c in children)
    if inverted or any(c.tag_ in _WH_TAGS for c in children):
        return "ask"
    if subject is None and verb.tag_ == "VB" and verb.dep_ in ("ROOT", "conj"):
        return "bid"
    return "tell"


def needed_by_no_one(verb: Any) -> bool:
    """An infinitive that a noun the determiner "no" negates governs, the noun said without anyone
    having it ("no need to log it", "No need for you to remember this", "there's no need to write that
    down"; not "I have no time to read it"), the infinitive with no subject or "you": the doing is
    denied to the one addressed, as by "you don't need to"."""
    noun = verb.head
    return verb.dep_ in ("acl", "advcl", "relcl") and noun.pos_ == "NOUN" \
        and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children) \
        and any(c.dep_ == "det" and c.lower_ == "no" for c in noun.children) \
        and (noun.dep_ == "ROOT" or not any(c.dep_ in ("nsubj", "nsubjpass") for c in noun.head.children)) \
        and all(c.lower_ in ("you", "u") for c in verb.children if c.dep_ in _SUBJECTS)


def _verb_tokens(verb: Any) -> list[str]:
    lemma = verb.lemma_.lower()
    polarity = "not" if any(c.dep_ in _NEGATIONS for c in verb.children) else "yes"
    head = f"{lemma}/{polarity}"
    tokens = [lemma, head, f"{head}/{mood(verb)}"]
    for child in verb.children:
        if child.dep_ in _CLAUSES:
            tokens.append(f"{head}>{child.dep_}")
        elif child.dep_ in _OBJECTS:
            tokens += [f"{head}>obj", f"{lemma}>obj:{child.lemma_.lower()}",
                       *(f"{lemma}>obj+{d.lemma_.lower()}" for d in child.children if d.dep_ in _QUANTIFIERS)]
        elif child.dep_ == "prep":
            objects = [g.lemma_.lower() for g in child.children if g.dep_ == "pobj"]
            tokens += [f"{lemma}>{child.lower_}", *(f"{lemma}>{child.lower_}:{o}" for o in objects)]
        elif child.dep_ == "advmod" and child.tag_ not in _WH_TAGS:
            tokens.append(f"{lemma}+{child.lemma_.lower()}")
    return tokens


def frame_tokens(doc: Any) -> list[str]:
    """The parse features of one parsed turn (a spaCy Doc)."""
    tokens = ["turn/asks"] if doc.text.rstrip().endswith("?") else []
    if any(t.tag_ in _WH_TAGS for t in doc):
        tokens.append("turn/wh")
    verbs = [t for t in doc if t.pos_ == "VERB" or (t.dep_ == "ROOT" and t.pos_ == "AUX")]
    if not verbs:
        tokens.append("turn/no-verb")
    for verb in verbs:
        tokens += _verb_tokens(verb)
    return tokens


def verb_frames(texts: list[str]) -> list[list[str]]:
    """Each text's parse features, the texts parsed in one batch by the cached parser. Raises
    ParserUnavailable when spaCy's pipeline cannot load."""
    from interaction.offline.self_description import load_parser

    return [frame_tokens(doc) for doc in load_parser().pipe([" ".join(t.split()) for t in texts])]

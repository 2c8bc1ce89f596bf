"""A request to remember something to do, read from spaCy's parse: "remind me to phone the dentist on
Monday", "please remember to ask me about my exam results", "don't let me forget to renew my books".

Its form: a verb of the mind (remembering, reminding, forgetting: the cognition file of WordNet, by
its most frequent sense) that takes an infinitive with "to", said to
Nadine: bidden (an imperative, "don't forget to ...") or asked of her ("can you remind me to ..."),
itself or through the verb it hangs on ("don't let me forget to ...", "would you mind reminding me
to ..."). "My phone reminds me to take my pills" tells, "remind me what I said about the car" takes
no infinitive, "that reminds me of Greece" neither. Whether such a turn is a request to remember
is the memory-intent classifier's to say; this reads what is to be done and by whom.

Whoever the infinitive's subject is does it: the object of the verb ("remind me to ..."), or its
subject ("let me forget to ...", "help me remember to ..."): the person; no one named ("remember to
ask me ..."), or "you": Nadine. The to-do is kept in the person's words, the infinitive first and the
request verb's other modifiers after it ("remind me next time to bring the photos" -> "to bring the
photos next time"), behind the request it was (REMIND_ME for the person's, REMEMBER for Nadine's),
so a stored to-do reads back as one: "remind me to bring the photos next time".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from interaction.memory_intent.verb_frames import mood

REMIND_ME = "remind me"  # the stored request when the person is to do it
REMEMBER = "remember"  # ... and when Nadine is
_SUBJECTS = {"nsubj", "nsubjpass"}
_OBJECTS = {"dobj", "dative"}
_FIRST_PERSON = {"i", "me", "us", "we"}
_LISTENER = {"you", "u"}
_HANGS_ON = {"ccomp", "xcomp", "conj"}  # "let me forget to ...", "mind reminding me to ..."
# the request's own words, not the to-do's: "please", "can", "don't", who is asked, commas
_REQUEST_DEPS = {"aux", "auxpass", "neg", "nsubj", "nsubjpass", "intj", "discourse", "punct", "cc", "mark", "vocative"}


@dataclass(frozen=True)
class ToDo:
    doer: Literal["person", "nadine"]
    words: str  # the to-do in the person's words, its infinitive first: "to phone the dentist on Monday"

    @property
    def request(self) -> str:
        """As it is stored: the to-do behind the request it was ("remind me to phone the dentist")."""
        return f"{REMIND_ME if self.doer == 'person' else REMEMBER} {self.words}"

    @property
    def action(self) -> str:
        """The to-do without its "to": "phone the dentist on Monday"."""
        return self.words.removeprefix("to ")


def to_do(text: str) -> ToDo | None:
    """The to-do `text` asks Nadine to keep (see the module docstring); None when it has not that
    form, or without the parser or WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.self_description import ParserUnavailable, load_parser

    lexicon = load_wordnet()
    try:
        doc = load_parser()(" ".join(text.replace("\u2019", "'").split()))
    except ParserUnavailable:
        return None
    if lexicon is None:
        return None
    for verb in doc:
        infinitive = _infinitive(verb)
        if infinitive is None or lexicon.verb_lexical_file(verb.lemma_.lower()) != "verb.cognition":
            continue
        if not _said_to_nadine(verb):
            continue
        doer = _doer(verb)
        if doer is None:
            continue
        return ToDo(doer, _words(verb, infinitive, doer))
    return None


def as_to_be_done(said: str) -> str:
    """A request to keep something to do read as what is to be done, by whom, in the words of the one
    who asked: "remind me to buy eggs" -> "I have to buy eggs", "remember to ask me about the exam" ->
    "you have to ask me about the exam"; anything else as it is."""
    found = to_do(said)
    if found is None:
        return said
    return f"{'I' if found.doer == 'person' else 'you'} have {found.words}"


def _infinitive(verb: Any) -> Any | None:
    """The verb's open clause complement when it is an infinitive with "to" (the parser sometimes
    hangs it as an adverbial clause when a phrase comes between: "Remind me on Sunday to book ...")."""
    return next((c for c in verb.children if c.dep_ in ("xcomp", "advcl") and c.tag_ == "VB"
                 and any(a.dep_ == "aux" and a.tag_ == "TO" for a in c.children)), None)


def _said_to_nadine(verb: Any) -> bool:
    """Bidden or asked of the listener, the verb itself or one it hangs on."""
    while True:
        subject = next((c for c in verb.children if c.dep_ in _SUBJECTS), None)
        how = mood(verb)
        if how == "bid" or (how == "ask" and subject is not None and subject.lower_ in _LISTENER):
            return True
        if verb.dep_ not in _HANGS_ON or verb.head is verb:
            return False
        verb = verb.head


def _doer(verb: Any) -> Literal["person", "nadine"] | None:
    """Who the infinitive's subject is: the verb's object, else its subject; None for a third
    person ("remind him to ...": not the person's to-do, nor Nadine's)."""
    controller = next((c for c in verb.children if c.dep_ in _OBJECTS), None)
    if controller is None:
        controller = next((c for c in verb.children if c.dep_ in _SUBJECTS), None)
    if controller is None or controller.lower_ in _LISTENER:
        return "nadine"
    return "person" if controller.lower_ in _FIRST_PERSON else None


def _words(verb: Any, infinitive: Any, doer: str) -> str:
    """The infinitive's words, then the verb's other modifiers ("next time", "on Friday"), in the
    order said, without the request's own words and a tag question after a comma ("..., ok?")."""
    others = []
    for child in verb.children:
        if child.i == infinitive.i or child.dep_ in _REQUEST_DEPS or child.lower_ == "please":
            continue
        if doer == "person" and child.dep_ in _OBJECTS | _SUBJECTS:
            continue  # the "me" the request named
        others += [t for t in child.subtree if t.i > verb.i]
    parts = [_until_tag(list(infinitive.subtree)), sorted(others, key=lambda t: t.i)]
    said = " ".join("".join(t.text_with_ws for t in part).strip(" ,.!?;:") for part in parts if part)
    return " ".join(said.split())


def _until_tag(tokens: list[Any]) -> list[Any]:
    """The infinitive's words up to a comma that sets off a question or a word tagged on to the
    request ("remember to ask me how it went, ok?")."""
    cut = next((k for k, t in enumerate(tokens) if t.text == ","
                and all(u.dep_ in ("intj", "discourse", "punct") or u.pos_ in ("INTJ", "PUNCT") for u in tokens[k + 1:])),
               None)
    return tokens if cut is None else tokens[:cut]
